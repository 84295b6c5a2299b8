/* SPDX-License-Identifier: Apache-2.0 */
/* stat_opts.c: the options of `pmuprof stat`, parsed and checked against each other (the
 * combinations perf refuses, and those pmuprof cannot honour). */
#include <argp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argp_hint.h"
#include "cmd.h"
#include "cmd_export.h"
#include "cmd_opts.h"
#include "evsel.h"
#include "metrics.h"
#include "stat_cmd.h"

enum { OPT_WARMUP = 0x300, OPT_TOPDOWN, OPT_PREPARE, OPT_CLEANUP, OPT_ICOUNT, OPT_MUX, OPT_NO_MUX,
       OPT_COUNTERS, OPT_MIN_RUNNING, OPT_PLAN, OPT_NO_CSV_SUMMARY, OPT_PER_CORE,
       OPT_PER_CLUSTER, OPT_PER_SOCKET, OPT_PER_THREAD, OPT_TIMEOUT, OPT_PER_DIE,
       OPT_PER_NODE, OPT_NO_MERGE, OPT_APPEND, OPT_NO_BIG_NUM, OPT_NO_SCALE, OPT_METRIC_ONLY,
       OPT_POST, OPT_SUMMARY, OPT_NO_SUMMARY, OPT_EXPORT, OPT_NAME, OPT_ALL_USER,
       OPT_ALL_KERNEL, OPT_LOG_FD, OPT_CPUTYPE, OPT_PER_CACHE, OPT_CONTROL, OPT_REGIONS };

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Report as one JSON document (schema: pmuprof-json(5))", 0 },
	{ "field-separator", 'x', "SEP", 0,
	  "Report as separated values in perf stat -x's field order", 0 },
	{ "no-csv-summary", OPT_NO_CSV_SUMMARY, NULL, 0,
	  "With -x and -I: no 'summary' time field on the totals (perf's option)", 0 },
	{ "output", 'o', "FILE", 0,
	  "Write the report to FILE (atomically) instead of standard error", 0 },
	{ "log-fd", OPT_LOG_FD, "N", 0,
	  "Write the report to file descriptor N, open for writing (3>FILE, 3>>FILE), instead "
	  "of standard error", 0 },
	{ "verbose", 'v', NULL, 0,
	  "Print each event's encoding, and after each run every counter's reading (value, "
	  "enabled, running) or why it was not counted, on standard error", 0 },
	{ "export", OPT_EXPORT, "FORMAT:FILE", 0,
	  "Also write the report to FILE in FORMAT (text, json, csv, bmf, github-benchmark, "
	  "openmetrics, markdown), atomically after the run; repeatable", 0 },
	{ "name", OPT_NAME, "NAME", 0,
	  "Name the benchmark NAME in JSON, bmf and github-benchmark (default: the command's "
	  "basename and arguments)", 0 },
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
	{ "detailed", 'd', NULL, 0,
	  "Also count the caches' events, as perf's -d: the L1 data cache and the last level; "
	  "-dd adds the L1 instruction cache and TLBs, -ddd prefetches, L2 and table walks "
	  "(Arm's common events the cores have; perf's generic ones without an Arm core)", 3 },
	{ "null", 'n', NULL, 0,
	  "Count no event: report the elapsed, user and system time only", 3 },
	{ "all-user", OPT_ALL_USER, NULL, 0,
	  "Count every event in user space only, as if each had the :u modifier", 3 },
	{ "all-kernel", OPT_ALL_KERNEL, NULL, 0,
	  "Count every event in the kernel only, as if each had the :k modifier", 3 },
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
	{ "cgroup", 'G', "CGROUP[,CGROUP...]", 0,
	  "With -a or -C: count the events named before it only in these cgroups, in order "
	  "(one cgroup alone: all of them; an empty name: every task)", 5 },
	{ "for-each-cgroup", STAT_OPT_FOR_EACH_CGROUP, "CGROUPS", 0,
	  "With -a or -C: count every event in each cgroup named, or matched by a regular "
	  "expression on its path (comma-separated)", 5 },
	{ "timeout", OPT_TIMEOUT, "MS", 0,
	  "Stop counting after MS milliseconds (COMMAND is sent SIGTERM)", 5 },
	{ "delay", 'D', "MS", 0,
	  "Start counting MS milliseconds after COMMAND starts; -1: start with the counters "
	  "disabled, until an 'enable' on the --control channel", 5 },
	{ "cputype", OPT_CPUTYPE, "PMU|CORE", 0,
	  "Count on one core type only (big.LITTLE): the Arm PMU named (armv8_cortex_a55) or "
	  "its core (cortex-a55); with -a or -C, on its CPUs only", 5 },
	{ "control", OPT_CONTROL, "fd:CTL[,ACK]|fifo:CTL[,ACK]", 0,
	  "perf's control channel: the commands enable, disable, ping, stop (and begin NAME, "
	  "end NAME) read from CTL, each answered with 'ack' on ACK", 5 },
	{ "regions", OPT_REGIONS, NULL, 0,
	  "Count the regions COMMAND marks (pmuprof/region.h, pmuprof-regions(7)) through "
	  "inherited pipes named in its environment (PMUPROF_CTL_FD, PMUPROF_ACK_FD)", 5 },
	{ "no-inherit", 'i', NULL, 0,
	  "Count COMMAND's own threads only, not the processes it forks (nor, with -p and "
	  "-t, the tasks' new threads)", 5 },
	{ "no-aggr", 'A', NULL, 0, "With -a or -C: one row per CPU", 6 },
	{ "per-core", OPT_PER_CORE, NULL, 0, "With -a or -C: one row per core", 6 },
	{ "per-cluster", OPT_PER_CLUSTER, NULL, 0, "With -a or -C: one row per cluster", 6 },
	{ "per-cache", OPT_PER_CACHE, "LEVEL", OPTION_ARG_OPTIONAL,
	  "With -a or -C: one row per cache instance of LEVEL (L1 to L4; default: each CPU's "
	  "highest level), by the cache ids in sysfs", 6 },
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

/* --control fd:CTL[,ACK] or fifo:CTL[,ACK]. */
static void control_opt(struct argp_state *state, struct stat_opts *o, const char *arg)
{
	const char *why;

	if (stat_ctl_parse(&o->ctl, arg, &why) != 0)
		argp_error(state, "--control '%s': %s", arg, why);
}

/* A share of time, 0 to 100, for --min-running: '50' or '50%' (as diff's --threshold). */
static double percent(struct argp_state *state, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end != arg && *end == '%')
		end++;
	if (!*arg || *end || !(v >= 0 && v <= 100))
		argp_error(state, "--min-running takes a percentage from 0 to 100 (50 or 50%%), "
			   "not '%s'", arg);
	return v;
}

/* -M list asks for the list of metrics; -M NAME is kept (checked once the core is known). */
static void add_metric(struct argp_state *state, struct stat_opts *o, char *arg)
{
	const char *what;
	int col;

	if (!strcmp(arg, "list")) {
		o->list_metrics = 1;
		return;
	}
	/* refused as -e refuses an event list with an empty name: after the parse, in the
	 * same words (the first bad list) */
	if ((what = metrics_names_check(arg, &col))) {
		if (!o->bad_metrics)
			snprintf(o->metrics_why, sizeof(o->metrics_why),
				 "%s at column %d", what, col);
		o->bad_metrics = o->bad_metrics ? o->bad_metrics : arg;
		return;
	}
	/* perf's -M a,b: each name (the argument is ours to cut) */
	if (metrics_names_add(arg, &o->metrics, &o->nmetrics) != 0)
		argp_failure(state, PP_EXIT_ERROR, 0, "out of memory");
}

/* --per-cache's level, as perf spells it: L1 to L4 (or l1 to l4). */
static int cache_level(struct argp_state *state, const char *arg)
{
	if ((arg[0] != 'L' && arg[0] != 'l') || arg[1] < '1' || arg[1] > '4' || arg[2])
		argp_error(state, "--per-cache takes a cache level from L1 to L4 (e.g. "
			   "--per-cache=L3), not '%s'", arg);
	return arg[1] - '0';
}

/* -A, --per-core, ...: one of them. */
static void aggr_mode(struct argp_state *state, struct stat_opts *o, int key)
{
	static const struct { int key; enum report_aggr aggr; const char *opt; } modes[] = {
		{ 'A', REPORT_AGGR_CPU, "-A" },
		{ OPT_PER_CORE, REPORT_AGGR_CORE, "--per-core" },
		{ OPT_PER_CLUSTER, REPORT_AGGR_CLUSTER, "--per-cluster" },
		{ OPT_PER_CACHE, REPORT_AGGR_CACHE, "--per-cache" },
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

/* perf's display options; ARGP_ERR_UNKNOWN for another key. */
static error_t display_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state)
{
	(void)arg;
	(void)state;
	switch (key) {
	case OPT_APPEND: o->append = 1; break;
	case 'B': o->big_num = 1; o->disp.no_big_num = 0; break;
	case OPT_NO_BIG_NUM: o->disp.no_big_num = 1; break;
	case OPT_NO_SCALE: o->disp.unscaled = 1; break;
	case OPT_METRIC_ONLY: o->disp.metric_only = 1; break;
	case 'q': o->quiet = 1; break;
	case 'v': o->verbose = 1; break;
	case OPT_NO_SUMMARY: o->disp.no_summary = 1; break;
	case OPT_NO_MERGE:	/* accepted for perf's sake */
	case OPT_SUMMARY:	/* pmuprof's default */
		break;
	default: return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Where the report goes and in which format; ARGP_ERR_UNKNOWN for another key. */
static error_t output_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'j':
		o->json = 1;
		break;
	case OPT_LOG_FD:
		o->log_fd = (int)cmd_number(state, arg, "--log-fd", 1, CMD_NUMBER_MAX);
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
	case OPT_NAME:
		if (!*arg)
			argp_error(state, "--name is empty (give the benchmark a name, e.g. --name "
				   "'sort 1k')");
		o->name = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* How the command is run: repeated, hooked, read at intervals, timed; ARGP_ERR_UNKNOWN for
 * another key. */
static error_t run_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'r':
		o->repeat = cmd_number(state, arg, "-r", 1, CMD_NUMBER_MAX);
		break;
	case OPT_WARMUP:
		o->warmup = cmd_number(state, arg, "--warmup", 0, CMD_NUMBER_MAX);
		break;
	case OPT_PREPARE:
		o->prepare = arg;
		break;
	case OPT_CLEANUP:
	case OPT_POST:
		o->cleanup = arg;
		break;
	case 'I':
		o->interval_ms = cmd_number(state, arg, "-I", 1, CMD_NUMBER_MAX);
		break;
	case OPT_ICOUNT:
		o->interval_count = cmd_number(state, arg, "--interval-count", 1, CMD_NUMBER_MAX);
		break;
	case OPT_TIMEOUT:
		o->timeout_ms = cmd_number(state, arg, "--timeout", 1, CMD_NUMBER_MAX);
		break;
	case 'D':
		if (!strcmp(arg, "-1"))
			o->ctl.start_disabled = 1;	/* perf's: until "enable" */
		else
			o->delay_ms = cmd_number(state, arg, "-D", 1, CMD_NUMBER_MAX);
		break;
	case OPT_CONTROL:
		control_opt(state, o, arg);
		break;
	case OPT_REGIONS:
		o->regions = 1;
		break;
	case 'i':
		o->no_inherit = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* What is counted and how it is planned: -M, --topdown, --mux, --counters, --plan;
 * ARGP_ERR_UNKNOWN for another key. */
static error_t plan_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state)
{
	switch (key) {
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
		/* PMCR_EL0.N is 5 bits: 31 general counters at most */
		o->plan.counters = (int)cmd_number(state, arg, "--counters", 1, 31);
		break;
	case 'd':
		o->detailed++;
		break;
	case 'n':
		o->null_run = 1;
		break;
	case OPT_ALL_USER:
	case OPT_ALL_KERNEL:
		if (o->ev.all_levels && o->ev.all_levels != (key == OPT_ALL_USER ? EVSPEC_MOD_U :
							     EVSPEC_MOD_K))
			argp_error(state, "--all-user and --all-kernel both choose the levels "
				   "counted: give one of them");
		o->ev.all_levels = key == OPT_ALL_USER ? EVSPEC_MOD_U : EVSPEC_MOD_K;
		break;
	case OPT_MIN_RUNNING:
		o->min_running = percent(state, arg);
		break;
	case OPT_PLAN:
		o->show_plan = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* perf's targets and aggregation modes; ARGP_ERR_UNKNOWN for another key. */
static error_t target_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'a':
		o->all_cpus = 1;
		break;
	case 'C':
		o->cpu_list = arg;
		break;
	case OPT_CPUTYPE:
		if (!*arg)
			argp_error(state, "--cputype is empty (give a PMU or a core, e.g. "
				   "--cputype cortex-a55)");
		o->cputype = arg;
		break;
	case OPT_PER_CACHE:
		o->cache_level = arg ? cache_level(state, arg) : 0;
		aggr_mode(state, o, key);
		break;
	case 'p':
		o->pids = arg;
		break;
	case 't':
		o->tids = arg;
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
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Each group of options has its parser; the first that knows a key takes it. */
static error_t (*const groups[])(struct stat_opts *, int, char *, struct argp_state *) = {
	output_opt, run_opt, plan_opt, target_opt, display_opt, stat_cgroup_opt,
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct stat_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->ev;
		return 0;
	case ARGP_KEY_ARG:
		/* the command and everything after it belong to the workload */
		o->cmd = &state->argv[state->next - 1];
		o->cmdc = state->argc - state->next + 1;
		state->next = state->argc;
		return 0;
	case ARGP_KEY_END:
		stat_opts_check(state, o);
		return 0;
	}
	for (size_t k = 0; k < sizeof(groups) / sizeof(groups[0]); k++)
		if (groups[k](o, key, arg, state) != ARGP_ERR_UNKNOWN)
			return 0;
	return ARGP_ERR_UNKNOWN;
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

void stat_opts_parse(int argc, char **argv, struct stat_opts *o)
{
	argp_hint_parse(&stat_argp, argc, argv, ARGP_IN_ORDER, o);
}
