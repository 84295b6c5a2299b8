/* stat_run.c: one run of pmuprof stat: the command started and held before exec, every
 * event opened on it, the command let go, waited for (or read at intervals), the counters
 * read and closed. Also the runs around it: warm-ups without counters, --prepare/--cleanup. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "stat.h"
#include "sysfs.h"

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
 * one warning for the run. A part (big.LITTLE) renames its row, once. Returns the new fd or
 * -1. */
static int open_user_only(struct stat_event *evs, struct stat_event *e,
			  struct perf_event_attr *a, pid_t pid, int group_fd, int *warned)
{
	struct stat_event *row = e->parent >= 0 ? &evs[e->parent] : e;
	long long p = -9;
	char *name;
	int fd, err;

	if (row->sel.ev.mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H) || a->exclude_kernel)
		return -1;
	a->exclude_kernel = a->exclude_hv = 1;
	if ((fd = counter_open(a, pid, -1, group_fd, &err)) < 0) {
		e->err = err;
		return -1;
	}
	e->sel.ev.attr.exclude_kernel = e->sel.ev.attr.exclude_hv = 1;
	row->sel.ev.attr.exclude_kernel = row->sel.ev.attr.exclude_hv = 1;
	if (!row->user_only++ && asprintf(&name, "%s:u", row->sel.ev.name) >= 0) {
		free(row->sel.ev.name);
		row->sel.ev.name = name;
		for (int i = 0; i < row->nparts; i++)
			evs[row->part0 + i].sel.ev.name = name;
	}
	if (!(*warned)++) {
		sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
		msg_warn("counting user space only: kernel.perf_event_paranoid is %lld, which "
			 "forbids counting the kernel (as root, 'sysctl -w "
			 "kernel.perf_event_paranoid=1' or CAP_PERFMON lifts it)", p);
	}
	return fd;
}

/* Whether entry k is opened at all: a row split over core types is not (its parts are), nor
 * a part whose core type lacks the event, nor an event on a fixture tree's PMU. */
static int opens(const struct stat_event *e)
{
	return !e->nparts && !e->absent && !e->fixture;
}

/* Opens every event on the waiting child: each group under its first member, every other
 * event alone; leaders disabled with enable_on_exec so counting starts at exec. Returns the
 * number opened, or -1 when out of descriptors (a message has been printed). */
static int open_all(struct stat_event *evs, size_t n, pid_t pid, int only_run, int quiet)
{
	int opened = 0, warned = quiet;

	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &evs[k];
		struct perf_event_attr a = e->sel.ev.attr;
		int group_fd = -1;

		if (!stat_in_run(e, only_run) || !opens(e))
			continue;
		if (e->group >= 0)
			for (size_t j = 0; j < k; j++)
				if (evs[j].group == e->group && opens(&evs[j])) {
					group_fd = evs[j].fd;
					if (group_fd < 0)
						e->err = evs[j].err;
					break;
				}
		a.inherit = 1;
		if (e->err)
			continue;	/* its group leader failed */
		if (group_fd < 0 || e->group < 0) {
			a.disabled = 1;
			a.enable_on_exec = 1;
			group_fd = -1;
		}
		e->fd = counter_open(&a, pid, e->cpu, group_fd, &e->err);
		if (e->presence)
			continue;	/* without it, a part's window is the kernel's enabled */
		if (e->fd < 0 && counter_status(e->err) == PP_EACCES)
			e->fd = open_user_only(evs, e, &a, pid, group_fd, &warned);
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

/* The events and their errors, whole items only: what does not fit is "and N more" (never
 * an event or errno name cut in half). */
static void nothing_countable(const struct stat_event *evs, size_t n)
{
	char list[256] = "";
	size_t len = 0, more = 0;

	for (size_t k = 0; k < n; k++) {
		const struct stat_event *e = &evs[k];
		const char *name;
		int w;

		if (e->parent >= 0 || e->presence)	/* rows only */
			continue;
		for (int i = 0; i < e->nparts; i++)	/* a split row: its first part's error */
			if (!evs[e->part0 + i].absent) {
				e = &evs[e->part0 + i];
				break;
			}
		name = strerrorname_np(e->err);
		w = more ? -1 : snprintf(list + len, sizeof(list) - len, "%s'%s' (%s)",
					 len ? ", " : "", evs[k].sel.ev.name, name ? name : "?");
		if (w >= 0 && (size_t)w < sizeof(list) - len - 16)	/* room for the tail */
			len += (size_t)w;
		else {
			list[len] = '\0';
			more++;
		}
	}
	if (more)
		snprintf(list + len, sizeof(list) - len, " and %zu more", more);
	msg_error("cannot count any of the events here: %s (see 'pmuprof list' for what this "
		  "machine has)", list);
}

static void close_all(struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (evs[k].fd >= 0) {
			close(evs[k].fd);
			evs[k].fd = -1;
		}
}

/* The message and exit status for a command that could not be started or executed. */
static int not_run(const char *cmd, pp_status st, int e)
{
	if (st == PP_ESRCH) {
		msg_error("cannot run '%s': command not found", cmd);
		return PP_EXIT_NOTFOUND;
	}
	if (st == PP_ENOEXEC && e == ENOENT)	/* the file exists: its #! interpreter does not */
		msg_error("cannot run '%s': its interpreter (#!) or loader does not exist", cmd);
	if (st == PP_ENOEXEC && e != ENOENT)
		msg_error("cannot run '%s': %s", cmd, strerror(e));
	if (st == PP_ENOEXEC)
		return PP_EXIT_NOEXEC;
	msg_error("cannot start '%s': %s", cmd, strerror(e ? e : errno));
	return PP_EXIT_ERROR;
}

/* The message and exit status for a command that ended while held, before it could exec
 * (WHEN says at which step): killed from outside, 128 + the signal as a shell reports it. */
static int ended_held(int status, const char *when)
{
	const char *sig;

	if (!WIFSIGNALED(status)) {
		msg_error("the command ended (status %d) %s", WEXITSTATUS(status), when);
		return PP_EXIT_ERROR;
	}
	if ((sig = sigabbrev_np(WTERMSIG(status))))
		msg_error("the command was killed by SIG%s %s", sig, when);
	else
		msg_error("the command was killed by signal %d %s", WTERMSIG(status), when);
	return 128 + WTERMSIG(status);
}

int stat_run_counted(const struct stat_run_cfg *c, struct stat_event *evs, size_t n,
		     struct workload_result *res, struct stat_ticks *ticks, int *count_stop)
{
	struct workload w;
	pp_status st;
	int opened, e = 0, fixture = 0;

	for (size_t k = 0; k < n; k++) {
		evs[k].fd = -1;
		if ((!stat_in_run(&evs[k], c->only_run) && !evs[k].nparts) ||
		    evs[k].absent)
			continue;	/* keeps what its own run read (an absent part: why) */
		evs[k].opened = evs[k].err = 0;
		memset(&evs[k].rd, 0, sizeof(evs[k].rd));
	}
	*count_stop = 0;
	if ((st = workload_fork(c->cmd, &w, &e)) != PP_OK)
		return not_run(c->cmd[0], st, e);
	opened = open_all(evs, n, w.pid, c->only_run, c->quiet);
	for (size_t k = 0; k < n; k++) {
		if (stat_in_run(&evs[k], c->only_run))
			evs[k].opened = evs[k].fd >= 0;
		fixture |= evs[k].fixture != NULL;	/* reported as such, nothing failed */
	}
	/* nothing opened: an error, unless the events are a fixture's (never opened) or this is
	 * one planned run of several (--mux=runs: its events are reported not supported) */
	if (opened < 0 || (opened == 0 && !fixture && c->only_run < 0)) {
		int status = workload_abort(&w);

		close_all(evs, n);
		/* killed from outside while held: each open failed with ESRCH because of that */
		if (opened == 0 && status != -1 && WIFSIGNALED(status))
			return ended_held(status, "before its counters were opened");
		if (opened == 0)
			nothing_countable(evs, n);
		return PP_EXIT_ERROR;
	}
	if ((st = workload_go(&w, &e)) != PP_OK) {
		close_all(evs, n);
		return st == PP_ESRCH ? ended_held(w.end_status, "before it ran")
				      : not_run(c->cmd[0], st, e);
	}
	if (c->interval_ms) {
		if (stat_interval_wait(c, &w, evs, n, res, ticks, count_stop) != 0) {
			close_all(evs, n);
			return PP_EXIT_ERROR;
		}
	} else {
		workload_wait(&w, res);
		for (size_t k = 0; k < n; k++)
			if (evs[k].fd >= 0 && counter_read(evs[k].fd, &evs[k].rd) != PP_OK)
				memset(&evs[k].rd, 0, sizeof(evs[k].rd));
	}
	close_all(evs, n);
	return 0;
}

int stat_run_plain(char **argv, struct workload_result *res)
{
	struct workload w;
	pp_status st;
	int e = 0;

	if ((st = workload_fork(argv, &w, &e)) != PP_OK)
		return not_run(argv[0], st, e);
	if ((st = workload_go(&w, &e)) != PP_OK)
		return st == PP_ESRCH ? ended_held(w.end_status, "before it ran")
				      : not_run(argv[0], st, e);
	workload_wait(&w, res);
	return 0;
}

int stat_shell(const char *cmd)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct workload_result res = { 0 };
	struct workload w;
	int e = 0;

	if (workload_fork(argv, &w, &e) != PP_OK || workload_go(&w, &e) != PP_OK)
		return -1;
	workload_wait(&w, &res);
	return res.term_signal ? 128 + res.term_signal : res.exit_code;
}
