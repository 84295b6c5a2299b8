/* SPDX-License-Identifier: Apache-2.0 */
/* forks.S: the parent forks CHILDREN processes (clone with SIGCHLD); each child and the parent
 * spin ITERS rounds; the parent reaps every child with wait4(-1), then exits 0 (1 if wait4
 * failed). No libc, static; no data-dependent branch on the normal path, so the user-space
 * instruction count does not depend on scheduling. Written here:
 *   parent:  1 + CHILDREN * 10 (spawn) + 2 + 4 * ITERS (spin) + 1 + CHILDREN * 10 (reap) + 3
 *   child:   1 (the cbz after clone) + 2 + 4 * ITERS (spin) + 3 (exit) */
#include "wl.h"

	.text
	.globl	_start
_start:
	mov	x20, #CHILDREN
spawn:
	mov	x0, #SIGCHLD
	mov	x1, #0
	mov	x2, #0
	mov	x3, #0
	mov	x4, #0
	sys	SYS_clone
	cbz	x0, child
	subs	x20, x20, #1
	b.ne	spawn
	spin	x0, ITERS
	mov	x20, #CHILDREN
reap:
	mov	x0, #-1
	mov	x1, #0
	mov	x2, #0
	mov	x3, #0
	sys	SYS_wait4
	cmp	x0, #0
	b.le	failed
	subs	x20, x20, #1
	b.ne	reap
	mov	x0, #0
	sys	SYS_exit_group
failed:
	mov	x0, #1
	sys	SYS_exit_group

child:
	spin	x0, ITERS
	mov	x0, #0
	sys	SYS_exit_group
