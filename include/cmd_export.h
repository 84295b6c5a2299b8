/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_export.h: `--export FORMAT:FILE` where the user is addressed: the option checked, the
 * files checked before the command runs and written after it, each failure said in one line
 * (export.h does the work; pmuprof stat uses these). */
#ifndef PMUPROF_CMD_EXPORT_H
#define PMUPROF_CMD_EXPORT_H

#include <argp.h>

#include "export.h"

/* Adds arg ("FORMAT:FILE") to s, or ends option parsing with a usage error. */
void cmd_export_opt(struct argp_state *state, struct export_set *s, const char *arg);
/* Ends option parsing with a usage error when -o's output (NULL: none) and an export would
 * write one file, one replacing the other (outfile_same). */
void cmd_export_output(struct argp_state *state, const struct export_set *s, const char *output);
/* Checks before the run that every file of s can be written, making nothing; -1 after a
 * message. */
int cmd_export_check(const struct export_set *s);
/* Writes r to every file of s; -1 after a message naming the first that failed (the others
 * are written all the same). */
int cmd_export_commit(const struct export_set *s, const struct report *r);

#endif
