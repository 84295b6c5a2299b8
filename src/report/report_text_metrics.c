/* SPDX-License-Identifier: Apache-2.0 */
/* report_text_metrics.c: what the text report prints of the metrics besides the figure
 * beside a count: --metric-only's columns (over the totals and each interval), --topdown's
 * tree, and the metrics -M asked for that have no value. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ascii.h"
#include "metrics.h"
#include "mxtab.h"
#include "report.h"
#include "report_text_priv.h"
#include "strbuf.h"
#include "textline.h"

/* A metric's value as the tree shows it: a share in %, else the value and its unit. */
static void tree_value(const struct report_metric_value *m, struct textline *l)
{
	const char *unit = mxtab_metric_unit(m->def);

	if (!isfinite(m->value)) {	/* "%12s  (%s)" */
		textline_rpad(l, "-", 12);
		textline_put(l, "  (", 3);
		textline_puts(l, m->reason);
		textline_put(l, ")", 1);
	} else if (str_starts(unit, "percent")) {	/* "%11.2f%%" */
		report_text_fixed(l, m->value, 11, 2);
		textline_put(l, "%", 1);
	} else {	/* "%12.3f  %s" */
		report_text_fixed(l, m->value, 12, 3);
		textline_put(l, "  ", 2);
		textline_puts(l, unit);
	}
	if (m->estimate)
		textline_puts(l, "  (estimate)");
	textline_end(l);
}

/* --topdown: stage 1, each node's share, and under each dominant node ("=>") the stage-2
 * groups it leads to, with their metrics. */
void report_text_topdown(const struct report *r, struct textline *l)
{
	const struct report_metric_value *node[16];
	int dominant[16];
	size_t n = metrics_topdown_nodes(r, node, dominant, 16);

	if (!r->topdown_group)
		return;
	textline_puts(l, "\n Top-down, ");
	textline_puts(l, n && node[0]->core ? node[0]->core : "no core data");
	textline_put(l, " (", 2);
	textline_puts(l, r->topdown_group);
	textline_put(l, "): ", 3);
	textline_puts(l, r->topdown_how ? r->topdown_how : "");
	textline_end(l);
	for (size_t i = 0; i < n; i++) {
		const char *next = mxtab_metric_next(node[i]->def);
		const struct mxtab_group *g;

		textline_puts(l, dominant[i] ? " => " : "    ");	/* " %s %-36s" */
		textline_pad(l, mxtab_metric_name(node[i]->def), 36);
		tree_value(node[i], l);
		if (!dominant[i])
			continue;
		while ((g = metrics_next_group(r->topdown_set, &next))) {
			textline_puts(l, "     ");
			textline_puts(l, mxtab_group_name(g));
			textline_end(l);
			for (size_t k = 0; k < mxtab_group_nmetrics(g); k++) {
				const struct report_metric_value *m =
					metrics_find(r, mxtab_metric_name(mxtab_group_metric(g, k)));

				if (!m)
					continue;
				textline_puts(l, "       ");
				textline_pad(l, mxtab_metric_name(m->def), 32);
				tree_value(m, l);
			}
		}
	}
}

/* The metrics -M asked for that have no value, each with the reason. */
void report_text_missing_metrics(const struct report *r, struct textline *l)
{
	int any = 0;

	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct report_metric_value *m = &r->metrics[k];

		if (!m->requested || isfinite(m->value))
			continue;
		if (!any++)
			textline_puts(l, "\n Metrics not computed:\n");
		textline_puts(l, "   ");
		textline_puts(l, mxtab_metric_name(m->def));
		if (m->pmu) {
			textline_puts(l, " on ");
			textline_puts(l, m->pmu);
		}
		textline_put(l, ": ", 2);
		textline_puts(l, m->reason);
		textline_end(l);
	}
}

/* One --metric-only line: the metrics' units (values 0), each right-aligned in 20 columns
 * (perf's METRIC_ONLY_LEN), or their values over the totals (interval < 0) or interval i,
 * each under its unit (blank where the interval has none). */
static void metric_only_line(const struct report *r, long i, int values, struct textline *l)
{
	for (size_t k = 0; k < r->nevents; k++) {
		const char *unit;
		char num[40] = "";
		double v;
		int w;

		if (!report_metric_only_at(r, &r->events[k], i, &v, &unit))
			continue;
		w = (int)strlen(unit) > 20 ? (int)strlen(unit) : 20;
		if (!isnan(v))
			snprintf(num, sizeof(num), "%.3f", v);
		textline_rpad(l, values ? num : unit, (size_t)(values ? w : 20));	/* "%*s " */
		textline_put(l, " ", 1);
	}
	textline_end(l);
}

/* --metric-only, as perf 6.1 lays it out: a line of the metrics' units, then a line of their
 * values; after -I's intervals, the values only (perf prints the units once, over the
 * intervals). perf shows no rate per second nor CPUs utilized there
 * (report_metric_only_unit): with software events only, the lines are empty, as perf's are. */
void report_text_metric_only(const struct report *r, struct textline *l)
{
	if (!report_has_intervals(r))
		metric_only_line(r, -1, 0, l);
	metric_only_line(r, -1, 1, l);
}

/* -I --metric-only: perf's "#           time " heading over the units, then a line per
 * interval, its end time and the metrics' values over it. */
void report_text_metric_only_intervals(const struct report *r, struct textline *l)
{
	char t[TEXTLINE_SECS_LEN];

	if (report_interval_heading(r)) {
		textline_puts(l, "#           time ");
		metric_only_line(r, -1, 0, l);
	}
	for (size_t i = r->interval_from; i < r->nintervals; i++) {
		textline_rpad(l, textline_secs(r->interval_t_ns[i], t), 16);	/* "%16s " */
		textline_put(l, " ", 1);
		metric_only_line(r, (long)i, 1, l);
	}
}
