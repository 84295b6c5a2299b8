/* report_csv.c: the report as separated values in perf stat -x's field order: value, unit,
 * event, running time (ns), share counted (%), metric value, metric unit. With -r, perf's
 * variance field comes after the event: the relative standard error, "1.23%". With -I, each
 * interval's lines come first, each with a leading timestamp field (seconds), then the
 * totals without one. perf's fields have no room for a note: a marked event is followed by a
 * "# marked: ..." comment line, which readers of perf's -x output already skip (perf writes
 * "# started on" lines the same way). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

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

/* An event's value field and its unit. */
static const char *value_field(char *val, size_t len, const struct report_event *e,
			       int counted, double v)
{
	if (!counted)
		snprintf(val, len, "<%s>", report_status_str(e->status == REPORT_COUNTED ?
							    REPORT_NOT_COUNTED : e->status));
	else if (strcmp(e->unit, "ns") == 0) {
		snprintf(val, len, "%.2f", v / 1e6);
		return "msec";
	} else
		snprintf(val, len, "%.0f", v);
	return "";
}

/* -I: time, value, unit, event, running time, share counted, and two empty metric fields. */
static void intervals_csv(const struct report *r, FILE *out, const char *sep)
{
	for (size_t i = 0; i < r->nintervals; i++)
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			const struct report_delta *d = &e->deltas[i];
			char t[32], val[48], run[24], pct[16];
			const char *unit = value_field(val, sizeof(val), e, d->counted, d->value);

			snprintf(t, sizeof(t), "%.9f", r->interval_t_ns[i] / 1e9);
			snprintf(run, sizeof(run), "%" PRIu64, d->running_ns);
			snprintf(pct, sizeof(pct), "%.2f", d->enabled_ns ? 100.0 *
				 (double)d->running_ns / (double)d->enabled_ns : 100.0);
			field(out, t, sep, 0);
			field(out, val, sep, 0);
			field(out, unit, sep, 0);
			field(out, e->name, sep, 0);
			field(out, run, sep, 0);
			field(out, pct, sep, 0);
			field(out, "", sep, 0);
			field(out, "", sep, 1);
		}
}

int report_csv(const struct report *r, FILE *out, const char *sep)
{
	if (r->nintervals && r->events[0].deltas)
		intervals_csv(r, out, sep);
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		char val[48], run[24], pct[16], mval[32] = "", noise[24] = "";
		const char *unit = "", *munit = "";
		double m;

		if (e->status != REPORT_COUNTED)
			snprintf(val, sizeof(val), "<%s>", report_status_str(e->status));
		else
			unit = value_field(val, sizeof(val), e, 1, e->value);
		if (r->nruns && e->status == REPORT_COUNTED && !isnan(e->stats.rse))
			snprintf(noise, sizeof(noise), "%.2f%%", 100.0 * e->stats.rse);
		snprintf(run, sizeof(run), "%" PRIu64, e->running_ns);
		snprintf(pct, sizeof(pct), "%.2f",
			 e->status == REPORT_COUNTED ? e->counted_pct : 100.0);
		if (report_metric(r, e, &m, &munit))
			snprintf(mval, sizeof(mval), "%.3f", m);
		field(out, val, sep, 0);
		field(out, unit, sep, 0);
		field(out, e->name, sep, 0);
		if (r->nruns)
			field(out, noise, sep, 0);
		field(out, run, sep, 0);
		field(out, pct, sep, 0);
		field(out, mval, sep, 0);
		field(out, munit, sep, 1);
		if (e->marked) {
			char note[256];

			fprintf(out, "# %s: %s\n", e->name, report_mark_note(e, note, sizeof(note)));
		}
		if (e->note)
			fprintf(out, "# %s: %s: %s\n", e->name, report_status_str(e->status), e->note);
		if (e->status == REPORT_COUNTED && e->scaled)
			fprintf(out, "# %s: estimate: scaled from %.2f%% of the time\n", e->name,
				e->counted_pct);
		for (size_t i = 0; i < e->nsplit; i++) {	/* big.LITTLE: per core type */
			const struct report_part *p = &e->split[i];

			if (p->status == REPORT_COUNTED)
				fprintf(out, "# %s: on %s (CPUs %s): %.0f, running %" PRIu64 " ns\n",
					e->name, p->pmu, p->cpus, p->value, p->running_ns);
			else
				fprintf(out, "# %s: on %s (CPUs %s): %s\n", e->name, p->pmu, p->cpus,
					report_status_str(p->status));
		}
		if (e->run)
			fprintf(out, "# %s: counted in run %d\n", e->name, e->run);
	}
	return ferror(out) ? -1 : 0;
}
