/* textline.c: owns building a line of text by copying (include/textline.h). */
#include <string.h>

#include "textline.h"

void textline_put(struct textline *l, const char *s, size_t len)
{
	if (l->n + len > sizeof(l->b)) {	/* a long description: what is built so far first */
		fwrite(l->b, 1, l->n, l->fp);
		l->n = 0;
		if (len > sizeof(l->b)) {
			fwrite(s, 1, len, l->fp);
			return;
		}
	}
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

/* n spaces */
static void spaces(struct textline *l, size_t n)
{
	static const char sp[] = "                                        ";

	while (n) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;

		textline_put(l, sp, k);
		n -= k;
	}
}

void textline_pad(struct textline *l, const char *s, size_t width)
{
	size_t len = strlen(s);

	textline_put(l, s, len);
	spaces(l, width > len ? width - len : 0);
}

void textline_rpad(struct textline *l, const char *s, size_t width)
{
	size_t len = strlen(s);

	spaces(l, width > len ? width - len : 0);
	textline_put(l, s, len);
}

char *textline_digits(unsigned long long v, unsigned base, int digits, char *end)
{
	char *p = end;

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v || end - p < digits);
	return p;
}

void textline_num(struct textline *l, unsigned long long v, unsigned base, int digits)
{
	char buf[24], *p = textline_digits(v, base, digits, buf + sizeof(buf));

	textline_put(l, p, (size_t)(buf + sizeof(buf) - p));
}

void textline_flush(struct textline *l)
{
	fwrite(l->b, 1, l->n, l->fp);
	l->n = 0;
}

void textline_end(struct textline *l)
{
	textline_put(l, "\n", 1);
	textline_flush(l);
}
