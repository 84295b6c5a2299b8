/* stat_plan.c: pmuprof stat's counting plan: each event's Arm PMU and counter kind, the
 * PMUs' capacities (probed, cached or --counters), the planner's groups and runs, and the
 * --plan view of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "cmd.h"
#include "plan.h"
#include "stat.h"
#include "sysfs.h"

/* Whether an event needs a hardware counter at all (software and tracepoints do not). */
static int needs_counter(const struct stat_event *e)
{
	uint32_t t = e->sel.ev.attr.type;

	return t != PERF_TYPE_SOFTWARE && t != PERF_TYPE_TRACEPOINT;
}

/* An event the fixture has nothing to count with either: a part for a core type without
 * it, a row none of whose core types has it (not supported, from the tree's own tables). */
static int never_opened(const struct stat_event *evs, size_t k)
{
	if (evs[k].absent)
		return 1;
	for (int i = 0; i < evs[k].nparts; i++)
		if (!evs[evs[k].part0 + i].absent)
			return 0;
	return evs[k].nparts > 0;
}

/* The Arm PMU an event counts on: its own by name; generic and raw events go to the
 * first (by CPU) Arm PMU, as the kernel gives them to the arm_pmu that accepts them. */
static int pmu_index(const struct resolve_ctx *c, const struct stat_event *e)
{
	uint32_t t = e->sel.ev.attr.type;

	if (e->parent >= 0)		/* a part: its PMU (none when it lacks the event) */
		return e->absent ? -1 : e->pmu_ix;
	if (e->nparts || !needs_counter(e) || !c->npmus)
		return -1;		/* a split row: counted by its parts */
	for (size_t k = 0; k < c->npmus; k++)
		if (e->sel.ev.pmu && !strcmp(e->sel.ev.pmu, c->pmus[k].name))
			return (int)k;
	if (t == PERF_TYPE_RAW ||
	    ((t == PERF_TYPE_HARDWARE || t == PERF_TYPE_HW_CACHE) && e->sel.ev.arm_code >= 0))
		return 0;
	return -1;
}

/* What the planner reads of an Arm PMU for each of its events, looked up once a PMU, not
 * once an event: its PMUv3 version and the format/ terms of the 64-bit and threshold bits. */
struct pmu_facts {
	int pmuver;
	const struct sysfs_format *lng, *th, *thc, *thn;
};

static struct pmu_facts pmu_facts(const struct sysfs_pmu *pmu)
{
	const struct evtab_core *core = resolve_pmu_core(pmu);
	int ver = core ? pmreg_pmuver_for_arch(evtab_core_arch(core)) : -1;

	return (struct pmu_facts){ ver < 0 ? 1 : ver, sysfs_format_find(pmu, "long"),
				   sysfs_format_find(pmu, "threshold"),
				   sysfs_format_find(pmu, "threshold_compare"),
				   sysfs_format_find(pmu, "threshold_count") };
}

/* The planner's view of an event on a PMU with facts f (NULL: no PMU): its counter kind. */
static struct plan_ev plan_event(const struct stat_event *e, const struct pmu_facts *f, int ix)
{
	const struct pp_attr *a = &e->sel.ev.attr;
	uint64_t cfg[4] = { a->config, a->config1, a->config2, 0 };
	struct pmreg_pmu pp = { .pmuver = f ? f->pmuver : 1 };
	struct pmreg_event re = { .evt = (uint16_t)(e->sel.ev.arm_code >= 0 ? e->sel.ev.arm_code
						    : (int)(a->config & 0xffff)) };
	/* the parts of one event share a run: its total adds counts of one run of the command */
	struct plan_ev pe = { ix, e->group, PMREG_ANY, 0, e->parent >= 0 ? e->parent + 1 : 0 };

	if (ix < 0)
		return pe;
	if (f) {
		/* armv8pmu_event_threshold_control: TC = compare << 1 | count */
		re.is_long = pmreg_format_value(f->lng, cfg) != 0;
		re.th = (uint32_t)pmreg_format_value(f->th, cfg);
		re.tc = (unsigned)(pmreg_format_value(f->thc, cfg) << 1 |
				   pmreg_format_value(f->thn, cfg));
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
	capacity_get(p, &k);
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

/* "{a,b,c}": the members of group g (one core type's part of a user group), for a message. */
static void group_names(const struct stat_event *evs, size_t n, int g, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "{");

	for (size_t k = 0; k < n && off < len; k++)
		if (evs[k].group == g)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off > 1 ? "," : "",
						evs[k].sel.ev.name);
	if (off < len)
		snprintf(buf + off, len - off, "}");
}

/* Plans with known capacities; -1 after a message for a group that cannot fit. */
static int run_planner(struct stat_event *evs, size_t n, const struct plan_ev *pe,
		       const struct plan_cap *caps, const struct resolve_ctx *rc,
		       struct stat_planned *out)
{
	struct plan p;
	struct plan_error err;
	char names[200];
	pp_status st = plan_make(pe, n, caps, rc->npmus, &p, &err);

	if (st == PP_EINVAL) {
		group_names(evs, n, err.group, names, sizeof(names));
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
	for (size_t k = 0; k < n; k++)
		evs[k].run = p.run[k];
	for (size_t k = 0; k < n; k++)		/* a split row: its first counted part's run */
		for (int i = evs[k].nparts - 1; i >= 0; i--)
			if (!evs[evs[k].part0 + i].absent)
				evs[k].run = evs[evs[k].part0 + i].run;
	out->nruns = p.nruns;
	plan_free(&p);
	return 0;
}

/* With the Arm PMUs read: capacities, then the planner. */
static int plan_on(struct stat_event *evs, size_t n, const struct stat_plan_cfg *c,
		   const struct resolve_ctx *rc, struct stat_planned *out)
{
	/* one allocation: the PMUs' facts, the events to plan, the PMUs' capacities,
	 * in the order of their alignment */
	size_t np = rc->npmus + 1;
	struct pmu_facts *facts = calloc(1, np * (sizeof(*facts) + sizeof(struct plan_cap)) +
					    (n + 1) * sizeof(struct plan_ev));
	struct plan_ev *pe = facts ? (struct plan_ev *)(void *)(facts + np) : NULL;
	struct plan_cap *caps = pe ? (struct plan_cap *)(void *)(pe + n + 1) : NULL;
	size_t off = 0;
	int rc2 = 0;

	_Static_assert(_Alignof(struct plan_ev) <= _Alignof(struct pmu_facts) &&
		       _Alignof(struct plan_cap) <= _Alignof(struct plan_ev), "aligned in turn");
	if (!facts) {
		msg_error("out of memory");
		return -1;
	}
	for (size_t p = 0; p < rc->npmus; p++)
		facts[p] = pmu_facts(&rc->pmus[p]);
	for (size_t k = 0; k < n; k++) {
		evs[k].pmu_ix = pmu_index(rc, &evs[k]);
		pe[k] = plan_event(&evs[k], evs[k].pmu_ix >= 0 ? &facts[evs[k].pmu_ix] : NULL,
				   evs[k].pmu_ix);
		evs[k].kind = (int)pe[k].kind;
	}
	out->known = 1;
	for (size_t p = 0; p < rc->npmus; p++) {
		int used = 0;

		for (size_t k = 0; k < n; k++)
			used |= evs[k].pmu_ix == (int)p;
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
	if (out->known)
		rc2 = run_planner(evs, n, pe, caps, rc, out);
	else if (c->mux == STAT_MUX_RUNS) {
		msg_error("cannot plan --mux=runs: %s (give the number with --counters N)",
			  out->caps);
		rc2 = -1;
	}
	free(facts);
	return rc2;
}

/* No Arm PMU here, but --cpu-model names the core the events were resolved for: the plan is
 * made on a stand-in PMU of that core (type -1: never probed nor opened as such), with
 * --counters or Arm's data for the core, so that --plan on any host shows what that core
 * would do. The events it places on that core are never opened: this host's PMU (an x86
 * core's, which takes any PERF_TYPE_RAW config) would count its own event under the Arm
 * name. */
static int plan_model(struct stat_event *evs, size_t n, const struct stat_plan_cfg *c,
		      const struct resolve_ctx *rc, struct stat_planned *out)
{
	struct sysfs_pmu pmu = { .type = -1, .is_arm = 1, .mux_interval_ms = -1 };
	struct resolve_ctx one = *rc;	/* the same context, its PMUs the stand-in */
	int st;

	snprintf(pmu.name, sizeof(pmu.name), "%s", evtab_core_name(rc->model));
	pmu.midr = (uint64_t)evtab_core_implementer(rc->model) << 24 |
		   (uint64_t)evtab_core_part(rc->model) << 4;
	one.pmus = &pmu;
	one.npmus = 1;
	st = plan_on(evs, n, c, &one, out);
	if (!out->fixture && asprintf(&out->fixture, "--cpu-model names %s, a core this "
				      "machine has no PMU for", pmu.name) < 0) {
		out->fixture = NULL;
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		if (evs[k].pmu_ix >= 0 && !evs[k].fixture)
			evs[k].fixture = out->fixture;
	return st;
}

int stat_plan(struct stat_event *evs, size_t n, struct resolve_ctx *rc,
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
	for (size_t k = 0; k < n; k++) {
		evs[k].run = 0;
		if (evs[k].parent < 0)	/* a part keeps the PMU it was made for */
			evs[k].pmu_ix = -1;
		any |= needs_counter(&evs[k]);
	}
	for (size_t k = 0; k < n; k++)
		evs[k].fixture = out->fixture && needs_counter(&evs[k]) && !never_opened(evs, k)
				 ? out->fixture : NULL;
	out->known = 1;
	if (!any)		/* software only: nothing to read, nothing to probe */
		return 0;
	/* the PMUs resolution loaded, or loaded now for the first time */
	resolve_ctx_pmus(rc);
	if (!rc->npmus && rc->model)
		return plan_model(evs, n, c, rc, out);
	return rc->npmus ? plan_on(evs, n, c, rc, out) : 0;
}

static const char *kind_str(const struct stat_event *e)
{
	return e->pmu_ix < 0 ? "no counter" : pmreg_kind_str((enum pmreg_kind)e->kind);
}

void stat_planned_free(struct stat_planned *p)
{
	free(p->fixture);
	p->fixture = NULL;
}

int stat_plan_show(const struct stat_event *evs, size_t n, const struct stat_planned *p,
		   const struct stat_plan_cfg *c, FILE *out)
{
	if (p->caps[0])
		fprintf(out, "capacity: %s\n", p->caps);
	for (size_t r = 0; r < p->nruns; r++) {
		fprintf(out, "run %zu:\n", r + 1);
		for (size_t k = 0; k < n; k++) {
			const struct pp_event *ev = &evs[k].sel.ev;

			if (evs[k].run != (int)r || evs[k].nparts || evs[k].absent)
				continue;
			fprintf(out, "  %-32s %-20s %s", ev->name, ev->pmu ? ev->pmu : "",
				kind_str(&evs[k]));
			if (ev->group >= 0)
				fprintf(out, ", group %d", ev->group);
			fputc('\n', out);
		}
	}
	for (size_t k = 0; k < n; k++)
		if (evs[k].absent)
			fprintf(out, "not counted on %s: its core (%s) has no event '%s'\n",
				evs[k].sel.ev.pmu, evs[k].sel.ev.core ?
				evtab_core_name(evs[k].sel.ev.core) : "unknown", evs[k].sel.ev.name);
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
	return ferror(out) ? -1 : 0;
}
