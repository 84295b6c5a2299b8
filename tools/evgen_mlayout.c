/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_mlayout.c: the checked metrics files as table rows (strings as pool offsets,
 * metrics and groups as runs of indexes; tools/evgen_emit.c writes them as C, in each core's
 * chunk). One set per metrics file of a core, the sets core by core; a core without one gets
 * the generic metrics that its events allow. */
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

struct mlayout {
	struct evgen_out *out;
	size_t capmsets, capmetrics, capgroups;
	size_t *at;	/* a file's metric i -> its table index; (size_t)-1 when left out */
};

static const struct evgen_ev *in_set(const struct evgen_ev **set, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(set[i]->name, name))
			return set[i];
	return NULL;
}

/* Metric x of a set of the core whose events are set: its strings, events, program, and the
 * bits of its events' codes (what a run checks first: a metric one of whose events was not
 * counted has a bit that no counted event set). */
static void place_metric(struct mlayout *l, const struct evgen_metric *x,
			 const struct evgen_ev **set, size_t nset)
{
	struct evgen_out *out = l->out;
	struct evgen_mrow *r;

	out->metrics = evgen_grow(out->metrics, &l->capmetrics, out->nmetrics,
				  sizeof(*out->metrics));
	r = &out->metrics[out->nmetrics++];
	r->name = evgen_intern(out, x->name);
	r->title = evgen_intern(out, x->title);
	r->unit = evgen_intern(out, x->unit);
	r->formula = evgen_intern(out, x->formula);
	r->next = evgen_intern(out, x->next ? x->next : "");
	r->events = out->nmevents;
	r->nevents = x->nevents;
	r->first = 0;
	r->need = 0;
	r->group = 0;
	r->code = out->nmcode;
	r->ncode = x->ncode;
	for (size_t i = 0; i < x->ncode; i++) {
		out->mcode = evgen_grow(out->mcode, &out->capmcode, out->nmcode, 1);
		out->mcode[out->nmcode++] = x->code[i];
	}
	for (size_t i = 0; i < x->nevents; i++) {
		const struct evgen_ev *e = in_set(set, nset, x->events[i]);

		if (e)		/* each is (checked, and again by evgen_layout_fits) */
			r->need |= (uint64_t)1 << (e->code % 64);
		if (x->first && !strcmp(x->events[i], x->first))
			r->first = i;
		out->mevents = evgen_grow(out->mevents, &out->capmevents, out->nmevents,
					  sizeof(*out->mevents));
		out->mevents[out->nmevents++] = evgen_intern(out, x->events[i]);
	}
}

static void place_group(struct mlayout *l, const struct evgen_group *g)
{
	struct evgen_out *out = l->out;
	size_t first = out->nmembers;

	for (size_t i = 0; i < g->nmember; i++) {
		if (l->at[g->member[i]] == (size_t)-1)
			continue;
		out->members = evgen_grow(out->members, &out->capmembers, out->nmembers,
					  sizeof(*out->members));
		out->members[out->nmembers++] = (uint16_t)l->at[g->member[i]];
	}
	if (out->nmembers == first)
		return;		/* none of its metrics is in this set */
	out->groups = evgen_grow(out->groups, &l->capgroups, out->ngroups, sizeof(*out->groups));
	out->groups[out->ngroups++] = (struct evgen_grec){
		.name = evgen_intern(out, g->name), .title = evgen_intern(out, g->title),
		.members = first, .nmembers = out->nmembers - first, .stage = g->stage };
}

/* One set: file m's metrics (for a generic set, those whose events core has), its groups. */
static void place_set(struct mlayout *l, const struct evgen_db *db, const struct evgen_mfile *m,
		      size_t core)
{
	struct evgen_out *out = l->out;
	const struct evgen_core *c = &db->cores[core];
	const struct evgen_ev **set = evgen_calloc(c->nrefs + c->nown + 1, sizeof(*set));
	size_t nset = evgen_core_set(c, set);
	struct evgen_mset s = { .core = core, .first = out->nmetrics, .gfirst = out->ngroups,
				.lo = m->core ? m->lo : 0, .hi = m->core ? m->hi : 0xff,
				.generic = !m->core };

	l->at = evgen_calloc(m->nmetrics + 1, sizeof(*l->at));
	for (size_t i = 0; i < m->nmetrics; i++) {
		size_t k = 0;

		while (!m->core && k < m->metrics[i].nevents &&
		       in_set(set, nset, m->metrics[i].events[k]))
			k++;
		l->at[i] = (size_t)-1;
		if (m->core || k == m->metrics[i].nevents) {
			l->at[i] = out->nmetrics;
			place_metric(l, &m->metrics[i], set, nset);
		}
	}
	for (size_t i = 0; i < m->ngroups; i++)
		place_group(l, &m->groups[i]);
	s.n = out->nmetrics - s.first;
	s.ng = out->ngroups - s.gfirst;
	for (size_t g = 0; g < s.ng; g++) {
		const struct evgen_grec *gr = &out->groups[s.gfirst + g];

		for (size_t i = 0; i < gr->nmembers; i++) {
			struct evgen_mrow *r = &out->metrics[out->members[gr->members + i]];

			if (!r->group)
				r->group = g + 1;
		}
	}
	free(l->at);
	free(set);
	if (!s.n)
		return;
	out->msets = evgen_grow(out->msets, &l->capmsets, out->nmsets, sizeof(*out->msets));
	out->msets[out->nmsets++] = s;
}

void evgen_layout_metrics(const struct evgen_db *db, struct evgen_out *out)
{
	struct mlayout l = { .out = out };
	const struct evgen_mfile *generic = NULL;

	for (size_t k = 0; k < db->nmfiles; k++)
		if (!db->mfiles[k].core)
			generic = &db->mfiles[k];
	for (size_t ci = 0; ci < db->ncores; ci++) {
		int own = 0;

		/* the core's files by revision (the inputs were read in sorted order, and
		 * "c.metrics" sorts before "c-r0p3.metrics": order them here) */
		for (unsigned lo = 0; lo <= 0xff; lo++)
			for (size_t k = 0; k < db->nmfiles; k++) {
				const struct evgen_mfile *m = &db->mfiles[k];

				if (m->core && m->core_at == ci && m->lo == lo) {
					place_set(&l, db, m, ci);
					own = 1;
				}
			}
		if (!own && generic)
			place_set(&l, db, generic, ci);
	}
}
