/* SPDX-License-Identifier: Apache-2.0 */
/* aggregate.h: readings -> the report's rows. The one stage that adds counts up, by mode
 * (the whole command, per core type, per CPU, core, cluster or socket, per thread), and the
 * one scaling function: each reading is scaled by its own window and running time before
 * readings are added, so a multiplexed part never scales another's count. */
#ifndef PMUPROF_AGGREGATE_H
#define PMUPROF_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "readings.h"

enum agg_mode {
	AGG_COMMAND,	/* one unit: everything counted */
	AGG_CORE_TYPE,	/* a unit per part (the core type of an event split over them) */
	AGG_CPU,	/* a unit per CPU (-A) */
	AGG_CORE,	/* a unit per core (--per-core) */
	AGG_CLUSTER,	/* a unit per cluster (--per-cluster) */
	AGG_SOCKET,	/* a unit per socket (--per-socket) */
	AGG_DIE,	/* a unit per die (--per-die) */
	AGG_NODE,	/* a unit per NUMA node (--per-node) */
	AGG_THREAD,	/* a unit per task followed (--per-thread) */
	AGG_CACHE,	/* a unit per cache instance of one level (--per-cache) */
};

/* Where each CPU sits, from sysfs topology: ids indexed by CPU number, -1 when unknown. A
 * core id is unique over the machine (its socket folded in). */
struct agg_topology {
	size_t ncpus;
	const int *core, *cluster, *socket;
	const int *die, *node;	/* die: unique over the machine as core is */
	const int *cache;	/* the cache instance, unique over the machine; NULL: not read */
};

struct agg_key {
	uint32_t ev;		/* the event (report row) */
	int32_t unit;		/* the aggregation unit's id (CPU, core, ...); -1: the whole */
	uint32_t run;		/* the recorded run */
	uint32_t interval;	/* the -I interval, or READING_TOTAL */
};

enum agg_status {
	AGG_COUNTED,		/* some part was on a counter */
	AGG_NOT_COUNTED,	/* opened, but never on a counter */
	AGG_NOT_OPENED,		/* every part was refused (err says why) */
	AGG_ABSENT,		/* every part's core type lacks the event */
};

struct agg_row {
	struct agg_key key;
	int err;		/* not opened: the errno of the first part refused */
	uint32_t plan_run;	/* the planned run that counted it */
	enum agg_status status;
	int scaled;		/* value is an estimate: some opened part ran less than its
				 * window */
	unsigned nparts;	/* readings in the unit (absent parts included) */
	unsigned ncounted;	/* of which were on a counter */
	double value;		/* each counted part scaled by agg_scale, then added */
	uint64_t raw;		/* the counts as read, added */
	uint64_t window;	/* the opened parts' windows, added */
	uint64_t running;	/* their running times, added */
};

/* The one scaling function: value read while on a counter running ns of the window ns it
 * could count, scaled to the window (the kernel's multiplexing estimate); value itself when
 * it ran all the window; 0 when it never ran. */
double agg_scale(uint64_t value, uint64_t window, uint64_t running);

/* The unit a reading belongs to in mode m (-1: the whole; also a reading with no CPU in a
 * per-CPU mode, or a CPU the topology does not know). */
int32_t agg_unit(const struct reading *r, enum agg_mode m, const struct agg_topology *t);

/* The rows of mode m: one per (event, unit, run, interval) that has readings, sorted by
 * that key. *out is malloc'd (free it); -1 when memory ran out. */
int agg_build(const struct reading *rs, size_t n, enum agg_mode m,
	      const struct agg_topology *t, struct agg_row **out, size_t *nout);

/* How a row's value is made from its readings: each scaled by agg_scale (the kernel's
 * multiplexing estimate), or the raw counts added (--no-scale, as perf's). */
enum agg_scaling { AGG_SCALED, AGG_RAW };

/* agg_build with the scaling chosen. */
int agg_build_as(const struct reading *rs, size_t n, enum agg_mode m,
		 const struct agg_topology *t, enum agg_scaling sc, struct agg_row **out,
		 size_t *nout);

/* The row with key k, or NULL. */
const struct agg_row *agg_find(const struct agg_row *rows, size_t n, const struct agg_key *k);

#endif
