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
 * Linux cannot (--allow-secure). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* One row's fields; time and noise are NULL when the row has no such field. */
struct csv_row {
	const char *time, *value, *unit, *name, *noise;
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

/* perf's share-counted field: 100.00 when running == enabled (a refused event: both 0),
 * else running/enabled, so an event enabled but never on a counter is 0.00. */
static double share(uint64_t running_ns, uint64_t enabled_ns)
{
	return running_ns == enabled_ns ? 100.0 : 100.0 * (double)running_ns / (double)enabled_ns;
}

static void print_row(FILE *out, const struct csv_row *w, const char *sep)
{
	char run[24], pct[16];

	snprintf(run, sizeof(run), "%" PRIu64, w->running_ns);
	snprintf(pct, sizeof(pct), "%.2f", w->pct);
	if (w->time)
		field(out, w->time, sep, 0);
	field(out, w->value, sep, 0);
	field(out, w->unit, sep, 0);
	field(out, w->name, sep, 0);
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
	int ns = strcmp(e->unit, "ns") == 0;

	if (st != REPORT_COUNTED)
		snprintf(val, len, "<%s>", report_status_str(st));
	else if (ns)
		snprintf(val, len, "%.2f", v / 1e6);
	else
		snprintf(val, len, "%.0f", v);
	return ns ? "msec" : "";
}

/* -I: each interval's rows, its end time first; the metric fields stay empty. */
static void intervals_csv(const struct report *r, FILE *out, const char *sep)
{
	for (size_t i = 0; i < r->nintervals; i++)
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			const struct report_delta *d = &e->deltas[i];
			char t[32], val[48];
			enum report_status st = d->counted ? REPORT_COUNTED :
				e->status == REPORT_COUNTED ? REPORT_NOT_COUNTED : e->status;
			struct csv_row w = { .time = t, .value = val, .name = e->name,
					     .running_ns = d->running_ns,
					     .pct = share(d->running_ns, d->enabled_ns), .metric = "",
					     .metric_unit = "" };

			snprintf(t, sizeof(t), "%.9f", r->interval_t_ns[i] / 1e9);
			w.unit = value_field(val, sizeof(val), e, st, d->value);
			print_row(out, &w, sep);
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
				     .noise = runs ? "" : NULL, .running_ns = p->running_ns,
				     .pct = share(p->running_ns, p->enabled_ns), .metric = "",
				     .metric_unit = "" };

		report_part_name(e, p, name, sizeof(name));
		w.unit = value_field(val, sizeof(val), e, p->status, p->value);
		print_row(out, &w, sep);
	}
}

int report_csv(const struct report *r, FILE *out, const char *sep)
{
	int intervals = r->nintervals && r->events[0].deltas;
	const char *time = intervals && !r->csv_no_summary ? "summary" : NULL;

	if (intervals)
		intervals_csv(r, out, sep);
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		char val[48], mval[32] = "", noise[24];
		struct csv_row w = { .time = time, .value = val, .name = e->name,
				     .running_ns = e->running_ns, .metric = mval,
				     .metric_unit = "" };
		double m;

		w.unit = value_field(val, sizeof(val), e, e->status, e->value);
		/* perf prints 0.00% where it has no spread: a count of 0, an event not counted */
		if (r->nruns) {
			snprintf(noise, sizeof(noise), "%.2f%%", e->status == REPORT_COUNTED &&
				 !isnan(e->stats.rse) ? 100.0 * e->stats.rse : 0.0);
			w.noise = noise;
		}
		w.pct = e->status == REPORT_COUNTED ? e->counted_pct :
			share(e->running_ns, e->enabled_ns);
		if (report_metric(r, e, &m, &w.metric_unit))
			snprintf(mval, sizeof(mval), "%.3f", m);
		print_row(out, &w, sep);
		parts_csv(e, time, r->nruns > 0, out, sep);
		if (e->marked) {
			char note[256];

			fprintf(out, "# %s: %s\n", e->name, report_mark_note(e, note, sizeof(note)));
		}
	}
	return ferror(out) ? -1 : 0;
}
