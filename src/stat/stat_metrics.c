/* SPDX-License-Identifier: Apache-2.0 */
/* stat_metrics.c: what -M needs of stat: the core the metrics are for, its metric list, and
 * the events each named metric or group adds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "cmd.h"
#include "evtab.h"
#include "list_metrics.h"
#include "resolve.h"
#include "metrics.h"
#include "stat.h"
#include "strbuf.h"
#include "sysfs.h"

/* The core the metrics are for: --cpu-model or $PMUPROF_CPU_MODEL (with its revision,
 * "neoverse-n2:r0p3", else r0p0), else the MIDR (its revision too) of the first CPU's Arm PMU
 * as resolution found it (no file read again); no Arm PMU: not known (the generic metrics). */
void stat_metrics_core(const char *cpu_model, const char *cputype, struct resolve_ctx *ctx,
		       struct metrics_core *mc)
{
	const struct sysfs_pmu *p;

	/* the model resolution took (evsel_ctx_init refused an unknown one) */
	if (ctx->model && metrics_core_named(mc, resolve_model_name(cpu_model)) == 0)
		return;
	if (resolve_ctx_pmus(ctx) != PP_OK || !ctx->npmus) {
		metrics_core_set(mc, NULL, 0);
		return;
	}
	/* --cputype: the metrics of the core type counted (a name it refuses: the first's,
	 * the refusal comes before anything is counted) */
	p = cputype ? stat_cputype_pmu(cputype, ctx) : NULL;
	metrics_core_from_midr(mc, (p ? p : &ctx->pmus[0])->midr);
}

/* Whether an event can be a metric's input: one the kernel gives an Arm PMU (perf's generic
 * hardware and cache events, raw codes, an Arm PMU's events). */
int stat_metrics_wanted(const struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (evs[k].sel.ev.arm_code >= 0)
			return 1;
	return 0;
}

/* perf 6.19's names -M takes, each with the metric it is or the events whose figures answer
 * it (indented as the metrics are, so that completion offers them too). */
static void print_perf_names(void)
{
	const char *perf, *ours, *events;

	printf("perf 6.19's metric names -M takes (a figure beside an event counts its events):\n");
	for (size_t i = 0; (perf = metrics_perf_at(i, &ours, &events)); i++)
		if (ours)
			printf("  %-32s is %s\n", perf, ours);
		else
			printf("  %-32s counts %s\n", perf, events);
}

/* -M list: the core's metrics and groups, as `pmuprof list --metrics` prints them; for a core
 * not known, the generic metrics, whose formulas are the same on every core. */
int stat_metrics_list(const struct metrics_core *mc)
{
	struct list_metrics_core c = { mc->core, (int)mc->rev };

	if (!mc->core)
		printf("The CPU's core is not known (--cpu-model CORE names one): the generic "
		       "metrics.\n\n");
	list_metrics_text(&c, 1, NULL, stdout);
	print_perf_names();
	return ferror(stdout) ? PP_EXIT_ERROR : 0;
}

void stat_metrics_unknown(const struct metrics_core *mc, const char *name)
{
	char title[96];

	msg_error("no metric or group '%s' for %s (see 'pmuprof list --metrics%s%s')", name,
		  metrics_core_title(mc, title, sizeof(title)), mc->core ? " --cpu-model " : "",
		  mc->core ? evtab_core_name(mc->core) : "");
}

/* Whether spec (an -e list: names, groups in braces) names event as one of its items. */
static int spec_names(const char *spec, const char *event)
{
	size_t len = strlen(event);

	for (const char *p = spec; p && *p; p += strcspn(p, ",{}")) {
		p += strspn(p, ",{}");
		if (strcspn(p, ",{}") == len && !ascii_strncasecmp(p, event, len))
			return 1;
	}
	return 0;
}

/* Whether ev's specs or extra name event, or on a known core the Arm event the kernel counts
 * for it (a metric's specs spell CPU_CYCLES "cpu_cycles", perf's name is "cycles"). */
static int named(const struct evsel_opts *ev, const char *extra, const char *event,
		 const struct metrics_core *mc)
{
	const struct evtab_event *e = NULL;
	struct pp_attr a = { 0 };
	const char *unit, *arm;
	int code;

	if (mc->core && resolve_generic(event, &a, &unit) == PP_OK &&
	    (code = resolve_generic_arm_code(a.type, a.config)) >= 0)
		e = evtab_find_code(mc->core, (unsigned)code);
	arm = e ? evtab_event_name(e) : NULL;
	for (size_t k = 0; k < ev->nspecs; k++)
		if (spec_names(ev->specs[k], event) || (arm && spec_names(ev->specs[k], arm)))
			return 1;
	return spec_names(extra, event);
}

/* Appends to *extra (an -e list) each event of list that neither it nor ev's specs name, so
 * that -M cs_per_second,CPUs_utilized or -e task-clock -M CPUs_utilized count one task-clock.
 * -1 when memory ran out. */
static int add_missing(const struct evsel_opts *ev, const struct metrics_core *mc,
		       const char *list, char **extra, size_t *len, size_t *cap)
{
	char event[64];

	for (const char *p = list; *p; p += strspn(p, ",")) {
		size_t n = strcspn(p, ",");

		snprintf(event, sizeof(event), "%.*s", (int)n, p);
		p += n;
		if (named(ev, *extra, event, mc))
			continue;
		if ((*len && strbuf_put(extra, len, cap, ",")) || strbuf_put(extra, len, cap, event))
			return -1;
	}
	return 0;
}

static int push_spec(struct evsel_opts *ev, char *spec)
{
	const char **p = realloc(ev->specs, (ev->nspecs + 1) * sizeof(*p));

	if (!p)
		return -1;
	ev->specs = p;
	ev->specs[ev->nspecs++] = spec;
	return 0;
}

/* -M: each metric's or group's events become more -e specs; owned[k] (nnames slots, zeroed
 * by the caller, who frees them) keeps name k's. perf 6.19's names of figures pmuprof prints
 * beside an event (metrics_perf_events) add those events that neither -e nor the metrics
 * count, each once, in one spec after the metrics' (kept in the first such name's slot).
 * -1 after a message. */
int stat_metrics_add_specs(struct evsel_opts *ev, const char *const *names, size_t nnames,
			   const struct metrics_core *mc, char **owned)
{
	int counters = mc->core ? evtab_core_counters(mc->core) : 0;
	char *extra = NULL;
	size_t len = 0, cap = 0, slot = nnames;

	for (size_t k = 0; k < nnames; k++) {
		int unknown;

		owned[k] = metrics_spec(mc, names[k], counters, &unknown);
		if (!owned[k] && unknown && metrics_perf_events(names[k])) {
			slot = slot < nnames ? slot : k;
			continue;
		}
		if (!owned[k] && unknown) {
			stat_metrics_unknown(mc, names[k]);
			return -1;
		}
		if (!owned[k] || push_spec(ev, owned[k]) != 0)
			goto oom;
	}
	for (size_t k = slot; k < nnames; k++) {
		const char *events = owned[k] ? NULL : metrics_perf_events(names[k]);

		if (events && add_missing(ev, mc, events, &extra, &len, &cap) != 0)
			goto oom;
	}
	if (extra && push_spec(ev, extra) != 0)
		goto oom;
	if (extra)
		owned[slot] = extra;
	return 0;
oom:
	free(extra);
	msg_error("out of memory");
	return -1;
}

int stat_metrics_topdown(const struct metrics_core *mc, const char ***names, size_t *n,
			 const char **group, int all)
{
	const struct mxtab_group *g = NULL;
	char title[96];

	for (size_t i = 0; mc->set && !g && i < mxtab_ngroups(mc->set); i++)
		if (mxtab_group_stage(mxtab_group_at(mc->set, i)) == 1)
			g = mxtab_group_at(mc->set, i);
	if (!g) {
		msg_error("--topdown needs Arm's top-down data for the core, which %s lacks (it is "
			  "there for Neoverse and C1 cores: give --cpu-model CORE, or use -M)",
			  metrics_core_title(mc, title, sizeof(title)));
		return -1;
	}
	*group = mxtab_group_name(g);
	if (metrics_names_add_once(names, n, *group) != 0)
		goto oom;
	/* every stage-2 group a stage-1 node leads to: the tree shows the dominant nodes' */
	for (size_t i = 0; all && i < mxtab_group_nmetrics(g); i++)
		if (metrics_next_groups_add(mc->set, mxtab_group_metric(g, i), names, n) != 0)
			goto oom;
	return 0;
oom:
	msg_error("out of memory");
	return -1;
}
