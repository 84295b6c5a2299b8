/* SPDX-License-Identifier: Apache-2.0 */
/* ascii.h: character classes, case and case-blind comparison of ASCII text, as <ctype.h> and
 * <strings.h> give them in the C locale, whatever the locale is: event names, sysfs files,
 * options and saved reports are ASCII, and a locale (Turkish 'I', say) must not change how
 * they match. The argument is an int as <ctype.h>'s: a character as unsigned char. */
#ifndef PMUPROF_ASCII_H
#define PMUPROF_ASCII_H

#include <stddef.h>

static inline int ascii_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int ascii_isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static inline int ascii_islower(int c)
{
	return c >= 'a' && c <= 'z';
}

static inline int ascii_isalpha(int c)
{
	return ascii_isupper(c) || ascii_islower(c);
}

static inline int ascii_isalnum(int c)
{
	return ascii_isalpha(c) || ascii_isdigit(c);
}

static inline int ascii_isxdigit(int c)
{
	return ascii_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* ' ', \t, \n, \v, \f, \r */
static inline int ascii_isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int ascii_isprint(int c)
{
	return c >= ' ' && c <= '~';
}

static inline int ascii_isgraph(int c)
{
	return c > ' ' && c <= '~';
}

static inline int ascii_tolower(int c)
{
	return ascii_isupper(c) ? c - 'A' + 'a' : c;
}

static inline int ascii_toupper(int c)
{
	return ascii_islower(c) ? c - 'a' + 'A' : c;
}

/* strncasecmp's result for a and b (at most n characters), case-blind for ASCII letters. */
static inline int ascii_strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; a++, b++, n--) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		if (x == y) {	/* the same byte (names are mostly written in one case) */
			if (!x)
				return 0;
			continue;
		}
		x = ascii_tolower(x);
		y = ascii_tolower(y);
		if (x != y)
			return x - y;
	}
	return 0;
}

static inline int ascii_strcasecmp(const char *a, const char *b)
{
	return ascii_strncasecmp(a, b, (size_t)-1);
}

/* Whether s starts with prefix. */
static inline int str_starts(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (*s != *prefix)
			return 0;
	return 1;
}

#endif
