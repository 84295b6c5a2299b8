/* textline.h: a line of text built by copying into a buffer and written whole: padding and
 * numbers as printf's %-*s, %u and %0*x give them, at a tenth of printf's cost (list prints
 * some 160 lines; printf was half its time: issue 16). */
#ifndef PMUPROF_TEXTLINE_H
#define PMUPROF_TEXTLINE_H

#include <stdio.h>

struct textline {
	FILE *fp;	/* where textline_end writes the line */
	size_t n;
	char b[256];	/* a longer line is written out as it grows */
};

/* Appends len bytes of s. */
void textline_put(struct textline *l, const char *s, size_t len);
/* Appends s left-justified in width columns, as %-*s does. */
void textline_pad(struct textline *l, const char *s, size_t width);
/* Appends s right-justified in width columns, as %*s does. */
void textline_rpad(struct textline *l, const char *s, size_t width);
/* v in base 10 or 16 (lower case) with at least digits digits, written backwards so that it
 * ends just before end: where it starts (room enough before end: 22 bytes hold any). */
char *textline_digits(unsigned long long v, unsigned base, int digits, char *end);
/* Appends v in base 10 or 16 (lower case) with at least digits digits, as %u, %llx or %04x. */
void textline_num(struct textline *l, unsigned long long v, unsigned base, int digits);
/* Ends the line with a newline and writes it to l->fp. */
void textline_end(struct textline *l);
/* Writes what is built so far to l->fp, without ending the line. */
void textline_flush(struct textline *l);

#endif
