/* SPDX-License-Identifier: Apache-2.0 */
/* stat_record.c: the end of counting: what a planned run's counters read becomes readings
 * (readings.h), unscaled and unsummed, each with the window it could count in. From here on
 * nothing reads the counters' state again: the report is built from these records alone. */
#include <errno.h>
#include <stdlib.h>

#include "stat.h"

/* The time the command ran on core type pmu_ix in this run (or interval), from the counts
 * of all counters in rd; *known 0 when there is no measure. The kernel keeps no such time:
 * a part's enabled time runs whenever the command runs, on any CPU. Two measures (of the
 * task followed with -p, -t; 0: the command):
 * - the presence counters: task-clock of the command on each CPU of that core type, the
 *   time itself, but on the software context's clock, which the kernel switches a few
 *   microseconds apart from the PMU's at each context switch;
 * - the longest running time of an event on that PMU: the time itself, on the PMU's clock,
 *   when that event was never multiplexed out.
 * The second is exact, and taken, when it is within 1% of the first; below that every event
 * there was multiplexed, and the presence time is the measure. */
static uint64_t time_on(const struct stat_counters *cs, const struct counter_reading *rd,
			int pmu_ix, int task, int only_run, int *known)
{
	uint64_t t = 0, ran = 0;
	int have = 0, any = 0;

	for (size_t k = 0; k < cs->n; k++) {
		const struct stat_counter *c = &cs->c[k];

		if (c->pmu_ix != pmu_ix || !c->opened || c->task != task)
			continue;	/* another core type, or another task followed (-p) */
		if (c->presence) {
			t += rd[k].value;
			have = 1;
		} else if ((only_run < 0 || c->run == only_run) && rd[k].running > ran) {
			ran = rd[k].running;
			any = 1;
		}
	}
	*known = have || any;
	if (!have || (any && ran >= t - t / 100))
		return ran;
	return t;
}

/* Counter k's reading from all (the counts of every counter in the run, or in one
 * interval). */
static struct reading reading_of(const struct stat_event *rows, const struct stat_counters *cs,
				 size_t k, const struct counter_reading *all, uint32_t run,
				 uint32_t plan_run, int only_run, uint32_t interval)
{
	const struct stat_counter *e = &cs->c[k];
	const struct counter_reading *rd = &all[k];
	struct reading r = { .ev = e->ev, .part = e->part >= 0 ? e->pmu_ix : -1, .cpu = e->cpu,
			     .task = e->task > 0 ? e->task : -1, .run = run,
			     .plan_run = plan_run, .interval = interval };
	int known;

	if (e->part >= 0 && cs->parts[e->part].absent) {
		r.absent = 1;
		return r;
	}
	if (!e->opened) {
		r.err = e->err ? e->err : ENODEV;
		return r;
	}
	r.value = rd->value;
	r.enabled = rd->enabled;
	r.running = rd->running;
	r.window = rd->enabled;
	/* a part, or a row tied to one core type, follows the command on every CPU but can
	 * count only on its core type's: the kernel has it enabled all the time, so its window
	 * is the time the command ran there */
	if ((e->part >= 0 || rows[e->ev].one_type) && !e->cpu_wide) {
		uint64_t t = time_on(cs, all, e->pmu_ix, e->task, only_run, &known);

		if (known)
			r.window = t < rd->enabled ? t : rd->enabled;
	}
	return r;
}

/* Whether counter c becomes a reading of planned run only_run (-1: every run): neither a
 * presence counter nor one never opened because its PMU is a fixture tree's (no reading at
 * all). */
static int reported(const struct stat_counter *c, int only_run)
{
	return !c->presence && !c->fixture && stat_in_run(c, only_run);
}

/* Records every reported counter of the run, from cnt (the counts of all counters over the
 * run or over one interval). */
static int record_all(struct readings *rd, const struct stat_event *rows,
		      const struct stat_counters *cs, const struct counter_reading *cnt,
		      uint32_t run, uint32_t plan_run, int only_run, uint32_t interval)
{
	size_t m = 0;

	for (size_t k = 0; k < cs->n; k++)
		m += reported(&cs->c[k], only_run);
	if (readings_reserve(rd, m) != 0)
		return -1;
	for (size_t k = 0; k < cs->n; k++) {
		struct reading r;

		if (!reported(&cs->c[k], only_run))
			continue;
		r = reading_of(rows, cs, k, cnt, run, plan_run, only_run, interval);
		if (readings_add(rd, &r) != 0)
			return -1;
	}
	return 0;
}

/* c[j] = counter j's counts over interval i of ticks: its tick less the one before. */
static void interval_counts(const struct stat_ticks *ticks, size_t n, size_t i,
			   struct counter_reading *c)
{
	const struct counter_reading *cur = &ticks->rd[i * n];
	const struct counter_reading *prev = i ? cur - n : NULL;

	for (size_t j = 0; j < n; j++) {
		c[j] = cur[j];
		if (prev) {
			c[j].value -= prev[j].value;
			c[j].enabled -= prev[j].enabled;
			c[j].running -= prev[j].running;
		}
	}
}

int stat_record(struct readings *rd, const struct stat_event *rows,
		const struct stat_counters *cs, uint32_t run, uint32_t plan_run, int only_run,
		const struct workload_result *res, const struct stat_ticks *ticks)
{
	struct reading_run rr = { run, plan_run, res->wall_ns, res->user_ns, res->sys_ns,
				  res->exit_code, res->term_signal };
	size_t n = cs->n;
	struct counter_reading *c = calloc(n + 1, sizeof(*c));
	int rc = -1;

	if (!c || readings_add_run(rd, &rr) != 0)
		goto out;
	for (size_t j = 0; j < n; j++)
		c[j] = cs->c[j].rd;
	if (record_all(rd, rows, cs, c, run, plan_run, only_run, READING_TOTAL) != 0)
		goto out;
	/* -I: each interval's delta from the cumulative ticks (n counters each) */
	for (size_t i = 0; ticks && i < ticks->n; i++) {
		interval_counts(ticks, n, i, c);
		if (readings_add_interval(rd, ticks->t_ns[i]) != 0 ||
		    record_all(rd, rows, cs, c, run, plan_run, only_run, (uint32_t)i) != 0)
			goto out;
	}
	rc = 0;
out:
	free(c);
	return rc;
}

int stat_record_interval(struct readings *rd, const struct stat_event *rows,
			 const struct stat_counters *cs, const struct stat_ticks *ticks, size_t i)
{
	/* -I is one run of one planned run (neither -r nor --mux=runs): run 0, every counter */
	struct reading_run rr = { .wall_ns = ticks->t_ns[i] };
	size_t n = cs->n;
	struct counter_reading *c = calloc(n + 1, sizeof(*c));
	int rc = -1;

	if (!c || readings_add_run(rd, &rr) != 0 ||
	    record_all(rd, rows, cs, &ticks->rd[i * n], 0, 0, -1, READING_TOTAL) != 0)
		goto out;
	interval_counts(ticks, n, i, c);
	if (readings_add_interval(rd, ticks->t_ns[i]) != 0 ||
	    record_all(rd, rows, cs, c, 0, 0, -1, 0) != 0)
		goto out;
	rc = 0;
out:
	free(c);
	return rc;
}
