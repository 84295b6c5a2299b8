/* SPDX-License-Identifier: Apache-2.0 */
/* argp_hint.h: usage errors in coreutils' two lines, "pmuprof diff: MESSAGE" then "Try
 * 'pmuprof diff --help' for more information.", instead of argp's hint.
 *
 * glibc argp ends a usage error (argp_error, an unknown option, a missing argument) with
 * "Try `NAME --help' or `NAME --usage' for more information.", which its help formatter wraps
 * at 79 columns: for "pmuprof explain" onto a third line. The words are argp's own, with no
 * setting to change them; what a parser can change is the stream argp writes errors to
 * (argp_state.err_stream). argp_hint_stream is such a stream: what argp writes to it goes to
 * standard error line by line, as written, but the hint, which becomes the one line above. */
#ifndef PMUPROF_ARGP_HINT_H
#define PMUPROF_ARGP_HINT_H

#include <argp.h>
#include <stdio.h>

/* argp_parse(argp, argc, argv, flags, NULL, input), its usage errors through such a stream
 * (the same stream at each call, closed at exit; stderr when none can be made). */
error_t argp_hint_parse(const struct argp *argp, int argc, char **argv, unsigned flags,
			void *input);

#endif
