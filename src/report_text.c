/* report_text.c: the report in perf stat's familiar text shape. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* 1234567 -> "1,234,567": perf groups digits through the locale; pmuprof always does. */
static void group_digits(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), o = 0;

	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
}

static void print_command(const struct report *r, FILE *out)
{
	for (int k = 0; k < r->argc; k++)
		fprintf(out, "%s%s", k ? " " : "", r->argv[k]);
}

static void print_event(const struct report *r, const struct report_event *e, FILE *out)
{
	char num[40];
	const char *unit = "";
	double mval;
	const char *munit;
	int has_metric = report_metric(r, e, &mval, &munit);

	if (e->status == REPORT_COUNTED && strcmp(e->unit, "ns") == 0) {
		snprintf(num, sizeof(num), "%.2f", e->value / 1e6);
		unit = "msec";
	} else if (e->status == REPORT_COUNTED) {
		group_digits(num, sizeof(num), (uint64_t)(e->value + 0.5));
	} else {
		snprintf(num, sizeof(num), "<%s>", report_status_str(e->status));
	}
	int pct = e->status == REPORT_COUNTED && e->counted_pct < 99.995;

	/* columns as perf stat has them; padding only where something follows */
	fprintf(out, "%18s %-4s %s", num, unit, e->name);
	if (has_metric || pct)
		fprintf(out, "%*s", 32 - (int)strlen(e->name) > 0 ? 32 - (int)strlen(e->name) : 0, "");
	if (has_metric)
		fprintf(out, " # %8.3f %s", mval, munit);
	if (pct)
		fprintf(out, "%*s (%.2f%%)", has_metric ? 20 - (int)strlen(munit) : 31, "",
			e->counted_pct);
	fputc('\n', out);
	if (e->marked) {
		char note[256];

		fprintf(out, "%18s %-4s ^ %s\n", "", "", report_mark_note(e, note, sizeof(note)));
	}
}

static void print_sec(FILE *out, uint64_t ns, const char *what)
{
	fprintf(out, "%18.9f seconds %s\n", ns / 1e9, what);
}

int report_text(const struct report *r, FILE *out)
{
	fputs("\n Performance counter stats for '", out);
	print_command(r, out);
	fprintf(out, "'%s:\n\n", r->interrupted ? " (interrupted)" : "");
	for (size_t k = 0; k < r->nevents; k++)
		print_event(r, &r->events[k], out);
	fputc('\n', out);
	print_sec(out, r->wall_ns, "time elapsed");
	fputc('\n', out);
	print_sec(out, r->user_ns, "user");
	print_sec(out, r->sys_ns, "sys");
	if (r->term_signal)
		fprintf(out, "\n The command was killed by signal %d (SIG%s).\n", r->term_signal,
			sigabbrev_np(r->term_signal) ? sigabbrev_np(r->term_signal) : "?");
	else if (r->exit_code)
		fprintf(out, "\n The command exited with status %d.\n", r->exit_code);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
