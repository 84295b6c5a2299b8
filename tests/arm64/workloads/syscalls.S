/* SPDX-License-Identifier: Apache-2.0 */
/* syscalls.S: CALLS getppid() system calls in a loop, then exit(0): little user work, much
 * kernel work, so the :u/:k split matters. No libc, static.
 * User-space instructions written here: mov, movz, movk, then CALLS * (svc, subs, b.ne),
 * then 3 to exit = 3 * CALLS + 6. */
#include "wl.h"

	.text
	.globl	_start
_start:
	mov	x8, #SYS_getppid
	movz	x19, #((CALLS) & 0xffff)
	movk	x19, #(((CALLS) >> 16) & 0xffff), lsl #16
1:	svc	#0
	subs	x19, x19, #1
	b.ne	1b
	mov	x0, #0
	sys	SYS_exit_group
