/* SPDX-License-Identifier: Apache-2.0 */
/* metrics.h: derived metrics, from the tables events/metrics generates (mxtab.h): the set a
 * core's metrics come from, what -M NAME selects and the events it adds, and the metrics bound
 * to a report's events and computed from them, over the totals, a unit's cells or an interval.
 * Pure: no I/O. */
#ifndef PMUPROF_METRICS_H
#define PMUPROF_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "evtab.h"
#include "mexpr.h"
#include "mxtab.h"
#include "report.h"

/* The core the metrics are for, and its set. */
struct metrics_core {
	const struct evtab_core *core;	/* NULL: not known (no MIDR, not an Arm core) */
	unsigned rev;			/* MXTAB_REV; r0p0 when not known */
	const struct mxtab_set *set;	/* core's set at rev; unknown core: the generic metrics */
};

/* Sets mc for core c at revision rev (c NULL: the generic metrics, whose formulas are the
 * same on every core). */
void metrics_core_set(struct metrics_core *mc, const struct evtab_core *c, unsigned rev);
/* The core a --cpu-model names ("neoverse-n2", "neoverse-n2:r0p3"; no revision: r0p0). 0, or
 * -1 when no core has that name. */
int metrics_core_named(struct metrics_core *mc, const char *model);
/* How a report names the core and revision: "neoverse-n2:r0p3"; NULL when not known. */
const char *metrics_core_id(const struct metrics_core *mc, char *buf, size_t len);
/* The core named by MIDR_EL1 (its revision too), or unknown for midr 0 or an unknown part. */
void metrics_core_from_midr(struct metrics_core *mc, uint64_t midr);
/* A name for messages: "neoverse-n2 r0p3", "neoverse-n1", "an unknown core". */
const char *metrics_core_title(const struct metrics_core *mc, char *buf, size_t len);

/* -M NAME[,NAME...]: NULL when arg is a list of names, else what is wrong with it (as -e's
 * event lists say it: "empty metric list", "empty metric name", "trailing ',' with no metric
 * after it") and *column, from 1, where. */
const char *metrics_names_check(const char *arg, int *column);
/* -M NAME[,NAME...]: appends each name in arg (cut there: arg is the caller's to change) to
 * *names (*n of them, realloc'd). -1 when memory ran out. */
int metrics_names_add(char *arg, const char ***names, size_t *n);
/* perf 6.19's default metric names (insn_per_cycle, branch_miss_rate, ...): the name of
 * pmuprof's metric of that meaning, or name itself when it is none of them (any case). */
const char *metrics_perf_name(const char *name);
/* For a perf 6.19 metric whose figure pmuprof prints beside an event rather than as a metric
 * (cs_per_second, CPUs_utilized, ...): the events that give it, as an -e list
 * ("context-switches,task-clock"); NULL for any other name (any case). */
const char *metrics_perf_events(const char *name);
/* perf 6.19's name i (NULL past the last), with *ours its pmuprof metric or *events its -e
 * list (the other NULL), for listings. */
const char *metrics_perf_at(size_t i, const char **ours, const char **events);
/* Appends name to *names (*n of them, realloc'd) unless there in any case. -1 when memory
 * ran out. */
int metrics_names_add_once(const char ***names, size_t *n, const char *name);
/* -M NAME on the core's set: a group (first) or a metric, in any case. 0, or -1 when the set
 * has neither. */
int metrics_lookup(const struct metrics_core *mc, const char *name,
		   const struct mxtab_group **g, const struct mxtab_metric **m);
/* The -e specs NAME adds (lower-case Arm event names), malloc'd: one perf group for a whole
 * group when its events are at most counters (counters <= 0: unknown, a group per metric),
 * else a group per metric ("{inst_retired,cpu_cycles},{...}"); a metric with more events
 * than counters is left ungrouped. NULL when NAME is unknown or memory ran out (*unknown
 * says which). */
char *metrics_spec(const struct metrics_core *mc, const char *name, int counters, int *unknown);

/* metrics_bind.c. Binds metrics to r's events and computes them over the totals into
 * r->metrics (report_derive, the results stage, runs it before the rest): every
 * metric the names select (-M: each a group or a metric of mc's set; reported with its reason
 * when not computed), and every other metric of the set whose events were all counted. An
 * event split over core types gets each type's metric, with that core's formula, from that
 * PMU's counts only. Names mc's set lacks are ignored (the caller checked them). 0, or -1
 * when memory ran out. */
int metrics_compute(struct report *r, const struct metrics_core *mc, const char *const *names,
		    size_t nnames);
/* metrics_eval.c, over the report's stored counts (the results stage's, and pmuprof diff's).
 * m's value in unit u's cells (unit set) or the totals, over the whole run (interval < 0) or
 * interval i; NAN with err's reason when not computed there. *estimate (may be NULL): an input
 * was counted for part of the time only. */
double metrics_value_at(const struct report *r, const struct report_metric_value *m, int unit,
			size_t u, long interval, struct mexpr_error *err, int *estimate);
/* m's value in recorded run run of -r, from its inputs' values in that run; NAN when an
 * input has none there (not counted in it, no per-run values, or a core type's metric). */
double metrics_value_run(const struct report *r, const struct report_metric_value *m,
			 size_t run);
/* The value m's input i (mxtab_metric_event(m->def, i)) has over the totals, as the formula
 * took it (a core type's metric: that PMU's part); NAN when it has none. */
double metrics_input_at(const struct report *r, const struct report_metric_value *m, size_t i);
/* Whether unit u's CPUs are those m's PMU counts on (always, for a metric of no PMU). */
int metrics_unit_applies(const struct report *r, const struct report_metric_value *m, size_t u);

/* metrics.c again: a finished report's metrics found by name, for --topdown's tree. r's
 * metric of this name over the events' totals (no PMU), NULL when none. */
const struct report_metric_value *metrics_find(const struct report *r, const char *name);
/* --topdown (r->topdown_group of r->topdown_set): its stage-1 metrics in r, up to max, into
 * node, with dominant[i] set for the dominant ones (the largest share, and any other within
 * a quarter of it); how many. */
size_t metrics_topdown_nodes(const struct report *r, const struct report_metric_value **node,
			     int *dominant, size_t max);
/* Adds the groups of set s that top-down node's `next` list names to names (each once). -1
 * when memory ran out. */
int metrics_next_groups_add(const struct mxtab_set *s, const struct mxtab_metric *node,
			    const char ***names, size_t *n);
/* --topdown's second pass: the stage-2 groups under r's dominant stage-1 nodes, added to
 * names (each once); *ndominant gets how many nodes are dominant (0: none has a value, and
 * nothing is added). -1 when memory ran out. */
int metrics_topdown_next(const struct report *r, const char ***names, size_t *n,
			 size_t *ndominant);
/* The next group of set s a node's `next` list (mxtab_metric_next) names from *next on
 * (advanced past it), NULL at its end. */
const struct mxtab_group *metrics_next_group(const struct mxtab_set *s, const char **next);

#endif
