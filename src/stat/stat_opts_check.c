/* SPDX-License-Identifier: Apache-2.0 */
/* stat_opts_check.c: the combinations of `pmuprof stat`'s options that perf refuses, and
 * those pmuprof cannot honour, checked once all options are read. */
#include <argp.h>

#include "cmd_export.h"
#include "stat_cmd.h"

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
		if (o->delay_ms || o->ctl.start_disabled)
			argp_error(state, "-D delays counting after the command starts: give one "
				   "to run");
		if (o->regions)
			argp_error(state, "--regions counts the regions a command marks: give one "
				   "to run");
	}
}

/* perf's common options that choose what is counted, and how they go together. */
static void perf_opts_check(struct argp_state *state, const struct stat_opts *o)
{
	const char *with = o->ev.nspecs ? "-e" : o->nmetrics || o->list_metrics ? "-M" :
			   o->topdown ? "--topdown" : o->detailed ? "-d" : NULL;

	if (o->null_run && with)
		argp_error(state, "-n counts no event, only the times: %s gives events to count "
			   "(give one of them)", with);
	if (o->no_inherit && (o->all_cpus || o->cpu_list))
		argp_error(state, "-i leaves out the processes a task forks: %s counts every task "
			   "on its CPUs, forked or not (drop -i)", o->all_cpus ? "-a" : "-C");
}

/* The display options that go together (as perf's, or refused where pmuprof would print
 * something other than asked). */
static void display_check(struct argp_state *state, const struct stat_opts *o)
{
	if (o->big_num && o->sep)
		argp_error(state, "-B groups the digits of the text report: -x prints plain "
			   "numbers (drop -B)");
	if (o->append && !o->output && !o->log_fd)
		argp_error(state, "--append adds the report to a file: give it with -o FILE (or "
			   "--log-fd N)");
	if (o->output && o->log_fd)
		argp_error(state, "-o and --log-fd both say where the report goes: give one of "
			   "them");
	if (o->quiet && (o->output || o->log_fd))
		argp_error(state, "--quiet prints no report: %s would get none (give one of "
			   "them)", o->output ? "-o FILE" : "--log-fd N");
	if (o->quiet && o->verbose)
		argp_error(state, "--quiet and -v ask for less and for more: give one of them");
	if (o->disp.no_summary && !o->interval_ms)
		argp_error(state, "--no-summary leaves out the totals after -I's intervals: "
			   "give -I MS");
	/* the same rule as --no-summary's: an option that would change nothing is refused */
	if (o->no_csv_summary && (!o->interval_ms ||
				  (!o->sep && !export_has(&o->exports, EXPORT_CSV))))
		argp_error(state, "--no-csv-summary leaves out the 'summary' field of the totals "
			   "-x prints after -I's intervals: give -x SEP (or --export csv:FILE) "
			   "and -I MS");
	if (o->disp.metric_only && o->aggr_opt)
		argp_error(state, "--metric-only prints the metrics summed over CPUs and tasks: "
			   "%s is not supported with it (drop one of them)", o->aggr_opt);
}

/* The options as a whole, once all are read. */
void stat_opts_check(struct argp_state *state, struct stat_opts *o)
{
	if (!o->cmd && !o->list_metrics && !o->show_plan && !o->all_cpus && !o->cpu_list &&
	    !o->pids && !o->tids)
		argp_error(state, "no command to run (e.g. 'pmuprof stat -- ls -l'), and no "
			   "target (-a, -C, -p, -t) to count");
	/* --topdown: its many groups counted exactly, run by run, when the command can be run
	 * again; else (-I, no command) multiplexed, the values estimates */
	if (o->topdown && !o->mux_given && o->cmd && !o->interval_ms)
		o->plan.mux = STAT_MUX_RUNS;
	targets_check(state, o);
	stat_cgroup_check(state, o);
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
	if (o->regions && o->ctl.mode)
		argp_error(state, "--regions and --control both give the command's channel: give "
			   "one of them (--control's channel takes begin and end too)");
	if (o->regions)
		o->ctl.mode = STAT_CTL_REGIONS;
	display_check(state, o);
	cmd_export_output(state, &o->exports, o->output);
	perf_opts_check(state, o);
}
