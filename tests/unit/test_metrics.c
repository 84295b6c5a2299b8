/* test_metrics.c: derived metrics computed from fixture counts in a report struct, against
 * values worked out by hand from Arm's formulas (reference/arm-telemetry, Neoverse N2, V1,
 * V2) with the counts below. */
#include <math.h>
#include <string.h>

#include "counts.h"
#include "evtab.h"
#include "metrics.h"
#include "mxtab.h"
#include "tap.h"

#define ARM(nm, code, v) { .name = nm, .pmu = "armv8_pmuv3_0", .type = 8, .config = code, \
			   .status = REPORT_COUNTED, .value = v }
#define ARMU(nm, code, v) { .name = nm, .pmu = "armv8_pmuv3_0", .type = 8, .config = code, \
			    .status = REPORT_COUNTED, .value = v, .excl_kernel = 1, .excl_hv = 1 }
#define HW(nm, id, v) { .name = nm, .pmu = "cpu", .type = 0, .config = id, \
			.status = REPORT_COUNTED, .value = v }

/* The value of metric name beside event anchor, NAN when not computed. */
static double get(const struct report *r, const struct metrics_core *c, const char *name,
		  size_t anchor)
{
	struct report_metric_value mv[64];
	size_t n = metrics_compute(r, c, mv, 64);

	for (size_t k = 0; k < n; k++)
		if (!strcmp(mv[k].def->name, name) && mv[k].anchor == anchor)
			return mv[k].value;
	return NAN;
}

static int near(double got, double want)
{
	return isnan(want) ? isnan(got) : fabs(got - want) <= 1e-9 * fmax(1, fabs(want));
}

#define CHECK(got, want, what) \
	(tap_ok(near((got), (want)), "line %d: %s", __LINE__, what) ? 1 : \
	 (printf("#   got %.12g, want %.12g\n", (double)(got), (double)(want)), 0))

/* Top-down counts: CPU_CYCLES 1000, STALL_SLOT_FRONTEND 1500, STALL_SLOT_BACKEND 2000,
 * STALL_SLOT 3600, OP_RETIRED 1200, OP_SPEC 1500, BR_MIS_PRED 10. */
static struct report_event td[] = {
	ARM("cpu_cycles", 0x11, 1000), ARM("stall_slot_frontend", 0x3e, 1500),
	ARM("stall_slot_backend", 0x3d, 2000), ARM("stall_slot", 0x3f, 3600),
	ARM("op_retired", 0x3a, 1200), ARM("op_spec", 0x3b, 1500), ARM("br_mis_pred", 0x10, 10),
};

static void topdown(void)
{
	struct report r = { .events = td, .nevents = 7 };
	struct metrics_core n2 = { "neoverse-n2", 5, 0x410fd490 };	/* r0p0 */
	struct metrics_core n2p3 = { "neoverse-n2", 5, 0x410fd493 };	/* r0p3 */
	struct metrics_core v1 = { "neoverse-v1", 8, 0 }, v2 = { "neoverse-v2", 8, 0 };
	struct metrics_core n1 = { "neoverse-n1", 5, 0 };

	/* N2 r0p0: 100 * ((1500 - 1000) / 5000 - 10 / 1000) = 9 */
	CHECK(get(&r, &n2, "frontend_bound", 1), 9.0, "n2 r0p0 frontend_bound");
	/* 100 * (2000 / 5000 - 30 / 1000) = 37 */
	CHECK(get(&r, &n2, "backend_bound", 2), 37.0, "n2 backend_bound");
	/* 100 * ((1 - 0.8) * (1 - 2600 / 5000) + 40 / 1000) = 100 * (0.2 * 0.48 + 0.04) = 13.6 */
	CHECK(get(&r, &n2, "bad_speculation", 5), 13.6, "n2 r0p0 bad_speculation");
	/* 100 * 0.8 * 0.48 = 38.4 */
	CHECK(get(&r, &n2, "retiring", 4), 38.4, "n2 r0p0 retiring");
	/* N2 r0p3: 100 * (1500 / 5000 - 0.01) = 29; retiring 100 * 0.8 * (1 - 0.72) = 22.4 */
	CHECK(get(&r, &n2p3, "frontend_bound", 1), 29.0, "n2 r0p3 frontend_bound");
	CHECK(get(&r, &n2p3, "retiring", 4), 22.4, "n2 r0p3 retiring");
	/* bad_speculation r0p3: 100 * (0.2 * 0.28 + 0.04) = 9.6 */
	CHECK(get(&r, &n2p3, "bad_speculation", 5), 9.6, "n2 r0p3 bad_speculation");
	/* V1: frontend 100 * (1500 / 8000 - 40 / 1000) = 14.75; backend 100 * 2000 / 8000 = 25 */
	CHECK(get(&r, &v1, "frontend_bound", 1), 14.75, "v1 frontend_bound");
	CHECK(get(&r, &v1, "backend_bound", 2), 25.0, "v1 backend_bound");
	/* retiring 100 * 0.8 * (1 - 3600 / 8000) = 44; bad_spec 100 * (0.2 * 0.55 + 0.04) = 15 */
	CHECK(get(&r, &v1, "retiring", 4), 44.0, "v1 retiring");
	CHECK(get(&r, &v1, "bad_speculation", 5), 15.0, "v1 bad_speculation");
	/* V2: frontend 100 * (0.1875 - 0.01) = 17.75; backend 100 * (0.25 - 0.03) = 22 */
	CHECK(get(&r, &v2, "frontend_bound", 1), 17.75, "v2 frontend_bound");
	CHECK(get(&r, &v2, "backend_bound", 2), 22.0, "v2 backend_bound");
	/* the four level-1 shares of V1 add up to 100 only when the data is consistent; no check */
	/* N1 and an unknown core have no slot formulas */
	CHECK(get(&r, &n1, "frontend_bound", 1), NAN, "n1: no slot top-down");
	CHECK(get(&r, NULL, "retiring", 4), NAN, "unknown core: no top-down");
	/* slots unknown (0): nothing */
	v1.slots = 0;
	CHECK(get(&r, &v1, "frontend_bound", 1), NAN, "v1 without slots: none");
}

static void generic(void)
{
	struct report_event ev[] = {
		ARM("inst_retired", 0x08, 4000005), ARM("cpu_cycles", 0x11, 4000005),
		ARMU("inst_retired:u", 0x08, 3000), ARMU("cpu_cycles:u", 0x11, 1500),
		ARM("stall_frontend", 0x23, 250), ARM("stall_backend", 0x24, 100),
		ARM("l1d_cache_refill", 0x03, 5), ARM("l1d_cache", 0x04, 200),
		HW("branch-misses", 5, 3), HW("branches", 4, 600),
		{ .name = "r22", .pmu = "raw", .type = 4, .config = 0x22, .status = REPORT_COUNTED,
		  .value = 7 },
		ARM("br_retired", 0x21, 700),
		{ .name = "L1-icache-load-misses", .pmu = "cpu", .type = 3, .config = 0x10001,
		  .status = REPORT_NOT_COUNTED },
		{ .name = "L1-icache-loads", .pmu = "cpu", .type = 3, .config = 0x1,
		  .status = REPORT_COUNTED, .value = 10 },
		ARM("l2d_cache_refill", 0x17, 1), ARM("l2d_cache", 0x16, 0),
	};
	struct report r = { .events = ev, .nevents = sizeof(ev) / sizeof(ev[0]) };
	double v;
	const char *unit;

	CHECK(get(&r, NULL, "ipc", 0), 1.0, "ipc, shift=0 style counts");
	CHECK(get(&r, NULL, "ipc", 2), 2.0, "ipc of :u over :u only");
	CHECK(get(&r, NULL, "frontend_stalled_cycles", 4), 100.0 * 250 / 4000005,
	      "frontend stalled share");
	CHECK(get(&r, NULL, "backend_stalled_cycles", 5), 100.0 * 100 / 4000005,
	      "backend stalled share");
	CHECK(get(&r, NULL, "l1d_miss_rate", 6), 2.5, "l1d miss rate");
	CHECK(get(&r, NULL, "branch_miss_rate", 8), 0.5, "generic branch-misses / branches");
	/* the first counted event that is BR_RETIRED: br_retired, not perf's branches, which
	 * Linux 6.1's generic map counts as PC_WRITE_RETIRED (0x0C) */
	CHECK(get(&r, NULL, "branch_miss_rate", 10), 100.0 * 7 / 700, "raw r22 over br_retired");
	CHECK(get(&r, NULL, "l1i_miss_rate", 12), NAN, "an input not counted: none");
	CHECK(get(&r, NULL, "l2d_miss_rate", 14), NAN, "a zero denominator: none");
	/* beside the count: report_metric finds the anchored metric */
	struct report_metric_value mv[64];
	r.metrics = mv;
	r.nmetrics = metrics_compute(&r, NULL, mv, 64);
	tap_ok(report_metric(&r, &ev[0], &v, &unit) && near(v, 1.0) &&
	       !strcmp(unit, "insn per cycle"), "line %d: ipc beside inst_retired", __LINE__);
	tap_ok(report_metric(&r, &ev[8], &v, &unit) && !strcmp(unit, "of all branches"),
	       "line %d: branch miss share beside branch-misses", __LINE__);
}

/* A metric's inputs come from one aggregation unit: never from two PMUs the user named
 * apart (a big.LITTLE phone's a55 and a76), nor from two planned runs (--mux=runs). */
static void units(void)
{
	struct report_event ev[] = {
		{ .name = "armv8_cortex_a55/inst_retired/", .pmu = "armv8_cortex_a55", .type = 8,
		  .config = 0x08, .status = REPORT_COUNTED, .value = 600 },
		{ .name = "armv8_cortex_a76/cpu_cycles/", .pmu = "armv8_cortex_a76", .type = 9,
		  .config = 0x11, .status = REPORT_COUNTED, .value = 300 },
		{ .name = "inst_retired", .pmu = "armv8_pmuv3_0", .type = 8, .config = 0x08,
		  .status = REPORT_COUNTED, .value = 900, .run = 1 },
		{ .name = "cpu_cycles", .pmu = "armv8_pmuv3_0", .type = 8, .config = 0x11,
		  .status = REPORT_COUNTED, .value = 300, .run = 2 },
		{ .name = "cpu_cycles", .pmu = "armv8_pmuv3_0", .type = 8, .config = 0x11,
		  .status = REPORT_COUNTED, .value = 450, .run = 1 },
	};
	struct report r = { .events = ev, .nevents = 2 };

	CHECK(get(&r, NULL, "ipc", 0), NAN, "no ipc from a55's instructions and a76's cycles");
	r.events = &ev[2];
	r.nevents = 2;
	CHECK(get(&r, NULL, "ipc", 0), NAN, "no ipc from two planned runs");
	r.nevents = 3;
	CHECK(get(&r, NULL, "ipc", 0), 2.0, "ipc from the cycles of the same run");
}

static void specs(void)
{
	struct metrics_core n2 = { "neoverse-n2", 5, 0 }, n1 = { "neoverse-n1", 5, 0 };

	tap_ok(!strcmp(metrics_group_spec("ipc", NULL), "{instructions,cycles}"),
	       "line %d: -M ipc", __LINE__);
	tap_ok(strstr(metrics_group_spec("topdown_l1", &n2), "stall_slot_frontend") != NULL,
	       "line %d: -M topdown_l1 on N2: slot events", __LINE__);
	tap_ok(!strcmp(metrics_group_spec("topdown_l1", &n1),
		       "{cpu_cycles,stall_frontend,stall_backend}"),
	       "line %d: -M topdown_l1 on N1: stall cycles", __LINE__);
	tap_ok(metrics_group_spec("nosuch", NULL) == NULL, "line %d: unknown", __LINE__);
}

/* Every per-core formula here is the generated tables' (events/metrics, Arm's data) for that
 * core and revision, value for value on the same counts, with SLOTS the core's slot count. */
static void against_tables(void)
{
	unsigned seed = 12345;

	for (size_t i = 0; i < metrics_ndefs(); i++) {
		const struct metrics_def *d = metrics_def_at(i);
		const struct evtab_core *c;
		const struct mxtab_metric *m;
		struct counts k = { .missing = MEXPR_UNKNOWN };
		double a, b;

		if (!d->core)
			continue;
		c = evtab_core_by_name(d->core);
		m = mxtab_find_metric(mxtab_set_for(c, d->variant == 2 ? MXTAB_REV(0, 3) : 0),
				      d->name);
		if (!tap_ok(m != NULL, "%s %s (variant %d) is in the tables", d->core, d->name,
			    d->variant))
			continue;
		for (size_t j = 0; j < d->ninputs; j++) {
			seed = seed * 1103515245u + 12345u;
			k.names[k.n] = d->in[j].arm_name;
			k.values[k.n++] = 1000 + (seed >> 8) % 100000;
		}
		k.names[k.n] = "SLOTS";
		k.values[k.n++] = evtab_core_slots(c);
		a = mexpr_eval(d->formula, counts_lookup, &k, NULL);
		b = mxtab_metric_eval(m, counts_lookup, &k, NULL);
		CHECK(a, b, d->formula);
	}
}

int main(void)
{
	against_tables();
	topdown();
	generic();
	units();
	specs();
	return tap_done();
}
