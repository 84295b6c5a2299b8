/* SPDX-License-Identifier: Apache-2.0 */
/* textline.h: lines of text built by copying into a buffer and written to a stream a buffer
 * at a time (to an unbuffered stderr, one write(2) a buffer: no line cut by another writer):
 * padding and numbers as printf's %-*s, %u and %0*x give them, for the fixed columns of the
 * text report and of list. */
#ifndef PMUPROF_TEXTLINE_H
#define PMUPROF_TEXTLINE_H

#include <stdio.h>
#include <string.h>

struct textline {
	FILE *fp;	/* where the lines are written */
	size_t n, cap;
	char *b;	/* cap bytes where lines wait; a longer one is written out as it grows */
};

/* A textline writing to the stream fp, lines waiting in the array buf. */
#define TEXTLINE_ON(fp_, buf_) { .fp = (fp_), .cap = sizeof(buf_), .b = (buf_) }

/* What textline_put does when the buffer is full. */
void textline_put_over(struct textline *l, const char *s, size_t len);
/* Appends len bytes of s. Inline: most of a line's pieces are a few bytes of constant length,
 * which the compiler then copies in place. */
static inline void textline_put(struct textline *l, const char *s, size_t len)
{
	if (l->n + len > l->cap) {
		textline_put_over(l, s, len);
		return;
	}
	memcpy(l->b + l->n, s, len);
	l->n += len;
}
/* Appends the string s. */
static inline void textline_puts(struct textline *l, const char *s)
{
	textline_put(l, s, strlen(s));
}
/* Whether a write has failed: the stream's error. */
static inline int textline_failed(const struct textline *l)
{
	return ferror(l->fp) != 0;
}
/* Appends n spaces: "%*s" of "" (no strlen, no copy of the string). */
void textline_spaces(struct textline *l, size_t n);
/* Appends s left-justified in width columns, as %-*s does. */
void textline_pad(struct textline *l, const char *s, size_t width);
/* Appends s right-justified in width columns, as %*s does. */
void textline_rpad(struct textline *l, const char *s, size_t width);
/* v in base 10 or 16 (lower case) with at least digits digits, written backwards so that it
 * ends just before end: where it starts (room enough before end: 22 bytes hold any). */
char *textline_digits(unsigned long long v, unsigned base, int digits, char *end);
/* The room textline_secs needs. */
#define TEXTLINE_SECS_LEN 32
/* ns nanoseconds as seconds with nine decimals, "%.9f" of ns / 1e9 but from the integer, so
 * exact where the double's last digit would be off (past about 4.5e6 s): a string in buf,
 * where it starts. */
const char *textline_secs(unsigned long long ns, char buf[TEXTLINE_SECS_LEN]);
/* The room textline_str needs. */
#define TEXTLINE_NUM_LEN 24
/* v in base 10 or 16 (lower case), as %llu or %llx: a string in buf, where it starts. */
const char *textline_str(unsigned long long v, unsigned base, char buf[TEXTLINE_NUM_LEN]);
/* Appends v in base 10 or 16 (lower case) with at least digits digits, as %u, %llx or %04x. */
void textline_num(struct textline *l, unsigned long long v, unsigned base, int digits);
/* Ends the line with a newline. The buffer is written to l->fp when another line might not
 * fit: textline_flush writes the rest, and must come before anything else writes to l->fp. */
void textline_end(struct textline *l);
/* Writes what is built so far, without ending the line. */
void textline_flush(struct textline *l);

#endif
