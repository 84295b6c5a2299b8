/* SPDX-License-Identifier: Apache-2.0 */
/* msg.c: the one place messages to the user are printed, in git's style:
 * "pmuprof: cannot X 'subject': cause (the way out)". */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "report_read.h"
#include "textline.h"

/* "pmuprof: PREFIX TEXT" and a newline, in one write(2) to stderr from a buffer on the stack:
 * stderr is unbuffered, so by stdio each piece would be a write of its own, and another
 * process writing to the same terminal could cut the message. Standard output's waiting
 * lines go first. */
static void put_line(const char *prefix, const char *text)
{
	char b[1024];
	struct textline l = TEXTLINE_ON(stderr, b);

	fflush(stdout);
	textline_puts(&l, "pmuprof: ");
	textline_puts(&l, prefix);
	textline_puts(&l, text);
	textline_put(&l, "\n", 1);
	textline_flush(&l);
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char b[1024], *big = NULL;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	if (n >= (int)sizeof(b) && (big = malloc((size_t)n + 1)))
		vsnprintf(big, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n >= 0)
		put_line(prefix, big ? big : b);	/* cut at 1 KiB when out of memory */
	free(big);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

/* pmuprof stat --quiet: the one switch of this module, set once after the options are read */
static int warn_off;

void msg_set_quiet(int quiet)
{
	warn_off = quiet;
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	if (warn_off)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

/* Where text that must end before s + max is best cut: after the last ',' (an event list's
 * item) in its second half, else at max (one long name has no better place). */
static size_t cut_at(const char *s, size_t max)
{
	for (size_t k = max; k > max / 2; k--)
		if (s[k - 1] == ',')
			return k;
	return max;
}

const char *msg_clip(const char *s, char *buf, size_t len)
{
	if (strlen(s) < len)
		return s;
	snprintf(buf, len, "%.*s...", (int)cut_at(s, len - 4), s);
	return buf;
}

const char *msg_clip_at(const char *s, int column, char *buf, size_t len, int *shown)
{
	size_t n = strlen(s), at = column > 0 ? (size_t)column - 1 : 0, start, end;

	*shown = column;
	if (n < len || len < 16)
		return s;
	/* a third of the room before the column, then whole items: start after a ',' */
	start = at > len / 3 ? at - len / 3 : 0;
	if (n - start < len - 4)	/* the end is near: the room goes before the column */
		start = n - (len - 4);
	for (size_t k = start; start && k < at; k++)
		if (s[k] == ',') {
			start = k + 1;
			break;
		}
	end = start + len - 1 - (start ? 3 : 0) - 3;	/* room for "..." either side */
	if (end >= n)
		end = n;
	else if (end > at + 1)
		end = at + 1 + cut_at(s + at + 1, end - at - 1);
	snprintf(buf, len, "%s%.*s%s", start ? "..." : "", (int)(end - start), s + start,
		 end < n ? "..." : "");
	*shown = (int)(at - start) + 1 + (start ? 3 : 0);
	return buf;
}

void msg_report_unread(enum report_read_err rc, const struct report_read_why *w)
{
	switch (rc) {
	case REPORT_READ_IO:
		msg_error("cannot read report '%s': %s%s", w->path, strerror(w->err),
			  w->err == ENOENT ? " (give the path of a 'pmuprof stat --json -o FILE' report)"
					   : "");
		break;
	case REPORT_READ_EMPTY:
		msg_error("cannot read report '%s': the file is empty (write it with 'pmuprof stat "
			  "--json -o FILE')", w->path);
		break;
	case REPORT_READ_JSON:
		msg_error("cannot read report '%s': invalid JSON at line %d, column %d (is it a "
			  "'pmuprof stat --json' report?)", w->path, w->line, w->col);
		break;
	case REPORT_READ_TRUNCATED:
		msg_error("cannot read report '%s': the JSON ends early, at line %d (the run that "
			  "wrote it was cut short: write it again)", w->path, w->line);
		break;
	case REPORT_READ_NOT_REPORT:
		msg_error("cannot read report '%s': %s, so not a pmuprof stat report (write one with "
			  "'pmuprof stat --json -o FILE')", w->path, w->what);
		break;
	case REPORT_READ_VERSION:
		msg_error("cannot read report '%s': schema version '%s' is not one this pmuprof reads "
			  "(%d.x; read it with the pmuprof that wrote it)", w->path, w->what,
			  REPORT_READ_MAJOR);
		break;
	case REPORT_READ_NOMEM:
		msg_error("cannot read report '%s': %s", w->path, strerror(ENOMEM));
		break;
	case REPORT_READ_DIFF:
		msg_error("cannot read report '%s': it is a diff report, not a stat report (give the "
			  "JSON that 'pmuprof stat --json' wrote)", w->path);
		break;
	case REPORT_READ_FIELD:
		msg_error("cannot read report '%s': %s (was it edited? write it again with 'pmuprof "
			  "stat --json -o FILE')", w->path, w->what);
		break;
	case REPORT_READ_OK:
		break;
	}
}
