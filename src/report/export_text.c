/* SPDX-License-Identifier: Apache-2.0 */
/* export_text.c: the text exports: the OpenMetrics text exposition (openmetrics.io; families
 * of gauges, labels event, pmu, cgroup for an event counted in one, cpus for a core type's
 * part, cpu or unit for an aggregation unit, region for a region's; "# EOF" last) and a
 * markdown table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "metrics.h"

/* A number as OpenMetrics spells it: the shortest "%.*g" that reads back the same, NaN and
 * +Inf/-Inf by their names. */
static void om_num(FILE *out, double v)
{
	char buf[32];

	if (isnan(v)) {
		fputs("NaN", out);
		return;
	}
	if (isinf(v)) {
		fputs(v > 0 ? "+Inf" : "-Inf", out);
		return;
	}
	for (int p = 15; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, out);
}

/* name="value", the value escaped as OpenMetrics asks (backslash, quote, newline). */
static void om_label(FILE *out, const char *name, const char *value, int first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void om_family(FILE *out, const char *name, const char *unit, const char *help)
{
	fprintf(out, "# TYPE %s gauge\n", name);
	if (unit)
		fprintf(out, "# UNIT %s %s\n", name, unit);
	fprintf(out, "# HELP %s %s\n", name, help);
}

/* One sample of an event: labels event and pmu, cgroup when it counted in one (a name may be
 * counted in several), cpus for a core type's part, and the aggregation unit's cpu (-A) or
 * unit id (--per-core, ...). */
static void om_sample(FILE *out, const char *family, const struct report_event *e,
		      const char *pmu, const char *cpus, const struct report_unit *u,
		      const char *interval, double v)
{
	char cpu[16];

	fprintf(out, "%s{", family);
	om_label(out, "event", e->name, 1);
	om_label(out, "pmu", pmu, 0);
	if (e->cgroup)
		om_label(out, "cgroup", e->cgroup, 0);
	if (cpus)
		om_label(out, "cpus", cpus, 0);
	if (u && u->cpu >= 0) {
		snprintf(cpu, sizeof(cpu), "%d", u->cpu);
		om_label(out, "cpu", cpu, 0);
	} else if (u) {
		om_label(out, "unit", u->id, 0);
	}
	if (interval)
		om_label(out, "interval", interval, 0);
	fputs("} ", out);
	om_num(out, v);
	fputc('\n', out);
}

static void om_event(FILE *out, const char *family, const struct report_event *e,
		     const char *pmu, const char *cpus, const char *interval, double v)
{
	om_sample(out, family, e, pmu, cpus, NULL, interval, v);
}

/* Aggregated per unit (report.aggr): a sample per unit that counted the event, from cells
 * (the whole run, i < 0) or unit_deltas (interval i). */
static void om_units(const struct report *r, FILE *out, const char *family,
		     const struct report_event *e, long i, const char *interval)
{
	const struct report_cell *c = i < 0 ? e->cells : e->unit_deltas ?
				      &e->unit_deltas[(size_t)i * r->nunits] : NULL;

	for (size_t u = 0; r->aggr != REPORT_AGGR_GLOBAL && c && u < r->nunits; u++)
		if (c[u].present && c[u].fig.status == REPORT_COUNTED)
			om_sample(out, family, e, e->pmu, NULL, &r->units[u], interval,
				  c[u].fig.value);
}

/* A figure as a counter's sample: the count, or its enabled or running time in seconds. */
static double om_fig(const struct report_figures *f, int what)
{
	return what == 1 ? (double)f->enabled_ns / 1e9 : what == 2 ? (double)f->running_ns / 1e9 :
	       f->status == REPORT_COUNTED ? f->value : 0;
}

static double ratio(uint64_t running, uint64_t enabled)
{
	return enabled ? (double)running / (double)enabled : 0;
}

static void om_events(const struct report *r, FILE *out)
{
	om_family(out, "pmuprof_event_value", NULL, "Count of the event over the whole command "
		  "(scaled when multiplexed; the mean over the runs with -r; time events in ns). "
		  "An event split over core types has a sample per core type's PMU, labelled cpus.");
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		const struct report_part *p = e->split;

		if (e->fig.status == REPORT_COUNTED)
			om_event(out, "pmuprof_event_value", e, e->pmu, NULL, NULL, e->fig.value);
		om_units(r, out, "pmuprof_event_value", e, -1, NULL);
		for (size_t i = 0; i < e->nsplit; i++)
			if (p[i].fig.status == REPORT_COUNTED)
				om_event(out, "pmuprof_event_value", e, p[i].pmu, p[i].cpus, NULL,
					 p[i].fig.value);
	}
	om_family(out, "pmuprof_event_running_ratio", NULL, "Share of the time the event was "
		  "on a counter: 1 counted throughout, below 1 multiplexed, 0 not counted.");
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		const struct report_part *p = e->split;

		om_event(out, "pmuprof_event_running_ratio", e, e->pmu, NULL, NULL,
			 e->fig.status == REPORT_COUNTED ? e->fig.counted_pct / 100 : 0);
		for (size_t i = 0; i < e->nsplit; i++)
			om_event(out, "pmuprof_event_running_ratio", e, p[i].pmu, p[i].cpus, NULL,
				 p[i].fig.status == REPORT_COUNTED ?
				 ratio(p[i].fig.running_ns, p[i].fig.enabled_ns) : 0);
	}
}

/* -I: one sample per event per interval, labelled with the interval's number (from 1); the
 * intervals' ends are a family of their own. */
static void om_intervals(const struct report *r, FILE *out)
{
	char n[24];

	if (!r->nintervals || !r->nevents || !r->events[0].deltas)
		return;
	om_family(out, "pmuprof_interval_value", NULL, "Count of the event in one interval of "
		  "-I (scaled when multiplexed); the interval label numbers them from 1.");
	for (size_t i = 0; i < r->nintervals; i++)
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_figures *d = &r->events[k].deltas[i].fig;

			snprintf(n, sizeof(n), "%zu", i + 1);
			if (d->status == REPORT_COUNTED)
				om_event(out, "pmuprof_interval_value", &r->events[k], r->events[k].pmu,
					 NULL, n, d->value);
			om_units(r, out, "pmuprof_interval_value", &r->events[k], (long)i, n);
		}
	om_family(out, "pmuprof_interval_end_seconds", "seconds",
		  "End of each interval of -I, in seconds since the command started.");
	for (size_t i = 0; i < r->nintervals; i++) {
		fprintf(out, "pmuprof_interval_end_seconds{interval=\"%zu\"} ", i + 1);
		om_num(out, (double)r->interval_t_ns[i] / 1e9);
		fputc('\n', out);
	}
}

static void om_metrics(const struct report *r, FILE *out)
{
	if (!r->nmetrics)
		return;
	om_family(out, "pmuprof_metric_value", NULL, "A metric derived from the counts (pmuprof "
		  "stat -M), in its unit; event names the event it is printed beside.");
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct report_metric_value *m = &r->metrics[i];
		const char *cg = report_metric_cgroup(r, m);

		if (!isfinite(m->value))	/* not computed: no sample */
			continue;
		fputs("pmuprof_metric_value{", out);
		om_label(out, "metric", mxtab_metric_name(m->def), 1);
		om_label(out, "unit", mxtab_metric_unit(m->def), 0);
		om_label(out, "event", r->events[m->anchor].name, 0);
		if (m->pmu)
			om_label(out, "pmu", m->pmu, 0);
		if (cg)
			om_label(out, "cgroup", cg, 0);
		fputs("} ", out);
		om_num(out, m->value);
		fputc('\n', out);
	}
}

/* A sample of a region's event (or of a part of it, cpus given). */
static void om_region_sample(FILE *out, const char *region, const struct report_event *e,
			     const char *pmu, const char *cpus, double v)
{
	fputs("pmuprof_region_event_value{", out);
	om_label(out, "region", region, 1);
	om_label(out, "event", e->name, 0);
	om_label(out, "pmu", pmu, 0);
	if (cpus)
		om_label(out, "cpus", cpus, 0);
	fputs("} ", out);
	om_num(out, v);
	fputc('\n', out);
}

/* stat --regions: each region's events, labelled region, then its calls and time. */
static void om_regions(const struct report *r, FILE *out)
{
	if (!r->nregions)
		return;
	om_family(out, "pmuprof_region_event_value", NULL, "Count of the event over a region's "
		  "executions, per run (stat --regions; the mean over the runs with -r).");
	for (size_t k = 0; k < r->nregions; k++)
		for (size_t j = 0; j < r->regions[k].r->nevents; j++) {
			const struct report_event *e = &r->regions[k].r->events[j];

			if (e->fig.status == REPORT_COUNTED)
				om_region_sample(out, r->regions[k].name, e, e->pmu, NULL,
						 e->fig.value);
			for (size_t i = 0; i < e->nsplit; i++)
				if (e->split[i].fig.status == REPORT_COUNTED)
					om_region_sample(out, r->regions[k].name, e, e->split[i].pmu,
							 e->split[i].cpus, e->split[i].fig.value);
		}
	om_family(out, "pmuprof_region_calls", NULL, "Ended executions of the region per run.");
	for (size_t k = 0; k < r->nregions; k++) {
		fputs("pmuprof_region_calls{", out);
		om_label(out, "region", r->regions[k].name, 1);
		fputs("} ", out);
		om_num(out, r->regions[k].calls);
		fputc('\n', out);
	}
	om_family(out, "pmuprof_region_seconds", "seconds", "Wall time of the region's "
		  "executions per run.");
	for (size_t k = 0; k < r->nregions; k++) {
		fputs("pmuprof_region_seconds{", out);
		om_label(out, "region", r->regions[k].name, 1);
		fputs("} ", out);
		om_num(out, (double)r->regions[k].r->wall_ns / 1e9);
		fputc('\n', out);
	}
}

/* One counter family of the totals so far: what (0 the count, 1 enabled, 2 running) of each
 * event counted, of each core type's part and of each unit. */
static void om_total(const struct report *r, FILE *out, const char *family, int what)
{
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		const struct report_figures *f = &e->fig;
		const struct report_cell *c = e->cells;

		if (f->status == REPORT_COUNTED || f->status == REPORT_NOT_COUNTED)
			om_sample(out, family, e, e->pmu, NULL, NULL, NULL, om_fig(f, what));
		for (size_t i = 0; i < e->nsplit; i++)
			if ((f = &e->split[i].fig)->status == REPORT_COUNTED)
				om_sample(out, family, e, e->split[i].pmu, e->split[i].cpus, NULL,
					  NULL, om_fig(f, what));
		for (size_t u = 0; r->aggr != REPORT_AGGR_GLOBAL && c && u < r->nunits; u++)
			if (c[u].present && c[u].fig.status == REPORT_COUNTED)
				om_sample(out, family, e, e->pmu, NULL, &r->units[u], NULL,
					  om_fig(&c[u].fig, what));
	}
}

/* The counts so far as counters (families without _total, samples with it), for a
 * collector that reads the file again and again: -I rewrites it at every interval. */
static void om_totals(const struct report *r, FILE *out)
{
	fputs("# TYPE pmuprof_events counter\n# HELP pmuprof_events Count of the event since "
	      "counting started (scaled when multiplexed; time events in ns).\n", out);
	om_total(r, out, "pmuprof_events_total", 0);
	fputs("# TYPE pmuprof_event_enabled_seconds counter\n# UNIT "
	      "pmuprof_event_enabled_seconds seconds\n# HELP pmuprof_event_enabled_seconds Time "
	      "the event's counters were enabled, added over them.\n", out);
	om_total(r, out, "pmuprof_event_enabled_seconds_total", 1);
	fputs("# TYPE pmuprof_event_running_seconds counter\n# UNIT "
	      "pmuprof_event_running_seconds seconds\n# HELP pmuprof_event_running_seconds Time "
	      "they were on a counter: below enabled when multiplexed.\n", out);
	om_total(r, out, "pmuprof_event_running_seconds_total", 2);
}

int export_openmetrics_totals(const struct report *r, FILE *out)
{
	om_totals(r, out);
	fputs("# EOF\n", out);
	return ferror(out) ? -1 : 0;
}

int export_openmetrics(const struct report *r, FILE *out)
{
	static const char *const kinds[] = { "wall", "user", "system" };
	uint64_t t[] = { r->wall_ns, r->user_ns, r->sys_ns };

	if (r->interval_ms)	/* the counters -I wrote at each interval, at their end */
		om_totals(r, out);
	om_events(r, out);
	om_intervals(r, out);
	om_metrics(r, out);
	om_regions(r, out);
	om_family(out, "pmuprof_time_seconds", "seconds", "Time the command took: wall "
		  "(elapsed), user and system CPU time; the mean over the runs with -r.");
	for (int k = 0; k < 3; k++) {
		fprintf(out, "pmuprof_time_seconds{time=\"%s\"} ", kinds[k]);
		om_num(out, (double)t[k] / 1e9);
		fputc('\n', out);
	}
	fputs("# EOF\n", out);
	return ferror(out) ? -1 : 0;
}

/* A table cell: the text with '|' escaped (GitHub's tables end a cell there). */
static void md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
	fputc(' ', out);
}

static void md_row(FILE *out, const struct report *r, const struct report_event *e)
{
	char value[48] = "", spread[24] = "", counted[24], metric[96] = "";
	const char *cg;

	if (e->fig.status == REPORT_COUNTED) {
		snprintf(value, sizeof(value), "%.0f", e->fig.value);
		snprintf(counted, sizeof(counted), "%.2f%%", e->fig.counted_pct);
	} else {
		snprintf(counted, sizeof(counted), "%s", report_status_str(e->fig.status));
	}
	if (r->nruns && e->fig.status == REPORT_COUNTED && !isnan(e->stats.rse))
		snprintf(spread, sizeof(spread), "\xc2\xb1 %.2f%%", 100.0 * e->stats.rse);
	if (e->derived.unit)
		snprintf(metric, sizeof(metric), "%.3f %s", e->derived.value, e->derived.unit);
	md_cell(out, e->name);
	if ((cg = report_cgroup_col(r, e)))
		md_cell(out, *cg ? cg : "-");
	md_cell(out, value);
	md_cell(out, e->unit);
	md_cell(out, spread);
	md_cell(out, counted);
	md_cell(out, metric);
	fputs("|\n", out);
}

/* One row per event: its value (the mean with -r), unit, the relative standard error over
 * the runs, the share of time counted (or why it was not), the derived figure beside it. */
int export_markdown(const struct report *r, FILE *out)
{
	/* a cgroup column (- for every task) when an event counted in one, as in the text */
	fprintf(out, "| event |%s value | unit | \xc2\xb1 | counted | metric |\n",
		r->per_cgroup ? " cgroup |" : "");
	fprintf(out, "| --- |%s ---: | --- | ---: | ---: | --- |\n", r->per_cgroup ? " --- |" : "");
	for (size_t k = 0; k < r->nevents; k++)
		md_row(out, r, &r->events[k]);
	return ferror(out) ? -1 : 0;
}
