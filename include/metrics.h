/* metrics.h: derived metrics: named formulas over counted events (IPC, miss rates, stall
 * shares, top-down level 1 of Neoverse cores) computed from a report, and the events that
 * -M NAME adds for each. Pure: no I/O. */
#ifndef PMUPROF_METRICS_H
#define PMUPROF_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

#define METRICS_MAX_INPUTS 7

/* One input: an Arm PMUv3 event code (a raw code or an event of an arm PMU, or the perf
 * generic hardware or cache event the kernel maps to it). */
struct metrics_input {
	const char *arm_name;	/* as Arm spells it, in the formula */
	uint16_t code;
};

struct metrics_def {
	const char *name;	/* "ipc", "frontend_bound" */
	const char *group;	/* the -M name that adds it: "ipc", "topdown_l1" */
	const char *unit;	/* "insn per cycle", "%" */
	const char *label;	/* beside the count in text: "insn per cycle", "of all branches" */
	const char *formula;	/* what is evaluated (mexpr.h), in Arm's event names (the inputs
				 * below); SLOTS is the core's slot count */
	const char *core;	/* NULL: any core; else the core (evtab name) it is defined for */
	int variant;		/* for core: 0 any revision, 1 before r0p3, 2 r0p3 and later */
	size_t ninputs;		/* input 0 is the event it is printed beside */
	struct metrics_input in[METRICS_MAX_INPUTS];
};

/* The core the per-core formulas are chosen for (NULL name: unknown, only the generic ones). */
struct metrics_core {
	const char *name;	/* evtab core name, "neoverse-n2" */
	int slots;		/* PMMIR.SLOTS (caps/slots or the core table); 0 unknown */
	uint64_t midr;		/* for the revision (0 unknown) */
};

/* Every metric defined, and their count. */
size_t metrics_ndefs(void);
const struct metrics_def *metrics_def_at(size_t i);
/* The event specs -M group adds on this core ("{instructions,cycles}"), NULL when no such
 * group. */
const char *metrics_group_spec(const char *group, const struct metrics_core *core);
/* The -M names, one after another: "ipc", "branch_miss_rate", ...; NULL after the last. */
const char *metrics_group_at(size_t i);
/* d's formula over its inputs' values v (d->ninputs of them, in order) with the core's slot
 * count; NaN when undefined (a division by zero). */
double metrics_eval(const struct metrics_def *d, const double *v, int slots);
/* Computes every metric whose inputs were all counted, with the same privilege levels
 * (inst_retired:u over cpu_cycles:u), once per event that matches its input 0. Writes up to
 * max values to out; returns how many. */
size_t metrics_compute(const struct report *r, const struct metrics_core *core,
		       struct report_metric_value *out, size_t max);

#endif
