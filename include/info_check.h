/* SPDX-License-Identifier: Apache-2.0 */
/* info_check.h: `pmuprof info --check`: the facts that decide whether this machine's counts of
 * hardware events can be trusted, gathered once, and the verdict on each point, judged from
 * the facts alone (pure, so unit tests give any machine). */
#ifndef PMUPROF_INFO_CHECK_H
#define PMUPROF_INFO_CHECK_H

#include <stdint.h>

#include "cmd.h"
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

/* What decides whether pmuprof serve can count here (info_check_serve.c). */
struct info_check_serve {
	int found;		/* pmuprof-serve is where pmuprof serve looks, and runs */
	int err;		/* not found: the errno of a file there that cannot run, else
				 * ENOENT; 0 when /proc/self/exe is unreadable */
	char path[CMD_SERVE_PATH_MAX];	/* where it was found, else where it is installed */
	int wide;		/* a counter of every task on one online CPU: 1 opened, 0 refused,
				 * -1 not tried (a fixture tree, or no CPU online read) */
	int wide_cpu;
	int wide_err;		/* the refusal's errno */
	int fixture;		/* the machine is a fixture tree (PMUPROF_SYSFS_ROOT) */
	const char *events;	/* the set serve counts without -e and -M */
	const char *group;	/* and its metric group; NULL: none */
	int cgroup2;		/* a cgroup v2 hierarchy is mounted, at cgroup_root */
	char cgroup_root[4096];
	int perf_cgroup;	/* /proc/cgroups' perf_event: 1 on cgroup v2 (hierarchy 0) and
				 * enabled, 0 bound to the v1 hierarchy perf_cgroup_v1, -2 absent or
				 * disabled, -1 unknown */
	int perf_cgroup_v1;
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
	struct info_check_serve serve;
};

enum info_check_verdict { INFO_CHECK_OK, INFO_CHECK_NO, INFO_CHECK_UNKNOWN };

enum info_check_point {
	INFO_CHECK_PMU,
	INFO_CHECK_ACCESS,
	INFO_CHECK_COUNTERS,
	INFO_CHECK_VM,
	INFO_CHECK_NPOINTS
};

/* The points of pmuprof serve: its program, counting every task of a CPU, the events it
 * counts by default, and cgroup v2 for its --for-each-cgroup. */
enum info_check_serve_point {
	INFO_CHECK_SERVE, INFO_CHECK_WIDE, INFO_CHECK_EVENTS, INFO_CHECK_CGROUPS,
	INFO_CHECK_SERVE_NPOINTS
};

struct info_check_line {
	const char *name;	/* "pmu", "access", "counters", "vm"; "serve", "wide", "events",
				 * "cgroups" */
	enum info_check_verdict verdict;
	char text[240];
};

/* Reads the facts of this machine (or the fixture tree under sysfs_root()): the Arm PMUs of
 * ctx (after resolve_ctx_pmus), else the host's core PMU; each PMU's counters probed (or
 * cached: probe_get). Never fails: what cannot be read stays unknown. */
void info_check_gather(struct resolve_ctx *ctx, struct info_check_facts *f);
/* Judges each point from f into out[INFO_CHECK_NPOINTS]; returns 1 when every point is
 * INFO_CHECK_OK (the counts can be trusted), else 0. */
int info_check_judge(const struct info_check_facts *f,
		     struct info_check_line out[INFO_CHECK_NPOINTS]);
/* "ok", "no", "unknown". */
const char *info_check_verdict_name(enum info_check_verdict v);
/* Appends to a line's text, cutting what does not fit. */
void info_check_add(struct info_check_line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* info_check_serve.c. Reads serve's facts into s: looks for pmuprof-serve as pmuprof serve
 * does (cmd_serve_paths), opens and closes one counter of every task on the first online CPU
 * (not on a fixture tree), names the default events of ctx's PMUs, finds cgroup v2. */
void info_check_serve_gather(struct resolve_ctx *ctx, struct info_check_serve *s);
/* Judges serve's points from f into out[INFO_CHECK_SERVE_NPOINTS]: INFO_CHECK_OK when serve
 * can count here (program, wide and events ok), INFO_CHECK_NO when it cannot, else
 * INFO_CHECK_UNKNOWN. --for-each-cgroup needs out[INFO_CHECK_CGROUPS] ok besides. */
enum info_check_verdict
info_check_judge_serve(const struct info_check_facts *f,
		       struct info_check_line out[INFO_CHECK_SERVE_NPOINTS]);

#endif
