/* SPDX-License-Identifier: Apache-2.0 */
/* strbuf.h: a string grown by appending (*buf, *len bytes used, *cap allocated; NUL-terminated
 * after each append), for texts whose length is not known before: a metric's event specs, a
 * directory's names. */
#ifndef PMUPROF_STRBUF_H
#define PMUPROF_STRBUF_H

#include <stddef.h>

/* Appends s, growing the buffer. -1 when out of memory (the buffer is left as it was). */
int strbuf_put(char **buf, size_t *len, size_t *cap, const char *s);

#endif
