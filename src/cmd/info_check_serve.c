/* SPDX-License-Identifier: Apache-2.0 */
/* info_check_serve.c: `pmuprof info --check`'s points for pmuprof serve: its program found
 * where `pmuprof serve` looks, a counter of every task of a CPU tried for real, the events it
 * counts when given none, cgroup v2 for --for-each-cgroup; gathered, then judged from the
 * facts alone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "counter.h"
#include "info_check.h"
#include "serve.h"
#include "stat.h"
#include "sysfs.h"

/* The first place of pmuprof serve's lookup holding a program that runs, else the installed
 * place with the errno of the nearest miss. */
static void find_program(struct info_check_serve *s)
{
	char path[CMD_SERVE_NPATHS][CMD_SERVE_PATH_MAX];
	size_t n = cmd_serve_paths(path);

	s->err = n ? ENOENT : 0;
	for (size_t k = 0; k < n && !s->found; k++) {
		memcpy(s->path, path[k], sizeof(s->path));
		if (access(path[k], X_OK) == 0)
			s->found = 1;
		else if (errno != ENOENT)
			s->err = errno;	/* there, but it cannot be run */
	}
}

/* serve opens its counters with pid -1 on each CPU: the kernel's perf_allow_cpu() check, the
 * same for every PMU, decides; one software counter asks it without holding a hardware one. */
static void try_wide(struct info_check_serve *s)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_CPU_CLOCK, .disabled = 1 };
	int *cpus = NULL, n = 0, fd;

	s->wide = -1;
	s->fixture = *sysfs_root() != '\0';
	if (s->fixture ||	/* a fixture's CPUs are another machine's */
	    sysfs_read_cpulist("/sys/devices/system/cpu/online", &cpus, &n) != PP_OK || !n) {
		free(cpus);
		return;
	}
	s->wide_cpu = cpus[0];
	free(cpus);
	fd = counter_open(&a, -1, s->wide_cpu, -1, &s->wide_err);
	s->wide = fd >= 0;
	if (fd >= 0)
		close(fd);
}

/* /proc/cgroups' perf_event line: "perf_event <hierarchy> <cgroups> <enabled>"; hierarchy 0
 * is cgroup v2's (or none mounted), another a v1 hierarchy that holds the controller. */
static void perf_controller(struct info_check_serve *s)
{
	char text[8192], *p;
	int h, enabled;

	s->perf_cgroup = -1;
	if (sysfs_read_str("/proc/cgroups", text, sizeof(text)) != PP_OK)
		return;
	s->perf_cgroup = -2;
	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (sscanf(p, "perf_event %d %*d %d", &h, &enabled) == 2 && enabled) {
			s->perf_cgroup = h == 0;
			s->perf_cgroup_v1 = h;
		}
}

void info_check_serve_gather(struct resolve_ctx *ctx, struct info_check_serve *s)
{
	struct metrics_core mc;

	find_program(s);
	try_wide(s);
	stat_metrics_core(NULL, NULL, ctx, &mc);
	s->events = serve_default_events(ctx->npmus > 0, &mc, &s->group);
	s->cgroup2 = cgroup_root(s->cgroup_root, sizeof(s->cgroup_root)) == PP_OK;
	perf_controller(s);
}

static void judge_program(const struct info_check_facts *f, struct info_check_line *l)
{
	const struct info_check_serve *s = &f->serve;

	l->verdict = s->found ? INFO_CHECK_OK : INFO_CHECK_NO;
	if (s->found)
		info_check_add(l, "pmuprof-serve at %s", s->path);
	else if (!s->err)
		info_check_add(l, "cannot look for pmuprof-serve: /proc/self/exe is unreadable "
			       "(mount /proc)");
	else if (s->err == ENOENT)
		info_check_add(l, "no pmuprof-serve beside pmuprof nor in ../libexec/pmuprof: "
			       "pmuprof serve cannot run (build it with make, or install it as "
			       "%s)", s->path);
	else
		info_check_add(l, "pmuprof-serve cannot be run: %s (%s)", strerror(s->err),
			       s->path);
}

static void judge_wide(const struct info_check_facts *f, struct info_check_line *l)
{
	const struct info_check_serve *s = &f->serve;
	const char *e = strerrorname_np(s->wide_err);

	l->verdict = s->wide == 1 ? INFO_CHECK_OK : s->wide == 0 ? INFO_CHECK_NO
								  : INFO_CHECK_UNKNOWN;
	if (s->wide < 0)
		info_check_add(l, "not tried: %s", s->fixture ? "the machine is a fixture tree"
			       : "the online CPUs cannot be read");
	else if (s->wide)
		info_check_add(l, "a counter of every task on CPU %d opens: serve counts "
			       "system-wide", s->wide_cpu);
	else if (s->wide_err == EACCES || s->wide_err == EPERM)
		info_check_add(l, "a counter of every task on CPU %d is refused (%s): serve needs "
			       "kernel.perf_event_paranoid <= 0 (it is %lld) or CAP_PERFMON (as "
			       "root, 'sysctl -w kernel.perf_event_paranoid=0', or run serve as "
			       "root)", s->wide_cpu, e ? e : "?", f->paranoid_known ? f->paranoid
			       : -9);
	else
		info_check_add(l, "a counter of every task on CPU %d cannot be opened: %s (%s)",
			       s->wide_cpu, strerror(s->wide_err), e ? e : "?");
}

static void judge_events(const struct info_check_facts *f, struct info_check_line *l)
{
	const struct info_check_serve *s = &f->serve;

	l->verdict = INFO_CHECK_OK;
	if (!f->arm) {
		info_check_add(l, "the software fallback (no Arm PMU): %s", s->events);
	} else {
		info_check_add(l, "the Arm set on ");
		for (int k = 0; k < f->npmus; k++)
			info_check_add(l, "%s%s (%s)", k ? ", " : "", f->pmus[k].name,
				       f->pmus[k].core[0] ? f->pmus[k].core : "core not in "
				       "pmuprof's tables");
		info_check_add(l, ": %s", s->events);
		if (s->group)
			info_check_add(l, " and group %s", s->group);
	}
	info_check_add(l, " (-e and -M choose others)");
}

static void judge_cgroups(const struct info_check_facts *f, struct info_check_line *l)
{
	const struct info_check_serve *s = &f->serve;

	l->verdict = s->cgroup2 && s->perf_cgroup != 0 && s->perf_cgroup != -2 ? INFO_CHECK_OK
									      : INFO_CHECK_NO;
	if (!s->cgroup2) {
		info_check_add(l, "no cgroup v2 hierarchy is mounted: --for-each-cgroup cannot "
			       "count (as root, 'mount -t cgroup2 none /sys/fs/cgroup')");
		return;
	}
	info_check_add(l, "cgroup v2 at %.120s", s->cgroup_root);
	if (s->perf_cgroup == 0)
		info_check_add(l, ", but the perf_event controller is on cgroup v1 hierarchy %d: "
			       "--for-each-cgroup cannot count (unmount that hierarchy)",
			       s->perf_cgroup_v1);
	else if (s->perf_cgroup == -2)
		info_check_add(l, ", but the kernel has no perf_event controller "
			       "(CONFIG_CGROUP_PERF): --for-each-cgroup cannot count");
	else
		info_check_add(l, ": --for-each-cgroup can count");
}

enum info_check_verdict info_check_judge_serve(const struct info_check_facts *f,
					       struct info_check_line out[INFO_CHECK_SERVE_NPOINTS])
{
	static const struct {
		const char *name;
		void (*judge)(const struct info_check_facts *, struct info_check_line *);
	} points[INFO_CHECK_SERVE_NPOINTS] = {
		[INFO_CHECK_SERVE] = { "serve", judge_program },
		[INFO_CHECK_WIDE] = { "wide", judge_wide },
		[INFO_CHECK_EVENTS] = { "events", judge_events },
		[INFO_CHECK_CGROUPS] = { "cgroups", judge_cgroups },
	};
	enum info_check_verdict v = INFO_CHECK_OK;

	for (int k = 0; k < INFO_CHECK_SERVE_NPOINTS; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].name = points[k].name;
		points[k].judge(f, &out[k]);
		if (k == INFO_CHECK_CGROUPS || out[k].verdict == INFO_CHECK_OK)
			continue;
		if (v == INFO_CHECK_OK || out[k].verdict == INFO_CHECK_NO)
			v = out[k].verdict;
	}
	return v;
}
