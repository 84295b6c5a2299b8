/* SPDX-License-Identifier: Apache-2.0 */
/* list_metrics.h: `pmuprof list --metrics`: the metric sets of the cores a listing picked, as text
 * or JSON (cmd_list.c chooses the cores; this module lays their metrics out). */
#ifndef PMUPROF_LIST_METRICS_H
#define PMUPROF_LIST_METRICS_H

#include <stdio.h>

#include "evtab.h"
#include "mxtab.h"

/* One core to list: its metric sets for revision rev (MXTAB_REV), or all of them (rev < 0);
 * core NULL: a core the tables lack, which has the generic metrics (core "generic"). */
struct list_metrics_core {
	const struct evtab_core *core;
	int rev;
};

/* `list`'s PATTERN rule: a substring, or a glob with * ? [ ], in any case; NULL matches all. */
int list_metrics_matches(const char *pattern, const char *name);

/* Writes the metrics and groups of the cores (their names matching pattern; NULL: every one),
 * each with its formula and events. Text to fp; JSON (with note, or null) returns 0, or -1
 * when it cannot be written (the caller says so). */
void list_metrics_text(const struct list_metrics_core *c, size_t n, const char *pattern, FILE *fp);
int list_metrics_json(const struct list_metrics_core *c, size_t n, const char *pattern,
		      const char *note, FILE *fp);

/* How many metrics and groups the listing of the cores shows for pattern (NULL: all). */
size_t list_metrics_count(const struct list_metrics_core *c, size_t n, const char *pattern);

/* Whether the set is one the listing of c shows. */
int list_metrics_shows(const struct list_metrics_core *c, const struct mxtab_set *s);

#endif
