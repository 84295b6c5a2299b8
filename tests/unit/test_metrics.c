/* SPDX-License-Identifier: Apache-2.0 */
/* test_metrics.c: derived metrics (metrics.h, on the generated tables of events/metrics)
 * computed from fixture counts in a report struct, against values worked out by hand from
 * Arm's formulas (reference/arm-telemetry, Neoverse N2, V1, V2) with the counts below; which
 * events feed a metric; what -M adds; a requested metric without a value and its reason; a
 * big.LITTLE event's metric per core type. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtab.h"
#include "metrics.h"
#include "mxtab.h"
#include "tap.h"

#define ARM(nm, code, v) { .name = nm, .pmu = "armv8_pmuv3_0", .type = 8, .config = code, \
			   .fig.status = REPORT_COUNTED, .fig.value = v }
#define ARMU(nm, code, v) { .name = nm, .pmu = "armv8_pmuv3_0", .type = 8, .config = code, \
			    .fig.status = REPORT_COUNTED, .fig.value = v, .excl_kernel = 1, .excl_hv = 1 }
#define HW(nm, id, v) { .name = nm, .pmu = "cpu", .type = 0, .config = id, \
			.fig.status = REPORT_COUNTED, .fig.value = v }

#define ANY ((size_t)-2)	/* beside whichever event */

/* The core by name at revision rev; NULL name: unknown. */
static struct metrics_core core(const char *name, unsigned rev)
{
	struct metrics_core mc;

	metrics_core_set(&mc, name ? evtab_core_by_name(name) : NULL, rev);
	return mc;
}

/* The metric computed with the names asked (-M), NULL: none. */
static const struct report_metric_value *find(const struct report *r, const char *name,
					      size_t anchor)
{
	for (size_t k = 0; k < r->nmetrics; k++)
		if (!strcmp(mxtab_metric_name(r->metrics[k].def), name) &&
		    (anchor == ANY || r->metrics[k].anchor == anchor))
			return &r->metrics[k];
	return NULL;
}

/* The value of metric name beside event anchor (computed by default, or asked for with
 * ask), NAN when not computed. */
static double get_asked(struct report *r, struct metrics_core c, const char *name,
			size_t anchor, const char *ask)
{
	const struct report_metric_value *m;
	double v;

	r->metrics = NULL;
	r->nmetrics = 0;
	if (metrics_compute(r, &c, ask ? &ask : NULL, ask ? 1 : 0) != 0)
		return -1;
	m = find(r, name, anchor);
	v = m ? m->value : NAN;
	free((void *)r->metrics);
	r->metrics = NULL;
	r->nmetrics = 0;
	return v;
}

static double get(struct report *r, struct metrics_core c, const char *name, size_t anchor)
{
	return get_asked(r, c, name, anchor, NULL);
}

/* names[0..n) joined by spaces into buf */
static const char *joined(char *buf, size_t len, const char **names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", k ? " " : "", names[k]);
	return buf;
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
	struct metrics_core n2 = core("neoverse-n2", 0), n2p3 = core("neoverse-n2", 0x03);
	struct metrics_core v1 = core("neoverse-v1", 0), v2 = core("neoverse-v2", 0);
	struct metrics_core n1 = core("neoverse-n1", 0);

	/* N2 r0p0: 100 * ((1500 - 1000) / 5000 - 10 / 1000) = 9 */
	CHECK(get(&r, n2, "frontend_bound", 1), 9.0, "n2 r0p0 frontend_bound");
	/* 100 * (2000 / 5000 - 30 / 1000) = 37 */
	CHECK(get(&r, n2, "backend_bound", 2), 37.0, "n2 backend_bound");
	/* 100 * ((1 - 0.8) * (1 - 2600 / 5000) + 40 / 1000) = 100 * (0.2 * 0.48 + 0.04) = 13.6 */
	CHECK(get(&r, n2, "bad_speculation", ANY), 13.6, "n2 r0p0 bad_speculation");
	/* 100 * 0.8 * 0.48 = 38.4 */
	CHECK(get(&r, n2, "retiring", ANY), 38.4, "n2 r0p0 retiring");
	/* N2 r0p3: 100 * (1500 / 5000 - 0.01) = 29; retiring 100 * 0.8 * (1 - 0.72) = 22.4 */
	CHECK(get(&r, n2p3, "frontend_bound", 1), 29.0, "n2 r0p3 frontend_bound");
	CHECK(get(&r, n2p3, "retiring", ANY), 22.4, "n2 r0p3 retiring");
	/* bad_speculation r0p3: 100 * (0.2 * 0.28 + 0.04) = 9.6 */
	CHECK(get(&r, n2p3, "bad_speculation", ANY), 9.6, "n2 r0p3 bad_speculation");
	/* V1: frontend 100 * (1500 / 8000 - 40 / 1000) = 14.75; backend 100 * 2000 / 8000 = 25 */
	CHECK(get(&r, v1, "frontend_bound", 1), 14.75, "v1 frontend_bound");
	CHECK(get(&r, v1, "backend_bound", 2), 25.0, "v1 backend_bound");
	/* retiring 100 * 0.8 * (1 - 3600 / 8000) = 44; bad_spec 100 * (0.2 * 0.55 + 0.04) = 15 */
	CHECK(get(&r, v1, "retiring", ANY), 44.0, "v1 retiring");
	CHECK(get(&r, v1, "bad_speculation", ANY), 15.0, "v1 bad_speculation");
	/* V2: frontend 100 * (0.1875 - 0.01) = 17.75; backend 100 * (0.25 - 0.03) = 22 */
	CHECK(get(&r, v2, "frontend_bound", 1), 17.75, "v2 frontend_bound");
	CHECK(get(&r, v2, "backend_bound", 2), 22.0, "v2 backend_bound");
	/* the four level-1 shares of V1 add up to 100 only when the data is consistent; no check */
	/* N1 and an unknown core have no slot formulas */
	CHECK(get(&r, n1, "frontend_bound", 1), NAN, "n1: no slot top-down");
	CHECK(get(&r, core(NULL, 0), "retiring", 4), NAN, "unknown core: no top-down");
	/* r0p1 is r0p0's set, r1p0 r0p3's */
	CHECK(get(&r, core("neoverse-n2", 0x01), "frontend_bound", 1), 9.0, "n2 r0p1");
	CHECK(get(&r, core("neoverse-n2", 0x10), "frontend_bound", 1), 29.0, "n2 r1p0");
}

static void generic(void)
{
	struct report_event ev[] = {
		ARM("inst_retired", 0x08, 4000005), ARM("cpu_cycles", 0x11, 4000005),
		ARMU("inst_retired:u", 0x08, 3000), ARMU("cpu_cycles:u", 0x11, 1500),
		ARM("stall_frontend", 0x23, 250), ARM("stall_backend", 0x24, 100),
		ARM("l1d_cache_refill", 0x03, 5), ARM("l1d_cache", 0x04, 200),
		HW("branch-misses", 5, 3), HW("branches", 4, 600),
		{ .name = "r22", .pmu = "raw", .type = 4, .config = 0x22, .fig.status = REPORT_COUNTED,
		  .fig.value = 7 },
		ARM("br_retired", 0x21, 700),
		{ .name = "L1-icache-load-misses", .pmu = "cpu", .type = 3, .config = 0x10001,
		  .fig.status = REPORT_NOT_SUPPORTED },
		{ .name = "L1-icache-loads", .pmu = "cpu", .type = 3, .config = 0x1,
		  .fig.status = REPORT_COUNTED, .fig.value = 10 },
		ARM("l2d_cache_refill", 0x17, 1), ARM("l2d_cache", 0x16, 0),
	};
	struct report r = { .events = ev, .nevents = sizeof(ev) / sizeof(ev[0]) };
	/* N1's own set has the generic metrics by the same names and formulas */
	struct metrics_core a57 = core("neoverse-n1", 0), unknown = core(NULL, 0);
	const struct report_metric_value *m;
	const char *ask = "l1i_cache_miss_ratio", *unit;
	double v;

	CHECK(get(&r, a57, "ipc", 0), 1.0, "ipc, shift=0 style counts");
	CHECK(get(&r, unknown, "ipc", 0), 1.0, "ipc on a core not known: the generic formula");
	CHECK(get(&r, a57, "ipc", 2), 2.0, "ipc of :u over :u only");
	CHECK(get(&r, a57, "frontend_stalled_cycles", 4), 100.0 * 250 / 4000005,
	      "frontend stalled share");
	CHECK(get(&r, a57, "backend_stalled_cycles", 5), 100.0 * 100 / 4000005,
	      "backend stalled share");
	CHECK(get(&r, a57, "l1d_cache_miss_ratio", 6), 0.025, "l1d miss ratio");
	/* BR_MIS_PRED_RETIRED is the raw r22; BR_RETIRED the table's br_retired, not perf's
	 * branches, which Linux 6.1's generic map counts as PC_WRITE_RETIRED (0x0C) */
	CHECK(get(&r, a57, "branch_misprediction_ratio", 10), 0.01, "raw r22 over br_retired");
	CHECK(get(&r, a57, "l1i_cache_miss_ratio", 12), NAN, "an input not counted: none");
	CHECK(get_asked(&r, a57, "l1i_cache_miss_ratio", 12, ask), NAN, "asked: still none");
	/* asked for: reported with the reason */
	metrics_compute(&r, &a57, &ask, 1);
	m = find(&r, "l1i_cache_miss_ratio", ANY);
	tap_ok(m && m->requested && !strcmp(m->reason, "L1I_CACHE_REFILL not counted: not supported"),
	       "line %d: asked, not computed: '%s'", __LINE__, m ? m->reason : "(none)");
	m = find(&r, "l2_cache_miss_ratio", ANY);
	tap_ok(m == NULL, "line %d: not asked, a zero denominator: not reported", __LINE__);
	/* beside the count: the results stage puts the anchored metric, with perf's words */
	tap_ok(report_derive(&r, NULL, NULL, 0) == 0, "line %d: derived", __LINE__);
	v = ev[0].derived.value;
	unit = ev[0].derived.unit;
	tap_ok(unit && near(v, 1.0) && !strcmp(unit, "insn per cycle"),
	       "line %d: ipc beside inst_retired", __LINE__);
	unit = ev[4].derived.unit;
	tap_ok(unit && !strcmp(unit, "% frontend_stalled_cycles"),
	       "line %d: a percentage's label: '%s'", __LINE__, unit ? unit : "(none)");
	free((void *)r.metrics);
	r.metrics = NULL;
	ask = "l2_cache_miss_ratio";
	metrics_compute(&r, &a57, &ask, 1);
	m = find(&r, "l2_cache_miss_ratio", ANY);
	tap_ok(m && isnan(m->value) && !strcmp(m->reason, "division by zero"),
	       "line %d: asked, a zero denominator: '%s'", __LINE__, m ? m->reason : "(none)");
	free((void *)r.metrics);
	r.metrics = NULL;
	ask = "ipc";
	r.nevents = 0;
	metrics_compute(&r, &a57, &ask, 1);
	m = find(&r, "ipc", ANY);
	tap_ok(r.nmetrics == 1 && m && m->anchor == REPORT_METRIC_NONE &&
	       !strcmp(m->reason, "INST_RETIRED not counted: not in the report"),
	       "line %d: asked, no event: '%s'", __LINE__, m ? m->reason : "(none)");
	free((void *)r.metrics);
	r.metrics = NULL;
	/* its first event missing: no anchor, but the events counted are its inputs still */
	r.events = &ev[1];
	r.nevents = 1;
	metrics_compute(&r, &a57, &ask, 1);
	m = find(&r, "ipc", ANY);
	tap_ok(m && m->anchor == REPORT_METRIC_NONE && m->ev[0] == 0 &&
	       m->ev[1] == REPORT_METRIC_NONE && isnan(m->value),
	       "line %d: no anchor: CPU_CYCLES still bound to its event", __LINE__);
	free((void *)r.metrics);
}

/* --for-each-cgroup: each cgroup's metric from its own events, beside its own anchor; a
 * cgroup whose input was not counted gets none, never another cgroup's count in its place. */
static void per_cgroup(void)
{
	struct report_event ev[] = {
		ARM("inst_retired", 0x08, 3000), ARM("cpu_cycles", 0x11, 1000),
		ARM("inst_retired", 0x08, 500), ARM("cpu_cycles", 0x11, 2000),
		ARM("inst_retired", 0x08, 700), ARM("cpu_cycles", 0x11, 1400),
	};
	struct report r = { .events = ev, .nevents = sizeof(ev) / sizeof(ev[0]) };
	struct metrics_core n1 = core("neoverse-n1", 0);

	ev[0].cgroup = ev[1].cgroup = "/a";
	ev[2].cgroup = ev[3].cgroup = "/b";
	ev[4].cgroup = ev[5].cgroup = "/c";
	ev[1].fig.status = REPORT_NOT_COUNTED;
	CHECK(get_asked(&r, n1, "ipc", 0, "ipc"), NAN, "cgroup /a: its cycles not counted");
	CHECK(get_asked(&r, n1, "ipc", 2, "ipc"), 0.25, "ipc of cgroup /b: 500 / 2000");
	CHECK(get_asked(&r, n1, "ipc", 4, "ipc"), 0.5, "ipc of cgroup /c: 700 / 1400");
	CHECK(get(&r, n1, "ipc", 4), 0.5, "not asked: computed for /c too");
}

/* A metric's inputs come from one aggregation unit: never from two PMUs the user named
 * apart (a big.LITTLE phone's a55 and a76); with --mux=runs each input is an exact count of
 * its own run. */
static void units(void)
{
	struct report_event ev[] = {
		{ .name = "armv8_cortex_a55/inst_retired/", .pmu = "armv8_cortex_a55", .type = 8,
		  .config = 0x08, .fig.status = REPORT_COUNTED, .fig.value = 600 },
		{ .name = "armv8_cortex_a76/cpu_cycles/", .pmu = "armv8_cortex_a76", .type = 9,
		  .config = 0x11, .fig.status = REPORT_COUNTED, .fig.value = 300 },
		{ .name = "inst_retired", .pmu = "armv8_pmuv3_0", .type = 8, .config = 0x08,
		  .fig.status = REPORT_COUNTED, .fig.value = 900, .run = 1 },
		{ .name = "cpu_cycles", .pmu = "armv8_pmuv3_0", .type = 8, .config = 0x11,
		  .fig.status = REPORT_COUNTED, .fig.value = 300, .run = 2, .fig.scaled = 1 },
	};
	struct report r = { .events = ev, .nevents = 2 };
	struct metrics_core a55 = core("cortex-a55", 0);
	const struct report_metric_value *m;

	CHECK(get(&r, a55, "ipc", 0), NAN, "no ipc from a55's instructions and a76's cycles");
	r.events = &ev[2];
	r.nevents = 2;
	metrics_compute(&r, &a55, NULL, 0);
	m = find(&r, "ipc", 0);
	tap_ok(m && near(m->value, 3.0) && m->estimate,
	       "line %d: ipc of two runs' counts; a scaled input makes it an estimate", __LINE__);
	free((void *)r.metrics);
	r.metrics = NULL;
}

/* -M ipc beside other rows of its events at other levels (inst_retired:u): the one ipc with
 * a value, not a null one for the :u row whose unit has no cycles. */
static void asked_once(void)
{
	struct report_event ev[] = {
		ARMU("inst_retired:u", 0x08, 3000), ARM("cpu_cycles", 0x11, 1000),
		ARM("inst_retired", 0x08, 2000),
	};
	struct report r = { .events = ev, .nevents = 3 };
	struct metrics_core n1 = core("neoverse-n1", 0);
	const char *ask = "ipc";
	size_t n = 0;

	metrics_compute(&r, &n1, &ask, 1);
	for (size_t k = 0; k < r.nmetrics; k++)
		n += !strcmp(mxtab_metric_name(r.metrics[k].def), "ipc");
	tap_ok(n == 1 && near(find(&r, "ipc", ANY)->value, 2.0),
	       "line %d: one ipc, of the rows at the same levels (%zu)", __LINE__, n);
	free((void *)r.metrics);
}

/* big.LITTLE: an event split over core types gets each type's metric from that PMU's part,
 * never the sum over both. */
static void parts(void)
{
	static const struct report_part inst[2] = {
		{ .pmu = "armv8_cortex_a55", .core = "cortex-a55", .cpus = "0-3",
		  .fig.status = REPORT_COUNTED, .fig.value = 800, .fig.enabled_ns = 1, .fig.running_ns = 1 },
		{ .pmu = "armv8_cortex_a76", .core = "cortex-a76", .cpus = "4-7",
		  .fig.status = REPORT_COUNTED, .fig.value = 3000, .fig.enabled_ns = 1, .fig.running_ns = 1 },
	};
	static const struct report_part cyc[2] = {
		{ .pmu = "armv8_cortex_a55", .core = "cortex-a55", .cpus = "0-3",
		  .fig.status = REPORT_COUNTED, .fig.value = 1000, .fig.enabled_ns = 1, .fig.running_ns = 1 },
		{ .pmu = "armv8_cortex_a76", .core = "cortex-a76", .cpus = "4-7",
		  .fig.status = REPORT_COUNTED, .fig.value = 1000, .fig.enabled_ns = 1, .fig.running_ns = 1 },
	};
	struct report_event ev[] = {
		{ .name = "instructions", .pmu = "cpu", .type = 0, .config = 1,
		  .fig.status = REPORT_COUNTED, .fig.value = 3800, .split = inst, .nsplit = 2 },
		{ .name = "cycles", .pmu = "cpu", .type = 0, .config = 0,
		  .fig.status = REPORT_COUNTED, .fig.value = 2000, .split = cyc, .nsplit = 2 },
	};
	struct report r = { .events = ev, .nevents = 2 };
	struct metrics_core a55 = core("cortex-a55", 0);
	int n55 = 0, n76 = 0, other = 0;

	metrics_compute(&r, &a55, NULL, 0);
	for (size_t k = 0; k < r.nmetrics; k++) {
		const struct report_metric_value *m = &r.metrics[k];

		if (strcmp(mxtab_metric_name(m->def), "ipc"))
			continue;
		if (m->pmu && !strcmp(m->pmu, "armv8_cortex_a55") && near(m->value, 0.8) &&
		    !strcmp(m->core, "cortex-a55") && m->group && !strcmp(m->group, "General"))
			n55++;
		else if (m->pmu && !strcmp(m->pmu, "armv8_cortex_a76") && near(m->value, 3.0) &&
			 !strcmp(m->core, "cortex-a76") && m->group && !strcmp(m->group, "General"))
			n76++;
		else
			other++;
	}
	tap_ok(n55 == 1 && n76 == 1 && other == 0,
	       "line %d: ipc per core type (a55 0.8, a76 3.0), none over both (%d %d %d)",
	       __LINE__, n55, n76, other);
	free((void *)r.metrics);
	r.metrics = NULL;
}

/* What -M adds: a metric's events as one group, a group's as one when they fit, else a
 * group per metric; perf's generic names for a core not known. */
static void specs(void)
{
	struct metrics_core n2 = core("neoverse-n2", 0), unknown = core(NULL, 0);
	int unk;
	char *s;

	s = metrics_spec(&n2, "ipc", 6, &unk);
	tap_ok(s && !strcmp(s, "{cpu_cycles,inst_retired}"), "line %d: -M ipc: %s", __LINE__, s);
	free(s);
	s = metrics_spec(&unknown, "IPC", 0, &unk);
	tap_ok(s && !strcmp(s, "{cycles,instructions}"), "line %d: -M IPC, unknown core: %s",
	       __LINE__, s);
	free(s);
	s = metrics_spec(&n2, "Topdown_L1", 7, &unk);
	tap_ok(s && !strcmp(s, "{br_mis_pred,cpu_cycles,stall_slot_frontend,stall_slot_backend,"
			       "op_retired,op_spec,stall_slot}"),
	       "line %d: -M Topdown_L1 fits 7 counters: one group: %s", __LINE__, s);
	free(s);
	s = metrics_spec(&n2, "topdown_l1", 3, &unk);
	tap_ok(s && s[0] == '{' && strstr(s, "},{") && !strstr(s, "{br_mis_pred,cpu_cycles,op_retired,op_spec,stall_slot}"),
	       "line %d: 3 counters: a group per metric, none bigger: %s", __LINE__, s);
	free(s);
	s = metrics_spec(&n2, "nosuch", 6, &unk);
	tap_ok(!s && unk, "line %d: unknown", __LINE__);
}

/* r's metrics and a list of names freed, for another computation */
static void reset(struct report *r, const char ***names, size_t *n)
{
	free((void *)r->metrics);
	r->metrics = NULL;
	r->nmetrics = 0;
	free(*names);
	*names = NULL;
	*n = 0;
}

/* The groups --topdown's second pass counts (metrics_topdown_next): those under the dominant
 * stage-1 nodes only, the largest share and any within a quarter of it. */
static void topdown_next(void)
{
	/* N1: frontend 100 * fe / 1000, backend 100 * be / 1000 */
	struct report_event ev[] = {
		ARM("cpu_cycles", 0x11, 1000), ARM("stall_frontend", 0x23, 100),
		ARM("stall_backend", 0x24, 600),
	};
	struct report r = { .events = ev, .nevents = 3 };
	struct metrics_core n1 = core("neoverse-n1", 0x31), v1 = core("neoverse-v1", 0);
	const char *ask = "Cycle_Accounting", *ask_v1 = "Topdown_L1", **names = NULL;
	size_t n = 0, dom = 9;
	char got[512];

#define JOINED(names, n) (got[0] = '\0', joined(got, sizeof(got), names, n))
	r.topdown_group = ask;
	r.topdown_set = n1.set;
	tap_ok(metrics_compute(&r, &n1, &ask, 1) == 0, "n1 stage 1 computed");
	tap_ok(metrics_topdown_next(&r, &names, &n, &dom) == 0 && dom == 1, "one dominant node");
	/* backend 60 %, frontend 10 %: the backend's groups, none of the frontend's alone */
	tap_ok(!strcmp(JOINED(names, n), "DTLB_Effectiveness L1D_Cache_Effectiveness "
		       "L2_Cache_Effectiveness LL_Cache_Effectiveness Operation_Mix"),
	       "the backend's groups: %s", got);
	reset(&r, &names, &n);
	/* 50 % and 60 %: both dominate (50 >= 0.75 * 60); a group under both is named once */
	ev[1].fig.value = 500;
	tap_ok(metrics_compute(&r, &n1, &ask, 1) == 0 &&
	       metrics_topdown_next(&r, &names, &n, &dom) == 0 && dom == 2, "two dominant nodes");
	tap_ok(!strcmp(JOINED(names, n), "Branch_Effectiveness ITLB_Effectiveness "
		       "L1I_Cache_Effectiveness L2_Cache_Effectiveness LL_Cache_Effectiveness "
		       "DTLB_Effectiveness L1D_Cache_Effectiveness Operation_Mix"),
	       "both nodes' groups, each once: %s", got);
	reset(&r, &names, &n);
	/* nothing counted: no share, no node dominates, nothing added */
	ev[0].fig.status = ev[1].fig.status = ev[2].fig.status = REPORT_NOT_COUNTED;
	tap_ok(metrics_compute(&r, &n1, &ask, 1) == 0 &&
	       metrics_topdown_next(&r, &names, &n, &dom) == 0 && dom == 0 && n == 0,
	       "nothing counted: no dominant node");
	reset(&r, &names, &n);
	/* V1 (the counts of td): retiring 44 % leads; backend 25 % is not within a quarter */
	r = (struct report){ .events = td, .nevents = 7, .topdown_group = ask_v1,
			     .topdown_set = v1.set };
	tap_ok(metrics_compute(&r, &v1, &ask_v1, 1) == 0 &&
	       metrics_topdown_next(&r, &names, &n, &dom) == 0 && dom == 1 &&
	       !strcmp(JOINED(names, n), "Operation_Mix"), "v1: retiring's group: %s", got);
	free((void *)r.metrics);
	free(names);
#undef JOINED
}

/* -M lists: refused where -e refuses an event list, at the same column. */
static void names_check(void)
{
	static const struct { int line; const char *arg, *what; int col; } rows[] = {
		{ __LINE__, "ipc", NULL, 0 },
		{ __LINE__, "ipc,MPKI", NULL, 0 },
		{ __LINE__, "", "empty metric list", 1 },
		{ __LINE__, ",", "empty metric name", 1 },
		{ __LINE__, ",ipc", "empty metric name", 1 },
		{ __LINE__, "ipc,", "trailing ',' with no metric after it", 4 },
		{ __LINE__, "ipc,,MPKI", "empty metric name", 5 },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		int col = 0;
		const char *what = metrics_names_check(rows[k].arg, &col);

		tap_ok(tap_streq(what, rows[k].what) && (!what || col == rows[k].col),
		       "line %d: '%s': %s at %d", rows[k].line, rows[k].arg, tap_str(what), col);
	}
}

/* perf 6.19's default metric names: pmuprof's metric of that meaning, or the events whose
 * figures answer it; any other name is left alone. */
static void perf_names(void)
{
	static const struct {
		int line;
		const char *name, *ours, *events;
	} rows[] = {
		{ __LINE__, "insn_per_cycle", "ipc", NULL },
		{ __LINE__, "Insn_Per_Cycle", "ipc", NULL },
		{ __LINE__, "branch_miss_rate", "branch_misprediction_ratio", NULL },
		{ __LINE__, "frontend_cycles_idle", "frontend_stalled_cycles", NULL },
		{ __LINE__, "backend_cycles_idle", "backend_stalled_cycles", NULL },
		{ __LINE__, "cs_per_second", "cs_per_second", "context-switches,task-clock" },
		{ __LINE__, "CPUs_utilized", "CPUs_utilized", "task-clock" },
		{ __LINE__, "cpus_UTILIZED", "cpus_UTILIZED", "task-clock" },
		{ __LINE__, "page_faults_per_second", "page_faults_per_second",
		  "page-faults,task-clock" },
		{ __LINE__, "migrations_per_second", "migrations_per_second",
		  "cpu-migrations,task-clock" },
		{ __LINE__, "cycles_frequency", "cycles_frequency", "cycles,task-clock" },
		{ __LINE__, "branch_frequency", "branch_frequency", "branches,task-clock" },
		{ __LINE__, "stalled_cycles_per_instruction", "stalled_cycles_per_instruction",
		  "stalled-cycles-frontend,stalled-cycles-backend,instructions" },
		{ __LINE__, "ipc", "ipc", NULL },
		{ __LINE__, "insn_per_cycles", "insn_per_cycles", NULL },
		{ __LINE__, "", "", NULL },
	};
	char arg[] = "insn_per_cycle,MPKI,branch_miss_rate";
	const char **names = NULL;
	size_t n = 0;

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		TAP_EQ_STR(metrics_perf_name(rows[k].name), rows[k].ours, "line %d: '%s' is '%s'",
			   rows[k].line, rows[k].name, rows[k].ours);
		tap_ok(tap_streq(metrics_perf_events(rows[k].name), rows[k].events),
		       "line %d: '%s': events %s", rows[k].line, rows[k].name,
		       tap_str(rows[k].events));
	}
	tap_ok(metrics_names_add(arg, &names, &n) == 0 && n == 3 && !strcmp(names[0], "ipc") &&
	       !strcmp(names[1], "MPKI") && !strcmp(names[2], "branch_misprediction_ratio"),
	       "-M insn_per_cycle,MPKI,branch_miss_rate asks for ipc, MPKI and the ratio");
	free(names);
}

int main(void)
{
	perf_names();
	names_check();
	topdown();
	topdown_next();
	generic();
	per_cgroup();
	units();
	asked_once();
	parts();
	specs();
	return tap_done();
}
