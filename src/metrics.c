/* metrics.c: the metrics of a report, from the generated tables (mxtab.h; the data is
 * events/metrics, Arm's formulas): which events a formula's names are, which of a report's
 * events count them, and the value over the totals, a unit or an interval. The formula
 * evaluated is the one the report prints. */
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "metrics.h"
#include "resolve.h"
#include "strbuf.h"
#include "sysfs.h"

void metrics_core_set(struct metrics_core *mc, const struct evtab_core *c, unsigned rev)
{
	mc->core = c;
	mc->rev = rev;
	mc->set = c ? mxtab_set_for(c, rev) : mxtab_generic_set();
}

int metrics_core_named(struct metrics_core *mc, const char *model)
{
	const struct evtab_core *c = evtab_core_by_name(model);
	int rev = evtab_model_revision(model);

	if (!c)
		return -1;
	metrics_core_set(mc, c, rev >= 0 ? (unsigned)rev : 0);
	return 0;
}

const char *metrics_core_id(const struct metrics_core *mc, char *buf, size_t len)
{
	if (!mc->core)
		return NULL;
	snprintf(buf, len, "%s:r%up%u", evtab_core_name(mc->core), mc->rev >> 4, mc->rev & 0xf);
	return buf;
}

void metrics_core_from_midr(struct metrics_core *mc, uint64_t midr)
{
	metrics_core_set(mc, midr ? evtab_core_by_midr(midr) : NULL, MXTAB_MIDR_REV(midr));
}

const char *metrics_core_title(const struct metrics_core *mc, char *buf, size_t len)
{
	if (!mc->core)
		snprintf(buf, len, "an unknown core");
	else if (mc->set && mxtab_set_rev_lo(mc->set) == 0 && mxtab_set_rev_hi(mc->set) == 0xff)
		snprintf(buf, len, "%s", evtab_core_name(mc->core));
	else
		snprintf(buf, len, "%s r%up%u", evtab_core_name(mc->core), mc->rev >> 4,
			 mc->rev & 0xf);
	return buf;
}

const char *metrics_names_check(const char *arg, int *column)
{
	size_t len = strlen(arg);

	if (!len) {
		*column = 1;
		return "empty metric list";
	}
	for (size_t i = 0; i <= len; i++) {
		if (arg[i] != ',' && arg[i])
			continue;
		/* a name ends here: it is empty when it starts here too */
		if (i == 0 || arg[i - 1] == ',') {
			if (!arg[i]) {
				*column = (int)i;
				return "trailing ',' with no metric after it";
			}
			*column = (int)i + 1;
			return "empty metric name";
		}
	}
	return NULL;
}

int metrics_names_add(char *arg, const char ***names, size_t *n)
{
	for (char *name = arg, *comma; name; name = comma) {
		const char **p;

		if ((comma = strchr(name, ',')))
			*comma++ = '\0';
		if (!*name)
			continue;
		if (!(p = realloc(*names, (*n + 1) * sizeof(*p))))
			return -1;
		*names = p;
		(*names)[(*n)++] = name;
	}
	return 0;
}

int metrics_names_add_once(const char ***names, size_t *n, const char *name)
{
	const char **p;

	for (size_t k = 0; k < *n; k++)
		if (!ascii_strcasecmp((*names)[k], name))
			return 0;
	if (!(p = realloc(*names, (*n + 1) * sizeof(*p))))
		return -1;
	*names = p;
	p[(*n)++] = name;
	return 0;
}

int metrics_lookup(const struct metrics_core *mc, const char *name,
		   const struct mxtab_group **g, const struct mxtab_metric **m)
{
	*g = mc->set ? mxtab_find_group(mc->set, name) : NULL;
	*m = mc->set && !*g ? mxtab_find_metric(mc->set, name) : NULL;
	return *g || *m ? 0 : -1;
}

/* perf's generic hardware events, by config (perf_event.h's PERF_COUNT_HW_*), as perf spells
 * them. */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
};

/* For a core pmuprof does not know: the generic event the kernel maps to Arm event ev (of the
 * generic metrics' core), so that it opens on any PMU; name is left as it is when none. */
static void generic_name(const struct evtab_core *core, const char *ev, char *name, size_t len)
{
	const struct evtab_event *e = evtab_find_name(core, ev);

	for (uint64_t c = 0; e && c < sizeof(hw_names) / sizeof(hw_names[0]); c++)
		if (resolve_generic_arm_code(PERF_TYPE_HARDWARE, c) == (int)evtab_event_code(e)) {
			snprintf(name, len, "%s", hw_names[c]);
			return;
		}
}

/* Appends the events named (Arm's upper-case names), lower case and comma-separated, as one
 * perf group when braces; generic (the unknown core's): perf's generic names where the kernel
 * maps one to the event. */
static int put_events(char **buf, size_t *len, size_t *cap, const char *const *ev, size_t n,
		      int braces, const struct evtab_core *generic)
{
	char name[MEXPR_MAX_NAME + 1];

	if ((*len && strbuf_put(buf, len, cap, ",")) || (braces && strbuf_put(buf, len, cap, "{")))
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; ev[i][k] && k < MEXPR_MAX_NAME; k++)
			name[k] = (char)ascii_tolower((unsigned char)ev[i][k]);
		name[k] = '\0';
		if (generic)
			generic_name(generic, ev[i], name, sizeof(name));
		if ((i && strbuf_put(buf, len, cap, ",")) || strbuf_put(buf, len, cap, name))
			return -1;
	}
	return braces ? strbuf_put(buf, len, cap, "}") : 0;
}

#define MAX_GROUP_EVENTS 128

/* The distinct events of m (g NULL) or of g's metrics, into ev; how many. */
static size_t events_of(const struct mxtab_group *g, const struct mxtab_metric *m,
			const char **ev)
{
	size_t n = 0, nm = g ? mxtab_group_nmetrics(g) : 1;

	for (size_t i = 0; i < nm; i++) {
		const struct mxtab_metric *x = g ? mxtab_group_metric(g, i) : m;

		for (size_t e = 0; e < mxtab_metric_nevents(x); e++) {
			size_t k;

			for (k = 0; k < n && strcmp(ev[k], mxtab_metric_event(x, e)); k++)
				;
			if (k == n && n < MAX_GROUP_EVENTS)
				ev[n++] = mxtab_metric_event(x, e);
		}
	}
	return n;
}

char *metrics_spec(const struct metrics_core *mc, const char *name, int counters, int *unknown)
{
	const struct mxtab_group *g;
	const struct mxtab_metric *m;
	const char *ev[MAX_GROUP_EVENTS];
	const struct evtab_core *generic = mc->core || !mc->set ? NULL : mxtab_set_core(mc->set);
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc = 0;

	*unknown = metrics_lookup(mc, name, &g, &m) != 0;
	if (*unknown)
		return NULL;
	n = events_of(g, m, ev);
	if (m || (counters > 0 && n <= (size_t)counters)) {
		/* one window for the metric, or for the whole group: its ratios agree */
		rc = put_events(&buf, &len, &cap, ev, n, counters <= 0 || n <= (size_t)counters,
				generic);
	} else {
		for (size_t i = 0; !rc && i < mxtab_group_nmetrics(g); i++) {
			n = events_of(NULL, mxtab_group_metric(g, i), ev);
			rc = put_events(&buf, &len, &cap, ev, n, counters <= 0 ||
					n <= (size_t)counters, generic);
		}
	}
	if (rc || !buf) {
		free(buf);
		return NULL;
	}
	return buf;
}

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

/* Whether e can be an input beside the anchor: counted at the same privilege levels, both
 * split over the machine's core types or neither, and never on two PMUs the user named apart.
 * (With --mux=runs the inputs may come from different runs of the command: each is exact.) */
static int same_unit(const struct report_event *e, const struct report_event *anchor)
{
	const char *p = e->pmu, *q = anchor->pmu;

	/* the same PMU (the common case) first: no name compared with the kernel's four */
	return e->excl_user == anchor->excl_user && e->excl_kernel == anchor->excl_kernel &&
	       (report_more(e)->nsplit > 0) == (report_more(anchor)->nsplit > 0) &&
	       (!p || !q || p == q || !strcmp(p, q) || !named_pmu(p) || !named_pmu(q));
}

/* e's part on pmu, NULL when it has none there. */
static const struct report_part *part_on(const struct report_event *e, const char *pmu)
{
	const struct report_event_more *m = report_more(e);

	for (size_t i = 0; i < m->nsplit; i++)
		if (!strcmp(m->split[i].pmu, pmu))
			return &m->split[i];
	return NULL;
}

/* Where metrics_value_at looks: the metric, the report and the source of the values. */
struct at {
	const struct report *r;
	const struct report_metric_value *m;
	int unit;
	size_t u;
	long interval;
	int scaled;
	long run;		/* -r: that run's values; -1: the totals (their means) */
};

/* The value of m's input i (REPORT_METRIC_NONE: none) in the source a describes: MEXPR_OK
 * with *value, else MEXPR_NOVALUE; a->scaled set when it was counted for part of the time. */
static enum mexpr_status input_at(void *ctx, size_t i, double *value)
{
	struct at *a = ctx;
	const struct report_metric_value *m = a->m;
	const struct report_event *e;
	int scaled = 0;

	if (m->ev[i] == REPORT_METRIC_NONE)
		return MEXPR_NOVALUE;
	e = &a->r->events[m->ev[i]];
	if (a->run >= 0) {
		/* one run's value (NAN: not counted in it); a core type's part has none of its
		 * own per run */
		const double *runs = report_more(e)->runs;

		if (m->pmu || !runs || (size_t)a->run >= a->r->nruns || isnan(runs[a->run]))
			return MEXPR_NOVALUE;
		*value = runs[a->run];
		return MEXPR_OK;
	}
	if (m->pmu && !a->unit) {
		/* a core type's metric over the totals: that PMU's part only */
		const struct report_part *p = part_on(e, m->pmu);

		if (a->interval >= 0 || !p || p->status != REPORT_COUNTED)
			return MEXPR_NOVALUE;
		*value = p->value;
		a->scaled |= e->scaled && p->running_ns < p->enabled_ns;
		return MEXPR_OK;
	}
	if (!report_value_at(a->r, e, a->unit, a->u, a->interval, value, &scaled))
		return MEXPR_NOVALUE;
	a->scaled |= scaled;
	return MEXPR_OK;
}

double metrics_input_at(const struct report *r, const struct report_metric_value *m, size_t i)
{
	struct at a = { r, m, 0, 0, -1, 0, -1 };
	double v;

	return i < m->nev && input_at(&a, i, &v) == MEXPR_OK ? v : NAN;
}

double metrics_value_at(const struct report *r, const struct report_metric_value *m, int unit,
			size_t u, long interval, struct mexpr_error *err, int *estimate)
{
	struct at a = { r, m, unit, u, interval, 0, -1 };
	double v;

	if (unit && !metrics_unit_applies(r, m, u)) {
		if (err) {
			memset(err, 0, sizeof(*err));
			err->status = MEXPR_NOVALUE;
		}
		return NAN;
	}
	v = mxtab_metric_run(m->def, input_at, &a, err);
	if (estimate)
		*estimate = a.scaled;
	return v;
}

double metrics_value_run(const struct report *r, const struct report_metric_value *m,
			 size_t run)
{
	struct at a = { r, m, 0, 0, -1, 0, (long)run };

	return mxtab_metric_run(m->def, input_at, &a, NULL);
}

int metrics_unit_applies(const struct report *r, const struct report_metric_value *m, size_t u)
{
	const struct report_event *e;
	const struct report_part *p;
	int *cpus = NULL, n = 0, in = 0;

	if (!m->pmu)
		return 1;
	/* a core type's metric in a unit: only a CPU of that type (-A) */
	if (u >= r->nunits || r->units[u].cpu < 0 || m->anchor == REPORT_METRIC_NONE)
		return 0;
	e = &r->events[m->anchor];
	if (!(p = part_on(e, m->pmu)) || sysfs_parse_cpulist(p->cpus, &cpus, &n) != PP_OK)
		return 0;
	for (int k = 0; k < n; k++)
		in |= cpus[k] == r->units[u].cpu;
	free(cpus);
	return in;
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
			const struct report_part *p = v->pmu ? part_on(e, v->pmu) : NULL;

			why = report_status_str(p ? p->status : e->status);
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
 * event for each metric and input (a core's set has dozens of metrics). */
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
		/* from 2: most runs keep a few */
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
			    (pmu && !part_on(e, pmu)))
				continue;
			if (v->ev[i] == REPORT_METRIC_NONE ||
			    (r->events[v->ev[i]].status != REPORT_COUNTED &&
			     e->status == REPORT_COUNTED))
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

			while (k >= 0 && r->events[k].status != REPORT_COUNTED)
				k = o->next[k];
			if (k < 0)
				return 0;
		}
	/* the anchor: the event the formula names first (the tables say which) */
	for (int ai = first_coded(o, mxtab_metric_first_code(m)); ai >= 0; ai = o->next[ai]) {
		size_t a = (size_t)ai;
		const struct report_event_more *em = report_more(&r->events[a]);

		for (size_t p = 0; p < em->nsplit; p++) {
			/* each core type with its own formula, from its own counts */
			const struct evtab_core *pc = em->split[p].core ?
				evtab_core_by_name(em->split[p].core) : NULL;
			const struct mxtab_set *ps = pc ? mxtab_set_for(pc, 0) : NULL;
			const struct mxtab_metric *pm = ps ? mxtab_find_metric(ps, mxtab_metric_name(m))
							   : NULL;
			struct report_metric_value *v;

			if (!pm || have(o, r, pm, a, em->split[p].pmu))
				continue;
			if (!(v = add(o)))
				return -1;
			bind(o, r, v, pm, pc, a, em->split[p].pmu);
			v->requested = asked;
			if (!asked && isnan(v->value))
				o->n--;
		}
		if (!em->nsplit && !have(o, r, m, a, NULL)) {
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
	if (asked) {
		/* asked for: where one anchor gave it a value, the anchors in other units (a :u
		 * event beside the group -M added) that could not are left out */
		size_t keep = before, valued = 0;

		for (size_t i = before; i < o->n; i++)
			valued += isfinite(o->v[i].value) != 0;
		for (size_t i = before; i < o->n; i++)
			if (!valued || isfinite(o->v[i].value) || (o->v[i].pmu && !valued_on(o, before, i)))
				o->v[keep++] = o->v[i];
		o->n = keep;
	}
	for (size_t i = before; i < o->n; i++) {
		/* a core type's metric: its group in that core's set */
		const struct mxtab_set *vs = o->v[i].pmu ?
			mxtab_set_for(evtab_core_by_name(o->v[i].core), 0) : set;
		const struct mxtab_group *vg = !vs ? NULL : g && vs != set ?
			mxtab_find_group(vs, mxtab_group_name(g)) : g;

		if (vs && !vg)	/* not asked through a group: the first of its set's that lists it */
			vg = mxtab_metric_group(vs, o->v[i].def);

		o->v[i].group = vg ? mxtab_group_name(vg) : NULL;
		o->v[i].stage = vg ? mxtab_group_stage(vg) : 0;
	}
	return 0;
}

int metrics_compute(struct report *r, const struct metrics_core *mc, const char *const *names,
		    size_t nnames)
{
	/* the events' codes and chains, and the codes' slots: on the stack for a usual run */
	int room[256];
	size_t bits = 3, need;
	struct out o = { 0 };
	int rc = 0;
	uint64_t counted = 0;	/* mxtab_code_bit of each counted event's code */
	const uint64_t *needs;

	if (!mc->set) {
		free((void *)r->metrics);
		r->metrics = NULL;
		r->nmetrics = 0;
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
		if (o.code[k] >= 0 && r->events[k].status == REPORT_COUNTED)
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
	free((void *)r->metrics);
	r->metrics = o.v;
	r->nmetrics = o.n;
	return 0;
}

const struct report_metric_value *metrics_find(const struct report *r, const char *name)
{
	for (size_t k = 0; k < r->nmetrics; k++)
		if (!r->metrics[k].pmu && !strcmp(mxtab_metric_name(r->metrics[k].def), name))
			return &r->metrics[k];
	return NULL;
}

size_t metrics_topdown_nodes(const struct report *r, const struct report_metric_value **node,
			     int *dominant, size_t max)
{
	const struct mxtab_group *g = r->topdown_set && r->topdown_group ?
		mxtab_find_group(r->topdown_set, r->topdown_group) : NULL;
	double top = 0;
	size_t n = 0;

	for (size_t i = 0; g && i < mxtab_group_nmetrics(g) && n < max; i++)
		if ((node[n] = metrics_find(r, mxtab_metric_name(mxtab_group_metric(g, i))))) {
			if (isfinite(node[n]->value) && node[n]->value > top)
				top = node[n]->value;
			n++;
		}
	/* the largest share, and any other within a quarter of it */
	for (size_t i = 0; i < n; i++)
		dominant[i] = top > 0 && isfinite(node[i]->value) && node[i]->value >= 0.75 * top;
	return n;
}

int metrics_topdown_next(const struct report *r, const char ***names, size_t *n,
			 size_t *ndominant)
{
	const struct report_metric_value *node[16];
	int dominant[16];
	size_t nn = metrics_topdown_nodes(r, node, dominant, 16);

	*ndominant = 0;
	for (size_t i = 0; i < nn; i++) {
		if (!dominant[i])
			continue;
		++*ndominant;
		if (metrics_next_groups_add(r->topdown_set, node[i]->def, names, n) != 0)
			return -1;
	}
	return 0;
}

int metrics_next_groups_add(const struct mxtab_set *s, const struct mxtab_metric *node,
			    const char ***names, size_t *n)
{
	const char *next = mxtab_metric_next(node);
	const struct mxtab_group *g;

	while ((g = metrics_next_group(s, &next)))
		if (metrics_names_add_once(names, n, mxtab_group_name(g)) != 0)
			return -1;
	return 0;
}

const struct mxtab_group *metrics_next_group(const struct mxtab_set *s, const char **next)
{
	const struct mxtab_group *g = NULL;

	while (**next && !g) {
		size_t len = strcspn(*next, " ");
		char name[MEXPR_MAX_NAME + 1];

		snprintf(name, sizeof(name), "%.*s", (int)len, *next);
		g = s ? mxtab_find_group(s, name) : NULL;
		*next += len;
		*next += strspn(*next, " ");
	}
	return g;
}
