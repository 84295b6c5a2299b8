/* SPDX-License-Identifier: Apache-2.0 */
/* probe.h: how many events an Arm PMU counts at once: general counters found by probing
 * (no sysfs file gives PMCR_EL0.N), the cycle counter, the instruction counter, cached per
 * boot; or given with --counters; the core's count in Arm's data beside it. */
#ifndef PMUPROF_PROBE_H
#define PMUPROF_PROBE_H

#include "sysfs.h"

struct capacity {
	int general;		/* general counters; -1 unknown */
	int cycle;		/* the cycle counter: 1 free, 0 not (taken: nmi_watchdog), -1 unknown */
	int icntr;		/* FEAT_PMUv3_ICNTR: 1 shown by the probe, -1 unknown */
	int per_arm;		/* PMCR_EL0.N in Arm's data for the core; -1 unknown */
	const char *source;	/* "probed", "cached", "given" (--counters), "arm-data", NULL */
	char how[48];		/* "cpu 0", "task" (what the probe opened on) */
	char why[120];		/* why general is unknown */
	double probe_ms;	/* time the probe took (also when read from the cache) */
};

/* Probes the PMU (opens groups of k events on one of its CPUs, or on pmuprof itself when
 * per-CPU events are not permitted), or takes this boot's answer from the cache of probes
 * (sysfs_cache.c); adds the answer to that cache after a probe. Fills *c (general -1 with why
 * when it cannot tell). */
void probe_get(const struct sysfs_pmu *p, struct capacity *c);
/* The probe alone (no cache). */
void probe_run(const struct sysfs_pmu *p, struct capacity *c);
/* For a non-Arm host's core PMU: how many PERF_COUNT_HW_CPU_CYCLES events count at once in
 * one group (the counters that can count cycles; not cached). general -1 with why when it
 * cannot tell. */
void probe_hw(struct capacity *c);

#endif
