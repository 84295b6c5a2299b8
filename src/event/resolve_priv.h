/* SPDX-License-Identifier: Apache-2.0 */
/* resolve_priv.h: what resolve.c, resolve_ctx.c and resolve_terms.c share; not part of
 * include/resolve.h. */
#ifndef PMUPROF_RESOLVE_PRIV_H
#define PMUPROF_RESOLVE_PRIV_H

#include <stdint.h>

#include "evspec.h"
#include "pmreg.h"
#include "resolve.h"

/* Longest user-given string quoted whole in a message (names, values). */
#define QUOTE 48

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

/* Fills err's message and column; returns st. */
pp_status resolve_errf(struct resolve_error *err, int column, pp_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A whole unsigned number, decimal or 0x hex. PP_EINVAL if not a number, PP_ERANGE past 64
 * bits. */
pp_status resolve_parse_u64(const char *s, uint64_t *out);

/* resolve_terms.c. "event=0x11,umask=2"-style terms (an events/ file's) into cfg through the
 * PMU's format/. */
pp_status resolve_apply_term_string(const struct sysfs_pmu *pmu, const char *terms,
				    uint64_t cfg[4]);
/* A PMUv3 event number into cfg through the PMU's "event" format term. */
pp_status resolve_place_code(const struct sysfs_pmu *pmu, unsigned code, uint64_t cfg[4]);
/* Every term of req on top of ev's attr. */
pp_status resolve_apply_terms(const struct sysfs_pmu *pmu, const struct evspec_req *req,
			      struct pp_event *ev, struct pmreg_th_req *th,
			      struct resolve_error *err);
/* Threshold terms (FEAT_PMUv3_TH) into config through pmu's format/. */
pp_status resolve_apply_threshold(const struct sysfs_pmu *pmu, int column, struct pp_event *ev,
				  const struct pmreg_th_req *th, struct resolve_error *err);

#endif
