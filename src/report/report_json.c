/* SPDX-License-Identifier: Apache-2.0 */
/* report_json.c: the report as one JSON document (schema: man/pmuprof-json.5), built as a
 * cJSON tree and printed once. Numbers stay numbers; what was not measured is null. */
#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "metrics.h"
#include "jsonout.h"
#include "report.h"

/* A summary of runs (stats.h); outlier, when given, flags the runs (indexes from 0). */
static cJSON *stats_json(const struct stats_summary *st, const unsigned char *outlier,
			 size_t nruns)
{
	cJSON *o = cJSON_CreateObject(), *out;

	cJSON_AddNumberToObject(o, "n", (double)st->n);
	cJSON_AddItemToObject(o, "mean", jsonout_num(st->n ? st->mean : NAN));
	cJSON_AddItemToObject(o, "median", jsonout_num(st->n ? st->median : NAN));
	cJSON_AddItemToObject(o, "stddev", jsonout_num(st->stddev));
	cJSON_AddItemToObject(o, "min", jsonout_num(st->n ? st->min : NAN));
	cJSON_AddItemToObject(o, "max", jsonout_num(st->n ? st->max : NAN));
	cJSON_AddItemToObject(o, "cv", jsonout_num(st->cv));
	cJSON_AddItemToObject(o, "ci95_low", jsonout_num(st->ci_lo));
	cJSON_AddItemToObject(o, "ci95_high", jsonout_num(st->ci_hi));
	cJSON_AddItemToObject(o, "rse", jsonout_num(st->rse));
	if (outlier) {
		out = cJSON_AddArrayToObject(o, "outliers");
		for (size_t i = 0; i < nruns; i++)
			if (outlier[i])
				cJSON_AddItemToArray(out, cJSON_CreateNumber((double)i));
	}
	return o;
}

static cJSON *host_json(const struct report_host *h)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "kernel_release", jsonout_str_or_null(h->kernel));
	cJSON_AddItemToObject(o, "machine", jsonout_str_or_null(h->machine));
	cJSON_AddItemToObject(o, "cpu_model", jsonout_str_or_null(h->cpu_model));
	cJSON_AddItemToObject(o, "midr", h->midr ? jsonout_hex(h->midr) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "ncpus", h->ncpus);
	/* only when filter-bit terms or --kernel-el made pmuprof decide it */
	if (h->kernel_el) {
		cJSON_AddNumberToObject(o, "kernel_el", h->kernel_el);
		cJSON_AddItemToObject(o, "kernel_el_source", jsonout_str_or_null(h->kernel_el_source));
	}
	return o;
}

/* The event's filter-bit terms, what Linux makes of them and the levels counted otherwise
 * than asked (keys as pmuprof explain spells them); null when it has none. */
static cJSON *filter_json(const struct report_event *e)
{
	cJSON *o, *d;

	if (!e->filter_terms)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "terms", e->filter_terms);
	cJSON_AddStringToObject(o, "verdict", e->filter_verdict);
	cJSON_AddBoolToObject(o, "marked", e->marked);
	d = cJSON_AddArrayToObject(o, "not_as_asked");
	for (int l = 0; l < FILTER_NLEVELS; l++)
		if (e->filter_differ & 1u << l)
			cJSON_AddItemToArray(d, cJSON_CreateString(filter_level_key(l)));
	return o;
}

/* 1.3, big.LITTLE: the event on each Arm PMU the command may run on, and the PMUs that have
 * it when some lack it; null and null when it was not split. */
static void split_json(cJSON *o, const struct report_event *e)
{
	cJSON *a, *only = NULL;
	int absent = 0;

	if (!e->split) {
		cJSON_AddNullToObject(o, "split");
		if (e->only_pmu) {
			only = cJSON_AddArrayToObject(o, "only_on");
			cJSON_AddItemToArray(only, cJSON_CreateString(e->only_pmu));
		} else {
			cJSON_AddNullToObject(o, "only_on");
		}
		return;
	}
	a = cJSON_AddArrayToObject(o, "split");
	for (size_t i = 0; i < e->nsplit; i++) {
		const struct report_part *p = &e->split[i];
		cJSON *x = cJSON_CreateObject();
		int counted = p->fig.status == REPORT_COUNTED;

		absent |= p->fig.status == REPORT_ABSENT;
		cJSON_AddStringToObject(x, "pmu", p->pmu);
		cJSON_AddItemToObject(x, "core", jsonout_str_or_null(p->core));
		cJSON_AddStringToObject(x, "cpus", p->cpus);
		cJSON_AddNumberToObject(x, "type", p->type);
		cJSON_AddItemToObject(x, "config", p->fig.status == REPORT_ABSENT ?
				      cJSON_CreateNull() : jsonout_hex(p->config));
		cJSON_AddStringToObject(x, "status", report_status_str(p->fig.status));
		cJSON_AddItemToObject(x, "reason", jsonout_str_or_null(p->fig.reason));
		cJSON_AddItemToObject(x, "raw_value",
				      counted || (p->fig.status == REPORT_NOT_COUNTED && !p->note) ?
				      cJSON_CreateNumber((double)p->fig.raw) : cJSON_CreateNull());
		cJSON_AddItemToObject(x, "value", counted ? cJSON_CreateNumber(p->fig.value)
							  : cJSON_CreateNull());
		cJSON_AddNumberToObject(x, "time_enabled_ns", (double)p->fig.enabled_ns);
		cJSON_AddNumberToObject(x, "time_running_ns", (double)p->fig.running_ns);
		cJSON_AddItemToArray(a, x);
	}
	if (absent) {
		only = cJSON_CreateArray();
		for (size_t i = 0; i < e->nsplit; i++)
			if (e->split[i].fig.status != REPORT_ABSENT)
				cJSON_AddItemToArray(only, cJSON_CreateString(e->split[i].pmu));
	}
	cJSON_AddItemToObject(o, "only_on", only ? only : cJSON_CreateNull());
}

/* 1.4: the aggregation's name as the JSON spells it. */
static const char *aggr_name(enum report_aggr a)
{
	switch (a) {
	case REPORT_AGGR_GLOBAL: return "global";
	case REPORT_AGGR_CPU: return "cpu";
	case REPORT_AGGR_CORE: return "core";
	case REPORT_AGGR_CLUSTER: return "cluster";
	case REPORT_AGGR_SOCKET: return "socket";
	case REPORT_AGGR_THREAD: return "thread";
	case REPORT_AGGR_DIE: return "die";
	case REPORT_AGGR_NODE: return "node";
	case REPORT_AGGR_CACHE: return "cache";
	}
	return "global";
}

/* The figure beside a count: its value and unit, null when there is none. */
static cJSON *derived_json(const struct report_derived *d)
{
	cJSON *m;

	if (!d->unit)
		return cJSON_CreateNull();
	m = cJSON_CreateObject();
	cJSON_AddNumberToObject(m, "value", d->value);
	cJSON_AddStringToObject(m, "unit", d->unit);
	return m;
}

/* A topology id, null where it does not name the unit (-1). */
static cJSON *id_json(int id)
{
	return id >= 0 ? cJSON_CreateNumber(id) : cJSON_CreateNull();
}

/* 1.4: e's figures in unit u (of the totals, interval < 0, or of interval i), naming the
 * unit, so that a row can be read alone. */
static cJSON *cell_json(const struct report *r, size_t u, const struct report_cell *c)
{
	const struct report_unit *n = &r->units[u];
	int counted = c->fig.status == REPORT_COUNTED;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "unit", n->id);
	cJSON_AddItemToObject(o, "cpu", id_json(n->cpu));
	cJSON_AddItemToObject(o, "socket", id_json(n->socket));
	cJSON_AddItemToObject(o, "die", id_json(n->die));
	cJSON_AddItemToObject(o, "cluster", id_json(n->cluster));
	cJSON_AddItemToObject(o, "core", id_json(n->core));
	cJSON_AddItemToObject(o, "thread", id_json(n->tid));
	cJSON_AddItemToObject(o, "node", id_json(n->node));
	/* 1.7: --per-cache's cache, by its level (from 1: a unit made without one, zeroed, has
	 * none) and its id */
	cJSON_AddItemToObject(o, "cache_level", id_json(n->cache_level > 0 ? n->cache_level : -1));
	cJSON_AddItemToObject(o, "cache", id_json(n->cache_level > 0 ? n->cache : -1));
	cJSON_AddNumberToObject(o, "ncpus", n->ncpus);
	cJSON_AddStringToObject(o, "status", report_status_str(c->fig.status));
	cJSON_AddItemToObject(o, "reason", jsonout_str_or_null(c->fig.reason));
	cJSON_AddItemToObject(o, "value", counted ? cJSON_CreateNumber(c->fig.value)
						  : cJSON_CreateNull());
	/* a cell not counted was opened and read: its raw count (0) is a reading */
	cJSON_AddItemToObject(o, "raw_value", counted || c->fig.status == REPORT_NOT_COUNTED ?
			      cJSON_CreateNumber((double)c->fig.raw) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "time_enabled_ns", (double)c->fig.enabled_ns);
	cJSON_AddNumberToObject(o, "time_running_ns", (double)c->fig.running_ns);
	cJSON_AddItemToObject(o, "counted_pct", counted ? cJSON_CreateNumber(c->fig.counted_pct)
							: cJSON_CreateNull());
	cJSON_AddItemToObject(o, "scaled", counted ? cJSON_CreateBool(c->fig.scaled)
						   : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "metric", derived_json(&c->derived));
	return o;
}

/* 1.4: e's figures in each unit that has readings of it (of the totals, interval < 0, or of
 * interval i); null when the report is not aggregated per unit. Every present cell is listed,
 * in the report's order of units (text and CSV leave out what perf leaves out). */
static cJSON *units_json(const struct report *r, const struct report_event *e, long i)
{
	cJSON *a;

	if (r->aggr == REPORT_AGGR_GLOBAL)
		return cJSON_CreateNull();
	a = cJSON_CreateArray();
	for (size_t u = 0; u < r->nunits; u++) {
		const struct report_cell *c = report_cell_at(r, e, u, i);

		if (c && c->present)
			cJSON_AddItemToArray(a, cell_json(r, u, c));
	}
	return a;
}

static cJSON *event_json(const struct report *r, const struct report_event *e)
{
	cJSON *o = cJSON_CreateObject();
	int counted = e->fig.status == REPORT_COUNTED;
	int opened = counted || (e->fig.status == REPORT_NOT_COUNTED && !e->note);	/* read */

	cJSON_AddStringToObject(o, "name", e->name);
	cJSON_AddStringToObject(o, "pmu", e->pmu);
	/* 1.7: -G, --for-each-cgroup */
	cJSON_AddItemToObject(o, "cgroup", jsonout_str_or_null(e->cgroup));
	cJSON_AddNumberToObject(o, "type", e->type);
	cJSON_AddItemToObject(o, "config", jsonout_hex(e->config));
	cJSON_AddItemToObject(o, "config1", jsonout_hex(e->config1));
	cJSON_AddItemToObject(o, "config2", jsonout_hex(e->config2));
	cJSON_AddItemToObject(o, "exclude", jsonout_exclude(e->excl_user, e->excl_kernel, e->excl_hv,
							      e->excl_host, e->excl_guest));
	cJSON_AddItemToObject(o, "filter", filter_json(e));
	cJSON_AddItemToObject(o, "group", e->group >= 0 ? cJSON_CreateNumber(e->group)
							: cJSON_CreateNull());
	cJSON_AddStringToObject(o, "status", report_status_str(e->fig.status));
	cJSON_AddItemToObject(o, "reason", jsonout_str_or_null(e->fig.reason));
	/* the text report's note, where the reason does not carry it (a fixture tree's event
	 * that no core type has: reason ENOENT), so that pmuprof report prints it again */
	if (e->note && (!e->fig.reason || strcmp(e->note, e->fig.reason)))
		cJSON_AddStringToObject(o, "note", e->note);
	cJSON_AddItemToObject(o, "value", counted ? cJSON_CreateNumber(e->fig.value)
						  : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "raw_value", opened ? cJSON_CreateNumber((double)e->fig.raw)
						     : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "unit", e->unit);
	cJSON_AddNumberToObject(o, "time_enabled_ns", (double)e->fig.enabled_ns);
	cJSON_AddNumberToObject(o, "time_running_ns", (double)e->fig.running_ns);
	cJSON_AddItemToObject(o, "counted_pct", counted ? cJSON_CreateNumber(e->fig.counted_pct)
							: cJSON_CreateNull());
	/* 1.2: an estimate says so; --mux=runs says which run counted it */
	cJSON_AddItemToObject(o, "scaled", counted ? cJSON_CreateBool(e->fig.scaled)
						   : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "run", e->run ? cJSON_CreateNumber(e->run) : cJSON_CreateNull());
	split_json(o, e);
	if (r->nruns) {
		cJSON *runs = cJSON_AddArrayToObject(o, "runs");

		for (size_t i = 0; i < r->nruns; i++)
			cJSON_AddItemToArray(runs, jsonout_num(e->runs[i]));
		cJSON_AddItemToObject(o, "stats", stats_json(&e->stats, e->outlier, r->nruns));
	}
	cJSON_AddItemToObject(o, "metric", derived_json(&e->derived));
	cJSON_AddItemToObject(o, "units", units_json(r, e, -1));
	return o;
}

static cJSON *exit_json(const struct report *r)
{
	cJSON *o = cJSON_CreateObject();
	const char *sig = r->term_signal ? sigabbrev_np(r->term_signal) : NULL;
	char name[24];

	cJSON_AddItemToObject(o, "status", r->exit_code >= 0 ? cJSON_CreateNumber(r->exit_code)
							     : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "signal", r->term_signal ? cJSON_CreateNumber(r->term_signal)
							  : cJSON_CreateNull());
	snprintf(name, sizeof(name), "SIG%s", sig ? sig : "");
	cJSON_AddItemToObject(o, "signal_name", sig ? cJSON_CreateString(name)
						    : cJSON_CreateNull());
	cJSON_AddBoolToObject(o, "interrupted", r->interrupted);
	return o;
}

/* -r: each run's times and their summaries. */
static void time_runs_json(const struct report *r, cJSON *t)
{
	cJSON *runs = cJSON_AddArrayToObject(t, "runs"), *st;

	for (size_t i = 0; i < r->nruns; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "wall_ns", (double)r->run_times[i].wall_ns);
		cJSON_AddNumberToObject(o, "user_ns", (double)r->run_times[i].user_ns);
		cJSON_AddNumberToObject(o, "system_ns", (double)r->run_times[i].sys_ns);
		cJSON_AddItemToArray(runs, o);
	}
	st = cJSON_AddObjectToObject(t, "stats");
	cJSON_AddItemToObject(st, "wall_ns", stats_json(&r->wall_stats, NULL, 0));
	cJSON_AddItemToObject(st, "user_ns", stats_json(&r->user_stats, NULL, 0));
	cJSON_AddItemToObject(st, "system_ns", stats_json(&r->sys_stats, NULL, 0));
}

/* 1.6, --mux=runs: each planned run's times (means with -r, and their summaries). */
static cJSON *plan_runs_json(const struct report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t p = 0; p < r->nplan_times; p++) {
		const struct report_plan_times *pt = &r->plan_times[p];
		cJSON *o = cJSON_CreateObject(), *st;

		cJSON_AddNumberToObject(o, "run", (double)(p + 1));
		cJSON_AddNumberToObject(o, "wall_ns", (double)pt->t.wall_ns);
		cJSON_AddNumberToObject(o, "user_ns", (double)pt->t.user_ns);
		cJSON_AddNumberToObject(o, "system_ns", (double)pt->t.sys_ns);
		if (r->nruns) {
			st = cJSON_AddObjectToObject(o, "stats");
			cJSON_AddItemToObject(st, "wall_ns", stats_json(&pt->wall, NULL, 0));
			cJSON_AddItemToObject(st, "user_ns", stats_json(&pt->user, NULL, 0));
			cJSON_AddItemToObject(st, "system_ns", stats_json(&pt->sys, NULL, 0));
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *repeat_json(const struct report *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "runs", (double)r->nruns);
	cJSON_AddNumberToObject(o, "requested", (double)r->repeat);
	cJSON_AddNumberToObject(o, "warmup", (double)r->warmup);
	cJSON_AddItemToObject(o, "stopped", jsonout_str_or_null(r->stopped));
	return o;
}

/* Event e's delta over interval i: its total's, and (1.4) per unit; aggregated per unit, the
 * event's own fields are null and 0 (the report has the units' deltas only). */
static cJSON *interval_event_json(const struct report *r, const struct report_event *e,
				  size_t i)
{
	const struct report_figures *d = e->deltas ? &e->deltas[i].fig : NULL;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", e->name);
	cJSON_AddItemToObject(o, "cgroup", jsonout_str_or_null(e->cgroup));
	cJSON_AddItemToObject(o, "value", d && d->status == REPORT_COUNTED ?
			      cJSON_CreateNumber(d->value) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "raw_value", d ? (double)d->raw : 0);
	cJSON_AddNumberToObject(o, "time_enabled_ns", d ? (double)d->enabled_ns : 0);
	cJSON_AddNumberToObject(o, "time_running_ns", d ? (double)d->running_ns : 0);
	cJSON_AddItemToObject(o, "units", units_json(r, e, (long)i));
	return o;
}

/* -I: each interval's end and every event's delta over it. */
static cJSON *intervals_json(const struct report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < r->nintervals; i++) {
		cJSON *o = cJSON_CreateObject(), *evs;

		cJSON_AddNumberToObject(o, "t_ns", (double)r->interval_t_ns[i]);
		evs = cJSON_AddArrayToObject(o, "events");
		for (size_t k = 0; k < r->nevents; k++)
			cJSON_AddItemToArray(evs, interval_event_json(r, &r->events[k], i));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* The derived metrics (schema 1.5): each with its group, stage, unit, formula, its inputs
 * (the events that counted them, with their values) and, per aggregation unit, its value. */
static cJSON *metrics_json(const struct report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct report_metric_value *m = &r->metrics[i];
		cJSON *o = cJSON_CreateObject(), *evs, *ins;

		cJSON_AddStringToObject(o, "name", mxtab_metric_name(m->def));
		cJSON_AddStringToObject(o, "title", mxtab_metric_title(m->def));
		cJSON_AddItemToObject(o, "group", jsonout_str_or_null(m->group));
		cJSON_AddItemToObject(o, "stage", m->stage ? cJSON_CreateNumber(m->stage)
							   : cJSON_CreateNull());
		cJSON_AddStringToObject(o, "unit", mxtab_metric_unit(m->def));
		cJSON_AddItemToObject(o, "value", num_or_null(m->value));
		cJSON_AddItemToObject(o, "reason", jsonout_str_or_null(isfinite(m->value) ? NULL
									 : m->reason));
		cJSON_AddBoolToObject(o, "estimate", m->estimate);
		cJSON_AddBoolToObject(o, "requested", m->requested);
		cJSON_AddStringToObject(o, "core", m->core);
		cJSON_AddItemToObject(o, "pmu", jsonout_str_or_null(m->pmu));
		/* 1.8: the cgroup its events counted in (-G, --for-each-cgroup) */
		cJSON_AddItemToObject(o, "cgroup", jsonout_str_or_null(report_metric_cgroup(r, m)));
		cJSON_AddStringToObject(o, "formula", mxtab_metric_formula(m->def));
		evs = cJSON_AddArrayToObject(o, "events");
		ins = cJSON_AddArrayToObject(o, "inputs");
		for (size_t k = 0; k < m->nev; k++) {
			cJSON *in = cJSON_CreateObject();
			const struct report_event *e = m->ev[k] == REPORT_METRIC_NONE ? NULL
							: &r->events[m->ev[k]];

			if (e)
				cJSON_AddItemToArray(evs, cJSON_CreateString(e->name));
			cJSON_AddStringToObject(in, "event", mxtab_metric_event(m->def, k));
			cJSON_AddItemToObject(in, "index", e ? cJSON_CreateNumber((double)m->ev[k])
							     : cJSON_CreateNull());
			cJSON_AddItemToObject(in, "value", num_or_null(m->input[k]));
			cJSON_AddItemToArray(ins, in);
		}
		if (r->aggr != REPORT_AGGR_GLOBAL) {
			cJSON *us = cJSON_AddArrayToObject(o, "units");

			for (size_t u = 0; u < r->nunits; u++) {
				cJSON *x;

				if (!m->units || !m->units[u].applies)
					continue;
				x = cJSON_CreateObject();
				cJSON_AddStringToObject(x, "id", r->units[u].id);
				cJSON_AddItemToObject(x, "value", num_or_null(m->units[u].value));
				cJSON_AddItemToArray(us, x);
			}
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* --topdown: the stage-1 group, how it was counted, its nodes (the dominant ones marked) and
 * the stage-2 groups each dominant node leads to (their metrics are in "metrics"). */
static cJSON *topdown_json(const struct report *r)
{
	const struct report_metric_value *node[16];
	int dominant[16];
	size_t n = metrics_topdown_nodes(r, node, dominant, 16);
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "group", r->topdown_group);
	cJSON_AddItemToObject(o, "how", jsonout_str_or_null(r->topdown_how));
	a = cJSON_AddArrayToObject(o, "stage1");
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject(), *gs;
		const char *next = mxtab_metric_next(node[i]->def);
		const struct mxtab_group *g;

		cJSON_AddStringToObject(x, "name", mxtab_metric_name(node[i]->def));
		cJSON_AddItemToObject(x, "value", num_or_null(node[i]->value));
		cJSON_AddBoolToObject(x, "dominant", dominant[i]);
		gs = cJSON_AddArrayToObject(x, "drill_down");
		while (dominant[i] && (g = metrics_next_group(r->topdown_set, &next)))
			cJSON_AddItemToArray(gs, cJSON_CreateString(mxtab_group_name(g)));
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

static cJSON *mux_json(const struct report *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "mode", r->mux ? r->mux : "kernel");
	cJSON_AddNumberToObject(o, "runs", (double)(r->mux_runs ? r->mux_runs : 1));
	cJSON_AddItemToObject(o, "runs_for_exact", r->runs_for_exact ?
			      cJSON_CreateNumber((double)r->runs_for_exact) : cJSON_CreateNull());
	cJSON_AddBoolToObject(o, "multiplexed", r->multiplexed);
	/* --no-scale: every value is its raw_value, no estimate */
	cJSON_AddBoolToObject(o, "scaling", !r->disp.unscaled);
	return o;
}

/* 1.7: the regions (stat --regions): each with its events and metrics as the top level's,
 * from the region's own report. */
static cJSON *regions_json(const struct report *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t k = 0; k < r->nregions; k++) {
		const struct report_region *g = &r->regions[k];
		cJSON *o = cJSON_CreateObject(), *evs;

		cJSON_AddStringToObject(o, "name", g->name);
		cJSON_AddNumberToObject(o, "calls", g->calls);
		cJSON_AddNumberToObject(o, "wall_ns", (double)g->r->wall_ns);
		cJSON_AddNumberToObject(o, "unended", (double)g->unended);
		cJSON_AddBoolToObject(o, "overlapped", g->overlapped);
		evs = cJSON_AddArrayToObject(o, "events");
		for (size_t e = 0; e < g->r->nevents; e++)
			cJSON_AddItemToArray(evs, event_json(g->r, &g->r->events[e]));
		cJSON_AddItemToObject(o, "metrics", metrics_json(g->r));
		if (g->r->nruns)
			cJSON_AddItemToObject(o, "wall_stats", stats_json(&g->r->wall_stats, NULL,
									    g->r->nruns));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *report_tree(const struct report *r)
{
	cJSON *root = cJSON_CreateObject(), *argv, *evs, *t;

	cJSON_AddStringToObject(root, "schema_version", REPORT_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "pmuprof_version", r->tool_version);
	argv = cJSON_AddArrayToObject(root, "command");
	for (int k = 0; k < r->argc; k++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(r->argv[k]));
	/* 1.6: --name, which the exports name the benchmark by (null: after the command) */
	cJSON_AddItemToObject(root, "name", jsonout_str_or_null(r->name));
	cJSON_AddItemToObject(root, "host", host_json(&r->host));
	/* 1.4: what was counted, how it is aggregated, and how counting ended */
	cJSON_AddItemToObject(root, "target", jsonout_str_or_null(r->target));
	cJSON_AddBoolToObject(root, "system_wide", r->system_wide);
	cJSON_AddStringToObject(root, "aggregation", aggr_name(r->aggr));
	cJSON_AddItemToObject(root, "timeout_ms", r->timeout_ms ?
			      cJSON_CreateNumber(r->timeout_ms) : cJSON_CreateNull());
	cJSON_AddBoolToObject(root, "timed_out", r->timed_out);
	evs = cJSON_AddArrayToObject(root, "events");
	for (size_t k = 0; k < r->nevents; k++)
		cJSON_AddItemToArray(evs, event_json(r, &r->events[k]));
	t = cJSON_AddObjectToObject(root, "time");
	cJSON_AddNumberToObject(t, "wall_ns", (double)r->wall_ns);
	cJSON_AddNumberToObject(t, "user_ns", (double)r->user_ns);
	cJSON_AddNumberToObject(t, "system_ns", (double)r->sys_ns);
	/* 1.6: the planned run these times are of, and every planned run's (--mux=runs) */
	cJSON_AddItemToObject(t, "plan_run", r->time_run ? cJSON_CreateNumber(r->time_run)
							 : cJSON_CreateNull());
	cJSON_AddItemToObject(t, "plan_runs", r->plan_times ? plan_runs_json(r)
							    : cJSON_CreateNull());
	if (r->nruns) {
		time_runs_json(r, t);
		cJSON_AddItemToObject(root, "repeat", repeat_json(r));
	}
	if (r->interval_ms) {
		cJSON_AddNumberToObject(root, "interval_ms", r->interval_ms);
		cJSON_AddItemToObject(root, "interval_stop", jsonout_str_or_null(r->interval_stop));
		cJSON_AddItemToObject(root, "intervals", intervals_json(r));
	}
	cJSON_AddItemToObject(root, "mux", mux_json(r));
	/* 1.5: the metrics' core, what -M asked for, the metrics from the tables */
	cJSON_AddItemToObject(root, "metrics_core", jsonout_str_or_null(r->metrics_core));
	t = cJSON_AddArrayToObject(root, "metric_requests");
	for (size_t k = 0; k < r->nmetric_requests; k++)
		cJSON_AddItemToArray(t, cJSON_CreateString(r->metric_requests[k]));
	cJSON_AddItemToObject(root, "metrics", metrics_json(r));
	cJSON_AddItemToObject(root, "topdown", r->topdown_group ? topdown_json(r) : cJSON_CreateNull());
	if (r->regions || r->region_stray_ends) {
		cJSON_AddItemToObject(root, "regions", regions_json(r));
		cJSON_AddNumberToObject(root, "region_stray_ends", (double)r->region_stray_ends);
	}
	cJSON_AddItemToObject(root, "exit", exit_json(r));
	return root;
}

int report_json(const struct report *r, FILE *out)
{
	return jsonout_emit(report_tree(r), out, JSONOUT_PRETTY);
}
