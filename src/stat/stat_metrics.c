/* SPDX-License-Identifier: Apache-2.0 */
/* stat_metrics.c: what -M needs of stat: the core the metrics are for, its metric list, and
 * the events each named metric or group adds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "evtab.h"
#include "list_metrics.h"
#include "resolve.h"
#include "metrics.h"
#include "stat.h"
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

/* -M list: the core's metrics and groups, as `pmuprof list --metrics` prints them; for a core
 * not known, the generic metrics, whose formulas are the same on every core. */
int stat_metrics_list(const struct metrics_core *mc)
{
	struct list_metrics_core c = { mc->core, (int)mc->rev };

	if (!mc->core)
		printf("The CPU's core is not known (--cpu-model CORE names one): the generic "
		       "metrics.\n\n");
	list_metrics_text(&c, 1, NULL, stdout);
	return ferror(stdout) ? PP_EXIT_ERROR : 0;
}

void stat_metrics_unknown(const struct metrics_core *mc, const char *name)
{
	char title[96];
	const char *hint = metrics_perf_hint(name);

	if (hint) {	/* one of perf 6.19's figures that pmuprof shows beside an event */
		msg_error("no metric '%s': pmuprof prints that figure of perf's beside the event "
			  "'%s' (count it with -e %s)", name, hint, hint);
		return;
	}
	msg_error("no metric or group '%s' for %s (see 'pmuprof list --metrics%s%s')", name,
		  metrics_core_title(mc, title, sizeof(title)), mc->core ? " --cpu-model " : "",
		  mc->core ? evtab_core_name(mc->core) : "");
}

/* -M: each metric's or group's events become more -e specs; owned[k] (nnames slots, zeroed
 * by the caller, who frees them) keeps name k's. -1 after a message. */
int stat_metrics_add_specs(struct evsel_opts *ev, const char *const *names, size_t nnames,
			   const struct metrics_core *mc, char **owned)
{
	int counters = mc->core ? evtab_core_counters(mc->core) : 0;

	for (size_t k = 0; k < nnames; k++) {
		int unknown;
		const char **p;

		owned[k] = metrics_spec(mc, names[k], counters, &unknown);
		if (!owned[k] && unknown) {
			stat_metrics_unknown(mc, names[k]);
			return -1;
		}
		if (!owned[k] || !(p = realloc(ev->specs, (ev->nspecs + 1) * sizeof(*p)))) {
			msg_error("out of memory");
			return -1;
		}
		ev->specs = p;
		ev->specs[ev->nspecs++] = owned[k];
	}
	return 0;
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
