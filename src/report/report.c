/* SPDX-License-Identifier: Apache-2.0 */
/* report.c: what all output formats share: status words, names, host facts, and the walks
 * over a finished report's events, cells and intervals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "filter.h"
#include "report.h"
#include "sysfs.h"

double report_share_pct(uint64_t running_ns, uint64_t enabled_ns)
{
	return running_ns == enabled_ns ? 100.0 : 100.0 * (double)running_ns / (double)enabled_ns;
}

void report_delta_set(struct report_delta *d, const struct report_event *e, int counted,
		      uint64_t raw, uint64_t enabled_ns, uint64_t running_ns, double value)
{
	struct report_figures *f = &d->fig;

	memset(f, 0, sizeof(*f));
	/* an event counted over the run was not in this interval; else it was never */
	f->status = counted ? REPORT_COUNTED : e->fig.status == REPORT_COUNTED ?
		    REPORT_NOT_COUNTED : e->fig.status;
	f->raw = raw;
	f->enabled_ns = enabled_ns;
	f->running_ns = running_ns;
	f->value = value;
	f->counted_pct = report_share_pct(running_ns, enabled_ns);
	f->scaled = counted && running_ns < enabled_ns;
}

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
	size_t n = (size_t)snprintf(buf, len, "marked: filter %s:", e->filter_terms);
	int total = __builtin_popcount(e->filter_differ), k = 0;

	/* the levels are those where the request and the driver's bits differ (Secure EL0-2,
	 * EL3); counting there is the firmware's to allow (MDCR_EL3.SPME/MPMX) */

	for (int l = 0; l < FILTER_NLEVELS && n < len; l++)
		if (e->filter_differ & 1u << l)
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

void report_split_set(struct report_event *e, struct report_part *parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		parts[i].time_pct = e->fig.enabled_ns ?
			100.0 * (double)parts[i].fig.enabled_ns / (double)e->fig.enabled_ns : 0;
	e->split = parts;
	e->nsplit = n;
}

const struct report_part *report_part_on(const struct report_event *e, const char *pmu)
{
	for (size_t i = 0; i < e->nsplit; i++)
		if (!strcmp(e->split[i].pmu, pmu))
			return &e->split[i];
	return NULL;
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

int report_value_at(const struct report *r, const struct report_event *e, int unit, size_t u,
		    long interval, double *v, int *scaled)
{
	const struct report_cell *c;
	int sc = 0, ok;

	if (!unit && interval >= 0) {
		const struct report_delta *d = e->deltas;

		ok = d && (size_t)interval < r->nintervals &&
		     d[interval].fig.status == REPORT_COUNTED;
		if (ok) {
			*v = d[interval].fig.value;
			sc = d[interval].fig.scaled;
		}
	} else if (!unit) {
		*v = e->fig.value;
		sc = e->fig.scaled;
		ok = e->fig.status == REPORT_COUNTED;
	} else {
		c = report_cell_at(r, e, u, interval);
		ok = c && c->present && c->fig.status == REPORT_COUNTED;
		if (ok) {
			*v = c->fig.value;
			sc = c->fig.scaled;
		}
	}
	if (scaled)
		*scaled = ok && sc;
	return ok;
}

size_t report_next_metric(const struct report *r, size_t idx, size_t from)
{
	for (size_t k = from; k < r->nmetrics; k++)
		if (r->metrics[k].anchor == idx && !r->metrics[k].pmu)
			return k;
	return r->nmetrics;
}

int report_metric_only_unit(const char *unit)
{
	return unit && !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

int report_metric_only_at(const struct report *r, const struct report_event *e, long interval,
			  double *val, const char **unit)
{
	const struct report_derived *d;

	if (!e->derived.unit || !report_metric_only_unit(e->derived.unit))
		return 0;
	*unit = e->derived.unit;
	*val = e->derived.value;
	if (interval < 0)
		return 1;
	/* over an interval: the same figure, where the interval has it */
	d = e->deltas && (size_t)interval < r->nintervals ? &e->deltas[interval].derived : NULL;
	*val = d && d->unit && !strcmp(d->unit, *unit) ? d->value : NAN;
	return 1;
}

const struct report_cell *report_cell_at(const struct report *r, const struct report_event *e,
					 size_t u, long interval)
{
	if (u >= r->nunits)
		return NULL;
	if (interval < 0)
		return e->cells ? &e->cells[u] : NULL;
	if (!e->unit_deltas || (size_t)interval >= r->nintervals)
		return NULL;
	return &e->unit_deltas[(size_t)interval * r->nunits + u];
}

void report_metrics_free(struct report *r)
{
	for (size_t k = 0; r->metrics && k < r->nmetrics; k++)
		free(r->metrics[k].units);
	free((void *)r->metrics);
	r->metrics = NULL;
	r->nmetrics = 0;
}

void report_free_parts(struct report *r)
{
	for (size_t k = 0; r->events && k < r->nevents; k++) {
		const struct report_event *m = &r->events[k];

		free((void *)m->runs);
		free((void *)m->outlier);
		free((void *)m->deltas);
		free((void *)m->split);
		free((void *)m->cells);
		free((void *)m->unit_deltas);
	}
	free(r->events);
	free((void *)r->units);
	report_metrics_free(r);
	free((void *)r->run_times);
	free((void *)r->plan_times);
	r->events = NULL;
	r->units = NULL;
	r->run_times = NULL;
	r->plan_times = NULL;
	r->nplan_times = 0;
	for (size_t k = 0; k < r->nregions; k++) {
		if (r->regions[k].r)
			report_free_parts(r->regions[k].r);
		free(r->regions[k].r);
		free(r->regions[k].name);
	}
	free(r->regions);
	r->regions = NULL;
	r->nregions = 0;
}

int report_has_intervals(const struct report *r)
{
	return r->nintervals && r->nevents &&
	       (r->aggr == REPORT_AGGR_GLOBAL ? r->events[0].deltas != NULL
					      : r->events[0].unit_deltas != NULL);
}

int report_cell_shown(const struct report *r, const struct report_cell *c)
{
	if (!c || !c->present)
		return 0;
	return !(r->aggr == REPORT_AGGR_THREAD && r->system_wide &&
		 c->fig.status == REPORT_COUNTED && c->fig.raw == 0);
}

/* Rows unit by unit (perf's print_aggr), or event by event. */
static int unit_major(const struct report *r)
{
	return r->aggr == REPORT_AGGR_CORE || r->aggr == REPORT_AGGR_CLUSTER ||
	       r->aggr == REPORT_AGGR_SOCKET || r->aggr == REPORT_AGGR_DIE ||
	       r->aggr == REPORT_AGGR_NODE || r->aggr == REPORT_AGGR_CACHE;
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

	return c && c->present && c->fig.status == REPORT_COUNTED ? c->fig.value : -1;
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
