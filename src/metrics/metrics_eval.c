/* SPDX-License-Identifier: Apache-2.0 */
/* metrics_eval.c: a bound metric's value from the report's stored counts: over the totals,
 * a unit's cells, an interval's deltas or one run of -r, with whether an input was scaled. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "sysfs.h"

/* Where metrics_value_at looks: the metric, the report and the source of the values. */
struct at {
	const struct report *r;
	const struct report_metric_value *m;
	int unit;
	size_t u;
	long interval;
	int scaled;
	long run;		/* -r: that run's values; -1: the totals (their means) */
};

/* The value of m's input i (REPORT_METRIC_NONE: none) in the source a describes: MEXPR_OK
 * with *value, else MEXPR_NOVALUE; a->scaled set when it was counted for part of the time. */
static enum mexpr_status input_at(void *ctx, size_t i, double *value)
{
	struct at *a = ctx;
	const struct report_metric_value *m = a->m;
	const struct report_event *e;
	int scaled = 0;

	if (m->ev[i] == REPORT_METRIC_NONE)
		return MEXPR_NOVALUE;
	e = &a->r->events[m->ev[i]];
	if (a->run >= 0) {
		/* one run's value (NAN: not counted in it); a core type's part has none of its
		 * own per run */
		const double *runs = e->runs;

		if (m->pmu || !runs || (size_t)a->run >= a->r->nruns || isnan(runs[a->run]))
			return MEXPR_NOVALUE;
		*value = runs[a->run];
		return MEXPR_OK;
	}
	if (m->pmu && !a->unit) {
		/* a core type's metric over the totals: that PMU's part only */
		const struct report_part *p = report_part_on(e, m->pmu);

		if (a->interval >= 0 || !p || p->fig.status != REPORT_COUNTED)
			return MEXPR_NOVALUE;
		*value = p->fig.value;
		a->scaled |= e->fig.scaled && p->fig.running_ns < p->fig.enabled_ns;
		return MEXPR_OK;
	}
	if (!report_value_at(a->r, e, a->unit, a->u, a->interval, value, &scaled))
		return MEXPR_NOVALUE;
	a->scaled |= scaled;
	return MEXPR_OK;
}

double metrics_input_at(const struct report *r, const struct report_metric_value *m, size_t i)
{
	struct at a = { r, m, 0, 0, -1, 0, -1 };
	double v;

	return i < m->nev && input_at(&a, i, &v) == MEXPR_OK ? v : NAN;
}

double metrics_value_at(const struct report *r, const struct report_metric_value *m, int unit,
			size_t u, long interval, struct mexpr_error *err, int *estimate)
{
	struct at a = { r, m, unit, u, interval, 0, -1 };
	double v;

	if (unit && !metrics_unit_applies(r, m, u)) {
		if (err) {
			memset(err, 0, sizeof(*err));
			err->status = MEXPR_NOVALUE;
		}
		return NAN;
	}
	v = mxtab_metric_run(m->def, input_at, &a, err);
	if (estimate)
		*estimate = a.scaled;
	return v;
}

double metrics_value_run(const struct report *r, const struct report_metric_value *m,
			 size_t run)
{
	struct at a = { r, m, 0, 0, -1, 0, (long)run };

	return mxtab_metric_run(m->def, input_at, &a, NULL);
}

int metrics_unit_applies(const struct report *r, const struct report_metric_value *m, size_t u)
{
	const struct report_event *e;
	const struct report_part *p;
	int *cpus = NULL, n = 0, in = 0;

	if (!m->pmu)
		return 1;
	/* a core type's metric in a unit: only a CPU of that type (-A) */
	if (u >= r->nunits || r->units[u].cpu < 0 || m->anchor == REPORT_METRIC_NONE)
		return 0;
	e = &r->events[m->anchor];
	if (!(p = report_part_on(e, m->pmu)) || sysfs_parse_cpulist(p->cpus, &cpus, &n) != PP_OK)
		return 0;
	for (int k = 0; k < n; k++)
		in |= cpus[k] == r->units[u].cpu;
	free(cpus);
	return in;
}

