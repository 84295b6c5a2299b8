/* sort.h: qsort for the short arrays a run sorts. */
#ifndef PMUPROF_SORT_H
#define PMUPROF_SORT_H

#include <stddef.h>

/* Sorts base (n elements of size bytes) by cmp, as qsort does. An insertion sort when the
 * array is short (n <= SORT_SHORT) and its elements small (size <= SORT_ELEM_MAX), else
 * qsort. Why (issue 16): a run sorts a few short arrays (the devices' names, an aggregation's
 * keys, mostly in order already), and qsort is one more libc function for the loader to
 * bind on its first call (some 800 instructions in the arm64 guest), with a merge sort behind
 * it that costs more than the sort itself. Stable. */
#define SORT_SHORT 64
#define SORT_ELEM_MAX 64
void sort_short(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
