/* stat_metrics.c: what -M needs of stat: the core the metrics are for, its metric list, and
 * the events each named metric or group adds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "evtab.h"
#include "listmx.h"
#include "resolve.h"
#include "metrics.h"
#include "stat.h"
#include "sysfs.h"

/* The core the metrics are for: --cpu-model or $PMUPROF_CPU_MODEL (with its revision,
 * "neoverse-n2:r0p3", else r0p0), else the MIDR (its revision too) of the first CPU's Arm PMU
 * as resolution found it (no file read again); no Arm PMU: not known (the generic metrics). */
void stat_metrics_core(const char *cpu_model, struct resolve_ctx *ctx,
		       struct metrics_core *mc)
{
	if (ctx->model) {
		const char *model = resolve_model_name(cpu_model);
		int rev = model ? evtab_model_revision(model) : -1;

		metrics_core_set(mc, ctx->model, rev >= 0 ? (unsigned)rev : 0);
		return;
	}
	if (resolve_ctx_pmus(ctx) != PP_OK || !ctx->npmus) {
		metrics_core_set(mc, NULL, 0);
		return;
	}
	metrics_core_from_midr(mc, ctx->pmus[0].midr);
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
	struct listmx_core c = { mc->core, (int)mc->rev };

	if (mc->core) {
		listmx_text(&c, 1, NULL, stdout);
		return ferror(stdout) ? PP_EXIT_ERROR : 0;
	}
	printf("The CPU's core is not known (--cpu-model CORE names one): the generic metrics.\n\n");
	for (size_t i = 0; mc->set && i < mxtab_ngroups(mc->set); i++) {
		const struct mxtab_group *g = mxtab_group_at(mc->set, i);

		printf("  group %-26s", mxtab_group_name(g));
		for (size_t k = 0; k < mxtab_group_nmetrics(g); k++)
			printf(" %s", mxtab_metric_name(mxtab_group_metric(g, k)));
		putchar('\n');
	}
	for (size_t i = 0; mc->set && i < mxtab_nmetrics(mc->set); i++) {
		const struct mxtab_metric *m = mxtab_metric_at(mc->set, i);

		printf("  %-34s %s (%s)\n      = %s\n", mxtab_metric_name(m), mxtab_metric_title(m),
		       mxtab_metric_unit(m), mxtab_metric_formula(m));
	}
	return ferror(stdout) ? PP_EXIT_ERROR : 0;
}

/* -M: each metric's or group's events become more -e specs; owned[k] (nnames slots, zeroed
 * by the caller, who frees them) keeps name k's. -1 after a message. */
int stat_metrics_add_specs(struct evsel_opts *ev, const char *const *names, size_t nnames,
			   const struct metrics_core *mc, char **owned)
{
	int counters = mc->core ? evtab_core_counters(mc->core) : 0;
	char title[96];

	for (size_t k = 0; k < nnames; k++) {
		int unknown;
		const char **p;

		owned[k] = metrics_spec(mc, names[k], counters, &unknown);
		if (!owned[k] && unknown) {
			msg_error("no metric or group '%s' for %s (see 'pmuprof list --metrics%s%s')",
				  names[k], metrics_core_title(mc, title, sizeof(title)),
				  mc->core ? " --cpu-model " : "",
				  mc->core ? evtab_core_name(mc->core) : "");
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

/* Appends name to names unless there (in any case). -1: out of memory. */
static int add_once(const char ***names, size_t *n, const char *name)
{
	const char **p;

	for (size_t k = 0; k < *n; k++)
		if (!strcasecmp((*names)[k], name))
			return 0;
	if (!(p = realloc(*names, (*n + 1) * sizeof(*p))))
		return -1;
	*names = p;
	p[(*n)++] = name;
	return 0;
}

int stat_metrics_topdown(const struct metrics_core *mc, const char ***names, size_t *n,
			 const char **group)
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
	if (add_once(names, n, *group) != 0)
		goto oom;
	/* every stage-2 group a stage-1 node leads to: the tree shows the dominant nodes' */
	for (size_t i = 0; i < mxtab_group_nmetrics(g); i++) {
		const char *next = mxtab_metric_next(mxtab_group_metric(g, i));

		while (*next) {
			size_t len = strcspn(next, " ");
			const struct mxtab_group *x = NULL;

			for (size_t k = 0; !x && k < mxtab_ngroups(mc->set); k++) {
				const char *nm = mxtab_group_name(mxtab_group_at(mc->set, k));

				if (strlen(nm) == len && !strncmp(nm, next, len))
					x = mxtab_group_at(mc->set, k);
			}
			if (x && add_once(names, n, mxtab_group_name(x)) != 0)
				goto oom;
			next += len;
			next += strspn(next, " ");
		}
	}
	return 0;
oom:
	msg_error("out of memory");
	return -1;
}
