/* SPDX-License-Identifier: Apache-2.0 */
/* stat_cputype.c: --cputype PMU|CORE, perf's option for machines with several core types:
 * counting restricted to one of them. Each core type has an Arm PMU of its own, and the
 * kernel counts an event opened on that PMU only while its task runs on that PMU's CPUs, so
 * tying every row to the chosen PMU counts that core type only; with -a or -C the CPUs
 * counted on are that PMU's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtab.h"
#include "msg.h"
#include "stat.h"
#include "sysfs.h"

/* Whether name names PMU p's core as the tables name cores (by evtab_core_by_name's
 * spellings: "cortex-a55", "Cortex-A55", "a55"). */
static int names_pmu(const char *name, const struct sysfs_pmu *p)
{
	const struct evtab_core *core = resolve_pmu_core(p);
	const struct evtab_core *want;

	/* a revision (":r1p0") narrows a --cpu-model, not a PMU: not a core type's name */
	if (!core || strchr(name, ':') || !(want = evtab_core_by_name(name)))
		return 0;
	return want == core;
}

/* "armv8_cortex_a55 (cortex-a55), armv8_cortex_a76 (cortex-a76)": rc's Arm PMUs. */
static void pmu_list(const struct resolve_ctx *rc, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t ix = 0; ix < rc->npmus && at < len; ix++) {
		const struct evtab_core *core = resolve_pmu_core(&rc->pmus[ix]);
		int w = snprintf(buf + at, len - at, "%s%s%s%s%s", ix ? ", " : "",
				 rc->pmus[ix].name, core ? " (" : "",
				 core ? evtab_core_name(core) : "", core ? ")" : "");

		at += w > 0 ? (size_t)w : 0;
	}
}

/* The one Arm PMU of rc whose own name is name, else whose core name names; -1 when none,
 * -2 when a core name names several (two PMUs of one core, as a devicetree may make). */
static int match_pmu(const struct resolve_ctx *rc, const char *name)
{
	int found = -1;

	for (size_t ix = 0; ix < rc->npmus; ix++)
		if (!strcmp(name, rc->pmus[ix].name))
			return (int)ix;
	for (size_t ix = 0; ix < rc->npmus; ix++)
		if (names_pmu(name, &rc->pmus[ix]))
			found = found < 0 ? (int)ix : -2;
	return found;
}

/* The Arm PMU of rc that name names; -2 for the core PMU of a machine with no Arm PMU
 * ("cpu" on x86: one core type, nothing to restrict); -1 after a message naming the PMUs. */
static int find_pmu(struct resolve_ctx *rc, const char *name)
{
	char list[512], core[64];
	int ix;

	if (resolve_ctx_pmus(rc) == PP_OK && rc->npmus) {
		if ((ix = match_pmu(rc, name)) >= 0)
			return ix;
		pmu_list(rc, list, sizeof(list));
		if (ix == -2) {
			msg_error("--cputype '%s' names more than one PMU of this machine: %s (give "
				  "the PMU's name)", name, list);
			return -1;
		}
		msg_error("--cputype '%s' names no core type of this machine: its CPU PMU%s %s "
			  "(give one of them, or its core)", name, rc->npmus > 1 ? "s are" : " is",
			  list);
		return -1;
	}
	if (sysfs_core_pmu(core, sizeof(core), NULL) == PP_OK) {
		if (!strcmp(name, core))
			return -2;
		msg_error("--cputype '%s' names no core type of this machine: it has no Arm PMU, "
			  "and its CPU PMU is '%s' (give that, or drop --cputype)", name, core);
		return -1;
	}
	msg_error("--cputype '%s' names no core type of this machine: it shows no CPU PMU in "
		  "/sys/bus/event_source/devices (drop --cputype)", name);
	return -1;
}

/* Whether row e is an event of an Arm PMU of rc other than pmus[ix] alone (a row split over
 * the core types names the PMU it was resolved against: that is no choice of the user's). */
static int other_pmu(const struct stat_event *e, const struct resolve_ctx *rc, size_t ix)
{
	if (e->sel.ev.split != RESOLVE_SPLIT_NONE)
		return 0;
	for (size_t k = 0; k < rc->npmus; k++)
		if (k != ix && e->sel.ev.pmu && !strcmp(e->sel.ev.pmu, rc->pmus[k].name))
			return 1;
	return 0;
}

/* Ties row e, which would count on every core type, to PMU p: its event encoded for p, as if
 * the user had written p/EVENT/. -1 after a message when p's core cannot count it. */
static int tie_row(struct stat_event *e, struct sysfs_pmu *p)
{
	struct pp_event *ev = &e->sel.ev;
	struct pp_attr attr;
	pp_status st = resolve_on_pmu(ev, p, &attr);

	if (st != PP_OK) {
		msg_error("cannot count event '%s' on %s (--cputype): %s (drop one of them)",
			  ev->name, p->name, st == PP_ENOENT ? "its core has no such event" :
			  "the event cannot be encoded for that PMU");
		return -1;
	}
	ev->attr = attr;
	ev->pmu = p->name;	/* the context's: it outlives the rows */
	ev->core = resolve_pmu_core(p);
	ev->split = RESOLVE_SPLIT_NONE;
	return 0;
}

/* Every row of rows for PMU pmus[ix]: tied to it, or refused when the user tied it to another
 * core type's PMU. -1 after a message. */
static int tie_rows(struct stat_event *rows, size_t n, struct resolve_ctx *rc, size_t ix)
{
	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &rows[k];
		uint32_t t = e->sel.ev.attr.type;

		/* named with its PMU, or a name only that core type's tables have */
		if (other_pmu(e, rc, ix)) {
			msg_error("cannot count event '%s' with --cputype %s: %s %s, another core "
				  "type's (drop one of them)", e->sel.ev.name, rc->pmus[ix].name,
				  strchr(e->sel.ev.name, '/') ? "it names the PMU" :
				  "it is an event of", e->sel.ev.pmu);
			return -1;
		}
		if (rc->model || rc->npmus < 2 || e->sel.ev.split == RESOLVE_SPLIT_NONE ||
		    t == PERF_TYPE_SOFTWARE || t == PERF_TYPE_TRACEPOINT)
			continue;
		if (tie_row(e, &rc->pmus[ix]) != 0)
			return -1;
	}
	return 0;
}

/* -a, -C: only the CPUs of PMU p stay in t (a PMU without a cpus file covers them all). -1
 * after a message when none of them is. */
static int keep_cpus(struct stat_target *t, const struct sysfs_pmu *p)
{
	char mine[64], given[64];
	int m = 0;

	if (!t->cpus || !p->ncpus)
		return 0;
	for (int k = 0; k < t->ncpus; k++)
		if (sysfs_pmu_has_cpu(p, t->cpus[k]))
			t->cpus[m++] = t->cpus[k];
	if (m) {
		if (m < t->ncpus && !t->all) {
			sysfs_format_cpulist(t->cpus, m, given, sizeof(given));
			snprintf(t->desc, sizeof(t->desc), "CPU(s) %s", given);
		}
		t->ncpus = m;
		return 0;
	}
	sysfs_format_cpulist(t->cpus, t->ncpus, given, sizeof(given));
	sysfs_format_cpulist(p->cpus, p->ncpus, mine, sizeof(mine));
	msg_error("-C %s has no CPU of %s (--cputype): its CPUs are %s (give some of them)", given,
		  p->name, mine);
	return -1;
}

const struct sysfs_pmu *stat_cputype_pmu(const char *name, struct resolve_ctx *rc)
{
	int ix;

	if (!name || resolve_ctx_pmus(rc) != PP_OK || (ix = match_pmu(rc, name)) < 0)
		return NULL;
	return &rc->pmus[ix];
}

int stat_cputype(const char *name, struct resolve_ctx *rc, struct stat_event *rows, size_t n,
		 struct stat_target *t)
{
	int ix;

	if (!name)
		return 0;
	if (rc->model) {
		msg_error("--cputype chooses one of this machine's core types: --cpu-model (or "
			  "$PMUPROF_CPU_MODEL) names the core counted instead (give one of them)");
		return -1;
	}
	if ((ix = find_pmu(rc, name)) == -2)
		return 0;	/* a machine of one core type that is not Arm's */
	if (ix < 0 || tie_rows(rows, n, rc, (size_t)ix) != 0)
		return -1;
	return keep_cpus(t, &rc->pmus[ix]);
}
