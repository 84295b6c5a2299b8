/* plan.c: the counting plan: user groups and lone events become units, each unit checked
 * against its PMU's capacity, and units packed first-fit into runs whose counters suffice. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* The counters of one PMU taken in one run. */
struct use {
	int gen, cyc, ins;
};

/* Adds event e to u as armv8pmu_get_event_idx would place it: CPU_CYCLES on the free cycle
 * counter, INST_RETIRED on a free instruction counter, else one general counter (two for a
 * chained pair). */
static void take(struct use *u, const struct plan_ev *e, const struct plan_cap *cap)
{
	if (e->kind == PMREG_CYCLE && cap->cycle && !u->cyc)
		u->cyc = 1;
	else if (e->inst && e->kind != PMREG_CHAINED && cap->icntr && !u->ins)
		u->ins = 1;
	else
		u->gen += e->kind == PMREG_CHAINED ? 2 : 1;
}

int plan_need(const struct plan_ev *ev, const size_t *idx, size_t n, const struct plan_cap *cap)
{
	struct use u = { 0 };

	for (size_t k = 0; k < n; k++)
		take(&u, &ev[idx[k]], cap);
	return u.gen;
}

void plan_free(struct plan *p)
{
	free(p->unit);
	free(p->run);
	free(p->unit_need);
	memset(p, 0, sizeof(*p));
}

/* Each event's unit: its user group's first member's unit, else a unit of its own. */
static size_t make_units(const struct plan_ev *ev, size_t n, int *unit)
{
	size_t nu = 0;

	for (size_t k = 0; k < n; k++) {
		unit[k] = -1;
		for (size_t j = 0; ev[k].group >= 0 && j < k; j++)
			if (ev[j].group == ev[k].group) {
				unit[k] = unit[j];
				break;
			}
		if (unit[k] < 0)
			unit[k] = (int)nu++;
	}
	return nu;
}

/* The PMU a unit counts on: its first member that needs a counter (-1: none does). */
static int unit_pmu(const struct plan_ev *ev, size_t n, const int *unit, size_t u)
{
	for (size_t k = 0; k < n; k++)
		if (unit[k] == (int)u && ev[k].pmu >= 0)
			return ev[k].pmu;
	return -1;
}

/* Whether unit u fits run state use (of its PMU) and, when it does and commit, takes it. */
static int fits(const struct plan_ev *ev, size_t n, const int *unit, size_t u, int pmu,
		struct use *use, const struct plan_cap *cap, int commit)
{
	struct use t = *use;

	for (size_t k = 0; k < n; k++)
		if (unit[k] == (int)u && ev[k].pmu == pmu)
			take(&t, &ev[k], cap);
	if (t.gen > cap->general)
		return 0;
	if (commit)
		*use = t;
	return 1;
}

/* Each unit's need, checked against its PMU; PP_EINVAL with *err for one that cannot fit. */
static pp_status check_units(const struct plan_ev *ev, size_t n, const struct plan_cap *caps,
			     struct plan *p, struct plan_error *err)
{
	for (size_t u = 0; u < p->nunits; u++) {
		int pmu = unit_pmu(ev, n, p->unit, u);
		struct use z = { 0 };

		p->unit_need[u] = 0;
		if (pmu < 0)
			continue;
		for (size_t k = 0; k < n; k++)
			if (p->unit[k] == (int)u && ev[k].pmu == pmu)
				take(&z, &ev[k], &caps[pmu]);
		p->unit_need[u] = z.gen;
		if (z.gen > caps[pmu].general) {
			for (size_t k = 0; k < n; k++)
				if (p->unit[k] == (int)u) {
					*err = (struct plan_error){ ev[k].group, pmu, z.gen,
								    caps[pmu].general };
					break;
				}
			return PP_EINVAL;
		}
	}
	return PP_OK;
}

/* First fit: each unit in the first run with room on its PMU (units that need no counter
 * go to run 0). urun[u] receives the run. */
static size_t pack(const struct plan_ev *ev, size_t n, const struct plan_cap *caps,
		   size_t ncaps, const struct plan *p, struct use *use, int *urun)
{
	size_t nruns = 1;

	for (size_t u = 0; u < p->nunits; u++) {
		int pmu = unit_pmu(ev, n, p->unit, u);
		size_t r = 0;

		if (pmu >= 0)
			while (!fits(ev, n, p->unit, u, pmu, &use[r * ncaps + (size_t)pmu],
				     &caps[pmu], 1))
				r++;
		urun[u] = (int)r;
		if (r + 1 > nruns)
			nruns = r + 1;
	}
	return nruns;
}

pp_status plan_make(const struct plan_ev *ev, size_t n, const struct plan_cap *caps,
		    size_t ncaps, struct plan *out, struct plan_error *err)
{
	struct use *use;
	int *urun;
	pp_status st;

	memset(out, 0, sizeof(*out));
	out->nev = n;
	out->unit = calloc(n + 1, sizeof(int));
	out->run = calloc(n + 1, sizeof(int));
	out->unit_need = calloc(n + 1, sizeof(int));
	use = calloc((n + 1) * (ncaps + 1), sizeof(*use));
	urun = calloc(n + 1, sizeof(int));
	st = out->unit && out->run && out->unit_need && use && urun ? PP_OK : PP_ENOMEM;
	if (st == PP_OK) {
		out->nunits = make_units(ev, n, out->unit);
		st = check_units(ev, n, caps, out, err);
	}
	if (st == PP_OK) {
		out->nruns = pack(ev, n, caps, ncaps, out, use, urun);
		for (size_t k = 0; k < n; k++)
			out->run[k] = urun[out->unit[k]];
	}
	free(use);
	free(urun);
	if (st != PP_OK)
		plan_free(out);
	return st;
}
