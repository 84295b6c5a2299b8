/* SPDX-License-Identifier: Apache-2.0 */
/* test_ready.c: the verdicts of `pmuprof info --check` from given facts (info_check_judge is pure),
 * one row per machine, each row naming its line. */
#include <string.h>

#include "info_check.h"
#include "tap.h"

#define CAP(b) (1ULL << (b))

enum { O = INFO_CHECK_OK, N = INFO_CHECK_NO, U = INFO_CHECK_UNKNOWN };

/* An Arm PMU with g free general counters (-1: unknown) and the cycle counter. */
#define ARM1(g) .arm = 1, .npmus = 1, \
	.pmus = { { .name = "armv8_pmuv3_0", .core = "Neoverse N1", .ncpus = 80, .general = (g), \
		    .cycle = 1, .why = "not permitted to probe" } }

static const struct row {
	int line;
	struct info_check_facts f;
	int want[INFO_CHECK_NPOINTS];	/* pmu, access, counters, vm */
	int trusted;
	const char *has[INFO_CHECK_NPOINTS];	/* a piece of each line's text, NULL: not checked */
} rows[] = {
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = 2 }, { O, O, O, O }, 1,
	  { "armv8_pmuv3_0 (Neoverse N1, 80 CPUs)", "perf_event_paranoid 2, no CAP_PERFMON: user space",
	    "6 general + the cycle counter free", "no sign of a hypervisor" } },
	/* Debian's level 3 without a capability: nothing can be opened */
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = 3 }, { O, N, O, O }, 0,
	  { NULL, "no perf_event_open at all", NULL, NULL } },
	/* CAP_PERFMON lifts level 3; so does CAP_SYS_ADMIN (kernels before 5.8) */
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = 3, .caps_known = 1,
		      .caps = CAP(INFO_CHECK_CAP_PERFMON) }, { O, O, O, O }, 1,
	  { NULL, "CAP_PERFMON: any event, any CPU (perf_event_paranoid 3 does not apply)", NULL, NULL } },
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = 4, .caps_known = 1,
		      .caps = CAP(INFO_CHECK_CAP_SYS_ADMIN) }, { O, O, O, O }, 1,
	  { NULL, "CAP_SYS_ADMIN", NULL, NULL } },
	/* caps read but without either bit: the level decides */
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = 3, .caps_known = 1,
		      .caps = ~(CAP(INFO_CHECK_CAP_PERFMON) | CAP(INFO_CHECK_CAP_SYS_ADMIN)) }, { O, N, O, O }, 0,
	  { NULL, NULL, NULL, NULL } },
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = -1 }, { O, O, O, O }, 1,
	  { NULL, "any process, per-CPU counting too", NULL, NULL } },
	{ __LINE__, { ARM1(6), .paranoid_known = 1, .paranoid = 1 }, { O, O, O, O }, 1,
	  { NULL, "user and kernel space of your own processes", NULL, NULL } },
	{ __LINE__, { ARM1(6) }, { O, U, O, O }, 0,
	  { NULL, "cannot read /proc/sys/kernel/perf_event_paranoid", NULL, NULL } },
	/* a hypervisor that gives the guest no counter (MDCR_EL2.HPMN = 0) */
	{ __LINE__, { ARM1(0), .paranoid_known = 1, .paranoid = 2 }, { O, O, N, O }, 0,
	  { NULL, NULL, "none free", NULL } },
	/* the probe could not tell */
	{ __LINE__, { ARM1(-1), .paranoid_known = 1, .paranoid = 2 }, { O, O, U, O }, 0,
	  { NULL, NULL, "unknown, not permitted to probe", NULL } },
	/* a VM with a virtual PMU: fine */
	{ __LINE__, { ARM1(2), .paranoid_known = 1, .paranoid = 2, .hypervisor = 1,
		      .hv_how = "DMI sys_vendor 'QEMU'" }, { O, O, O, O }, 1,
	  { NULL, NULL, "2 general", "a virtual machine (DMI sys_vendor 'QEMU') with a virtual PMU" } },
	/* a cloud VM that exposes no PMU: the point of the check */
	{ __LINE__, { .paranoid_known = 1, .paranoid = 2, .hypervisor = 1,
		      .hv_how = "the hypervisor flag in /proc/cpuinfo" }, { N, O, N, N }, 0,
	  { "this VM exposes none", NULL, "no PMU to count on",
	    "a virtual machine (the hypervisor flag in /proc/cpuinfo) that exposes no PMU" } },
	/* bare metal without a PMU driver */
	{ __LINE__, { .paranoid_known = 1, .paranoid = 2 }, { N, O, N, O }, 0,
	  { "no PMU driver", NULL, NULL, "no sign of a hypervisor" } },
	/* big.LITTLE: one PMU without a free counter fails the point */
	{ __LINE__, { .arm = 1, .npmus = 2, .paranoid_known = 1, .paranoid = 2,
		      .pmus = { { .name = "armv8_cortex_a55", .core = "Cortex-A55", .ncpus = 4,
				  .general = 6, .cycle = 1 },
				{ .name = "armv8_cortex_a76", .core = "Cortex-A76", .ncpus = 4,
				  .general = 0, .cycle = -1 } } }, { O, O, N, O }, 0,
	  { "armv8_cortex_a55 (Cortex-A55, 4 CPUs), armv8_cortex_a76 (Cortex-A76, 4 CPUs)", NULL,
	    "armv8_cortex_a55: 6 general + the cycle counter free (probed); armv8_cortex_a76: none free",
	    NULL } },
	/* an x86 host's core PMU */
	{ __LINE__, { .npmus = 1, .pmus = { { .name = "cpu", .general = 5, .cycle = -1 } },
		      .paranoid_known = 1, .paranoid = 0 }, { O, O, O, O }, 1,
	  { "cpu (the host's core PMU", NULL, "5 count cycles at once", NULL } },
};

int main(void)
{
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct row *w = &rows[r];
		struct info_check_line l[INFO_CHECK_NPOINTS];
		int ok = info_check_judge(&w->f, l);

		TAP_EQ_INT(ok, w->trusted, "line %d: trusted", w->line);
		for (int k = 0; k < INFO_CHECK_NPOINTS; k++) {
			TAP_EQ_STR(info_check_verdict_name(l[k].verdict), info_check_verdict_name(w->want[k]),
				   "line %d: %s verdict", w->line, l[k].name);
			if (w->has[k] && !tap_ok(strstr(l[k].text, w->has[k]) != NULL,
						 "line %d: %s says '%s'", w->line, l[k].name, w->has[k]))
				printf("#   got '%s'\n", l[k].text);
		}
	}
	TAP_EQ_STR(info_check_verdict_name(INFO_CHECK_UNKNOWN), "unknown", "verdict names");
	return tap_done();
}
