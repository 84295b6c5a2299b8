/* cmd_stat.c: `pmuprof stat`: its options, then the pipeline: specs -> events -> counters on
 * the waiting workload -> run -> readings -> one report -> text | JSON | CSV. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "counter.h"
#include "evspec.h"
#include "outfile.h"
#include "report.h"
#include "resolve.h"
#include "sysfs.h"
#include "workload.h"
#include "evsel.h"

/* perf stat's default set. */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";

struct stat_opts {
	struct evsel_opts ev;	/* -e, --cpu-model, --kernel-el, --allow-secure */
	int json;
	const char *sep;
	const char *output;
	char **cmd;
	int cmdc;
};

/* One event through the pipeline: selected, opened, read. */
struct stat_event {
	struct evsel_event sel;
	int fd;
	int err;		/* errno of a failed open */
	struct counter_reading rd;
};

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Report as one JSON document (schema: pmuprof-json(5))", 0 },
	{ "field-separator", 'x', "SEP", 0,
	  "Report as separated values in perf stat -x's field order", 0 },
	{ "output", 'o', "FILE", 0,
	  "Write the report to FILE (atomically) instead of standard error", 0 },
	{ 0 }
};

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
	case 'o':
		o->output = arg;
		break;
	case ARGP_KEY_ARG:
		/* the command and everything after it belong to the workload */
		o->cmd = &state->argv[state->next - 1];
		o->cmdc = state->argc - state->next + 1;
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!o->cmd)
			argp_error(state, "no command to run (e.g. 'pmuprof stat -- ls -l')");
		if (o->json && o->sep)
			argp_error(state, "--json and -x both choose the format: give one of them");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child children[] = { { &evsel_argp, 0, NULL, 0 }, { 0 } };

static const struct argp stat_argp = {
	options, parse_opt, "[--] COMMAND [ARGS...]",
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

static void explain_eacces(const struct stat_event *e)
{
	long long p = -9;

	sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
	if (p >= 3)
		msg_error("not permitted to count '%s': kernel.perf_event_paranoid is %lld, which "
			  "forbids perf to unprivileged users (run as root, or 'sysctl -w "
			  "kernel.perf_event_paranoid=2' to count user space)", e->sel.ev.name, p);
	else if (!e->sel.ev.attr.exclude_kernel && p >= 2)
		msg_error("not permitted to count '%s': kernel.perf_event_paranoid is %lld, which "
			  "allows user-space counting only (count user space with the :u modifier, "
			  "or as root 'sysctl -w kernel.perf_event_paranoid=1', or grant "
			  "CAP_PERFMON)", e->sel.ev.name, p);
	else
		msg_error("not permitted to count '%s' (kernel.perf_event_paranoid is %lld; grant "
			  "CAP_PERFMON or run as root)", e->sel.ev.name, p);
}

/* perf_event_paranoid >= 2 refuses kernel counting to unprivileged users: like perf stat,
 * an event the user gave no level for is counted in user space only, renamed NAME:u, with
 * one warning for the run. Returns the new fd or -1. */
static int open_user_only(struct stat_event *e, struct perf_event_attr *a, pid_t pid,
			  int group_fd, int *warned)
{
	long long p = -9;
	char *name;
	int fd, err;

	if (e->sel.ev.mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H) || a->exclude_kernel)
		return -1;
	a->exclude_kernel = a->exclude_hv = 1;
	if ((fd = counter_open(a, pid, -1, group_fd, &err)) < 0) {
		e->err = err;
		return -1;
	}
	e->sel.ev.attr.exclude_kernel = e->sel.ev.attr.exclude_hv = 1;
	if (asprintf(&name, "%s:u", e->sel.ev.name) >= 0) {
		free(e->sel.ev.name);
		e->sel.ev.name = name;
	}
	if (!(*warned)++) {
		sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
		msg_warn("counting user space only: kernel.perf_event_paranoid is %lld, which "
			 "forbids counting the kernel (as root, 'sysctl -w "
			 "kernel.perf_event_paranoid=1' or CAP_PERFMON lifts it)", p);
	}
	return fd;
}

/* Opens every event on the waiting child: each user group under its first member, every
 * other event alone; leaders disabled with enable_on_exec so counting starts at exec. Returns
 * the number opened, or -1 when out of descriptors (a message has been printed). */
static int open_all(struct stat_event *evs, size_t n, pid_t pid)
{
	int opened = 0, warned = 0;

	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &evs[k];
		struct perf_event_attr a = e->sel.ev.attr;
		int group_fd = -1;

		if (e->sel.ev.group >= 0)
			for (size_t j = 0; j < k; j++)
				if (evs[j].sel.ev.group == e->sel.ev.group) {
					group_fd = evs[j].fd;
					if (group_fd < 0)
						e->err = evs[j].err;
					break;
				}
		a.inherit = 1;
		if (e->err)
			continue;	/* its group leader failed */
		if (group_fd < 0 || e->sel.ev.group < 0) {
			a.disabled = 1;
			a.enable_on_exec = 1;
			group_fd = -1;
		}
		e->fd = counter_open(&a, pid, -1, group_fd, &e->err);
		if (e->fd < 0 && counter_status(e->err) == PP_EACCES)
			e->fd = open_user_only(e, &a, pid, group_fd, &warned);
		if (e->fd >= 0) {
			opened++;
			continue;
		}
		switch (counter_status(e->err)) {
		case PP_EMFILE:
			msg_error("cannot open event '%s': too many open files (raise the limit with "
				  "'ulimit -n', or count fewer events)", e->sel.ev.name);
			return -1;
		case PP_EACCES:
			explain_eacces(e);
			break;
		default:
			break;
		}
	}
	return opened;
}

static void nothing_countable(const struct stat_event *evs, size_t n)
{
	char list[256] = "";
	size_t len = 0;

	for (size_t k = 0; k < n && len < sizeof(list) - 1; k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s'%s' (%s)",
					k ? ", " : "", evs[k].sel.ev.name,
					strerrorname_np(evs[k].err) ? strerrorname_np(evs[k].err) : "?");
	msg_error("cannot count any of the events here: %s (see 'pmuprof list' for what this "
		  "machine has)", list);
}

static void fill_event(struct report_event *re, const struct stat_event *e)
{
	const struct perf_event_attr *a = &e->sel.ev.attr;

	re->name = e->sel.ev.name;
	re->pmu = e->sel.ev.pmu;
	re->unit = e->sel.ev.unit;
	re->type = a->type;
	re->config = a->config;
	re->config1 = a->config1;
	re->config2 = a->config2;
	re->excl_user = a->exclude_user;
	re->excl_kernel = a->exclude_kernel;
	re->excl_hv = a->exclude_hv;
	re->excl_host = a->exclude_host;
	re->excl_guest = a->exclude_guest;
	re->group = e->sel.ev.group;
	if (e->sel.ev.filter.given) {
		re->filter_terms = e->sel.terms;
		re->filter_verdict = e->sel.plan.verdict == FILTER_SECURE ? "secure" : "ok";
		/* a Secure/EL3 request accepted with --allow-secure: Linux counts only the
		 * Non-secure levels of it */
		re->marked = e->sel.plan.verdict == FILTER_SECURE;
		re->filter_differ = e->sel.plan.differ;
	}
	re->raw = e->rd.value;
	re->enabled_ns = e->rd.enabled;
	re->running_ns = e->rd.running;
	if (e->fd < 0) {
		re->status = counter_status(e->err) == PP_EACCES ? REPORT_NOT_PERMITTED
								 : REPORT_NOT_SUPPORTED;
		re->reason = strerrorname_np(e->err);
	} else if (e->rd.running == 0) {
		re->status = REPORT_NOT_COUNTED;
		re->reason = "never on a counter";
	} else {
		re->status = REPORT_COUNTED;
		/* scale by enabled/running: the estimate the kernel's multiplexing asks for */
		re->value = (double)e->rd.value * ((double)e->rd.enabled / (double)e->rd.running);
		re->counted_pct = 100.0 * (double)e->rd.running / (double)e->rd.enabled;
	}
}

static int format_report(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	if (o->json)
		return report_json(r, fp);
	if (o->sep)
		return report_csv(r, fp, o->sep);
	return report_text(r, fp);
}

/* Writes the report; to stderr (unbuffered) it is rendered in memory first and written at
 * once: one write instead of dozens, and never interleaved with another writer's lines. */
static int write_report(const struct stat_opts *o, const struct report *r, FILE *fp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (fp != stderr || !(mem = open_memstream(&buf, &len)))
		return format_report(o, r, fp);
	rc = format_report(o, r, mem);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && fwrite(buf, 1, len, fp) != len)
		rc = -1;
	free(buf);
	return rc;
}

/* Runs the workload with the counters on it and writes the report; returns the exit status. */
static int run(const struct stat_opts *o, struct stat_event *evs, size_t n,
	       const struct filter_kernel_el *kel, struct outfile *of)
{
	struct workload w;
	struct workload_result res = { 0 };
	struct report r = { .tool_version = PMUPROF_VERSION, .argc = o->cmdc, .argv = o->cmd };
	int opened, e, rc;
	pp_status st;

	st = workload_fork(o->cmd, &w, &e);
	if (st == PP_ESRCH || st == PP_ENOEXEC) {
		msg_error("cannot run '%s': %s", o->cmd[0],
			  st == PP_ESRCH ? "command not found" : strerror(e));
		return st == PP_ESRCH ? PP_EXIT_NOTFOUND : PP_EXIT_NOEXEC;
	}
	if (st != PP_OK) {
		msg_error("cannot start '%s': %s", o->cmd[0], strerror(errno));
		return PP_EXIT_ERROR;
	}
	opened = open_all(evs, n, w.pid);
	if (opened <= 0) {
		if (opened == 0)
			nothing_countable(evs, n);
		workload_abort(&w);
		return PP_EXIT_ERROR;
	}
	st = workload_go(&w, &e);
	if (st != PP_OK) {
		msg_error("cannot run '%s': %s", o->cmd[0],
			  st == PP_ESRCH ? "command not found" : strerror(e));
		return st == PP_ESRCH ? PP_EXIT_NOTFOUND : PP_EXIT_NOEXEC;
	}
	workload_wait(&w, &res);
	if (!(r.events = calloc(n, sizeof(*r.events)))) {
		msg_error("out of memory");
		return PP_EXIT_ERROR;
	}
	for (size_t k = 0; k < n; k++) {
		if (evs[k].fd >= 0 && counter_read(evs[k].fd, &evs[k].rd) != PP_OK)
			memset(&evs[k].rd, 0, sizeof(evs[k].rd));
		fill_event(&r.events[k], &evs[k]);
	}
	r.nevents = n;
	if (o->json)	/* only JSON shows host facts; /proc/cpuinfo is slow to read on x86 */
		report_host_fill(&r.host);
	r.host.kernel_el = kel->el;
	r.host.kernel_el_source = kel->why;
	r.wall_ns = res.wall_ns;
	r.user_ns = res.user_ns;
	r.sys_ns = res.sys_ns;
	r.exit_code = res.exit_code;
	r.term_signal = res.term_signal;
	r.interrupted = res.interrupted;
	rc = res.term_signal ? 128 + res.term_signal : res.exit_code;
	if (write_report(o, &r, of->fp ? of->fp : stderr) != 0 && !of->fp)
		msg_error("cannot write the report: %s", strerror(errno));
	if (of->fp && (e = outfile_commit(of)) != 0) {
		msg_error("cannot write report file '%s': %s", o->output, strerror(e));
		if (rc == 0)
			rc = PP_EXIT_ERROR;
	}
	free(r.events);
	return rc;
}

/* The selected events become stat's, which add the counter state. */
static struct stat_event *adopt(struct evsel_event *sel, size_t n)
{
	struct stat_event *evs = calloc(n + 1, sizeof(*evs));

	if (!evs) {
		msg_error("out of memory");
		return NULL;
	}
	for (size_t k = 0; k < n; k++) {
		evs[k].sel = sel[k];	/* moved: the names now belong to evs */
		evs[k].fd = -1;
	}
	free(sel);
	return evs;
}

static void free_events(struct stat_event *evs, size_t n)
{
	for (size_t k = 0; evs && k < n; k++) {
		if (evs[k].fd >= 0)
			close(evs[k].fd);
		resolve_event_free(&evs[k].sel.ev);
	}
	free(evs);
}

/* Options -> the events to count (perf stat's default set without -e); -1 after a message. */
static int select_events(struct stat_opts *o, struct stat_event **evs, size_t *n,
			 struct filter_kernel_el *kel)
{
	struct resolve_ctx ctx;
	struct evsel_event *sel;
	const char **p;
	int rc;

	if (!o->ev.nspecs) {
		if (!(p = malloc(sizeof(*p)))) {
			msg_error("out of memory");
			return -1;
		}
		p[0] = default_events;
		o->ev.specs = p;
		o->ev.nspecs = 1;
	}
	if (evsel_ctx_init(&o->ev, &ctx) != 0)
		return -1;
	rc = evsel_select(&o->ev, &ctx, 0, "count", &sel, n, kel);
	resolve_ctx_free(&ctx);
	if (rc != 0)
		return -1;
	if (!(*evs = adopt(sel, *n))) {
		evsel_free(sel, *n);
		return -1;
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_event *evs = NULL;
	struct outfile of = { 0 };
	struct filter_kernel_el kel;
	size_t n = 0;
	int rc = PP_EXIT_ERROR, e;

	argp_parse(&stat_argp, argc, argv, ARGP_IN_ORDER, NULL, &o);
	if (select_events(&o, &evs, &n, &kel) != 0)
		goto out;
	if (o.output && (e = outfile_open(&of, o.output)) != 0) {
		msg_error("cannot write report file '%s': %s (choose a writable path for -o)",
			  o.output, strerror(e));
		goto out;
	}
	rc = run(&o, evs, n, &kel, &of);
	if (of.fp)
		outfile_discard(&of);	/* the run failed before the report was committed */
out:
	free_events(evs, n);
	evsel_opts_free(&o.ev);
	return rc;
}
