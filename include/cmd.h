/* SPDX-License-Identifier: Apache-2.0 */
/* cmd.h: the subcommands main dispatches to, and the exit statuses pmuprof itself uses. */
#ifndef PMUPROF_CMD_H
#define PMUPROF_CMD_H

#include <limits.h>
#include <stddef.h>

#include "msg.h"

/* pmuprof's own failures (bad usage, bad event, nothing countable, unwritable output).
 * Otherwise stat exits with the workload's status: its code, 128+N for signal N, 127 when
 * the command is not found, 126 when it cannot be executed. */
#define PP_EXIT_ERROR 2
#define PP_EXIT_NOTFOUND 127
#define PP_EXIT_NOEXEC 126

/* Each takes the arguments after the subcommand's name (argv[0] is "pmuprof NAME") and
 * returns the exit status. */
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_serve(int argc, char **argv);
/* `pmuprof serve` in pmuprof: runs pmuprof-serve (cmd_serve) with argv; returns only when it
 * cannot, having said why. */
int cmd_serve_exec(int argc, char **argv);
/* Where cmd_serve_exec looks for pmuprof-serve, in its order: beside pmuprof, then in
 * ../libexec/pmuprof from pmuprof's directory (the installed place, last). How many paths,
 * 0 when /proc/self/exe is unreadable. */
#define CMD_SERVE_NPATHS 2
#define CMD_SERVE_PATH_MAX (PATH_MAX + 64)
size_t cmd_serve_paths(char path[CMD_SERVE_NPATHS][CMD_SERVE_PATH_MAX]);

#endif
