/* SPDX-License-Identifier: Apache-2.0 */
/* report.h: the one struct every output format is printed from (text, JSON, CSV). */
#ifndef PMUPROF_REPORT_H
#define PMUPROF_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

struct mxtab_metric;
struct mxtab_set;

#define REPORT_SCHEMA_VERSION "1.8"

enum report_status {
	REPORT_COUNTED = 0,	/* counted, possibly for only part of the time (scaled) */
	REPORT_NOT_COUNTED,	/* opened, but never on a counter (time_running == 0) */
	REPORT_NOT_SUPPORTED,	/* the kernel refused to open it */
	REPORT_NOT_PERMITTED,	/* refused for permissions (perf_event_paranoid, capabilities) */
	REPORT_ABSENT,		/* (a part) the core type has no such event */
};

/* One count's figures: an event's over the whole run, a core type's part of it, a unit's cell,
 * an interval's delta. */
struct report_figures {
	enum report_status status;
	const char *reason;	/* why it was not counted (errno name), or NULL */
	uint64_t raw;		/* as read */
	uint64_t enabled_ns, running_ns;
	double value;		/* raw scaled by enabled/running (== raw when fully counted) */
	double counted_pct;	/* the share of the time counted, running/enabled * 100; not
				 * counted (and for a part), report_share_pct's */
	int scaled;		/* counted for part of the time: value is an estimate */
};

/* The figure printed beside a count, perf's "shadow" metric: a metric anchored on its event
 * (IPC, a share of cycles), CPUs utilized for task-clock or cpu-clock, else a rate per second
 * of the time counted. unit NULL: there is none. */
struct report_derived {
	double value;
	const char *unit;	/* "insn per cycle", "CPUs utilized", "K/sec", ... */
};

/* An event's share on one Arm PMU of a machine with several core types (big.LITTLE). */
struct report_part {
	const char *pmu;	/* the PMU's sysfs name */
	const char *core;	/* its core ("cortex-a55"), NULL when not in the tables */
	char cpus[64];		/* its CPUs, "0-3" */
	uint32_t type;
	uint64_t config;
	const char *note;	/* as report_event's */
	struct report_figures fig;	/* value: raw scaled as its event's total is */
	double time_pct;	/* its enabled time's share of the event's: the command's time
				 * on these CPUs */
};

struct report_cell;
struct report_delta;

struct report_event {
	const char *name;	/* as the user wrote it */
	const char *pmu;	/* "cpu", "software", "raw" or the sysfs PMU */
	const char *unit;	/* unit of value: "ns" or "" */
	uint32_t type;
	uint64_t config, config1, config2;
	int excl_user, excl_kernel, excl_hv, excl_host, excl_guest;
	int marked;		/* the request's Secure/EL3 part is not counted (Linux can't) */
	int group;		/* user group index, -1 when none */
	const char *filter_terms;	/* PMEVTYPER filter-bit terms given ("P,NSK"), NULL: none */
	const char *filter_verdict;	/* "ok", or "secure" (accepted with --allow-secure) */
	uint16_t filter_differ;		/* levels (1 << enum filter_level) counted otherwise than
					 * asked */
	struct report_figures fig;	/* over the whole run (the means over the runs, -r) */
	struct report_derived derived;	/* beside the count */
	const char *note;	/* not counted because never opened, for a reason perf's words do
				 * not cover (a fixture tree's PMU), shown beside the event in text
				 * and CSV; also the reason. No raw value is read */
	int run;		/* --mux=runs: the planned run (1-based) that counted it; 0 */
	uint64_t wall_ns;	/* the wall time of the run(s) that counted it (their mean) */
	/* big.LITTLE: the event on each Arm PMU the command may run on (NULL: not split); the
	 * event's values are their sum */
	const struct report_part *split;
	size_t nsplit;
	const char *cgroup;	/* -G, --for-each-cgroup: counted only in this cgroup (its path
				 * below the cgroup v2 mount); NULL: every task */
	const char *only_pmu;	/* given with its PMU where the command may also run on other
				 * core types: that PMU (counted only while on its CPUs) */
	/* repeated runs (-r; report.nruns == 0 otherwise): the event's value, raw, enabled_ns
	 * and running_ns are then means over the runs, runs[k] run k's scaled value (NAN: not
	 * counted in it), stats their summary (n == 0: none), outlier[k] set for the runs
	 * flagged by stats_outliers */
	const double *runs;
	const unsigned char *outlier;
	struct stats_summary stats;
	/* with -I: this event's delta per interval, deltas[i] for report.intervals[i] */
	struct report_delta *deltas;
	/* aggregated per unit (report.aggr != GLOBAL): cells[u] for report.units[u] (means over
	 * the runs with -r), and with -I unit_deltas[i * nunits + u] for interval i */
	struct report_cell *cells;
	struct report_cell *unit_deltas;
};

/* How the counts are aggregated: perf stat's default (summed over CPUs and tasks), -A/--no-aggr,
 * --per-core, --per-cluster, --per-socket, --per-thread. */
enum report_aggr {
	REPORT_AGGR_GLOBAL = 0,
	REPORT_AGGR_CPU,
	REPORT_AGGR_CORE,
	REPORT_AGGR_CLUSTER,
	REPORT_AGGR_SOCKET,
	REPORT_AGGR_THREAD,
	REPORT_AGGR_DIE,
	REPORT_AGGR_NODE,
	REPORT_AGGR_CACHE,	/* --per-cache */
};

/* One aggregation unit of the report (a CPU with -A, a core with --per-core, ...). */
struct report_unit {
	char id[40];		/* as perf prints it: "CPU3", "S0-D0-C1", "S0-D0-CLS0", "S1",
				 * "ppload-1234" (comm-tid) */
	int cpu;		/* -A: the CPU; else -1 */
	int socket, die, cluster, core;	/* sysfs topology ids that name it; -1 where not */
	int node;		/* --per-node: the NUMA node; else -1 */
	int cache_level, cache;	/* --per-cache: the cache's level and id; else -1 */
	int tid;		/* --per-thread: the task; else -1 */
	int ncpus;		/* CPUs aggregated in it (perf's field after the id with
				 * --per-core/--per-cluster/--per-socket) */
};

/* An event's figures in one unit, over the whole run or over one interval (-I). */
struct report_cell {
	int present;		/* the unit has readings of the event (a big.LITTLE event has
				 * none on the other core type's CPUs; -p: a thread that ended
				 * before it was attached) */
	struct report_figures fig;
	struct report_derived derived;	/* from the same unit's cells only */
};

/* One event's change over one interval (-I). Not counted in it, its status is the event's
 * (not counted where the event counted in other intervals). */
struct report_delta {
	struct report_figures fig;	/* counted_pct: running/enabled, 100 when equal */
	struct report_derived derived;	/* over the interval's counts and length */
};

/* One run's times (-r). */
struct report_times {
	uint64_t wall_ns, user_ns, sys_ns;
};

/* One planned run's times (--mux=runs): its run of the command, or with -r their means over
 * the recorded runs it happened in, and then their summaries (n 0 without -r). */
struct report_plan_times {
	struct report_times t;
	struct stats_summary wall, user, sys;
};

/* A metric's value in one aggregation unit. */
struct report_metric_unit {
	int applies;		/* the unit's CPUs are those the metric's PMU counts on */
	double value;		/* NAN: not computed there */
};

/* One derived metric bound to the report's events (metrics.h computes them). */
#define REPORT_METRIC_MAX_INPUTS 12	/* MEXPR_MAX_EVENTS */
#define REPORT_METRIC_NONE ((size_t)-1)
struct report_metric_value {
	const struct mxtab_metric *def;	/* its name, unit, formula and events (mxtab.h) */
	const char *core;		/* the core whose formula it is (evtab id) */
	const char *group;		/* the -M group it was asked through, else the first group
					 * of its set that lists it; NULL: none */
	int stage;			/* that group's top-down stage; 0: none */
	int requested;			/* named by -M (or --topdown): reported without a value too */
	const char *pmu;		/* big.LITTLE: the core type's PMU whose counts (the inputs'
					 * parts there) it is computed from; NULL: the events' totals */
	size_t anchor;			/* the event it is printed beside (its formula's first
					 * event); REPORT_METRIC_NONE: none in the report */
	size_t nev;			/* mxtab_metric_nevents(def) */
	size_t ev[REPORT_METRIC_MAX_INPUTS];	/* the report event counting mxtab_metric_event(def,
						 * i); REPORT_METRIC_NONE: none */
	double value;			/* over the totals; NAN: not computed (reason says why) */
	char reason[96];
	int estimate;			/* an input was counted for part of the time (scaled) */
	char label[80];			/* beside the count in text: "insn per cycle" for IPC (perf's
					 * words), "% backend_bound", "branch_mpki" */
	double input[REPORT_METRIC_MAX_INPUTS];	/* each input's value over the totals, as the
						 * formula took it; NAN: none */
	/* aggregated per unit: units[u] its value in unit u's cells, for the units of the CPUs
	 * it applies to (a core type's metric: that type's) */
	struct report_metric_unit *units;
};

/* A region the command marked (stat --regions, pmuprof-regions(7)): its counts are a report
 * of their own, built from the region's readings as the whole run's are from the run's. */
struct report_region {
	char *name;
	double calls;		/* ended executions per run (their mean over the runs, -r) */
	uint64_t unended;	/* executions begun and never ended, over all runs */
	int overlapped;		/* one began while another was open (threads, children,
				 * recursion): changes in the overlap are counted in each */
	struct report *r;	/* its events, metrics and per-run values; wall_ns its time
				 * per run */
};

struct report_host {
	char kernel[65];	/* uname release */
	char machine[65];	/* uname machine */
	char cpu_model[128];	/* "" when unknown */
	uint64_t midr;		/* 0 when unknown */
	int ncpus;
	int kernel_el;		/* 1, or 2 (VHE), that filter terms were read with; 0: not decided */
	const char *kernel_el_source;	/* how pmuprof knows it (NULL when not decided) */
};

/* perf stat's display options, applied by the writers (pmuprof stat's options of the same
 * names). Zero is perf's default display. */
struct report_display {
	int no_big_num;		/* --no-big-num: text counts without thousands separators */
	int unscaled;		/* --no-scale: values are the raw counts, not scaled by
				 * enabled/running (JSON says so: mux.scaling false) */
	int metric_only;	/* --metric-only: text and CSV show the metrics only, in perf's
				 * layout (a line of metric units, then a line of values) */
	int no_summary;		/* -I --no-summary: text and CSV show the intervals only */
};

struct report {
	const char *tool_version;
	struct report_display disp;
	int argc;
	char *const *argv;		/* the workload's command */
	const char *name;		/* --name: the benchmark's name; NULL: report_name's
					 * default */
	struct report_host host;
	struct report_event *events;
	size_t nevents;
	int per_cgroup;			/* an event is counted per cgroup (-G,
					 * --for-each-cgroup): text and CSV rows have a cgroup
					 * column */
	uint64_t wall_ns, user_ns, sys_ns;
	/* --mux=runs: the planned run (1-based) whose times wall_ns, user_ns, sys_ns (and
	 * run_times and the stats below) are, each event's run being the one that counted it;
	 * 0: not said (one run of the command per recorded run). plan_times[p] is planned run
	 * p + 1's (nplan_times of them; NULL without --mux=runs) */
	int time_run;
	const struct report_plan_times *plan_times;
	size_t nplan_times;
	int exit_code;			/* -1 when killed by a signal */
	int term_signal;		/* 0 when it exited */
	int interrupted;		/* SIGINT/SIGTERM reached pmuprof during the run */
	unsigned timeout_ms;		/* --timeout (0: none); timed_out: it ended the counting */
	int timed_out;
	/* -r: the runs recorded (0 without -r; times and events are then means), those asked
	 * for, the unrecorded warm-up runs, why the series ended early (NULL: it did not) */
	size_t nruns, repeat, warmup;
	const char *stopped;
	const struct report_times *run_times;
	struct stats_summary wall_stats, user_stats, sys_stats;
	/* -I: the interval asked for, and each interval's end (ns since the command started;
	 * the last one may be shorter: it ends with the command) */
	unsigned interval_ms;
	const uint64_t *interval_t_ns;
	size_t nintervals;
	const char *interval_stop;	/* "interval-count" when pmuprof ended the command */
	/* -I printed live (stat, text and -x to standard error): a slice is one interval as it
	 * ended, interval_base its number in the run, interval_t0_ns its start, and is printed
	 * without the totals; the whole run's report then says how many intervals were printed
	 * already (interval_from), and text and -x print the rest. The heading goes before the
	 * run's first interval. JSON, exports and files are written whole, at the end */
	int interval_slice;
	size_t interval_base, interval_from;
	uint64_t interval_t0_ns;
	int csv_no_summary;		/* -x -I: totals without "summary" in the time field */
	/* multiplexing: the mode ("kernel", "runs"), the runs of the command per recorded run,
	 * the runs that would make every count exact (0: unknown), whether any event was
	 * scaled */
	const char *mux;
	size_t mux_runs, runs_for_exact;
	int multiplexed;
	/* what was counted: the command's tasks (target NULL), or perf's targets: "system wide"
	 * (-a), "CPU(s) 0-3" (-C), "process id '1234'" (-p), "thread id '1235'" (-t); with a
	 * target, argc may be 0 (no command: counted until --timeout or SIGINT). The text
	 * header quotes a target that has no quote of its own, as perf does */
	const char *target;
	int system_wide;		/* -a or -C: counted on CPUs, every task on them */
	enum report_aggr aggr;
	const struct report_unit *units;	/* aggr != GLOBAL: the units, in perf's order */
	size_t nunits;
	/* derived metrics (metrics_compute), and the -M names they were asked by */
	struct report_metric_value *metrics;
	size_t nmetrics;
	const char *const *metric_requests;
	size_t nmetric_requests;
	const char *metrics_core;	/* the core and revision whose formulas they are
					 * ("neoverse-n2:r0p3"); NULL: not known (generic ones) */
	/* --topdown: the tree's stage-1 group and how its events were counted ("one run",
	 * "N runs of the command", "one run, multiplexed"); NULL without --topdown */
	const char *topdown_group;
	const char *topdown_how;
	const struct mxtab_set *topdown_set;	/* the set whose groups the tree shows */
	/* --regions: the regions, in the order they were first begun, and the ends read
	 * without an execution begun (NULL, 0: none) */
	struct report_region *regions;
	size_t nregions;
	uint64_t region_stray_ends;
};

/* Frees what a report's builder allocated for it (stat_report_build, report_load): the events
 * with their per-run, per-interval, per-part and per-unit arrays, the units, the metrics and
 * the run times; their pointers are NULL after. */
void report_free_parts(struct report *r);
/* The share of the time counted as perf prints it where the event may not have counted:
 * 100 when running == enabled (both 0 for an event refused), else running/enabled * 100. */
double report_share_pct(uint64_t running_ns, uint64_t enabled_ns);
/* Sets delta d's figures from its counts (counted: there were some on a counter) and its
 * event's status over the whole run. */
void report_delta_set(struct report_delta *d, const struct report_event *e, int counted,
		      uint64_t raw, uint64_t enabled_ns, uint64_t running_ns, double value);
/* Name of a status as the outputs spell it ("counted", "not counted", ...). */
const char *report_status_str(enum report_status s);
/* The benchmark's name, as the BMF and github-benchmark exports give it (malloc'd; NULL when
 * out of memory): --name, else the command's basename and its arguments (the same wherever the
 * command lives: a checkout's path in it would make a new benchmark of every checkout),
 * else what was counted (-a, -C, -p, -t without a command). */
char *report_name(const struct report *r);
/* The note a marked event carries in every format: "marked: filter P,NSK: Secure EL1 and EL3
 * cannot be filtered as asked; Linux programs the Non-secure part only (--allow-secure)". */
const char *report_mark_note(const struct report_event *e, char *buf, size_t len);
/* A part's name as perf names a hybrid PMU's event: "armv8_cortex_a55/cycles/",
 * "armv8_cortex_a55/inst_retired/u" for inst_retired:u. */
const char *report_part_name(const struct report_event *e, const struct report_part *p,
			     char *buf, size_t len);
/* Gives e its n parts (big.LITTLE), each with its share of e's enabled time. */
void report_split_set(struct report_event *e, struct report_part *parts, size_t n);
/* e's part on the Arm PMU named pmu, NULL when it has none there. */
const struct report_part *report_part_on(const struct report_event *e, const char *pmu);
/* Fills the host facts (uname, cpu model and MIDR through sysfs). */
void report_host_fill(struct report_host *h);

/* The results stage, run once on a built or loaded report before any writer: binds the
 * metrics of mc's set (NULL: none; names as metrics_compute takes them) to the events and
 * computes every figure derived from the counts, stored in the report: each metric's value
 * over the totals, its inputs and its value per unit; the derived figure beside every event
 * (report_event.derived), every unit's cell (of the whole run and of each interval) and every
 * interval's delta. The figure beside a count is the first metric anchored on its event with
 * a value there, else CPUs utilized for task-clock or cpu-clock (over the wall time of the
 * event's run, of the interval), else a rate per second of the task-clock (or cpu-clock)
 * counted there. 0, or -1 when memory ran out. */
struct metrics_core;
int report_derive(struct report *r, const struct metrics_core *mc, const char *const *names,
		  size_t nnames);
/* Frees r's metrics and what each holds. */
void report_metrics_free(struct report *r);

/* e's value in the totals (unit 0, interval < 0), its delta over interval i (unit 0), or unit
 * u's cell of the whole run or of interval i: 1 with *v when counted there (*scaled, may be
 * NULL: for part of the time only), else 0. */
int report_value_at(const struct report *r, const struct report_event *e, int unit, size_t u,
		    long interval, double *v, int *scaled);
/* The next metric printed beside event idx in text and CSV, from metric index from on: one of
 * the events' totals (no PMU), anchored on idx; r->nmetrics when there is none. */
size_t report_next_metric(const struct report *r, size_t idx, size_t from);

/* Event e's cell in unit u: of the whole run (interval < 0), or of interval i (-I); NULL when
 * the report has none there. */
const struct report_cell *report_cell_at(const struct report *r, const struct report_event *e,
					 size_t u, long interval);
/* Whether the report has per-interval figures (-I): deltas, or per-unit deltas. */
int report_has_intervals(const struct report *r);
/* Whether text and CSV print a cell: it is present, and with --per-thread on CPUs (-a, -C)
 * it counted something (perf leaves out the many threads that counted nothing there). */
int report_cell_shown(const struct report *r, const struct report_cell *c);
/* Whether perf prints the number of CPUs aggregated after the unit's id (--per-core,
 * --per-cluster, --per-socket). */
int report_unit_has_ncpus(const struct report *r);
/* Calls fn for every cell text and CSV print (report_cell_shown) of the totals (interval < 0)
 * or of interval i, in perf 6.1's order: unit by unit with --per-core, --per-cluster and
 * --per-socket (perf's print_aggr), else event by event over the units (-A, --per-thread),
 * with --per-thread the largest value first, as perf 6.1 sorts threads per event (equal
 * values keep the report's order; so does all of it when memory runs out). */
void report_each_cell(const struct report *r, long interval,
		      void (*fn)(const struct report *r, const struct report_event *e, size_t u,
				 long interval, void *arg),
		      void *arg);
/* Whether the run's first interval is among those r prints (text, -x): -I's heading goes
 * before it (not before a live slice of a later one, nor after intervals already printed). */
int report_interval_heading(const struct report *r);
/* Interval i's length in ns (from the previous interval's end, or from the start). */
uint64_t report_interval_ns(const struct report *r, size_t i);

/* Whether e is one of perf's tool events (duration_time, user_time, system_time): a time
 * measured, not counted, on PMU "tool". */
static inline int report_is_tool(const struct report_event *e)
{
	return e->pmu && !strcmp(e->pmu, "tool");
}

/* The cgroup column of e's rows in text and CSV, as perf prints it: NULL when no event of r
 * is counted per cgroup (no column), else e's cgroup ("" when it counts every task). */
static inline const char *report_cgroup_col(const struct report *r,
					    const struct report_event *e)
{
	return !r->per_cgroup ? NULL : e->cgroup ? e->cgroup : "";
}

/* The cgroup metric m is computed in: that of the events it is computed from (its anchor's),
 * NULL for every task. */
static inline const char *report_metric_cgroup(const struct report *r,
					       const struct report_metric_value *m)
{
	return m->anchor != REPORT_METRIC_NONE && m->anchor < r->nevents ?
	       r->events[m->anchor].cgroup : NULL;
}

/* Whether e's value is shown in milliseconds ("msec"): a time in ns (task-clock, cpu-clock),
 * as perf shows them, but for a tool event's, shown in "ns" as perf shows it. */
static inline int report_in_msec(const struct report_event *e)
{
	return e->unit && !strcmp(e->unit, "ns") && !report_is_tool(e);
}

/* Whether --metric-only shows a metric of this unit: not a rate per second nor CPUs
 * utilized, which perf 6.1's --metric-only leaves out (they restate the counts). */
int report_metric_only_unit(const char *unit);
/* Whether --metric-only shows a column for e's metric (the totals' metric, of a unit
 * report_metric_only_unit keeps): then its unit, and its value over the totals (interval < 0)
 * or over interval i (-I, summed over CPUs and tasks), NAN where it has none there. */
int report_metric_only_at(const struct report *r, const struct report_event *e, long interval,
			  double *val, const char **unit);

/* One writer per format; each returns 0 or -1 when the stream failed. */
int report_text(const struct report *r, FILE *out);
int report_json(const struct report *r, FILE *out);
int report_csv(const struct report *r, FILE *out, const char *sep);

#endif
