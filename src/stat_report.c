/* stat_report.c: the report of pmuprof stat, built from the series' readings alone. They
 * are aggregated (aggregate.h: the whole command, and per core type for an event split over
 * them), then each event gets its values over the recorded runs, their statistics (-r), its
 * deltas per interval (-I), and the metrics are derived from the same rows. The events'
 * entries give identities (names, PMUs, configs), never numbers. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "stat.h"

/* An event's figures (or a part's) over the recorded runs. */
struct figures {
	enum report_status status;
	const char *reason;
	uint64_t raw, enabled, running;	/* means over the runs that have a row */
	uint64_t wall_ns;		/* mean wall time of the runs that counted it */
	double value;			/* mean over the runs that counted it */
	double pct;			/* running / window, over those runs */
	int scaled;
	size_t counted;			/* runs that counted it */
};

static enum report_status status_of(const struct agg_row *w)
{
	switch (w->status) {
	case AGG_COUNTED:
		return REPORT_COUNTED;
	case AGG_NOT_COUNTED:
		return REPORT_NOT_COUNTED;
	case AGG_ABSENT:
		return REPORT_ABSENT;
	case AGG_NOT_OPENED:
	default:
		return counter_status(w->err) == PP_EACCES ? REPORT_NOT_PERMITTED
							   : REPORT_NOT_SUPPORTED;
	}
}

static const char *reason_of(const struct agg_row *w, int part)
{
	switch (w->status) {
	case AGG_NOT_COUNTED:
		return part ? "never on a counter of these CPUs" : "never on a counter";
	case AGG_NOT_OPENED:
		return strerrorname_np(w->err);
	default:
		return NULL;
	}
}

/* The figures of (ev, unit) from rows (one mode's, totals and intervals) over the nruns
 * recorded runs; vals[i] gets run i's value (NAN: not counted in it) when vals is given. */
static void over_runs(const struct agg_row *rows, size_t nrows, const struct readings *rd,
		      uint32_t ev, int32_t unit, size_t nruns, double *vals, int part,
		      const char *fixture, struct figures *f)
{
	double raw = 0, win = 0, ru = 0, val = 0, wall = 0;
	size_t have = 0;
	const struct agg_row *last = NULL;

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < nruns; i++) {
		struct agg_key k = { ev, unit, (uint32_t)i, READING_TOTAL };
		const struct agg_row *w = agg_find(rows, nrows, &k);
		const struct reading_run *run;

		if (vals)
			vals[i] = NAN;
		if (!w)
			continue;
		last = w;
		have++;
		raw += (double)w->raw;
		win += (double)w->window;
		ru += (double)w->running;
		f->scaled |= w->scaled;
		if (w->status != AGG_COUNTED)
			continue;
		f->counted++;
		val += w->value;
		if (vals)
			vals[i] = w->value;
		if ((run = readings_run(rd, (uint32_t)i, w->plan_run)))
			wall += (double)run->wall_ns;
	}
	if (!last) {
		/* no reading: never opened, its PMU being a fixture tree's (stat_plan), or its
		 * planned run never happened (an earlier one failed) */
		f->status = REPORT_NOT_COUNTED;
		f->reason = fixture ? fixture : "not run: an earlier planned run failed";
		return;
	}
	f->raw = (uint64_t)(raw / (double)have + 0.5);
	f->enabled = (uint64_t)(win / (double)have + 0.5);
	f->running = (uint64_t)(ru / (double)have + 0.5);
	if (!f->counted) {
		f->status = status_of(last);
		f->reason = reason_of(last, part);
		/* an event no core type has: for the event as asked, not supported (a part of it
		 * is absent on its core type) */
		if (!part && last->status == AGG_ABSENT) {
			f->status = REPORT_NOT_SUPPORTED;
			f->reason = "ENOENT";
		}
		return;
	}
	f->status = REPORT_COUNTED;
	f->value = val / (double)f->counted;
	f->wall_ns = (uint64_t)(wall / (double)f->counted + 0.5);
	f->pct = win > 0 ? 100.0 * ru / win : 100.0;
}

/* The event's identity: what it is, never what it counted. */
static void fill_identity(struct report_event *re, const struct stat_event *e)
{
	const struct perf_event_attr *a = &e->sel.ev.attr;

	re->name = e->sel.ev.name;
	re->pmu = e->sel.ev.pmu;
	re->unit = e->sel.ev.unit;
	re->type = a->type;
	re->config = a->config;
	re->config1 = a->config1;
	re->config2 = a->config2;
	re->excl_user = a->exclude_user;
	re->excl_kernel = a->exclude_kernel;
	re->excl_hv = a->exclude_hv;
	re->excl_host = a->exclude_host;
	re->excl_guest = a->exclude_guest;
	re->group = e->sel.ev.group;
	if (e->sel.ev.filter.given) {
		re->filter_terms = e->sel.terms;
		re->filter_verdict = e->sel.plan.verdict == FILTER_SECURE ? "secure" : "ok";
		/* a Secure/EL3 request accepted with --allow-secure: Linux counts only the
		 * Non-secure levels of it */
		re->marked = e->sel.plan.verdict == FILTER_SECURE;
		re->filter_differ = e->sel.plan.differ;
	}
}

static void put_figures(struct report_event *re, const struct figures *f)
{
	re->status = f->status;
	re->reason = f->reason;
	re->raw = f->raw;
	re->enabled_ns = f->enabled;
	re->running_ns = f->running;
	re->value = f->value;
	re->counted_pct = f->pct;
	re->scaled = f->status == REPORT_COUNTED && f->scaled;
	re->wall_ns = f->wall_ns;
}

/* With -r: each run's value (vals, taken over), their summary and outliers. -1 when memory
 * ran out. */
static int fill_stats(struct report_event *re, double *vals, size_t nruns)
{
	double *counted = malloc(nruns * sizeof(*counted) + 1);
	unsigned char *flag = calloc(nruns + 1, 1), *cflag = calloc(nruns + 1, 1);
	size_t m = 0;

	re->runs = vals;
	if (!counted || !flag || !cflag) {
		free(counted);
		free(flag);
		free(cflag);
		return -1;
	}
	for (size_t i = 0; i < nruns; i++)
		if (!isnan(vals[i]))
			counted[m++] = vals[i];
	if (m && stats_summarize(counted, m, &re->stats) == 0 &&
	    stats_outliers(counted, m, NULL, cflag) >= 0)
		for (size_t i = 0, j = 0; i < nruns; i++)
			if (!isnan(vals[i]))
				flag[i] = cflag[j++];
	re->outlier = flag;
	free(counted);
	free(cflag);
	return 0;
}

/* Per-interval deltas of event ev from the whole command's rows. */
static struct report_delta *deltas(const struct agg_row *rows, size_t nrows, uint32_t ev,
				   size_t nintervals)
{
	struct report_delta *d = calloc(nintervals + 1, sizeof(*d));

	for (size_t i = 0; d && i < nintervals; i++) {
		struct agg_key k = { ev, -1, 0, (uint32_t)i };
		const struct agg_row *w = agg_find(rows, nrows, &k);

		if (!w)
			continue;
		d[i].counted = w->status == AGG_COUNTED;
		d[i].raw = w->raw;
		d[i].enabled_ns = w->window;
		d[i].running_ns = w->running;
		d[i].value = w->value;
	}
	return d;
}

/* The parts of split row k from the per-core-type rows. */
static struct report_part *parts(const struct stat_event *evs, size_t k,
				 const struct agg_row *rows, size_t nrows,
				 const struct readings *rd, size_t nruns)
{
	const struct stat_event *row = &evs[k];
	struct report_part *out = calloc((size_t)row->nparts + 1, sizeof(*out));

	for (int i = 0; out && i < row->nparts; i++) {
		const struct stat_event *p = &evs[row->part0 + i];
		struct report_part *o = &out[i];
		struct figures f;

		o->pmu = p->arm_pmu->name;
		o->core = p->sel.ev.core ? evtab_core_name(p->sel.ev.core) : NULL;
		stat_split_cpus(p->arm_pmu, o->cpus, sizeof(o->cpus));
		o->type = p->sel.ev.attr.type;
		o->config = p->sel.ev.attr.config;
		over_runs(rows, nrows, rd, (uint32_t)k, p->pmu_ix, nruns, NULL, 1, p->fixture, &f);
		o->status = f.status;
		o->reason = p->absent ? (p->err ? strerrorname_np(p->err) : NULL) : f.reason;
		o->note = p->fixture;
		o->raw = f.raw;
		o->enabled_ns = f.enabled;
		o->running_ns = f.running;
		o->value = f.value;
	}
	return out;
}

/* The times of recorded run i: its last planned run's, the one whose status is reported. */
static const struct reading_run *run_of(const struct readings *rd, size_t i)
{
	const struct reading_run *last = NULL;

	for (size_t k = 0; k < rd->nruns; k++)
		if (rd->runs[k].run == i)
			last = &rd->runs[k];
	return last;
}

static int fill_times(struct report *r, const struct stat_series *s, int repeated)
{
	struct report_times *t = calloc(s->nruns + 1, sizeof(*t));
	double *x[3];
	struct stats_summary *st[3] = { &r->wall_stats, &r->user_stats, &r->sys_stats };
	uint64_t *mean[3] = { &r->wall_ns, &r->user_ns, &r->sys_ns };

	if (!t)
		return -1;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct reading_run *run = run_of(&s->rd, i);

		if (run)
			t[i] = (struct report_times){ run->wall_ns, run->user_ns, run->sys_ns };
	}
	r->run_times = t;
	if (s->nruns) {
		r->wall_ns = t[s->nruns - 1].wall_ns;
		r->user_ns = t[s->nruns - 1].user_ns;
		r->sys_ns = t[s->nruns - 1].sys_ns;
	}
	if (!repeated)
		return 0;
	r->nruns = s->nruns;
	for (int j = 0; j < 3; j++) {
		memset(st[j], 0, sizeof(*st[j]));
		if (!(x[j] = malloc(s->nruns * sizeof(double) + 1)))
			return -1;
		for (size_t i = 0; i < s->nruns; i++)
			x[j][i] = (double)(j == 0 ? t[i].wall_ns : j == 1 ? t[i].user_ns
									  : t[i].sys_ns);
		if (s->nruns && stats_summarize(x[j], s->nruns, st[j]) == 0)
			*mean[j] = (uint64_t)(st[j]->mean + 0.5);
		free(x[j]);
	}
	return 0;
}

#define MAX_METRICS 64

int stat_report_build(struct report *r, const struct stat_series *s,
		      const struct stat_event *evs, size_t nrows, const struct stat_build *b)
{
	struct agg_row *cmd = NULL, *types = NULL;
	size_t ncmd = 0, ntypes = 0;
	struct report_metric_value *mv;
	int rc = -1;

	if (!(r->events = calloc(nrows + 1, sizeof(*r->events))))
		return -1;
	r->nevents = nrows;
	if (agg_build(s->rd.r, s->rd.n, AGG_COMMAND, NULL, &cmd, &ncmd) != 0 ||
	    agg_build(s->rd.r, s->rd.n, AGG_CORE_TYPE, NULL, &types, &ntypes) != 0 ||
	    fill_times(r, s, b->repeated) != 0)
		goto out;
	for (size_t k = 0; k < nrows; k++) {
		struct report_event *re = &r->events[k];
		double *vals = calloc(s->nruns + 1, sizeof(*vals));
		struct figures f;

		if (!vals)
			goto out;
		fill_identity(re, &evs[k]);
		over_runs(cmd, ncmd, &s->rd, (uint32_t)k, -1, s->nruns, vals, 0, evs[k].fixture, &f);
		put_figures(re, &f);
		re->note = evs[k].fixture;
		re->run = b->runs_mode ? evs[k].run + 1 : 0;
		if (b->repeated) {
			if (fill_stats(re, vals, s->nruns) != 0)
				goto out;
		} else {
			free(vals);
		}
		if (b->intervals && s->rd.nintervals &&
		    !(re->deltas = deltas(cmd, ncmd, (uint32_t)k, s->rd.nintervals)))
			goto out;
		if (evs[k].one_type)
			re->only_pmu = evs[k].sel.ev.pmu;
		if (evs[k].nparts) {
			if (!(re->split = parts(evs, k, types, ntypes, &s->rd, s->nruns)))
				goto out;
			re->nsplit = (size_t)evs[k].nparts;
		}
		/* a fixture's event was never on the kernel */
		r->multiplexed |= re->scaled || (re->status == REPORT_NOT_COUNTED && !re->note);
	}
	if (b->intervals) {
		r->interval_t_ns = s->rd.t_ns;
		r->nintervals = s->rd.nintervals;
	}
	if (!(mv = calloc(MAX_METRICS, sizeof(*mv))))
		goto out;
	r->metrics = mv;
	r->nmetrics = metrics_compute(r, b->core, mv, MAX_METRICS);
	rc = 0;
out:
	free(cmd);
	free(types);
	return rc;
}

void stat_report_free(struct report *r)
{
	for (size_t k = 0; r->events && k < r->nevents; k++) {
		free((void *)r->events[k].runs);
		free((void *)r->events[k].outlier);
		free((void *)r->events[k].deltas);
		free((void *)r->events[k].split);
	}
	free(r->events);
	free((void *)r->metrics);
	free((void *)r->run_times);
	r->events = NULL;
	r->metrics = NULL;
	r->run_times = NULL;
}
