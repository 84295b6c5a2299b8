/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_opts.c: what the commands' option parsers share (include/cmd_opts.h). */
#include <errno.h>
#include <stdlib.h>

#include "cmd_opts.h"

unsigned cmd_number(struct argp_state *state, const char *arg, const char *opt, unsigned min,
		    unsigned max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || v > max || v < min || *arg == '-')
		argp_error(state, "%s takes a whole number from %u to %u, not '%s'", opt, min,
			   max, arg);
	return (unsigned)v;
}
