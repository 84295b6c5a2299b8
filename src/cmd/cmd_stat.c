/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_stat.c: `pmuprof stat`'s pipeline: specs -> rows (evsel) -> counters, planned
 * (stat_split, stat_plan, stat_target) -> runs of the command, each counter opened, read and
 * recorded as readings (stat_series) -> one report (stat_report) -> written and exported
 * (stat_output). Its options are stat_opts.c's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "cmd_export.h"
#include "counter.h"
#include "evsel.h"
#include "metrics.h"
#include "outfile.h"
#include "report.h"
#include "resolve.h"
#include "stat.h"
#include "stat_cmd.h"
#include "sysfs.h"
#include "topo.h"
#include "workload.h"

/* perf stat's default set; on CPUs (-a, -C), cpu-clock stands for task-clock, as in perf. */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";
static const char default_events_cpus[] =
	"cpu-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";

/* What one pass of stat makes, stage by stage; pass_free frees it all. */
struct pass {
	struct stat_opts *o;
	struct metrics_core *core;
	const char **user_specs;	/* the user's -e list, put back at the end */
	size_t user_n;
	char **metric_specs;		/* -M's events, as specs */
	struct filter_kernel_el kel;
	struct stat_event *rows;	/* selected */
	size_t nrows;
	struct stat_target tgt;
	struct stat_cgroups cg;		/* -G, --for-each-cgroup */
	struct stat_counters cs;	/* made and planned */
	struct stat_planned planned;
	char *fixture_cpus;		/* the counters' fixture note when a fixture names the CPUs */
	struct topo topo;		/* --per-core, --per-socket, ... */
	struct agg_topology at;
	struct topo_ids ids;
	struct outfile of;		/* -o, made once the report is ready */
	char started[32];		/* --append: perf's "started on" time */
	struct stat_series_cfg sc;
	struct stat_build b;
	struct stat_live lv;
	struct stat_series s;		/* counted */
	struct stat_ticks ticks;
	struct workload_result res;	/* the last run's */
	int count_stop;			/* --interval-count stopped the intervals */
	char why[256];			/* why the series stopped early */
	char mcore[80], how[224];	/* the report's words for the core and --topdown */
};

/* Options -> the rows to count (perf stat's default set without -e), resolved in ctx,
 * which the plan goes on using; -1 after a message. */
static int select_events(struct stat_opts *o, struct resolve_ctx *ctx, struct stat_event **evs,
			 size_t *n, struct filter_kernel_el *kel, struct stat_cgroups *cg)
{
	struct evsel_event *sel;
	const char **p;

	if (o->null_run) {	/* -n: the run's times only */
		*evs = NULL;
		*n = 0;
		kel->el = 0;
		kel->why = NULL;
		return 0;
	}
	if (!o->ev.nspecs) {
		if (!(p = malloc(sizeof(*p)))) {
			msg_error("out of memory");
			return -1;
		}
		p[0] = o->all_cpus || o->cpu_list ? default_events_cpus : default_events;
		o->ev.specs = p;
		o->ev.nspecs = 1;
	}
	/* -d: perf's detailed events after the others (the copy of the specs is ours to grow) */
	if (o->detail_spec) {
		if (!(p = realloc(o->ev.specs, (o->ev.nspecs + 1) * sizeof(*p)))) {
			msg_error("out of memory");
			return -1;
		}
		p[o->ev.nspecs++] = o->detail_spec;
		o->ev.specs = p;
	}
	if (stat_cgroup_specs(o, cg) != 0 || evsel_select(&o->ev, ctx, 0, "count", &sel, n, kel))
		return -1;
	if (!(*evs = calloc(*n + 1, sizeof(**evs)))) {
		evsel_free(sel, *n);
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < *n; k++) {	/* the names move with the events */
		const struct pp_event *ev = &sel[k].ev;

		(*evs)[k].sel = sel[k];
		if (!strcmp(ev->pmu, "tool"))	/* its name without the modifiers */
			(*evs)[k].tool = (int)((unsigned)resolve_tool(ev->name,
							      strcspn(ev->name, ":")) & 3);
	}
	free(sel);
	return stat_cgroup_rows(o, cg, *evs, *n);
}

/* The user's -e list and -M's events selected into p->rows: -M's specs go to a copy of the
 * list, so that --topdown can make another pass. -1 after a message. */
static int select_rows(struct pass *p, struct resolve_ctx *ctx)
{
	struct stat_opts *o = p->o;

	p->user_specs = o->ev.specs;
	p->user_n = o->ev.nspecs;
	o->ev.specs = NULL;
	if ((p->user_n && !(o->ev.specs = malloc(p->user_n * sizeof(*o->ev.specs)))) ||
	    (o->nmetrics && !(p->metric_specs = calloc(o->nmetrics, sizeof(char *))))) {
		msg_error("out of memory");
		return -1;
	}
	if (p->user_n)
		memcpy(o->ev.specs, p->user_specs, p->user_n * sizeof(*o->ev.specs));
	if (stat_metrics_add_specs(&o->ev, o->metrics, o->nmetrics, p->core,
				   p->metric_specs) != 0 ||
	    select_events(o, ctx, &p->rows, &p->nrows, &p->kel, &p->cg) != 0)
		return -1;
	/* a tool event is one time for the whole run: it has no share of a CPU or thread */
	for (size_t k = 0; o->aggr_opt && k < p->nrows; k++)
		if (p->rows[k].tool) {
			msg_error("cannot count event '%s' with %s: it is one time for the whole run, "
				  "with no part per CPU or thread (drop one of them)",
				  p->rows[k].sel.ev.name, o->aggr_opt);
			return -1;
		}
	if (!o->nmetrics && stat_metrics_wanted(p->rows, p->nrows))
		stat_metrics_core(o->ev.cpu_model, o->cputype, ctx, p->core);
	return 0;
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

/* The rows' counters, planned on the PMUs' counters; -1 after a message. */
static int make_counters(struct pass *p, struct resolve_ctx *ctx)
{
	if (targets(p->o, &p->tgt) != 0 ||
	    stat_cputype(p->o->cputype, ctx, p->rows, p->nrows, &p->tgt) != 0)
		return -1;
	if (stat_split(&p->cs, p->rows, p->nrows, ctx, &p->tgt) != 0) {
		msg_error("out of memory");
		return -1;
	}
	return stat_plan(&p->cs, p->rows, ctx, &p->o->plan, &p->planned);
}

/* --plan: the plan on standard output, flushed here: a full or closed stdout fails now, with
 * the reason, not at exit. The exit status. */
static int show_plan(const struct pass *p)
{
	if (stat_plan_show(&p->cs, p->rows, &p->planned, &p->o->plan, stdout) == 0 &&
	    fflush(stdout) == 0)
		return 0;
	msg_error("cannot write the plan: %s", strerror(errno));
	return PP_EXIT_ERROR;
}

/* Hundreds of events need as many descriptors: the soft limit is raised to fit; beyond the
 * hard limit, a message. -1 after it. */
static int reserve_fds(size_t n)
{
	struct counter_fds f;

	if (counter_reserve_fds(n, &f) == PP_OK) {
		if (f.raised)	/* the command gets the caller's limit back */
			workload_set_nofile(&f.caller);
		return 0;
	}
	msg_error("cannot open %zu counters: the hard limit on open files is %llu, %llu are "
		  "needed (as root, 'ulimit -Hn %llu' raises it; or count fewer events)", n, f.hard,
		  f.need, f.need);
	return -1;
}

/* The counters made what the targets open: never opened on a fixture tree's CPUs, the
 * presence counters added, the copies per CPU or task; -1 after a message. */
static int place_counters(struct pass *p)
{
	struct stat_counters *cs = &p->cs;

	/* a fixture tree's CPUs are another machine's: nothing is opened on them (software
	 * events included), the report says why */
	if (p->tgt.cpus && *sysfs_root()) {
		if (asprintf(&p->fixture_cpus, "its CPUs come from the fixture tree %s "
			     "(PMUPROF_SYSFS_ROOT), not this machine", sysfs_root()) < 0) {
			p->fixture_cpus = NULL;
			msg_error("out of memory");
			return -1;
		}
		for (size_t k = 0; k < cs->n; k++)
			if (!cs->c[k].fixture)
				cs->c[k].fixture = p->fixture_cpus;
	}
	/* on CPUs (-a, -C) an event counts whatever runs there: no presence to measure */
	if ((!p->tgt.cpus && stat_presence(cs, p->rows) != 0) ||
	    (stat_target_any(&p->tgt) &&
	     stat_target_expand(cs, p->rows, &p->tgt,
				p->planned.known && p->planned.nruns == 1) != 0)) {
		msg_error("out of memory");
		return -1;
	}
	if (reserve_fds(cs->n) != 0)
		return -1;
	if (p->o->verbose)
		stat_verbose_events(p->rows, cs);
	return 0;
}

/* Whether -o's and --export's files can be written, the CPU topology for the units,
 * --append's time: all before the command runs (a refusal loses nothing); -1 after a
 * message. */
static int open_outputs(struct pass *p)
{
	const struct stat_opts *o = p->o;
	time_t now;
	int e = 0;

	if (o->output && (e = outfile_check(o->output)) == EISDIR) {
		msg_error("cannot write report file '%s': it names a directory (give -o the "
			  "path of a file)", o->output);
		return -1;
	}
	if (o->output && e != 0) {
		msg_error("cannot write report file '%s': %s (choose a writable path for -o)",
			  o->output, strerror(e));
		return -1;
	}
	if (stat_topology_read(o, &p->topo) != 0)
		return -1;
	/* ctime reads the time zone, a file: only when it is used */
	snprintf(p->started, sizeof(p->started), "?\n");
	if (o->append && !o->json && (now = time(NULL)) != (time_t)-1)
		ctime_r(&now, p->started);
	return cmd_export_check(&o->exports);
}

/* How the series runs and the report is built, from the options and the plan. */
static void configure(struct pass *p)
{
	const struct stat_opts *o = p->o;
	const struct stat_target *tgt = stat_target_any(&p->tgt) ? &p->tgt : NULL;

	p->sc = (struct stat_series_cfg){ o->cmd, o->repeat, o->warmup, o->prepare, o->cleanup,
					  o->interval_ms, o->interval_count, o->plan.mux,
					  p->planned.nruns,
					  (o->sep || o->json) && !o->output && !o->log, tgt,
					  o->timeout_ms, o->delay_ms, o->no_inherit, o->verbose, NULL,
					  NULL, NULL };
	p->b = (struct stat_build){ .repeated = o->repeat > 0, .intervals = o->interval_ms > 0,
				    .core = p->core, .metrics = o->metrics,
				    .nmetrics = o->nmetrics,
				    .runs_mode = o->plan.mux == STAT_MUX_RUNS, .aggr = o->aggr,
				    .tgt = tgt, .no_scale = o->disp.unscaled, .counters = &p->cs };
	if (o->ctl.mode || o->ctl.start_disabled)
		p->sc.ctl = &p->o->ctl;
	p->lv = (struct stat_live){ .o = o, .rows = p->rows, .nrows = p->nrows, .b = &p->b };
	if (stat_tick_wanted(o)) {
		p->sc.on_tick = stat_live_tick;
		p->sc.tick_arg = &p->lv;
	}
	if (p->topo.ncpus) {	/* --per-core, --per-cluster, ..., --per-cache */
		stat_topology_view(&p->topo, &p->at, &p->ids);
		p->b.topo = &p->at;
		p->b.ids = &p->ids;
	}
}

/* --topdown: how the tree was counted, in the report's words. */
static const char *topdown_how(struct pass *p, const struct report *r)
{
	const struct topdown_pass *td = p->o->td;
	size_t runs = p->planned.nruns;
	char *how = p->how;

	if (td && !td->first)
		snprintf(how, sizeof(p->how), "stage 1 alone in %zu run%s, then it and %s in %zu "
			 "run%s of the command (--mux=runs), each count exact", td->runs,
			 td->runs == 1 ? "" : "s", td->ndominant ?
			 (td->ndominant == 1 ? "the groups under its dominant node" :
			  "the groups under its dominant nodes") :
			 "every group under it (no node had a share)", runs, runs == 1 ? "" : "s");
	else if (p->o->plan.mux == STAT_MUX_RUNS && runs > 1)
		snprintf(how, sizeof(p->how), "%zu runs of the command (--mux=runs), each count "
			 "exact", runs);
	else
		snprintf(how, sizeof(p->how), "one run%s", r->multiplexed || runs > 1 ?
			 ", multiplexed: the values are estimates" : ", each count exact");
	return how;
}

/* The report's facts about the run (besides its rows): the host, the command's end, the
 * targets, the options that shape its text, the metrics' core, the plan. */
static void fill_run(struct report *r, struct pass *p)
{
	const struct stat_opts *o = p->o;
	const struct stat_planned *pl = &p->planned;

	/* only JSON shows host facts; /proc/cpuinfo is slow to read on x86 */
	if (o->json || export_has(&o->exports, EXPORT_JSON))
		report_host_fill(&r->host);
	r->host.kernel_el = p->kel.el;
	r->host.kernel_el_source = p->kel.why;
	r->exit_code = p->res.exit_code;
	r->term_signal = p->res.term_signal;
	r->interrupted = p->res.interrupted;
	r->timeout_ms = o->timeout_ms;
	r->timed_out = p->s.timed_out;
	if (stat_target_any(&p->tgt)) {
		r->target = p->tgt.desc;
		r->system_wide = p->tgt.cpus != NULL;
	}
	r->repeat = o->repeat;
	r->warmup = o->warmup;
	r->stopped = *p->why ? p->why : NULL;
	r->interval_ms = o->interval_ms;
	r->csv_no_summary = o->no_csv_summary;
	r->disp = o->disp;
	r->interval_stop = p->count_stop ? "interval-count" : NULL;
	r->metrics_core = metrics_core_id(p->core, p->mcore, sizeof(p->mcore));
	if (o->topdown) {
		r->topdown_group = o->topdown_group;
		r->topdown_set = p->core->set;
		r->topdown_how = topdown_how(p, r);
	}
	r->metric_requests = o->metrics;
	r->nmetric_requests = o->nmetrics;
	r->mux = o->plan.mux == STAT_MUX_RUNS ? "runs" : "kernel";
	r->mux_runs = o->plan.mux == STAT_MUX_RUNS ? pl->nruns : 1;
	r->runs_for_exact = pl->known ? pl->nruns : 0;
}

/* --topdown's first pass ends here: what it found is the second's -M list (unless it was
 * interrupted: 1, its report is all there is). 0, or -1 when memory ran out. */
static int topdown_found(struct pass *p, const struct report *r)
{
	struct topdown_pass *td = p->o->td;

	td->ran = 1;
	td->runs = p->planned.nruns;
	/* interrupted: this pass's report is what there is, and there is no second */
	td->stop = r->interrupted;
	if (r->interrupted)
		return 1;
	if (metrics_topdown_next(r, &td->next, &td->nnext, &td->ndominant) == 0)
		return 0;
	msg_error("out of memory");
	return -1;
}

/* The report written (or not, with -q) and exported; the exit status, from rc. */
static int write_out(struct pass *p, struct report *r, int rc)
{
	const struct stat_opts *o = p->o;
	struct outfile *of = &p->of;
	int e;

	stat_output_mux_warn(r, &p->planned);
	if (stat_output_below_min(o, r))
		rc = STAT_EXIT_MIN_RUNNING;
	/* the command has ended: a closed report stream (pmuprof stat ... 2>&1 | head -1) must
	 * not kill pmuprof with SIGPIPE and lose the command's status; the write fails instead */
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL);
	/* -o's file is made only now, complete: a run killed before leaves nothing behind */
	if (o->output && (e = o->append ? outfile_open_append(of, o->output) :
			  outfile_open(of, o->output)) != 0) {
		msg_error("cannot write report file '%s': %s", o->output, strerror(e));
		if (rc == 0)
			rc = PP_EXIT_ERROR;
	}
	/* perf's line before each report it appends (ctime ends it); JSON documents follow each
	 * other bare, a stream jq -s reads whole */
	if (o->append && !o->json && (of->fp || o->log))
		fprintf(of->fp ? of->fp : o->log, "# started on %s\n", p->started);
	r->interval_from = p->lv.shown;	/* live -I: the intervals written as they ended */
	if (o->quiet || (o->output && !of->fp)) {
		;	/* --quiet: no report; or -o's file could not be made (said above) */
	} else if (o->log && (stat_output_write(o, r, o->log) != 0 || fflush(o->log) != 0)) {
		msg_error("cannot write the report to --log-fd %d: %s", o->log_fd, strerror(errno));
		if (rc == 0)
			rc = PP_EXIT_ERROR;
	} else if (!o->log && stat_output_write(o, r, of->fp ? of->fp : stderr) != 0 &&
		   !of->fp && errno != EPIPE) {
		msg_error("cannot write the report: %s", strerror(errno));
	}
	r->interval_from = 0;	/* exports are whole */
	if (of->fp && (e = outfile_commit(of)) != 0) {
		msg_error("cannot write report file '%s': %s", o->output, strerror(e));
		if (rc == 0)
			rc = PP_EXIT_ERROR;
	}
	if (cmd_export_commit(&o->exports, r) != 0 && rc == 0)
		rc = PP_EXIT_ERROR;
	return rc;
}

/* The status the counting ends with: rc, else the command's (0 when --timeout ended it, as
 * perf, or with no command). */
static int status_of(const struct pass *p, int rc)
{
	if (!rc && !(p->s.timed_out && p->res.term_signal == SIGTERM) && p->o->cmd)
		rc = p->res.term_signal ? 128 + p->res.term_signal : p->res.exit_code;
	return rc;
}

static void pass_free(struct pass *p)
{
	struct stat_opts *o = p->o;

	if (p->of.fp)
		outfile_discard(&p->of);	/* made, not committed */
	stat_series_free(&p->s);
	stat_ticks_free(&p->ticks);
	for (size_t k = 0; p->rows && k < p->nrows; k++)
		resolve_event_free(&p->rows[k].sel.ev);
	free(p->rows);
	stat_counters_free(&p->cs);
	for (size_t k = 0; p->metric_specs && k < o->nmetrics; k++)
		free(p->metric_specs[k]);
	free(p->metric_specs);
	free(o->ev.specs);	/* the copy, or select_events' default list */
	o->ev.specs = p->user_specs;
	o->ev.nspecs = p->user_n;
	stat_target_free(&p->tgt);
	stat_cgroups_free(&p->cg);
	topo_free(&p->topo);
	free(p->fixture_cpus);
	stat_planned_free(&p->planned);
	free(p->lv.high);
}

/* One pass of stat: o's events (with -M's) selected, their counters made and planned, the
 * command run and counted, the report built and written; the exit status. */
static int stat_pass(struct stat_opts *o, struct resolve_ctx *ctx, struct metrics_core *core)
{
	struct pass p = { .o = o, .core = core };
	struct report r = { .tool_version = PMUPROF_VERSION, .argc = o->cmdc, .argv = o->cmd,
			    .name = o->name };
	int rc = PP_EXIT_ERROR, found;

	stat_regions_free(&o->ctl.regs);	/* --topdown's second pass counts them anew */

	if (select_rows(&p, ctx) != 0 || make_counters(&p, ctx) != 0)
		goto out;
	if (o->show_plan) {
		rc = show_plan(&p);
		goto out;
	}
	if (place_counters(&p) != 0 || open_outputs(&p) != 0)
		goto out;
	configure(&p);
	rc = stat_series_run(&p.sc, p.rows, &p.cs, &p.s, &p.ticks, &p.res, &p.count_stop, p.why,
			     sizeof(p.why));
	if (!p.s.nruns) {
		rc = rc ? rc : PP_EXIT_ERROR;
		goto out;
	}
	if (stat_report_build(&r, &p.s, p.rows, p.nrows, &p.b) != 0 ||
	    stat_report_regions(&r, &o->ctl.regs, p.rows, p.nrows, &p.b) != 0) {
		msg_error("out of memory");
		rc = PP_EXIT_ERROR;
		goto out;
	}
	fill_run(&r, &p);
	rc = status_of(&p, rc);
	if (o->td && o->td->first && (found = topdown_found(&p, &r)) <= 0)
		rc = found < 0 ? PP_EXIT_ERROR : rc;	/* the second pass reports */
	else
		rc = write_out(&p, &r, rc);
out:
	stat_report_free(&r);
	pass_free(&p);
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
	o->ctl = first.ctl;	/* its FIFOs stay open; its regions are counted again */
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
	if (o.bad_metrics) {
		char c[80];

		msg_error("cannot parse metric list '%s': %s", msg_clip(o.bad_metrics, c, sizeof(c)),
			  o.metrics_why);
		goto out;
	}
	if (o.log_fd && stat_output_open_log(&o) != 0)
		goto out;
	if (evsel_ctx_init(&o.ev, &ctx) != 0)
		goto out;
	have_ctx = 1;
	if (o.detailed && stat_detail_spec(&ctx, o.detailed, &o.detail_spec) != 0)
		goto out;
	/* -M needs the core before the events; else only when an event can be an input */
	if (o.list_metrics || o.nmetrics || o.topdown)
		stat_metrics_core(o.ev.cpu_model, o.cputype, &ctx, &core);
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
	stat_cgroup_opts_free(&o.cg);
	free(o.metrics);
	free(o.detail_spec);
	free(td.next);
	stat_ctl_free(&o.ctl);
	if (o.log)	/* its descriptor is the caller's: the stream goes, the file stays open */
		fflush(o.log);
	return rc;
}
