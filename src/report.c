/* report.c: what all output formats share: status words, host facts, derived metrics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "filter.h"
#include "metrics.h"
#include "report.h"
#include "sysfs.h"

const char *report_status_str(enum report_status s)
{
	switch (s) {
	case REPORT_COUNTED: return "counted";
	case REPORT_NOT_COUNTED: return "not counted";
	case REPORT_NOT_SUPPORTED: return "not supported";
	case REPORT_NOT_PERMITTED: return "not permitted";
	case REPORT_ABSENT: return "absent";
	}
	return "unknown";
}

char *report_name(const struct report *r)
{
	const char *cmd, *slash;
	size_t len = 1;
	char *s, *p;

	if (r->name)
		return strdup(r->name);
	if (!r->argc)
		return strdup(r->target ? r->target : "pmuprof stat");
	/* "dir/" has no basename to take: kept whole */
	cmd = (slash = strrchr(r->argv[0], '/')) && slash[1] ? slash + 1 : r->argv[0];
	len += strlen(cmd);
	for (int k = 1; k < r->argc; k++)
		len += strlen(r->argv[k]) + 1;
	if (!(s = malloc(len)))
		return NULL;
	p = stpcpy(s, cmd);
	for (int k = 1; k < r->argc; k++) {
		*p++ = ' ';
		p = stpcpy(p, r->argv[k]);
	}
	return s;
}

const char *report_mark_note(const struct report_event *e, char *buf, size_t len)
{
	const struct report_event_more *m = report_more(e);
	size_t n = (size_t)snprintf(buf, len, "marked: filter %s:", m->filter_terms);
	int total = __builtin_popcount(m->filter_differ), k = 0;

	/* the levels are those where the request and the driver's bits differ (Secure EL0-2,
	 * EL3); counting there is the firmware's to allow (MDCR_EL3.SPME/MPMX) */

	for (int l = 0; l < FILTER_NLEVELS && n < len; l++)
		if (m->filter_differ & 1u << l)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", ++k == 1 ? " " :
					      k == total ? " and " : ", ", filter_level_title(l));
	if (n < len)
		snprintf(buf + n, len - n, " cannot be filtered as asked; Linux programs the "
			 "Non-secure part only (--allow-secure)");
	return buf;
}

const char *report_part_name(const struct report_event *e, const struct report_part *p,
			     char *buf, size_t len)
{
	const char *name = e->name, *first = strchr(name, '/'), *last = strrchr(name, '/');
	const char *colon = strrchr(name, ':');

	/* "inst_retired/p=1/u": the event's terms join the PMU's, "pmu/inst_retired,p=1/u" */
	if (first && last > first) {
		snprintf(buf, len, "%s/%.*s,%.*s/%s", p->pmu, (int)(first - name), name,
			 (int)(last - first - 1), first + 1, last[1] == ':' ? last + 2 : last + 1);
		return buf;
	}
	/* "inst_retired:u": the modifiers go after the PMU's slashes, as perf writes them */
	if (colon && colon[1] && strspn(colon + 1, "ukhHGDpPSIWe") == strlen(colon + 1))
		snprintf(buf, len, "%s/%.*s/%s", p->pmu, (int)(colon - name), name, colon + 1);
	else
		snprintf(buf, len, "%s/%s/", p->pmu, name);
	return buf;
}

void report_host_fill(struct report_host *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
		snprintf(h->machine, sizeof(h->machine), "%s", u.machine);
	}
	if (sysfs_cpu_model(h->cpu_model, sizeof(h->cpu_model)) != PP_OK)
		h->cpu_model[0] = '\0';
	if (sysfs_cpu_midr(0, &h->midr) != PP_OK)
		h->midr = 0;
	h->ncpus = sysfs_ncpus();
}

/* Where a derived figure's inputs come from: the events' totals (unit 0, interval < 0), their
 * deltas over one interval (unit 0), or unit u's cells of the whole run (interval < 0) or of
 * one interval. */
struct source {
	const struct report *r;
	int unit;
	size_t u;
	long interval;
};

int report_value_at(const struct report *r, const struct report_event *e, int unit, size_t u,
		    long interval, double *v, int *scaled)
{
	const struct report_cell *c;
	int sc = 0, ok;

	if (!unit && interval >= 0) {
		const struct report_delta *d = report_more(e)->deltas;

		ok = d && (size_t)interval < r->nintervals && d[interval].counted;
		if (ok) {
			*v = d[interval].value;
			sc = d[interval].running_ns < d[interval].enabled_ns;
		}
	} else if (!unit) {
		*v = e->value;
		sc = e->scaled;
		ok = e->status == REPORT_COUNTED;
	} else {
		c = report_cell_at(r, e, u, interval);
		ok = c && c->present && c->status == REPORT_COUNTED;
		if (ok) {
			*v = c->value;
			sc = c->scaled;
		}
	}
	if (scaled)
		*scaled = ok && sc;
	return ok;
}

/* e's value in the source, when it was counted there. */
static int counted(const struct source *s, const struct report_event *e, double *v)
{
	return report_value_at(s->r, e, s->unit, s->u, s->interval, v, NULL);
}

/* The time counted in the source: the first task-clock counted there, else the first
 * cpu-clock, in one pass over the events (it runs for every row). */
static int clock_ns(const struct source *s, double *v)
{
	double cpu = 0;
	int have_cpu = 0;

	for (size_t k = 0; k < s->r->nevents; k++) {
		const struct report_event *e = &s->r->events[k];

		if (e->type != PERF_TYPE_SOFTWARE)
			continue;
		if (e->config == PERF_COUNT_SW_TASK_CLOCK && counted(s, e, v))
			return 1;
		if (e->config == PERF_COUNT_SW_CPU_CLOCK && !have_cpu)
			have_cpu = counted(s, e, &cpu);
	}
	*v = cpu;
	return have_cpu;
}

size_t report_next_metric(const struct report *r, size_t idx, size_t from)
{
	for (size_t k = from; k < r->nmetrics; k++)
		if (r->metrics[k].anchor == idx && !r->metrics[k].pmu)
			return k;
	return r->nmetrics;
}

/* The first metric anchored on event idx with a value in the source (metrics.h). */
static int anchored(const struct source *s, size_t idx, double *val, const char **unit)
{
	const struct report *r = s->r;

	for (size_t k = report_next_metric(r, idx, 0); k < r->nmetrics;
	     k = report_next_metric(r, idx, k + 1)) {
		const struct report_metric_value *m = &r->metrics[k];
		double x = s->unit || s->interval >= 0 ?
			metrics_value_at(r, m, s->unit, s->u, s->interval, NULL, NULL) : m->value;

		if (!isfinite(x))
			continue;
		*val = x;
		*unit = m->label;
		return 1;
	}
	return 0;
}

/* The one computation behind report_metric and report_cell_metric; wall_ns 0: the event's
 * own run's wall time. */
static int derived(const struct source *s, const struct report_event *e, uint64_t wall_ns,
		   double *val, const char **unit)
{
	const struct report *r = s->r;
	double value, tc;

	/* a time of perf's tool events (duration_time): no rate of it per second means a thing
	 * (perf 6.1 prints one, "2.405 G/sec") */
	if (report_is_tool(e))
		return 0;
	if (!counted(s, e, &value))
		return 0;
	if (anchored(s, (size_t)(e - r->events), val, unit))
		return 1;
	if (e->type == 1 && (e->config == 1 || e->config == 0)) {	/* task-clock, cpu-clock */
		uint64_t wall = wall_ns ? wall_ns : e->wall_ns ? e->wall_ns : r->wall_ns;

		if (!wall)
			return 0;
		*val = value / (double)wall;
		*unit = "CPUs utilized";
		return 1;
	}
	/* per second of task-clock, else of cpu-clock: perf keeps either as the time counted */
	if (clock_ns(s, &tc) && tc > 0) {
		double rate = value / (tc / 1e9);
		static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
		int u = 0;

		while (rate >= 1000.0 && u < 3) {
			rate /= 1000.0;
			u++;
		}
		*val = rate;
		*unit = units[u];
		return 1;
	}
	return 0;
}

/* The derived figure perf stat prints beside an event, from the other counted events: a
 * metric anchored on it (metrics.h: IPC, branch and cache miss shares, stalls, top-down),
 * CPUs utilized for task-clock, else a rate per second of task-clock (of cpu-clock when
 * task-clock was not counted, as perf does). 0 when there is none. */
int report_metric(const struct report *r, const struct report_event *e, double *val,
		  const char **unit)
{
	struct source s = { .r = r, .interval = -1 };

	return derived(&s, e, 0, val, unit);
}

int report_metric_only_unit(const char *unit)
{
	return unit && !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

int report_metric_only_at(const struct report *r, const struct report_event *e, long interval,
			  double *val, const char **unit)
{
	struct source s = { .r = r, .interval = interval };
	const char *there;

	if (!report_metric(r, e, val, unit) || !report_metric_only_unit(*unit))
		return 0;
	if (interval >= 0 && (!derived(&s, e, report_interval_ns(r, (size_t)interval), val,
				       &there) || strcmp(there, *unit)))
		*val = NAN;
	return 1;
}

int report_interval_metric(const struct report *r, const struct report_event *e, size_t i,
			   double *val, const char **unit)
{
	struct source s = { .r = r, .interval = (long)i };

	return i < r->nintervals && derived(&s, e, report_interval_ns(r, i), val, unit);
}

int report_cell_metric(const struct report *r, const struct report_event *e, size_t u,
		       long interval, uint64_t wall_ns, double *val, const char **unit)
{
	struct source s = { .r = r, .unit = 1, .u = u, .interval = interval };

	return derived(&s, e, wall_ns, val, unit);
}

const struct report_cell *report_cell_at(const struct report *r, const struct report_event *e,
					 size_t u, long interval)
{
	const struct report_event_more *m = report_more(e);

	if (u >= r->nunits)
		return NULL;
	if (interval < 0)
		return m->cells ? &m->cells[u] : NULL;
	if (!m->unit_deltas || (size_t)interval >= r->nintervals)
		return NULL;
	return &m->unit_deltas[(size_t)interval * r->nunits + u];
}

const struct stats_summary *report_stats(const struct report_event *e)
{
	static const struct stats_summary none;
	const struct stats_summary *s = report_more(e)->stats;

	return s ? s : &none;
}

const struct report_event_more report_more_none;

struct report_event_more *report_more_of(struct report *r, size_t k)
{
	if (k >= r->nevents)
		return NULL;
	if (!r->more && !(r->more = calloc(r->nevents, sizeof(*r->more))))
		return NULL;
	r->events[k].more = &r->more[k];
	return &r->more[k];
}

void report_free_parts(struct report *r)
{
	/* what the events' more point to (most events of a plain run have none) */
	for (size_t k = 0; r->more && k < r->nevents; k++) {
		const struct report_event_more *m = &r->more[k];

		free((void *)m->runs);
		free((void *)m->outlier);
		free((void *)m->stats);
		free((void *)m->deltas);
		free((void *)m->split);
		free((void *)m->cells);
		free((void *)m->unit_deltas);
	}
	free(r->more);
	free(r->events);
	free((void *)r->units);
	free((void *)r->metrics);
	free((void *)r->run_times);
	free((void *)r->plan_times);
	r->more = NULL;
	r->events = NULL;
	r->units = NULL;
	r->metrics = NULL;
	r->run_times = NULL;
	r->plan_times = NULL;
	r->nplan_times = 0;
}

int report_has_intervals(const struct report *r)
{
	return r->nintervals && r->nevents &&
	       (r->aggr == REPORT_AGGR_GLOBAL ? report_more(&r->events[0])->deltas != NULL
					      : report_more(&r->events[0])->unit_deltas != NULL);
}

int report_cell_shown(const struct report *r, const struct report_cell *c)
{
	if (!c || !c->present)
		return 0;
	return !(r->aggr == REPORT_AGGR_THREAD && r->system_wide &&
		 c->status == REPORT_COUNTED && c->raw == 0);
}

/* Rows unit by unit (perf's print_aggr), or event by event. */
static int unit_major(const struct report *r)
{
	return r->aggr == REPORT_AGGR_CORE || r->aggr == REPORT_AGGR_CLUSTER ||
	       r->aggr == REPORT_AGGR_SOCKET || r->aggr == REPORT_AGGR_DIE ||
	       r->aggr == REPORT_AGGR_NODE;
}

int report_unit_has_ncpus(const struct report *r)
{
	return unit_major(r);
}

/* A cell's value for ordering threads: uncounted ones last. */
static double order_value(const struct report *r, const struct report_event *e, size_t u,
			  long interval)
{
	const struct report_cell *c = report_cell_at(r, e, u, interval);

	return c && c->present && c->status == REPORT_COUNTED ? c->value : -1;
}

/* e's units in printing order: the report's, with --per-thread by value, largest first. */
static void unit_order(const struct report *r, const struct report_event *e, long interval,
		       size_t *order)
{
	for (size_t u = 0; u < r->nunits; u++) {
		size_t k = u;
		double v = order_value(r, e, u, interval);

		/* insertion: stable, and cheap next to reading the counters of that many threads */
		while (r->aggr == REPORT_AGGR_THREAD && k > 0 &&
		       order_value(r, e, order[k - 1], interval) < v) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = u;
	}
}

void report_each_cell(const struct report *r, long interval,
		      void (*fn)(const struct report *r, const struct report_event *e, size_t u,
				 long interval, void *arg),
		      void *arg)
{
	size_t *order;

	if (unit_major(r)) {
		for (size_t u = 0; u < r->nunits; u++)
			for (size_t k = 0; k < r->nevents; k++)
				if (report_cell_shown(r, report_cell_at(r, &r->events[k], u, interval)))
					fn(r, &r->events[k], u, interval, arg);
		return;
	}
	order = r->nunits ? malloc(r->nunits * sizeof(*order)) : NULL;
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];

		if (order)
			unit_order(r, e, interval, order);
		for (size_t j = 0; j < r->nunits; j++) {
			size_t u = order ? order[j] : j;

			if (report_cell_shown(r, report_cell_at(r, e, u, interval)))
				fn(r, e, u, interval, arg);
		}
	}
	free(order);
}

int report_interval_heading(const struct report *r)
{
	return !r->interval_base && !r->interval_from;
}

uint64_t report_interval_ns(const struct report *r, size_t i)
{
	return r->interval_t_ns[i] - (i ? r->interval_t_ns[i - 1] : r->interval_t0_ns);
}
