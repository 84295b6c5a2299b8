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
#include "stat_cmd.h"

/* perf stat's default set; on CPUs (-a, -C), cpu-clock stands for task-clock, as in perf. */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";
static const char default_events_cpus[] =
	"cpu-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";


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
	struct stat_live lv = { .o = o, .rows = evs, .nrows = nrows, .b = &b };

	if (stat_live_wanted(o)) {
		sc.on_tick = stat_live_tick;
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
	stat_output_mux_warn(&r, pl);
	if (stat_output_below_min(o, &r))
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
	else if (stat_output_write(o, &r, of->fp ? of->fp : stderr) != 0 && !of->fp && errno != EPIPE)
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

	stat_opts_parse(argc, argv, &o);
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
