/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_list_priv.h: what the files of `pmuprof list` share: its options and its sections. */
#ifndef PMUPROF_CMD_LIST_PRIV_H
#define PMUPROF_CMD_LIST_PRIV_H

#include <stddef.h>

#include "evtab.h"
#include "resolve.h"
#include "sysfs.h"

struct list_opts {
	const char *pattern;
	const char *cpu_model;
	int json, all_cores, names, cores, metrics;
};

/* One block of the listing: a core's events (core NULL: the common PMUv3 events, for a PMU
 * whose core is not in the tables) and the machine's PMU for it, when there is one. */
struct list_section {
	const struct evtab_core *core;
	const struct sysfs_pmu *pmu;
	unsigned short *adv;	/* event numbers the PMU's events/ advertises, sorted (nadv): a
				 * few dozen, not a bitmap of 65,536 to zero and touch each run */
	size_t nadv;
};

/* An event class's name in full ("microarchitectural") and short ("uarch"). */
const char *list_class_name(int cls);
const char *list_class_short(int cls);
void list_sections_free(struct list_section *s, size_t n);
/* 1 when s's PMU advertises code, 0 when not, -1 when no PMU of its core is here to ask. */
int list_advertised(const struct list_section *s, unsigned code);
/* Whether the PMU's events/ entry e is one the section's table lacks. */
int list_beyond_table(const struct list_section *s, const struct sysfs_event *e);
/* The sections o asks for, *n of them, malloc'd into *out; -1 when out of memory. */
int list_pick_sections(const struct list_opts *o, struct resolve_ctx *ctx,
		       struct list_section **out, size_t *n);

#endif
