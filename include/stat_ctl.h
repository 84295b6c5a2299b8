/* SPDX-License-Identifier: Apache-2.0 */
/* stat_ctl.h: what the measured program tells pmuprof stat while it runs: perf's control
 * interface (--control fd:CTL[,ACK], fifo:CTL[,ACK]: enable, disable, ping, stop, each
 * answered with "ack"), and named regions (--regions: "begin NAME", "end NAME" on inherited
 * pipes), whose counts are the counters' changes between the boundaries, read while the
 * program waits for the answer (stat_control.c reads the channel, stat_region.c keeps the
 * regions). The wire protocol is pmuprof-regions(7). */
#ifndef PMUPROF_STAT_CTL_H
#define PMUPROF_STAT_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "stat.h"

#define STAT_CTL_LINE_MAX 4096	/* longest line taken; a region name is at most 255 */
#define STAT_REGION_NAME_MAX 255

enum stat_ctl_mode { STAT_CTL_NONE = 0, STAT_CTL_FD, STAT_CTL_FIFO, STAT_CTL_REGIONS };

/* One named region over the runs: this planned run's open executions and sums, and what is
 * recorded of every run, as readings (a series of its own, built like the whole run's). */
struct stat_region {
	char *name;
	size_t open, cap;		/* executions begun and not ended: their begin times and
					 * readings, a stack (the innermost ends first) */
	uint64_t *t_begin;
	struct counter_reading *snap;	/* cap * ncounters */
	struct counter_reading *acc;	/* ncounters: the sum of this planned run's changes */
	uint64_t calls_run, wall_run;	/* this planned run's ended executions, their time */
	uint64_t calls, unended;	/* over the recorded runs (counted in each run's first
					 * planned run): ended executions, and those begun and
					 * never ended */
	int overlapped;			/* begun again before it ended (threads, children or
					 * recursion): its changes are counted more than once */
	struct stat_series s;		/* its readings, one per counter per planned run */
};

struct stat_regions {
	struct stat_region *r;
	size_t n, cap;
	size_t ncounters;
	uint64_t stray_ends;		/* ends with no execution begun */
};

struct stat_ctl {
	enum stat_ctl_mode mode;
	int start_disabled;		/* -D -1: counting starts at the first "enable" */
	int user_ctl, user_ack;		/* fd: the descriptors given, fifo: opened once; -1 */
	const char *ctl_path, *ack_path;	/* fifo: the paths */
	char *spec;			/* the --control argument, copied to cut */
	/* the current run */
	int rfd, afd;			/* read from, answer on; -1: none (or given up) */
	int child_ctl, child_ack;	/* --regions: the command's ends, until it started */
	int enabled;			/* the counters are enabled */
	int stopped;			/* "stop" was read, or the channel closed */
	int tid, tid_fd;		/* the last writer that gave its thread id, its
					 * /proc/TID/stat (sysfs_task_open); -1 */
	size_t len;			/* bytes of the line so far */
	int overlong;			/* the line is longer than STAT_CTL_LINE_MAX: skipped */
	unsigned warned;		/* what was warned about once already (bits) */
	char line[STAT_CTL_LINE_MAX];
	struct stat_regions regs;
};

/* --control's argument: "fd:CTL[,ACK]" or "fifo:CTL[,ACK]" (perf's). 0, or -1 with *why. */
int stat_ctl_parse(struct stat_ctl *c, const char *arg, const char **why);
/* Before a run's command is started: the channel made (--regions: pipes, their numbers in
 * the environment) or opened (a FIFO, once). -1 after a message. */
int stat_ctl_run_begin(struct stat_ctl *c, size_t ncounters, int enabled);
/* Once the command is started: pmuprof's copies of the command's ends closed (so that its
 * end of the channel is seen). */
void stat_ctl_started(struct stat_ctl *c);
/* The descriptor to wait on; -1: none. */
int stat_ctl_fd(const struct stat_ctl *c);
/* What arrived on the channel, read once and acted on (counters enabled, disabled, read at
 * region boundaries, answers written); now_ns: since the command started. 1 when the
 * channel is done with (closed, or "stop"), 0 to go on, -1 when memory ran out. */
int stat_ctl_input(struct stat_ctl *c, struct stat_counters *cs, uint64_t now_ns);
/* After the run: the run's descriptors closed, the environment cleaned, regions still open
 * counted as never ended. */
void stat_ctl_run_end(struct stat_ctl *c);
void stat_ctl_free(struct stat_ctl *c);

/* stat_region.c. At a boundary, with every counter of cs just read. 0, or -1 when memory ran
 * out. A region ended without a begin returns 1 (a warning for the caller). */
int stat_region_begin(struct stat_regions *g, const char *name, const struct stat_counters *cs,
		      uint64_t now_ns);
int stat_region_end(struct stat_regions *g, const char *name, const struct stat_counters *cs,
		    uint64_t now_ns);
/* The end of a planned run: executions still open become never ended. */
void stat_regions_run_end(struct stat_regions *g);
/* Records each region's sums of the planned run as readings of its series (as stat_record
 * does for the whole run, from res but with the region's time), and clears them. -1 when
 * memory ran out. */
int stat_regions_record(struct stat_regions *g, const struct stat_event *rows,
			struct stat_counters *cs, uint32_t run, uint32_t plan_run, int only_run,
			const struct workload_result *res);
void stat_regions_free(struct stat_regions *g);

/* stat_report_region.c: r's regions, each a report built from its readings as the whole
 * run's is (b, without -I's intervals), in the order they were first begun. -1 when memory
 * ran out (what was made is r's: report_free_parts frees it). */
int stat_report_regions(struct report *r, const struct stat_regions *g,
			const struct stat_event *evs, size_t nrows, const struct stat_build *b);

#endif
