/* SPDX-License-Identifier: Apache-2.0 */
/* stat_report.c: the report of pmuprof stat, built from the series' readings alone. They
 * are aggregated (aggregate.h: the whole command, and per core type for an event split over
 * them), then each event gets its values over the recorded runs, their statistics (-r), its
 * deltas per interval (-I), and the metrics are derived from the same rows. The events'
 * entries give identities (names, PMUs, configs), never numbers. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "stat.h"
#include "stat_report_priv.h"

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
 * recorded runs: raw and times are means over the runs that have a row, value over those that
 * counted it; vals[i] gets run i's value (NAN: not counted in it) when vals is given. Returns
 * the mean wall time of the runs that counted it (0: none). */
static uint64_t over_runs(const struct agg_row *rows, size_t nrows, const struct readings *rd,
			  uint32_t ev, int32_t unit, size_t nruns, double *vals, int part,
			  const char *fixture, struct report_figures *f)
{
	double raw = 0, win = 0, ru = 0, val = 0, wall = 0;
	size_t have = 0, counted = 0;
	const struct agg_row *last = NULL;
	int scaled = 0;

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
		scaled |= w->scaled;
		if (w->status != AGG_COUNTED)
			continue;
		counted++;
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
		f->counted_pct = report_share_pct(0, 0);
		return 0;
	}
	f->raw = (uint64_t)(raw / (double)have + 0.5);
	f->enabled_ns = (uint64_t)(win / (double)have + 0.5);
	f->running_ns = (uint64_t)(ru / (double)have + 0.5);
	if (!counted) {
		f->counted_pct = report_share_pct(f->running_ns, f->enabled_ns);
		f->status = status_of(last);
		f->reason = reason_of(last, part);
		/* an event no core type has: for the event as asked, not supported (a part of it
		 * is absent on its core type) */
		if (!part && last->status == AGG_ABSENT) {
			f->status = REPORT_NOT_SUPPORTED;
			f->reason = "ENOENT";
		}
		return 0;
	}
	f->status = REPORT_COUNTED;
	f->value = val / (double)counted;
	f->counted_pct = win > 0 ? 100.0 * ru / win : 100.0;
	f->scaled = scaled;
	return (uint64_t)(wall / (double)counted + 0.5);
}

/* Event k's identity: what it is, never what it counted. */
static void fill_identity(struct report_event *re, const struct stat_event *e)
{
	const struct pp_attr *a = &e->sel.ev.attr;

	re->name = e->sel.ev.name;
	re->pmu = e->sel.ev.pmu;
	re->unit = e->sel.ev.unit;
	re->type = a->type;
	re->config = a->config;
	re->excl_user = a->exclude_user;
	re->excl_kernel = a->exclude_kernel;
	re->excl_hv = a->exclude_hv;
	re->excl_host = a->exclude_host;
	re->excl_guest = a->exclude_guest;
	re->group = e->sel.ev.group;
	re->config1 = a->config1;
	re->config2 = a->config2;
	if (e->sel.ev.filter.given) {
		re->filter_terms = e->sel.terms;
		re->filter_verdict = e->sel.plan.verdict == FILTER_SECURE ? "secure" : "ok";
		/* a Secure/EL3 request accepted with --allow-secure: Linux counts only the
		 * Non-secure levels of it */
		re->marked = e->sel.plan.verdict == FILTER_SECURE;
		re->filter_differ = e->sel.plan.differ;
	}
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

/* Per-interval deltas of event ev (re) from the whole command's rows. */
static struct report_delta *deltas(const struct agg_row *rows, size_t nrows, uint32_t ev,
				   const struct report_event *re, size_t nintervals)
{
	struct report_delta *d = calloc(nintervals + 1, sizeof(*d));

	for (size_t i = 0; d && i < nintervals; i++) {
		struct agg_key k = { ev, -1, 0, (uint32_t)i };
		const struct agg_row *w = agg_find(rows, nrows, &k);

		if (w)
			report_delta_set(&d[i], re, w->status == AGG_COUNTED, w->raw, w->window,
					 w->running, w->value);
		else
			report_delta_set(&d[i], re, 0, 0, 0, 0, 0);
	}
	return d;
}

/* The nparts parts of split row k (cs->parts from first) from the per-core-type rows. */
static struct report_part *parts(const struct stat_counters *cs, size_t k, size_t first,
				 size_t nparts, const struct agg_row *rows, size_t nrows,
				 const struct readings *rd, size_t nruns)
{
	struct report_part *out = calloc(nparts + 1, sizeof(*out));

	for (size_t i = 0; out && i < nparts; i++) {
		const struct stat_part *p = &cs->parts[first + i];
		const struct sysfs_pmu *pmu = &cs->pmus[p->pmu_ix];
		const char *fixture = stat_part_fixture(cs, first + i);
		struct report_part *o = &out[i];

		o->pmu = pmu->name;
		o->core = p->core ? evtab_core_name(p->core) : NULL;
		stat_split_cpus(pmu, o->cpus, sizeof(o->cpus));
		o->type = p->attr.type;
		o->config = p->attr.config;
		/* an absent part was planned on no PMU */
		over_runs(rows, nrows, rd, (uint32_t)k, p->absent ? -1 : p->pmu_ix, nruns, NULL, 1,
			  fixture, &o->fig);
		if (p->absent)
			o->fig.reason = p->err ? strerrorname_np(p->err) : NULL;
		/* as perf prints a hybrid event's part, counted or not */
		o->fig.counted_pct = report_share_pct(o->fig.running_ns, o->fig.enabled_ns);
		o->note = fixture;
	}
	return out;
}

/* The planned runs the readings have: 1 without --mux=runs. */
static uint32_t plan_runs_of(const struct readings *rd)
{
	uint32_t n = 1;

	for (size_t k = 0; k < rd->nruns; k++)
		if (rd->runs[k].plan_run >= n)
			n = rd->runs[k].plan_run + 1;
	return n;
}

/* Planned run p's times: in each recorded run into t (when not NULL; zero where it did not
 * happen), and into pt, the one run's, or with -r their means and summaries over the
 * recorded runs it happened in. x has room for 3 * s->nruns numbers. */
static void plan_run_times(const struct stat_series *s, uint32_t p, int repeated,
			   struct report_times *t, struct report_plan_times *pt, double *x)
{
	struct stats_summary *st[3] = { &pt->wall, &pt->user, &pt->sys };
	uint64_t *mean[3] = { &pt->t.wall_ns, &pt->t.user_ns, &pt->t.sys_ns };
	size_t m = 0, nr = s->nruns;

	memset(pt, 0, sizeof(*pt));
	for (size_t i = 0; i < nr; i++) {
		const struct reading_run *run = readings_run(&s->rd, (uint32_t)i, p);

		if (!run)
			continue;
		if (t)
			t[i] = (struct report_times){ run->wall_ns, run->user_ns, run->sys_ns };
		pt->t = (struct report_times){ run->wall_ns, run->user_ns, run->sys_ns };
		x[m] = (double)run->wall_ns;
		x[nr + m] = (double)run->user_ns;
		x[2 * nr + m] = (double)run->sys_ns;
		m++;
	}
	for (int j = 0; repeated && m && j < 3; j++)
		if (stats_summarize(x + (size_t)j * nr, m, st[j]) == 0)
			*mean[j] = (uint64_t)(st[j]->mean + 0.5);
}

/* The report's times: those of the first planned run (the one run of the command without
 * --mux=runs), for each recorded run (-r), and with --mux=runs every planned run's, so that
 * a time is always that of one run, which the report names (time_run). */
static int fill_times(struct report *r, const struct stat_series *s, int repeated,
		      int runs_mode)
{
	uint32_t np = runs_mode ? plan_runs_of(&s->rd) : 1;
	struct report_times *t = calloc(s->nruns + 1, sizeof(*t));
	struct report_plan_times *pt = calloc(np, sizeof(*pt));
	double *x = malloc(3 * s->nruns * sizeof(double) + 1);

	if (!t || !pt || !x) {
		free(t);
		free(pt);
		free(x);
		return -1;
	}
	for (uint32_t p = 0; p < np; p++)
		plan_run_times(s, p, repeated, p ? NULL : t, &pt[p], x);
	free(x);
	r->run_times = t;
	r->wall_ns = pt[0].t.wall_ns;
	r->user_ns = pt[0].t.user_ns;
	r->sys_ns = pt[0].t.sys_ns;
	if (repeated) {
		r->nruns = s->nruns;
		r->wall_stats = pt[0].wall;
		r->user_stats = pt[0].user;
		r->sys_stats = pt[0].sys;
	}
	if (!runs_mode) {
		free(pt);
		return 0;
	}
	r->time_run = 1;
	r->plan_times = pt;
	r->nplan_times = np;
	return 0;
}

/* Event k's cells per unit (totals, and with -I per interval). -1 when memory ran out. */
static int cells(struct report_event *re, const struct agg_row *rows, size_t nrows,
		 const int32_t *ids, size_t nunits, const struct readings *rd, size_t nruns,
		 uint32_t k, const char *fixture, size_t nintervals, int skip_zero)
{
	struct report_cell *c = calloc(nunits + 1, sizeof(*c)), *d = NULL;

	if (!c)
		return -1;
	re->cells = c;
	for (size_t u = 0; u < nunits; u++) {
		struct report_figures f;
		int present = 0;

		for (size_t i = 0; i < nruns && !present; i++) {
			struct agg_key key = { k, ids[u], (uint32_t)i, READING_TOTAL };

			present = agg_find(rows, nrows, &key) != NULL;
		}
		if (!present)
			continue;
		over_runs(rows, nrows, rd, k, ids[u], nruns, NULL, 0, fixture, &f);
		/* a thread that ended before it could be followed; with every thread of the
		 * machine (-a --per-thread), as perf, one that counted nothing */
		if ((f.status != REPORT_COUNTED && f.reason && !strcmp(f.reason, "ESRCH")) ||
		    (skip_zero && f.status == REPORT_COUNTED && f.raw == 0))
			continue;
		c[u].present = 1;
		c[u].fig = f;
	}
	if (!nintervals)
		return 0;
	if (!(d = calloc(nintervals * nunits + 1, sizeof(*d))))
		return -1;
	re->unit_deltas = d;
	for (size_t i = 0; i < nintervals; i++)
		for (size_t u = 0; u < nunits; u++) {
			struct agg_key key = { k, ids[u], 0, (uint32_t)i };
			const struct agg_row *w = agg_find(rows, nrows, &key);
			struct report_cell *x = &d[i * nunits + u];

			if (!w)
				continue;
			x->present = 1;
			x->fig.status = status_of(w);
			x->fig.reason = reason_of(w, 0);
			x->fig.raw = w->raw;
			x->fig.enabled_ns = w->window;
			x->fig.running_ns = w->running;
			x->fig.value = w->value;
			x->fig.counted_pct = x->fig.status != REPORT_COUNTED ?
				report_share_pct(w->running, w->window) : w->window ?
				100.0 * (double)w->running / (double)w->window : 100.0;
			x->fig.scaled = w->scaled;
		}
	return 0;
}

/* --no-scale: the rows add the raw counts, as perf --no-scale reports them (the share of the
 * time counted still shows what was missed). */
static enum agg_scaling scaling(const struct stat_build *b)
{
	return b->no_scale ? AGG_RAW : AGG_SCALED;
}

/* The report's units and every event's cells in them (-A, --per-*). -1 out of memory. */
static int per_unit(struct report *r, const struct stat_series *s, size_t nrows,
		    const struct stat_build *b)
{
	enum agg_mode m = stat_report_mode(b->aggr);
	struct agg_row *rows = NULL;
	size_t n = 0;
	int32_t *ids = NULL;
	int rc = -1;

	r->aggr = b->aggr;
	if (agg_build_as(s->rd.r, s->rd.n, m, b->topo, scaling(b), &rows, &n) != 0 ||
	    stat_report_units(r, rows, n, m, b, &ids) != 0)
		goto out;
	for (size_t k = 0; k < nrows; k++) {
		if (cells(&r->events[k], rows, n, ids, r->nunits, &s->rd, s->nruns, (uint32_t)k,
				   r->events[k].note, b->intervals ? s->rd.nintervals : 0,
				   m == AGG_THREAD && b->tgt && b->tgt->all) != 0)
			goto out;
	}
	rc = 0;
out:
	free(rows);
	free(ids);
	return rc;
}

int stat_report_build(struct report *r, const struct stat_series *s,
		      const struct stat_event *evs, size_t nrows, const struct stat_build *b)
{
	struct agg_row *cmd = NULL, *types = NULL;
	size_t ncmd = 0, ntypes = 0;
	int rc = -1, split = 0;
	/* each row's fixture note, indexed by the counters' rows */
	size_t nfix = nrows > b->counters->nrows ? nrows : b->counters->nrows;
	const char **fixture = calloc(nfix + 1, sizeof(*fixture));

	if (!fixture || !(r->events = calloc(nrows, sizeof(*r->events)))) {
		free(fixture);
		return -1;
	}
	r->nevents = nrows;
	stat_rows_fixture(b->counters, fixture);
	split = b->counters->nparts > 0;
	/* the rows per core type only when an event is split over them (big.LITTLE) */
	if (agg_build_as(s->rd.r, s->rd.n, AGG_COMMAND, NULL, scaling(b), &cmd, &ncmd) != 0 ||
	    (split && agg_build_as(s->rd.r, s->rd.n, AGG_CORE_TYPE, NULL, scaling(b), &types,
				   &ntypes) != 0) ||
	    fill_times(r, s, b->repeated, b->runs_mode) != 0)
		goto out;
	for (size_t k = 0; k < nrows; k++) {
		struct report_event *re = &r->events[k];
		double *vals = NULL;	/* each run's value: only -r keeps them */
		size_t part0, nparts = stat_row_parts(b->counters, k, &part0);

		if (b->repeated && !(vals = calloc(s->nruns + 1, sizeof(*vals))))
			goto out;
		fill_identity(re, &evs[k]);
		re->wall_ns = over_runs(cmd, ncmd, &s->rd, (uint32_t)k, -1, s->nruns, vals, 0,
					fixture[k], &re->fig);
		re->note = fixture[k];
		re->run = b->runs_mode ? stat_row_run(b->counters, evs, k) + 1 : 0;
		if (b->repeated && fill_stats(re, vals, s->nruns) != 0)
			goto out;
		if (b->intervals && s->rd.nintervals &&
		    !(re->deltas = deltas(cmd, ncmd, (uint32_t)k, re, s->rd.nintervals)))
			goto out;
		if (evs[k].one_type)
			re->only_pmu = evs[k].sel.ev.pmu;
		re->cgroup = evs[k].cgroup;
		r->per_cgroup |= re->cgroup != NULL;
		if (nparts) {
			struct report_part *p = parts(b->counters, k, part0, nparts, types, ntypes,
						      &s->rd, s->nruns);

			if (!p)
				goto out;
			report_split_set(re, p, nparts);
		}
		/* a fixture's event was never on the kernel; one never enabled (-D longer than
		 * the command) was not multiplexed */
		r->multiplexed |= re->fig.scaled || (re->fig.status == REPORT_NOT_COUNTED &&
						     !re->note && re->fig.enabled_ns > 0);
	}
	if (b->aggr != REPORT_AGGR_GLOBAL && per_unit(r, s, nrows, b) != 0)
		goto out;
	if (b->intervals) {
		r->interval_t_ns = s->rd.t_ns;
		r->nintervals = s->rd.nintervals;
	}
	/* the rows are not needed past here: their memory goes before the metrics take theirs */
	free(cmd);
	free(types);
	cmd = types = NULL;
	if (report_derive(r, b->core, b->metrics, b->nmetrics) != 0)
		goto out;
	rc = 0;
out:
	free(cmd);
	free(types);
	free(fixture);
	return rc;
}

void stat_report_free(struct report *r)
{
	report_free_parts(r);
}
