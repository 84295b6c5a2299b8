/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs_host.c: owns what the host says about itself beyond its Arm PMUs, for the readiness
 * check: the CPU PMU of a non-Arm host, the effective capabilities, and the signs of a
 * hypervisor (cpuinfo's flag, DMI, /sys/hypervisor, the devicetree); and whether a task of
 * the command is running (stat --regions). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ascii.h"
#include "sysfs_priv.h"

/* PERF_TYPE_RAW: x86 registers its core PMU ("cpu", or "cpu_core" on a hybrid part) with
 * this type (arch/x86/events/core.c, init_hw_perf_events), so raw codes reach it. */
#define TYPE_RAW 4

/* The x86 core PMUs are "cpu" and, on hybrid parts, "cpu_core" and "cpu_atom"
 * (arch/x86/events/intel/core.c): the name "cpu" or "cpu_*", or the PERF_TYPE_RAW type. */
static int is_core_pmu(const char *name, long long type)
{
	return !strcmp(name, "cpu") || str_starts(name, "cpu_") || type == TYPE_RAW;
}

pp_status sysfs_core_pmu(char *name, size_t len, int *type)
{
	char **names, path[256];
	pp_status st;
	long long t;
	size_t n;

	if (!name || !len)
		return PP_EINVAL;
	name[0] = '\0';
	if ((st = sysfs_list_dir("/sys/bus/event_source/devices", &names, &n)) != PP_OK)
		return st;
	st = PP_ENOENT;
	for (size_t k = 0; k < n && st == PP_ENOENT; k++) {
		if (!sysfs_name_ok(names[k]) ||
		    snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
			     names[k]) >= (int)sizeof(path) ||
		    sysfs_read_ll(path, &t) != PP_OK || !is_core_pmu(names[k], t))
			continue;
		if (strlen(names[k]) >= len) {
			st = PP_ERANGE;
			break;
		}
		strcpy(name, names[k]);
		if (type)
			*type = (int)t;
		st = PP_OK;
	}
	sysfs_names_free(names);
	return st;
}

/* The "CapEff:" line of /proc/self/status: the kernel prints it as 16 hex digits, no 0x
 * (fs/proc/array.c, render_cap_t). */
pp_status sysfs_cap_eff(uint64_t *caps)
{
	char *line = NULL, *end;
	size_t cap = 0;
	pp_status st;
	FILE *f;

	if (!caps)
		return PP_EINVAL;
	if ((st = sysfs_fopen("/proc/self/status", &f)) != PP_OK)
		return st;
	st = PP_ENOENT;
	while (getline(&line, &cap, f) > 0) {
		const char *v = line + 7;

		if (!str_starts(line, "CapEff:"))
			continue;
		v += strspn(v, " \t");
		*caps = strtoull(v, &end, 16);
		st = end != v && (*end == '\n' || *end == '\0') ? PP_OK : PP_EINVAL;
		break;
	}
	free(line);
	fclose(f);
	return st;
}

int sysfs_task_open(int tid)
{
	char path[40];

	/* the live task's, never a fixture tree's: no root */
	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

int sysfs_task_running(int fd)
{
	char buf[512], *p;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "TID (COMM) S ...": the comm may hold spaces and parentheses, the state follows the
	 * last ')' */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ')
		return -1;
	return p[2] == 'R';
}

/* Whether /proc/cpuinfo's first "flags" line (x86) holds the word "hypervisor": the CPUID
 * bit (leaf 1, ECX bit 31) that hypervisors set for their guests. The line is long (700+
 * characters), so it is read whole here rather than by sysfs_cpu.c's bounded scanner. */
static int cpuinfo_hypervisor(void)
{
	char *line = NULL, *w, *save;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	if (sysfs_fopen("/proc/cpuinfo", &f) != PP_OK)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (!str_starts(line, "flags") || !colon)
			continue;
		for (w = strtok_r(colon + 1, " \t\n", &save); w && !found;
		     w = strtok_r(NULL, " \t\n", &save))
			found = !strcmp(w, "hypervisor");
		break;
	}
	free(line);
	fclose(f);
	return found;
}

/* DMI strings of virtual machines (firmware tables that every hypervisor below fills in, as
 * systemd-detect-virt's DMI table lists them): a prefix of sys_vendor or product_name. */
static const char *const dmi_vm[] = {
	"QEMU", "KVM", "VMware", "VMW", "innotek GmbH", "VirtualBox", "Xen", "Bochs",
	"Parallels", "BHYVE", "Google Compute Engine", "Virtual Machine",
};

static int dmi_hypervisor(char *how, size_t len)
{
	static const char *const files[] = { "sys_vendor", "product_name" };
	char path[64], v[128];

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", files[f]);
		if (sysfs_read_str(path, v, sizeof(v)) != PP_OK)
			continue;
		for (size_t k = 0; k < sizeof(dmi_vm) / sizeof(dmi_vm[0]); k++) {
			if (!str_starts(v, dmi_vm[k]))
				continue;
			snprintf(how, len, "DMI %s '%.64s'", files[f], v);
			return 1;
		}
	}
	return 0;
}

int sysfs_hypervisor(char *how, size_t len)
{
	char v[64];

	if (!how || !len)
		return 0;
	how[0] = '\0';
	if (cpuinfo_hypervisor()) {
		snprintf(how, len, "the hypervisor flag in /proc/cpuinfo");
		return 1;
	}
	if (dmi_hypervisor(how, len))
		return 1;
	/* Xen shows itself here (drivers/xen/sys-hypervisor.c), on x86 and on Arm */
	if (sysfs_read_str("/sys/hypervisor/type", v, sizeof(v)) == PP_OK && v[0]) {
		snprintf(how, len, "/sys/hypervisor/type '%.32s'", v);
		return 1;
	}
	/* a devicetree guest (Xen on Arm) has a /hypervisor node */
	{
		char **names;
		size_t n;

		if (sysfs_list_dir("/proc/device-tree/hypervisor", &names, &n) == PP_OK) {
			sysfs_names_free(names);
			snprintf(how, len, "a /hypervisor node in the devicetree");
			return 1;
		}
	}
	return 0;
}
