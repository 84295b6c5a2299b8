/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_opts.h: what the commands' option parsers share. */
#ifndef PMUPROF_CMD_OPTS_H
#define PMUPROF_CMD_OPTS_H

#include <argp.h>

/* The largest number a count or a time in milliseconds takes: perf's options are ints. */
#define CMD_NUMBER_MAX 2147483647u

/* arg, option opt's value, as a whole decimal number from min to max; else a usage error
 * (argp_error: it exits) that names the range. */
unsigned cmd_number(struct argp_state *state, const char *arg, const char *opt, unsigned min,
		    unsigned max);

#endif
