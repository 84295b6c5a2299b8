/* argp_trim.h: argp_parse over only the options a command line can name.
 *
 * glibc's argp_parse checks every long option against the ones before it (a quadratic
 * strcmp loop): about 1,200 strcmp calls, 32,000 instructions, for stat's 55 options on every
 * run (issue 16; callgrind in the A57 guest). argp_trim_parse hands argp the same parsers
 * with only the option entries some token of argv could name, which argp then treats exactly
 * as with the whole table:
 * - a long token "--NAME[=...]" keeps every option whose long name starts with NAME, so an
 *   exact match, a unique abbreviation and an ambiguous one are decided as before;
 * - a short token "-abc" keeps every option whose key is one of its characters;
 * - an option kept keeps its aliases (OPTION_ALIAS entries take their key from the entry
 *   above them), and every child parser stays, so child_inputs keep their indices.
 * Keeping more than needed changes nothing; keeping less never happens: tokens that are not
 * options (option arguments, the command, what follows "--") can only add entries. Help,
 * usage and version (-?, -V, --help, --usage, --version, --program-name and their
 * abbreviations) get the whole table, since argp prints the options it was given. */
#ifndef PMUPROF_ARGP_TRIM_H
#define PMUPROF_ARGP_TRIM_H

#include <argp.h>

/* argp_parse(argp, argc, argv, flags, NULL, input), as above. Falls back to the whole table
 * when the trimmed one would not fit argp_trim.c's fixed room. Unless flags has ARGP_NO_ERRS,
 * a usage error ends with coreutils' one line of hint (argp_hint.h), not argp's. */
error_t argp_trim_parse(const struct argp *argp, int argc, char **argv, unsigned flags,
			void *input);

#endif
