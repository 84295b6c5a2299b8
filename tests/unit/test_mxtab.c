/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_mxtab.c: the generated metric tables: sets by core and revision, lookups,
 * every metric's events known to its core, and metrics evaluated on known counts. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "counts.h"
#include "evtab.h"
#include "mxtab.h"
#include "tap.h"

static const struct mxtab_metric *metric(const char *core, unsigned rev, const char *name)
{
	const struct mxtab_set *s = mxtab_set_for(evtab_core_by_name(core), rev);

	return s ? mxtab_find_metric(s, name) : NULL;
}

/* The counts every row below is evaluated on; a name not listed is not counted. */
static const struct counts td = {
	{ "STALL_SLOT_FRONTEND", "CPU_CYCLES", "BR_MIS_PRED", "STALL_SLOT_BACKEND", "STALL_SLOT",
	  "OP_RETIRED", "OP_SPEC", "INST_RETIRED", "IMP_WFX_CLOCK_CYCLES" },
	{ 1500, 1000, 10, 2000, 3600, 800, 1000, 1500, 1000 }, 9, MEXPR_NOVALUE
};

static const struct {
	int line;
	const char *core;
	unsigned rev;
	const char *metric;
	double want;		/* NAN: no value, for the reason below */
	enum mexpr_status why;
} evals[] = {
	/* N2 before r0p3 subtracts a STALL_SLOT per cycle: 100 * ((1500 - 1000) / 5000 - 0.01) */
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 0), "frontend_bound", 9, MEXPR_OK },
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 1), "frontend_bound", 9, MEXPR_OK },
	/* r0p3 and later do not: 100 * (1500 / 5000 - 0.01) */
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 3), "frontend_bound", 29, MEXPR_OK },
	{ __LINE__, "neoverse-n2", MXTAB_REV(1, 0), "FRONTEND_BOUND", 29, MEXPR_OK },
	/* 100 * ((1 - 800 / 1000) * (1 - 3600 / 5000) + 4 * 0.01) = 9.6 on r0p3; r0p0 takes
	 * (3600 - 1000) slots */
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 3), "bad_speculation", 9.6, MEXPR_OK },
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 0), "bad_speculation",
	  100 * (0.2 * (1 - 2600.0 / 5000) + 0.04), MEXPR_OK },
	{ __LINE__, "neoverse-v1", 0, "backend_bound", 100 * 2000.0 / 8000, MEXPR_OK },
	{ __LINE__, "neoverse-n1", 0, "ipc", 1.5, MEXPR_OK },
	{ __LINE__, "cortex-a57", 0, "ipc", 1.5, MEXPR_OK },
	/* C1 subtracts idle cycles: all of them idle leaves no cycle to divide by */
	{ __LINE__, "c1-ultra", 0, "ipc", NAN, MEXPR_DIV0 },
	/* an input not counted */
	{ __LINE__, "neoverse-n1", 0, "l1d_cache_mpki", NAN, MEXPR_NOVALUE },
};

static void test_evals(void)
{
	for (size_t i = 0; i < sizeof(evals) / sizeof(evals[0]); i++) {
		const struct mxtab_metric *m = metric(evals[i].core, evals[i].rev, evals[i].metric);
		struct mexpr_error err;
		double v;

		if (!tap_ok(m != NULL, "line %d: %s has %s", evals[i].line, evals[i].core,
			    evals[i].metric))
			continue;
		v = mxtab_metric_eval(m, counts_lookup, (void *)&td, &err);
		if (isnan(evals[i].want))
			tap_ok(isnan(v) && err.status == evals[i].why, "line %d: %s: no value, %s "
			       "(got %g, %s)", evals[i].line, evals[i].metric,
			       mexpr_strerror(evals[i].why), v, mexpr_strerror(err.status));
		else
			tap_ok(fabs(v - evals[i].want) < 1e-9, "line %d: %s = %g (got %g)",
			       evals[i].line, evals[i].metric, evals[i].want, v);
	}
}

static const struct {
	int line;
	const char *core;
	unsigned rev;
	unsigned want_lo;	/* the set's first revision; 0xff: no set */
} sets[] = {
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 0), MXTAB_REV(0, 0) },
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 2), MXTAB_REV(0, 0) },
	{ __LINE__, "neoverse-n2", MXTAB_REV(0, 3), MXTAB_REV(0, 3) },
	{ __LINE__, "neoverse-n2", MXTAB_REV(15, 15), MXTAB_REV(0, 3) },
	{ __LINE__, "c1-pro", MXTAB_REV(1, 2), 0 },
	{ __LINE__, "c1-sme2", MXTAB_REV(1, 0), 0 },
	{ __LINE__, "cortex-a55", MXTAB_REV(2, 0), 0 },
};

static void test_sets(void)
{
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		const struct mxtab_set *s = mxtab_set_for(evtab_core_by_name(sets[i].core),
							  sets[i].rev);

		tap_ok(s && mxtab_set_rev_lo(s) == sets[i].want_lo, "line %d: %s r%up%u: the set "
		       "from r%up%u", sets[i].line, sets[i].core, sets[i].rev >> 4, sets[i].rev & 15,
		       sets[i].want_lo >> 4, sets[i].want_lo & 15);
	}
	tap_ok(mxtab_set_for(NULL, 0) == NULL, "no core, no set");
	tap_ok(mxtab_find_metric(mxtab_set_for(evtab_core_by_name("n1"), 0), "ipcx") == NULL,
	       "an unknown metric is not found");
	tap_ok(mxtab_find_group(mxtab_set_for(evtab_core_by_name("n2"), 0), "topdown_l1") != NULL,
	       "groups are found in any case");
	tap_ok(mxtab_find_metric(mxtab_set_for(evtab_core_by_name("a57"), 0),
				 "frontend_stalled_cycles") == NULL,
	       "a generic metric whose events a core lacks is not in its set");
}

/* Every set: metrics sorted and found by name, every event of a metric is its core's,
 * every group member in the set, every core with a set. */
static void test_consistency(void)
{
	size_t bad = 0, nmetrics = 0, cores_with = 0;

	for (size_t i = 0; i < mxtab_nsets(); i++) {
		const struct mxtab_set *s = mxtab_set_at(i);
		const struct evtab_core *c = mxtab_set_core(s);

		for (size_t k = 0; k < mxtab_nmetrics(s); k++) {
			const struct mxtab_metric *m = mxtab_metric_at(s, k);

			nmetrics++;
			if (mxtab_find_metric(s, mxtab_metric_name(m)) != m ||
			    (k && strcmp(mxtab_metric_name(mxtab_metric_at(s, k - 1)),
					 mxtab_metric_name(m)) >= 0))
				bad++, printf("# %s: %s out of order\n", evtab_core_name(c),
					      mxtab_metric_name(m));
			for (size_t e = 0; e < mxtab_metric_nevents(m); e++)
				if (!evtab_find_name(c, mxtab_metric_event(m, e)))
					bad++, printf("# %s: %s names %s\n", evtab_core_name(c),
						      mxtab_metric_name(m), mxtab_metric_event(m, e));
		}
		for (size_t g = 0; g < mxtab_ngroups(s); g++)
			for (size_t k = 0; k < mxtab_group_nmetrics(mxtab_group_at(s, g)); k++) {
				const struct mxtab_metric *m = mxtab_group_metric(mxtab_group_at(s, g), k);

				if (mxtab_find_metric(s, mxtab_metric_name(m)) != m)
					bad++;
			}
	}
	for (size_t i = 0; i < evtab_ncores(); i++)
		cores_with += mxtab_set_for(evtab_core_at(i), 0) != NULL;
	TAP_EQ_INT(bad, 0, "every set sorted, its metrics' events its core's, its groups' members "
		   "its own (%zu metrics in %zu sets)", nmetrics, mxtab_nsets());
	TAP_EQ_INT(cores_with, evtab_ncores(), "every core has a metric set");
}

/* The name mexpr reads first in a formula, as metrics.c once found it at every run. */
static enum mexpr_status first_read(void *ctx, const char *name, size_t len, double *value)
{
	char *first = ctx;

	if (!first[0] && len <= MEXPR_MAX_NAME) {
		memcpy(first, name, len);
		first[len] = '\0';
	}
	*value = 1.0;
	return MEXPR_OK;
}

/* Every metric's anchor (mxtab_metric_first_event, from the generator) is the event its
 * formula reads first. */
static void test_first(void)
{
	size_t n = 0, bad = 0;

	for (size_t i = 0; i < mxtab_nsets(); i++) {
		const struct mxtab_set *s = mxtab_set_at(i);

		for (size_t k = 0; k < mxtab_nmetrics(s); k++) {
			const struct mxtab_metric *m = mxtab_metric_at(s, k);
			char first[MEXPR_MAX_NAME + 1] = "";

			mxtab_metric_eval(m, first_read, first, NULL);
			n++;
			if (strcmp(first, mxtab_metric_first_event(m)) && bad++ < 5)
				printf("# %s: the formula reads %s first, the table says %s\n",
				       mxtab_metric_name(m), first, mxtab_metric_first_event(m));
		}
	}
	tap_ok(n > 1000 && bad == 0, "each of %zu metrics is anchored on the event its formula "
	       "reads first (%zu are not)", n, bad);
}

/* Each metric input is the very string its core's table names the event with (the generator
 * keeps one copy of each string), and its code is that event's: metrics.c matches inputs to
 * the events counted by code. */
static void test_inputs_shared(void)
{
	size_t n = 0, bad = 0;

	for (size_t i = 0; i < mxtab_nsets(); i++) {
		const struct mxtab_set *s = mxtab_set_at(i);
		const struct evtab_core *core = mxtab_set_core(s);

		for (size_t k = 0; k < mxtab_nmetrics(s); k++) {
			const struct mxtab_metric *m = mxtab_metric_at(s, k);

			for (size_t e = 0; e < mxtab_metric_nevents(m); e++, n++) {
				const char *in = mxtab_metric_event(m, e);
				const struct evtab_event *ev = evtab_find_name(core, in);

				if ((!ev || evtab_event_name(ev) != in ||
				     evtab_event_code(ev) != mxtab_metric_event_code(m, e)) && bad++ < 5)
					printf("# %s: input %s is not its core's table string, or "
					       "code %#x not its\n", mxtab_metric_name(m), in,
					       mxtab_metric_event_code(m, e));
			}
		}
	}
	tap_ok(n > 3000 && bad == 0, "each of %zu metric inputs is its core's table string for the "
	       "event, with its code (%zu are not)", n, bad);
}

/* A metric's inputs for the comparison below: input i counts values[i], unless it is the one
 * not counted (missing). */
struct pattern {
	const struct mxtab_metric *m;
	double values[MEXPR_MAX_EVENTS];
	long missing;
};

static enum mexpr_status by_number(void *ctx, size_t i, double *v)
{
	const struct pattern *p = ctx;

	if ((long)i == p->missing)
		return MEXPR_NOVALUE;
	*v = p->values[i];
	return MEXPR_OK;
}

static enum mexpr_status by_name(void *ctx, const char *name, size_t len, double *v)
{
	const struct pattern *p = ctx;

	for (size_t i = 0; i < mxtab_metric_nevents(p->m); i++) {
		const char *e = mxtab_metric_event(p->m, i);

		if (strlen(e) == len && !memcmp(e, name, len))
			return by_number(ctx, i, v);
	}
	return MEXPR_UNKNOWN;
}

/* A run computes metrics by the programs the generator compiled: each must give exactly what
 * its formula's text gives, value and reason, with every input counted (uneven counts, then
 * each input at zero, so every division by an input is also met at zero) and with each input
 * in turn not counted. */
static void test_programs(void)
{
	size_t n = 0, bad = 0;

	for (size_t i = 0; i < mxtab_nsets(); i++) {
		const struct mxtab_set *s = mxtab_set_at(i);

		for (size_t k = 0; k < mxtab_nmetrics(s); k++) {
			struct pattern p = { mxtab_metric_at(s, k), { 0 }, -1 };
			size_t ne = mxtab_metric_nevents(p.m);

			for (long zero = -1; zero < (long)ne; zero++)
				for (long missing = -1; missing < (zero < 0 ? (long)ne : 0); missing++) {
					struct mexpr_error want, got;
					double w, v;

					for (size_t e = 0; e < ne; e++)	/* uneven */
						p.values[e] = (long)e == zero ? 0 :
							1000 + 337.0 * (double)((e + 1) * (e + 3));
					p.missing = missing;
					w = mxtab_metric_eval(p.m, by_name, &p, &want);
					v = mxtab_metric_run(p.m, by_number, &p, &got);
					n++;
					if (((isnan(v) && isnan(w)) || !memcmp(&v, &w, sizeof(v))) &&
					    got.status == want.status && !strcmp(got.name, want.name))
						continue;
					if (bad++ < 5)
						printf("# %s (%s): the program gives %g, %s '%s'; the formula "
						       "%g, %s '%s' (zero %ld, missing %ld)\n",
						       mxtab_metric_name(p.m),
						       evtab_core_name(mxtab_set_core(s)), v,
						       mexpr_strerror(got.status), got.name, w,
						       mexpr_strerror(want.status), want.name, zero, missing);
				}
		}
	}
	tap_ok(n > 5000 && bad == 0, "every metric's program gives its formula's value and reason "
	       "(%zu evaluations, %zu differ)", n, bad);
}

/* The quick check of a set's metrics: each metric's bits are exactly its events' codes'; and
 * each metric's group is the first of its set that lists it. */
static void test_needs_groups(void)
{
	size_t n = 0, bad = 0;

	for (size_t i = 0; i < mxtab_nsets(); i++) {
		const struct mxtab_set *s = mxtab_set_at(i);
		const uint64_t *needs = mxtab_set_needs(s);

		for (size_t k = 0; k < mxtab_nmetrics(s); k++, n++) {
			const struct mxtab_metric *m = mxtab_metric_at(s, k);
			const struct mxtab_group *first = NULL;
			uint64_t want = 0;

			for (size_t e = 0; e < mxtab_metric_nevents(m); e++) {
				const struct evtab_event *ev =
					evtab_find_name(mxtab_set_core(s), mxtab_metric_event(m, e));

				want |= ev ? mxtab_code_bit(evtab_event_code(ev)) : 0;
			}
			for (size_t g = mxtab_ngroups(s); g-- > 0;)
				for (size_t j = 0; j < mxtab_group_nmetrics(mxtab_group_at(s, g)); j++)
					if (mxtab_group_metric(mxtab_group_at(s, g), j) == m)
						first = mxtab_group_at(s, g);
			if ((needs[k] != want || mxtab_metric_group(s, m) != first) && bad++ < 5)
				printf("# %s: bits %#llx, want %#llx; group %s, want %s\n",
				       mxtab_metric_name(m), (unsigned long long)needs[k],
				       (unsigned long long)want,
				       mxtab_metric_group(s, m) ? mxtab_group_name(mxtab_metric_group(s, m)) : "none",
				       first ? mxtab_group_name(first) : "none");
		}
	}
	tap_ok(n > 1000 && bad == 0, "each of %zu metrics has its events' code bits and its first "
	       "group (%zu do not)", n, bad);
}

int main(void)
{
	test_sets();
	test_evals();
	test_consistency();
	test_first();
	test_inputs_shared();
	test_programs();
	test_needs_groups();
	return tap_done();
}
