/* SPDX-License-Identifier: Apache-2.0 */
/* aggregate.c: readings -> rows by mode, with the one scaling function (aggregate.h). */
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"

double agg_scale(uint64_t value, uint64_t window, uint64_t running)
{
	if (!running)
		return 0;
	if (window <= running)	/* ran all the time it could (clocks read a tick apart) */
		return (double)value;
	return (double)value * ((double)window / (double)running);
}

static int32_t topo_id(const int *ids, const struct agg_topology *t, int32_t cpu)
{
	if (!t || !ids || cpu < 0 || (size_t)cpu >= t->ncpus)
		return -1;
	return ids[cpu] < 0 ? -1 : ids[cpu];
}

int32_t agg_unit(const struct reading *r, enum agg_mode m, const struct agg_topology *t)
{
	switch (m) {
	case AGG_CORE_TYPE:
		return r->part;
	case AGG_CPU:
		return r->cpu < 0 ? -1 : r->cpu;
	case AGG_CORE:
		return topo_id(t ? t->core : NULL, t, r->cpu);
	case AGG_CLUSTER:
		return topo_id(t ? t->cluster : NULL, t, r->cpu);
	case AGG_SOCKET:
		return topo_id(t ? t->socket : NULL, t, r->cpu);
	case AGG_DIE:
		return topo_id(t ? t->die : NULL, t, r->cpu);
	case AGG_NODE:
		return topo_id(t ? t->node : NULL, t, r->cpu);
	case AGG_CACHE:
		return topo_id(t ? t->cache : NULL, t, r->cpu);
	case AGG_THREAD:
		return r->task;
	case AGG_COMMAND:
	default:
		return -1;
	}
}

static int key_cmp(const struct agg_key *a, const struct agg_key *b)
{
	if (a->ev != b->ev)
		return a->ev < b->ev ? -1 : 1;
	if (a->unit != b->unit)
		return a->unit < b->unit ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->interval != b->interval)
		return a->interval < b->interval ? -1 : 1;
	return 0;
}

struct keyed {
	struct agg_key key;
	size_t ix;		/* the reading's index: ties keep the readings' order */
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = key_cmp(&x->key, &y->key);

	return c ? c : x->ix < y->ix ? -1 : x->ix > y->ix;
}

/* Adds reading r to row w. */
static void add(struct agg_row *w, const struct reading *r, enum agg_scaling sc)
{
	w->nparts++;
	if (r->absent)
		return;
	if (r->err) {
		if (!w->err)
			w->err = r->err;
		return;
	}
	w->plan_run = r->plan_run;
	w->window += r->window;
	w->running += r->running;
	w->raw += r->value;
	if (r->running) {
		w->ncounted++;
		w->value += sc == AGG_RAW ? (double)r->value
					  : agg_scale(r->value, r->window, r->running);
	}
	/* an opened part that ran less than its window makes the sum an estimate (also one
	 * that never ran while it could: its share is missing); unscaled, it is no estimate */
	if (r->running < r->window && sc != AGG_RAW)
		w->scaled = 1;
	if (w->status != AGG_COUNTED)
		w->status = r->running ? AGG_COUNTED : AGG_NOT_COUNTED;
}

int agg_build(const struct reading *rs, size_t n, enum agg_mode m,
	      const struct agg_topology *t, struct agg_row **out, size_t *nout)
{
	return agg_build_as(rs, n, m, t, AGG_SCALED, out, nout);
}

int agg_build_as(const struct reading *rs, size_t n, enum agg_mode m,
		 const struct agg_topology *t, enum agg_scaling sc, struct agg_row **out,
		 size_t *nout)
{
	/* n + 1: never an allocation of 0 bytes, for which malloc may return NULL */
	struct keyed *k = malloc((n + 1) * sizeof(*k));
	struct agg_row *rows = calloc(n + 1, sizeof(*rows));
	size_t nr = 0;

	*out = NULL;
	*nout = 0;
	if (!k || !rows) {
		free(k);
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		k[i].key = (struct agg_key){ rs[i].ev, agg_unit(&rs[i], m, t), rs[i].run,
					     rs[i].interval };
		k[i].ix = i;
	}
	qsort(k, n, sizeof(*k), keyed_cmp);
	for (size_t i = 0; i < n; i++) {
		struct agg_row *w;

		if (!nr || key_cmp(&rows[nr - 1].key, &k[i].key)) {
			w = &rows[nr++];
			w->key = k[i].key;
			/* until a part says otherwise: absent, then refused, then not counted */
			w->status = AGG_ABSENT;
		}
		w = &rows[nr - 1];
		if (!rs[k[i].ix].absent && w->status == AGG_ABSENT)
			w->status = AGG_NOT_OPENED;
		add(w, &rs[k[i].ix], sc);
	}
	free(k);
	*out = rows;
	*nout = nr;
	return 0;
}

const struct agg_row *agg_find(const struct agg_row *rows, size_t n, const struct agg_key *k)
{
	size_t lo = 0, hi = n;

	/* a plain run has one row an event, event k's at k: tried first, before the search */
	if (k->ev < n && !key_cmp(&rows[k->ev].key, k))
		return &rows[k->ev];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(&rows[mid].key, k);

		if (!c)
			return &rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
