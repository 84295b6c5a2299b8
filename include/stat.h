/* SPDX-License-Identifier: Apache-2.0 */
/* stat.h: the stages of pmuprof stat shared by its files: one run of the command with its
 * counters and optional interval reads (stat_run.c, stat_interval.c), the series of runs and
 * the report built from it (stat_report.c). cmd_stat.c holds the options and the order. */
#ifndef PMUPROF_STAT_H
#define PMUPROF_STAT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "counter.h"
#include "evsel.h"
#include "metrics.h"
#include "readings.h"
#include "report.h"
#include "resolve.h"
#include "workload.h"

/* A row of the report: one event as the user asked for it. Selection makes it; stat_split
 * marks one_type before anything reads it. The only later write is the open's fallback to
 * user space (perf_event_paranoid), which renames the row NAME:u: the report must say what
 * was counted. */
struct stat_event {
	struct evsel_event sel;
	int one_type;		/* given with its Arm PMU where the command may also run on
				 * other core types: counted only while on that PMU's CPUs */
	int user_only;		/* narrowed to user space at its first open */
	int tool;		/* perf's tool events (enum stat_tool): never opened, read from the
				 * run's own times */
	const char *cgroup;	/* -G, --for-each-cgroup: counted only for the tasks of this
				 * cgroup (its path below the mount); NULL: every task */
	int cgroup_fd;		/* with cgroup: its directory, perf_event_open's pid */
};

/* perf's tool events: times pmuprof measures itself, in ns, with no counter behind them (in
 * resolve_tool's order). */
enum stat_tool {
	STAT_TOOL_NONE = 0,
	STAT_TOOL_DURATION,	/* duration_time: the wall-clock time counted (per interval: its
				 * length) */
	STAT_TOOL_USER,		/* user_time, system_time: the command's CPU time from its */
	STAT_TOOL_SYSTEM,	/* rusage, at its end (none per interval, as perf's) */
};

/* big.LITTLE (stat_split.c): a row split over the machine's core types is never opened
 * itself; it is opened once per Arm PMU the command may run on, and reads their sum. A part
 * is the row's event encoded for one of those PMUs. The parts of a row are consecutive. */
struct stat_part {
	uint32_t ev;		/* its row */
	int pmu_ix;		/* the Arm PMU it was made for (struct stat_counters' pmus) */
	const struct evtab_core *core;	/* that PMU's core; NULL: not known */
	struct pp_attr attr;	/* the event on that PMU */
	int group;		/* its core type's copy of its row's user group; -1: alone */
	int err;		/* absent: EINVAL when the event cannot be encoded there; 0 when
				 * the core has no such event */
	int absent;		/* never opened: its core type cannot count the event */
};

/* One thing to open: a row not split, or a part, on the command (or a task, or a CPU), in
 * one planned run. Made by stat_split, planned by stat_plan, completed by stat_presence and
 * stat_target_expand; the run stage fills its last fields (fd to rd). */
struct stat_counter {
	uint32_t ev;		/* its row (unused by a presence counter) */
	int part;		/* its part in struct stat_counters' parts; -1: the row itself */
	int pmu_ix;		/* its Arm PMU in the plan, -1: needs no Arm counter */
	int kind;		/* enum pmreg_kind of the counter it needs */
	int cpu;		/* the CPU it is opened on; -1: it follows the command anywhere */
	int task;		/* the task it follows (tid > 0, and its new children); 0: none */
	int run;		/* the planned run that counts it (--mux=runs); -1: every run */
	int group;		/* the group it is planned and opened in; -1: alone. The user's
				 * for a row, one per core type for parts, one per CPU or task
				 * for copies (a group cannot span PMUs, CPUs or tasks) */
	const char *fixture;	/* why it is never opened: its PMU or CPUs come from a fixture
				 * sysfs tree (PMUPROF_SYSFS_ROOT), or its PMU is the --cpu-model
				 * core's where this machine has no Arm PMU; NULL: this
				 * machine's */
	int presence;		/* task-clock of the command on one CPU of core type pmu_ix
				 * (stat_split.c), no reading of its own */
	int tool;		/* how a tool event's row is read (enum stat_tool): from pmuprof's
				 * own clock and the command's rusage, never opened */
	int cpu_wide;		/* counts every task on its CPU (pid -1: -a, -C) */
	int auto_group;		/* grouped by stat_target_expand, not by the user: a member
				 * whose leader failed opens on its own */
	int user_only;		/* opened in user space only (perf_event_paranoid) */
	/* what the run stage found */
	int opened;		/* it was open in the last run */
	int group_read;		/* read with one PERF_FORMAT_GROUP read by its leader */
	int leader;		/* a member read with its group: the leader's index; -1 */
	int nmembers;		/* a leader read as a group: its members opened after it */
	int fd;			/* -1 when not open */
	int err;		/* errno of a failed open */
	struct counter_reading rd;
};

/* Everything opened for the rows: their parts and the counters. */
struct stat_counters {
	struct stat_part *parts;
	size_t nparts;
	struct stat_counter *c;
	size_t n;
	size_t nrows;			/* the rows they count */
	const struct sysfs_pmu *pmus;	/* the Arm PMUs of the resolve context (pmu_ix) */
	size_t npmus;
};

void stat_counters_free(struct stat_counters *cs);
/* Whether counter c is opened in planned run only_run (-1: every run). */
static inline int stat_in_run(const struct stat_counter *c, int only_run)
{
	return only_run < 0 || c->run < 0 || c->run == only_run;
}
/* Whether counter c is opened at all: neither an absent part, nor a fixture's, nor a tool
 * event's. */
int stat_counter_opens(const struct stat_counters *cs, const struct stat_counter *c);
/* The attributes counter c is opened with (rows: their events). */
struct pp_attr stat_counter_attr(const struct stat_counters *cs, const struct stat_event *rows,
				 const struct stat_counter *c);
/* The parts of row k: *first and the count (0: not split). */
size_t stat_row_parts(const struct stat_counters *cs, size_t k, size_t *first);
/* The planned run of row k: its first counter's that is opened (a split row's first part
 * that is not absent). */
int stat_row_run(const struct stat_counters *cs, const struct stat_event *rows, size_t k);
/* Why each row is never opened, in one pass over the counters: why[k] (of cs->nrows, NULL on
 * entry) gets row k's first counter's fixture that counts it (not an absent part), else its
 * first counter's; NULL: it is opened. */
void stat_rows_fixture(const struct stat_counters *cs, const char **why);
/* Why a part is never opened (its counter's fixture), NULL: it is. */
const char *stat_part_fixture(const struct stat_counters *cs, size_t part);
/* Reads every open counter into its rd: a group read once by its leader (one syscall). */
void stat_counters_read(struct stat_counters *cs);
/* Enables (or disables) every open counter: each group through its leader. */
void stat_counters_enable(struct stat_counters *cs, int on);
void stat_counters_close(struct stat_counters *cs);

/* The cumulative readings at each interval's end (-I): rd[i * ncounters + k]. */
struct stat_ctl;

struct stat_ticks {
	uint64_t *t_ns;
	struct counter_reading *rd;
	size_t n, cap, ncounters;
};

/* What pmuprof stat counts besides (or instead of) its command: perf's targets. */
struct stat_target {
	int *cpus;		/* -a, -C: the CPUs counted on, ascending; NULL: none */
	int ncpus;
	int all;		/* -a (the online CPUs) */
	int *tasks;		/* -p, -t: the threads followed (-p: each thread of each process
				 * at attach time; threads they create later are counted with
				 * their parent's) */
	int ntasks;
	char (*comm)[16];	/* each task's comm, for --per-thread */
	int *ids;		/* the ids given (-p: processes, -t: threads), whose end ends
				 * counting without a command */
	int nids;
	int per_process;	/* -p (else -t) */
	char desc[96];		/* "system wide", "CPU(s) 0-3", "process id '1234'", ... */
};

/* stat_target.c. -a / -C LIST: the CPUs (online ones; -C's must be online): -1 after a
 * message naming the bad CPU. */
int stat_target_cpus(struct stat_target *t, const char *list);
/* -p / -t LIST: the tasks (each thread of each process with -p); -1 after a message. */
int stat_target_tasks(struct stat_target *t, const char *list, int per_process);
/* -a --per-thread: every thread of the machine but pmuprof's (their end does not end the
 * counting); -1 after a message. */
int stat_target_all_tasks(struct stat_target *t);
void stat_target_free(struct stat_target *t);
static inline int stat_target_any(const struct stat_target *t)
{
	return t && (t->cpus || t->tasks);
}
/* stat_cputype.c. --cputype NAME (NULL: none): every row that would count on each core type
 * tied to the Arm PMU NAME names (its directory name, or its core's: cortex-a55, a55), as
 * if written PMU/EVENT/, and with -a/-C the CPUs of t narrowed to that PMU's. A row naming
 * another core type's PMU is refused; on a machine without Arm PMUs the core PMU's name
 * ("cpu") changes nothing. -1 after a message naming the PMUs there are. */
int stat_cputype(const char *name, struct resolve_ctx *rc, struct stat_event *rows, size_t n,
		 struct stat_target *t);
/* The Arm PMU of rc that --cputype NAME names, silently; NULL when none (or several). */
const struct sysfs_pmu *stat_cputype_pmu(const char *name, struct resolve_ctx *rc);
/* Replaces every counter that opens by one copy per CPU or task of t, after the counters
 * that never open (CPU by CPU, so that opening can follow them); with grouping (the plan fits
 * the counters) the counters of one CPU, type and planned run that the user did not group
 * are grouped, so one read returns them all. rows give the counters' types. ENOMEM or 0. */
int stat_target_expand(struct stat_counters *cs, const struct stat_event *rows,
		       const struct stat_target *t, int grouping);

/* Told of each -I interval as it ends: t->n - 1 is its index in t (of the counters cs). */
typedef void (*stat_tick_fn)(void *arg, const struct stat_counters *cs,
			     const struct stat_ticks *t);

struct stat_run_cfg {
	char **cmd;		/* NULL: no command (a target's counting ends on a signal, the
				 * timeout or the tasks' end) */
	const struct stat_target *tgt;	/* NULL: the command's tasks */
	unsigned timeout_ms;	/* --timeout; 0: none */
	unsigned delay_ms;	/* -D: counting starts this long after the command */
	unsigned interval_ms;		/* 0: no interval reads */
	unsigned interval_count;	/* 0: until the command ends */
	int only_run;			/* open only the events of this run; -1: all */
	int quiet;			/* a machine reads the report on standard error (-x or -j
					 * without -o): no warning between its lines (the :u names
					 * say what the paranoid fallback did) */
	int no_inherit;			/* -i: the counters follow the command's own threads
					 * only, not the children it forks */
	stat_tick_fn on_tick;		/* -I: called after each interval's read; NULL: none */
	void *tick_arg;
	struct stat_ctl *ctl;		/* --control, --regions, -D -1 (stat_ctl.h); NULL */
	const char **gone;		/* STAT_RUN_GONE: the removed cgroup's path; NULL */
};

/* stat_run_counted's status for a run that did not happen, without a message: a cgroup of
 * the counters was removed since it was opened (its path in *gone), so the run could not
 * count what the runs before it did. The command was not let go. */
#define STAT_RUN_GONE (-1)

/* Runs cmd once with the counters of rows opened on it (closed again before returning),
 * readings in each counter's rd and ticks (-I) appended to *ticks. Returns 0, STAT_RUN_GONE,
 * or pmuprof's exit status after a message when the run could not happen. *count_stop is set when
 * --interval-count stopped the intervals (the command ran on to its end). */
int stat_run_counted(const struct stat_run_cfg *c, struct stat_event *rows,
		     struct stat_counters *cs, struct workload_result *res,
		     struct stat_ticks *ticks, int *count_stop, int *timed_out);
/* Opens and enables every counter of cs on its CPU (targets expanded, -a: no command, no
 * planned run but the kernel's multiplexing), as a long-running reader keeps them: the number
 * opened, or -1 after a message when nothing could be (or descriptors ran out). */
int stat_open_wide(struct stat_event *rows, struct stat_counters *cs);
/* Runs argv with no counters (a warm-up run). Returns as stat_run_counted. */
int stat_run_plain(char **argv, struct workload_result *res);
/* Runs a --prepare/--cleanup command through /bin/sh -c; returns its exit status (128+N for
 * signal N), or -1 when it could not be started. */
int stat_shell(const char *cmd);

/* The wait for the end of counting: the command's end (w, NULL when there is none), the
 * timeout, SIGINT/SIGTERM, the attached tasks' end; reading the counters cs every
 * c->interval_ms into ticks (-I), enabling them after c->delay_ms (-D). res gets the
 * command's status and the times; res->interrupted a signal, *timed_out the timeout. */
int stat_wait(const struct stat_run_cfg *c, struct workload *w, struct stat_counters *cs,
	      struct workload_result *res, struct stat_ticks *ticks, int *count_stop,
	      int *timed_out);
void stat_ticks_free(struct stat_ticks *t);

/* How events are counted when they do not fit the counters. */
enum stat_mux { STAT_MUX_KERNEL = 0, STAT_MUX_RUNS };

struct stat_plan_cfg {
	enum stat_mux mux;
	int counters;		/* --counters N; 0: probe */
};

/* The plan made for the events (stat_plan.c). */
struct stat_planned {
	size_t nruns;		/* runs that make every count exact (1: everything fits) */
	int known;		/* the capacities of the Arm PMUs involved are known */
	char caps[256];		/* "armv8_pmuv3: 6 + cycle counter (probed)", for messages */
	char *fixture;		/* the reason events' fixture point to (malloc'd), NULL: none */
};

/* Plans the counters on the Arm PMUs they need (capacity probed or --counters): sets each
 * counter's run, pmu_ix and kind, and under a fixture sysfs tree marks every counter that
 * needs an Arm counter as never to be opened (its fixture, pointing into out; software
 * events still count), as it marks the counters placed on the --cpu-model core on a machine
 * with no Arm PMU, using the PMUs of rc, the context the rows were resolved in (loaded
 * once). Software-only sets read nothing. -1 after a message (a user group that can never
 * fit, or --mux=runs with capacities unknown). */
int stat_plan(struct stat_counters *cs, const struct stat_event *rows, struct resolve_ctx *rc,
	      const struct stat_plan_cfg *c, struct stat_planned *out);
/* Frees what stat_plan allocated in p (p zeroed, or filled by stat_plan). */
void stat_planned_free(struct stat_planned *p);
/* --plan: the plan as text (which events share a group and a run). */
int stat_plan_show(const struct stat_counters *cs, const struct stat_event *rows,
		   const struct stat_planned *p, const struct stat_plan_cfg *c, FILE *out);

/* stat_split.c. The counters of the nrows rows: one per row, except that on a machine with
 * several Arm PMUs and without --cpu-model, every row that can be (resolve_split) is split
 * over the Arm PMUs whose CPUs the command may run on (its CPU affinity, inherited from
 * pmuprof; with -a/-C the CPUs counted on; with -p/-t every PMU): one part and one counter
 * per PMU, after the rows' counters. A part's group is its core type's copy of its row's
 * (rows keep the user's). Marks the rows tied to one core type (one_type). ENOMEM or 0. */
int stat_split(struct stat_counters *cs, struct stat_event *rows, size_t nrows,
	       struct resolve_ctx *rc, const struct stat_target *tgt);
/* Appends the presence counters of every Arm PMU a part or a row tied to one core type
 * counts on: task-clock of the command on each CPU of that PMU, whose sum is the time the
 * command ran on its core type, the window such an event could count in. ENOMEM or 0. */
int stat_presence(struct stat_counters *cs, const struct stat_event *rows);
/* "0-3,6": a PMU's CPUs in the kernel's cpulist format. */
void stat_split_cpus(const struct sysfs_pmu *p, char *buf, size_t len);

/* The series pmuprof stat runs: warm-ups, then the recorded runs, each of them one run of
 * the command per planned run with --mux=runs (stat_series.c). */
struct stat_series_cfg {
	char **cmd;
	unsigned repeat, warmup;	/* -r (0: not given), --warmup */
	const char *prepare, *cleanup;
	unsigned interval_ms, interval_count;
	enum stat_mux mux;
	size_t plan_runs;		/* runs of the plan (--mux=runs) */
	int quiet;			/* as stat_run_cfg's */
	const struct stat_target *tgt;	/* as stat_run_cfg's */
	unsigned timeout_ms, delay_ms;
	int no_inherit;			/* as stat_run_cfg's */
	int verbose;			/* -v: each run's counts on standard error */
	stat_tick_fn on_tick;		/* as stat_run_cfg's */
	void *tick_arg;
	struct stat_ctl *ctl;		/* as stat_run_cfg's */
};

/* What the runs counted: their readings and times, and how many runs were recorded. */
struct stat_series {
	struct readings rd;
	size_t nruns;		/* recorded runs */
	int timed_out;		/* --timeout ended the (last) run */
};

/* Runs the series; a run that fails ends it (the runs so far are kept), why says so. *last is
 * the last run's result. Returns 0, or pmuprof's exit status when a run could not happen. */
int stat_series_run(const struct stat_series_cfg *c, struct stat_event *rows,
		    struct stat_counters *cs, struct stat_series *s, struct stat_ticks *ticks,
		    struct workload_result *last, int *count_stop, char *why, size_t len);
void stat_series_free(struct stat_series *s);

/* stat_record.c: what one planned run counted, as readings: one per counter of it (but
 * presence counters and a fixture's), each with its window, the run's times, and with -I
 * one reading per counter per interval from the ticks. -1 when memory ran out. */
int stat_record(struct readings *rd, const struct stat_event *rows,
		const struct stat_counters *cs, uint32_t run, uint32_t plan_run, int only_run,
		const struct workload_result *res, const struct stat_ticks *ticks);

/* One -I interval on its own, as readings of one run: interval i of ticks (of the counters
 * cs) as interval 0, and the counts so far (tick i) as the totals. What stat prints of an
 * interval as soon as it ends is built from these (-1 when memory ran out). */
int stat_record_interval(struct readings *rd, const struct stat_event *rows,
			 const struct stat_counters *cs, const struct stat_ticks *ticks, size_t i);

/* The sysfs topology ids per CPU (topo.h's struct topo gives them), -1 where unknown. */
struct topo_ids {
	size_t ncpus;
	const int *socket, *die, *cluster, *core;
	const int *cache_level, *cache;	/* --per-cache: each CPU's cache of the level asked */
};

/* What the report is built from besides the runs. */
struct stat_build {
	int repeated;			/* -r given: keep per-run arrays and statistics */
	int intervals;			/* -I given: each event's deltas per interval */
	const struct metrics_core *core;
	const char *const *metrics;	/* -M names */
	size_t nmetrics;
	int runs_mode;			/* --mux=runs: each event says its run */
	enum report_aggr aggr;		/* -A, --per-core, ...: the report's units */
	const struct stat_target *tgt;	/* NULL: the command's tasks */
	const struct agg_topology *topo;	/* --per-core/-cluster/-socket: where CPUs sit */
	const struct topo_ids *ids;	/* and their sysfs ids, that name the units */
	int no_scale;			/* --no-scale: values are the raw counts */
	const struct stat_counters *counters;	/* how the rows were counted: their parts,
						 * planned runs, fixture notes */
};

/* Builds r from the series' readings, aggregated (aggregate.h); evs give the rows'
 * identities (the report's rows). -1 when memory ran out. */
int stat_report_build(struct report *r, const struct stat_series *s,
		      const struct stat_event *evs, size_t nrows, const struct stat_build *b);
void stat_report_free(struct report *r);

/* stat_detail.c: perf's -d repeated level times (1 to 3; more is 3): the events it adds,
 * comma-separated, in *spec (malloc'd; NULL when the cores' tables have none of them): Arm's
 * common events that every core type of the machine (or --cpu-model's core) has in its
 * tables, or, where no Arm core is known, perf's generic cache events. -1 after a message. */
int stat_detail_spec(struct resolve_ctx *ctx, int level, char **spec);

/* stat_verbose.c: -v on standard error: each row and part as it will be opened (its PMU,
 * type, config, exclusions), once; then after each run every counter's reading, "NAME: VALUE
 * ENABLED RUNNING" as perf stat -v prints it, or why it was not counted. */
void stat_verbose_events(const struct stat_event *rows, const struct stat_counters *cs);
void stat_verbose_counts(const struct stat_event *rows, const struct stat_counters *cs);

/* stat_metrics.c: the core the metrics are for (--cpu-model CORE[:rXpY], else the MIDR of
 * --cputype's PMU or of the first CPU's Arm PMU, read once by resolution), whether any event
 * can be a metric's input, -M list (the exit status), and each -M name's events appended to
 * the -e specs, owned[k] keeping name k's (-1 after a message). */
void stat_metrics_core(const char *cpu_model, const char *cputype, struct resolve_ctx *ctx,
		       struct metrics_core *mc);
int stat_metrics_wanted(const struct stat_event *evs, size_t n);
/* --topdown: the core's stage-1 group (*group) and, with all, every stage-2 group its nodes
 * lead to, appended to the -M names (each once). -1 after a message (no top-down data). */
int stat_metrics_topdown(const struct metrics_core *mc, const char ***names, size_t *n,
			 const char **group, int all);
int stat_metrics_list(const struct metrics_core *mc);
/* The one-line refusal of a -M name the core's set lacks (stat's and report's). */
void stat_metrics_unknown(const struct metrics_core *mc, const char *name);
int stat_metrics_add_specs(struct evsel_opts *ev, const char *const *names, size_t nnames,
			   const struct metrics_core *mc, char **owned);

#endif
