/* SPDX-License-Identifier: Apache-2.0 */
/* src/metrics/mxtab.c: the generated metric tables' accessors (sets by core and revision,
 * metrics by name, groups) and a metric's evaluation by src/metrics/mexpr.c. */
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "evtab_data.h"
#include "mxtab.h"

/* A string of the tables' pool. */
static const char *str(uint32_t at)
{
	return evtab_gen.str + at;
}

static const struct mxtab_metric *metrics_of(const struct mxtab_set *s)
{
	return evtab_at(s->metrics);
}

static const struct mxtab_group *groups_of(const struct mxtab_set *s)
{
	return evtab_at(s->groups);
}

size_t mxtab_nsets(void)
{
	return evtab_gen.nmsets;
}

const struct mxtab_set *mxtab_set_at(size_t i)
{
	return i < evtab_gen.nmsets ? &evtab_gen.msets[i] : NULL;
}

const struct mxtab_set *mxtab_set_for(const struct evtab_core *core, unsigned rev)
{
	for (size_t i = 0; core && i < evtab_gen.nmsets; i++) {
		const struct mxtab_set *s = &evtab_gen.msets[i];

		if (evtab_core_at(s->core) == core && s->lo <= rev && rev <= s->hi)
			return s;
	}
	return NULL;
}

const struct evtab_core *mxtab_set_core(const struct mxtab_set *s)
{
	return evtab_core_at(s->core);
}

unsigned mxtab_set_rev_lo(const struct mxtab_set *s)
{
	return s->lo;
}

unsigned mxtab_set_rev_hi(const struct mxtab_set *s)
{
	return s->hi;
}

const struct mxtab_set *mxtab_generic_set(void)
{
	const struct mxtab_set *best = NULL;

	for (size_t i = 0; i < evtab_gen.nmsets; i++) {
		const struct mxtab_set *s = &evtab_gen.msets[i];

		if (s->generic && (!best || s->nmetrics > best->nmetrics))
			best = s;
	}
	return best;
}

int mxtab_set_generic(const struct mxtab_set *s)
{
	return s->generic;
}

size_t mxtab_nmetrics(const struct mxtab_set *s)
{
	return s->nmetrics;
}

const uint64_t *mxtab_set_needs(const struct mxtab_set *s)
{
	return evtab_at(s->needs);
}

const struct mxtab_metric *mxtab_metric_at(const struct mxtab_set *s, size_t i)
{
	return i < s->nmetrics ? &metrics_of(s)[i] : NULL;
}

/* Metrics are sorted by name (strcmp) and named in lower case, so a case-insensitive binary
 * search finds them. */
const struct mxtab_metric *mxtab_find_metric(const struct mxtab_set *s, const char *name)
{
	size_t lo = 0, hi = s->nmetrics;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = ascii_strcasecmp(name, str(metrics_of(s)[mid].name));

		if (!c)
			return &metrics_of(s)[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *mxtab_metric_name(const struct mxtab_metric *m)
{
	return str(m->name);
}

const char *mxtab_metric_title(const struct mxtab_metric *m)
{
	return str(m->title);
}

const char *mxtab_metric_unit(const struct mxtab_metric *m)
{
	return str(m->unit);
}

const char *mxtab_metric_formula(const struct mxtab_metric *m)
{
	return str(m->formula);
}

const char *mxtab_metric_next(const struct mxtab_metric *m)
{
	return str(m->next);
}

size_t mxtab_metric_nevents(const struct mxtab_metric *m)
{
	return m->nevents;
}

const char *mxtab_metric_event(const struct mxtab_metric *m, size_t i)
{
	/* each the place of its event's name: equal names are equal pointers */
	return i < m->nevents ? evtab_at(((const struct mxtab_input *)evtab_at(m->events))[i].name)
			      : NULL;
}

unsigned mxtab_metric_event_code(const struct mxtab_metric *m, size_t i)
{
	return i < m->nevents ? ((const struct mxtab_input *)evtab_at(m->events))[i].code : 0;
}

unsigned mxtab_metric_first_code(const struct mxtab_metric *m)
{
	return mxtab_metric_event_code(m, m->first);
}

const char *mxtab_metric_first_event(const struct mxtab_metric *m)
{
	return mxtab_metric_event(m, m->first);
}

double mxtab_metric_eval(const struct mxtab_metric *m, mexpr_lookup lookup, void *ctx,
			 struct mexpr_error *err)
{
	return mexpr_eval(str(m->formula), lookup, ctx, err);
}

double mxtab_metric_run(const struct mxtab_metric *m, mexpr_input input, void *ctx,
			struct mexpr_error *err)
{
	size_t bad = 0;
	double v = mexpr_run(evtab_at(m->code), input, ctx, err, &bad);

	if (err && (err->status == MEXPR_NOVALUE || err->status == MEXPR_UNKNOWN)) {
		const char *name = mxtab_metric_event(m, bad);

		mexpr_error_name(err, name ? name : "", name ? strlen(name) : 0);
	}
	return v;
}

const struct mxtab_group *mxtab_metric_group(const struct mxtab_set *s,
					     const struct mxtab_metric *m)
{
	return m->group && m->group <= s->ngroups ? &groups_of(s)[m->group - 1] : NULL;
}

size_t mxtab_ngroups(const struct mxtab_set *s)
{
	return s->ngroups;
}

const struct mxtab_group *mxtab_group_at(const struct mxtab_set *s, size_t i)
{
	return i < s->ngroups ? &groups_of(s)[i] : NULL;
}

const struct mxtab_group *mxtab_find_group(const struct mxtab_set *s, const char *name)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (!ascii_strcasecmp(name, str(groups_of(s)[i].name)))
			return &groups_of(s)[i];
	return NULL;
}

const char *mxtab_group_name(const struct mxtab_group *g)
{
	return str(g->name);
}

const char *mxtab_group_title(const struct mxtab_group *g)
{
	return str(g->title);
}

int mxtab_group_stage(const struct mxtab_group *g)
{
	return g->stage;
}

size_t mxtab_group_nmetrics(const struct mxtab_group *g)
{
	return g->nmembers;
}

const struct mxtab_metric *mxtab_group_metric(const struct mxtab_group *g, size_t i)
{
	const uint16_t *members = evtab_at(g->members);

	return i < g->nmembers ? (const struct mxtab_metric *)evtab_at(g->metrics) + members[i] : NULL;
}
