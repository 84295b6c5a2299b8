/* SPDX-License-Identifier: Apache-2.0 */
/* report_text_priv.h: report_text's parts: the table of counts (report_text.c), the
 * metrics' own lines (report_text_metrics.c), the regions (report_text_region.c). */
#ifndef PMUPROF_REPORT_TEXT_PRIV_H
#define PMUPROF_REPORT_TEXT_PRIV_H

#include <stdio.h>

#include "report.h"
#include "textline.h"

/* "%*.*f" of v into l (400 bytes hold any double with 9 decimals); inline, so that neither
 * half calls into the other. */
static inline void report_text_fixed(struct textline *l, double v, int width, int prec)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%*.*f", width, prec, v);
	textline_puts(l, buf);
}
/* The totals: a row per event, or per event and unit (report_text.c). */
void report_text_totals(const struct report *r, struct textline *l);
/* --regions: a block per region after the whole run's, its rows as the totals' (from its
 * own report), then the regions' warnings (report_text_region.c). */
void report_text_regions(const struct report *r, struct textline *l);
/* --metric-only, as perf 6.1 lays it out: a line of the metrics' units, then a line of their
 * values (after -I's intervals, the values only). */
void report_text_metric_only(const struct report *r, struct textline *l);
/* -I --metric-only: perf's heading over the units, then a line per interval. */
void report_text_metric_only_intervals(const struct report *r, struct textline *l);
/* --topdown: stage 1's nodes and under each dominant one its stage-2 groups. */
void report_text_topdown(const struct report *r, struct textline *l);
/* The metrics -M asked for that have no value, each with the reason. */
void report_text_missing_metrics(const struct report *r, struct textline *l);

#endif
