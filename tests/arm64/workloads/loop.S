/* SPDX-License-Identifier: Apache-2.0 */
/* loop.S: ITERS rounds of a four-instruction loop, then exit(0). No libc, static.
 * User-space instructions written here: 2 + 4 * ITERS (spin) + 3 (exit) = 4 * ITERS + 5.
 * With SETTLE_MS defined (sloop), it first sleeps that long (wl.h's settle: 4 more
 * instructions, 4 * ITERS + 9), so that the work of its start-up on the machine's other CPUs
 * is over before it spins (see migrate.S). */
#include "wl.h"

	.text
	.globl	_start
_start:
	settle
	spin	x0, ITERS
	mov	x0, #0
	sys	SYS_exit_group

	.data
	settle_data
