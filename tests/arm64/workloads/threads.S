/* SPDX-License-Identifier: Apache-2.0 */
/* threads.S: the main thread starts THREADS threads (clone with CLONE_THREAD); each thread and
 * the main thread spin ITERS rounds; the main thread waits for every thread with one
 * FUTEX_WAIT on its CLONE_CHILD_CLEARTID word, then exits 0 (1 if a wait came back early).
 * No libc, static. There is no data-dependent branch on the normal path, so however the
 * threads are scheduled the user-space instruction count is the same. Written here:
 *   main:    3 + THREADS * 13 (spawn) + 2 + 4 * ITERS (spin) + 2 + THREADS * 11 (wait) + 3
 *   thread:  1 (the cbz after clone) + 2 + 4 * ITERS (spin) + 3 (exit) */
#include "wl.h"

#define STACK	1024
#define CFLAGS	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
		 CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

	.text
	.globl	_start
_start:
	mov	x20, #THREADS
	adr	x21, tids
	adr	x22, stacks + STACK
spawn:					/* 13 per thread in the parent */
	ldr	x0, =CFLAGS
	mov	x1, x22			/* the thread's stack */
	mov	x2, x21			/* CLONE_PARENT_SETTID: the tid is there when clone returns */
	mov	x3, #0
	mov	x4, x21			/* CLONE_CHILD_CLEARTID: zeroed and woken at thread exit */
	sys	SYS_clone
	cbz	x0, thread
	str	w0, [x21, #(4 * THREADS)]	/* keep the tid: the word itself is zeroed at exit */
	add	x21, x21, #4
	add	x22, x22, #STACK
	subs	x20, x20, #1
	b.ne	spawn
	spin	x0, ITERS
	mov	x20, #THREADS
	adr	x21, tids
wait:					/* 11 per thread */
	mov	x0, x21
	mov	x1, #FUTEX_WAIT
	ldr	w2, [x21, #(4 * THREADS)] /* word != tid (zeroed): EAGAIN; else sleep until zeroed */
	mov	x3, #0
	sys	SYS_futex
	ldr	w0, [x21]
	cbnz	w0, early
	add	x21, x21, #4
	subs	x20, x20, #1
	b.ne	wait
	mov	x0, #0
	sys	SYS_exit_group
early:
	mov	x0, #1
	sys	SYS_exit_group

thread:
	spin	x0, ITERS
	mov	x0, #0
	sys	SYS_exit		/* this thread only */

	.ltorg

	.data
	.balign	4
tids:	.fill	THREADS, 4, 0		/* the CLONE_*TID words */
	.fill	THREADS, 4, 0		/* each thread's tid, as clone returned it */
	.balign	16
stacks:	.fill	THREADS * STACK, 1, 0
