/* report_text.c: the report in perf stat's familiar text shape. */
#include <inttypes.h>
#include <math.h>
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

/* An event's value as perf prints it: msec for time events, else grouped digits; or its
 * status, "<not counted>", which keeps the unit ("<not counted> msec task-clock", as perf). */
static const char *format_value(char *num, size_t len, const struct report_event *e,
				enum report_status st, double v)
{
	int ns = strcmp(e->unit, "ns") == 0;

	if (st != REPORT_COUNTED)
		snprintf(num, len, "<%s>", report_status_str(st));
	else if (ns)
		snprintf(num, len, "%.2f", v / 1e6);
	else
		group_digits(num, len, (uint64_t)(v + 0.5));
	return ns ? "msec" : "";
}

static void print_command(const struct report *r, FILE *out)
{
	for (int k = 0; k < r->argc; k++)
		fprintf(out, "%s%s", k ? " " : "", r->argv[k]);
}

/* The runs stats_outliers flagged, numbered from 1 as the runs were made: a "#" line under
 * the event's, in the metric column, where perf puts a second metric (perf's text checkers
 * take a line that is not an event's for a comment only when it starts with "#"). */
static void print_outliers(const struct report *r, const struct report_event *e, FILE *out)
{
	int any = 0;

	for (size_t i = 0; e->outlier && i < r->nruns; i++)
		if (e->outlier[i])
			fprintf(out, "%s%zu", any++ ? ", " : "                                       "
				"                  # outlier runs (modified Z-score > 3.5): ", i + 1);
	if (any)
		fputc('\n', out);
}

/* big.LITTLE: under the total, the event on each core type the command may run on, named as
 * perf names a hybrid PMU's event ("armv8_cortex_a55/cycles/"), with the share of the time
 * it ran there. */
static void print_split(const struct report_event *e, FILE *out)
{
	for (size_t i = 0; i < e->nsplit; i++) {
		const struct report_part *p = &e->split[i];
		char num[40], name[128], where[192];
		const char *unit;
		int len;

		unit = format_value(num, sizeof(num), e, p->status, p->value);
		len = snprintf(where, sizeof(where), "%s (%s%sCPUs %s)",
			       report_part_name(e, p, name, sizeof(name)),
			       p->core ? p->core : "", p->core ? ", " : "", p->cpus);
		fprintf(out, "%18s %-4s   %s", num, unit, where);
		if (p->status == REPORT_COUNTED && e->enabled_ns)
			fprintf(out, "%*s %6.2f%% of the time here", len < 40 ? 40 - len : 0, "",
				100.0 * (double)p->enabled_ns / (double)e->enabled_ns);
		else if (p->status == REPORT_ABSENT)
			fprintf(out, ": no such event on this core type");
		else if (p->status == REPORT_NOT_COUNTED && !p->note)	/* the row has it */
			fprintf(out, ": the command did not run here");
		fputc('\n', out);
	}
}

static void print_event(const struct report *r, const struct report_event *e, FILE *out)
{
	char num[40];
	double mval;
	const char *munit;
	int has_metric = report_metric(r, e, &mval, &munit);
	const char *unit = format_value(num, sizeof(num), e, e->status, e->value);

	int pct = e->status == REPORT_COUNTED && e->counted_pct < 99.995;
	int noise = r->nruns && e->status == REPORT_COUNTED && !isnan(e->stats.rse);

	/* columns as perf stat has them; padding only where something follows */
	fprintf(out, "%18s %-4s %s", num, unit, e->name);
	if (has_metric || pct || noise)
		fprintf(out, "%*s", 32 - (int)strlen(e->name) > 0 ? 32 - (int)strlen(e->name) : 0, "");
	if (has_metric)
		fprintf(out, " # %8.3f %s", mval, munit);
	if (noise)	/* perf stat -r's "( +- x% )": the relative standard error */
		fprintf(out, "%*s ( +- %5.2f%% )", has_metric ? 20 - (int)strlen(munit) : 31, "",
			100.0 * e->stats.rse);
	if (pct)
		fprintf(out, "%*s (%.2f%%)", noise ? 0 : has_metric ? 20 - (int)strlen(munit) : 31,
			"", e->counted_pct);
	if (e->run)
		fprintf(out, "%s [run %d]", has_metric || pct || noise ? "" : "  ", e->run);
	fputc('\n', out);
	if (r->nruns)
		print_outliers(r, e, out);
	if (e->note)
		fprintf(out, "%18s %-4s # %s: %s\n", "", "", report_status_str(e->status), e->note);
	if (e->split)
		print_split(e, out);
	if (e->marked) {
		char note[256];

		fprintf(out, "%18s %-4s ^ %s\n", "", "", report_mark_note(e, note, sizeof(note)));
	}

}

/* A time; with -r its mean, the standard error of the mean and its share, as perf -r. */
static void print_sec(const struct report *r, FILE *out, uint64_t ns,
		      const struct stats_summary *st, const char *what)
{
	if (!r->nruns || isnan(st->stddev)) {
		fprintf(out, "%18.9f seconds %s\n", ns / 1e9, what);
		return;
	}
	fprintf(out, "%18.9f +- %.9f seconds %s", st->mean / 1e9,
		st->stddev / sqrt((double)st->n) / 1e9, what);
	if (!isnan(st->rse))
		fprintf(out, "  ( +- %5.2f%% )", 100.0 * st->rse);
	fputc('\n', out);
}

/* -I: one line per event and interval, as perf stat -I prints them. */
static void print_intervals(const struct report *r, FILE *out)
{
	fputs("#           time             counts unit events\n", out);
	for (size_t i = 0; i < r->nintervals; i++)
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			const struct report_delta *d = &e->deltas[i];
			char num[40];
			const char *unit = format_value(num, sizeof(num), e, d->counted ?
				REPORT_COUNTED : e->status == REPORT_COUNTED ? REPORT_NOT_COUNTED :
				e->status, d->value);

			fprintf(out, "%16.9f %18s %-4s %s\n", r->interval_t_ns[i] / 1e9, num, unit,
				e->name);
		}
}

int report_text(const struct report *r, FILE *out)
{
	if (r->nintervals && r->events[0].deltas)
		print_intervals(r, out);
	fputs("\n Performance counter stats for '", out);
	print_command(r, out);
	fputc('\'', out);
	if (r->nruns)
		fprintf(out, " (%zu run%s)", r->nruns, r->nruns == 1 ? "" : "s");
	fprintf(out, "%s:\n\n", r->interrupted ? " (interrupted)" : "");
	for (size_t k = 0; k < r->nevents; k++)
		print_event(r, &r->events[k], out);
	if (r->multiplexed)
		fputs("\n Values with (xx.xx%) are estimates: scaled from that share of the time "
		      "counted.\n", out);
	fputc('\n', out);
	print_sec(r, out, r->wall_ns, &r->wall_stats, "time elapsed");
	fputc('\n', out);
	print_sec(r, out, r->user_ns, &r->user_stats, "user");
	print_sec(r, out, r->sys_ns, &r->sys_stats, "sys");
	if (r->stopped)
		fprintf(out, "\n The series stopped early: %s (%zu of %zu runs recorded).\n",
			r->stopped, r->nruns, r->repeat);
	if (r->interval_stop)
		fprintf(out, "\n Intervals stopped after %zu (--interval-count); the totals are "
			"of the whole run.\n", r->nintervals);
	if (r->term_signal)
		fprintf(out, "\n The command was killed by signal %d (SIG%s).\n", r->term_signal,
			sigabbrev_np(r->term_signal) ? sigabbrev_np(r->term_signal) : "?");
	else if (r->exit_code)
		fprintf(out, "\n The command exited with status %d.\n", r->exit_code);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
