/* SPDX-License-Identifier: Apache-2.0 */
/* plan.h: the counting plan: which events share a group and which run counts them, so that
 * every group fits its PMU's counters (general counters, the cycle counter, the instruction
 * counter; chained 64-bit events take two). Pure: capacities and events come in as data. */
#ifndef PMUPROF_PLAN_H
#define PMUPROF_PLAN_H

#include <stddef.h>

#include "pmreg.h"

/* What one PMU can hold at once. */
struct plan_cap {
	int general;	/* PMCR_EL0.N event counters free for perf users (probed or given) */
	int cycle;	/* 1: PMCCNTR_EL0 takes CPU_CYCLES without threshold */
	int icntr;	/* 1: FEAT_PMUv3_ICNTR takes INST_RETIRED without threshold */
};

/* One counter to place. */
struct plan_ev {
	int pmu;		/* index into the capacities; -1: needs no counter (software) */
	int group;		/* user group ({a,b}); -1 when alone */
	enum pmreg_kind kind;	/* PMREG_CYCLE, PMREG_CHAINED or PMREG_ANY (pmreg_kind_of) */
	int inst;		/* INST_RETIRED without threshold: the instruction counter may take it */
	int tie;		/* > 0: events with the same tie go into the same run (one event's
				 * parts on several PMUs, big.LITTLE); 0: none */
};

/* The plan: event k is in unit unit[k] (a user group, the events tied to it, or the event
 * alone; a unit may span PMUs only through ties), counted in run
 * run[k] (0-based) of nruns when each run holds only what fits. */
struct plan {
	size_t nev, nunits, nruns;
	int *unit, *run;
	int *unit_need;		/* general counters each unit needs */
};

/* A user group that can never fit: group (user index) on pmu needs need general counters,
 * the PMU has have. */
struct plan_error {
	int group, pmu, need, have;
};

/* General counters a set of events on one PMU needs (the fixed counters taken first, a
 * chained event counting two). */
int plan_need(const struct plan_ev *ev, const size_t *idx, size_t n, const struct plan_cap *cap);
/* Plans ev[0..n) on the PMUs caps[0..ncaps). PP_EINVAL with *err filled when a user group
 * cannot fit; PP_ENOMEM. Events keep their order within a run. */
pp_status plan_make(const struct plan_ev *ev, size_t n, const struct plan_cap *caps,
		    size_t ncaps, struct plan *out, struct plan_error *err);
void plan_free(struct plan *p);

#endif
