/* loop.S: ITERS rounds of a four-instruction loop, then exit(0). No libc, static.
 * User-space instructions written here: 2 + 4 * ITERS (spin) + 3 (exit) = 4 * ITERS + 5. */
#include "wl.h"

	.text
	.globl	_start
_start:
	spin	x0, ITERS
	mov	x0, #0
	sys	SYS_exit_group
