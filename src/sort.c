/* sort.c: an insertion sort for short arrays, qsort for the rest. */
#include <stdlib.h>
#include <string.h>

#include "sort.h"

void sort_short(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *b = base, tmp[SORT_ELEM_MAX];

	if (n > SORT_SHORT || size > SORT_ELEM_MAX) {
		qsort(base, n, size, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (cmp(b + (i - 1) * size, b + i * size) <= 0)
			continue;	/* in order already: the common case */
		/* the larger ones shift up an element at a time: memmove would be one more libc
		 * function to bind */
		memcpy(tmp, b + i * size, size);
		for (; j > 0 && cmp(b + (j - 1) * size, tmp) > 0; j--)
			memcpy(b + j * size, b + (j - 1) * size, size);
		memcpy(b + j * size, tmp, size);
	}
}
