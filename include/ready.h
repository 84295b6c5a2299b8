/* ready.h: `pmuprof info --check`: the facts that decide whether this machine's counts of
 * hardware events can be trusted, gathered once, and the verdict on each point, judged from
 * the facts alone (pure, so unit tests give any machine). */
#ifndef PMUPROF_READY_H
#define PMUPROF_READY_H

#include <stdint.h>

#include "resolve.h"

/* Capability bits (include/uapi/linux/capability.h). */
#define READY_CAP_SYS_ADMIN 21
#define READY_CAP_PERFMON 38

struct ready_pmu {
	char name[64];
	char core[64];		/* the core's title, "" when not in the tables or not Arm */
	int ncpus;		/* 0: every CPU (x86's "cpu" gives no cpus file) */
	int general;		/* free counters found by the probe; -1 unknown */
	int cycle;		/* the cycle counter: 1 free, 0 not, -1 unknown or not Arm */
	char why[120];		/* why general is unknown */
};

struct ready_facts {
	int arm;		/* the PMUs are Arm PMUv3 PMUs (else the host's core PMU) */
	int npmus;
	struct ready_pmu pmus[8];	/* the first 8 (a big.LITTLE SoC has 2 or 3) */
	int paranoid_known;
	long long paranoid;	/* perf_event_paranoid (-1 to 4) */
	int caps_known;
	uint64_t caps;		/* CapEff */
	int hypervisor;		/* 1: signs of a hypervisor; 0: none seen */
	char hv_how[128];
};

enum ready_verdict { READY_OK, READY_NO, READY_UNKNOWN };

enum ready_point { READY_PMU, READY_ACCESS, READY_COUNTERS, READY_VM, READY_NPOINTS };

struct ready_line {
	const char *name;	/* "pmu", "access", "counters", "vm" */
	enum ready_verdict verdict;
	char text[240];
};

/* Reads the facts of this machine (or the fixture tree under sysfs_root()): the Arm PMUs of
 * ctx (after resolve_ctx_pmus), else the host's core PMU; each PMU's counters probed (or
 * cached: capacity_get). Never fails: what cannot be read stays unknown. */
void ready_gather(struct resolve_ctx *ctx, struct ready_facts *f);
/* Judges each point from f into out[READY_NPOINTS]; returns 1 when every point is
 * READY_OK (the counts can be trusted), else 0. */
int ready_judge(const struct ready_facts *f, struct ready_line out[READY_NPOINTS]);
/* "ok", "no", "unknown". */
const char *ready_verdict_name(enum ready_verdict v);

#endif
