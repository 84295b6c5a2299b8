/* SPDX-License-Identifier: Apache-2.0 */
/* filter_el.c: which exception level the kernel runs at (1, or 2 with VHE), decided from what
 * the machine shows through the sysfs module (so a fixture root can present any machine). */
#include <stdio.h>
#include <string.h>

#include "evtab.h"
#include "filter.h"
#include "sysfs.h"

/* Kernel parameters that keep the kernel at EL1 although the CPU could run it at EL2:
 * kvm-arm.mode=nvhe/protected and the id-register override that hides VHE. */
static const char *const nvhe_params[] = {
	"kvm-arm.mode=nvhe", "kvm-arm.mode=protected", "id_aa64mmfr1.vh=0",
};

static const char *cmdline_forces_nvhe(void)
{
	char cmdline[4096];

	if (sysfs_read_str("/proc/cmdline", cmdline, sizeof(cmdline)) != PP_OK)
		return NULL;
	for (size_t k = 0; k < sizeof(nvhe_params) / sizeof(nvhe_params[0]); k++)
		if (strstr(cmdline, nvhe_params[k]))
			return nvhe_params[k];
	return NULL;
}

/* The core the kernel runs on: by name when given, else by CPU 0's MIDR. */
static const struct evtab_core *find_core(const char *cpu_model)
{
	uint64_t midr;

	if (cpu_model && *cpu_model)
		return evtab_core_by_name(cpu_model);
	if (sysfs_cpu_midr(0, &midr) == PP_OK)
		return evtab_core_by_midr(midr);
	return NULL;
}

/* Whether one of the machine's CPUs is core (by its MIDR): then the kernel this machine shows
 * is one that core runs. The CPUs in turn, up to the first whose MIDR cannot be read (none on
 * a machine that is not Arm). */
static int machine_has(const struct evtab_core *core)
{
	int n = sysfs_ncpus();
	uint64_t midr;

	for (int cpu = 0; cpu < (n > 0 ? n : 1); cpu++) {
		if (sysfs_cpu_midr(cpu, &midr) != PP_OK)
			return 0;
		if (evtab_core_by_midr(midr) == core)
			return 1;
	}
	return 0;
}

void filter_kernel_el_detect(int override, const char *cpu_model, struct filter_kernel_el *out)
{
	static char why[160];
	const struct evtab_core *core;
	const char *param;
	char buf[32];
	int elsewhere;

	if (override == 1 || override == 2) {
		out->el = override;
		out->why = "given with --kernel-el";
		return;
	}
	out->el = 1;
	core = find_core(cpu_model);
	/* --cpu-model naming a core this machine does not have: its kernel command line and
	 * KVM are another kernel's (an x86 host's /dev/kvm says nothing of an Arm machine) */
	elsewhere = cpu_model && *cpu_model && (!core || !machine_has(core));
	if (!elsewhere && (param = cmdline_forces_nvhe())) {
		snprintf(why, sizeof(why), "the kernel command line has %s", param);
		out->why = why;
		return;
	}
	/* VHE (FEAT_VHE) arrived with Armv8.1: an Armv8.0 core always runs the kernel at EL1 */
	if (core && strcmp(evtab_core_arch(core), "armv8-a") == 0) {
		snprintf(why, sizeof(why), "%s is an Armv8.0 core, without VHE",
			 evtab_core_title(core));
		out->why = why;
		return;
	}
	if (elsewhere) {
		snprintf(why, sizeof(why), "assumed for --cpu-model %s, not this machine's core: give "
			 "--kernel-el 2 for a VHE host",
			 core ? evtab_core_title(core) : cpu_model);
		out->why = why;
		return;
	}
	/* KVM registers /dev/kvm only when the kernel was entered at EL2; on a VHE-capable
	 * core the kernel then stays at EL2 */
	if (core && sysfs_read_str("/sys/class/misc/kvm/dev", buf, sizeof(buf)) == PP_OK) {
		out->el = 2;
		snprintf(why, sizeof(why), "KVM is up on %s (%s), which has VHE",
			 evtab_core_title(core), evtab_core_arch(core));
		out->why = why;
		return;
	}
	out->why = "assumed: this machine does not show it (give --kernel-el 2 for a VHE host)";
}
