/* resolve_priv.h: what resolve.c and resolve_arm.c share; not part of include/resolve.h. */
#ifndef PMUPROF_RESOLVE_PRIV_H
#define PMUPROF_RESOLVE_PRIV_H

#include "resolve.h"

/* Where an Arm name was found: a core's table entry (ev) or a PMU's events/ entry (sev). pmu
 * is NULL when --cpu-model named a core this machine has no PMU for. */
struct arm_hit {
	const struct sysfs_pmu *pmu;
	const struct evtab_core *core;
	const struct evtab_event *ev;
	const struct sysfs_event *sev;
};

/* Looks name up as an Arm event: the --cpu-model core's table (then its PMU's events/), else,
 * PMU by PMU in CPU order, the table of the PMU's core (the common events when the core is not
 * recognised) and the PMU's events/. PP_ENOENT when none has it. */
pp_status resolve_arm_find(struct resolve_ctx *c, const char *name, struct arm_hit *hit);
/* Offers the Arm names a user could have meant (lower case), for "did you mean". */
void resolve_arm_offer(struct resolve_ctx *c, struct suggest *s);
/* Frees the pool of the strings of the events resolved in c (resolve.c). */
void resolve_pool_free(struct resolve_ctx *c);

#endif
