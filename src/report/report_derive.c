/* SPDX-License-Identifier: Apache-2.0 */
/* report_derive.c: the results stage. Once a report's counts are in (stat_report_build, or a
 * saved report read back), the figures derived from them are computed here, once, and stored
 * in the report: the metrics and their values over the totals, per unit and their inputs, and
 * the figure perf prints beside each count, for the totals, each unit, each interval and each
 * unit in each interval. The writers only format what is stored. */
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>

#include "metrics.h"
#include "report.h"

/* Where a derived figure's inputs come from: the events' totals (unit 0, interval < 0), their
 * deltas over one interval (unit 0), or unit u's cells of the whole run (interval < 0) or of
 * one interval. */
/* The task-clock and cpu-clock events of a report, by index: where a rate per second looks
 * for its time, so that each event's figure does not look through every event. */
struct clocks {
	size_t *ix;
	size_t n;
};

struct source {
	const struct report *r;
	const struct clocks *clk;
	int unit;
	size_t u;
	long interval;
};

/* e's value in the source, when it was counted there. */
static int counted(const struct source *s, const struct report_event *e, double *v)
{
	return report_value_at(s->r, e, s->unit, s->u, s->interval, v, NULL);
}

static int is_clock(const struct report_event *e)
{
	return e->type == PERF_TYPE_SOFTWARE &&
	       (e->config == PERF_COUNT_SW_TASK_CLOCK || e->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The time counted in the source: the first task-clock counted there, else the first
 * cpu-clock, in one pass over the clock events. */
static int clock_ns(const struct source *s, double *v)
{
	double cpu = 0;
	int have_cpu = 0;

	for (size_t k = 0; k < s->clk->n; k++) {
		const struct report_event *e = &s->r->events[s->clk->ix[k]];

		if (e->type != PERF_TYPE_SOFTWARE)
			continue;
		if (e->config == PERF_COUNT_SW_TASK_CLOCK && counted(s, e, v))
			return 1;
		if (e->config == PERF_COUNT_SW_CPU_CLOCK && !have_cpu)
			have_cpu = counted(s, e, &cpu);
	}
	*v = cpu;
	return have_cpu;
}

/* The first metric anchored on event idx with a value in the source (metrics.h). */
static int anchored(const struct source *s, size_t idx, struct report_derived *d)
{
	const struct report *r = s->r;

	for (size_t k = report_next_metric(r, idx, 0); k < r->nmetrics;
	     k = report_next_metric(r, idx, k + 1)) {
		const struct report_metric_value *m = &r->metrics[k];
		double x = s->unit || s->interval >= 0 ?
			metrics_value_at(r, m, s->unit, s->u, s->interval, NULL, NULL) : m->value;

		if (!isfinite(x))
			continue;
		d->value = x;
		d->unit = m->label;
		return 1;
	}
	return 0;
}

/* A rate per second, scaled to perf's units. */
static void rate(double per_sec, struct report_derived *d)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	int u = 0;

	while (per_sec >= 1000.0 && u < 3) {
		per_sec /= 1000.0;
		u++;
	}
	d->value = per_sec;
	d->unit = units[u];
}

/* The figure beside e's count in the source (d->unit NULL: none); wall_ns 0: the event's own
 * run's wall time. */
static void derive(const struct source *s, const struct report_event *e, uint64_t wall_ns,
		   struct report_derived *d)
{
	const struct report *r = s->r;
	double value, tc;

	d->unit = NULL;
	d->value = 0;
	/* a time of perf's tool events (duration_time): no rate of it per second means a thing
	 * (perf 6.1 prints one, "2.405 G/sec") */
	if (report_is_tool(e) || !counted(s, e, &value) ||
	    anchored(s, (size_t)(e - r->events), d))
		return;
	if (e->type == PERF_TYPE_SOFTWARE && (e->config == PERF_COUNT_SW_TASK_CLOCK ||
					      e->config == PERF_COUNT_SW_CPU_CLOCK)) {
		uint64_t wall = wall_ns ? wall_ns : e->wall_ns ? e->wall_ns : r->wall_ns;

		if (wall) {
			d->value = value / (double)wall;
			d->unit = "CPUs utilized";
		}
		return;
	}
	/* per second of task-clock, else of cpu-clock: perf keeps either as the time counted */
	if (clock_ns(s, &tc) && tc > 0)
		rate(value / (tc / 1e9), d);
}

/* The figures beside every event's count over interval i, and beside each of its cells in
 * that interval: over the interval's length (perf 6.1 divides by the interval asked for, so
 * its last, shorter interval reads lower there). */
static void derive_interval(struct report *r, const struct clocks *clk, size_t i)
{
	uint64_t len = report_interval_ns(r, i);

	for (size_t k = 0; k < r->nevents; k++) {
		struct report_event *e = &r->events[k];
		struct source s = { .r = r, .clk = clk, .interval = (long)i };

		if (e->deltas)
			derive(&s, e, len, &e->deltas[i].derived);
		for (size_t u = 0; e->unit_deltas && u < r->nunits; u++) {
			struct report_cell *c = &e->unit_deltas[i * r->nunits + u];
			struct source su = { .r = r, .clk = clk, .unit = 1, .u = u,
					     .interval = (long)i };

			if (c->present)
				derive(&su, e, len, &c->derived);
		}
	}
}

/* Each metric's inputs over the totals and, aggregated per unit, its value in each unit. -1
 * when memory ran out. */
static int metric_values(struct report *r)
{
	for (size_t k = 0; k < r->nmetrics; k++) {
		struct report_metric_value *m = &r->metrics[k];

		for (size_t i = 0; i < REPORT_METRIC_MAX_INPUTS; i++)
			m->input[i] = metrics_input_at(r, m, i);
		if (r->aggr == REPORT_AGGR_GLOBAL || !r->nunits)
			continue;
		if (!(m->units = calloc(r->nunits, sizeof(*m->units))))
			return -1;
		for (size_t u = 0; u < r->nunits; u++) {
			m->units[u].applies = metrics_unit_applies(r, m, u);
			m->units[u].value = m->units[u].applies ?
				metrics_value_at(r, m, 1, u, -1, NULL, NULL) : NAN;
		}
	}
	return 0;
}

int report_derive(struct report *r, const struct metrics_core *mc, const char *const *names,
		  size_t nnames)
{
	struct clocks clk = { .ix = malloc((r->nevents + 1) * sizeof(*clk.ix)) };

	if (!clk.ix || (mc && metrics_compute(r, mc, names, nnames) != 0) ||
	    metric_values(r) != 0) {
		free(clk.ix);
		return -1;
	}
	for (size_t k = 0; k < r->nevents; k++)
		if (is_clock(&r->events[k]))
			clk.ix[clk.n++] = k;
	for (size_t k = 0; k < r->nevents; k++) {
		struct report_event *e = &r->events[k];
		struct source s = { .r = r, .clk = &clk, .interval = -1 };

		derive(&s, e, 0, &e->derived);
		for (size_t u = 0; e->cells && u < r->nunits; u++) {
			struct source su = { .r = r, .clk = &clk, .unit = 1, .u = u,
					     .interval = -1 };

			if (e->cells[u].present)
				derive(&su, e, 0, &e->cells[u].derived);
		}
	}
	for (size_t i = 0; r->interval_t_ns && i < r->nintervals; i++)
		derive_interval(r, &clk, i);
	free(clk.ix);
	/* a saved report's regions (stat builds and derives each before attaching it) */
	for (size_t k = 0; k < r->nregions; k++)
		if (report_derive(r->regions[k].r, mc, names, nnames) != 0)
			return -1;
	return 0;
}
