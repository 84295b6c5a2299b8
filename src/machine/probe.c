/* SPDX-License-Identifier: Apache-2.0 */
/* probe.c: an Arm PMU's counters found by probing: groups of k events opened on one of its
 * CPUs (binary search on k), then one CPU_CYCLES and one INST_RETIRED more for the fixed
 * counters; the answer kept for the boot in the cache of probes (sysfs_cache.c). */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ascii.h"
#include "probe.h"
#include "counter.h"
#include "evtab.h"
#include "sysfs.h"

#define EV_SW_INCR 0x00		/* any event counter, never a fixed one */
#define EV_INST 0x08
#define EV_CYCLES 0x11
#define SPIN_NS 200000		/* how long a group is left enabled */

/* Where and how a trial opens its events. */
struct probe_at {
	int type, cpu;
	pid_t pid;
	int user_only;
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void spin(void)
{
	double end = now_ms() + SPIN_NS / 1e6;

	while (now_ms() < end)
		;
}

/* One member of a trial group: general events, then cycles and inst when asked. */
static unsigned long long member_config(int i, int k, int cycles)
{
	if (i < k)
		return EV_SW_INCR;
	return cycles && i == k ? EV_CYCLES : EV_INST;
}

/* Whether a group of k general events (+ CPU_CYCLES, + INST_RETIRED) is scheduled for all
 * of its enabled time: 1 yes, 0 no, or -errno when its leader cannot be opened. The
 * siblings are opened enabled, so an oversized group fails at open (EINVAL from the
 * driver's validate_group); one that opens must still run (counters taken by others). */
static int trial(const struct probe_at *at, int k, int cycles, int inst)
{
	int fds[SYSFS_MAX_GENERAL + 3], n = k + cycles + inst, opened = 0, fit = 1, err = 0;
	struct perf_event_attr a;

	for (int i = 0; i < n && fit; i++) {
		memset(&a, 0, sizeof(a));
		a.type = (unsigned)at->type;
		a.config = member_config(i, k, cycles);
		a.disabled = i == 0;
		a.exclude_kernel = a.exclude_hv = (unsigned)at->user_only;
		fds[i] = counter_open(&a, at->pid, at->cpu, i ? fds[0] : -1, &err);
		if (fds[i] < 0)
			fit = i == 0 ? -err : 0;
		else
			opened++;
	}
	if (fit == 1 && counter_enable(fds[0], 1) == PP_OK) {
		spin();
		counter_enable(fds[0], 0);
		for (int i = 0; i < n; i++) {
			struct counter_reading r;

			if (counter_read(fds[i], &r) != PP_OK || !r.enabled || r.running != r.enabled)
				fit = 0;
		}
	}
	for (int i = 0; i < opened; i++)
		close(fds[i]);
	return fit;
}

/* The largest k that fits (binary search; fits(0) holds). -errno when nothing can open. */
static int search(const struct probe_at *at)
{
	int lo = 0, hi = SYSFS_MAX_GENERAL + 1, r = trial(at, 1, 0, 0);

	if (r < 0)
		return r;
	if (r == 0)
		return 0;
	lo = 1;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if ((r = trial(at, mid, 0, 0)) < 0)
			return r;
		if (r)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Probes with per-CPU events on the PMU's first CPU, else on pmuprof itself (user space,
 * pinned to the PMU's CPUs: a task's arm_pmu event counts only there). */
static int probe_where(const struct sysfs_pmu *p, struct probe_at *at, struct capacity *c)
{
	cpu_set_t old, set;
	int g, pinned = 0;

	*at = (struct probe_at){ p->type, p->ncpus ? p->cpus[0] : 0, -1, 0 };
	snprintf(c->how, sizeof(c->how), "cpu %d", at->cpu);
	if ((g = search(at)) != -EACCES && g != -EPERM)
		return g;
	*at = (struct probe_at){ p->type, -1, 0, 1 };
	snprintf(c->how, sizeof(c->how), "task");
	CPU_ZERO(&set);
	for (int k = 0; k < p->ncpus && p->cpus[k] < CPU_SETSIZE; k++)
		CPU_SET(p->cpus[k], &set);
	if (p->ncpus && sched_getaffinity(0, sizeof(old), &old) == 0)
		pinned = sched_setaffinity(0, sizeof(set), &set) == 0;
	g = search(at);
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	return g;
}

/* Why a probe that found g (0, or -errno) counters tells nothing; refused: the words for an
 * open refused for another reason than permission. */
static void probe_failed(struct capacity *c, int g, const char *refused)
{
	snprintf(c->why, sizeof(c->why), "%s", g == -EACCES || g == -EPERM
		 ? "not permitted to probe (perf_event_paranoid; run as root)"
		 : g == 0 ? "no group of one event was ever scheduled" : refused);
}

void probe_run(const struct sysfs_pmu *p, struct capacity *c)
{
	const struct evtab_core *core = p->midr ? evtab_core_by_midr(p->midr) : NULL;
	double t0 = now_ms();
	struct probe_at at;
	int g;

	memset(c, 0, sizeof(*c));
	c->per_arm = core ? evtab_core_counters(core) : -1;
	c->cycle = c->icntr = -1;
	c->general = -1;
	if (*sysfs_root()) {	/* a fixture's PMU type may be another PMU's number here */
		snprintf(c->why, sizeof(c->why), "not probed: the PMUs are a fixture tree");
		return;
	}
	g = probe_where(p, &at, c);
	if (g <= 0) {
		probe_failed(c, g, "the PMU refused the probe's events");
	} else {
		c->general = g;
		c->source = "probed";
		c->cycle = trial(&at, g, 1, 0) == 1;
		c->icntr = trial(&at, g, c->cycle, 1) == 1 ? 1 : -1;
	}
	c->probe_ms = now_ms() - t0;
}

void probe_hw(struct capacity *c)
{
	struct sysfs_pmu hw = { .type = PERF_TYPE_HARDWARE };
	double t0 = now_ms();
	struct probe_at at;
	int g;

	memset(c, 0, sizeof(*c));
	c->per_arm = c->cycle = c->icntr = c->general = -1;
	if (*sysfs_root()) {
		snprintf(c->why, sizeof(c->why), "not probed: the PMUs are a fixture tree");
		return;
	}
	/* member_config's general event, code 0, is PERF_COUNT_HW_CPU_CYCLES here */
	g = probe_where(&hw, &at, c);
	if (g <= 0)
		probe_failed(c, g, "the kernel refused the probe's cycles event");
	else {
		c->general = g;
		c->source = "probed";
	}
	c->probe_ms = now_ms() - t0;
}

/* The probe in *pr as a capacity, as read from the cache: how is "cpu" or "task". */
static void from_probed(const struct sysfs_probed *pr, struct capacity *c)
{
	c->general = pr->general;
	c->cycle = pr->cycle;
	c->icntr = pr->icntr;
	snprintf(c->how, sizeof(c->how), "%s", pr->task ? "task" : "cpu");
	c->probe_ms = (double)pr->probe_us / 1000;
	c->source = "cached";
}

void probe_get(const struct sysfs_pmu *p, struct capacity *c)
{
	const struct evtab_core *core = p->midr ? evtab_core_by_midr(p->midr) : NULL;
	struct sysfs_probed pr;

	memset(c, 0, sizeof(*c));
	c->per_arm = core ? evtab_core_counters(core) : -1;
	if (sysfs_cache_probe(p, &pr) == 0) {	/* this boot's probe */
		from_probed(&pr, c);
		return;
	}
	probe_run(p, c);
	if (c->general <= 0)
		return;
	pr = (struct sysfs_probed){ .general = c->general, .cycle = c->cycle, .icntr = c->icntr,
				    .task = str_starts(c->how, "task"),
				    .probe_us = (long long)(c->probe_ms * 1000 + 0.5) };
	sysfs_cache_add_probe(p, &pr);
}
