/* cmd.h: the subcommands main dispatches to, and the exit statuses pmuprof itself uses. */
#ifndef PMUPROF_CMD_H
#define PMUPROF_CMD_H

#include <stddef.h>

#include "report_read.h"

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

/* "pmuprof: " + the message + newline, on stderr. */
void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --quiet: msg_warn prints nothing from now on (errors still do). */
void msg_set_quiet(int quiet);
/* s for quoting in a message: itself, or its first len-4 characters and "...", so that a
 * 10,000-character name never pushes the cause off the line. buf holds len bytes. */
const char *msg_clip(const char *s, char *buf, size_t len);
/* s for quoting with a column (from 1) that points into it: itself, or a window of whole
 * list items around the column with "..." where it was cut; *shown is the column in what is
 * returned, so that it always points into the text shown. buf holds len bytes. */
const char *msg_clip_at(const char *s, int column, char *buf, size_t len, int *shown);
/* The one line that says why a saved report could not be read, and the way out (pmuprof diff
 * and pmuprof report). */
void msg_report_unread(enum report_read_err rc, const struct report_read_why *w);

#endif
