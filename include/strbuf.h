/* strbuf.h: a string grown by appending (*buf, *len bytes used, *cap allocated; NUL-terminated
 * after each append), for texts whose length is not known before: a metric's event specs, the
 * PMU cache's key. */
#ifndef PMUPROF_STRBUF_H
#define PMUPROF_STRBUF_H

#include <stddef.h>

/* Appends s, growing the buffer. -1 when out of memory (the buffer is left as it was). */
int strbuf_put(char **buf, size_t *len, size_t *cap, const char *s);

/* snprintf(buf, len, "%s%s...", parts[0], ..., parts[n - 1]) by copying: as much of the parts
 * as fits, NUL-terminated when len > 0; the length the whole has, as snprintf returns it (the
 * result was cut when that is len or more). */
size_t strjoin(char *buf, size_t len, const char *const *parts, size_t n);

#endif
