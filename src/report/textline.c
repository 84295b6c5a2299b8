/* SPDX-License-Identifier: Apache-2.0 */
/* textline.c: owns building a line of text by copying (include/textline.h). */
#include <string.h>

#include "textline.h"

/* len bytes of s to the stream */
static void out(struct textline *l, const char *s, size_t len)
{
	fwrite(s, 1, len, l->fp);
}

void textline_put_over(struct textline *l, const char *s, size_t len)
{
	out(l, l->b, l->n);	/* a long description: what is built so far first */
	l->n = 0;
	if (len > l->cap) {
		out(l, s, len);
		return;
	}
	memcpy(l->b, s, len);
	l->n = len;
}

void textline_spaces(struct textline *l, size_t n)
{
	static const char sp[32] = "                                ";

	/* a row's padding, mostly: 32 bytes stored whatever n (two stores), n of them kept */
	if (n <= sizeof(sp) && l->cap - l->n >= sizeof(sp)) {
		memcpy(l->b + l->n, sp, sizeof(sp));
		l->n += n;
		return;
	}
	if (l->n + n > l->cap)
		textline_flush(l);
	while (n) {
		size_t k = n < l->cap ? n : l->cap;

		memset(l->b + l->n, ' ', k);
		l->n += k;
		n -= k;
		if (n)
			textline_flush(l);
	}
}

void textline_pad(struct textline *l, const char *s, size_t width)
{
	size_t len = strlen(s);

	textline_put(l, s, len);
	textline_spaces(l, width > len ? width - len : 0);
}

void textline_rpad(struct textline *l, const char *s, size_t width)
{
	size_t len = strlen(s);

	textline_spaces(l, width > len ? width - len : 0);
	textline_put(l, s, len);
}

char *textline_digits(unsigned long long v, unsigned base, int digits, char *end)
{
	char *p = end;

	/* the two bases apart: a division by a constant is a multiplication, by a variable a
	 * division instruction per digit */
	if (base == 16) {
		do {
			*--p = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v || end - p < digits);
		return p;
	}
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v || end - p < digits);
	return p;
}

const char *textline_secs(unsigned long long ns, char buf[TEXTLINE_SECS_LEN])
{
	char *p = buf + TEXTLINE_SECS_LEN - 1;

	*p = '\0';
	p = textline_digits(ns % 1000000000u, 10, 9, p);
	*--p = '.';
	return textline_digits(ns / 1000000000u, 10, 1, p);
}

const char *textline_str(unsigned long long v, unsigned base, char buf[TEXTLINE_NUM_LEN])
{
	buf[TEXTLINE_NUM_LEN - 1] = '\0';
	return textline_digits(v, base, 1, buf + TEXTLINE_NUM_LEN - 1);
}

void textline_num(struct textline *l, unsigned long long v, unsigned base, int digits)
{
	char buf[24], *p = textline_digits(v, base, digits, buf + sizeof(buf));

	textline_put(l, p, (size_t)(buf + sizeof(buf) - p));
}

void textline_flush(struct textline *l)
{
	out(l, l->b, l->n);
	l->n = 0;
}

void textline_end(struct textline *l)
{
	textline_put(l, "\n", 1);
	if (l->n > l->cap - 256)	/* room for a line of list's, most often */
		textline_flush(l);
}
