/* stat_metrics.c: what -M needs of stat: the metric list, the core the per-core formulas
 * are for, and the events a metric adds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "evtab.h"
#include "metrics.h"
#include "stat.h"
#include "sysfs.h"

/* -M list: each name, the events it adds, and the formulas it brings. */
int stat_metrics_list(void)
{
	for (size_t g = 0; metrics_group_at(g); g++) {
		const char *name = metrics_group_at(g);

		printf("%s\n", name);
		for (size_t k = 0; k < metrics_ndefs(); k++) {
			const struct metrics_def *d = metrics_def_at(k);

			if (strcmp(d->group, name))
				continue;
			printf("    %-24s = %s  [%s]", d->name, d->formula, d->unit);
			if (d->core)
				printf("  (%s%s)", d->core, d->variant == 1 ? " before r0p3" :
				       d->variant == 2 ? " r0p3 and later" : "");
			putchar('\n');
		}
	}
	return ferror(stdout) ? PP_EXIT_ERROR : 0;
}

/* The core per-core metrics are for: --cpu-model or $PMUPROF_CPU_MODEL (with its revision,
 * "neoverse-n2:r0p3", else revision unknown), else CPU 0's MIDR;
 * slots from the first Arm PMU's caps/slots (PMMIR_EL1.SLOTS), else the core table. */
void stat_metrics_core(const char *cpu_model, const struct stat_event *evs, size_t n,
		       struct metrics_core *mc)
{
	const char *model = resolve_model_name(cpu_model);
	const struct evtab_core *c;
	uint64_t midr = 0;
	long long slots = 0;
	char path[320];

	memset(mc, 0, sizeof(*mc));
	if (!model && sysfs_cpu_midr(0, &midr) != PP_OK)
		midr = 0;
	if (!(c = model ? evtab_core_by_name(model) : evtab_core_by_midr(midr)))
		return;
	if (model && evtab_model_revision(model) >= 0) {
		/* --cpu-model CORE:rXpY: that revision's MIDR (Variant [23:20], Revision [3:0]) */
		unsigned rev = (unsigned)evtab_model_revision(model);

		midr = (uint64_t)evtab_core_implementer(c) << 24 | (uint64_t)(rev >> 4) << 20 |
		       (uint64_t)evtab_core_part(c) << 4 | (rev & 0xf);
	}
	mc->name = evtab_core_name(c);
	mc->slots = evtab_core_slots(c);
	mc->midr = midr;
	/* the first event that counts a PMUv3 event on a sysfs PMU: that PMU's caps */
	for (size_t k = 0; k < n; k++)
		if (evs[k].sel.ev.arm_code >= 0 && evs[k].sel.ev.core) {
			snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/caps/slots",
				 evs[k].sel.ev.pmu);
			if (sysfs_read_ll(path, &slots) == PP_OK && slots > 0 && slots < 64)
				mc->slots = (int)slots;
			break;
		}
}

/* Whether an event needs the core for its metrics (the top-down slot events 0x3a-0x3f). */
int stat_metrics_need_core(const struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (evs[k].sel.ev.arm_code >= 0x3a && evs[k].sel.ev.arm_code <= 0x3f)
			return 1;
	return 0;
}

/* -M: each metric's events become one more -e group. -1 after a message. */
int stat_metrics_add_specs(struct evsel_opts *ev, const char *const *names, size_t nnames,
			   const struct metrics_core *mc)
{
	for (size_t k = 0; k < nnames; k++) {
		const char *spec = metrics_group_spec(names[k], mc), **p;

		if (!spec) {
			msg_error("no metric '%s' (see 'pmuprof stat -M list')", names[k]);
			return -1;
		}
		if (!(p = realloc(ev->specs, (ev->nspecs + 1) * sizeof(*p)))) {
			msg_error("out of memory");
			return -1;
		}
		ev->specs = p;
		ev->specs[ev->nspecs++] = spec;
	}
	return 0;
}
