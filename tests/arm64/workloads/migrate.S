/* SPDX-License-Identifier: Apache-2.0 */
/* migrate.S: pins itself to CPU FIRST with sched_setaffinity, spins ITERS1 rounds there, pins
 * itself to CPU SECOND, spins ITERS2 rounds there, exits 0 (1 if a sched_setaffinity failed).
 * On the machine with two PMUs on disjoint CPUs (the suite's hetero), each phase counts on its
 * own CPU's PMU. With SETTLE_MS defined it sleeps that long after each move, before it spins:
 * the CPU it left finishes the kernel's work of the move (and the kernel's other CPUs their
 * deferred work) while no user-space instruction runs. Under QEMU every CPU's INST_RETIRED
 * reads one global instruction count (-icount), so the other CPUs must be asleep while this
 * task runs in user space for each CPU's count to be exact. No libc, static.
 * User-space instructions written here, by the CPU they retire on (S = 4 with SETTLE_MS, the
 * adr, mov, mov and svc of a nanosleep; 0 without):
 *   the CPU the task starts on:  5 (the first sched_setaffinity, its svc included)
 *   CPU FIRST:   1 (cbnz) + S + 2 + 4 * ITERS1 (spin) + 5 (the second sched_setaffinity)
 *                = 4 * ITERS1 + 8 + S
 *   CPU SECOND:  1 (cbnz) + S + 2 + 4 * ITERS2 (spin) + 3 (exit) = 4 * ITERS2 + 6 + S
 * An svc retires on the CPU that executes it: the kernel moves the task while it is in the
 * system call, and the task's next user-space instruction (the cbnz) is on the new CPU. */
#include "wl.h"

/* pin mask: sched_setaffinity(0, 8, &mask): this task, a one-word CPU mask; 5 instructions */
.macro pin mask
	mov	x0, #0
	mov	x1, #8
	adr	x2, \mask
	sys	SYS_sched_setaffinity
.endm

	.text
	.globl	_start
_start:
	pin	first
	cbnz	x0, failed
	settle
	spin	x0, ITERS1
	pin	second
	cbnz	x0, failed
	settle
	spin	x0, ITERS2
	mov	x0, #0
	sys	SYS_exit_group
failed:
	mov	x0, #1
	sys	SYS_exit_group

	.data
	.balign	8
first:	.quad	1 << FIRST
second:	.quad	1 << SECOND
	settle_data
