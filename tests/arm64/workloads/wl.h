/* SPDX-License-Identifier: Apache-2.0 */
/* wl.h: what the aarch64 test workloads share: Linux syscall numbers, clone flags and the
 * counted loop. The workloads call the kernel directly (no libc), so every user-space
 * instruction they retire is written in their source and the count is known exactly. */
#ifndef WL_H
#define WL_H

#define SYS_futex	98
#define SYS_exit	93
#define SYS_exit_group	94
#define SYS_nanosleep	101
#define SYS_sched_setaffinity	122
#define SYS_getppid	173
#define SYS_clone	220
#define SYS_wait4	260

#define SIGCHLD			17
#define FUTEX_WAIT		0
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000

/* spin reg, iters: 2 + 4 * iters instructions (a mov/movk pair, then iters rounds of four:
 * add, add, subs, b.ne). iters is 1 .. 2^32-1. Clobbers reg, x9 and x10. */
.macro spin reg, iters
	movz	\reg, #((\iters) & 0xffff)
	movk	\reg, #(((\iters) >> 16) & 0xffff), lsl #16
.Lspin\@:
	add	x9, x9, #1
	add	x10, x10, #1
	subs	\reg, \reg, #1
	b.ne	.Lspin\@
.endm

/* sys nr: 2 instructions (mov x8, svc); arguments already in x0..x5. */
.macro sys nr
	mov	x8, #(\nr)
	svc	#0
.endm

/* settle: with SETTLE_MS defined, sleeps that long (nanosleep): 4 instructions (adr, mov, mov,
 * svc), 0 without it. Needs settle_data in the data section. */
.macro settle
#ifdef SETTLE_MS
	adr	x0, .Lsettle_ts
	mov	x1, #0
	sys	SYS_nanosleep
#endif
.endm

.macro settle_data
#ifdef SETTLE_MS
	.balign	8
.Lsettle_ts:
	.quad	0, (SETTLE_MS) * 1000000
#endif
.endm

#endif
