/* report_csv.c: the report as separated values in perf stat -x's field order: value, unit,
 * event, running time (ns), share counted (%), metric value, metric unit. perf's fields have no
 * room for a note: a marked event is followed by a "# marked: ..." comment line, which readers
 * of perf's -x output already skip (perf writes "# started on" lines the same way). */
#include <inttypes.h>
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

int report_csv(const struct report *r, FILE *out, const char *sep)
{
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		char val[48], run[24], pct[16], mval[32] = "";
		const char *unit = "", *munit = "";
		double m;

		if (e->status != REPORT_COUNTED)
			snprintf(val, sizeof(val), "<%s>", report_status_str(e->status));
		else if (strcmp(e->unit, "ns") == 0) {
			snprintf(val, sizeof(val), "%.2f", e->value / 1e6);
			unit = "msec";
		} else
			snprintf(val, sizeof(val), "%.0f", e->value);
		snprintf(run, sizeof(run), "%" PRIu64, e->running_ns);
		snprintf(pct, sizeof(pct), "%.2f",
			 e->status == REPORT_COUNTED ? e->counted_pct : 100.0);
		if (report_metric(r, e, &m, &munit))
			snprintf(mval, sizeof(mval), "%.3f", m);
		field(out, val, sep, 0);
		field(out, unit, sep, 0);
		field(out, e->name, sep, 0);
		field(out, run, sep, 0);
		field(out, pct, sep, 0);
		field(out, mval, sep, 0);
		field(out, munit, sep, 1);
		if (e->marked) {
			char note[256];

			fprintf(out, "# %s: %s\n", e->name, report_mark_note(e, note, sizeof(note)));
		}
	}
	return ferror(out) ? -1 : 0;
}
