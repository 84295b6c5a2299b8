/* SPDX-License-Identifier: Apache-2.0 */
/* topo_priv.h: what topo.c shares with topo_cache.c: numbering CPUs' id tuples as keys. */
#ifndef PMUPROF_TOPO_PRIV_H
#define PMUPROF_TOPO_PRIV_H

#include <stddef.h>

/* A CPU's ids as one sortable record (socket, die, then the ids of the unit; unused ones 0). */
struct topo_tuple {
	int id[4];
	int cpu;
};

/* keys[c] = the index of CPU c's tuple among the distinct tuples of tup (n of them, sorted
 * here), numbered in the order of their first CPUs. A CPU with no tuple in tup must have
 * keys[c] = -1 already. Sorted, not compared pairwise, so it stays n log n on a machine of a
 * thousand CPUs. */
void topo_number_keys(size_t ncpus, struct topo_tuple *tup, size_t n, int *keys);

#endif
