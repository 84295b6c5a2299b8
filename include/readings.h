/* SPDX-License-Identifier: Apache-2.0 */
/* readings.h: what counting produced, as plain records. Every counter read becomes one
 * reading, keyed by (event, part, CPU or task, run, interval); every run of the command one
 * record of its times. Nothing here is scaled or summed: that is aggregate.h's one job. */
#ifndef PMUPROF_READINGS_H
#define PMUPROF_READINGS_H

#include <stddef.h>
#include <stdint.h>

/* interval of a reading over the whole run (not one -I interval) */
#define READING_TOTAL UINT32_MAX

struct reading {
	uint32_t ev;		/* the event as the user asked for it: the report's row */
	int32_t part;		/* the core type (index of its Arm PMU) of a part of an event
				 * split over core types; -1: not split */
	int32_t cpu;		/* the CPU it counted on; -1: it followed its task on any CPU */
	int32_t task;		/* the task it followed (tid); -1: the command with its
				 * children, or every task on its CPU */
	uint32_t run;		/* the recorded run (0-based; -r) */
	uint32_t plan_run;	/* the planned run that counted it (--mux=runs; 0) */
	int absent;		/* a part whose core type has no such event: never opened */
	uint32_t interval;	/* its -I interval (0-based), READING_TOTAL: the whole run */
	int err;		/* errno when it could not be opened (nothing was counted) */
	uint64_t value;		/* the count, as read (the interval's delta with -I) */
	uint64_t enabled;	/* ns the kernel had it enabled */
	uint64_t running;	/* ns it was on a counter */
	uint64_t window;	/* ns it could have counted: enabled, except for a part followed
				 * per task, which can count only while the task is on its core
				 * type's CPUs: that time, measured (stat_split.c) */
};

/* One run of the command (each planned run of each recorded run). */
struct reading_run {
	uint32_t run, plan_run;
	uint64_t wall_ns, user_ns, sys_ns;
	int exit_code;		/* -1 when a signal ended it */
	int term_signal;
};

struct readings {
	struct reading *r;
	size_t n, cap;
	struct reading_run *runs;
	size_t nruns, runs_cap;
	uint64_t *t_ns;		/* -I: the end of each interval, ns since the command started */
	size_t nintervals, t_cap;
};

/* Appends a copy; -1 when memory ran out. */
int readings_add(struct readings *rs, const struct reading *r);
/* Makes room for more readings at once (a run's, before they are added one by one); -1 when
 * memory ran out. */
int readings_reserve(struct readings *rs, size_t more);
int readings_add_run(struct readings *rs, const struct reading_run *run);
int readings_add_interval(struct readings *rs, uint64_t t_ns);
/* The record of a planned run of a recorded run, NULL when it did not happen. */
const struct reading_run *readings_run(const struct readings *rs, uint32_t run,
				       uint32_t plan_run);
void readings_free(struct readings *rs);

#endif
