/* SPDX-License-Identifier: Apache-2.0 */
/* metrics_bind.c: a report's metrics bound to its events. Each formula's inputs are found
 * among the events by their Arm event code, beside the event the formula names first (its
 * anchor), in the anchor's unit (privilege levels, core-type split, PMU); each metric is
 * evaluated over the totals once bound, and what is missing is said in words. */
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "metrics.h"
#include "resolve.h"

/* An event of an Arm PMU (or a raw code, which the kernel gives to it). */
static int arm_event(const struct report_event *e)
{
	return e->type == PERF_TYPE_RAW || (e->pmu && !ascii_strncasecmp(e->pmu, "arm", 3));
}

/* The PMUv3 event code e counts: an Arm PMU's event or a raw code of it, or a perf generic
 * event the kernel's arm PMU driver maps to one; -1 for any other. */
static int event_code(const struct report_event *e)
{
	if (e->type == PERF_TYPE_HARDWARE || e->type == PERF_TYPE_HW_CACHE)
		return resolve_generic_arm_code(e->type, e->config);
	return arm_event(e) ? (int)(e->config & 0xffff) : -1;
}

/* A PMU the user named (a sysfs PMU), not one the kernel chooses (generic names, raw codes). */
static int named_pmu(const char *p)
{
	return p && strcmp(p, "cpu") && strcmp(p, "raw") && strcmp(p, "software") &&
	       strcmp(p, "libpfm4");
}

/* Whether two events count the same tasks: the same cgroup (-G, --for-each-cgroup), or
 * neither counted per cgroup. */
static int same_cgroup(const struct report_event *e, const struct report_event *anchor)
{
	return e->cgroup == anchor->cgroup ||
	       (e->cgroup && anchor->cgroup && !strcmp(e->cgroup, anchor->cgroup));
}

/* Whether e can be an input beside the anchor: counted at the same privilege levels, in the
 * same cgroup, both split over the machine's core types or neither, and never on two PMUs the
 * user named apart. (With --mux=runs the inputs may come from different runs of the command:
 * each is exact.) */
static int same_unit(const struct report_event *e, const struct report_event *anchor)
{
	const char *p = e->pmu, *q = anchor->pmu;

	/* the same PMU (the common case) first: no name compared with the kernel's four */
	return e->excl_user == anchor->excl_user && e->excl_kernel == anchor->excl_kernel &&
	       (e->nsplit > 0) == (anchor->nsplit > 0) && same_cgroup(e, anchor) &&
	       (!p || !q || p == q || !strcmp(p, q) || !named_pmu(p) || !named_pmu(q));
}


/* The text label: perf's words for IPC, else the name, with "%" first for a percentage. */
static void set_label(struct report_metric_value *v)
{
	const char *name = mxtab_metric_name(v->def), *unit = mxtab_metric_unit(v->def);

	if (!strcmp(name, "ipc"))
		snprintf(v->label, sizeof(v->label), "insn per cycle");
	else if (str_starts(unit, "percent"))
		snprintf(v->label, sizeof(v->label), "%% %s", name);
	else
		snprintf(v->label, sizeof(v->label), "%s", name);
}

/* The reason a value is missing, in words: "CPU_CYCLES not counted: not supported". */
static void set_reason(const struct report *r, struct report_metric_value *v,
		       const struct mexpr_error *err)
{
	const char *why = "not in the report";

	if (err->status != MEXPR_NOVALUE) {
		why = mexpr_strerror(err->status);
		snprintf(v->reason, sizeof(v->reason), "%s", why);
		return;
	}
	for (size_t i = 0; i < v->nev; i++)
		if (!strcmp(mxtab_metric_event(v->def, i), err->name) &&
		    v->ev[i] != REPORT_METRIC_NONE) {
			const struct report_event *e = &r->events[v->ev[i]];
			const struct report_part *p = v->pmu ? report_part_on(e, v->pmu) : NULL;

			why = report_status_str(p ? p->fig.status : e->fig.status);
			if (v->pmu && !p)
				why = "not on this core type";
		}
	if (!strcmp(why, report_status_str(REPORT_NOT_COUNTED)))	/* not "not counted" twice */
		snprintf(v->reason, sizeof(v->reason), "%s not counted", err->name);
	else
		snprintf(v->reason, sizeof(v->reason), "%s not counted: %s", err->name, why);
}

/* The growing list of computed metrics, and what each report event counts, worked out once:
 * its Arm event code (event_code). The events are chained by code from a small hash of the
 * codes, and the tables give each metric's inputs by code too (a core's codes and names are
 * one to one), so a metric's inputs are found with no lookup by name and no scan of every
 * event for each metric and input: a core's set has dozens of metrics. */
struct out {
	struct report_metric_value *v;
	size_t n, cap;
	int *code;		/* [k]: event k's code, -1: none */
	int *next;		/* [k]: the next event of its code, -1: none */
	int *first;		/* [h]: the first event of the code in slot h, -1: free */
	size_t bits;		/* log2 of the slots (at least 1.5 times the events) */
};

static size_t slot_of(const struct out *o, unsigned code)
{
	return (size_t)(((uint64_t)code * 0x9e3779b97f4a7c15u) >> (64 - o->bits));
}

/* The first event of code, -1 for none. */
static int first_coded(const struct out *o, unsigned code)
{
	size_t mask = ((size_t)1 << o->bits) - 1;

	for (size_t h = slot_of(o, code); o->first[h] >= 0; h = (h + 1) & mask)
		if (o->code[o->first[h]] == (int)code)
			return o->first[h];
	return -1;
}

/* Chains the events by code, each chain in report order. */
static void index_codes(struct out *o, size_t n)
{
	size_t mask = ((size_t)1 << o->bits) - 1;

	for (size_t h = 0; h <= mask; h++)
		o->first[h] = -1;
	for (size_t k = n; k-- > 0;) {
		size_t h;

		o->next[k] = -1;
		if (o->code[k] < 0)
			continue;
		for (h = slot_of(o, (unsigned)o->code[k]); o->first[h] >= 0 &&
		     o->code[o->first[h]] != o->code[k]; h = (h + 1) & mask)
			;
		o->next[k] = o->first[h];
		o->first[h] = (int)k;
	}
}

static struct report_metric_value *add(struct out *o)
{
	if (o->n == o->cap) {
		/* from 2: most runs keep a few metrics, and a value is a few hundred bytes */
		size_t cap = o->cap ? o->cap * 2 : 2;
		struct report_metric_value *p = realloc(o->v, cap * sizeof(*p));

		if (!p)
			return NULL;
		o->v = p;
		o->cap = cap;
	}
	memset(&o->v[o->n], 0, sizeof(o->v[o->n]));
	return &o->v[o->n++];
}

/* Whether the list has m already for this anchor's privilege levels and PMU. */
static int have(const struct out *o, const struct report *r, const struct mxtab_metric *m,
		size_t anchor, const char *pmu)
{
	for (size_t i = 0; i < o->n; i++) {
		const struct report_metric_value *v = &o->v[i];

		if (strcmp(mxtab_metric_name(v->def), mxtab_metric_name(m)) ||
		    (v->pmu == NULL) != (pmu == NULL) || (pmu && strcmp(v->pmu, pmu)))
			continue;
		if (anchor == REPORT_METRIC_NONE || v->anchor == REPORT_METRIC_NONE ||
		    same_unit(&r->events[v->anchor], &r->events[anchor]))
			return 1;
	}
	return 0;
}

/* Binds m (of core's set) to r's events beside anchor a (REPORT_METRIC_NONE: none counts its
 * first event), on pmu's parts (NULL: the totals), and computes its value. Every input an
 * event in the anchor's unit, a counted one first. */
static void bind(const struct out *o, const struct report *r, struct report_metric_value *v,
		 const struct mxtab_metric *m, const struct evtab_core *core, size_t a,
		 const char *pmu)
{
	struct mexpr_error err;

	v->def = m;
	v->core = evtab_core_name(core);
	v->pmu = pmu;
	v->anchor = a;
	v->nev = mxtab_metric_nevents(m);
	_Static_assert(REPORT_METRIC_MAX_INPUTS >= MEXPR_MAX_EVENTS, "a metric's inputs fit");
	if (v->nev > REPORT_METRIC_MAX_INPUTS)
		v->nev = REPORT_METRIC_MAX_INPUTS;	/* the generator allows no more */
	for (size_t i = 0; i < v->nev; i++) {
		/* the events of the input's code (in core's table: the set's, or a core type's
		 * for a split event's part) */
		int k = first_coded(o, mxtab_metric_event_code(m, i));

		v->ev[i] = REPORT_METRIC_NONE;
		/* no anchor (its first event is missing): the others still show what was counted */
		for (; k >= 0; k = o->next[k]) {
			const struct report_event *e = &r->events[k];

			if ((a != REPORT_METRIC_NONE && !same_unit(e, &r->events[a])) ||
			    (pmu && !report_part_on(e, pmu)))
				continue;
			if (v->ev[i] == REPORT_METRIC_NONE ||
			    (r->events[v->ev[i]].fig.status != REPORT_COUNTED &&
			     e->fig.status == REPORT_COUNTED))
				v->ev[i] = (size_t)k;
		}
	}
	v->value = metrics_value_at(r, v, 0, 0, -1, &err, &v->estimate);
	if (isnan(v->value))
		set_reason(r, v, &err);
	set_label(v);
}

/* Whether an entry from before on, of the same PMU as entry i, has a value. */
static int valued_on(const struct out *o, size_t before, size_t i)
{
	for (size_t k = before; k < o->n; k++)
		if (o->v[k].pmu && !strcmp(o->v[k].pmu, o->v[i].pmu) && isfinite(o->v[k].value))
			return 1;
	return 0;
}

/* A metric asked for, entries from before on: where one anchor gave it a value, the anchors
 * in other units (a :u event beside the group -M added) that could not are left out. */
static void keep_valued(struct out *o, size_t before)
{
	size_t keep = before, valued = 0;

	for (size_t i = before; i < o->n; i++)
		valued += isfinite(o->v[i].value) != 0;
	for (size_t i = before; i < o->n; i++)
		if (!valued || isfinite(o->v[i].value) || (o->v[i].pmu && !valued_on(o, before, i)))
			o->v[keep++] = o->v[i];
	o->n = keep;
}

/* The group and stage of the entries from before on: group g of set (asked through it), else
 * the first of its set's groups that lists it; a core type's metric's in that core's set. */
static void name_groups(struct out *o, size_t before, const struct mxtab_set *set,
			const struct mxtab_group *g)
{
	for (size_t i = before; i < o->n; i++) {
		const struct mxtab_set *vs = o->v[i].pmu ?
			mxtab_set_for(evtab_core_by_name(o->v[i].core), 0) : set;
		const struct mxtab_group *vg = !vs ? NULL : g && vs != set ?
			mxtab_find_group(vs, mxtab_group_name(g)) : g;

		if (vs && !vg)
			vg = mxtab_metric_group(vs, o->v[i].def);
		o->v[i].group = vg ? mxtab_group_name(vg) : NULL;
		o->v[i].stage = vg ? mxtab_group_stage(vg) : 0;
	}
}

/* Computes m of core's set (asked: through -M, in group g) beside every event that counts its
 * first event: per core type for a split event. Not asked: only where it has a value. */
static int compute(struct out *o, const struct report *r, const struct mxtab_set *set,
		   const struct mxtab_metric *m, int asked, const struct mxtab_group *g)
{
	const struct evtab_core *core = mxtab_set_core(set);
	size_t before = o->n;

	if (!asked)	/* by default only where every event was counted: look before running */
		for (size_t i = 0; i < mxtab_metric_nevents(m); i++) {
			int k = first_coded(o, mxtab_metric_event_code(m, i));

			while (k >= 0 && r->events[k].fig.status != REPORT_COUNTED)
				k = o->next[k];
			if (k < 0)
				return 0;
		}
	/* the anchor: the event the formula names first (the tables say which) */
	for (int ai = first_coded(o, mxtab_metric_first_code(m)); ai >= 0; ai = o->next[ai]) {
		size_t a = (size_t)ai;
		const struct report_event *ae = &r->events[a];

		for (size_t p = 0; p < ae->nsplit; p++) {
			/* each core type with its own formula, from its own counts */
			const struct evtab_core *pc = ae->split[p].core ?
				evtab_core_by_name(ae->split[p].core) : NULL;
			const struct mxtab_set *ps = pc ? mxtab_set_for(pc, 0) : NULL;
			const struct mxtab_metric *pm = ps ? mxtab_find_metric(ps, mxtab_metric_name(m))
							   : NULL;
			struct report_metric_value *v;

			if (!pm || have(o, r, pm, a, ae->split[p].pmu))
				continue;
			if (!(v = add(o)))
				return -1;
			bind(o, r, v, pm, pc, a, ae->split[p].pmu);
			v->requested = asked;
			if (!asked && isnan(v->value))
				o->n--;
		}
		if (!ae->nsplit && !have(o, r, m, a, NULL)) {
			struct report_metric_value *v = add(o);

			if (!v)
				return -1;
			bind(o, r, v, m, core, a, NULL);
			v->requested = asked;
			if (!asked && isnan(v->value))
				o->n--;
		}
	}
	if (asked && o->n == before && !have(o, r, m, REPORT_METRIC_NONE, NULL)) {
		/* no event counts its first one: reported, with the reason */
		struct report_metric_value *v = add(o);

		if (!v)
			return -1;
		bind(o, r, v, m, core, REPORT_METRIC_NONE, NULL);
		v->requested = 1;
	}
	if (asked)
		keep_valued(o, before);
	name_groups(o, before, set, g);
	return 0;
}

int metrics_compute(struct report *r, const struct metrics_core *mc, const char *const *names,
		    size_t nnames)
{
	/* the events' codes and chains, and the codes' slots: on the stack for a usual run, on
	 * the heap for one with more events than room holds */
	int room[256];
	size_t bits = 3, need;
	struct out o = { 0 };
	int rc = 0;
	uint64_t counted = 0;	/* mxtab_code_bit of each counted event's code */
	const uint64_t *needs;

	if (!mc->set) {
		report_metrics_free(r);
		return 0;
	}
	while (((size_t)1 << bits) < r->nevents + r->nevents / 2 + 1)
		bits++;
	need = 2 * r->nevents + ((size_t)1 << bits);
	o.code = need <= sizeof(room) / sizeof(room[0]) ? room : calloc(need, sizeof(int));
	if (!o.code)
		return -1;
	o.next = o.code + r->nevents;
	o.first = o.next + r->nevents;
	o.bits = bits;
	for (size_t k = 0; k < r->nevents; k++) {
		o.code[k] = event_code(&r->events[k]);
		if (o.code[k] >= 0 && r->events[k].fig.status == REPORT_COUNTED)
			counted |= mxtab_code_bit((unsigned)o.code[k]);
	}
	index_codes(&o, r->nevents);

	for (size_t k = 0; !rc && k < nnames; k++) {
		const struct mxtab_group *g;
		const struct mxtab_metric *m;

		if (metrics_lookup(mc, names[k], &g, &m) != 0)
			continue;
		if (m)
			rc = compute(&o, r, mc->set, m, 1, NULL);
		for (size_t i = 0; g && !rc && i < mxtab_group_nmetrics(g); i++)
			rc = compute(&o, r, mc->set, mxtab_group_metric(g, i), 1, g);
	}
	/* by default those whose events were all counted: most of a core's set is passed over
	 * by the bits of their events' codes alone */
	needs = mxtab_set_needs(mc->set);
	for (size_t i = 0, n = mxtab_nmetrics(mc->set); !rc && i < n; i++)
		if (!(needs[i] & ~counted))
			rc = compute(&o, r, mc->set, mxtab_metric_at(mc->set, i), 0, NULL);
	if (o.code != room)
		free(o.code);
	if (rc) {
		free(o.v);
		return -1;
	}
	for (size_t i = 0; !mc->core && i < o.n; i++)
		if (!o.v[i].pmu)	/* the generic formulas, for a core not known */
			o.v[i].core = "generic";
	report_metrics_free(r);
	r->metrics = o.v;
	r->nmetrics = o.n;
	return 0;
}

