/* SPDX-License-Identifier: Apache-2.0 */
/* stat_region.c: named regions: at each boundary the counters' readings; a region's counts
 * are the sum over its executions of the change between its begin and its end, kept per
 * counter and recorded at the run's end as readings, which then pass through the same
 * aggregation and report as the whole run's. */
#include <stdlib.h>
#include <string.h>

#include "stat_ctl.h"

static struct stat_region *find(struct stat_regions *g, const char *name)
{
	for (size_t k = 0; k < g->n; k++)
		if (!strcmp(g->r[k].name, name))
			return &g->r[k];
	return NULL;
}

/* The region named name, made when new; NULL when memory ran out. */
static struct stat_region *get(struct stat_regions *g, const char *name, size_t ncounters)
{
	struct stat_region *r = find(g, name);

	if (r)
		return r;
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 8;
		struct stat_region *m = realloc(g->r, cap * sizeof(*m));

		if (!m)
			return NULL;
		g->r = m;
		g->cap = cap;
	}
	r = &g->r[g->n];
	memset(r, 0, sizeof(*r));
	g->ncounters = ncounters;
	if (!(r->name = strdup(name)) || !(r->acc = calloc(ncounters + 1, sizeof(*r->acc)))) {
		free(r->name);
		return NULL;
	}
	g->n++;
	return r;
}

/* Room for one more open execution. */
static int push_room(struct stat_region *r, size_t n)
{
	size_t cap = r->cap ? 2 * r->cap : 4;
	uint64_t *t;
	struct counter_reading *s;

	if (r->open < r->cap)
		return 0;
	if (!(t = realloc(r->t_begin, cap * sizeof(*t))))
		return -1;
	r->t_begin = t;
	if (!(s = realloc(r->snap, cap * (n + 1) * sizeof(*s))))
		return -1;
	r->snap = s;
	r->cap = cap;
	return 0;
}

int stat_region_begin(struct stat_regions *g, const char *name, const struct stat_counters *cs,
		      uint64_t now_ns)
{
	struct stat_region *r = get(g, name, cs->n);

	if (!r || push_room(r, cs->n) != 0)
		return -1;
	if (r->open)
		r->overlapped = 1;
	r->t_begin[r->open] = now_ns;
	for (size_t k = 0; k < cs->n; k++)
		r->snap[r->open * cs->n + k] = cs->c[k].rd;
	r->open++;
	return 0;
}

/* b - a, never below 0 (a counter that failed to read reads 0) */
static uint64_t minus(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

int stat_region_end(struct stat_regions *g, const char *name, const struct stat_counters *cs,
		    uint64_t now_ns)
{
	struct stat_region *r = find(g, name);
	const struct counter_reading *s;

	if (!r || !r->open) {
		g->stray_ends++;
		return 1;
	}
	r->open--;
	s = &r->snap[r->open * cs->n];
	for (size_t k = 0; k < cs->n; k++) {
		const struct counter_reading *now = &cs->c[k].rd;

		r->acc[k].value += minus(now->value, s[k].value);
		r->acc[k].enabled += minus(now->enabled, s[k].enabled);
		r->acc[k].running += minus(now->running, s[k].running);
	}
	r->calls_run++;
	r->wall_run += minus(now_ns, r->t_begin[r->open]);
	return 0;
}

void stat_regions_run_end(struct stat_regions *g)
{
	for (size_t k = 0; k < g->n; k++) {
		g->r[k].unended += g->r[k].open;
		g->r[k].open = 0;
	}
}

/* Region r's sums as the counters' readings of the run, for stat_record; the tool events
 * (duration_time) are its time, user and system time not known per region. */
static void as_read(const struct stat_region *r, struct stat_counters *cs)
{
	for (size_t k = 0; k < cs->n; k++) {
		struct stat_counter *c = &cs->c[k];
		uint64_t t = c->tool == STAT_TOOL_DURATION ? r->wall_run : 0;

		c->rd = c->tool ? (struct counter_reading){ t, t, t } : r->acc[k];
	}
}

int stat_regions_record(struct stat_regions *g, const struct stat_event *rows,
			struct stat_counters *cs, uint32_t run, uint32_t plan_run, int only_run,
			const struct workload_result *res)
{
	struct counter_reading *saved = malloc((cs->n + 1) * sizeof(*saved));
	int rc = 0;

	if (!saved)
		return -1;
	for (size_t k = 0; k < cs->n; k++)
		saved[k] = cs->c[k].rd;
	for (size_t i = 0; i < g->n && !rc; i++) {
		struct stat_region *r = &g->r[i];
		struct workload_result rr = *res;

		rr.wall_ns = r->wall_run;
		rr.user_ns = rr.sys_ns = 0;
		as_read(r, cs);
		rc = stat_record(&r->s.rd, rows, cs, run, plan_run, only_run, &rr, NULL);
		if (plan_run == 0)
			r->calls += r->calls_run;
		r->s.nruns = run + 1;
		r->calls_run = r->wall_run = 0;
		memset(r->acc, 0, cs->n * sizeof(*r->acc));
	}
	for (size_t k = 0; k < cs->n; k++)
		cs->c[k].rd = saved[k];
	free(saved);
	return rc;
}

void stat_regions_free(struct stat_regions *g)
{
	for (size_t k = 0; k < g->n; k++) {
		free(g->r[k].name);
		free(g->r[k].t_begin);
		free(g->r[k].snap);
		free(g->r[k].acc);
		stat_series_free(&g->r[k].s);
	}
	free(g->r);
	memset(g, 0, sizeof(*g));
}
