/* SPDX-License-Identifier: Apache-2.0 */
/* stat_report_units.c: the aggregation units of stat's report (-A, --per-core, --per-socket,
 * --per-thread, ...): which units the rows have, and each one's name and topology ids as perf
 * 6.1 prints them. */
#include <stdio.h>
#include <stdlib.h>

#include "aggregate.h"
#include "stat.h"
#include "stat_report_priv.h"

enum agg_mode stat_report_mode(enum report_aggr a)
{
	switch (a) {
	case REPORT_AGGR_CPU:
		return AGG_CPU;
	case REPORT_AGGR_CORE:
		return AGG_CORE;
	case REPORT_AGGR_CLUSTER:
		return AGG_CLUSTER;
	case REPORT_AGGR_SOCKET:
		return AGG_SOCKET;
	case REPORT_AGGR_THREAD:
		return AGG_THREAD;
	case REPORT_AGGR_DIE:
		return AGG_DIE;
	case REPORT_AGGR_NODE:
		return AGG_NODE;
	case REPORT_AGGR_CACHE:
		return AGG_CACHE;
	case REPORT_AGGR_GLOBAL:
	default:
		return AGG_COMMAND;
	}
}

/* A CPU of unit u in mode m (the first of the CPUs counted on), -1 when none. */
static int cpu_of_unit(const struct stat_build *b, enum agg_mode m, int32_t u, int *ncpus)
{
	int first = -1;

	*ncpus = 0;
	for (int k = 0; b->tgt && b->tgt->cpus && k < b->tgt->ncpus; k++) {
		struct reading r = { .cpu = b->tgt->cpus[k], .task = -1, .part = -1 };

		if (agg_unit(&r, m, b->topo) != u)
			continue;
		if (first < 0)
			first = r.cpu;
		(*ncpus)++;
	}
	return first;
}

/* The comm of task tid, as -p/-t found it. */
static const char *comm_of(const struct stat_target *t, int tid)
{
	for (int k = 0; t && k < t->ntasks; k++)
		if (t->tasks[k] == tid)
			return t->comm[k];
	return "?";
}

/* Names unit u of mode m as perf does: CPU3, S0-D0-C1, S0-D0-CLS0, S1, comm-tid. */
static void name_unit(const struct stat_build *b, enum agg_mode m, int32_t u,
		      struct report_unit *o)
{
	int cpu = cpu_of_unit(b, m, u, &o->ncpus);
	const struct topo_ids *ids = b->ids;
	int sk = -1, die = -1, cl = -1, core = -1, lvl = -1, cache = -1;

	o->cpu = o->tid = -1;
	if (cpu >= 0 && ids && (size_t)cpu < ids->ncpus) {
		sk = ids->socket[cpu];
		die = ids->die[cpu];
		cl = ids->cluster[cpu];
		core = ids->core[cpu];
		lvl = ids->cache_level ? ids->cache_level[cpu] : -1;
		cache = ids->cache ? ids->cache[cpu] : -1;
	}
	o->socket = o->die = o->cluster = o->core = o->node = o->cache_level = o->cache = -1;
	switch (m) {
	case AGG_CPU:
		o->cpu = u;
		o->ncpus = 1;
		snprintf(o->id, sizeof(o->id), "CPU%d", u);
		break;
	case AGG_CORE:
		o->socket = sk, o->die = die, o->core = core;
		snprintf(o->id, sizeof(o->id), "S%d-D%d-C%d", sk, die, core);
		break;
	case AGG_CLUSTER:
		o->socket = sk, o->die = die, o->cluster = cl;
		snprintf(o->id, sizeof(o->id), "S%d-D%d-CLS%d", sk, die, cl);
		break;
	case AGG_SOCKET:
		o->socket = sk;
		snprintf(o->id, sizeof(o->id), "S%d", sk);
		break;
	case AGG_DIE:
		o->socket = sk, o->die = die;
		snprintf(o->id, sizeof(o->id), "S%d-D%d", sk, die);
		break;
	case AGG_CACHE:	/* perf 6.4's name of a cache instance */
		o->socket = sk, o->die = die, o->cache_level = lvl, o->cache = cache;
		snprintf(o->id, sizeof(o->id), "S%d-D%d-L%d-ID%d", sk, die, lvl, cache);
		break;
	case AGG_NODE:
		o->node = u;
		snprintf(o->id, sizeof(o->id), "N%d", u);
		break;
	case AGG_THREAD:
		o->tid = u;
		o->ncpus = 0;
		snprintf(o->id, sizeof(o->id), "%s-%d", comm_of(b->tgt, u), u);
		break;
	default:
		snprintf(o->id, sizeof(o->id), "?");
		break;
	}
}

int stat_report_units(struct report *r, const struct agg_row *rows, size_t nrows,
		      enum agg_mode m, const struct stat_build *b, int32_t **ids_out)
{
	int32_t *ids = malloc((nrows + 1) * sizeof(*ids));
	struct report_unit *u;
	size_t n = 0;

	if (!ids)
		return -1;
	for (size_t k = 0; k < nrows; k++) {
		size_t j = 0;

		while (j < n && ids[j] != rows[k].key.unit)
			j++;
		if (j == n && rows[k].key.unit >= 0)
			ids[n++] = rows[k].key.unit;
	}
	for (size_t a = 1; a < n; a++)	/* insertion sort: a few hundred units at most */
		for (size_t c = a; c > 0 && ids[c - 1] > ids[c]; c--) {
			int32_t t = ids[c];

			ids[c] = ids[c - 1];
			ids[c - 1] = t;
		}
	if (!(u = calloc(n + 1, sizeof(*u)))) {
		free(ids);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		name_unit(b, m, ids[k], &u[k]);
	r->units = u;
	r->nunits = n;
	*ids_out = ids;
	return 0;
}
