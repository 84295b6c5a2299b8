/* SPDX-License-Identifier: Apache-2.0 */
/* ctlesc.c: control characters written as escapes (include/ctlesc.h says which and why). */
#include <stdlib.h>
#include <string.h>

#include "ctlesc.h"

/* The length of the valid UTF-8 sequence s starts (s[0] >= 0x80), 0 when it starts none
 * (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (s[k] < 0x80 || s[k] > 0xbf)
			return 0;
	return n;
}

/* What s[0] becomes: *len bytes of s kept (esc NULL), or an escape of *len bytes of s
 * written into esc (its length returned). */
static size_t one(const unsigned char *s, char esc[7], size_t *len)
{
	static const char hex[] = "0123456789abcdef";
	size_t n;

	*len = 1;
	if (s[0] >= 0x20 && s[0] < 0x7f)
		return 0;
	if (s[0] >= 0x80 && (n = utf8_len(s)) != 0) {
		*len = n;
		if (n != 2 || s[0] != 0xc2 || s[1] > 0x9f)
			return 0;
		memcpy(esc, "\\u00", 4);	/* a C1 control: U+0080 to U+009F */
		esc[4] = hex[s[1] >> 4];
		esc[5] = hex[s[1] & 15];
		return 6;
	}
	esc[0] = '\\';
	esc[1] = 'x';
	esc[2] = hex[s[0] >> 4];
	esc[3] = hex[s[0] & 15];
	return 4;
}

int ctlesc_needed(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[7];
	size_t len;

	for (; *p; p += len)
		if (one(p, esc, &len))
			return 1;
	return 0;
}

char *ctlesc_dup(const char *s)
{
	const unsigned char *p;
	char esc[7], *out, *o;
	size_t len, n = 1, e;

	for (p = (const unsigned char *)s; *p; p += len)
		n += (e = one(p, esc, &len)) ? e : len;
	if (!(out = o = malloc(n)))
		return NULL;
	for (p = (const unsigned char *)s; *p; p += len) {
		if ((e = one(p, esc, &len)) != 0) {
			memcpy(o, esc, e);
			o += e;
		} else {
			memcpy(o, p, len);
			o += len;
		}
	}
	*o = '\0';
	return out;
}
