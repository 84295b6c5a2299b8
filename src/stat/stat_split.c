/* SPDX-License-Identifier: Apache-2.0 */
/* stat_split.c: the counters made for the rows, and the machines with several core types
 * (big.LITTLE, DynamIQ). Each core type has an Arm PMU of its own, and the kernel counts a
 * task's event only while the task runs on a CPU of the event's PMU. So an event the user did
 * not tie to a PMU is opened once per Arm PMU whose CPUs the command may run on: these parts
 * are counted, and the row the user asked for reads their sum. The command's CPUs are
 * pmuprof's affinity, which it inherits. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "stat.h"

/* The CPUs the command may run on; 0 when it may run on every online CPU (also when the
 * affinity cannot be read, or a fixture tree stands in for sysfs on a smaller machine). */
static int restricted_cpus(cpu_set_t *set)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(*set), set) != 0)
		return 0;
	return online > 0 && CPU_COUNT(set) < online;
}

static int may_run_on(const struct sysfs_pmu *p, const cpu_set_t *set, int restricted)
{
	if (!restricted || !p->ncpus)
		return 1;
	for (int k = 0; k < p->ncpus; k++)
		if (p->cpus[k] >= 0 && p->cpus[k] < CPU_SETSIZE && CPU_ISSET(p->cpus[k], set))
			return 1;
	return 0;
}

/* Whether row e is opened per core type. */
static int splits(const struct stat_event *e, const struct resolve_ctx *rc)
{
	uint32_t t = e->sel.ev.attr.type;

	if (rc->model || rc->npmus < 2 || e->sel.ev.split == RESOLVE_SPLIT_NONE)
		return 0;
	return t != PERF_TYPE_SOFTWARE && t != PERF_TYPE_TRACEPOINT;
}

/* Row r's part on PMU pmus[ix]: the row's event encoded for that PMU. */
static struct stat_part make_part(const struct stat_event *row, size_t r,
				  const struct resolve_ctx *rc, size_t ix)
{
	const struct sysfs_pmu *p = &rc->pmus[ix];
	struct stat_part part = { .ev = (uint32_t)r, .pmu_ix = (int)ix,
				  .core = resolve_pmu_core(p) };
	pp_status st = resolve_on_pmu(&row->sel.ev, p, &part.attr);

	if (st == PP_ENOENT) {
		part.absent = 1;
	} else if (st != PP_OK) {
		part.absent = 1;	/* cannot be encoded there: not counted there */
		part.err = EINVAL;
	}
	return part;
}

/* Whether row e names one Arm PMU while the command may run on CPUs of another. */
static int only_one_type(const struct stat_event *e, const struct resolve_ctx *rc,
			 const cpu_set_t *set, int restricted)
{
	int mine = 0, other = 0;

	for (size_t ix = 0; ix < rc->npmus; ix++) {
		if (!e->sel.ev.pmu || strcmp(e->sel.ev.pmu, rc->pmus[ix].name))
			other |= may_run_on(&rc->pmus[ix], set, restricted);
		else
			mine = 1;
	}
	return mine && other;
}

/* The CPUs the counted tasks may run on (*set, when *restricted): the command's affinity,
 * any CPU for -p/-t's tasks, the CPUs counted on with -a/-C. */
static void target_cpus(const struct stat_target *tgt, cpu_set_t *set, int *restricted)
{
	*restricted = restricted_cpus(set);
	if (tgt && tgt->tasks) {	/* -p, -t: tasks that may run anywhere */
		*restricted = 0;
	} else if (tgt && tgt->cpus) {	/* -a, -C: those CPUs, whatever pmuprof's affinity */
		CPU_ZERO(set);
		for (int k = 0; k < tgt->ncpus; k++)
			if (tgt->cpus[k] < CPU_SETSIZE)
				CPU_SET(tgt->cpus[k], set);
		*restricted = 1;
	}
}

/* A counter of row k following the command: its part (-1: the row's own), its group. */
static struct stat_counter new_counter(const struct stat_event *rows, size_t k, int part,
				       int group)
{
	return (struct stat_counter){ .ev = (uint32_t)k, .part = part, .pmu_ix = -1, .cpu = -1,
				      .group = group, .tool = rows[k].tool, .leader = -1,
				      .fd = -1 };
}

/* The parts of the split rows, on every PMU the command may run on, and their counters
 * after the rows' (ngroups: the user's groups, below the parts' own). */
static void add_parts(struct stat_counters *cs, const struct stat_event *rows, size_t nrows,
		      const struct resolve_ctx *rc, const cpu_set_t *set, int restricted,
		      size_t ngroups)
{
	for (size_t r = 0; r < nrows; r++) {
		if (!splits(&rows[r], rc))
			continue;
		for (size_t ix = 0; ix < rc->npmus; ix++) {
			int g = rows[r].sel.ev.group;

			if (!may_run_on(&rc->pmus[ix], set, restricted))
				continue;
			cs->parts[cs->nparts] = make_part(&rows[r], r, rc, ix);
			/* a user group becomes one group per core type: a group cannot span PMUs */
			cs->parts[cs->nparts].group = g < 0 ? -1 :
						      (int)(ngroups + (size_t)g * rc->npmus + ix);
			cs->c[cs->n] = new_counter(rows, r, (int)cs->nparts,
						   cs->parts[cs->nparts].group);
			cs->n++;
			cs->nparts++;
		}
	}
}

int stat_split(struct stat_counters *cs, struct stat_event *rows, size_t nrows,
	       struct resolve_ctx *rc, const struct stat_target *tgt)
{
	size_t want = 0, allowed = 0, ngroups = 0;
	cpu_set_t set;
	int restricted = 0, any = 0, can;

	memset(cs, 0, sizeof(*cs));
	for (size_t r = 0; r < nrows; r++) {
		if ((size_t)(rows[r].sel.ev.group + 1) > ngroups)
			ngroups = (size_t)rows[r].sel.ev.group + 1;
		/* reads the PMUs only for an event that may be split, or one of a PMU's own */
		any |= (rows[r].sel.ev.split != RESOLVE_SPLIT_NONE && !rc->model) ||
		       rows[r].sel.ev.attr.type >= PERF_TYPE_MAX;
	}
	can = any && resolve_ctx_pmus(rc) == PP_OK && rc->npmus >= 2;
	if (can) {
		target_cpus(tgt, &set, &restricted);
		for (size_t ix = 0; ix < rc->npmus; ix++)
			allowed += (size_t)may_run_on(&rc->pmus[ix], &set, restricted);
		for (size_t r = 0; r < nrows; r++) {
			want += splits(&rows[r], rc) ? allowed : 0;
			rows[r].one_type = !splits(&rows[r], rc) &&
					   only_one_type(&rows[r], rc, &set, restricted);
		}
	}
	cs->pmus = rc->pmus;
	cs->npmus = rc->npmus;
	cs->nrows = nrows;
	cs->c = calloc(nrows + want + 1, sizeof(*cs->c));
	cs->parts = calloc(want + 1, sizeof(*cs->parts));
	if (!cs->c || !cs->parts) {
		stat_counters_free(cs);
		cs->nrows = 0;
		return ENOMEM;
	}
	for (size_t r = 0; r < nrows; r++)
		if (!can || !splits(&rows[r], rc))
			cs->c[cs->n++] = new_counter(rows, r, -1, rows[r].sel.ev.group);
	if (want)
		add_parts(cs, rows, nrows, rc, &set, restricted, ngroups);
	return 0;
}

/* Whether counter c counts on one core type while following the command anywhere. */
static int tied(const struct stat_counters *cs, const struct stat_event *rows,
		const struct stat_counter *c)
{
	return !c->presence && stat_counter_opens(cs, c) && c->pmu_ix >= 0 &&
	       (c->part >= 0 || rows[c->ev].one_type);
}

/* Whether a counter is tied to PMU ix (its presence is then measured). */
static int pmu_used(const struct stat_counters *cs, const struct stat_event *rows, size_t ix)
{
	for (size_t k = 0; k < cs->n; k++)
		if (tied(cs, rows, &cs->c[k]) && cs->c[k].pmu_ix == (int)ix)
			return 1;
	return 0;
}

int stat_presence(struct stat_counters *cs, const struct stat_event *rows)
{
	size_t want = 0, j = cs->n;
	struct stat_counter *grown;

	for (size_t ix = 0; ix < cs->npmus; ix++)
		want += pmu_used(cs, rows, ix) ? (size_t)cs->pmus[ix].ncpus : 0;
	if (!want)
		return 0;
	if (!(grown = realloc(cs->c, (cs->n + want + 1) * sizeof(*grown))))
		return ENOMEM;
	cs->c = grown;
	for (size_t ix = 0; ix < cs->npmus; ix++) {
		const struct sysfs_pmu *p = &cs->pmus[ix];
		int used = pmu_used(cs, rows, ix);

		for (int c = 0; used && c < p->ncpus; c++)
			cs->c[j++] = (struct stat_counter){ .part = -1, .pmu_ix = (int)ix,
							    .cpu = p->cpus[c], .run = -1,
							    .group = -1, .presence = 1,
							    .leader = -1, .fd = -1 };
	}
	cs->n = j;
	return 0;
}

void stat_split_cpus(const struct sysfs_pmu *p, char *buf, size_t len)
{
	sysfs_format_cpulist(p->cpus, p->ncpus, buf, len);
}
