/* SPDX-License-Identifier: Apache-2.0 */
/* report_csv.c: the report as separated values in perf stat -x's field order (perf 6.1):
 *   [time,] value, unit, event, [noise,] running time (ns), share counted (%),
 *   metric value, metric unit
 * With -I, each interval's rows come first with its end time (seconds) in the leading field,
 * then the totals with "summary" there (perf's --summary convention; --no-csv-summary leaves
 * the field out). With -r, perf's noise field follows the event: the relative standard error,
 * "1.23%". An event split over core types (big.LITTLE) is followed by one row per PMU, named
 * as perf names hybrid events, "armv8_cortex_a55/cycles/". Every row has the same fields, so
 * perf's checkers (tests/shell/stat+csv_output.sh), which count the separators of every line,
 * pass; the only comment line is the "# marked: ..." note of an event asked to count what
 * Linux cannot (--allow-secure).
 * Aggregated (-A, --per-*), each row names its unit after the time field, as perf 6.1 does:
 * "CPU0," with -A, "comm-tid," with --per-thread, and the id then the number of CPUs in it,
 * "S0-D0-C1,2,", with --per-core, --per-cluster, --per-socket. perf's stat+csv_output.sh
 * expects 7 separators with -A and --per-thread, 8 with --per-core and --per-socket. The
 * cells have no statistics of their own over -r runs: their noise field is empty; parts
 * (big.LITTLE) are not repeated per unit: the units show where the event counted.
 * With stat --regions every row is led by a region field: empty for the whole run's rows,
 * then each region's rows with its name there. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "textline.h"

/* One row's fields; time, unit_id, ncpus and noise are NULL when the row has no such
 * field. */
struct csv_row {
	const char *time, *unit_id, *ncpus, *value, *unit, *name, *noise;
	const char *cgroup;	/* its field (report_cgroup_col); NULL: none */
	uint64_t running_ns;
	double pct;
	const char *metric, *metric_unit;
};

/* A field, quoted (RFC 4180) only when it holds the separator, a quote or a newline. */
static void field(FILE *out, const char *s, const char *sep, int last)
{
	if (strstr(s, sep) || strpbrk(s, "\"\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputs(last ? "\n" : sep, out);
}

static void print_row(FILE *out, const struct csv_row *w, const char *sep)
{
	char run[24], pct[16];

	snprintf(run, sizeof(run), "%" PRIu64, w->running_ns);
	snprintf(pct, sizeof(pct), "%.2f", w->pct);
	if (w->time)
		field(out, w->time, sep, 0);
	if (w->unit_id)
		field(out, w->unit_id, sep, 0);
	if (w->ncpus)
		field(out, w->ncpus, sep, 0);
	field(out, w->value, sep, 0);
	field(out, w->unit, sep, 0);
	field(out, w->name, sep, 0);
	if (w->cgroup)	/* perf's place for it: after the name */
		field(out, w->cgroup, sep, 0);
	if (w->noise)
		field(out, w->noise, sep, 0);
	field(out, run, sep, 0);
	field(out, pct, sep, 0);
	field(out, w->metric, sep, 0);
	field(out, w->metric_unit, sep, 1);
}

/* An event's value field; returns its unit, which a time event keeps when it has no value
 * ("<not counted>,msec,task-clock", as perf prints it). */
static const char *value_field(char *val, size_t len, const struct report_event *e,
			       enum report_status st, double v)
{
	int ms = report_in_msec(e);

	if (st != REPORT_COUNTED)
		snprintf(val, len, "<%s>", report_status_str(st));
	else if (ms)
		snprintf(val, len, "%.2f", v / 1e6);
	else
		snprintf(val, len, "%.0f", v);
	return ms ? "msec" : report_is_tool(e) ? e->unit : "";	/* a tool event's "ns" */
}

/* Where a unit's rows go: the row's time field, the stream, the separator. */
struct csv_to {
	const char *time;
	FILE *out;
	const char *sep;
};

/* e's row in unit u, of the totals (interval < 0) or of interval i. */
static void cell_csv(const struct report *r, const struct report_event *e, size_t u, long i,
		     void *arg)
{
	const struct csv_to *to = arg;
	const struct report_cell *c = report_cell_at(r, e, u, i);
	char val[48], mval[32] = "", ncpus[16];
	struct csv_row w = { .time = to->time, .unit_id = r->units[u].id, .value = val,
			     .name = e->name, .cgroup = report_cgroup_col(r, e),
			     .noise = r->nruns ? "" : NULL,
			     .running_ns = c->fig.running_ns, .metric = mval, .metric_unit = "" };

	if (report_unit_has_ncpus(r)) {
		snprintf(ncpus, sizeof(ncpus), "%d", r->units[u].ncpus);
		w.ncpus = ncpus;
	}
	w.unit = value_field(val, sizeof(val), e, c->fig.status, c->fig.value);
	w.pct = c->fig.counted_pct;
	if (c->derived.unit) {
		snprintf(mval, sizeof(mval), "%.3f", c->derived.value);
		w.metric_unit = c->derived.unit;
	}
	print_row(to->out, &w, to->sep);
}

/* -I: each interval's rows, its end time first, with the metric fields of the figure derived
 * over the interval (per unit, over the unit's cells), as perf 6.1's. */
static void intervals_csv(const struct report *r, FILE *out, const char *sep)
{
	for (size_t i = r->interval_from; i < r->nintervals; i++) {
		char buf[TEXTLINE_SECS_LEN];
		const char *t = textline_secs(r->interval_t_ns[i], buf);

		if (r->aggr != REPORT_AGGR_GLOBAL) {
			struct csv_to to = { t, out, sep };

			report_each_cell(r, (long)i, cell_csv, &to);
			continue;
		}
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			const struct report_delta *d = &e->deltas[i];
			char val[48], mval[32] = "";
			struct csv_row w = { .time = t, .value = val, .name = e->name,
					     .cgroup = report_cgroup_col(r, e),
					     .running_ns = d->fig.running_ns,
					     .pct = d->fig.counted_pct, .metric = mval,
					     .metric_unit = d->derived.unit ? d->derived.unit : "" };

			if (d->derived.unit)
				snprintf(mval, sizeof(mval), "%.3f", d->derived.value);
			w.unit = value_field(val, sizeof(val), e, d->fig.status, d->fig.value);
			print_row(out, &w, sep);
		}
	}
}

/* big.LITTLE: a row per core type under the total, named "pmu/event/". Parts have no
 * statistics of their own over -r runs: their noise field is empty. */
static void parts_csv(const struct report_event *e, const char *time, int runs, FILE *out,
		      const char *sep)
{

	for (size_t i = 0; i < e->nsplit; i++) {
		const struct report_part *p = &e->split[i];
		char name[256], val[48];
		struct csv_row w = { .time = time, .value = val, .name = name,
				     .noise = runs ? "" : NULL, .running_ns = p->fig.running_ns,
				     .pct = p->fig.counted_pct, .metric = "", .metric_unit = "" };

		report_part_name(e, p, name, sizeof(name));
		w.unit = value_field(val, sizeof(val), e, p->fig.status, p->fig.value);
		print_row(out, &w, sep);
	}
}

/* The metrics beside e after the first, each on a line of its own: the count's fields empty,
 * as perf -x prints a second metric. */
static void more_metrics_csv(const struct report *r, const struct report_event *e,
			     const char *time, int first, FILE *out, const char *sep)
{
	size_t idx = (size_t)(e - r->events);

	for (size_t k = report_next_metric(r, idx, 0); k < r->nmetrics;
	     k = report_next_metric(r, idx, k + 1)) {
		const struct report_metric_value *m = &r->metrics[k];
		char mval[32];

		if (!isfinite(m->value))
			continue;
		if (first) {	/* on the event's row */
			first = 0;
			continue;
		}
		snprintf(mval, sizeof(mval), "%.3f", m->value);
		if (time)
			field(out, time, sep, 0);
		for (int f = 0; f < (r->nruns ? 6 : 5); f++)	/* value, unit, event, (noise,) run, % */
			field(out, "", sep, 0);
		field(out, mval, sep, 0);
		field(out, m->label, sep, 1);
	}
}

/* The totals of one event, a row and its parts. */
static void event_csv(const struct report *r, const struct report_event *e, const char *time,
		      FILE *out, const char *sep)
{
	char val[48], mval[32] = "", noise[24];
	struct csv_row w = { .time = time, .value = val, .name = e->name,
			     .cgroup = report_cgroup_col(r, e), .running_ns = e->fig.running_ns,
			     .metric = mval, .metric_unit = "" };

	w.unit = value_field(val, sizeof(val), e, e->fig.status, e->fig.value);
	/* perf prints 0.00% where it has no spread: a count of 0, an event not counted */
	if (r->nruns) {
		snprintf(noise, sizeof(noise), "%.2f%%", e->fig.status == REPORT_COUNTED &&
			 !isnan(e->stats.rse) ? 100.0 * e->stats.rse : 0.0);
		w.noise = noise;
	}
	w.pct = e->fig.counted_pct;
	if (e->derived.unit) {
		snprintf(mval, sizeof(mval), "%.3f", e->derived.value);
		w.metric_unit = e->derived.unit;
	}
	print_row(out, &w, sep);
	more_metrics_csv(r, e, time, *mval != '\0', out, sep);
	parts_csv(e, time, r->nruns > 0, out, sep);
}

/* One --metric-only line of -x: the metrics' units (values 0) or their values over the
 * totals (interval < 0) or interval i, each field followed by the separator (as perf 6.1);
 * time, when given, leads it as perf's padded time field (or "summary"). */
static void metric_only_csv(const struct report *r, long i, int values, const char *time,
			    FILE *out, const char *sep)
{
	if (time)
		fprintf(out, "%16s%s", time, sep);
	for (size_t k = 0; k < r->nevents; k++) {
		const char *unit;
		double v;

		if (!report_metric_only_at(r, &r->events[k], i, &v, &unit))
			continue;
		if (!values)
			fprintf(out, "%s%s", unit, sep);
		else if (isnan(v))
			fputs(sep, out);
		else
			fprintf(out, "%.3f%s", v, sep);
	}
	fputc('\n', out);
}

/* --metric-only -x, as perf 6.1 prints it: the units, then the values; with -I perf's
 * heading " time," (a comma whatever the separator, as perf's), a line per interval, and the
 * totals' values only (with the "summary" field unless --no-csv-summary). */
static void metric_only_report_csv(const struct report *r, FILE *out, const char *sep)
{
	char t[TEXTLINE_SECS_LEN];

	if (!report_has_intervals(r)) {
		metric_only_csv(r, -1, 0, NULL, out, sep);
		metric_only_csv(r, -1, 1, NULL, out, sep);
		return;
	}
	if (report_interval_heading(r)) {
		fputs(" time,", out);
		metric_only_csv(r, -1, 0, NULL, out, sep);
	}
	for (size_t i = r->interval_from; i < r->nintervals; i++)
		metric_only_csv(r, (long)i, 1, textline_secs(r->interval_t_ns[i], t), out, sep);
	if (!r->disp.no_summary && !r->interval_slice)
		metric_only_csv(r, -1, 1, r->csv_no_summary ? NULL : "summary", out, sep);
}

/* r's rows (a whole report without regions) each led by the field region, written to out;
 * the comment lines as they are. -1 when out of memory or out failed. */
static int prefixed(const struct report *r, const char *region, FILE *out, const char *sep)
{
	char *buf = NULL, *p, *nl;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	rc = report_csv(r, m, sep);
	if (fclose(m) != 0)
		rc = -1;
	for (p = buf; rc == 0 && p && *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			nl = p + strlen(p) - 1;
		if (p[0] != '#')
			field(out, region, sep, 0);
		fwrite(p, 1, (size_t)(nl - p) + 1, out);
	}
	free(buf);
	return rc;
}

/* stat --regions: a leading region field on every row, empty on the whole run's, the
 * region's name on the rows of its report (written as the whole run's totals are). */
static int regions_csv(const struct report *r, FILE *out, const char *sep)
{
	struct report whole = *r;
	int rc;

	whole.regions = NULL;
	whole.nregions = 0;
	rc = prefixed(&whole, "", out, sep);
	for (size_t k = 0; rc == 0 && k < r->nregions; k++) {
		struct report g = *r->regions[k].r;

		g.disp = r->disp;
		g.aggr = r->aggr;
		g.units = r->units;
		g.nunits = r->nunits;
		rc = prefixed(&g, r->regions[k].name, out, sep);
	}
	return rc || ferror(out) ? -1 : 0;
}

int report_csv(const struct report *r, FILE *out, const char *sep)
{
	const char *time = report_has_intervals(r) && !r->csv_no_summary ? "summary" : NULL;
	struct csv_to to = { time, out, sep };

	if (r->nregions && !r->disp.metric_only && !r->interval_slice)
		return regions_csv(r, out, sep);
	if (r->disp.metric_only) {
		metric_only_report_csv(r, out, sep);
		return ferror(out) ? -1 : 0;
	}
	if (report_has_intervals(r))
		intervals_csv(r, out, sep);
	if (r->interval_slice)	/* live -I: an interval as it ended, the totals come last */
		return ferror(out) ? -1 : 0;
	if (r->disp.no_summary && report_has_intervals(r))
		return ferror(out) ? -1 : 0;
	if (r->aggr != REPORT_AGGR_GLOBAL)
		report_each_cell(r, -1, cell_csv, &to);
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];

		if (r->aggr == REPORT_AGGR_GLOBAL)
			event_csv(r, e, time, out, sep);
		if (e->marked) {
			char note[256];

			fprintf(out, "# %s: %s\n", e->name, report_mark_note(e, note, sizeof(note)));
		}
	}
	return ferror(out) ? -1 : 0;
}
