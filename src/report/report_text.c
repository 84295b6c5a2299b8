/* SPDX-License-Identifier: Apache-2.0 */
/* report_text.c: the report in perf stat's familiar text shape: the table of counts (the totals,
 * each unit's, each interval's), each with the figure derived beside it, and the times. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ascii.h"
#include "report.h"
#include "report_text_priv.h"
#include "textline.h"

/* 1234567 -> "1,234,567": perf groups digits through the locale (by default: its -B is on
 * unless --no-big-num); pmuprof groups them whatever the locale, or not at all (plain). By
 * hand: printf's ' flag groups by the locale, and the C locale has no grouping. */
static void group_digits(char *buf, size_t len, uint64_t v, int plain)
{
	char tmp[24], *d = textline_digits(v, 10, 1, tmp + sizeof(tmp));
	int o = 0;

	for (int i = (int)(tmp + sizeof(tmp) - d) - 1; i >= 0 && (size_t)o + 2 < len; i--) {
		buf[o++] = *d++;
		if (!plain && i > 0 && i % 3 == 0)	/* i digits still to come */
			buf[o++] = ',';
	}
	buf[o] = '\0';
}

/* An event's value as perf prints it: msec for time events, else grouped digits; or its
 * status, "<not counted>", which keeps the unit ("<not counted> msec task-clock", as perf). */
static const char *format_value(const struct report *r, char *num, size_t len,
				const struct report_event *e, enum report_status st, double v)
{
	int ms = report_in_msec(e);

	if (st != REPORT_COUNTED)
		snprintf(num, len, "<%s>", report_status_str(st));
	else if (ms)
		snprintf(num, len, "%.2f", v / 1e6);
	else	/* a count, grouped; a tool event's ns whole, as perf prints them */
		group_digits(num, len, (uint64_t)(v + 0.5),
			     r->disp.no_big_num || report_is_tool(e));
	return ms ? "msec" : report_is_tool(e) ? e->unit : "";
}

static void print_command(const struct report *r, struct textline *l)
{
	for (int k = 0; k < r->argc; k++) {
		if (k)
			textline_put(l, " ", 1);
		textline_puts(l, r->argv[k]);
	}
}

/* The runs stats_outliers flagged, numbered from 1 as the runs were made: a "#" line under
 * the event's, in the metric column, where perf puts a second metric (perf's text checkers
 * take a line that is not an event's for a comment only when it starts with "#"). */
static void print_outliers(const struct report *r, const struct report_event *e,
			   struct textline *l)
{
	const unsigned char *outlier = e->outlier;
	int any = 0;

	for (size_t i = 0; outlier && i < r->nruns; i++) {
		if (!outlier[i])
			continue;
		textline_puts(l, any++ ? ", " : "                                       "
			      "                  # outlier runs (modified Z-score > 3.5): ");
		textline_num(l, i + 1, 10, 0);
	}
	if (any)
		textline_end(l);
}

/* A metric in the metric column: " #    1.250 insn per cycle", a share " #    55.00% name"
 * (its label "% name"). */
static void tl_metric(struct textline *l, double v, const char *label)
{
	int share = str_starts(label, "% ");

	textline_put(l, " # ", 3);
	report_text_fixed(l, v, 8, share ? 2 : 3);	/* " # %8.2f%% %s" or " # %8.3f %s" */
	textline_put(l, share ? "% " : " ", share ? 2 : 1);
	textline_puts(l, share ? label + 2 : label);
}

/* The metrics beside event idx after the first, each on a line of its own in the metric
 * column (perf's layout for a second metric); pmu: a core type's, under its part's line. */
static void print_more_metrics(const struct report *r, size_t idx, const char *pmu, int skip,
			       struct textline *l)
{
	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct report_metric_value *m = &r->metrics[k];

		if (m->anchor != idx || !isfinite(m->value) || (m->pmu == NULL) != (pmu == NULL) ||
		    (pmu && strcmp(pmu, m->pmu)))
			continue;
		if (skip) {	/* the one beside the count */
			skip = 0;
			continue;
		}
		textline_spaces(l, 18 + 1 + 4 + 1 + 32);	/* "%18s %-4s %-32s" of "" */
		tl_metric(l, m->value, m->label);
		textline_puts(l, m->estimate ? " (estimate)" : "");
		textline_end(l);
	}
}

/* big.LITTLE: under the total, the event on each core type the command may run on, named as
 * perf names a hybrid PMU's event ("armv8_cortex_a55/cycles/"), with the share of the time
 * it ran there. */
static void print_split(const struct report *r, const struct report_event *e,
			struct textline *l)
{

	for (size_t i = 0; i < e->nsplit; i++) {
		const struct report_part *p = &e->split[i];
		char num[40], name[128], where[192];
		const char *unit;
		int len;

		unit = format_value(r, num, sizeof(num), e, p->fig.status, p->fig.value);
		len = snprintf(where, sizeof(where), "%s (%s%sCPUs %s)",
			       report_part_name(e, p, name, sizeof(name)),
			       p->core ? p->core : "", p->core ? ", " : "", p->cpus);
		textline_rpad(l, num, 18);	/* "%18s %-4s   %s" */
		textline_put(l, " ", 1);
		textline_pad(l, unit, 4);
		textline_put(l, "   ", 3);
		textline_puts(l, where);
		if (p->fig.status == REPORT_COUNTED && e->fig.enabled_ns) {
			/* "%*s %6.2f%% of the time here" */
			textline_spaces(l, len < 40 ? (size_t)(40 - len) : 0);
			textline_put(l, " ", 1);
			report_text_fixed(l, p->time_pct, 6, 2);
			textline_puts(l, "% of the time here");
		} else if (p->fig.status == REPORT_ABSENT) {
			textline_puts(l, ": no such event on this core type");
		} else if (p->fig.status == REPORT_NOT_COUNTED && !p->note) {	/* the row has it */
			textline_puts(l, ": the command did not run here");
		}
		textline_end(l);
		print_more_metrics(r, (size_t)(e - r->events), p->pmu, 0, l);
	}
}

/* One row's figures after its leading columns (time, unit): the count, its unit, the event,
 * and what perf prints after them. */
struct text_row {
	const char *num, *unit, *name;
	const char *cgroup;	/* its column (report_cgroup_col); NULL: none */
	int has_metric;
	double mval;
	const char *munit;
	int noise;		/* with rse, perf -r's "( +- x% )" */
	double rse;
	int pct;		/* with counted_pct, the share of the time counted */
	double counted_pct;
	int run;		/* --mux=runs: the run that counted it; 0 */
};

/* A row's columns as perf stat has them, "%18s %-4s %-*s", by copying, not printf: this
 * runs for every row and every interval's. */
static void put_columns(struct textline *l, const char *num, const char *unit,
			const char *name, const char *cgroup, size_t name_width)
{
	textline_rpad(l, num, 18);
	if (*unit) {
		textline_put(l, " ", 1);
		textline_pad(l, unit, 4);
		textline_put(l, " ", 1);
	} else {	/* most rows: " %-4s " of "", six spaces */
		textline_spaces(l, 6);
	}
	if (!cgroup || (!*cgroup && !name_width)) {	/* nothing after it: no spaces */
		textline_pad(l, name, name_width);
		return;
	}
	/* perf's "%-25s" of the name, then " %s" of the cgroup */
	textline_pad(l, name, 25);
	textline_put(l, " ", 1);
	textline_pad(l, cgroup, name_width > 26 ? name_width - 26 : 0);
}

static void print_row(const struct text_row *w, struct textline *l)
{
	/* "%*s" of "" before the noise or the share: |gap| spaces, whichever its sign */
	int gap = w->has_metric ? 20 - (int)strlen(w->munit) : 31;
	size_t spaces = gap < 0 ? (size_t)-gap : (size_t)gap;

	/* the name padded to 32 only where something follows */
	put_columns(l, w->num, w->unit, w->name, w->cgroup, w->has_metric || w->pct || w->noise ? 32 : 0);
	if (w->has_metric)
		tl_metric(l, w->mval, w->munit);
	if (w->noise) {	/* perf stat -r's "( +- x% )": the relative standard error */
		textline_spaces(l, spaces);
		textline_put(l, " ( +- ", 6);
		report_text_fixed(l, 100.0 * w->rse, 5, 2);
		textline_put(l, "% )", 3);
	}
	if (w->pct) {	/* "%*s (%.2f%%)": the share of the time counted, after the noise */
		textline_spaces(l, w->noise ? 0 : spaces);
		textline_put(l, " (", 2);
		report_text_fixed(l, w->counted_pct, 0, 2);
		textline_put(l, "%)", 2);
	}
	if (w->run > 0) {	/* "%s [run %d]": a planned run, numbered from 1 */
		textline_pad(l, w->has_metric || w->pct || w->noise ? " [run " : "   [run ", 0);
		textline_num(l, (unsigned)w->run, 10, 0);
		textline_put(l, "]", 1);
	}
	textline_end(l);
}

/* The lines under an event's row: its note, and (mark) the mark of a request Linux cannot
 * count as asked; named lines (after the table) where the event has rows per unit. */
static void note_line(const struct report_event *e, int named, int mark, struct textline *l)
{
	const char *name = named ? e->name : "", *colon = named ? ": " : "";
	char note[256];

	/* "%18s %-4s # %s%s%s: %s\n", or "^ %s%s%s\n" for the mark */
	textline_spaces(l, 18 + 1 + 4 + 1);
	textline_puts(l, mark ? "^ " : "# ");
	textline_puts(l, name);
	textline_puts(l, colon);
	if (mark) {
		textline_puts(l, report_mark_note(e, note, sizeof(note)));
	} else {
		textline_puts(l, report_status_str(e->fig.status));
		textline_put(l, ": ", 2);
		textline_puts(l, e->note);
	}
	textline_end(l);
}

/* e's note line, or (mark) its mark's, when it has one. */
static void print_note(const struct report_event *e, int named, int mark,
			      struct textline *l)
{
	if (mark ? e->marked : e->note != NULL)
		note_line(e, named, mark, l);
}

static void print_event(const struct report *r, const struct report_event *e,
			struct textline *l)
{
	char num[40];
	struct text_row w = { .num = num, .name = e->name, .cgroup = report_cgroup_col(r, e),
			      .rse = e->stats.rse,
			      .counted_pct = e->fig.counted_pct, .run = e->run };

	w.has_metric = e->derived.unit != NULL;
	w.mval = e->derived.value;
	w.munit = e->derived.unit;
	w.unit = format_value(r, num, sizeof(num), e, e->fig.status, e->fig.value);
	w.pct = e->fig.status == REPORT_COUNTED && e->fig.counted_pct < 99.995;
	w.noise = r->nruns && e->fig.status == REPORT_COUNTED && !isnan(e->stats.rse);
	print_row(&w, l);
	/* an event with no figure beside its count has no metric either: not counted, or no
	 * metric with a value anchored on it */
	if (w.has_metric)
		print_more_metrics(r, (size_t)(e - r->events), NULL, w.has_metric, l);
	if (r->nruns)
		print_outliers(r, e, l);
	print_note(e, 0, 0, l);
	if (e->split)
		print_split(r, e, l);
	print_note(e, 0, 1, l);
}

/* The unit's columns before the count, padded as perf 6.1 pads them (its aggr_printout,
 * a space for the separator): "CPU3       ", "S0-D0-C1           2 ", "S1        2 ",
 * "S0-D0-CLS0           4 ", "           sleep-20604    " (comm right, tid left). */
static void print_unit(const struct report *r, const struct report_unit *u, struct textline *l)
{
	const char *id = u->id, *dash;
	size_t num = strlen(id);
	char nb[TEXTLINE_NUM_LEN];

	if (r->aggr == REPORT_AGGR_THREAD) {	/* "%16.*s-%-8s " */
		dash = strrchr(id, '-');
		num = dash ? (size_t)(dash - id) : num;
		textline_spaces(l, num < 16 ? 16 - num : 0);
		textline_put(l, id, num);
		textline_put(l, "-", 1);
		textline_pad(l, dash ? dash + 1 : "", 8);
		textline_put(l, " ", 1);
		return;
	}
	/* perf pads the last number of the id: CPU%-7d, S%-5d, ...-C%-8d */
	while (num > 0 && ascii_isdigit((unsigned char)id[num - 1]))
		num--;
	textline_pad(l, id, num + (r->aggr == REPORT_AGGR_CPU ? 7 :
				   r->aggr == REPORT_AGGR_SOCKET ||
				   r->aggr == REPORT_AGGR_NODE ? 5 : 8));	/* "%-*s " */
	textline_put(l, " ", 1);
	if (report_unit_has_ncpus(r)) {	/* "%4d " of a count, never negative */
		textline_rpad(l, textline_str((unsigned)u->ncpus, 10, nb), 4);
		textline_put(l, " ", 1);
	}
}

/* e's row in unit u: of the totals (interval < 0) or of interval i, its time first. */
static void print_cell(const struct report *r, const struct report_event *e, size_t u,
		       long i, void *arg)
{
	const struct report_cell *c = report_cell_at(r, e, u, i);
	char num[40], t[TEXTLINE_SECS_LEN];
	struct text_row w = { .num = num, .name = e->name, .cgroup = report_cgroup_col(r, e),
			      .counted_pct = c->fig.counted_pct };
	struct textline *l = arg;

	if (i >= 0) {	/* "%16s " */
		textline_rpad(l, textline_secs(r->interval_t_ns[i], t), 16);
		textline_put(l, " ", 1);
	}
	print_unit(r, &r->units[u], l);
	w.unit = format_value(r, num, sizeof(num), e, c->fig.status, c->fig.value);
	w.has_metric = c->derived.unit != NULL;
	w.mval = c->derived.value;
	w.munit = c->derived.unit;
	w.pct = c->fig.status == REPORT_COUNTED && c->fig.counted_pct < 99.995;
	print_row(&w, l);
}

/* A time; with -r its mean, the standard error of the mean and its share, as perf -r. */
static void print_sec(const struct report *r, struct textline *l, uint64_t ns,
		      const struct stats_summary *st, const char *what, int run)
{
	int sem = r->nruns && !isnan(st->stddev);

	/* "%18.9f seconds %s\n", or "%18.9f +- %.9f seconds %s" and "  ( +- %5.2f%% )" */
	report_text_fixed(l, sem ? st->mean / 1e9 : ns / 1e9, 18, 9);
	if (sem) {
		textline_put(l, " +- ", 4);
		report_text_fixed(l, st->stddev / sqrt((double)st->n) / 1e9, 0, 9);
	}
	textline_put(l, " seconds ", 9);
	textline_puts(l, what);
	if (sem && !isnan(st->rse)) {
		textline_put(l, "  ( +- ", 7);
		report_text_fixed(l, 100.0 * st->rse, 5, 2);
		textline_put(l, "% )", 3);
	}
	if (run > 0) {	/* the planned run it is of (--mux=runs), as an event's "[run N]" */
		textline_puts(l, "   [run ");
		textline_num(l, (unsigned)run, 10, 0);
		textline_put(l, "]", 1);
	}
	textline_end(l);
}

/* One of the times (0: elapsed, 1: user, 2: sys): the report's, or with --mux=runs each
 * planned run's, each line naming its run. */
static void print_time(const struct report *r, struct textline *l, int which)
{
	static const char *const what[] = { "time elapsed", "user", "sys" };
	const struct stats_summary *st[] = { &r->wall_stats, &r->user_stats, &r->sys_stats };
	uint64_t ns[] = { r->wall_ns, r->user_ns, r->sys_ns };

	if (!r->plan_times) {
		print_sec(r, l, ns[which], st[which], what[which], r->time_run);
		return;
	}
	for (size_t p = 0; p < r->nplan_times; p++) {
		const struct report_plan_times *pt = &r->plan_times[p];
		const struct stats_summary *ps[] = { &pt->wall, &pt->user, &pt->sys };
		uint64_t pn[] = { pt->t.wall_ns, pt->t.user_ns, pt->t.sys_ns };

		print_sec(r, l, pn[which], ps[which], what[which], (int)p + 1);
	}
}

/* -I's header line for each aggregation, as perf 6.1 prints them (--per-cluster, which 6.1
 * lacks, in the shape of --per-core's). */
static const char *const interval_header[] = {
	[REPORT_AGGR_GLOBAL] = "#           time             counts unit events\n",
	[REPORT_AGGR_CPU] = "#           time CPU                    counts unit events\n",
	[REPORT_AGGR_CORE] = "#           time core            cpus             counts unit events\n",
	[REPORT_AGGR_CLUSTER] =
		"#           time cluster         cpus             counts unit events\n",
	[REPORT_AGGR_SOCKET] = "#           time socket cpus             counts unit events\n",
	[REPORT_AGGR_DIE] = "#           time die          cpus             counts unit events\n",
	[REPORT_AGGR_NODE] = "#           time node   cpus             counts unit events\n",
	[REPORT_AGGR_THREAD] =
		"#           time             comm-pid                  counts unit events\n",
};

/* -I: one line per event (and unit) and interval, as perf stat -I prints them: the
 * interval's end, then the row as the totals' ("%16.9f %18s %-4s %-32s # ..."), with the
 * figure derived over the interval beside the count. */
static void print_intervals(const struct report *r, struct textline *l)
{
	char t[TEXTLINE_SECS_LEN];

	if (r->disp.metric_only) {
		report_text_metric_only_intervals(r, l);
		return;
	}
	if (report_interval_heading(r))
		textline_puts(l, interval_header[r->aggr]);
	for (size_t i = r->interval_from; i < r->nintervals; i++) {
		if (r->aggr != REPORT_AGGR_GLOBAL) {
			report_each_cell(r, (long)i, print_cell, l);
			continue;
		}
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			const struct report_delta *d = &e->deltas[i];
			char num[40];
			/* the figure beside the count over the interval, as perf 6.1 prints it */
			struct text_row w = { .num = num, .name = e->name,
					      .cgroup = report_cgroup_col(r, e),
					      .has_metric = d->derived.unit != NULL,
					      .mval = d->derived.value, .munit = d->derived.unit };

			w.unit = format_value(r, num, sizeof(num), e, d->fig.status, d->fig.value);
			/* the share of the interval counted, when the kernel multiplexed */
			w.counted_pct = d->fig.counted_pct;
			w.pct = d->fig.status == REPORT_COUNTED && w.counted_pct < 99.995;
			textline_rpad(l, textline_secs(r->interval_t_ns[i], t), 16);
			textline_put(l, " ", 1);
			print_row(&w, l);
		}
	}
}

/* " Performance counter stats for 'CMD ARGS':", or for perf's target: 'system wide',
 * 'CPU(s) 0-3', process id '1234' (a target that quotes itself is printed as it is). */
static void print_header(const struct report *r, struct textline *l)
{
	int quoted = r->target && strchr(r->target, '\'');

	textline_puts(l, "\n Performance counter stats for ");
	if (!quoted)
		textline_put(l, "'", 1);
	if (r->target)
		textline_puts(l, r->target);
	else
		print_command(r, l);
	if (!quoted)
		textline_put(l, "'", 1);
	if (r->nruns) {	/* " (%zu run%s)" */
		textline_put(l, " (", 2);
		textline_num(l, r->nruns, 10, 0);
		textline_puts(l, r->nruns == 1 ? " run)" : " runs)");
	}
	textline_puts(l, r->interrupted ? " (interrupted):\n\n" : ":\n\n");
}

/* The totals: a row per event, or per event and unit. */
static void print_totals(const struct report *r, struct textline *l)
{
	if (r->aggr == REPORT_AGGR_GLOBAL) {
		for (size_t k = 0; k < r->nevents; k++)
			print_event(r, &r->events[k], l);
		return;
	}
	report_each_cell(r, -1, print_cell, l);
	for (size_t k = 0; k < r->nevents; k++) {
		print_note(&r->events[k], 1, 0, l);
		print_note(&r->events[k], 1, 1, l);
	}
}

/* v as %d */
static void put_int(struct textline *l, long v)
{
	if (v < 0)
		textline_put(l, "-", 1);
	textline_num(l, v < 0 ? 0ul - (unsigned long)v : (unsigned long)v, 10, 0);
}

/* The lines after the table: the times, and how the run ended when not by itself. */
static void print_end(const struct report *r, struct textline *l)
{
	const char *sig;

	if (r->multiplexed)
		textline_puts(l, "\n Values with (xx.xx%) are estimates: scaled from that share of "
			      "the time counted.\n");
	if (r->nevents)	/* -n has no table: the heading's blank line is the one, as perf's */
		textline_put(l, "\n", 1);
	print_time(r, l, 0);
	/* the command's own times; perf leaves them out when it counted a target */
	if (!r->target) {
		textline_put(l, "\n", 1);
		print_time(r, l, 1);
		print_time(r, l, 2);
	}
	if (r->stopped) {
		textline_puts(l, "\n The series stopped early: ");
		textline_puts(l, r->stopped);
		textline_put(l, " (", 2);
		textline_num(l, r->nruns, 10, 0);
		textline_put(l, " of ", 4);
		textline_num(l, r->repeat, 10, 0);
		textline_puts(l, " runs recorded).\n");
	}
	if (r->interval_stop) {
		textline_puts(l, "\n Intervals stopped after ");
		textline_num(l, r->nintervals, 10, 0);
		textline_puts(l, " (--interval-count); the totals are of the whole run.\n");
	}
	if (r->timed_out) {
		textline_puts(l, "\n Counting ended at the timeout (--timeout ");
		textline_num(l, r->timeout_ms, 10, 0);
		textline_puts(l, " ms).\n");
	}
	if (r->term_signal) {
		sig = sigabbrev_np(r->term_signal);
		textline_puts(l, "\n The command was killed by signal ");
		put_int(l, r->term_signal);
		textline_puts(l, " (SIG");
		textline_puts(l, sig ? sig : "?");
		textline_puts(l, ").\n");
	} else if (r->exit_code) {
		textline_puts(l, "\n The command exited with status ");
		put_int(l, r->exit_code);
		textline_puts(l, ".\n");
	}
	textline_put(l, "\n", 1);
}

int report_text(const struct report *r, FILE *out)
{
	char b[4096];
	struct textline tl = TEXTLINE_ON(out, b), *l = &tl;

	if (report_has_intervals(r) && r->interval_from < r->nintervals)
		print_intervals(r, l);
	/* live -I: an interval as it ended, the totals come last; -I --no-summary: the intervals
	 * are the whole report, as perf -I's without --summary */
	if (!r->interval_slice && !(r->disp.no_summary && report_has_intervals(r))) {
		print_header(r, l);
		if (r->disp.metric_only)
			report_text_metric_only(r, l);
		else
			print_totals(r, l);
		report_text_topdown(r, l);
		report_text_missing_metrics(r, l);
		print_end(r, l);
	}
	textline_flush(l);
	return textline_failed(l) ? -1 : 0;
}
