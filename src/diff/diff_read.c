/* SPDX-License-Identifier: Apache-2.0 */
/* diff_read.c: a stat report read back for `pmuprof diff` (report_read.h, the one reader of
 * saved reports), and each event's per-run values, or summary, or single value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "metrics.h"
#include "mxtab.h"

/* The numbers of a runs array (NAN, runs that measured nothing, left out) summarized (their
 * moments: the t-test and the +-rse need no more); -1 when there is none, -2 when memory ran
 * out. */
static int runs_summary(const double *runs, size_t n, struct stats_summary *s)
{
	double *v = malloc((n + 1) * sizeof(*v));
	size_t k = 0;
	int rc;

	if (!v)
		return -2;
	for (size_t i = 0; i < n; i++)
		if (!isnan(runs[i]))
			v[k++] = runs[i];
	rc = k ? stats_moments(v, k, s) : -1;
	free(v);
	return rc ? (k ? -2 : -1) : 0;
}

/* A summary given without its runs: its n, mean and stddev (the rest is recomputed when
 * needed); -1 if unusable. */
static int stats_given(const struct stats_summary *st, struct stats_summary *s)
{
	if (st->n < 1 || !isfinite(st->mean))
		return -1;
	memset(s, 0, sizeof(*s));
	s->n = st->n;
	s->mean = s->median = s->min = s->max = st->mean;
	s->stddev = s->n > 1 ? st->stddev : NAN;
	s->cv = s->rse = s->ci_lo = s->ci_hi = NAN;
	return 0;
}

/* The end of reading e: rc 0 when e->sum holds what it measured, -1 when there is nothing, -2
 * when memory ran out. */
static enum diff_err settle(struct diff_event *e, int rc)
{
	if (rc == -2)
		return DIFF_ERR_NOMEM;
	e->infinite = rc == 0 && !isfinite(e->sum.mean);
	e->has = rc == 0 && !e->infinite;
	return DIFF_OK;
}

/* One event: what it measured, by preference per-run values (pmuprof stat -r), a summary of
 * them, else the single value. */
static enum diff_err read_event(const struct report *r, const struct report_event *re,
				struct diff_event *e)
{
	const double *runs = re->runs;
	int rc = -1;

	e->name = re->name;
	e->unit = re->unit;
	e->cgroup = re->cgroup;
	e->status = report_status_str(re->fig.status);
	if (runs && (rc = runs_summary(runs, r->nruns, &e->sum)) == -2)
		return DIFF_ERR_NOMEM;
	if (rc)
		rc = stats_given(&re->stats, &e->sum);
	if (rc && re->fig.status == REPORT_COUNTED)
		rc = stats_moments(&re->fig.value, 1, &e->sum) ? -2 : 0;
	return settle(e, rc);
}

/* Metric m of r: per-run values (-r) when every run has one, else its value over the totals
 * (the means'). */
static enum diff_err read_metric(const struct report *r, const struct report_metric_value *m,
				 struct diff_event *e)
{
	int rc = -1;

	e->name = mxtab_metric_name(m->def);
	e->unit = mxtab_metric_unit(m->def);
	e->metric = 1;
	e->cgroup = report_metric_cgroup(r, m);
	e->status = isnan(m->value) ? "not computed" : "counted";
	if (r->nruns > 1) {
		double *v = malloc(r->nruns * sizeof(*v));
		size_t k = 0;

		if (!v)
			return DIFF_ERR_NOMEM;
		while (k < r->nruns && !isnan(v[k] = metrics_value_run(r, m, k)))
			k++;
		rc = k == r->nruns ? runs_summary(v, k, &e->sum) : -1;
		free(v);
	}
	if (rc == -1 && !isnan(m->value))
		rc = stats_moments(&m->value, 1, &e->sum) ? -2 : 0;
	return settle(e, rc);
}

/* r's metrics, as `pmuprof report` computes them: for the core the report names (else its
 * MIDR's), the -M names saved, and every metric whose events were all counted. */
static int compute_metrics(struct report *r)
{
	struct metrics_core mc;

	if (!r->metrics_core || metrics_core_named(&mc, r->metrics_core) != 0)
		metrics_core_from_midr(&mc, r->host.midr);
	return metrics_compute(r, &mc, r->metric_requests, r->nmetric_requests);
}

/* The regions' events, each a row of its own named "region NAME: EVENT" (stat --regions),
 * compared as the whole run's are: a region's regression is the report's. */
static enum diff_err read_regions(const struct report *r, struct diff_input *in)
{
	enum diff_err rc = DIFF_OK;

	for (size_t k = 0; rc == DIFF_OK && k < r->nregions; k++) {
		const struct report *g = r->regions[k].r;

		for (size_t j = 0; rc == DIFF_OK && j < g->nevents; j++) {
			struct diff_event *e = &in->events[in->nevents];
			char *name;

			if (asprintf(&name, "region %s: %s", r->regions[k].name,
				     g->events[j].name) < 0)
				return DIFF_ERR_NOMEM;
			in->names[in->nnames++] = name;
			if ((rc = read_event(g, &g->events[j], e)) == DIFF_OK) {
				e->name = name;
				in->nevents++;
			}
		}
	}
	return rc;
}

/* The rows a report gives: its events, its metrics, its regions' events. */
static size_t rows_of(const struct report *r)
{
	size_t n = r->nevents + r->nmetrics;

	for (size_t k = 0; k < r->nregions; k++)
		n += r->regions[k].r->nevents;
	return n;
}

enum diff_err diff_read(const char *path, unsigned flags, struct diff_input *in,
			struct diff_why *why)
{
	struct report *r = &in->saved.r;
	enum diff_err rc = DIFF_OK;

	memset(in, 0, sizeof(*in));
	memset(why, 0, sizeof(*why));
	why->side = path;
	in->path = path;
	if ((why->read_err = report_read(path, flags, &in->saved, &why->read)) != REPORT_READ_OK)
		return DIFF_ERR_READ;
	if (compute_metrics(r) != 0 ||
	    (rows_of(r) && !(in->events = calloc(rows_of(r), sizeof(*in->events)))) ||
	    !(in->names = calloc(rows_of(r) + 1, sizeof(*in->names))))
		rc = DIFF_ERR_NOMEM;
	for (size_t k = 0; rc == DIFF_OK && k < r->nevents; k++)
		if ((rc = read_event(r, &r->events[k], &in->events[in->nevents])) == DIFF_OK)
			in->nevents++;
	for (size_t k = 0; rc == DIFF_OK && k < r->nmetrics; k++)
		if ((rc = read_metric(r, &r->metrics[k], &in->events[in->nevents])) == DIFF_OK)
			in->nevents++;
	if (rc == DIFF_OK)
		rc = read_regions(r, in);
	if (rc != DIFF_OK)
		diff_input_free(in);
	return rc;
}

void diff_input_free(struct diff_input *in)
{
	report_saved_free(&in->saved);
	free(in->events);
	for (size_t k = 0; k < in->nnames; k++)
		free(in->names[k]);
	free(in->names);
	in->names = NULL;
	in->nnames = 0;
	in->events = NULL;
	in->nevents = 0;
}
