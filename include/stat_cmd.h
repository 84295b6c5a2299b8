/* SPDX-License-Identifier: Apache-2.0 */
/* stat_cmd.h: the layer of pmuprof stat that addresses the user: its options (stat_opts.c)
 * and the writing of its report, warnings and live intervals (stat_output.c). cmd_stat.c
 * runs the pipeline between them. */
#ifndef PMUPROF_STAT_CMD_H
#define PMUPROF_STAT_CMD_H

#include <argp.h>
#include <stdio.h>

#include "cgroup.h"
#include "export.h"
#include "report.h"
#include "stat.h"
#include "stat_ctl.h"

struct topdown_pass;

/* -G and --for-each-cgroup as given (stat_cgroup.c). */
struct stat_cgroup_opts {
	const char **lists;	/* each -G's list */
	size_t *before;		/* the -e options given before it */
	size_t n;
	const char *for_each;	/* --for-each-cgroup's list */
};

/* What the command line asked for. */
struct stat_opts {
	struct evsel_opts ev;	/* -e, --cpu-model, --kernel-el, --allow-secure */
	int json;
	const char *sep;
	int no_csv_summary;	/* -x -I: totals without the "summary" time field */
	const char *output;
	char **cmd;
	int cmdc;
	unsigned repeat;	/* -r: 0 when not given */
	unsigned warmup;
	const char *prepare, *cleanup;
	unsigned interval_ms, interval_count;
	const char **metrics;	/* -M */
	size_t nmetrics;
	const char *bad_metrics;	/* the first -M list with an empty name, NULL: none */
	char metrics_why[64];		/* what is wrong with it */
	int topdown;		/* --topdown */
	const char *topdown_group;	/* its stage-1 group */
	struct topdown_pass *td;	/* --topdown in two passes; NULL: in one */
	int mux_given;		/* --mux or --no-multiplex given */
	int list_metrics;	/* -M list */
	struct stat_plan_cfg plan;	/* --mux, --counters */
	int show_plan;		/* --plan */
	double min_running;	/* --min-running PCT; 0: none */
	/* perf's targets and aggregation modes */
	int all_cpus;		/* -a */
	const char *cpu_list;	/* -C */
	const char *pids, *tids;	/* -p, -t */
	enum report_aggr aggr;	/* -A, --per-core, ... */
	int cache_level;	/* --per-cache=LN: N; 0: each CPU's highest (perf's default) */
	const char *cputype;	/* --cputype PMU|CORE; NULL: every core type */
	const char *aggr_opt;	/* the option that chose it, for messages */
	unsigned timeout_ms, delay_ms;
	struct stat_ctl ctl;	/* --control, --regions, -D -1 */
	int regions;		/* --regions */
	struct export_set exports;	/* --export FORMAT:FILE */
	const char *name;	/* --name: the benchmark's name in the exports and JSON */
	/* perf's display options: -B, --no-big-num, --no-scale, --metric-only, --no-summary */
	struct report_display disp;
	int big_num, append, quiet;	/* -B given, --append, -q */
	/* perf's common options */
	int detailed;		/* -d given this many times */
	char *detail_spec;	/* the events it adds (stat_detail_spec), NULL: none */
	int verbose;		/* -v */
	int null_run;		/* -n: no counters, the times only */
	int no_inherit;		/* -i */
	int log_fd;		/* --log-fd N; 0: standard error */
	FILE *log;		/* its stream, NULL: none */
	struct stat_cgroup_opts cg;	/* -G, --for-each-cgroup */
};

/* --for-each-cgroup's key (-G's is 'G'). */
#define STAT_OPT_FOR_EACH_CGROUP 0x3c0

/* The cgroups one pass counts in, their directories open (stat_cgroup.c). */
struct stat_cgroups {
	struct cgroup_set set;
	size_t nspecs;		/* --for-each-cgroup: the specs counted in each cgroup */
};

/* -G and --for-each-cgroup: ARGP_ERR_UNKNOWN for another key. */
error_t stat_cgroup_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state);
/* Once all options are read: what -G and --for-each-cgroup need (-a or -C, not both). */
void stat_cgroup_check(struct argp_state *state, const struct stat_opts *o);
void stat_cgroup_opts_free(struct stat_cgroup_opts *g);
/* --for-each-cgroup: opens the cgroups its list picks and repeats o's specs once for each
 * (perf's order: every event of the first cgroup, then of the next). -1 after a message. */
int stat_cgroup_specs(struct stat_opts *o, struct stat_cgroups *cg);
/* Gives each of the rows selected from o's specs its cgroup: --for-each-cgroup's by the copy
 * of the specs it came from, -G's by perf's rule. -1 after a message. */
int stat_cgroup_rows(const struct stat_opts *o, struct stat_cgroups *cg,
		     struct stat_event *rows, size_t nrows);
void stat_cgroups_free(struct stat_cgroups *cg);

/* --topdown in two passes, when the command can be run again (--mux=runs): the first counts
 * stage 1 alone and, instead of a report, gives the stage-2 groups under its dominant nodes;
 * the second counts stage 1 again with those groups, and its report says how. */
struct topdown_pass {
	int first;		/* this is the first pass */
	const char **next;	/* what the first found: the groups under the dominant nodes */
	size_t nnext, ndominant;
	size_t runs;		/* the runs of the command the first took */
	int ran;		/* the first pass counted (else it failed: no second) */
	int stop;		/* it was interrupted: its report was written, no second */
};


struct topo;
/* stat_topology.c: the topology the report's units need (-A and the task modes need none),
 * into t, zeroed, left so when none is needed; -1 after a message. */
int stat_topology_read(const struct stat_opts *o, struct topo *t);
/* t's view for the aggregation and the units' names. */
void stat_topology_view(const struct topo *t, struct agg_topology *at, struct topo_ids *ids);

/* --min-running: some event was counted for less than PCT of the time. */
#define STAT_EXIT_MIN_RUNNING 3

/* Parses stat's arguments into o (zeroed); a usage error exits, as argp does. */
void stat_opts_parse(int argc, char **argv, struct stat_opts *o);
/* Once every option is read: refuses (argp_error) the combinations that do not go together,
 * and settles what follows from several (--topdown's --mux=runs, --regions' channel). */
void stat_opts_check(struct argp_state *state, struct stat_opts *o);

/* Writes the report in the format o asks for; JSON and CSV to stderr (unbuffered) are
 * rendered in memory first and written at once, and the text report leaves report_text's
 * buffer whole lines at a time: one write instead of dozens, and no line interleaved with
 * another writer's. -1 when it could not be written (errno says why). */
int stat_output_write(const struct stat_opts *o, const struct report *r, FILE *fp);
/* One warning when the kernel multiplexed: how many runs would make the counts exact. */
void stat_output_mux_warn(const struct report *r, const struct stat_planned *pl);
/* --min-running: whether an event was counted for less than PCT of the time (said once). */
int stat_output_below_min(const struct stat_opts *o, const struct report *r);

/* -I printed as it happens (perf's way), to standard error in text or -x: each interval is
 * built on its own from the readings of that tick (one aggregation, as the whole report's)
 * and written as it ends; the report at the end then prints the totals after them. -j and
 * -o write one document, at the end. */
struct stat_live {
	const struct stat_opts *o;
	const struct stat_event *rows;
	size_t nrows;
	const struct stat_build *b;
	size_t shown;		/* intervals written */
	int stopped;		/* a write or memory failed: the rest come with the totals */
	double *high;		/* -I --export openmetrics: each counter's highest value so far */
	size_t nhigh;
	int textfile_failed;	/* a rewrite failed (said once) */
};

int stat_live_wanted(const struct stat_opts *o);
/* Whether anything happens at each -I interval: live output, or an OpenMetrics export
 * rewritten with the counts so far. */
int stat_tick_wanted(const struct stat_opts *o);
/* --log-fd N: o->log, a stream on N, which must be open for writing; -1 after a message. */
int stat_output_open_log(struct stat_opts *o);
/* A stat_tick_fn: arg is a struct stat_live. */
void stat_live_tick(void *arg, const struct stat_counters *cs, const struct stat_ticks *t);

#endif
