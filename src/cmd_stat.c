/* cmd_stat.c: `pmuprof stat`: its options, then the pipeline: specs -> events -> runs (each:
 * counters on the waiting workload -> run -> readings; stat_run.c) -> one report
 * (stat_report.c) -> text | JSON | CSV. */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "argp_trim.h"
#include "cmd.h"
#include "cmd_export.h"
#include "counter.h"
#include "evspec.h"
#include "outfile.h"
#include "report.h"
#include "resolve.h"
#include "strbuf.h"
#include "sysfs.h"
#include "textline.h"
#include "topo.h"
#include "workload.h"
#include "evsel.h"
#include "evtab.h"
#include "metrics.h"
#include "stat.h"

/* perf stat's default set; on CPUs (-a, -C), cpu-clock stands for task-clock, as in perf. */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";
static const char default_events_cpus[] =
	"cpu-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";

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
	const char *aggr_opt;	/* the option that chose it, for messages */
	unsigned timeout_ms, delay_ms;
	struct export_set exports;	/* --export FORMAT:FILE */
	/* perf's display options: -B, --no-big-num, --no-scale, --metric-only, --no-summary */
	struct report_display disp;
	int big_num, append, quiet;	/* -B given, --append, -q */
};

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

/* --min-running: some event was counted for less than PCT of the time. */
#define STAT_EXIT_MIN_RUNNING 3

enum { OPT_WARMUP = 0x300, OPT_TOPDOWN, OPT_PREPARE, OPT_CLEANUP, OPT_ICOUNT, OPT_MUX, OPT_NO_MUX,
       OPT_COUNTERS, OPT_MIN_RUNNING, OPT_PLAN, OPT_NO_CSV_SUMMARY, OPT_PER_CORE,
       OPT_PER_CLUSTER, OPT_PER_SOCKET, OPT_PER_THREAD, OPT_TIMEOUT, OPT_PER_DIE,
       OPT_PER_NODE, OPT_NO_MERGE, OPT_APPEND, OPT_NO_BIG_NUM, OPT_NO_SCALE, OPT_METRIC_ONLY,
       OPT_POST, OPT_SUMMARY, OPT_NO_SUMMARY, OPT_EXPORT };

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Report as one JSON document (schema: pmuprof-json(5))", 0 },
	{ "field-separator", 'x', "SEP", 0,
	  "Report as separated values in perf stat -x's field order", 0 },
	{ "no-csv-summary", OPT_NO_CSV_SUMMARY, NULL, 0,
	  "With -x and -I: no 'summary' time field on the totals (perf's option)", 0 },
	{ "output", 'o', "FILE", 0,
	  "Write the report to FILE (atomically) instead of standard error", 0 },
	{ "export", OPT_EXPORT, "FORMAT:FILE", 0,
	  "Also write the report to FILE in FORMAT (text, json, csv, bmf, github-benchmark, "
	  "openmetrics, markdown), atomically after the run; repeatable", 0 },
	{ "repeat", 'r', "N", 0,
	  "Run COMMAND N times, with counters opened anew each time; report every run's values, "
	  "their mean, spread and outliers", 1 },
	{ "warmup", OPT_WARMUP, "K", 0, "First run COMMAND K times without recording", 1 },
	{ "prepare", OPT_PREPARE, "CMD", 0,
	  "Run CMD (with /bin/sh -c) before each run, warm-ups included; not counted", 1 },
	{ "cleanup", OPT_CLEANUP, "CMD", 0,
	  "Run CMD (with /bin/sh -c) after each run, warm-ups included; not counted", 1 },
	{ "interval", 'I', "MS", 0,
	  "Read the counts every MS milliseconds while COMMAND runs and report each interval's "
	  "counts as it ends, then the totals", 2 },
	{ "interval-count", OPT_ICOUNT, "N", 0,
	  "With -I: stop reading and printing intervals after N of them and let COMMAND run "
	  "to its end, then report the totals of the whole run, as perf stat does", 2 },
	{ "metric", 'M', "NAME[,NAME]", 0,
	  "Compute metric or group NAME of the core (ipc, MPKI, Topdown_L1, ...; 'list' lists "
	  "them), counting its events as a group; repeatable. Here -M is perf's --metric: the "
	  "core is --cpu-model's long form", 3 },
	{ "topdown", OPT_TOPDOWN, NULL, 0,
	  "Arm's top-down method: stage 1 of the core, and the stage-2 groups under its "
	  "dominant nodes, as a tree (all counted exactly: --mux=runs unless --mux is given)", 3 },
	{ "mux", OPT_MUX, "MODE", 0,
	  "When the events do not fit the counters: 'kernel' (default) lets the kernel rotate "
	  "them and scales each count (an estimate); 'runs' runs COMMAND once per planned "
	  "group of events, so every count is exact: COMMAND must be repeatable", 4 },
	{ "no-multiplex", OPT_NO_MUX, NULL, 0, "The same as --mux=runs", 4 },
	{ "counters", OPT_COUNTERS, "N", 0,
	  "Plan for N general counters per Arm PMU instead of probing them", 4 },
	{ "min-running", OPT_MIN_RUNNING, "PCT", 0,
	  "Exit with status 3 (instead of COMMAND's) when an event was counted for less than "
	  "PCT% of the time", 4 },
	{ "plan", OPT_PLAN, NULL, 0,
	  "Show which events share a group and a run, then exit without running anything", 4 },
	{ "all-cpus", 'a', NULL, 0,
	  "Count every task on every online CPU (system-wide), while COMMAND runs, or without "
	  "one until SIGINT or --timeout", 5 },
	{ "cpu", 'C', "LIST", 0, "Count every task on these CPUs only (0-3,6), as -a does", 5 },
	{ "pid", 'p', "PID", 0,
	  "Count these running processes (comma-separated), each thread of them, until they end "
	  "(or COMMAND ends, or SIGINT or --timeout)", 5 },
	{ "tid", 't', "TID", 0, "Count these running threads (comma-separated), as -p does", 5 },
	{ "timeout", OPT_TIMEOUT, "MS", 0,
	  "Stop counting after MS milliseconds (COMMAND is sent SIGTERM)", 5 },
	{ "delay", 'D', "MS", 0, "Start counting MS milliseconds after COMMAND starts", 5 },
	{ "no-aggr", 'A', NULL, 0, "With -a or -C: one row per CPU", 6 },
	{ "per-core", OPT_PER_CORE, NULL, 0, "With -a or -C: one row per core", 6 },
	{ "per-cluster", OPT_PER_CLUSTER, NULL, 0, "With -a or -C: one row per cluster", 6 },
	{ "per-socket", OPT_PER_SOCKET, NULL, 0, "With -a or -C: one row per socket", 6 },
	{ "per-die", OPT_PER_DIE, NULL, 0, "With -a or -C: one row per die", 6 },
	{ "per-node", OPT_PER_NODE, NULL, 0, "With -a or -C: one row per NUMA node", 6 },
	{ "per-thread", OPT_PER_THREAD, NULL, 0,
	  "With -p or -t: one row per thread; with -a: every thread of the machine, each a row",
	  6 },
	{ "no-merge", OPT_NO_MERGE, NULL, 0,
	  "Accepted for perf's sake: an event split over core types always shows its parts", 6 },
	{ "append", OPT_APPEND, NULL, 0,
	  "With -o: add the report to FILE's end, after a '# started on' line, instead of "
	  "replacing FILE", 7 },
	{ "big-num", 'B', NULL, 0, "Group digits with thousands separators (the default, as perf's)",
	  7 },
	{ "no-big-num", OPT_NO_BIG_NUM, NULL, 0, "Print counts without thousands separators", 7 },
	{ "no-scale", OPT_NO_SCALE, NULL, 0,
	  "Report the raw counts, not scaled by enabled/running time", 7 },
	{ "metric-only", OPT_METRIC_ONLY, NULL, 0,
	  "Text and -x: print only the metrics, in perf's layout (units, then values)", 7 },
	{ "quiet", 'q', NULL, 0,
	  "Print no report, warnings or messages, errors only (the exit status tells)", 7 },
	{ "post", OPT_POST, "CMD", 0, "perf's name for --cleanup", 7 },
	{ "summary", OPT_SUMMARY, NULL, 0,
	  "With -I: print the totals after the intervals (pmuprof's default, perf's option)", 7 },
	{ "no-summary", OPT_NO_SUMMARY, NULL, 0,
	  "With -I: print the intervals only, as perf -I does without --summary", 7 },
	{ 0 }
};

/* A whole decimal number >= min for option opt, else a usage error. */
static unsigned number(struct argp_state *state, const char *arg, const char *opt,
		       unsigned min)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || v > UINT_MAX / 2 || v < min || *arg == '-')
		argp_error(state, "%s takes a whole number%s, not '%s'", opt,
			   min ? " of 1 or more" : "", arg);
	return (unsigned)v;
}

/* A share of time, 0 to 100, for --min-running. */
static double percent(struct argp_state *state, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (!*arg || *end || !(v >= 0 && v <= 100))
		argp_error(state, "--min-running takes a percentage from 0 to 100, not '%s'", arg);
	return v;
}

/* -M list asks for the list of metrics; -M NAME is kept (checked once the core is known). */
static void add_metric(struct argp_state *state, struct stat_opts *o, char *arg)
{
	if (!strcmp(arg, "list")) {
		o->list_metrics = 1;
		return;
	}
	/* perf's -M a,b: each name (the argument is ours to cut) */
	if (metrics_names_add(arg, &o->metrics, &o->nmetrics) != 0)
		argp_failure(state, PP_EXIT_ERROR, 0, "out of memory");
}

/* -A, --per-core, ...: one of them. */
static void aggr_mode(struct argp_state *state, struct stat_opts *o, int key)
{
	static const struct { int key; enum report_aggr aggr; const char *opt; } modes[] = {
		{ 'A', REPORT_AGGR_CPU, "-A" },
		{ OPT_PER_CORE, REPORT_AGGR_CORE, "--per-core" },
		{ OPT_PER_CLUSTER, REPORT_AGGR_CLUSTER, "--per-cluster" },
		{ OPT_PER_SOCKET, REPORT_AGGR_SOCKET, "--per-socket" },
		{ OPT_PER_THREAD, REPORT_AGGR_THREAD, "--per-thread" },
		{ OPT_PER_DIE, REPORT_AGGR_DIE, "--per-die" },
		{ OPT_PER_NODE, REPORT_AGGR_NODE, "--per-node" },
	};

	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		if (modes[k].key != key)
			continue;
		if (o->aggr_opt && o->aggr != modes[k].aggr)
			argp_error(state, "%s and %s both choose how counts are aggregated: give "
				   "one of them", o->aggr_opt, modes[k].opt);
		o->aggr = modes[k].aggr;
		o->aggr_opt = modes[k].opt;
	}
}

/* The targets and aggregation modes that go together (as perf's). */
static void targets_check(struct argp_state *state, const struct stat_opts *o)
{
	int cpus = o->all_cpus || o->cpu_list, tasks = o->pids || o->tids;

	if (o->pids && o->tids)
		argp_error(state, "-p and -t both name the tasks to count: give one of them");
	if (cpus && tasks)
		argp_error(state, "%s counts CPUs and %s tasks: give one of them",
			   o->all_cpus ? "-a" : "-C", o->pids ? "-p" : "-t");
	if (o->aggr_opt && o->aggr != REPORT_AGGR_THREAD && !cpus)
		argp_error(state, "%s splits the counts by CPU: it needs -a or -C", o->aggr_opt);
	if (o->aggr == REPORT_AGGR_THREAD && !tasks && !o->all_cpus)
		argp_error(state, "--per-thread splits the counts by thread: it needs -p, -t or "
			   "-a");
	if (o->aggr == REPORT_AGGR_THREAD && o->cpu_list)
		argp_error(state, "--per-thread counts threads wherever they run: -C cannot "
			   "choose CPUs for it (give -a)");
	if (!o->cmd && (cpus || tasks)) {
		if (o->repeat || o->warmup)
			argp_error(state, "%s repeats a command: give one to run (e.g. '-- sleep 1')",
				   o->repeat ? "-r" : "--warmup");
		if (o->plan.mux == STAT_MUX_RUNS)
			argp_error(state, "--mux=runs counts each planned group in a run of the "
				   "command: give a repeatable command to run");
		if (o->delay_ms)
			argp_error(state, "-D delays counting after the command starts: give one "
				   "to run");
	}
}

/* perf's display options (their keys). */
static void display_opt(struct stat_opts *o, int key)
{
	switch (key) {
	case OPT_APPEND: o->append = 1; break;
	case 'B': o->big_num = 1; o->disp.no_big_num = 0; break;
	case OPT_NO_BIG_NUM: o->disp.no_big_num = 1; break;
	case OPT_NO_SCALE: o->disp.unscaled = 1; break;
	case OPT_METRIC_ONLY: o->disp.metric_only = 1; break;
	case 'q': o->quiet = 1; break;
	case OPT_NO_SUMMARY: o->disp.no_summary = 1; break;
	}
}

/* The display options that go together (as perf's, or refused where pmuprof would print
 * something other than asked). */
static void display_check(struct argp_state *state, const struct stat_opts *o)
{
	if (o->big_num && o->sep)
		argp_error(state, "-B groups the digits of the text report: -x prints plain "
			   "numbers (drop -B)");
	if (o->append && !o->output)
		argp_error(state, "--append adds the report to a file: give it with -o FILE");
	if (o->quiet && o->output)
		argp_error(state, "--quiet prints no report: -o FILE would get none (give one "
			   "of them)");
	if (o->disp.no_summary && !o->interval_ms)
		argp_error(state, "--no-summary leaves out the totals after -I's intervals: "
			   "give -I MS");
	if (o->disp.metric_only && o->aggr_opt)
		argp_error(state, "--metric-only prints the metrics summed over CPUs and tasks: "
			   "%s is not supported with it (drop one of them)", o->aggr_opt);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct stat_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->ev;
		break;
	case 'j':
		o->json = 1;
		break;
	case 'x':
		if (!*arg)
			argp_error(state, "the separator given to -x is empty");
		o->sep = arg;
		break;
	case OPT_NO_CSV_SUMMARY:
		o->no_csv_summary = 1;
		break;
	case 'o':
		o->output = arg;
		break;
	case OPT_EXPORT:
		cmd_export_opt(state, &o->exports, arg);
		break;
	case 'r':
		o->repeat = number(state, arg, "-r", 1);
		break;
	case OPT_WARMUP:
		o->warmup = number(state, arg, "--warmup", 0);
		break;
	case OPT_PREPARE:
		o->prepare = arg;
		break;
	case OPT_CLEANUP:
	case OPT_POST:
		o->cleanup = arg;
		break;
	case 'I':
		o->interval_ms = number(state, arg, "-I", 1);
		break;
	case OPT_ICOUNT:
		o->interval_count = number(state, arg, "--interval-count", 1);
		break;
	case 'M':
		add_metric(state, o, arg);
		break;
	case OPT_MUX:
		if (strcmp(arg, "kernel") && strcmp(arg, "runs"))
			argp_error(state, "--mux takes 'kernel' or 'runs', not '%s'", arg);
		o->plan.mux = strcmp(arg, "runs") ? STAT_MUX_KERNEL : STAT_MUX_RUNS;
		o->mux_given = 1;
		break;
	case OPT_NO_MUX:
		o->plan.mux = STAT_MUX_RUNS;
		o->mux_given = 1;
		break;
	case OPT_TOPDOWN:
		o->topdown = 1;
		break;
	case OPT_COUNTERS:
		o->plan.counters = (int)number(state, arg, "--counters", 1);
		if (o->plan.counters > 31)
			argp_error(state, "--counters takes 1 to 31 (PMCR_EL0.N), not %s", arg);
		break;
	case OPT_MIN_RUNNING:
		o->min_running = percent(state, arg);
		break;
	case OPT_PLAN:
		o->show_plan = 1;
		break;
	case 'a':
		o->all_cpus = 1;
		break;
	case 'C':
		o->cpu_list = arg;
		break;
	case 'p':
		o->pids = arg;
		break;
	case 't':
		o->tids = arg;
		break;
	case OPT_TIMEOUT:
		o->timeout_ms = number(state, arg, "--timeout", 1);
		break;
	case 'D':
		o->delay_ms = number(state, arg, "-D", 1);
		break;
	case 'A':
	case OPT_PER_CORE:
	case OPT_PER_CLUSTER:
	case OPT_PER_SOCKET:
	case OPT_PER_THREAD:
	case OPT_PER_DIE:
	case OPT_PER_NODE:
		aggr_mode(state, o, key);
		break;
	case OPT_NO_MERGE:
	case OPT_SUMMARY:
		break;
	case OPT_APPEND:
	case 'B':
	case OPT_NO_BIG_NUM:
	case OPT_NO_SCALE:
	case OPT_METRIC_ONLY:
	case 'q':
	case OPT_NO_SUMMARY:
		display_opt(o, key);
		break;
	case ARGP_KEY_ARG:
		/* the command and everything after it belong to the workload */
		o->cmd = &state->argv[state->next - 1];
		o->cmdc = state->argc - state->next + 1;
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!o->cmd && !o->list_metrics && !o->show_plan && !o->all_cpus && !o->cpu_list &&
		    !o->pids && !o->tids)
			argp_error(state, "no command to run (e.g. 'pmuprof stat -- ls -l'), and no "
				   "target (-a, -C, -p, -t) to count");
		/* --topdown: its many groups counted exactly, run by run, when the command can
		 * be run again; else (-I, no command) multiplexed, the values estimates */
		if (o->topdown && !o->mux_given && o->cmd && !o->interval_ms)
			o->plan.mux = STAT_MUX_RUNS;
		targets_check(state, o);
		if (o->json && o->sep)
			argp_error(state, "--json and -x both choose the format: give one of them");
		if (o->interval_ms && o->repeat)
			argp_error(state, "-I and -r cannot be combined: intervals are of one run");
		if (o->interval_count && !o->interval_ms)
			argp_error(state, "--interval-count needs -I MS");
		if (o->interval_ms && o->plan.mux == STAT_MUX_RUNS)
			argp_error(state, "-I and --mux=runs cannot be combined: intervals are of "
				   "one run");
		if (o->interval_ms && o->interval_ms < 1)
			argp_error(state, "-I needs at least 1 ms");
		display_check(state, o);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child children[] = { { &evsel_argp_long, 0, NULL, 0 }, { 0 } };

static const struct argp stat_argp = {
	options, parse_opt, "[--] COMMAND [ARGS...]\n-a|-C LIST|-p PID|-t TID [[--] COMMAND [ARGS...]]",
	"Run COMMAND and count events while it runs, its threads and children included.\v"
	"Counting starts when COMMAND is executed: pmuprof's own work is not counted. "
	"The report goes to standard error (or -o FILE); pmuprof exits with COMMAND's status "
	"(128+N when a signal N ended it, 127 when it is not found, 126 when it cannot be run, "
	"2 for pmuprof's own errors).\n\n"
	"Events: perf's names (cycles, instructions, task-clock, page-faults, "
	"L1-dcache-load-misses, ...), raw codes (r11), and PMU terms "
	"(armv8_pmuv3/event=0x11/); modifiers :u (user), :k (kernel), :h (hypervisor), "
	"group with braces: {cycles,instructions}; or the PMEVTYPER filter bits as terms "
	"(inst_retired/p=1/ counts what inst_retired:u does; see pmuprof-filters(7)). "
	"Without -e: task-clock, context-switches, cpu-migrations, page-faults, cycles, "
	"instructions, branches, branch-misses.",
	children, NULL, NULL
};

static int format_report(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	if (o->json)
		return report_json(r, fp);
	if (o->sep)
		return report_csv(r, fp, o->sep);
	return report_text(r, fp);
}

/* A report this small is rendered on the stack (most are: 6 events take 456 bytes; so are
 * most -I intervals printed as they end). */
#define REPORT_STACK 4096
#define REPORT_TEXT_STACK 2048

/* JSON or CSV to stderr, rendered in memory first: on the stack when it fits, else in
 * open_memstream's heap (its 8 KiB buffer, taken at the end of the run, was three page faults
 * a run in the arm64 guest: issue 16). */
#if defined(__GNUC__)
__attribute__((noinline))	/* its buffers on the stack only while it writes (not in the */
#endif				/* frame under which discovery runs: a page fault or two) */
static int write_mem(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	char small[REPORT_STACK], iobuf[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	long end;
	int rc;

	/* the small buffer, unless the report is surely bigger (some 100 bytes a line): then
	 * straight to the heap */
	if ((r->nevents + r->nmetrics) * (r->nunits + 1) <= 32 &&
	    (!r->nintervals || r->interval_slice) &&
	    (mem = fmemopen(small, sizeof(small), "w"))) {
		/* its own stream buffer, given before any use: fmemopen's would be 8 KiB of heap */
		rc = setvbuf(mem, iobuf, _IOFBF, sizeof(iobuf)) == 0 ? format_report(o, r, mem) : -1;
		end = rc == 0 && fflush(mem) == 0 && !ferror(mem) ? ftell(mem) : -1;
		fclose(mem);
		/* fmemopen keeps a byte for the NUL: a report that fills the rest may be cut */
		if (end >= 0 && (size_t)end < sizeof(small) - 1)
			return fwrite(small, 1, (size_t)end, fp) == (size_t)end ? 0 : -1;
	}
	if (!(mem = open_memstream(&buf, &len)))
		return format_report(o, r, fp);
	rc = format_report(o, r, mem);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && fwrite(buf, 1, len, fp) != len)
		rc = -1;
	free(buf);
	return rc;
}

/* The text report to stderr, by write(2) from a buffer on the stack, whole lines at a time when
 * it outgrows the buffer: no stream, whose functions a run would bind and whose buffer it
 * would allocate (issue 16). The buffer is smaller than write_mem's (a line is some 100
 * bytes): a run's stack then reaches no deeper than it did. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int write_text(const struct report *r)
{
	char b[REPORT_TEXT_STACK];
	struct textline l = TEXTLINE_ON_FD(STDERR_FILENO, b);
	int rc = report_text_to(r, &l);

	errno = l.err;	/* EPIPE: the reader is gone (the caller is quiet about it) */
	return rc;
}

/* Writes the report; to stderr (unbuffered) it is rendered in memory first and written at
 * once (a text report longer than write_text's buffer, whole lines at a time): one write
 * instead of dozens, and no line interleaved with another writer's. */
static int write_report(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	if (fp != stderr)
		return format_report(o, r, fp);
	if (!o->json && !o->sep)
		return write_text(r);
	return write_mem(o, r, fp);
}

/* One warning when the kernel multiplexed: how many runs would make the counts exact. */
static void mux_warn(const struct report *r, const struct stat_planned *pl)
{
	char text[640], fx[TEXTLINE_FIXED_LEN], runs[TEXTLINE_NUM_LEN];
	const char *pct, *some, *of;
	double lo = 100;
	int never = 0;

	if (!r->multiplexed)
		return;
	for (size_t k = 0; k < r->nevents; k++)
		if (r->events[k].status == REPORT_NOT_COUNTED)
			never = 1;
		else if (r->events[k].status == REPORT_COUNTED && r->events[k].counted_pct < lo)
			lo = r->events[k].counted_pct;
	/* by copying, not printf: the warning is part of a plain run that multiplexes, which then
	 * reads none of printf's pages of libc (issue 16); "%.2f" by printf only when
	 * textline_fixed cannot be sure */
	if (!(pct = textline_fixed(lo, 2, fx))) {
		snprintf(fx, sizeof(fx), "%.2f", lo);
		pct = fx;
	}
	/* an event never on a counter has no value at all, an estimate least of all (its row
	 * says "not counted", as perf's does): say so, and the share only of those counted */
	some = !never ? "some were counted only " : lo < 100 ?
		"some were never on a counter and are not counted, others counted only " :
		"some were never on a counter and are not counted";
	if (never && lo >= 100)		/* the others were counted all the time: no share */
		pct = of = "";
	else
		of = "% of the time and their values are estimates";
	if (pl->known && pl->nruns > 1)
		strjoin(text, sizeof(text), (const char *const[]){
			"the events did not fit the counters (", pl->caps, "): the kernel multiplexed "
			"them, ", some, pct, of, "; --mux=runs would count them exactly in ",
			textline_str(pl->nruns, 10, runs), " runs of the command" }, 9);
	else
		strjoin(text, sizeof(text), (const char *const[]){
			"the kernel multiplexed the events (", some, pct, of,
			"); --mux=runs counts each planned group in a run of its own" }, 5);
	msg_warn_text(text);
}

/* --min-running: an event counted for less than PCT of the time; one not counted at all
 * (not counted, not supported, not permitted) is counted 0% of it: a machine without the
 * PMU must not pass the gate. --min-running 0 passes everything. */
static int below_min(const struct stat_opts *o, const struct report *r)
{
	int below = 0;

	for (size_t k = 0; o->min_running > 0 && k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		double pct = e->status == REPORT_COUNTED ? e->counted_pct : 0;

		if (pct >= o->min_running)
			continue;
		if (below++)
			continue;
		if (e->status == REPORT_COUNTED)
			msg_error("'%s' was counted %.2f%% of the time, less than --min-running %g "
				  "(exit status %d)", e->name, pct, o->min_running,
				  STAT_EXIT_MIN_RUNNING);
		else
			msg_error("'%s' was not counted at all (%s), less than --min-running %g "
				  "(exit status %d)", e->name, report_status_str(e->status),
				  o->min_running, STAT_EXIT_MIN_RUNNING);
	}
	return below > 0;
}

/* -I printed as it happens (perf's way), to standard error in text or -x: each interval is
 * built on its own from the readings of that tick (one aggregation, as the whole report's)
 * and written as it ends; the report at the end then prints the totals after them. -j and
 * -o write one document, at the end. */
struct live {
	const struct stat_opts *o;
	const struct stat_event *rows;
	size_t nrows;
	const struct stat_build *b;
	size_t shown;		/* intervals written */
	int stopped;		/* a write or memory failed: the rest come with the totals */
};

static int live_wanted(const struct stat_opts *o)
{
	return o->interval_ms && !o->json && !o->output && !o->quiet;
}

static void live_tick(void *arg, const struct stat_counters *cs, const struct stat_ticks *t)
{
	struct live *lv = arg;
	const struct stat_opts *o = lv->o;
	struct stat_series one = { .nruns = 1 };
	struct stat_build b = *lv->b;
	struct report r = { .tool_version = PMUPROF_VERSION, .argc = o->cmdc, .argv = o->cmd,
			    .disp = o->disp, .interval_ms = o->interval_ms,
			    .csv_no_summary = o->no_csv_summary, .interval_slice = 1 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	size_t i = t->n - 1;
	int rc;

	if (lv->stopped || lv->shown != i)
		return;
	b.repeated = 0;
	b.intervals = 1;
	/* an interval's line shows a metric only per unit (-A, --per-*) or with --metric-only:
	 * else none is computed (the default set's take about 40 us an interval on an A57) */
	if (b.aggr == REPORT_AGGR_GLOBAL && !o->disp.metric_only)
		b.core = NULL;
	r.interval_base = i;
	r.interval_t0_ns = i ? t->t_ns[i - 1] : 0;
	if (stat_record_interval(&one.rd, lv->rows, cs, t, i) != 0 ||
	    stat_report_build(&r, &one, lv->rows, lv->nrows, &b) != 0) {
		lv->stopped = 1;
		goto out;
	}
	/* a reader gone (2>&1 | head) fails the write, not pmuprof: the command runs on and
	 * its status is kept. Only around the write: what pmuprof starts later (--cleanup)
	 * must not inherit SIGPIPE ignored */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	rc = write_report(o, &r, stderr);
	sigaction(SIGPIPE, &old, NULL);
	if (rc != 0)
		lv->stopped = 1;
	else
		lv->shown++;
out:
	stat_report_free(&r);
	stat_series_free(&one);
}

/* Runs the series and writes the report; returns the exit status. */
static int run(const struct stat_opts *o, struct stat_event *evs, size_t nrows,
	       struct stat_counters *cs, const struct filter_kernel_el *kel, struct outfile *of,
	       const struct metrics_core *core, const struct stat_planned *pl,
	       const struct stat_target *tgt, const struct topo *topo)
{
	struct agg_topology at = { 0 };
	struct topo_ids ids = { 0 };
	struct stat_series_cfg sc = { o->cmd, o->repeat, o->warmup, o->prepare, o->cleanup,
				      o->interval_ms, o->interval_count, o->plan.mux, pl->nruns,
				      (o->sep || o->json) && !o->output,
				      stat_target_any(tgt) ? tgt : NULL, o->timeout_ms,
				      o->delay_ms, NULL, NULL };
	struct stat_series s = { 0 };
	struct stat_ticks ticks = { 0 };
	struct workload_result res = { 0 };
	struct report r = { .tool_version = PMUPROF_VERSION, .argc = o->cmdc, .argv = o->cmd };
	struct stat_build b = { .repeated = o->repeat > 0, .core = core,
				.metrics = o->metrics, .nmetrics = o->nmetrics,
				.runs_mode = o->plan.mux == STAT_MUX_RUNS, .aggr = o->aggr,
				.tgt = stat_target_any(tgt) ? tgt : NULL,
				.no_scale = o->disp.unscaled, .counters = cs };
	char why[256] = "", started[32] = "?\n", mcore[80], how[224];
	int count_stop = 0, e, rc;
	struct outfile xf[EXPORT_MAX] = { { 0 } };
	time_t now;
	struct live lv = { .o = o, .rows = evs, .nrows = nrows, .b = &b };

	if (live_wanted(o)) {
		sc.on_tick = live_tick;
		sc.tick_arg = &lv;
	}
	if (topo->ncpus) {	/* --per-core, --per-cluster, --per-socket, --per-die, --per-node */
		topo_agg(topo, &at);
		ids = (struct topo_ids){ topo->ncpus, topo->socket, topo->die, topo->cluster,
					 topo->core };
		b.topo = &at;
		b.ids = &ids;
	}
	/* ctime reads the time zone, a file: only when it is used; time() only then too (its
	 * page of libc is a page fault a run) */
	if (o->append && !o->json && (now = time(NULL)) != (time_t)-1)
		ctime_r(&now, started);
	if (cmd_export_open(&o->exports, xf) != 0)	/* refused before the command runs */
		return PP_EXIT_ERROR;
	rc = stat_series_run(&sc, evs, cs, &s, &ticks, &res, &count_stop, why, sizeof(why));
	if (!s.nruns) {
		export_discard(&o->exports, xf);
		stat_series_free(&s);
		stat_ticks_free(&ticks);
		return rc ? rc : PP_EXIT_ERROR;
	}
	b.intervals = o->interval_ms > 0;
	if (stat_report_build(&r, &s, evs, nrows, &b) != 0) {
		msg_error("out of memory");
		rc = PP_EXIT_ERROR;
		goto out;
	}
	/* only JSON shows host facts; /proc/cpuinfo is slow to read on x86 */
	if (o->json || export_has(&o->exports, EXPORT_JSON))
		report_host_fill(&r.host);
	r.host.kernel_el = kel->el;
	r.host.kernel_el_source = kel->why;
	r.exit_code = res.exit_code;
	r.term_signal = res.term_signal;
	r.interrupted = res.interrupted;
	r.timeout_ms = o->timeout_ms;
	r.timed_out = s.timed_out;
	if (stat_target_any(tgt)) {
		r.target = tgt->desc;
		r.system_wide = tgt->cpus != NULL;
	}
	r.repeat = o->repeat;
	r.warmup = o->warmup;
	r.stopped = *why ? why : NULL;
	r.interval_ms = o->interval_ms;
	r.csv_no_summary = o->no_csv_summary;
	r.disp = o->disp;
	r.interval_stop = count_stop ? "interval-count" : NULL;
	r.metrics_core = metrics_core_id(core, mcore, sizeof(mcore));
	if (o->topdown) {
		r.topdown_group = o->topdown_group;
		r.topdown_set = core->set;
		if (o->td && !o->td->first)
			snprintf(how, sizeof(how), "stage 1 alone in %zu run%s, then it and %s in %zu "
				 "run%s of the command (--mux=runs), each count exact", o->td->runs,
				 o->td->runs == 1 ? "" : "s", o->td->ndominant ?
				 (o->td->ndominant == 1 ? "the groups under its dominant node" :
				  "the groups under its dominant nodes") :
				 "every group under it (no node had a share)", pl->nruns,
				 pl->nruns == 1 ? "" : "s");
		else if (o->plan.mux == STAT_MUX_RUNS && pl->nruns > 1)
			snprintf(how, sizeof(how), "%zu runs of the command (--mux=runs), each count "
				 "exact", pl->nruns);
		else
			snprintf(how, sizeof(how), "one run%s", r.multiplexed || pl->nruns > 1 ?
				 ", multiplexed: the values are estimates" : ", each count exact");
		r.topdown_how = how;
	}
	r.metric_requests = o->metrics;
	r.nmetric_requests = o->nmetrics;
	r.mux = o->plan.mux == STAT_MUX_RUNS ? "runs" : "kernel";
	r.mux_runs = o->plan.mux == STAT_MUX_RUNS ? pl->nruns : 1;
	r.runs_for_exact = pl->known ? pl->nruns : 0;
	/* the command's status; 0 when --timeout ended it (as perf), or with no command */
	if (!rc && !(s.timed_out && res.term_signal == SIGTERM) && o->cmd)
		rc = res.term_signal ? 128 + res.term_signal : res.exit_code;
	if (o->td && o->td->first) {
		o->td->ran = 1;
		o->td->runs = pl->nruns;
		/* interrupted: this pass's report is what there is, and there is no second */
		o->td->stop = r.interrupted;
		if (!r.interrupted) {
			if (metrics_topdown_next(&r, &o->td->next, &o->td->nnext,
						 &o->td->ndominant) != 0) {
				msg_error("out of memory");
				rc = PP_EXIT_ERROR;
			}
			goto out;
		}
	}
	mux_warn(&r, pl);
	if (below_min(o, &r))
		rc = STAT_EXIT_MIN_RUNNING;
	/* the command has ended: a closed report stream (pmuprof stat ... 2>&1 | head -1) must
	 * not kill pmuprof with SIGPIPE and lose the command's status; the write fails instead
	 * (sigaction, not signal(): one libc function fewer for the loader to bind) */
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL);
	/* perf's line before each report it appends (ctime ends it); JSON documents follow each
	 * other bare, a stream jq -s reads whole */
	if (o->append && !o->json)
		fprintf(of->fp, "# started on %s\n", started);
	r.interval_from = lv.shown;	/* live -I: the intervals written as they ended */
	if (o->quiet)
		;	/* --quiet: no report */
	else if (write_report(o, &r, of->fp ? of->fp : stderr) != 0 && !of->fp && errno != EPIPE)
		msg_error("cannot write the report: %s", strerror(errno));
	r.interval_from = 0;	/* exports are whole */
	if (of->fp && (e = outfile_commit(of)) != 0) {
		msg_error("cannot write report file '%s': %s", o->output, strerror(e));
		if (rc == 0)
			rc = PP_EXIT_ERROR;
	}
	if (cmd_export_commit(&o->exports, xf, &r) != 0 && rc == 0)
		rc = PP_EXIT_ERROR;
out:
	export_discard(&o->exports, xf);	/* what was not committed */
	stat_report_free(&r);
	stat_series_free(&s);
	stat_ticks_free(&ticks);
	return rc;
}

static void free_events(struct stat_event *evs, size_t n)
{
	for (size_t k = 0; evs && k < n; k++)
		resolve_event_free(&evs[k].sel.ev);
	free(evs);
}

/* Options -> the events to count (perf stat's default set without -e), resolved in ctx,
 * which the plan goes on using; -1 after a message. */
static int select_events(struct stat_opts *o, struct resolve_ctx *ctx, struct stat_event **evs,
			 size_t *n, struct filter_kernel_el *kel)
{
	struct evsel_event *sel;
	const char **p;

	if (!o->ev.nspecs) {
		if (!(p = malloc(sizeof(*p)))) {
			msg_error("out of memory");
			return -1;
		}
		p[0] = o->all_cpus || o->cpu_list ? default_events_cpus : default_events;
		o->ev.specs = p;
		o->ev.nspecs = 1;
	}
	if (evsel_select(&o->ev, ctx, 0, "count", &sel, n, kel) != 0)
		return -1;
	if (!(*evs = calloc(*n + 1, sizeof(**evs)))) {
		evsel_free(sel, *n);
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < *n; k++)		/* the names move with the events */
		(*evs)[k].sel = sel[k];
	free(sel);
	return 0;
}

/* Hundreds of events need as many descriptors: the soft limit is raised to fit; beyond the
 * hard limit, a message. -1 after it. */
static int reserve_fds(size_t n)
{
	unsigned long long hard, need;

	if (counter_reserve_fds(n, &hard, &need) == PP_OK)
		return 0;
	msg_error("cannot open %zu counters: the hard limit on open files is %llu, %llu are "
		  "needed (as root, 'ulimit -Hn %llu' raises it; or count fewer events)", n, hard,
		  need, need);
	return -1;
}

static int needs_topology(enum report_aggr a)
{
	return a == REPORT_AGGR_CORE || a == REPORT_AGGR_CLUSTER || a == REPORT_AGGR_SOCKET ||
	       a == REPORT_AGGR_DIE || a == REPORT_AGGR_NODE;
}

/* The CPUs or tasks -a, -C, -p, -t name; -1 after a message. */
static int targets(const struct stat_opts *o, struct stat_target *t)
{
	if (o->all_cpus && o->aggr == REPORT_AGGR_THREAD)	/* as perf: each thread */
		return stat_target_all_tasks(t);
	if (o->cpu_list || o->all_cpus)
		return stat_target_cpus(t, o->cpu_list);
	if (o->pids || o->tids)
		return stat_target_tasks(t, o->pids ? o->pids : o->tids, o->pids != NULL);
	return 0;
}

/* One pass of stat: o's events (with -M's) selected, planned, counted and reported. The
 * user's -e list is left as it was (-M's specs go to a copy), so that --topdown can make
 * another pass. */
static int stat_pass(struct stat_opts *o, struct resolve_ctx *ctx, struct metrics_core *core)
{
	struct stat_event *evs = NULL;
	struct stat_counters cs = { 0 };
	struct outfile of = { 0 };
	struct filter_kernel_el kel;
	char **metric_specs = NULL;
	struct stat_planned planned = { 0 };
	struct stat_target tgt = { 0 };
	struct topo topo = { 0 };
	char *fixture_cpus = NULL;	/* the events' fixture note when a fixture names the CPUs */
	const char **user_specs = o->ev.specs;
	size_t user_n = o->ev.nspecs;
	pp_status st;
	size_t nrows = 0;
	int rc = PP_EXIT_ERROR, e = 0;

	o->ev.specs = NULL;
	if (user_n && !(o->ev.specs = malloc(user_n * sizeof(*o->ev.specs)))) {
		msg_error("out of memory");
		goto out;
	}
	if (user_n)
		memcpy(o->ev.specs, user_specs, user_n * sizeof(*o->ev.specs));
	if (o->nmetrics && !(metric_specs = calloc(o->nmetrics, sizeof(*metric_specs)))) {
		msg_error("out of memory");
		goto out;
	}
	if (stat_metrics_add_specs(&o->ev, o->metrics, o->nmetrics, core, metric_specs) != 0 ||
	    select_events(o, ctx, &evs, &nrows, &kel) != 0)
		goto out;
	if (!o->nmetrics && stat_metrics_wanted(evs, nrows))
		stat_metrics_core(o->ev.cpu_model, ctx, core);
	if (targets(o, &tgt) != 0)
		goto out;
	if (stat_split(&cs, evs, nrows, ctx, &tgt) != 0) {
		msg_error("out of memory");
		goto out;
	}
	if (stat_plan(&cs, evs, ctx, &o->plan, &planned) != 0)
		goto out;
	if (o->show_plan) {
		rc = stat_plan_show(&cs, evs, &planned, &o->plan, stdout) ? PP_EXIT_ERROR : 0;
		goto out;
	}
	/* a fixture tree's CPUs are another machine's: nothing is opened on them (software
	 * events included), the report says why */
	if (tgt.cpus && *sysfs_root()) {
		if (asprintf(&fixture_cpus, "its CPUs come from the fixture tree %s "
			     "(PMUPROF_SYSFS_ROOT), not this machine", sysfs_root()) < 0) {
			fixture_cpus = NULL;
			msg_error("out of memory");
			goto out;
		}
		for (size_t k = 0; k < cs.n; k++)
			if (!cs.c[k].fixture)
				cs.c[k].fixture = fixture_cpus;
	}
	/* on CPUs (-a, -C) an event counts whatever runs there: no presence to measure */
	if ((!tgt.cpus && stat_presence(&cs, evs) != 0) ||
	    (stat_target_any(&tgt) &&
	     stat_target_expand(&cs, evs, &tgt, planned.known && planned.nruns == 1) != 0)) {
		msg_error("out of memory");
		goto out;
	}
	if (reserve_fds(cs.n) != 0)
		goto out;
	if (o->output && (e = o->append ? outfile_open_append(&of, o->output) :
			  outfile_open(&of, o->output)) == EISDIR) {
		msg_error("cannot write report file '%s': it names a directory (give -o the "
			  "path of a file)", o->output);
		goto out;
	}
	if (o->output && e != 0) {
		msg_error("cannot write report file '%s': %s (choose a writable path for -o)",
			  o->output, strerror(e));
		goto out;
	}
	if (needs_topology(o->aggr) && (st = topo_read(&topo)) != PP_OK) {
		msg_error("%s needs the CPU topology, which cannot be read from "
			  "/sys/devices/system/cpu (%s): -A gives one row per CPU instead",
			  o->aggr_opt, pp_strstatus(st));
		goto out;
	}
	rc = run(o, evs, nrows, &cs, &kel, &of, core, &planned, &tgt, &topo);
	if (of.fp)
		outfile_discard(&of);	/* the run failed, or was a first pass: nothing kept */
out:
	free_events(evs, nrows);
	stat_counters_free(&cs);
	for (size_t k = 0; metric_specs && k < o->nmetrics; k++)
		free(metric_specs[k]);
	free(metric_specs);
	free(o->ev.specs);	/* the copy, or select_events' default list */
	o->ev.specs = user_specs;
	o->ev.nspecs = user_n;
	stat_target_free(&tgt);
	topo_free(&topo);
	free(fixture_cpus);
	stat_planned_free(&planned);
	return rc;
}

/* --topdown's first pass (stage 1 alone), then its -M list made the second's: stage 1 and
 * the groups under the dominant nodes, or every group under it when no node had a share.
 * -1 to go on; else the status to end with: the first pass failed (its message said why),
 * or was interrupted (its report is written, and the status is the command's). */
static int topdown_first(struct stat_opts *o, struct resolve_ctx *ctx,
			 struct metrics_core *core, struct topdown_pass *td)
{
	struct stat_opts first = *o;
	int rc;

	td->first = 1;
	first.td = td;
	first.repeat = 0;	/* stage 1 once: it only chooses the groups */
	first.warmup = 0;
	rc = stat_pass(&first, ctx, core);
	o->ev = first.ev;	/* the same list (stat_pass puts it back) */
	td->first = 0;
	if (td->stop)
		return rc;
	if (!td->ran)
		return rc ? rc : PP_EXIT_ERROR;
	for (size_t k = 0; k < td->nnext; k++)
		if (metrics_names_add_once(&o->metrics, &o->nmetrics, td->next[k]) != 0) {
			msg_error("out of memory");
			return PP_EXIT_ERROR;
		}
	if (!td->ndominant &&
	    stat_metrics_topdown(core, &o->metrics, &o->nmetrics, &o->topdown_group, 1) != 0)
		return PP_EXIT_ERROR;
	o->td = td;
	return -1;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct metrics_core core = { 0 };
	struct topdown_pass td = { 0 };
	struct resolve_ctx ctx;
	int rc = PP_EXIT_ERROR, have_ctx = 0, two;

	argp_trim_parse(&stat_argp, argc, argv, ARGP_IN_ORDER, &o);
	msg_set_quiet(o.quiet);
	if (o.json && msg_json_ready() != 0)
		goto out;
	if (evsel_ctx_init(&o.ev, &ctx) != 0)
		goto out;
	have_ctx = 1;
	/* -M needs the core before the events; else only when an event can be an input */
	if (o.list_metrics || o.nmetrics || o.topdown)
		stat_metrics_core(o.ev.cpu_model, &ctx, &core);
	/* --topdown counts stage 1 first, then the groups under its dominant nodes, where the
	 * command runs again run by run; else (-I, no command, --mux=kernel, --plan) all of
	 * them at once */
	two = o.topdown && o.plan.mux == STAT_MUX_RUNS && o.cmd && !o.interval_ms &&
	      !o.show_plan;
	if (o.topdown && stat_metrics_topdown(&core, &o.metrics, &o.nmetrics,
					      &o.topdown_group, !two) != 0)
		goto out;
	if (o.list_metrics) {
		rc = stat_metrics_list(&core);
		goto out;
	}
	if (two && (rc = topdown_first(&o, &ctx, &core, &td)) >= 0)
		goto out;
	rc = stat_pass(&o, &ctx, &core);
out:
	if (have_ctx)
		resolve_ctx_free(&ctx);
	evsel_opts_free(&o.ev);
	free(o.metrics);
	free(td.next);
	return rc;
}
