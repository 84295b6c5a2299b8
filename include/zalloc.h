/* zalloc.h: calloc's zeroed array, from malloc. */
#ifndef PMUPROF_ZALLOC_H
#define PMUPROF_ZALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* calloc(n, size) by malloc and memset, NULL when n * size overflows or memory is out. Why
 * (issue 16): glibc's calloc never takes a block from the cache of freed ones that malloc
 * takes from first, so a run's calloc'd arrays went on top of the heap past the planner's
 * and the discovery's freed blocks of the same sizes; the heap reached a fourth page, each
 * a page fault in the arm64 guest. */
static inline void *zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size;
	if ((p = malloc(bytes ? bytes : 1)))
		memset(p, 0, bytes);
	return p;
}

#endif
