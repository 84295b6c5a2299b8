/* SPDX-License-Identifier: Apache-2.0 */
/* stat_output.c: where pmuprof stat addresses the user: its report written in the format
 * asked for, the warning that the kernel multiplexed, the --min-running verdict, and -I's
 * intervals written as they end. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "stat_cmd.h"

static int format_report(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	if (o->json)
		return report_json(r, fp);
	if (o->sep)
		return report_csv(r, fp, o->sep);
	return report_text(r, fp);
}

/* A report this small is rendered on the stack (most are: 6 events take 456 bytes; so are
 * most -I intervals printed as they end). */
#define REPORT_STACK 4096

/* JSON or CSV to stderr, rendered in memory first: on the stack when it fits, else in
 * open_memstream's buffer. */
#if defined(__GNUC__)
__attribute__((noinline))	/* its buffers on the stack only while it writes */
#endif
static int write_mem(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	char small[REPORT_STACK], iobuf[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	long end;
	int rc;

	/* the small buffer, unless the report is surely bigger (some 100 bytes a line): then
	 * straight to the heap */
	if ((r->nevents + r->nmetrics) * (r->nunits + 1) <= 32 &&
	    (!r->nintervals || r->interval_slice) &&
	    (mem = fmemopen(small, sizeof(small), "w"))) {
		/* its own stream buffer, given before any use: fmemopen's would be on the heap */
		rc = setvbuf(mem, iobuf, _IOFBF, sizeof(iobuf)) == 0 ? format_report(o, r, mem) : -1;
		end = rc == 0 && fflush(mem) == 0 && !ferror(mem) ? ftell(mem) : -1;
		fclose(mem);
		/* fmemopen keeps a byte for the NUL: a report that fills the rest may be cut */
		if (end >= 0 && (size_t)end < sizeof(small) - 1)
			return fwrite(small, 1, (size_t)end, fp) == (size_t)end ? 0 : -1;
	}
	if (!(mem = open_memstream(&buf, &len)))
		return format_report(o, r, fp);
	rc = format_report(o, r, mem);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && fwrite(buf, 1, len, fp) != len)
		rc = -1;
	free(buf);
	return rc;
}

int stat_output_write(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	if (fp != stderr || (!o->json && !o->sep))
		return format_report(o, r, fp);
	return write_mem(o, r, fp);
}

/* One warning when the kernel multiplexed: how many runs would make the counts exact. */
void stat_output_mux_warn(const struct report *r, const struct stat_planned *pl)
{
	char fx[32];
	const char *pct, *some, *of;
	double lo = 100;
	int never = 0;

	if (!r->multiplexed)
		return;
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_figures *f = &r->events[k].fig;

		if (f->status == REPORT_NOT_COUNTED)
			never = 1;
		else if (f->status == REPORT_COUNTED && f->counted_pct < lo)
			lo = f->counted_pct;
	}
	snprintf(fx, sizeof(fx), "%.2f", lo);
	pct = fx;
	/* an event never on a counter has no value at all, an estimate least of all (its row
	 * says "not counted", as perf's does): say so, and the share only of those counted */
	some = !never ? "some were counted only " : lo < 100 ?
		"some were never on a counter and are not counted, others counted only " :
		"some were never on a counter and are not counted";
	if (never && lo >= 100)		/* the others were counted all the time: no share */
		pct = of = "";
	else
		of = "% of the time and their values are estimates";
	if (pl->known && pl->nruns > 1)
		msg_warn("the events did not fit the counters (%s): the kernel multiplexed them, "
			 "%s%s%s; --mux=runs would count them exactly in %zu runs of the command",
			 pl->caps, some, pct, of, pl->nruns);
	else
		msg_warn("the kernel multiplexed the events (%s%s%s); --mux=runs counts each "
			 "planned group in a run of its own", some, pct, of);
}

/* --min-running: an event counted for less than PCT of the time; one not counted at all
 * (not counted, not supported, not permitted) is counted 0% of it: a machine without the
 * PMU must not pass the gate. --min-running 0 passes everything. */
int stat_output_below_min(const struct stat_opts *o, const struct report *r)
{
	int below = 0;

	for (size_t k = 0; o->min_running > 0 && k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		double pct = e->fig.status == REPORT_COUNTED ? e->fig.counted_pct : 0;

		if (pct >= o->min_running)
			continue;
		if (below++)
			continue;
		if (e->fig.status == REPORT_COUNTED)
			msg_error("'%s' was counted %.2f%% of the time, less than --min-running %g "
				  "(exit status %d)", e->name, pct, o->min_running,
				  STAT_EXIT_MIN_RUNNING);
		else
			msg_error("'%s' was not counted at all (%s), less than --min-running %g "
				  "(exit status %d)", e->name, report_status_str(e->fig.status),
				  o->min_running, STAT_EXIT_MIN_RUNNING);
	}
	return below > 0;
}

/* Where the report goes when -o does not take it: --log-fd's stream, else standard error. */
static FILE *stat_output_stream(const struct stat_opts *o)
{
	return o->log ? o->log : stderr;
}

int stat_live_wanted(const struct stat_opts *o)
{
	return o->interval_ms && !o->json && !o->output && !o->quiet;
}

int stat_tick_wanted(const struct stat_opts *o)
{
	return stat_live_wanted(o) || (o->interval_ms && export_has(&o->exports, EXPORT_OPENMETRICS));
}

/* Each total (events, their parts, their units) no lower than at the interval before: a
 * counter that a collector reads must not go back, and a multiplexed estimate can dip. The
 * report's shape is the same at every interval; when it is not, the marks start again. */
static void hold_high(struct stat_live *lv, struct report *r)
{
	size_t n = 0, j = 0;
	double *h;

	for (size_t k = 0; k < r->nevents; k++)
		n += 1 + r->events[k].nsplit + (r->events[k].cells ? r->nunits : 0);
	if (n != lv->nhigh) {
		if (!(h = calloc(n + 1, sizeof(*h))))
			return;
		free(lv->high);
		lv->high = h;
		lv->nhigh = n;
	}
	for (size_t k = 0; k < r->nevents; k++) {
		struct report_event *e = &r->events[k];
		/* the parts are this tick's report's own, made by stat_report_build above */
		struct report_part *parts = (struct report_part *)e->split;

		for (size_t i = 0; i <= e->nsplit + (e->cells ? r->nunits : 0); i++, j++) {
			struct report_figures *f = !i ? &e->fig : i <= e->nsplit ?
						   &parts[i - 1].fig : &e->cells[i - 1 - e->nsplit].fig;

			if (f->value < lv->high[j])
				f->value = lv->high[j];
			lv->high[j] = f->value;
		}
	}
}

/* -I --export openmetrics:FILE: FILE rewritten with the counts so far, atomically. */
static void rewrite_textfiles(struct stat_live *lv, struct report *r)
{
	size_t k = 0;
	int e;

	hold_high(lv, r);
	if (!(e = export_commit_totals(&lv->o->exports, r, &k)) || lv->textfile_failed++)
		return;
	msg_warn("cannot rewrite '%s' at this interval: %s (trying again at each interval)",
		 lv->o->exports.spec[k].path, strerror(e));
}

void stat_live_tick(void *arg, const struct stat_counters *cs, const struct stat_ticks *t)
{
	struct stat_live *lv = arg;
	const struct stat_opts *o = lv->o;
	struct stat_series one = { .nruns = 1 };
	struct stat_build b = *lv->b;
	struct report r = { .tool_version = PMUPROF_VERSION, .argc = o->cmdc, .argv = o->cmd,
			    .disp = o->disp, .interval_ms = o->interval_ms,
			    .csv_no_summary = o->no_csv_summary, .interval_slice = 1 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	size_t i = t->n - 1;
	int rc;

	if (lv->stopped || lv->shown != i)
		return;
	if (!stat_live_wanted(o))
		lv->shown = i;	/* nothing printed: a textfile only */
	b.repeated = 0;
	b.intervals = 1;
	r.interval_base = i;
	r.interval_t0_ns = i ? t->t_ns[i - 1] : 0;
	if (stat_record_interval(&one.rd, lv->rows, cs, t, i) != 0 ||
	    stat_report_build(&r, &one, lv->rows, lv->nrows, &b) != 0) {
		lv->stopped = 1;
		goto out;
	}
	/* a reader gone (2>&1 | head) fails the write, not pmuprof: the command runs on and
	 * its status is kept. Only around the write: what pmuprof starts later (--cleanup)
	 * must not inherit SIGPIPE ignored */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	rc = stat_live_wanted(o) ? stat_output_write(o, &r, stat_output_stream(o)) : 0;
	if (o->log && fflush(o->log) != 0)	/* each interval as it ends, as on stderr */
		rc = -1;
	sigaction(SIGPIPE, &old, NULL);
	if (rc != 0)
		lv->stopped = 1;
	else
		lv->shown++;
	if (o->interval_ms && export_has(&o->exports, EXPORT_OPENMETRICS))
		rewrite_textfiles(lv, &r);
out:
	stat_report_free(&r);
	stat_series_free(&one);
}

/* "w" does not truncate (the shell opened it, 3>> appends) and, unlike "a", leaves the
 * descriptor's flags, which the command inherits, as they were. */
int stat_output_open_log(struct stat_opts *o)
{
	int fl = fcntl(o->log_fd, F_GETFL);

	if (fl < 0) {
		msg_error("--log-fd %d: descriptor %d is not open (open it for pmuprof, as in "
			  "'%d>report.txt')", o->log_fd, o->log_fd, o->log_fd);
		return -1;
	}
	if ((fl & O_ACCMODE) == O_RDONLY) {
		msg_error("--log-fd %d: descriptor %d is open for reading only (open it for "
			  "writing, as in '%d>report.txt')", o->log_fd, o->log_fd, o->log_fd);
		return -1;
	}
	if (!(o->log = fdopen(o->log_fd, "w"))) {
		msg_error("--log-fd %d: %s", o->log_fd, strerror(errno));
		return -1;
	}
	return 0;
}
