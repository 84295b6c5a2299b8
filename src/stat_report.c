/* stat_report.c: the series of runs pmuprof stat made (every run's readings) and the report
 * built from it: scaled values, per-run arrays and their statistics (-r), per-interval deltas
 * (-I) and the derived metrics. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

int stat_series_init(struct stat_series *s, size_t nevents, size_t runs)
{
	memset(s, 0, sizeof(*s));
	s->nevents = nevents;
	s->cap = runs ? runs : 1;
	s->val = calloc(nevents * s->cap + 1, sizeof(*s->val));
	s->rd = calloc(nevents * s->cap + 1, sizeof(*s->rd));
	s->times = calloc(s->cap, sizeof(*s->times));
	if (!s->val || !s->rd || !s->times) {
		stat_series_free(s);
		return -1;
	}
	return 0;
}

void stat_series_free(struct stat_series *s)
{
	free(s->val);
	free(s->rd);
	free(s->times);
	memset(s, 0, sizeof(*s));
}

/* The estimate the kernel's multiplexing asks for: raw scaled by enabled/running. */
static double scaled(const struct counter_reading *rd)
{
	return (double)rd->value * ((double)rd->enabled / (double)rd->running);
}

void stat_series_add(struct stat_series *s, struct stat_event *evs, size_t n,
		     const struct workload_result *res)
{
	size_t run = s->nruns;

	if (run >= s->cap)
		return;
	stat_split_record(evs, n);
	for (size_t k = 0; k < s->nevents; k++) {
		const struct counter_reading *rd = &evs[k].rd;

		s->rd[k * s->cap + run] = *rd;
		s->val[k * s->cap + run] = evs[k].opened && rd->running ? scaled(rd) : NAN;
	}
	s->times[run] = (struct report_times){ res->wall_ns, res->user_ns, res->sys_ns };
	s->nruns++;
}

/* The event's identity and its last run's status (and, for one run, its values). */
static void fill_event(struct report_event *re, const struct stat_event *e)
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
	re->raw = e->rd.value;
	re->enabled_ns = e->rd.enabled;
	re->running_ns = e->rd.running;
	if (e->fixture) {	/* never opened (stat_plan): not this machine's PMU */
		re->status = REPORT_NOT_COUNTED;
		re->reason = re->note = e->fixture;
	} else if (!e->opened) {
		re->status = counter_status(e->err) == PP_EACCES ? REPORT_NOT_PERMITTED
								 : REPORT_NOT_SUPPORTED;
		re->reason = strerrorname_np(e->err);
	} else if (e->rd.running == 0) {
		re->status = REPORT_NOT_COUNTED;
		re->reason = "never on a counter";
	} else {
		re->status = REPORT_COUNTED;
		/* scale by enabled/running: the estimate the kernel's multiplexing asks for */
		re->value = (double)e->rd.value * ((double)e->rd.enabled / (double)e->rd.running);
		re->counted_pct = 100.0 * (double)e->rd.running / (double)e->rd.enabled;
		re->scaled = e->rd.running < e->rd.enabled;
	}
}


/* With -r: the means over the runs that counted it, each run's value, their summary and
 * outliers. -1 when memory ran out. */
static int fill_runs(struct report_event *re, const struct stat_series *s, size_t k)
{
	const double *v = &s->val[k * s->cap];
	double *counted = malloc(s->nruns * sizeof(*counted) + 1);
	unsigned char *flag = calloc(s->nruns + 1, 1), *cflag = calloc(s->nruns + 1, 1);
	double raw = 0, en = 0, ru = 0;
	size_t m = 0;

	if (!counted || !flag || !cflag) {
		free(counted);
		free(flag);
		free(cflag);
		return -1;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		const struct counter_reading *rd = &s->rd[k * s->cap + i];

		raw += (double)rd->value;
		en += (double)rd->enabled;
		ru += (double)rd->running;
		if (!isnan(v[i]))
			counted[m++] = v[i];
	}
	re->runs = v;
	if (m && stats_summarize(counted, m, &re->stats) == 0 &&
	    stats_outliers(counted, m, NULL, cflag) >= 0)
		for (size_t i = 0, j = 0; i < s->nruns; i++)
			if (!isnan(v[i]))
				flag[i] = cflag[j++];
	re->outlier = flag;
	re->raw = (uint64_t)(raw / (double)s->nruns + 0.5);
	re->enabled_ns = (uint64_t)(en / (double)s->nruns + 0.5);
	re->running_ns = (uint64_t)(ru / (double)s->nruns + 0.5);
	if (m) {
		re->status = REPORT_COUNTED;
		re->reason = NULL;
		re->value = re->stats.mean;
		re->counted_pct = en > 0 ? 100.0 * ru / en : 100.0;
		re->scaled = ru < en;
	}
	free(counted);
	free(cflag);
	return 0;
}

/* The summary of one time of every run. */
static void time_stats(const struct stat_series *s, size_t off, struct stats_summary *out,
		       uint64_t *mean)
{
	double *x = malloc(s->nruns * sizeof(*x) + 1);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; x && i < s->nruns; i++)
		x[i] = (double)*(const uint64_t *)((const char *)&s->times[i] + off);
	if (x && s->nruns && stats_summarize(x, s->nruns, out) == 0)
		*mean = (uint64_t)(out->mean + 0.5);
	free(x);
}

/* Per-interval deltas of event k from the cumulative ticks. */
static struct report_delta *deltas(const struct stat_ticks *t, size_t k)
{
	struct report_delta *d = calloc(t->n + 1, sizeof(*d));
	struct counter_reading prev = { 0 };

	for (size_t i = 0; d && i < t->n; i++) {
		const struct counter_reading *rd = &t->rd[i * t->nevents + k];

		d[i].raw = rd->value - prev.value;
		d[i].enabled_ns = rd->enabled - prev.enabled;
		d[i].running_ns = rd->running - prev.running;
		d[i].counted = d[i].running_ns > 0;
		if (d[i].counted)
			d[i].value = (double)d[i].raw * ((double)d[i].enabled_ns /
							 (double)d[i].running_ns);
		prev = *rd;
	}
	return d;
}

#define MAX_METRICS 64

int stat_report_build(struct report *r, const struct stat_series *s,
		      const struct stat_event *evs, const struct stat_build *b)
{
	const struct report_times *last = &s->times[s->nruns ? s->nruns - 1 : 0];
	struct report_metric_value *mv;

	if (!(r->events = calloc(s->nevents + 1, sizeof(*r->events))))
		return -1;
	r->nevents = s->nevents;
	r->wall_ns = last->wall_ns;
	r->user_ns = last->user_ns;
	r->sys_ns = last->sys_ns;
	for (size_t k = 0; k < s->nevents; k++) {
		fill_event(&r->events[k], &evs[k]);
		r->events[k].run = b->runs_mode ? evs[k].run + 1 : 0;
		if (b->repeated && fill_runs(&r->events[k], s, k) != 0)
			return -1;
		if (b->ticks && b->ticks->n && !(r->events[k].deltas = deltas(b->ticks, k)))
			return -1;
		if (evs[k].one_type)
			r->events[k].only_pmu = evs[k].sel.ev.pmu;
		if (evs[k].nparts) {
			if (!(r->events[k].split = stat_split_report(evs, k, b->repeated)))
				return -1;
			r->events[k].nsplit = (size_t)evs[k].nparts;
		}
	}
	if (b->repeated) {
		r->nruns = s->nruns;
		r->run_times = s->times;
		time_stats(s, offsetof(struct report_times, wall_ns), &r->wall_stats, &r->wall_ns);
		time_stats(s, offsetof(struct report_times, user_ns), &r->user_stats, &r->user_ns);
		time_stats(s, offsetof(struct report_times, sys_ns), &r->sys_stats, &r->sys_ns);
	}
	if (b->ticks) {
		r->interval_t_ns = b->ticks->t_ns;
		r->nintervals = b->ticks->n;
	}
	for (size_t k = 0; k < s->nevents; k++)	/* a fixture's event was never on the kernel */
		r->multiplexed |= r->events[k].scaled ||
				  (r->events[k].status == REPORT_NOT_COUNTED && !evs[k].fixture);
	if (!(mv = calloc(MAX_METRICS, sizeof(*mv))))
		return -1;
	r->metrics = mv;
	r->nmetrics = metrics_compute(r, b->core, mv, MAX_METRICS);
	return 0;
}

void stat_report_free(struct report *r)
{
	for (size_t k = 0; r->events && k < r->nevents; k++) {
		free((void *)r->events[k].outlier);
		free((void *)r->events[k].deltas);
		free((void *)r->events[k].split);
	}
	free(r->events);
	free((void *)r->metrics);
	r->events = NULL;
	r->metrics = NULL;
}
