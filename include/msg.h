/* SPDX-License-Identifier: Apache-2.0 */
/* msg.h: the messages pmuprof addresses to its user, one line each on standard error, in
 * git's style: what failed, the subject quoted, the cause, the way out. */
#ifndef PMUPROF_MSG_H
#define PMUPROF_MSG_H

#include <stddef.h>

#include "report_read.h"

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
