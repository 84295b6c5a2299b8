/* SPDX-License-Identifier: Apache-2.0 */
/* info_check.h: `pmuprof info --check`: the facts that decide whether this machine's counts of
 * hardware events can be trusted, gathered once, and the verdict on each point, judged from
 * the facts alone (pure, so unit tests give any machine). */
#ifndef PMUPROF_INFO_CHECK_H
#define PMUPROF_INFO_CHECK_H

#include <stdint.h>

#include "resolve.h"

/* Capability bits (include/uapi/linux/capability.h). */
#define INFO_CHECK_CAP_SYS_ADMIN 21
#define INFO_CHECK_CAP_PERFMON 38

struct info_check_pmu {
	char name[64];
	char core[64];		/* the core's title, "" when not in the tables or not Arm */
	int ncpus;		/* 0: every CPU (x86's "cpu" gives no cpus file) */
	int general;		/* free counters found by the probe; -1 unknown */
	int cycle;		/* the cycle counter: 1 free, 0 not, -1 unknown or not Arm */
	char why[120];		/* why general is unknown */
};

struct info_check_facts {
	int arm;		/* the PMUs are Arm PMUv3 PMUs (else the host's core PMU) */
	int npmus;
	struct info_check_pmu pmus[8];	/* the first 8 (a big.LITTLE SoC has 2 or 3) */
	int paranoid_known;
	long long paranoid;	/* perf_event_paranoid (-1 to 4) */
	int caps_known;
	uint64_t caps;		/* CapEff */
	int hypervisor;		/* 1: signs of a hypervisor; 0: none seen */
	char hv_how[128];
};

enum info_check_verdict { INFO_CHECK_OK, INFO_CHECK_NO, INFO_CHECK_UNKNOWN };

enum info_check_point { INFO_CHECK_PMU, INFO_CHECK_ACCESS, INFO_CHECK_COUNTERS, INFO_CHECK_VM, INFO_CHECK_NPOINTS };

struct info_check_line {
	const char *name;	/* "pmu", "access", "counters", "vm" */
	enum info_check_verdict verdict;
	char text[240];
};

/* Reads the facts of this machine (or the fixture tree under sysfs_root()): the Arm PMUs of
 * ctx (after resolve_ctx_pmus), else the host's core PMU; each PMU's counters probed (or
 * cached: probe_get). Never fails: what cannot be read stays unknown. */
void info_check_gather(struct resolve_ctx *ctx, struct info_check_facts *f);
/* Judges each point from f into out[INFO_CHECK_NPOINTS]; returns 1 when every point is
 * INFO_CHECK_OK (the counts can be trusted), else 0. */
int info_check_judge(const struct info_check_facts *f, struct info_check_line out[INFO_CHECK_NPOINTS]);
/* "ok", "no", "unknown". */
const char *info_check_verdict_name(enum info_check_verdict v);

#endif
