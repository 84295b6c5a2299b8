/* SPDX-License-Identifier: Apache-2.0 */
/* plan.c: the counting plan: user groups, events tied across PMUs and lone events become
 * units, each unit checked against its PMUs' capacities, and units packed first-fit into runs
 * whose counters suffice on every PMU the unit counts on. */
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
	free(p->unit);		/* and run and unit_need after it: one allocation */
	memset(p, 0, sizeof(*p));
}

/* The root of k's set (path halving). */
static int root_of(int *up, int k)
{
	while (up[k] != k)
		k = up[k] = up[up[k]];
	return k;
}

/* Each event's unit: the events joined by a user group or a tie, numbered in order of their
 * first member; up is room for 3 * n + 3 ints. */
static size_t make_units(const struct plan_ev *ev, size_t n, int *unit, int *up)
{
	/* up: the union-find; first[v], first[n + 1 + v]: the first event of group v, of tie v
	 * (both below n + 1 as the callers number them; a larger one is sought by a scan) */
	int *first = up + n + 1;
	size_t nu = 0;

	for (size_t k = 0; k < 2 * n + 2; k++)
		first[k] = -1;
	for (size_t k = 0; k < n; k++) {
		int ids[2] = { ev[k].group, ev[k].tie > 0 ? ev[k].tie : -1 };

		up[k] = (int)k;
		for (int w = 0; w < 2; w++) {
			int v = ids[w], *f = first + (size_t)w * (n + 1), j = -1;

			if (v < 0)
				continue;
			if ((size_t)v <= n && (j = f[v]) < 0)
				f[v] = (int)k;
			for (size_t i = 0; (size_t)v > n && i < k; i++)
				if ((w ? ev[i].tie : ev[i].group) == v)
					j = (int)i;
			if (j >= 0)
				up[root_of(up, (int)k)] = root_of(up, j);
		}
	}
	for (size_t k = 0; k < n; k++)
		unit[k] = -1;
	for (size_t k = 0; k < n; k++) {
		int r = root_of(up, (int)k);

		if (unit[r] < 0)
			unit[r] = (int)nu++;
		unit[k] = unit[r];
	}
	return nu;
}

/* Each unit's events, contiguous: ev indices mem[first[u]] .. mem[first[u + 1] - 1] (a counting
 * sort of unit[]), so that a unit's members are found without a scan of every event: the
 * packing asks for them per unit, run and PMU (a cost per event, not per event squared).
 * mem has room for n, first for nunits + 2, zeroed. */
struct members {
	size_t *mem, *first;
	uint64_t *pmus;		/* [u]: bit p set when unit u has members on PMU p (p < 64) */
};

static void members_make(const struct plan_ev *ev, const int *unit, size_t n, size_t nunits,
			 struct members *m)
{
	for (size_t k = 0; k < n; k++) {
		m->first[unit[k] + 2]++;
		if (ev[k].pmu >= 0 && ev[k].pmu < 64)
			m->pmus[unit[k]] |= (uint64_t)1 << ev[k].pmu;
	}
	for (size_t u = 2; u < nunits + 2; u++)
		m->first[u] += m->first[u - 1];
	for (size_t k = 0; k < n; k++)	/* first[u + 1] runs from unit u's start to its end */
		m->mem[m->first[unit[k] + 1]++] = k;
}

/* Adds unit u's members on pmu to t. */
static void take_unit(const struct plan_ev *ev, const struct members *m, size_t u, int pmu,
		      struct use *t, const struct plan_cap *cap)
{
	for (size_t i = m->first[u]; i < m->first[u + 1]; i++)
		if (ev[m->mem[i]].pmu == pmu)
			take(t, &ev[m->mem[i]], cap);
}

/* Whether unit u's members on pmu fit run state use (of that PMU) and, when they do and
 * commit, takes them. */
static int fits(const struct plan_ev *ev, const struct members *m, size_t u, int pmu,
		struct use *use, const struct plan_cap *cap, int commit)
{
	struct use t = *use;

	take_unit(ev, m, u, pmu, &t, cap);
	if (t.gen > cap->general)
		return 0;
	if (commit)
		*use = t;
	return 1;
}

/* The first member of unit u on pmu; -1 when it has none there. */
static long on_pmu(const struct plan_ev *ev, const struct members *m, size_t u, size_t pmu)
{
	for (size_t i = m->first[u]; i < m->first[u + 1]; i++)
		if (ev[m->mem[i]].pmu == (int)pmu)
			return (long)m->mem[i];
	return -1;
}

/* Whether unit u has members on pmu: a bit's test, a scan past 64 PMUs. */
static int has(const struct plan_ev *ev, const struct members *m, size_t u, size_t pmu)
{
	return pmu < 64 ? (int)(m->pmus[u] >> pmu & 1) : on_pmu(ev, m, u, pmu) >= 0;
}

/* Each unit's need on each of its PMUs, checked against that PMU; PP_EINVAL with *err for
 * one that cannot fit. unit_need is the most it needs of one PMU. */
static pp_status check_units(const struct plan_ev *ev, const struct members *m,
			     const struct plan_cap *caps, size_t ncaps, struct plan *p,
			     struct plan_error *err)
{
	for (size_t u = 0; u < p->nunits; u++) {
		p->unit_need[u] = 0;
		for (size_t pmu = 0; pmu < ncaps; pmu++) {
			struct use z = { 0 };

			if (!has(ev, m, u, pmu))
				continue;
			take_unit(ev, m, u, (int)pmu, &z, &caps[pmu]);
			if (z.gen > p->unit_need[u])
				p->unit_need[u] = z.gen;
			if (z.gen <= caps[pmu].general)
				continue;
			*err = (struct plan_error){ ev[on_pmu(ev, m, u, pmu)].group, (int)pmu, z.gen,
						    caps[pmu].general };
			return PP_EINVAL;
		}
	}
	return PP_OK;
}

/* Whether run state u of a PMU with capacity cap has no counter left: no event fits it. */
static int full(const struct use *u, const struct plan_cap *cap)
{
	return u->gen >= cap->general && (u->cyc || !cap->cycle) && (u->ins || !cap->icntr);
}

/* First fit: each unit in the first run with room on every PMU it has members on (units
 * that need no counter go to run 0). urun[u] receives the run. nfull[pmu] counts the runs
 * from the first that are full on pmu: a unit with members there starts its search after
 * them, not at the first run again. */
static size_t pack(const struct plan_ev *ev, const struct members *m,
		   const struct plan_cap *caps, size_t ncaps, const struct plan *p,
		   struct use *use, int *urun, size_t *nfull)
{
	size_t nruns = 1;

	for (size_t u = 0; u < p->nunits; u++) {
		size_t r = 0, pmu = 0;

		for (pmu = 0; pmu < ncaps; pmu++)
			if (nfull[pmu] > r && has(ev, m, u, pmu))
				r = nfull[pmu];
		/* the first run where each of its PMUs has room; then take them */
		for (pmu = 0; pmu < ncaps;) {
			if (has(ev, m, u, pmu) &&
			    !fits(ev, m, u, (int)pmu, &use[r * ncaps + pmu], &caps[pmu], 0)) {
				r++;
				pmu = 0;
				continue;
			}
			pmu++;
		}
		for (pmu = 0; pmu < ncaps; pmu++) {
			if (!has(ev, m, u, pmu))
				continue;
			fits(ev, m, u, (int)pmu, &use[r * ncaps + pmu], &caps[pmu], 1);
			while (nfull[pmu] <= r && full(&use[nfull[pmu] * ncaps + pmu], &caps[pmu]))
				nfull[pmu]++;
		}
		urun[u] = (int)r;
		if (r + 1 > nruns)
			nruns = r + 1;
	}
	return nruns;
}

pp_status plan_make(const struct plan_ev *ev, size_t n, const struct plan_cap *caps,
		    size_t ncaps, struct plan *out, struct plan_error *err)
{
	/* two allocations: the plan's three arrays, and the scratch: the units' PMUs, the
	 * members' mem and first, each PMU's full runs, the runs' use of each PMU, each unit's
	 * run, the union-find's room */
	size_t nuse = (n + 1) * (ncaps + 1);
	size_t bytes = (n + 1) * sizeof(uint64_t) + (2 * n + 3 + ncaps) * sizeof(size_t) +
		       nuse * sizeof(struct use) + (4 * n + 4) * sizeof(int);
	char *scratch;
	struct members m;
	size_t *nfull;
	struct use *use;
	int *urun;
	pp_status st = PP_OK;

	memset(out, 0, sizeof(*out));
	out->nev = n;
	out->unit = calloc(3 * (n + 1), sizeof(int));
	scratch = calloc(1, bytes);
	if (!out->unit || !scratch) {
		free(scratch);
		plan_free(out);
		return PP_ENOMEM;
	}
	out->run = out->unit + n + 1;
	out->unit_need = out->run + n + 1;
	m.pmus = (uint64_t *)(void *)scratch;
	m.mem = (size_t *)(void *)(m.pmus + n + 1);
	m.first = m.mem + n + 1;
	nfull = m.first + n + 2;
	use = (struct use *)(void *)(nfull + ncaps);
	urun = (int *)(void *)(use + nuse);
	out->nunits = make_units(ev, n, out->unit, urun + n + 1);
	members_make(ev, out->unit, n, out->nunits, &m);
	st = check_units(ev, &m, caps, ncaps, out, err);
	if (st == PP_OK) {
		out->nruns = pack(ev, &m, caps, ncaps, out, use, urun, nfull);
		for (size_t k = 0; k < n; k++)
			out->run[k] = urun[out->unit[k]];
	}
	free(scratch);
	if (st != PP_OK)
		plan_free(out);
	return st;
}
