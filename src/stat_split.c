/* stat_split.c: machines with several core types (big.LITTLE, DynamIQ). Each core type has
 * an Arm PMU of its own, and the kernel counts a task's event only while the task runs on a
 * CPU of the event's PMU. So an event the user did not tie to a PMU is opened once per Arm
 * PMU whose CPUs the command may run on: these parts are counted, and the row the user asked
 * for reads their sum. The command's CPUs are pmuprof's affinity, which it inherits. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
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

/* Part j of row r on PMU pmus[ix]: the row's selection with the PMU's attr (shared names:
 * the row owns them). */
static void make_part(struct stat_event *evs, size_t r, size_t j, const struct resolve_ctx *rc,
		      size_t ix)
{
	struct stat_event *e = &evs[j];
	const struct sysfs_pmu *p = &rc->pmus[ix];
	pp_status st;

	*e = (struct stat_event){ .sel = evs[r].sel, .fd = -1, .parent = (int)r, .cpu = -1,
				  .pmu_ix = (int)ix, .arm_pmu = p, .leader = -1 };
	e->sel.ev.pmu = (char *)p->name;
	e->sel.ev.arm_name = NULL;
	e->sel.ev.core = resolve_pmu_core(p);
	st = resolve_on_pmu(&evs[r].sel.ev, p, &e->sel.ev.attr);
	if (st == PP_ENOENT) {
		e->absent = 1;
	} else if (st != PP_OK) {
		e->absent = 1;		/* cannot be encoded there: not counted there */
		e->err = EINVAL;
	}
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

int stat_split(struct stat_event **evs, size_t nrows, size_t *ntotal, struct resolve_ctx *rc,
	       const struct stat_target *tgt)
{
	struct stat_event *e = *evs, *grown;
	size_t want = 0, allowed = 0, j, ngroups = 0;
	cpu_set_t set;
	int restricted, any = 0;

	*ntotal = nrows;
	for (size_t r = 0; r < nrows; r++) {
		if ((size_t)(e[r].group + 1) > ngroups)
			ngroups = (size_t)e[r].group + 1;
		/* reads the PMUs only for an event that may be split, or one of a PMU's own */
		any |= (e[r].sel.ev.split != RESOLVE_SPLIT_NONE && !rc->model) ||
		       e[r].sel.ev.attr.type >= PERF_TYPE_MAX;
	}
	if (!any || resolve_ctx_pmus(rc) != PP_OK || rc->npmus < 2)
		return 0;
	restricted = restricted_cpus(&set);
	if (tgt && tgt->tasks) {	/* -p, -t: tasks that may run anywhere */
		restricted = 0;
	} else if (tgt && tgt->cpus) {	/* -a, -C: those CPUs, whatever pmuprof's affinity */
		CPU_ZERO(&set);
		for (int k = 0; k < tgt->ncpus; k++)
			if (tgt->cpus[k] < CPU_SETSIZE)
				CPU_SET(tgt->cpus[k], &set);
		restricted = 1;
	}
	for (size_t ix = 0; ix < rc->npmus; ix++)
		allowed += (size_t)may_run_on(&rc->pmus[ix], &set, restricted);
	for (size_t r = 0; r < nrows; r++) {
		want += splits(&e[r], rc) ? allowed : 0;
		e[r].one_type = !splits(&e[r], rc) && only_one_type(&e[r], rc, &set, restricted);
	}
	if (!want)
		return 0;
	if (!(grown = realloc(e, (nrows + want + 1) * sizeof(*grown)))) {
		msg_error("out of memory");
		return -1;
	}
	*evs = e = grown;
	j = nrows;
	for (size_t r = 0; r < nrows; r++) {
		if (!splits(&e[r], rc))
			continue;
		e[r].part0 = (int)j;
		for (size_t ix = 0; ix < rc->npmus; ix++) {
			if (!may_run_on(&rc->pmus[ix], &set, restricted))
				continue;
			make_part(e, r, j, rc, ix);
			/* a user group becomes one group per core type: a group cannot span PMUs */
			e[j].group = e[r].group < 0 ? -1
				   : (int)(ngroups + (size_t)e[r].group * rc->npmus + ix);
			j++;
		}
		e[r].nparts = (int)j - e[r].part0;
	}
	*ntotal = j;
	return 0;
}

/* Whether entry e counts on one core type while following the command anywhere. */
static int tied(const struct stat_event *e)
{
	return !e->presence && !e->absent && !e->fixture && e->pmu_ix >= 0 &&
	       (e->parent >= 0 || e->one_type);
}

int stat_presence(struct stat_event **evs, size_t *n, const struct resolve_ctx *rc)
{
	struct stat_event *e = *evs, *grown;
	size_t want = 0, j = *n;

	for (size_t ix = 0; ix < rc->npmus; ix++) {
		int used = 0;

		for (size_t k = 0; k < *n && !used; k++)
			used = tied(&e[k]) && e[k].pmu_ix == (int)ix;
		want += used ? (size_t)rc->pmus[ix].ncpus : 0;
	}
	if (!want)
		return 0;
	if (!(grown = realloc(e, (*n + want + 1) * sizeof(*grown)))) {
		msg_error("out of memory");
		return -1;
	}
	*evs = e = grown;
	for (size_t ix = 0; ix < rc->npmus; ix++) {
		const struct sysfs_pmu *p = &rc->pmus[ix];
		int used = 0;

		for (size_t k = 0; k < *n && !used; k++)
			used = tied(&e[k]) && e[k].pmu_ix == (int)ix;
		for (int c = 0; used && c < p->ncpus; c++)
			e[j++] = (struct stat_event){
				.sel.ev = { .attr = { .type = PERF_TYPE_SOFTWARE,
						      .config = PERF_COUNT_SW_TASK_CLOCK },
					    .unit = "ns", .arm_code = -1, .group = -1 },
				.fd = -1, .parent = -1, .group = -1, .run = -1,
				.pmu_ix = (int)ix, .arm_pmu = p, .cpu = p->cpus[c],
				.presence = 1, .leader = -1 };
	}
	*n = j;
	return 0;
}

void stat_split_cpus(const struct sysfs_pmu *p, char *buf, size_t len)
{
	sysfs_format_cpulist(p->cpus, p->ncpus, buf, len);
}
