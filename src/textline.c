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

void textline_pad(struct textline *l, const char *s, size_t width)
{
	static const char spaces[] = "                                        ";
	size_t len = strlen(s);

	textline_put(l, s, len);
	while (len < width) {
		size_t k = width - len < sizeof(spaces) - 1 ? width - len : sizeof(spaces) - 1;

		textline_put(l, spaces, k);
		len += k;
	}
}

void textline_num(struct textline *l, unsigned long long v, unsigned base, int digits)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v || buf + sizeof(buf) - p < digits);
	textline_put(l, p, (size_t)(buf + sizeof(buf) - p));
}

void textline_end(struct textline *l)
{
	textline_put(l, "\n", 1);
	fwrite(l->b, 1, l->n, l->fp);
	l->n = 0;
}
