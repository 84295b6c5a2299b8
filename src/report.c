/* report.c: what all output formats share: status words, host facts, derived metrics. */
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

/* A counted event of the given type and config. */
static const struct report_event *find(const struct report *r, uint32_t type, uint64_t config)
{
	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		if (e->type == type && e->config == config && e->status == REPORT_COUNTED)
			return e;
	}
	return NULL;
}

/* The derived figure perf stat prints beside an event, from the other counted events: a
 * metric anchored on it (metrics.h: IPC, branch and cache miss shares, stalls, top-down),
 * CPUs utilized for task-clock, else a rate per second of task-clock (of cpu-clock when
 * task-clock was not counted, as perf does). 0 when there is none. */
int report_metric(const struct report *r, const struct report_event *e, double *val,
		  const char **unit)
{
	const struct report_event *tc;
	size_t idx = (size_t)(e - r->events);

	if (e->status != REPORT_COUNTED)
		return 0;
	for (size_t k = 0; k < r->nmetrics; k++)
		if (r->metrics[k].anchor == idx) {
			*val = r->metrics[k].value;
			*unit = r->metrics[k].def->label;
			return 1;
		}
	if (e->type == 1 && (e->config == 1 || e->config == 0)) {	/* task-clock, cpu-clock */
		uint64_t wall = e->wall_ns ? e->wall_ns : r->wall_ns;	/* of its own run */

		if (!wall)
			return 0;
		*val = e->value / (double)wall;
		*unit = "CPUs utilized";
		return 1;
	}
	/* per second of task-clock, else of cpu-clock: perf keeps either as the time counted */
	if (!(tc = find(r, 1, 1)))
		tc = find(r, 1, 0);
	if (tc && tc->value > 0) {
		double rate = e->value / (tc->value / 1e9);
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
