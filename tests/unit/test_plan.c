/* SPDX-License-Identifier: Apache-2.0 */
/* test_plan.c: the counting plan: capacity, the cycle and instruction counters, chained
 * events, threshold events, user groups, impossible groups, software events, two PMUs. */
#include <string.h>

#include "plan.h"
#include "tap.h"

#define A PMREG_ANY
#define C PMREG_CYCLE
#define L PMREG_CHAINED
#define MAXEV 16

/* the rows give tie (the last field) only where events are tied: the others are 0, none */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* One event as the row gives it: pmu, group, kind, inst, tie. */
struct ev {
	int pmu, group, kind, inst, tie;
};

static const struct {
	int line;
	struct plan_cap cap[2];
	size_t n;
	struct ev ev[MAXEV];
	int want_st;		/* 0: planned; 1: impossible group */
	size_t nruns;		/* planned runs (or, for an impossible group: need) */
	int runs[MAXEV];	/* each event's run */
} rows[] = {
	/* six general counters: six events in one run, the seventh in a second */
	{ __LINE__, { { 6, 1, 0 } }, 6, { { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 },
	  { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 } }, 0, 1, { 0 } },
	{ __LINE__, { { 6, 1, 0 } }, 7, { { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 },
	  { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 } }, 0, 2,
	  { 0, 0, 0, 0, 0, 0, 1 } },
	/* CPU_CYCLES takes the cycle counter: 6 + 1 in one run */
	{ __LINE__, { { 6, 1, 0 } }, 7, { { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 },
	  { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, A, 0 }, { 0, -1, C, 0 } }, 0, 1, { 0 } },
	/* only one cycle counter: the second CPU_CYCLES needs a general one */
	{ __LINE__, { { 2, 1, 0 } }, 4, { { 0, -1, C, 0 }, { 0, -1, C, 0 }, { 0, -1, C, 0 },
	  { 0, -1, C, 0 } }, 0, 2, { 0, 0, 0, 1 } },
	/* no cycle counter (given as such): cycles is an ordinary event */
	{ __LINE__, { { 1, 0, 0 } }, 2, { { 0, -1, C, 0 }, { 0, -1, A, 0 } }, 0, 2, { 0, 1 } },
	/* threshold cycles are PMREG_ANY (pmreg_kind_of): no cycle counter for them */
	{ __LINE__, { { 1, 1, 0 } }, 2, { { 0, -1, A, 0 }, { 0, -1, A, 0 } }, 0, 2, { 0, 1 } },
	/* a chained event takes two: 3 chained on 6 counters, the fourth waits */
	{ __LINE__, { { 6, 1, 0 } }, 4, { { 0, -1, L, 0 }, { 0, -1, L, 0 }, { 0, -1, L, 0 },
	  { 0, -1, L, 0 } }, 0, 2, { 0, 0, 0, 1 } },
	{ __LINE__, { { 5, 1, 0 } }, 3, { { 0, -1, L, 0 }, { 0, -1, A, 0 }, { 0, -1, L, 0 } },
	  0, 1, { 0, 0, 0 } },
	/* the instruction counter takes one INST_RETIRED */
	{ __LINE__, { { 1, 1, 1 } }, 3, { { 0, -1, A, 1 }, { 0, -1, A, 1 }, { 0, -1, C, 0 } }, 0, 1,
	  { 0, 0, 0 } },
	{ __LINE__, { { 1, 1, 0 } }, 2, { { 0, -1, A, 1 }, { 0, -1, A, 1 } }, 0, 2, { 0, 1 } },
	/* a user group stays together: {a,b,c} on 3 after a lone one goes to run 1 */
	{ __LINE__, { { 3, 1, 0 } }, 4, { { 0, -1, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 },
	  { 0, 0, A, 0 } }, 0, 2, { 0, 1, 1, 1 } },
	/* a later lone event fills the first run's gap */
	{ __LINE__, { { 3, 1, 0 } }, 5, { { 0, -1, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 },
	  { 0, 0, A, 0 }, { 0, -1, A, 0 } }, 0, 2, { 0, 1, 1, 1, 0 } },
	/* a group of 7 with cycles fits 6 + 1; without, it can never fit: needs 7, has 6 */
	{ __LINE__, { { 6, 1, 0 } }, 7, { { 0, 0, C, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 },
	  { 0, 0, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 } }, 0, 1, { 0 } },
	{ __LINE__, { { 6, 1, 0 } }, 7, { { 0, 0, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 },
	  { 0, 0, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 }, { 0, 0, A, 0 } }, 1, 7, { 0 } },
	/* two chained events in a group on 3 counters: needs 4 */
	{ __LINE__, { { 3, 1, 0 } }, 2, { { 0, 4, L, 0 }, { 0, 4, L, 0 } }, 1, 4, { 0 } },
	/* software events need no counter, even in a group with hardware ones */
	{ __LINE__, { { 1, 1, 0 } }, 4, { { -1, -1, A, 0 }, { -1, 0, A, 0 }, { 0, 0, A, 0 },
	  { -1, -1, A, 0 } }, 0, 1, { 0, 0, 0, 0 } },
	{ __LINE__, { { 0, 0, 0 } }, 2, { { -1, -1, A, 0 }, { -1, -1, A, 0 } }, 0, 1, { 0, 0 } },
	/* two PMUs (big.LITTLE): each has its own counters, so copies share runs */
	{ __LINE__, { { 2, 1, 0 }, { 2, 1, 0 } }, 6, { { 0, -1, A, 0 }, { 1, -1, A, 0 },
	  { 0, -1, A, 0 }, { 1, -1, A, 0 }, { 0, -1, A, 0 }, { 1, -1, A, 0 } }, 0, 2,
	  { 0, 0, 0, 0, 1, 1 } },
	{ __LINE__, { { 1, 1, 0 }, { 3, 1, 0 } }, 4, { { 0, -1, A, 0 }, { 1, -1, A, 0 },
	  { 0, -1, A, 0 }, { 1, -1, A, 0 } }, 0, 2, { 0, 0, 1, 0 } },
	/* the same with ties (one event's parts on both PMUs): each pair shares a run */
	{ __LINE__, { { 1, 1, 0 }, { 3, 1, 0 } }, 4, { { 0, -1, A, 0, 1 }, { 1, -1, A, 0, 1 },
	  { 0, -1, A, 0, 2 }, { 1, -1, A, 0, 2 } }, 0, 2, { 0, 0, 1, 1 } },
	/* a tie waits for the run where both PMUs have room: PMU 1 is full in run 0 */
	{ __LINE__, { { 3, 1, 0 }, { 1, 1, 0 } }, 4, { { 1, -1, A, 0 }, { 0, -1, A, 0, 1 },
	  { 1, -1, A, 0, 1 }, { 0, -1, A, 0 } }, 0, 2, { 0, 1, 1, 0 } },
	/* a user group split over two PMUs with ties: one unit, checked on each PMU */
	{ __LINE__, { { 2, 1, 0 }, { 2, 1, 0 } }, 5, { { 0, 0, A, 0, 1 }, { 1, 1, A, 0, 1 },
	  { 0, 0, A, 0, 2 }, { 1, 1, A, 0, 2 }, { 0, -1, A, 0 } }, 0, 2, { 0, 0, 0, 0, 1 } },
	{ __LINE__, { { 1, 1, 0 }, { 2, 1, 0 } }, 4, { { 0, 0, A, 0, 1 }, { 1, 1, A, 0, 1 },
	  { 0, 0, A, 0, 2 }, { 1, 1, A, 0, 2 } }, 1, 2, { 0 } },
};

static void check_row(size_t r)
{
	struct plan_ev ev[MAXEV];
	struct plan p;
	struct plan_error err = { 0 };
	pp_status st;
	int ln = rows[r].line;

	for (size_t k = 0; k < rows[r].n; k++)
		ev[k] = (struct plan_ev){ rows[r].ev[k].pmu, rows[r].ev[k].group,
					  (enum pmreg_kind)rows[r].ev[k].kind, rows[r].ev[k].inst,
					  rows[r].ev[k].tie };
	st = plan_make(ev, rows[r].n, rows[r].cap, 2, &p, &err);
	if (rows[r].want_st) {
		TAP_EQ_INT(st, PP_EINVAL, "line %d: the group cannot fit", ln);
		TAP_EQ_INT(err.need, rows[r].nruns, "line %d: it needs %zu", ln, rows[r].nruns);
		TAP_EQ_INT(err.have, rows[r].cap[0].general, "line %d: the PMU has %d", ln,
			   rows[r].cap[0].general);
		return;
	}
	if (!TAP_EQ_INT(st, PP_OK, "line %d: planned", ln))
		return;
	TAP_EQ_INT(p.nruns, rows[r].nruns, "line %d: %zu runs", ln, rows[r].nruns);
	for (size_t k = 0; k < rows[r].n; k++)
		TAP_EQ_INT(p.run[k], rows[r].runs[k], "line %d: event %zu in run %d", ln, k,
			   rows[r].runs[k]);
	plan_free(&p);
}

/* plan_need: the general counters a set needs. */
static void check_need(void)
{
	struct plan_ev ev[] = { { 0, -1, C, 0 }, { 0, -1, C, 0 }, { 0, -1, L, 0 }, { 0, -1, A, 1 } };
	size_t idx[] = { 0, 1, 2, 3 };
	struct plan_cap cap = { 6, 1, 1 };

	TAP_EQ_INT(plan_need(ev, idx, 4, &cap), 3, "line %d: cycles to PMCCNTR, one general, "
		   "chained two, inst to ICNTR", __LINE__);
	cap.icntr = 0;
	TAP_EQ_INT(plan_need(ev, idx, 4, &cap), 4, "line %d: no ICNTR", __LINE__);
}

int main(void)
{
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		check_row(r);
	check_need();
	return tap_done();
}
