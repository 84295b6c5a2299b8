/* SPDX-License-Identifier: Apache-2.0 */
/* stat_plan.c: pmuprof stat's counting plan: each event's Arm PMU and counter kind, the
 * PMUs' capacities (probed, cached or --counters), the planner's groups and runs, and the
 * --plan view of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "msg.h"
#include "plan.h"
#include "stat.h"
#include "sysfs.h"

/* Whether an event needs a hardware counter at all (software and tracepoints do not). */
static int needs_counter(const struct pp_attr *a)
{
	return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT;
}

/* The Arm PMU an event counts on: its own by name; generic and raw events go to the
 * first (by CPU) Arm PMU, as the kernel gives them to the arm_pmu that accepts them. */
static int pmu_index(const struct resolve_ctx *c, const struct stat_counters *cs,
		     const struct stat_event *rows, const struct stat_counter *e)
{
	const struct pp_event *ev = &rows[e->ev].sel.ev;
	uint32_t t = ev->attr.type;

	if (e->part >= 0)		/* a part: its PMU (none when it lacks the event) */
		return cs->parts[e->part].absent ? -1 : cs->parts[e->part].pmu_ix;
	if (!needs_counter(&ev->attr) || !c->npmus)
		return -1;
	for (size_t k = 0; k < c->npmus; k++)
		if (ev->pmu && !strcmp(ev->pmu, c->pmus[k].name))
			return (int)k;
	if (t == PERF_TYPE_RAW ||
	    ((t == PERF_TYPE_HARDWARE || t == PERF_TYPE_HW_CACHE) && ev->arm_code >= 0))
		return 0;
	return -1;
}

/* What the planner reads of an Arm PMU for its events: its PMUv3 version, and the format/
 * terms of the 64-bit and threshold bits, read when an event first sets config bits beyond its
 * event number (a table event sets none, and then every such term is 0). Copies, since a
 * lookup may read the rest of format/. */
struct pmu_facts {
	const struct sysfs_pmu *pmu;
	int pmuver;
	int terms_read;
	struct sysfs_format lng, th, thc, thn;	/* mask 0: the PMU has no such term */
};

static struct pmu_facts pmu_facts(const struct sysfs_pmu *pmu)
{
	const struct evtab_core *core = resolve_pmu_core(pmu);
	int ver = core ? pmreg_pmuver_for_arch(evtab_core_arch(core)) : -1;

	return (struct pmu_facts){ .pmu = pmu, .pmuver = ver < 0 ? 1 : ver };
}

static struct sysfs_format term_copy(const struct sysfs_pmu *pmu, const char *term)
{
	const struct sysfs_format *f = sysfs_format_find(pmu, term);

	return f ? *f : (struct sysfs_format){ .mask = 0 };
}

/* Whether cfg sets bits outside the PMU's event number. */
static int beyond_event(const struct sysfs_pmu *pmu, const uint64_t cfg[4])
{
	const struct sysfs_format *ev = sysfs_format_find(pmu, "event");
	uint64_t rest[4] = { cfg[0], cfg[1], cfg[2], cfg[3] };

	if (ev && ev->field >= 0 && ev->field < 4)
		rest[ev->field] &= ~ev->mask;
	return (rest[0] | rest[1] | rest[2] | rest[3]) != 0;
}

static void read_terms(struct pmu_facts *f)
{
	f->lng = term_copy(f->pmu, "long");
	f->th = term_copy(f->pmu, "threshold");
	f->thc = term_copy(f->pmu, "threshold_compare");
	f->thn = term_copy(f->pmu, "threshold_count");
	f->terms_read = 1;
}

/* The planner's view of counter e on a PMU with facts f (NULL: no PMU): its counter kind. */
static struct plan_ev plan_event(const struct stat_counters *cs, const struct stat_event *rows,
				 const struct stat_counter *e, struct pmu_facts *f, int ix)
{
	const struct pp_event *ev = &rows[e->ev].sel.ev;
	const struct pp_attr *a = e->part >= 0 ? &cs->parts[e->part].attr : &ev->attr;
	uint64_t cfg[4] = { a->config, a->config1, a->config2, 0 };
	struct pmreg_pmu pp = { .pmuver = f ? f->pmuver : 1 };
	struct pmreg_event re = { .evt = (uint16_t)(ev->arm_code >= 0 ? ev->arm_code
						    : (int)(a->config & 0xffff)) };
	/* the parts of one event share a run: its total adds counts of one run of the command */
	struct plan_ev pe = { ix, e->group, PMREG_ANY, 0, e->part >= 0 ? (int)e->ev + 1 : 0 };

	if (ix < 0)
		return pe;
	if (f && !f->terms_read && beyond_event(f->pmu, cfg))
		read_terms(f);
	if (f && f->terms_read) {
		/* armv8pmu_event_threshold_control: TC = compare << 1 | count */
		re.is_long = pmreg_format_value(&f->lng, cfg) != 0;
		re.th = (uint32_t)pmreg_format_value(&f->th, cfg);
		re.tc = (unsigned)(pmreg_format_value(&f->thc, cfg) << 1 |
				   pmreg_format_value(&f->thn, cfg));
	}
	pe.kind = pmreg_kind_of(&re, &pp);
	pe.inst = re.evt == 0x08 && !re.th;
	return pe;
}

/* The capacity of PMU p for the plan: --counters, else probed/cached, else Arm's data. */
static int pmu_cap(const struct sysfs_pmu *p, const struct stat_plan_cfg *c,
		   struct plan_cap *cap, char *note, size_t len)
{
	struct capacity k;

	if (c->counters > 0) {
		*cap = (struct plan_cap){ c->counters, 1, 0 };
		snprintf(note, len, "%s: %d general counters (--counters) + the cycle counter",
			 p->name, c->counters);
		return 0;
	}
	if (p->type < 0) {	/* a stand-in (no such PMU here): never probed */
		int per_arm = evtab_core_counters(resolve_pmu_core(p));

		if (per_arm <= 0) {
			snprintf(note, len, "%s: counters unknown (not on this machine: --cpu-model)",
				 p->name);
			return -1;
		}
		*cap = (struct plan_cap){ per_arm, 1, 0 };
		snprintf(note, len, "%s: %d general counters per Arm's data (--cpu-model, not on "
			 "this machine)", p->name, per_arm);
		return 0;
	}
	probe_get(p, &k);
	if (k.general <= 0 && k.per_arm > 0) {
		*cap = (struct plan_cap){ k.per_arm, 1, 0 };
		snprintf(note, len, "%s: %d general counters per Arm's data (%s)", p->name,
			 k.per_arm, k.why);
		return 0;
	}
	if (k.general <= 0) {
		snprintf(note, len, "%s: counters unknown (%s)", p->name, k.why);
		return -1;
	}
	*cap = (struct plan_cap){ k.general, k.cycle == 1, k.icntr == 1 };
	snprintf(note, len, "%s: %d general counters%s (%s)", p->name, k.general,
		 k.cycle == 1 ? " + the cycle counter" : "", k.source);
	return 0;
}

/* Appends name to the list in buf (at *off). */
static void add_name(char *buf, size_t len, size_t *off, const char *name)
{
	if (*off < len)
		*off += (size_t)snprintf(buf + *off, len - *off, "%s%s", *off > 1 ? "," : "", name);
}

/* "{a,b,c}": the members of group g (a user group, or one core type's part of one), for a
 * message: the rows of a user group, split or not, then the parts in g. */
static void group_names(const struct stat_counters *cs, const struct stat_event *rows,
			size_t nrows, int g, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "{");

	for (size_t k = 0; k < nrows; k++)
		if (rows[k].sel.ev.group == g)
			add_name(buf, len, &off, rows[k].sel.ev.name);
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].part >= 0 && cs->c[k].group == g)
			add_name(buf, len, &off, rows[cs->c[k].ev].sel.ev.name);
	if (off < len)
		snprintf(buf + off, len - off, "}");
}

/* Plans with known capacities; -1 after a message for a group that cannot fit. */
static int run_planner(struct stat_counters *cs, const struct stat_event *rows,
		       const struct plan_ev *pe, const struct plan_cap *caps,
		       const struct resolve_ctx *rc, struct stat_planned *out)
{
	struct plan p;
	struct plan_error err;
	char names[200];
	pp_status st = plan_make(pe, cs->n, caps, rc->npmus, &p, &err);

	if (st == PP_EINVAL) {
		group_names(cs, rows, cs->nrows, err.group, names, sizeof(names));
		msg_error("the group %s needs %d general counters, but %s has %d%s: it can never "
			  "be counted whole (split it into smaller groups)", names, err.need,
			  rc->pmus[err.pmu].name, err.have,
			  caps[err.pmu].cycle ? " and the cycle counter" : "");
		return -1;
	}
	if (st != PP_OK) {
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < cs->n; k++)
		cs->c[k].run = p.run[k];
	out->nruns = p.nruns;
	plan_free(&p);
	return 0;
}

/* The capacities of the PMUs some counter uses into caps, their notes into out->caps;
 * out->known: every one is known. */
static void capacities(const struct stat_counters *cs, const struct stat_plan_cfg *c,
		       const struct resolve_ctx *rc, struct plan_cap *caps,
		       struct stat_planned *out)
{
	size_t off = 0;

	out->known = 1;
	for (size_t p = 0; p < rc->npmus; p++) {
		int used = 0;

		for (size_t k = 0; k < cs->n; k++)
			used |= cs->c[k].pmu_ix == (int)p;
		if (!used)
			continue;
		if (pmu_cap(&rc->pmus[p], c, &caps[p], out->caps + off, sizeof(out->caps) - off))
			out->known = 0;
		off = strlen(out->caps);
		if (off + 2 < sizeof(out->caps))
			out->caps[off++] = ';', out->caps[off++] = ' ', out->caps[off] = '\0';
	}
	if (off >= 2 && out->caps[off - 2] == ';')
		out->caps[off - 2] = '\0';
}

/* With the Arm PMUs read: capacities, then the planner. */
static int plan_on(struct stat_counters *cs, const struct stat_event *rows,
		   const struct stat_plan_cfg *c, const struct resolve_ctx *rc,
		   struct stat_planned *out)
{
	size_t n = cs->n;
	struct pmu_facts *facts = calloc(rc->npmus + 1, sizeof(*facts));
	struct plan_ev *pe = calloc(n + 1, sizeof(*pe));
	struct plan_cap *caps = calloc(rc->npmus + 1, sizeof(*caps));
	int rc2 = 0;

	if (!facts || !pe || !caps) {
		free(facts);
		free(pe);
		free(caps);
		msg_error("out of memory");
		return -1;
	}
	for (size_t p = 0; p < rc->npmus; p++)
		facts[p] = pmu_facts(&rc->pmus[p]);
	for (size_t k = 0; k < n; k++) {
		struct stat_counter *e = &cs->c[k];

		e->pmu_ix = pmu_index(rc, cs, rows, e);
		pe[k] = plan_event(cs, rows, e, e->pmu_ix >= 0 ? &facts[e->pmu_ix] : NULL,
				   e->pmu_ix);
		e->kind = (int)pe[k].kind;
	}
	capacities(cs, c, rc, caps, out);
	if (out->known)
		rc2 = run_planner(cs, rows, pe, caps, rc, out);
	else if (c->mux == STAT_MUX_RUNS) {
		msg_error("cannot plan --mux=runs: %s (give the number with --counters N)",
			  out->caps);
		rc2 = -1;
	}
	free(facts);
	free(pe);
	free(caps);
	return rc2;
}

/* No PMU here for the core --cpu-model names, the core the events were resolved for: the plan is
 * made on a stand-in PMU of that core (type -1: never probed nor opened as such), with
 * --counters or Arm's data for the core, so that --plan on any host shows what that core
 * would do. The counters it places on that core are never opened: this host's PMU (an x86
 * core's, which takes any PERF_TYPE_RAW config) would count its own event under the Arm
 * name. */
static int plan_model(struct stat_counters *cs, const struct stat_event *rows,
		      const struct stat_plan_cfg *c, const struct resolve_ctx *rc,
		      struct stat_planned *out)
{
	struct sysfs_pmu pmu = { .type = -1, .is_arm = 1, .mux_interval_ms = -1 };
	struct resolve_ctx one = *rc;	/* the same context, its PMUs the stand-in */
	int st;

	snprintf(pmu.name, sizeof(pmu.name), "%s", evtab_core_name(rc->model));
	pmu.midr = (uint64_t)evtab_core_implementer(rc->model) << 24 |
		   (uint64_t)evtab_core_part(rc->model) << 4;
	one.pmus = &pmu;
	one.npmus = 1;
	st = plan_on(cs, rows, c, &one, out);
	if (!out->fixture && asprintf(&out->fixture, "--cpu-model names %s, a core this "
				      "machine has no PMU for", pmu.name) < 0) {
		out->fixture = NULL;
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].pmu_ix >= 0 && !cs->c[k].fixture)
			cs->c[k].fixture = out->fixture;
	return st;
}

/* The attributes counter e opens with. */
static const struct pp_attr *attr_of(const struct stat_counters *cs,
				     const struct stat_event *rows, const struct stat_counter *e)
{
	return e->part >= 0 ? &cs->parts[e->part].attr : &rows[e->ev].sel.ev.attr;
}

/* Under a fixture tree, the counters needing an Arm counter are never opened (but a part
 * whose core type lacks the event, which has nothing to count with either). */
static void mark_fixture(struct stat_counters *cs, const struct stat_event *rows,
			 const char *why)
{
	for (size_t k = 0; k < cs->n; k++) {
		struct stat_counter *e = &cs->c[k];

		e->fixture = why && needs_counter(attr_of(cs, rows, e)) &&
			     !(e->part >= 0 && cs->parts[e->part].absent) ? why : NULL;
	}
}

/* Whether --cpu-model's events have a PMU here to count on: one of the named core, or one
 * whose core the tables do not know (the user names it). */
static int model_pmu(struct resolve_ctx *rc)
{
	for (size_t k = 0; k < rc->npmus; k++) {
		const struct evtab_core *core = resolve_pmu_core(&rc->pmus[k]);

		if (!core || core == rc->model)
			return 1;
	}
	return 0;
}

int stat_plan(struct stat_counters *cs, const struct stat_event *rows, struct resolve_ctx *rc,
	      const struct stat_plan_cfg *c, struct stat_planned *out)
{
	int any = 0;

	memset(out, 0, sizeof(*out));
	out->nruns = 1;
	/* a fixture tree's PMU type numbers are another machine's: on this one the same number
	 * may be any PMU (msr on x86 for the phone's 8), so the kernel is never asked */
	if (*sysfs_root() && asprintf(&out->fixture, "its PMU comes from the fixture tree %s "
				      "(PMUPROF_SYSFS_ROOT), not this machine", sysfs_root()) < 0) {
		out->fixture = NULL;	/* and nothing is opened: the run ends here */
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < cs->n; k++) {
		cs->c[k].run = 0;
		if (cs->c[k].part < 0)	/* a part keeps the PMU it was made for */
			cs->c[k].pmu_ix = -1;
		any |= needs_counter(attr_of(cs, rows, &cs->c[k]));
	}
	mark_fixture(cs, rows, out->fixture);
	out->known = 1;
	if (!any)		/* software only: nothing to read, nothing to probe */
		return 0;
	/* the PMUs resolution loaded, or loaded now for the first time */
	resolve_ctx_pmus(rc);
	cs->pmus = rc->pmus;
	cs->npmus = rc->npmus;
	if (rc->model && !model_pmu(rc))
		return plan_model(cs, rows, c, rc, out);
	return rc->npmus ? plan_on(cs, rows, c, rc, out) : 0;
}

static const char *kind_str(const struct stat_counter *e)
{
	return e->pmu_ix < 0 ? "no counter" : pmreg_kind_str((enum pmreg_kind)e->kind);
}

void stat_planned_free(struct stat_planned *p)
{
	free(p->fixture);
	p->fixture = NULL;
}

/* How the plan ends: whether the counts are exact, and how. */
static void plan_verdict(const struct stat_planned *p, const struct stat_plan_cfg *c,
			 FILE *out)
{
	if (!p->known)
		fprintf(out, "the counters are unknown: one run, the kernel multiplexes what does "
			"not fit (--counters N plans for N)\n");
	else if (p->nruns == 1)
		fprintf(out, "everything fits: one run, every count exact\n");
	else if (c->mux == STAT_MUX_RUNS)
		fprintf(out, "--mux=runs: the command runs %zu times, each run counting its own "
			"events exactly\n", p->nruns);
	else
		fprintf(out, "--mux=kernel: one run, the kernel rotates these %zu sets and scales "
			"the counts (--mux=runs would run the command %zu times for exact counts)\n",
			p->nruns, p->nruns);
}

int stat_plan_show(const struct stat_counters *cs, const struct stat_event *rows,
		   const struct stat_planned *p, const struct stat_plan_cfg *c, FILE *out)
{
	if (p->caps[0])
		fprintf(out, "capacity: %s\n", p->caps);
	for (size_t r = 0; r < p->nruns; r++) {
		fprintf(out, "run %zu:\n", r + 1);
		for (size_t k = 0; k < cs->n; k++) {
			const struct stat_counter *e = &cs->c[k];
			const struct pp_event *ev = &rows[e->ev].sel.ev;
			const struct stat_part *pt = e->part >= 0 ? &cs->parts[e->part] : NULL;
			const char *pmu = pt ? cs->pmus[pt->pmu_ix].name : ev->pmu;

			if (e->run != (int)r || (pt && pt->absent))
				continue;
			fprintf(out, "  %-32s %-20s %s", ev->name, pmu ? pmu : "", kind_str(e));
			if (ev->group >= 0)
				fprintf(out, ", group %d", ev->group);
			fputc('\n', out);
		}
	}
	for (size_t k = 0; k < cs->nparts; k++)
		if (cs->parts[k].absent)
			fprintf(out, "not counted on %s: its core (%s) has no event '%s'\n",
				cs->pmus[cs->parts[k].pmu_ix].name, cs->parts[k].core ?
				evtab_core_name(cs->parts[k].core) : "unknown",
				rows[cs->parts[k].ev].sel.ev.name);
	plan_verdict(p, c, out);
	return ferror(out) ? -1 : 0;
}
