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

	*e = (struct stat_event){ .sel = evs[r].sel, .fd = -1, .parent = (int)r,
				  .pmu_ix = (int)ix, .arm_pmu = p };
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

int stat_split(struct stat_event **evs, size_t nrows, size_t *ntotal, struct resolve_ctx *rc)
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

/* The time the command ran on the core type of p's PMU: the longest any event on that PMU
 * was counted in p's run (every one of them, when nothing was multiplexed). */
static uint64_t time_on(const struct stat_event *evs, size_t n, const struct stat_event *p)
{
	uint64_t t = 0;

	for (size_t k = 0; k < n; k++)
		if (!evs[k].nparts && evs[k].opened && evs[k].pmu_ix >= 0 &&
		    evs[k].pmu_ix == p->pmu_ix && evs[k].run == p->run && evs[k].rd.running > t)
			t = evs[k].rd.running;
	return t;
}

void stat_split_merge(struct stat_event *evs, size_t n)
{
	for (size_t r = 0; r < n; r++) {
		struct stat_event *row = &evs[r];
		struct counter_reading rd = { 0 };
		uint64_t enabled_all = 0, on_types = 0;
		int absent = 0, err = 0;

		if (row->one_type && row->opened) {
			/* enabled while the command ran anywhere, counted only on its core type:
			 * whole when counted all the time the command ran there */
			row->rd.enabled = time_on(evs, n, row);
			continue;
		}
		if (row->parent >= 0 || !row->nparts)
			continue;
		row->opened = 0;
		for (int i = 0; i < row->nparts; i++) {
			const struct stat_event *p = &evs[row->part0 + i];

			if (p->absent) {
				absent = 1;
				continue;
			}
			if (!p->opened) {
				if (!err)
					err = p->err;
				continue;
			}
			row->opened = 1;
			rd.value += p->rd.value;
			rd.running += p->rd.running;
			if (p->rd.enabled > enabled_all)
				enabled_all = p->rd.enabled;
			on_types += time_on(evs, n, p);
		}
		/* an event some core types lack is counted whole when it was counted all the time
		 * the command ran on the types that have it */
		rd.enabled = absent && on_types ? on_types : enabled_all;
		if (rd.running > rd.enabled)
			rd.running = rd.enabled;
		row->rd = rd;
		row->err = row->opened ? 0 : err ? err : ENOENT;
	}
}

void stat_split_record(struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct stat_event *p = &evs[k];
		const struct counter_reading *row;

		if (p->parent < 0 || !p->opened)
			continue;
		row = &evs[p->parent].rd;
		p->sum_raw += (double)p->rd.value;
		p->sum_en += (double)p->rd.enabled;
		p->sum_ru += (double)p->rd.running;
		if (row->running)
			p->sum_val += (double)p->rd.value * ((double)row->enabled /
							     (double)row->running);
		p->nsum++;
	}
}

/* "0-3,6": a PMU's CPUs (ascending) in the kernel's cpulist format. */
static void cpulist(const struct sysfs_pmu *p, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int k = 0; k < p->ncpus && off < len; k++) {
		int lo = p->cpus[k];

		while (k + 1 < p->ncpus && p->cpus[k + 1] == p->cpus[k] + 1)
			k++;
		off += (size_t)snprintf(buf + off, len - off, off ? ",%d" : "%d", lo);
		if (p->cpus[k] != lo && off < len)
			off += (size_t)snprintf(buf + off, len - off, "-%d", p->cpus[k]);
	}
}

struct report_part *stat_split_report(const struct stat_event *evs, size_t k, int repeated)
{
	const struct stat_event *row = &evs[k];
	struct report_part *out = calloc((size_t)row->nparts + 1, sizeof(*out));

	for (int i = 0; out && i < row->nparts; i++) {
		const struct stat_event *p = &evs[row->part0 + i];
		struct report_part *o = &out[i];
		const struct counter_reading *rd = &p->rd;

		o->pmu = p->arm_pmu->name;
		o->core = p->sel.ev.core ? evtab_core_name(p->sel.ev.core) : NULL;
		cpulist(p->arm_pmu, o->cpus, sizeof(o->cpus));
		o->type = p->sel.ev.attr.type;
		o->config = p->sel.ev.attr.config;
		if (p->absent) {
			o->status = REPORT_ABSENT;
			o->reason = p->err ? strerrorname_np(p->err) : NULL;
			continue;
		}
		if (p->fixture) {	/* never opened (stat_plan) */
			o->status = REPORT_NOT_COUNTED;
			o->reason = o->note = p->fixture;
			continue;
		}
		if (!p->opened) {
			o->status = counter_status(p->err) == PP_EACCES ? REPORT_NOT_PERMITTED
									: REPORT_NOT_SUPPORTED;
			o->reason = strerrorname_np(p->err);
			continue;
		}
		if (repeated && p->nsum) {
			o->raw = (uint64_t)(p->sum_raw / p->nsum + 0.5);
			o->enabled_ns = (uint64_t)(p->sum_en / p->nsum + 0.5);
			o->running_ns = (uint64_t)(p->sum_ru / p->nsum + 0.5);
			o->value = p->sum_val / p->nsum;
		} else {
			o->raw = rd->value;
			o->enabled_ns = rd->enabled;
			o->running_ns = rd->running;
			o->value = row->rd.running ? (double)rd->value * ((double)row->rd.enabled /
									 (double)row->rd.running)
						   : (double)rd->value;
		}
		/* opened, but never on a counter: the command did not run on these CPUs (or the
		 * event never got a counter while it did) */
		o->status = o->running_ns || (repeated && p->sum_ru > 0) ? REPORT_COUNTED
									  : REPORT_NOT_COUNTED;
		if (o->status == REPORT_NOT_COUNTED)
			o->reason = "never on a counter of these CPUs";
	}
	return out;
}
