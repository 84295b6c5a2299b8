/* SPDX-License-Identifier: Apache-2.0 */
/* mxtab.h: the metric tables generated from events/metrics at build time, reached only through
 * these accessors: per core and revision range, its metrics (name, title, unit, formula, the
 * events the formula names, its top-down links) and groups (members, top-down stage). */
#ifndef PMUPROF_MXTAB_H
#define PMUPROF_MXTAB_H

#include <stddef.h>
#include <stdint.h>

#include "evtab.h"
#include "mexpr.h"

/* Handles into the tables; static, never freed, read through the accessors. */
struct mxtab_set;
struct mxtab_metric;
struct mxtab_group;

/* Revisions as MIDR_EL1 gives them: variant << 4 | revision ("r1p2" is 0x12). */
#define MXTAB_REV(variant, revision) ((unsigned)(variant) << 4 | (unsigned)(revision))
/* The revision in a MIDR_EL1 value (Variant [23:20], Revision [3:0]). */
#define MXTAB_MIDR_REV(midr) MXTAB_REV(((midr) >> 20) & 0xf, (midr) & 0xf)

/* Sets, in a stable order (by core id, then revision). */
size_t mxtab_nsets(void);
const struct mxtab_set *mxtab_set_at(size_t i);
/* The set of core at revision rev (MXTAB_REV; an unknown revision is r0p0, the first). NULL
 * when the core has no metrics. */
const struct mxtab_set *mxtab_set_for(const struct evtab_core *core, unsigned rev);
const struct evtab_core *mxtab_set_core(const struct mxtab_set *s);
unsigned mxtab_set_rev_lo(const struct mxtab_set *s);	/* first revision it holds for */
unsigned mxtab_set_rev_hi(const struct mxtab_set *s);	/* last (0xff: every later one) */
int mxtab_set_generic(const struct mxtab_set *s);	/* 1: generic metrics, no core file */
/* The generic metrics whole (the generic set with the most metrics): their formulas are the
 * same on every core, for a core the tables lack. */
const struct mxtab_set *mxtab_generic_set(void);

/* A set's metrics, sorted by name; lookup by name is case-insensitive. */
size_t mxtab_nmetrics(const struct mxtab_set *s);
/* What a metric needs, as a quick check of whether all its events were counted: needs[i] of
 * metric i has mxtab_code_bit of each of its events' codes (in the set's core). A metric
 * one of whose bits no counted event's code sets lacks an event; one whose bits are all set
 * may still lack one (codes 64 apart share a bit). */
const uint64_t *mxtab_set_needs(const struct mxtab_set *s);
static inline uint64_t mxtab_code_bit(unsigned code)
{
	return (uint64_t)1 << (code % 64);
}
const struct mxtab_metric *mxtab_metric_at(const struct mxtab_set *s, size_t i);
const struct mxtab_metric *mxtab_find_metric(const struct mxtab_set *s, const char *name);
const char *mxtab_metric_name(const struct mxtab_metric *m);	/* "backend_bound" */
const char *mxtab_metric_title(const struct mxtab_metric *m);	/* pmuprof's words */
const char *mxtab_metric_unit(const struct mxtab_metric *m);	/* "percent of slots" */
const char *mxtab_metric_formula(const struct mxtab_metric *m);	/* over Arm event names */
/* The top-down tree's next metrics or groups, space-separated; "" when none. */
const char *mxtab_metric_next(const struct mxtab_metric *m);
/* The events its formula names, sorted, each once (names of the set's core). */
size_t mxtab_metric_nevents(const struct mxtab_metric *m);
const char *mxtab_metric_event(const struct mxtab_metric *m, size_t i);
/* Of those, the one its formula names first (the event a metric is shown beside). */
const char *mxtab_metric_first_event(const struct mxtab_metric *m);
/* The code of event i (in the set's core: codes and names are one to one there), of the
 * first. */
unsigned mxtab_metric_event_code(const struct mxtab_metric *m, size_t i);
unsigned mxtab_metric_first_code(const struct mxtab_metric *m);
/* Evaluates the formula, lookup giving each event's count (mexpr.h): NAN with err's reason
 * when an input is missing or uncounted or a divisor is zero. */
double mxtab_metric_eval(const struct mxtab_metric *m, mexpr_lookup lookup, void *ctx,
			 struct mexpr_error *err);
/* The same by the formula compiled at build time (what a run uses: it reads no text), input
 * giving event i's count (mxtab_metric_event(m, i)). The same value, and the same reason,
 * err's name the event's (its column 0). */
double mxtab_metric_run(const struct mxtab_metric *m, mexpr_input input, void *ctx,
			struct mexpr_error *err);
/* The first of set s's groups that lists its metric m; NULL when none does. */
const struct mxtab_group *mxtab_metric_group(const struct mxtab_set *s,
					     const struct mxtab_metric *m);

/* A set's groups, in the data's order; lookup by name is case-insensitive. */
size_t mxtab_ngroups(const struct mxtab_set *s);
const struct mxtab_group *mxtab_group_at(const struct mxtab_set *s, size_t i);
const struct mxtab_group *mxtab_find_group(const struct mxtab_set *s, const char *name);
const char *mxtab_group_name(const struct mxtab_group *g);	/* "Topdown_L1" */
const char *mxtab_group_title(const struct mxtab_group *g);
int mxtab_group_stage(const struct mxtab_group *g);		/* top-down stage 1, 2; 0 */
size_t mxtab_group_nmetrics(const struct mxtab_group *g);
const struct mxtab_metric *mxtab_group_metric(const struct mxtab_group *g, size_t i);

#endif
