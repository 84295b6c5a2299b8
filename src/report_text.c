/* report_text.c: the report in perf stat's familiar text shape. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "mxtab.h"
#include "report.h"
#include "strbuf.h"
#include "textline.h"

/* 1234567 -> "1,234,567": perf groups digits through the locale (by default: its -B is on
 * unless --no-big-num); pmuprof groups them whatever the locale, or not at all (plain). By
 * hand, not through snprintf: it is printed for every row (issue 16's cost per event). */
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
	int ns = strcmp(e->unit, "ns") == 0;
	char fx[TEXTLINE_FIXED_LEN];
	const char *f;

	if (st != REPORT_COUNTED)	/* "<%s>" */
		strjoin(num, len, (const char *const[]){ "<", report_status_str(st), ">" }, 3);
	else if (ns && (f = textline_fixed(v / 1e6, 2, fx)))
		strjoin(num, len, &f, 1);
	else if (ns)
		snprintf(num, len, "%.2f", v / 1e6);
	else
		group_digits(num, len, (uint64_t)(v + 0.5), r->disp.no_big_num);
	return ns ? "msec" : "";
}

static void print_command(const struct report *r, FILE *out)
{
	for (int k = 0; k < r->argc; k++) {
		if (k)
			fputc(' ', out);
		fputs(r->argv[k], out);
	}
}

/* "%*.*f" by copying (textline_fixed), printf only for what it cannot be sure of: a run's
 * report then reads none of printf's pages of libc (issue 16). */
static void tl_fixed(struct textline *l, double v, int width, int prec)
{
	char buf[TEXTLINE_FIXED_LEN], wide[400];
	const char *s = textline_fixed(v, prec, buf);

	if (!s) {
		snprintf(wide, sizeof(wide), "%*.*f", width, prec, v);
		s = wide;
	}
	textline_rpad(l, s, width > 0 ? (size_t)width : 0);	/* right-justified, as %*.*f */
}

static void put_fixed(double v, int width, int prec, FILE *out)
{
	char b[512];
	struct textline l = TEXTLINE_ON(out, b);

	tl_fixed(&l, v, width, prec);
	textline_flush(&l);
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

/* A metric in the metric column: " #    1.250 insn per cycle", a share " #    55.00% name"
 * (its label "% name"). */
static void tl_metric(struct textline *l, double v, const char *label)
{
	int share = !strncmp(label, "% ", 2);

	textline_put(l, " # ", 3);
	tl_fixed(l, v, 8, share ? 2 : 3);	/* " # %8.2f%% %s" or " # %8.3f %s" */
	textline_pad(l, share ? "% " : " ", 0);
	textline_pad(l, share ? label + 2 : label, 0);
}

/* The metrics beside event idx after the first, each on a line of its own in the metric
 * column (perf's layout for a second metric); pmu: a core type's, under its part's line. */
static void print_more_metrics(const struct report *r, size_t idx, const char *pmu, int skip,
			       FILE *out)
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
		char b[512];
		struct textline l = TEXTLINE_ON(out, b);

		textline_pad(&l, "", 18 + 1 + 4 + 1 + 32);	/* "%18s %-4s %-32s" of "" */
		tl_metric(&l, m->value, m->label);
		textline_pad(&l, m->estimate ? " (estimate)" : "", 0);
		textline_end(&l);
		textline_flush(&l);
	}
}

/* big.LITTLE: under the total, the event on each core type the command may run on, named as
 * perf names a hybrid PMU's event ("armv8_cortex_a55/cycles/"), with the share of the time
 * it ran there. */
static void print_split(const struct report *r, const struct report_event *e, FILE *out)
{
	for (size_t i = 0; i < e->nsplit; i++) {
		const struct report_part *p = &e->split[i];
		char num[40], name[128], where[192];
		const char *unit;
		int len;

		unit = format_value(r, num, sizeof(num), e, p->status, p->value);
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
		print_more_metrics(r, (size_t)(e - r->events), p->pmu, 0, out);
	}
}

/* One row's figures after its leading columns (time, unit): the count, its unit, the event,
 * and what perf prints after them. */
struct text_row {
	const char *num, *unit, *name;
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
			const char *name, size_t name_width)
{
	textline_rpad(l, num, 18);
	textline_put(l, " ", 1);
	textline_pad(l, unit, 4);
	textline_put(l, " ", 1);
	textline_pad(l, name, name_width);
}

static void print_row(const struct text_row *w, FILE *out)
{
	char tb[1024];
	struct textline l = TEXTLINE_ON(out, tb);
	/* "%*s" of "" before the noise or the share: |gap| spaces, whichever its sign */
	int gap = w->has_metric ? 20 - (int)strlen(w->munit) : 31;
	size_t spaces = gap < 0 ? (size_t)-gap : (size_t)gap;

	/* the name padded to 32 only where something follows */
	put_columns(&l, w->num, w->unit, w->name, w->has_metric || w->pct || w->noise ? 32 : 0);
	if (w->has_metric)
		tl_metric(&l, w->mval, w->munit);
	if (w->noise) {	/* perf stat -r's "( +- x% )": the relative standard error */
		textline_pad(&l, "", spaces);
		textline_put(&l, " ( +- ", 6);
		tl_fixed(&l, 100.0 * w->rse, 5, 2);
		textline_put(&l, "% )", 3);
	}
	if (w->pct) {	/* "%*s (%.2f%%)": the share of the time counted, after the noise */
		textline_pad(&l, "", w->noise ? 0 : spaces);
		textline_put(&l, " (", 2);
		tl_fixed(&l, w->counted_pct, 0, 2);
		textline_put(&l, "%)", 2);
	}
	if (w->run > 0) {	/* "%s [run %d]": a planned run, numbered from 1 */
		textline_pad(&l, w->has_metric || w->pct || w->noise ? " [run " : "   [run ", 0);
		textline_num(&l, (unsigned)w->run, 10, 0);
		textline_put(&l, "]", 1);
	}
	textline_end(&l);
	textline_flush(&l);
}

/* The lines under an event's row: its note, and (mark) the mark of a request Linux cannot
 * count as asked; named lines (after the table) where the event has rows per unit. */
static void print_note(const struct report_event *e, int named, int mark, FILE *out)
{
	const char *name = named ? e->name : "", *colon = named ? ": " : "";
	char note[256];

	if (!mark && e->note)
		fprintf(out, "%18s %-4s # %s%s%s: %s\n", "", "", name, colon,
			report_status_str(e->status), e->note);
	if (mark && e->marked)
		fprintf(out, "%18s %-4s ^ %s%s%s\n", "", "", name, colon,
			report_mark_note(e, note, sizeof(note)));
}

/* A metric's value as the tree shows it: a share in %, else the value and its unit. */
static void tree_value(const struct report_metric_value *m, FILE *out)
{
	const char *unit = mxtab_metric_unit(m->def);

	if (!isfinite(m->value))
		fprintf(out, "%12s  (%s)", "-", m->reason);
	else if (!strncmp(unit, "percent", 7))
		fprintf(out, "%11.2f%%", m->value);
	else
		fprintf(out, "%12.3f  %s", m->value, unit);
	fputs(m->estimate ? "  (estimate)\n" : "\n", out);
}

/* --topdown: stage 1, each node's share, and under each dominant node ("=>") the stage-2
 * groups it leads to, with their metrics. */
static void print_topdown(const struct report *r, FILE *out)
{
	const struct report_metric_value *node[16];
	int dominant[16];
	size_t n = metrics_topdown_nodes(r, node, dominant, 16);

	if (!r->topdown_group)
		return;
	fprintf(out, "\n Top-down, %s (%s): %s\n", n ? node[0]->core : "no core data",
		r->topdown_group, r->topdown_how ? r->topdown_how : "");
	for (size_t i = 0; i < n; i++) {
		const char *next = mxtab_metric_next(node[i]->def);
		const struct mxtab_group *g;

		fprintf(out, " %s %-36s", dominant[i] ? "=>" : "  ", mxtab_metric_name(node[i]->def));
		tree_value(node[i], out);
		if (!dominant[i])
			continue;
		while ((g = metrics_next_group(r->topdown_set, &next))) {
			fprintf(out, "     %s\n", mxtab_group_name(g));
			for (size_t k = 0; k < mxtab_group_nmetrics(g); k++) {
				const struct report_metric_value *m =
					metrics_find(r, mxtab_metric_name(mxtab_group_metric(g, k)));

				if (!m)
					continue;
				fprintf(out, "       %-32s", mxtab_metric_name(m->def));
				tree_value(m, out);
			}
		}
	}
}

/* The metrics -M asked for that have no value, each with the reason. */
static void print_missing_metrics(const struct report *r, FILE *out)
{
	int any = 0;

	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct report_metric_value *m = &r->metrics[k];

		if (!m->requested || isfinite(m->value))
			continue;
		if (!any++)
			fputs("\n Metrics not computed:\n", out);
		fprintf(out, "   %s%s%s: %s\n", mxtab_metric_name(m->def), m->pmu ? " on " : "",
			m->pmu ? m->pmu : "", m->reason);
	}
}

static void print_event(const struct report *r, const struct report_event *e, FILE *out)
{
	char num[40];
	struct text_row w = { .num = num, .name = e->name, .rse = e->stats.rse,
			      .counted_pct = e->counted_pct, .run = e->run };

	w.has_metric = report_metric(r, e, &w.mval, &w.munit);
	w.unit = format_value(r, num, sizeof(num), e, e->status, e->value);
	w.pct = e->status == REPORT_COUNTED && e->counted_pct < 99.995;
	w.noise = r->nruns && e->status == REPORT_COUNTED && !isnan(e->stats.rse);
	print_row(&w, out);
	print_more_metrics(r, (size_t)(e - r->events), NULL, w.has_metric, out);
	if (r->nruns)
		print_outliers(r, e, out);
	print_note(e, 0, 0, out);
	if (e->split)
		print_split(r, e, out);
	print_note(e, 0, 1, out);
}

/* The unit's columns before the count, padded as perf 6.1 pads them (its aggr_printout,
 * a space for the separator): "CPU3       ", "S0-D0-C1           2 ", "S1        2 ",
 * "S0-D0-CLS0           4 ", "           sleep-20604    " (comm right, tid left). */
static void print_unit(const struct report *r, const struct report_unit *u, FILE *out)
{
	const char *id = u->id, *dash;
	int num = (int)strlen(id);

	if (r->aggr == REPORT_AGGR_THREAD) {
		dash = strrchr(id, '-');
		fprintf(out, "%16.*s-%-8s ", dash ? (int)(dash - id) : num, id, dash ? dash + 1 : "");
		return;
	}
	/* perf pads the last number of the id: CPU%-7d, S%-5d, ...-C%-8d */
	while (num > 0 && isdigit((unsigned char)id[num - 1]))
		num--;
	fprintf(out, "%-*s ", num + (r->aggr == REPORT_AGGR_CPU ? 7 :
				     r->aggr == REPORT_AGGR_SOCKET ||
				     r->aggr == REPORT_AGGR_NODE ? 5 : 8), id);
	if (report_unit_has_ncpus(r))
		fprintf(out, "%4d ", u->ncpus);
}

/* e's row in unit u: of the totals (interval < 0) or of interval i, its time first. */
static void print_cell(const struct report *r, const struct report_event *e, size_t u,
		       long i, void *arg)
{
	const struct report_cell *c = report_cell_at(r, e, u, i);
	char num[40], t[TEXTLINE_SECS_LEN];
	struct text_row w = { .num = num, .name = e->name, .counted_pct = c->counted_pct };
	FILE *out = arg;

	if (i >= 0)
		fprintf(out, "%16s ", textline_secs(r->interval_t_ns[i], t));
	print_unit(r, &r->units[u], out);
	w.unit = format_value(r, num, sizeof(num), e, c->status, c->value);
	w.has_metric = report_cell_metric(r, e, u, i, i < 0 ? 0 : report_interval_ns(r, (size_t)i),
					  &w.mval, &w.munit);
	w.pct = c->status == REPORT_COUNTED && c->counted_pct < 99.995;
	print_row(&w, out);
}

/* A time; with -r its mean, the standard error of the mean and its share, as perf -r. */
static void print_sec(const struct report *r, FILE *out, uint64_t ns,
		      const struct stats_summary *st, const char *what)
{
	if (!r->nruns || isnan(st->stddev)) {	/* "%18.9f seconds %s\n" */
		put_fixed(ns / 1e9, 18, 9, out);
		fputs(" seconds ", out);
		fputs(what, out);
		fputc('\n', out);
		return;
	}
	fprintf(out, "%18.9f +- %.9f seconds %s", st->mean / 1e9,
		st->stddev / sqrt((double)st->n) / 1e9, what);
	if (!isnan(st->rse))
		fprintf(out, "  ( +- %5.2f%% )", 100.0 * st->rse);
	fputc('\n', out);
}

/* One --metric-only line: the metrics' units (values 0), each right-aligned in 20 columns
 * (perf's METRIC_ONLY_LEN), or their values over the totals (interval < 0) or interval i,
 * each under its unit (blank where the interval has none). */
static void metric_only_line(const struct report *r, long i, int values, FILE *out)
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
		fprintf(out, "%*s ", values ? w : 20, values ? num : unit);
	}
	fputc('\n', out);
}

/* --metric-only, as perf 6.1 lays it out: a line of the metrics' units, then a line of their
 * values; after -I's intervals, the values only (perf prints the units once, over the
 * intervals). perf shows no rate per second nor CPUs utilized there
 * (report_metric_only_unit): with software events only, the lines are empty, as perf's are. */
static void print_metric_only(const struct report *r, FILE *out)
{
	if (!report_has_intervals(r))
		metric_only_line(r, -1, 0, out);
	metric_only_line(r, -1, 1, out);
}

/* -I --metric-only: perf's "#           time " heading over the units, then a line per
 * interval, its end time and the metrics' values over it. */
static void print_metric_only_intervals(const struct report *r, FILE *out)
{
	char t[TEXTLINE_SECS_LEN];

	if (report_interval_heading(r)) {
		fputs("#           time ", out);
		metric_only_line(r, -1, 0, out);
	}
	for (size_t i = r->interval_from; i < r->nintervals; i++) {
		fprintf(out, "%16s ", textline_secs(r->interval_t_ns[i], t));
		metric_only_line(r, (long)i, 1, out);
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

/* -I: one line per event (and unit) and interval, as perf stat -I prints them
 * ("%16.9f %18s %-4s %s" for the whole machine, by copying). */
static void print_intervals(const struct report *r, FILE *out)
{
	char tb[1024];
	struct textline l = TEXTLINE_ON(out, tb);
	char t[TEXTLINE_SECS_LEN];

	if (r->disp.metric_only) {
		print_metric_only_intervals(r, out);
		return;
	}
	if (report_interval_heading(r))
		fputs(interval_header[r->aggr], out);
	for (size_t i = r->interval_from; i < r->nintervals; i++) {
		if (r->aggr != REPORT_AGGR_GLOBAL) {
			report_each_cell(r, (long)i, print_cell, out);
			continue;
		}
		for (size_t k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			const struct report_delta *d = &e->deltas[i];
			char num[40];
			const char *unit = format_value(r, num, sizeof(num), e, d->counted ?
				REPORT_COUNTED : e->status == REPORT_COUNTED ? REPORT_NOT_COUNTED :
				e->status, d->value);

			textline_rpad(&l, textline_secs(r->interval_t_ns[i], t), 16);
			textline_put(&l, " ", 1);
			put_columns(&l, num, unit, e->name, 0);
			textline_end(&l);
		}
	}
	textline_flush(&l);
}

/* " Performance counter stats for 'CMD ARGS':", or for perf's target: 'system wide',
 * 'CPU(s) 0-3', process id '1234' (a target that quotes itself is printed as it is). */
static void print_header(const struct report *r, FILE *out)
{
	fputs("\n Performance counter stats for ", out);
	if (r->target && strchr(r->target, '\''))
		fputs(r->target, out);
	else if (r->target) {
		fputc('\'', out);
		fputs(r->target, out);
		fputc('\'', out);
	}
	else {
		fputc('\'', out);
		print_command(r, out);
		fputc('\'', out);
	}
	if (r->nruns)
		fprintf(out, " (%zu run%s)", r->nruns, r->nruns == 1 ? "" : "s");
	fputs(r->interrupted ? " (interrupted):\n\n" : ":\n\n", out);
}

/* The totals: a row per event, or per event and unit. */
static void print_totals(const struct report *r, FILE *out)
{
	if (r->aggr == REPORT_AGGR_GLOBAL) {
		for (size_t k = 0; k < r->nevents; k++)
			print_event(r, &r->events[k], out);
		return;
	}
	report_each_cell(r, -1, print_cell, out);
	for (size_t k = 0; k < r->nevents; k++) {
		print_note(&r->events[k], 1, 0, out);
		print_note(&r->events[k], 1, 1, out);
	}
}

int report_text(const struct report *r, FILE *out)
{
	if (report_has_intervals(r) && r->interval_from < r->nintervals)
		print_intervals(r, out);
	if (r->interval_slice)	/* live -I: an interval as it ended, the totals come last */
		return ferror(out) ? -1 : 0;
	/* -I --no-summary: the intervals are the whole report, as perf -I's without --summary */
	if (r->disp.no_summary && report_has_intervals(r))
		return ferror(out) ? -1 : 0;
	print_header(r, out);
	if (r->disp.metric_only)
		print_metric_only(r, out);
	else
		print_totals(r, out);
	print_topdown(r, out);
	print_missing_metrics(r, out);
	if (r->multiplexed)
		fputs("\n Values with (xx.xx%) are estimates: scaled from that share of the time "
		      "counted.\n", out);
	fputc('\n', out);
	print_sec(r, out, r->wall_ns, &r->wall_stats, "time elapsed");
	/* the command's own times; perf leaves them out when it counted a target */
	if (!r->target) {
		fputc('\n', out);
		print_sec(r, out, r->user_ns, &r->user_stats, "user");
		print_sec(r, out, r->sys_ns, &r->sys_stats, "sys");
	}
	if (r->stopped)
		fprintf(out, "\n The series stopped early: %s (%zu of %zu runs recorded).\n",
			r->stopped, r->nruns, r->repeat);
	if (r->interval_stop)
		fprintf(out, "\n Intervals stopped after %zu (--interval-count); the totals are "
			"of the whole run.\n", r->nintervals);
	if (r->timed_out)
		fprintf(out, "\n Counting ended at the timeout (--timeout %u ms).\n", r->timeout_ms);
	if (r->term_signal)
		fprintf(out, "\n The command was killed by signal %d (SIG%s).\n", r->term_signal,
			sigabbrev_np(r->term_signal) ? sigabbrev_np(r->term_signal) : "?");
	else if (r->exit_code)
		fprintf(out, "\n The command exited with status %d.\n", r->exit_code);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
