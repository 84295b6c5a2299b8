/* metrics.c: the derived metrics table and their computation from a report's counted events.
 * Formulas: Arm's telemetry data for Neoverse cores (reference/arm-telemetry), as text in
 * Arm's event names with SLOTS for the core's slot count, evaluated by src/mexpr.c (what a
 * report prints as the formula is what computed it); generic ratios (IPC, miss rates) are the
 * same on every PMUv3 core. tests/unit/test_metrics.c holds the per-core ones against the
 * generated tables of events/metrics. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "metrics.h"
#include "mexpr.h"
#include "resolve.h"

/* Inputs, by their Arm names and codes; perf's generic events count as the event the kernel
 * maps them to (resolve_generic_arm_code, the one copy of that map). */
#define CYCLES { "CPU_CYCLES", 0x11 }
#define INSTS { "INST_RETIRED", 0x08 }
#define BR_RET { "BR_RETIRED", 0x21 }
#define BR_MISR { "BR_MIS_PRED_RETIRED", 0x22 }
#define BR_MIS { "BR_MIS_PRED", 0x10 }
#define PC_WR { "PC_WRITE_RETIRED", 0x0c }
#define L1D { "L1D_CACHE", 0x04 }
#define L1D_R { "L1D_CACHE_REFILL", 0x03 }
#define L1I { "L1I_CACHE", 0x14 }
#define L1I_R { "L1I_CACHE_REFILL", 0x01 }
#define L2D { "L2D_CACHE", 0x16 }
#define L2D_R { "L2D_CACHE_REFILL", 0x17 }
#define LL_RD { "LL_CACHE_RD", 0x36 }
#define LL_MISS { "LL_CACHE_MISS_RD", 0x37 }
#define ST_FE { "STALL_FRONTEND", 0x23 }
#define ST_BE { "STALL_BACKEND", 0x24 }
#define SS_FE { "STALL_SLOT_FRONTEND", 0x3e }
#define SS_BE { "STALL_SLOT_BACKEND", 0x3d }
#define SS { "STALL_SLOT", 0x3f }
#define OP_RET { "OP_RETIRED", 0x3a }
#define OP_SPEC { "OP_SPEC", 0x3b }

#define TD_FE { SS_FE, CYCLES, BR_MIS }
#define TD_BE { SS_BE, CYCLES, BR_MIS }
#define TD_BS { OP_SPEC, CYCLES, OP_RET, SS, BR_MIS }
#define TD_RT { OP_RET, CYCLES, OP_SPEC, SS }
#define TD(nm, lbl, cr, var, n, ins, text) \
	{ .name = nm, .group = "topdown_l1", .unit = "%", .label = lbl, .formula = text, \
	  .core = cr, .variant = var, .ninputs = n, .in = ins }

/* Neoverse N2 before r0p3 counts one extra STALL_SLOT per cycle (Arm's data for r0p0, r0p1
 * and the unversioned N2 subtract CPU_CYCLES); r0p3 does not. */
static const struct metrics_def defs[] = {
	{ "ipc", "ipc", "insn per cycle", "insn per cycle", "INST_RETIRED / CPU_CYCLES",
	  NULL, 0, 2, { INSTS, CYCLES } },
	{ "branch_miss_rate", "branch_miss_rate", "%", "of all branches",
	  "100 * BR_MIS_PRED_RETIRED / BR_RETIRED", NULL, 0, 2, { BR_MISR, BR_RET } },
	/* perf's branch-misses / branches, as the kernel counts them (Linux 6.1's generic map) */
	{ "branch_miss_rate", "branch_miss_rate", "%", "of all branches",
	  "100 * BR_MIS_PRED / PC_WRITE_RETIRED", NULL, 0, 2, { BR_MIS, PC_WR } },
	{ "l1d_miss_rate", "l1d_miss_rate", "%", "of L1D accesses",
	  "100 * L1D_CACHE_REFILL / L1D_CACHE", NULL, 0, 2, { L1D_R, L1D } },
	{ "l1i_miss_rate", "l1i_miss_rate", "%", "of L1I accesses",
	  "100 * L1I_CACHE_REFILL / L1I_CACHE", NULL, 0, 2, { L1I_R, L1I } },
	{ "l2d_miss_rate", "l2d_miss_rate", "%", "of L2D accesses",
	  "100 * L2D_CACHE_REFILL / L2D_CACHE", NULL, 0, 2, { L2D_R, L2D } },
	{ "ll_read_miss_rate", "ll_read_miss_rate", "%", "of LL cache reads",
	  "100 * LL_CACHE_MISS_RD / LL_CACHE_RD", NULL, 0, 2, { LL_MISS, LL_RD } },
	{ "frontend_stalled_cycles", "stalls", "%", "of cycles frontend stalled",
	  "100 * STALL_FRONTEND / CPU_CYCLES", NULL, 0, 2, { ST_FE, CYCLES } },
	{ "backend_stalled_cycles", "stalls", "%", "of cycles backend stalled",
	  "100 * STALL_BACKEND / CPU_CYCLES", NULL, 0, 2, { ST_BE, CYCLES } },
	TD("frontend_bound", "of slots frontend bound", "neoverse-n2", 1, 3, TD_FE,
	   "100 * ((STALL_SLOT_FRONTEND - CPU_CYCLES) / (SLOTS * CPU_CYCLES) - BR_MIS_PRED / CPU_CYCLES)"),
	TD("frontend_bound", "of slots frontend bound", "neoverse-n2", 2, 3, TD_FE,
	   "100 * (STALL_SLOT_FRONTEND / (SLOTS * CPU_CYCLES) - BR_MIS_PRED / CPU_CYCLES)"),
	TD("frontend_bound", "of slots frontend bound", "neoverse-v1", 0, 3, TD_FE,
	   "100 * (STALL_SLOT_FRONTEND / (SLOTS * CPU_CYCLES) - 4 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("frontend_bound", "of slots frontend bound", "neoverse-v2", 0, 3, TD_FE,
	   "100 * (STALL_SLOT_FRONTEND / (SLOTS * CPU_CYCLES) - BR_MIS_PRED / CPU_CYCLES)"),
	TD("backend_bound", "of slots backend bound", "neoverse-n2", 0, 3, TD_BE,
	   "100 * (STALL_SLOT_BACKEND / (SLOTS * CPU_CYCLES) - 3 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("backend_bound", "of slots backend bound", "neoverse-v1", 0, 2, TD_BE,
	   "100 * STALL_SLOT_BACKEND / (SLOTS * CPU_CYCLES)"),
	TD("backend_bound", "of slots backend bound", "neoverse-v2", 0, 3, TD_BE,
	   "100 * (STALL_SLOT_BACKEND / (SLOTS * CPU_CYCLES) - 3 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("bad_speculation", "of slots bad speculation", "neoverse-n2", 1, 5, TD_BS,
	   "100 * ((1 - OP_RETIRED / OP_SPEC) * (1 - (STALL_SLOT - CPU_CYCLES) / (SLOTS * "
	   "CPU_CYCLES)) + 4 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("bad_speculation", "of slots bad speculation", "neoverse-n2", 2, 5, TD_BS,
	   "100 * ((1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / (SLOTS * CPU_CYCLES)) + "
	   "4 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("bad_speculation", "of slots bad speculation", "neoverse-v1", 0, 5, TD_BS,
	   "100 * ((1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / (SLOTS * CPU_CYCLES)) + "
	   "4 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("bad_speculation", "of slots bad speculation", "neoverse-v2", 0, 5, TD_BS,
	   "100 * ((1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / (SLOTS * CPU_CYCLES)) + "
	   "4 * BR_MIS_PRED / CPU_CYCLES)"),
	TD("retiring", "of slots retiring", "neoverse-n2", 1, 4, TD_RT,
	   "100 * OP_RETIRED / OP_SPEC * (1 - (STALL_SLOT - CPU_CYCLES) / (SLOTS * CPU_CYCLES))"),
	TD("retiring", "of slots retiring", "neoverse-n2", 2, 4, TD_RT,
	   "100 * OP_RETIRED / OP_SPEC * (1 - STALL_SLOT / (SLOTS * CPU_CYCLES))"),
	TD("retiring", "of slots retiring", "neoverse-v1", 0, 4, TD_RT,
	   "100 * OP_RETIRED / OP_SPEC * (1 - STALL_SLOT / (SLOTS * CPU_CYCLES))"),
	TD("retiring", "of slots retiring", "neoverse-v2", 0, 4, TD_RT,
	   "100 * OP_RETIRED / OP_SPEC * (1 - STALL_SLOT / (SLOTS * CPU_CYCLES))"),
};

/* What -M adds. topdown_l1 depends on the core: slot events where the core has them (N2, V1,
 * V2), else its level 1 is the cycle accounting of N1's methodology (frontend and backend
 * stalled cycles). */
static const struct {
	const char *group, *spec;
} groups[] = {
	{ "ipc", "{instructions,cycles}" },
	{ "branch_miss_rate", "{br_mis_pred_retired,br_retired}" },
	{ "l1d_miss_rate", "{l1d_cache_refill,l1d_cache}" },
	{ "l1i_miss_rate", "{l1i_cache_refill,l1i_cache}" },
	{ "l2d_miss_rate", "{l2d_cache_refill,l2d_cache}" },
	{ "ll_read_miss_rate", "{ll_cache_miss_rd,ll_cache_rd}" },
	{ "stalls", "{cpu_cycles,stall_frontend,stall_backend}" },
	{ "topdown_l1", "{cpu_cycles,stall_slot_frontend,stall_slot_backend,stall_slot,op_retired,"
			"op_spec,br_mis_pred}" },
};

size_t metrics_ndefs(void)
{
	return sizeof(defs) / sizeof(defs[0]);
}

const struct metrics_def *metrics_def_at(size_t i)
{
	return i < metrics_ndefs() ? &defs[i] : NULL;
}

const char *metrics_group_at(size_t i)
{
	return i < sizeof(groups) / sizeof(groups[0]) ? groups[i].group : NULL;
}

static int slot_core(const struct metrics_core *core)
{
	return core && core->name && core->slots > 0 &&
	       (!strcmp(core->name, "neoverse-n2") || !strcmp(core->name, "neoverse-v1") ||
		!strcmp(core->name, "neoverse-v2"));
}

const char *metrics_group_spec(const char *group, const struct metrics_core *core)
{
	if (!strcmp(group, "topdown_l1") && !slot_core(core))
		group = "stalls";
	for (size_t k = 0; k < sizeof(groups) / sizeof(groups[0]); k++)
		if (!strcmp(groups[k].group, group))
			return groups[k].spec;
	return NULL;
}

/* An event of an Arm PMU (or a raw code, which the kernel gives to it). */
static int arm_event(const struct report_event *e)
{
	return e->type == 4 || (e->pmu && !strncasecmp(e->pmu, "arm", 3));
}

static int matches(const struct report_event *e, const struct metrics_input *in)
{
	if (e->status != REPORT_COUNTED)
		return 0;
	if (e->type == PERF_TYPE_HARDWARE || e->type == PERF_TYPE_HW_CACHE)
		return resolve_generic_arm_code(e->type, e->config) == in->code;
	return arm_event(e) && (e->config & 0xffff) == in->code;
}

/* The definition applies on this core (generic ones on every core). */
static int applies(const struct metrics_def *d, const struct metrics_core *core)
{
	unsigned variant, rev;

	if (!d->core)
		return 1;
	if (!core || !core->name || strcmp(d->core, core->name) || core->slots <= 0)
		return 0;
	if (!d->variant)
		return 1;
	variant = (unsigned)(core->midr >> 20) & 0xf;
	rev = (unsigned)core->midr & 0xf;
	/* unknown revision: the unversioned N2 data (which corrects, as r0p0/r0p1 do) */
	return (d->variant == 2) == (core->midr && (variant > 0 || rev >= 3));
}

/* A PMU the user named (a sysfs PMU), not one the kernel chooses (generic names, raw codes). */
static int named_pmu(const char *p)
{
	return p && strcmp(p, "cpu") && strcmp(p, "raw") && strcmp(p, "software") &&
	       strcmp(p, "libpfm4");
}

/* Whether e can be an input beside the anchor: the same aggregation unit. Counted at the
 * same levels, in the same planned run, both split over the machine's core types or
 * neither, and never on two PMUs the user named apart. */
static int same_unit(const struct report_event *e, const struct report_event *anchor)
{
	return e->excl_user == anchor->excl_user && e->excl_kernel == anchor->excl_kernel &&
	       e->run == anchor->run && (e->nsplit > 0) == (anchor->nsplit > 0) &&
	       !(named_pmu(e->pmu) && named_pmu(anchor->pmu) && strcmp(e->pmu, anchor->pmu));
}

/* The inputs' values for the formula: its names are the definition's inputs and SLOTS. */
struct inputs {
	const struct metrics_def *d;
	const double *v;
	double slots;
};

static enum mexpr_status input(void *ctx, const char *name, size_t len, double *value)
{
	const struct inputs *in = ctx;

	if (len == 5 && !memcmp(name, "SLOTS", 5)) {
		*value = in->slots;
		return MEXPR_OK;
	}
	for (size_t i = 0; i < in->d->ninputs; i++)
		if (strlen(in->d->in[i].arm_name) == len && !memcmp(in->d->in[i].arm_name, name, len)) {
			*value = in->v[i];
			return MEXPR_OK;
		}
	return MEXPR_UNKNOWN;
}

/* Fills m from the events like the anchor a; 0 when an input is missing or it is undefined. */
static int compute_one(const struct report *r, const struct metrics_def *d, size_t a,
		       const struct metrics_core *core, struct report_metric_value *m)
{
	const struct report_event *anchor = &r->events[a];
	double v[METRICS_MAX_INPUTS];

	m->def = d;
	m->anchor = m->ev[0] = a;
	v[0] = anchor->value;
	m->nev = 1;
	m->slots = core ? core->slots : 0;
	for (size_t i = 1; i < d->ninputs; i++) {
		size_t k;

		for (k = 0; k < r->nevents; k++) {
			const struct report_event *e = &r->events[k];
			if (k != a && matches(e, &d->in[i]) && same_unit(e, anchor))
				break;
		}
		if (k == r->nevents)
			return 0;
		v[i] = r->events[k].value;
		m->ev[m->nev++] = k;
	}
	m->value = metrics_eval(d, v, m->slots);
	return isfinite(m->value);
}

double metrics_eval(const struct metrics_def *d, const double *v, int slots)
{
	return mexpr_eval(d->formula, input, &(struct inputs){ d, v, slots }, NULL);
}

size_t metrics_compute(const struct report *r, const struct metrics_core *core,
		       struct report_metric_value *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < metrics_ndefs(); i++) {
		if (!applies(&defs[i], core))
			continue;
		for (size_t a = 0; a < r->nevents && n < max; a++)
			if (matches(&r->events[a], &defs[i].in[0]) &&
			    compute_one(r, &defs[i], a, core, &out[n]))
				n++;
	}
	return n;
}
