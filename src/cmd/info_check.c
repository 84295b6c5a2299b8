/* SPDX-License-Identifier: Apache-2.0 */
/* info_check.c: `pmuprof info --check`: gathers the facts that decide whether hardware counts can
 * be trusted here (a PMU, the permission to use it, free counters, a VM that hides it) and
 * judges each point from those facts alone. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "evtab.h"
#include "info_check.h"
#include "sysfs.h"

#define NPMUS_MAX (sizeof(((struct info_check_facts *)0)->pmus) / sizeof(struct info_check_pmu))

static void pmu_from_capacity(struct info_check_pmu *r, const struct capacity *c)
{
	r->general = c->general;
	r->cycle = c->cycle;
	snprintf(r->why, sizeof(r->why), "%s", c->general > 0 ? "" : c->why);
}

/* The Arm PMUs of ctx, each probed; else the host's own core PMU (x86's "cpu"). */
static void gather_pmus(struct resolve_ctx *ctx, struct info_check_facts *f)
{
	struct capacity c;
	int type;

	f->arm = ctx->npmus > 0;
	for (size_t k = 0; k < ctx->npmus && k < NPMUS_MAX; k++) {
		const struct sysfs_pmu *p = &ctx->pmus[k];
		const struct evtab_core *core = resolve_pmu_core(p);
		struct info_check_pmu *r = &f->pmus[f->npmus++];

		snprintf(r->name, sizeof(r->name), "%s", p->name);
		snprintf(r->core, sizeof(r->core), "%s", core ? evtab_core_title(core) : "");
		r->ncpus = p->ncpus;
		probe_get(p, &c);
		pmu_from_capacity(r, &c);
	}
	if (f->arm || sysfs_core_pmu(f->pmus[0].name, sizeof(f->pmus[0].name), &type) != PP_OK)
		return;
	f->npmus = 1;
	probe_hw(&c);
	pmu_from_capacity(&f->pmus[0], &c);
}

void info_check_gather(struct resolve_ctx *ctx, struct info_check_facts *f)
{
	memset(f, 0, sizeof(*f));
	gather_pmus(ctx, f);
	f->paranoid_known =
		sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &f->paranoid) == PP_OK;
	f->caps_known = sysfs_cap_eff(&f->caps) == PP_OK;
	f->hypervisor = sysfs_hypervisor(f->hv_how, sizeof(f->hv_how));
	info_check_serve_gather(ctx, &f->serve);
}

const char *info_check_verdict_name(enum info_check_verdict v)
{
	return v == INFO_CHECK_OK ? "ok" : v == INFO_CHECK_NO ? "no" : "unknown";
}

void info_check_add(struct info_check_line *l, const char *fmt, ...)
{
	size_t n = strlen(l->text);
	va_list ap;

	if (n + 1 >= sizeof(l->text))
		return;
	va_start(ap, fmt);
	vsnprintf(l->text + n, sizeof(l->text) - n, fmt, ap);
	va_end(ap);
}

static void judge_pmu(const struct info_check_facts *f, struct info_check_line *l)
{
	l->verdict = f->npmus ? INFO_CHECK_OK : INFO_CHECK_NO;
	if (!f->npmus) {
		info_check_add(l, "no CPU PMU in /sys/bus/event_source/devices: only software "
			       "events count%s", f->hypervisor ? " (this VM exposes none)"
			       : " (no PMU driver, or no PMU node in the devicetree or ACPI)");
		return;
	}
	for (int k = 0; k < f->npmus; k++) {
		const struct info_check_pmu *p = &f->pmus[k];

		info_check_add(l, "%s%s", k ? ", " : "", p->name);
		if (!f->arm)
			info_check_add(l, " (the host's core PMU: perf's generic events, no Arm "
				       "tables)");
		else if (p->ncpus)
			info_check_add(l, " (%s, %d CPU%s)",
				       p->core[0] ? p->core : "core not in pmuprof's tables",
				       p->ncpus, p->ncpus == 1 ? "" : "s");
	}
}

static int has_cap(const struct info_check_facts *f, int bit)
{
	return f->caps_known && (f->caps >> bit & 1);
}

/* perf_event_paranoid's levels (Documentation/admin-guide/sysctl/kernel.rst), and Debian's
 * level 3, which refuses perf_event_open to unprivileged users altogether. CAP_PERFMON (or
 * CAP_SYS_ADMIN before 5.8) bypasses every level. */
static void judge_access(const struct info_check_facts *f, struct info_check_line *l)
{
	const char *cap = has_cap(f, INFO_CHECK_CAP_PERFMON) ? "CAP_PERFMON"
			: has_cap(f, INFO_CHECK_CAP_SYS_ADMIN) ? "CAP_SYS_ADMIN" : NULL;

	l->verdict = INFO_CHECK_OK;
	if (cap) {
		info_check_add(l, "%s: any event, any CPU", cap);
		if (f->paranoid_known)
			info_check_add(l, " (perf_event_paranoid %lld does not apply)",
				       f->paranoid);
		return;
	}
	if (!f->paranoid_known) {
		l->verdict = INFO_CHECK_UNKNOWN;
		info_check_add(l, "cannot read /proc/sys/kernel/perf_event_paranoid");
		return;
	}
	info_check_add(l, "perf_event_paranoid %lld, no CAP_PERFMON: ", f->paranoid);
	if (f->paranoid >= 3) {
		l->verdict = INFO_CHECK_NO;
		info_check_add(l, "no perf_event_open at all (run as root, grant CAP_PERFMON, or "
			       "'sysctl kernel.perf_event_paranoid=2')");
	} else if (f->paranoid == 2) {
		info_check_add(l, "user space of your own processes (:u); kernel counts need 1 or "
			       "CAP_PERFMON");
	} else if (f->paranoid == 1) {
		info_check_add(l, "user and kernel space of your own processes; per-CPU counting "
			       "needs 0");
	} else {
		info_check_add(l, "any process, per-CPU counting too");
	}
}

static void judge_counters(const struct info_check_facts *f, struct info_check_line *l)
{
	l->verdict = f->npmus ? INFO_CHECK_OK : INFO_CHECK_NO;
	if (!f->npmus)
		info_check_add(l, "none: no PMU to count on");
	for (int k = 0; k < f->npmus; k++) {
		const struct info_check_pmu *p = &f->pmus[k];

		info_check_add(l, "%s", k ? "; " : "");
		if (f->npmus > 1)
			info_check_add(l, "%s: ", p->name);
		if (p->general < 0) {
			if (l->verdict == INFO_CHECK_OK)
				l->verdict = INFO_CHECK_UNKNOWN;
			info_check_add(l, "unknown, %s", p->why);
		} else if (p->general == 0) {
			l->verdict = INFO_CHECK_NO;
			info_check_add(l, "none free (a hypervisor's MDCR_EL2.HPMN of 0, or all "
				       "held by others)");
		} else if (f->arm) {
			info_check_add(l, "%d general%s free (probed)", p->general,
				       p->cycle == 1 ? " + the cycle counter" : "");
		} else {
			info_check_add(l, "%d count cycles at once (probed; how many in all is "
				       "probed on Arm PMUs only)", p->general);
		}
	}
}

static void judge_vm(const struct info_check_facts *f, struct info_check_line *l)
{
	l->verdict = INFO_CHECK_OK;
	if (!f->hypervisor)
		info_check_add(l, "no sign of a hypervisor");
	else if (f->npmus)
		info_check_add(l, "a virtual machine (%s) with a virtual PMU: counts are the "
			       "guest's", f->hv_how);
	else {
		l->verdict = INFO_CHECK_NO;
		info_check_add(l, "a virtual machine (%s) that exposes no PMU: use bare metal or "
			       "an instance type with a virtual PMU", f->hv_how);
	}
}

int info_check_judge(const struct info_check_facts *f,
		     struct info_check_line out[INFO_CHECK_NPOINTS])
{
	static const struct {
		const char *name;
		void (*judge)(const struct info_check_facts *, struct info_check_line *);
	} points[INFO_CHECK_NPOINTS] = {
		[INFO_CHECK_PMU] = { "pmu", judge_pmu },
		[INFO_CHECK_ACCESS] = { "access", judge_access },
		[INFO_CHECK_COUNTERS] = { "counters", judge_counters },
		[INFO_CHECK_VM] = { "vm", judge_vm },
	};
	int ok = 1;

	for (int k = 0; k < INFO_CHECK_NPOINTS; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].name = points[k].name;
		points[k].judge(f, &out[k]);
		ok &= out[k].verdict == INFO_CHECK_OK;
	}
	return ok;
}
