/* stat.h: the stages of pmuprof stat shared by its files: one run of the command with its
 * counters and optional interval reads (stat_run.c, stat_interval.c), the series of runs and
 * the report built from it (stat_report.c). cmd_stat.c holds the options and the order. */
#ifndef PMUPROF_STAT_H
#define PMUPROF_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "counter.h"
#include "evsel.h"
#include "metrics.h"
#include "report.h"
#include "workload.h"

/* One event through the pipeline: selected, opened, read. */
struct stat_event {
	struct evsel_event sel;
	int fd;			/* -1 when not open (also after the run: see opened) */
	int opened;		/* it was open in the last run */
	int err;		/* errno of a failed open */
	struct counter_reading rd;
};

/* The cumulative readings at each interval's end (-I): rd[i * nevents + k]. */
struct stat_ticks {
	uint64_t *t_ns;
	struct counter_reading *rd;
	size_t n, cap, nevents;
};

struct stat_run_cfg {
	char **cmd;
	unsigned interval_ms;		/* 0: no interval reads */
	unsigned interval_count;	/* 0: until the command ends */
};

/* Runs cmd once with every event opened on it (closed again before returning), readings in
 * evs[k].rd and ticks (-I) appended to *ticks. Returns 0, or pmuprof's exit status after a
 * message when the run could not happen. *count_stop is set when --interval-count ended
 * the command. */
int stat_run_counted(const struct stat_run_cfg *c, struct stat_event *evs, size_t n,
		     struct workload_result *res, struct stat_ticks *ticks, int *count_stop);
/* Runs argv with no counters (a warm-up run). Returns as stat_run_counted. */
int stat_run_plain(char **argv, struct workload_result *res);
/* Runs a --prepare/--cleanup command through /bin/sh -c; returns its exit status (128+N for
 * signal N), or -1 when it could not be started. */
int stat_shell(const char *cmd);

/* The interval loop: waits for w, reading evs every c->interval_ms into ticks. */
int stat_interval_wait(const struct stat_run_cfg *c, struct workload *w,
		       struct stat_event *evs, size_t n, struct workload_result *res,
		       struct stat_ticks *ticks, int *count_stop);
void stat_ticks_free(struct stat_ticks *t);

/* The values of a series of runs: per event, per run. */
struct stat_series {
	size_t nevents, cap, nruns;
	double *val;			/* val[k * cap + run], NAN: not counted */
	struct counter_reading *rd;	/* rd[k * cap + run] */
	struct report_times *times;	/* times[run] */
};

int stat_series_init(struct stat_series *s, size_t nevents, size_t runs);
/* Records one run (the readings in evs). */
void stat_series_add(struct stat_series *s, const struct stat_event *evs,
		     const struct workload_result *res);
void stat_series_free(struct stat_series *s);

/* What the report is built from besides the runs. */
struct stat_build {
	int repeated;			/* -r given: keep per-run arrays and statistics */
	const struct stat_ticks *ticks;	/* -I, or NULL */
	const struct metrics_core *core;
};

/* Builds r from the series (evs hold the last run's state); -1 when memory ran out. */
int stat_report_build(struct report *r, const struct stat_series *s,
		      const struct stat_event *evs, const struct stat_build *b);
void stat_report_free(struct report *r);

#endif
