/* SPDX-License-Identifier: Apache-2.0 */
/* test_ready_serve.c: the verdicts on pmuprof serve of `pmuprof info --check` from given facts
 * (info_check_judge_serve is pure), one row per machine, each row naming its line. */
#include <errno.h>
#include <string.h>

#include "info_check.h"
#include "tap.h"

/* each row is GOOD's machine with a field or two given again */
#pragma GCC diagnostic ignored "-Woverride-init"

enum { O = INFO_CHECK_OK, N = INFO_CHECK_NO, U = INFO_CHECK_UNKNOWN };

#define SOFT .events = "task-clock,context-switches,page-faults"
/* found beside pmuprof, every task of CPU 0 counted, cgroup v2 with perf_event on it */
#define GOOD .found = 1, .path = "/usr/bin/pmuprof-serve", .wide = 1, SOFT, .cgroup2 = 1, \
	     .cgroup_root = "/sys/fs/cgroup", .perf_cgroup = 1

static const struct row {
	int line;
	struct info_check_facts f;
	int want[INFO_CHECK_SERVE_NPOINTS];	/* serve, wide, events, cgroups */
	int can;				/* serve's verdict */
	const char *has[INFO_CHECK_SERVE_NPOINTS];	/* a piece of each line, NULL: not checked */
} rows[] = {
	{ __LINE__, { .serve = { GOOD } }, { O, O, O, O }, O,
	  { "pmuprof-serve at /usr/bin/pmuprof-serve", "every task on CPU 0 opens",
	    "the software fallback (no Arm PMU): task-clock,context-switches,page-faults (-e and "
	    "-M choose others)", "cgroup v2 at /sys/fs/cgroup: --for-each-cgroup can count" } },
	/* the Arm set names the PMUs and the stage-1 group */
	{ __LINE__, { .arm = 1, .npmus = 1, .pmus = { { .name = "armv8_pmuv3_0", .core = "Neoverse N1" } },
		      .serve = { GOOD, .events = "cpu_cycles,inst_retired", .group = "Cycle_Accounting" } },
	  { O, O, O, O }, O,
	  { NULL, NULL, "the Arm set on armv8_pmuv3_0 (Neoverse N1): cpu_cycles,inst_retired and "
	    "group Cycle_Accounting", NULL } },
	/* not installed: the way out names make and the installed path */
	{ __LINE__, { .serve = { GOOD, .found = 0, .err = ENOENT,
				 .path = "/opt/bin/../libexec/pmuprof/pmuprof-serve" } },
	  { N, O, O, O }, N,
	  { "build it with make, or install it as /opt/bin/../libexec/pmuprof/pmuprof-serve", NULL,
	    NULL, NULL } },
	{ __LINE__, { .serve = { GOOD, .found = 0, .err = EACCES } }, { N, O, O, O }, N,
	  { "pmuprof-serve cannot be run: Permission denied", NULL, NULL, NULL } },
	{ __LINE__, { .serve = { GOOD, .found = 0, .err = 0 } }, { N, O, O, O }, N,
	  { "/proc/self/exe is unreadable (mount /proc)", NULL, NULL, NULL } },
	/* refused: the line names the level and both ways out */
	{ __LINE__, { .paranoid_known = 1, .paranoid = 2,
		      .serve = { GOOD, .wide = 0, .wide_cpu = 3, .wide_err = EACCES } },
	  { O, N, O, O }, N,
	  { NULL, "every task on CPU 3 is refused (EACCES): serve needs "
	    "kernel.perf_event_paranoid <= 0 (it is 2) or CAP_PERFMON", NULL, NULL } },
	{ __LINE__, { .serve = { GOOD, .wide = 0, .wide_err = ENODEV } }, { O, N, O, O }, N,
	  { NULL, "cannot be opened: No such device (ENODEV)", NULL, NULL } },
	/* a fixture tree: nothing tried, nothing known */
	{ __LINE__, { .serve = { GOOD, .wide = -1, .fixture = 1 } }, { O, U, O, O }, U,
	  { NULL, "not tried: the machine is a fixture tree", NULL, NULL } },
	/* a missing program outweighs an unknown */
	{ __LINE__, { .serve = { GOOD, .found = 0, .err = ENOENT, .wide = -1 } }, { N, U, O, O }, N,
	  { NULL, "not tried: the online CPUs cannot be read", NULL, NULL } },
	/* cgroups only matter for --for-each-cgroup: serve still counts */
	{ __LINE__, { .serve = { GOOD, .cgroup2 = 0 } }, { O, O, O, N }, O,
	  { NULL, NULL, NULL, "no cgroup v2 hierarchy is mounted: --for-each-cgroup cannot count "
	    "(as root, 'mount -t cgroup2 none /sys/fs/cgroup')" } },
	{ __LINE__, { .serve = { GOOD, .perf_cgroup = 0, .perf_cgroup_v1 = 9 } }, { O, O, O, N }, O,
	  { NULL, NULL, NULL, "the perf_event controller is on cgroup v1 hierarchy 9" } },
	{ __LINE__, { .serve = { GOOD, .perf_cgroup = -2 } }, { O, O, O, N }, O,
	  { NULL, NULL, NULL, "no perf_event controller (CONFIG_CGROUP_PERF)" } },
	/* /proc/cgroups unreadable: the mount decides */
	{ __LINE__, { .serve = { GOOD, .perf_cgroup = -1 } }, { O, O, O, O }, O,
	  { NULL, NULL, NULL, NULL } },
};

int main(void)
{
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct row *w = &rows[r];
		struct info_check_line l[INFO_CHECK_SERVE_NPOINTS];
		int can = (int)info_check_judge_serve(&w->f, l);

		TAP_EQ_STR(info_check_verdict_name(can), info_check_verdict_name(w->can),
			   "line %d: serve's verdict", w->line);
		for (int k = 0; k < INFO_CHECK_SERVE_NPOINTS; k++) {
			TAP_EQ_STR(info_check_verdict_name(l[k].verdict),
				   info_check_verdict_name(w->want[k]), "line %d: %s verdict",
				   w->line, l[k].name);
			if (w->has[k] && !tap_ok(strstr(l[k].text, w->has[k]) != NULL,
						 "line %d: %s says '%s'", w->line, l[k].name, w->has[k]))
				printf("#   got '%s'\n", l[k].text);
		}
	}
	return tap_done();
}
