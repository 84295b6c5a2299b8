/* SPDX-License-Identifier: Apache-2.0 */
/* strbuf.c: owns the growing string (include/strbuf.h). */
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

int strbuf_put(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		size_t want = (*len + n + 1) * 2;
		char *p = realloc(*buf, want);

		if (!p)
			return -1;
		*buf = p;
		*cap = want;
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 0;
}
