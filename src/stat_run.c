/* stat_run.c: one run of pmuprof stat: the command started and held before exec, every
 * event opened on it, the command let go, waited for (or read at intervals), the counters
 * read and closed. Also the runs around it: warm-ups without counters, --prepare/--cleanup. */
#include <errno.h>
#include <sched.h>
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
 * one warning for the run. A part (big.LITTLE) or a copy (-a, -p) renames its row, once,
 * and every entry sharing the row's name. Returns the new fd or -1. */
static int open_user_only(struct stat_event *evs, size_t n, struct stat_event *e,
			  struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
			  int *warned)
{
	struct stat_event *row = e->parent >= 0 ? &evs[e->parent]
			       : e->copy ? &evs[e->orig] : e;
	long long p = -9;
	struct pp_event *rv = &row->sel.ev;
	char *name, *ostrs = rv->strs, *oname = rv->name, *opmu = rv->pmu, *oarm = rv->arm_name;
	int fd, err;

	if (row->sel.ev.mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H) || a->exclude_kernel)
		return -1;
	a->exclude_kernel = a->exclude_hv = 1;
	if ((fd = counter_open(a, pid, cpu, group_fd, &err)) < 0) {
		e->err = err;
		return -1;
	}
	e->sel.ev.attr.exclude_kernel = e->sel.ev.attr.exclude_hv = 1;
	row->sel.ev.attr.exclude_kernel = row->sel.ev.attr.exclude_hv = 1;
	/* the row's name becomes NAME:u, in a new allocation of its strings (which the row
	 * owns: its old ones were the resolve context's, or its own); its parts and copies,
	 * which share the row's name, are moved to it */
	if (!row->user_only++ && asprintf(&name, "%s:u", oname) >= 0) {
		rv->strs = NULL;
		if (resolve_event_strings(rv, name, opmu, oarm) == PP_OK) {
			for (size_t k = 0; k < n; k++) {
				struct pp_event *o = &evs[k].sel.ev;

				if (o == rv || !(o->name == oname || (ostrs && o->strs == ostrs)))
					continue;
				o->strs = rv->strs;
				o->name = o->name == oname ? rv->name : o->name;
				o->pmu = o->pmu == opmu ? rv->pmu : o->pmu;
				o->arm_name = o->arm_name == oarm ? rv->arm_name : o->arm_name;
			}
			free(ostrs);
		} else {
			rv->strs = ostrs;
		}
		free(name);
	}
	if (!(*warned)++) {
		sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
		msg_warn("counting user space only: kernel.perf_event_paranoid is %lld, which "
			 "forbids counting the kernel (as root, 'sysctl -w "
			 "kernel.perf_event_paranoid=1' or CAP_PERFMON lifts it)", p);
	}
	return fd;
}

/* Following another user's task (-p, -t) needs the right to trace it: says so. */
static void explain_attach(const struct stat_event *e)
{
	msg_error("not permitted to count '%s' on thread %d: following a task needs the right to "
		  "trace it (the same user, and kernel.yama.ptrace_scope allowing it) or "
		  "CAP_PERFMON; run as root or as the task's owner", e->sel.ev.name, e->task);
}

/* Counting every task on a CPU (-a, -C) needs more than counting one's own: says so. */
static void explain_cpu_wide(const struct stat_event *e)
{
	long long p = -9;

	sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
	msg_error("not permitted to count '%s' on CPU %d: counting every task of a CPU (-a, -C) "
		  "needs kernel.perf_event_paranoid <= 0 (it is %lld) or CAP_PERFMON (as root, "
		  "'sysctl -w kernel.perf_event_paranoid=0')", e->sel.ev.name, e->cpu, p);
}

/* Whether entry k is opened at all: a row split over core types is not (its parts are), nor
 * a part whose core type lacks the event, nor an event on a fixture tree's PMU, nor an
 * entry expanded into copies per CPU or task (its copies are). */
static int opens(const struct stat_event *e)
{
	return !e->nparts && !e->absent && !e->fixture && !e->expanded && !e->tool;
}

/* The leader of entry k's group: its first entry opened before it (for a group pmuprof
 * made, the first that opened and leads: a member whose leader failed counts alone, and
 * leads the members after it); -1 when k leads. */
static int leader_of(const struct stat_event *evs, size_t k)
{
	const struct stat_event *e = &evs[k];

	if (e->group < 0)
		return -1;
	for (size_t j = 0; j < k; j++)
		if (evs[j].group == e->group && opens(&evs[j]) &&
		    (!e->auto_group || (evs[j].fd >= 0 && evs[j].leader < 0)))
			return (int)j;
	return -1;
}

/* Moves pmuprof to cpu (-a: opening a CPU's counters from that CPU spares the kernel a
 * cross-CPU call per counter; perf does the same). */
static void move_to(int cpu, int *at)
{
	cpu_set_t set;

	if (cpu == *at || cpu < 0 || cpu >= CPU_SETSIZE)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) == 0)
		*at = cpu;
}

/* Opens every event: on the waiting child (pid; -1: none), or on its CPU or task (a copy).
 * Each group under its first member, every other event alone; leaders disabled, with
 * enable_on_exec when on_exec (counting starts at exec), else enabled by stat_enable_all.
 * Inherited by the new children of the tasks followed unless no_inherit (-i). Returns the
 * number opened, or -1 when out of descriptors (a message has been printed). */
static int open_all(struct stat_event *evs, size_t n, pid_t pid, int only_run, int quiet,
		    int on_exec, int no_inherit, int *explained)
{
	int opened = 0, warned = quiet, at = -1, moved = 0;
	cpu_set_t saved;

	CPU_ZERO(&saved);
	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &evs[k];
		struct perf_event_attr a;
		pid_t on = e->cpu_wide ? -1 : e->task > 0 ? e->task : pid;
		int group_fd = -1, lead = -1;

		e->leader = -1;
		e->nmembers = 0;
		e->group_read = 0;
		if (!stat_in_run(e, only_run) || !opens(e))
			continue;
		ppattr_to_perf(&e->sel.ev.attr, &a);	/* the kernel's, made at the open */
		if ((lead = leader_of(evs, k)) >= 0) {
			group_fd = evs[lead].fd;
			if (group_fd < 0)
				e->err = evs[lead].err;
		}
		/* an event following tasks is inherited by their new children (unless -i); one
		 * on a CPU counts every task there already, and is read with its group in one
		 * read */
		a.inherit = !e->cpu_wide && !no_inherit;
		if (e->cpu_wide && e->group >= 0)
			a.read_format |= PERF_FORMAT_GROUP;
		if (e->err)
			continue;	/* its group leader failed */
		if (lead < 0) {
			a.disabled = 1;
			a.enable_on_exec = on_exec && !e->cpu_wide && !e->task;
			group_fd = -1;
		}
		if (e->cpu_wide) {
			if (!moved++ && sched_getaffinity(0, sizeof(saved), &saved) != 0)
				moved = 0;
			if (moved)
				move_to(e->cpu, &at);
		}
		e->fd = counter_open(&a, on, e->cpu, group_fd, &e->err);
		if (e->presence)
			continue;	/* without it, a part's window is the kernel's enabled */
		if (e->fd < 0 && counter_status(e->err) == PP_EACCES && !e->cpu_wide)
			e->fd = open_user_only(evs, n, e, &a, on, e->cpu, group_fd, &warned);
		if (e->fd >= 0) {
			opened++;
			if (lead >= 0 && e->cpu_wide) {
				e->leader = lead;
				evs[lead].group_read = 1;
				evs[lead].nmembers++;
			} else if (e->cpu_wide && e->group >= 0) {
				e->group_read = 1;	/* a leader, read as a group */
			}
			continue;
		}
		switch (counter_status(e->err)) {
		case PP_EMFILE:
			msg_error("cannot open event '%s': too many open files (raise the limit with "
				  "'ulimit -n', or count fewer events)", e->sel.ev.name);
			if (moved)
				sched_setaffinity(0, sizeof(saved), &saved);
			return -1;
		case PP_EACCES:
			/* once: a copy per CPU or task would say it again */
			if (!(*explained)++) {
				if (e->cpu_wide)
					explain_cpu_wide(e);
				else if (e->task > 0)
					explain_attach(e);
				else
					explain_eacces(e);
			}
			break;
		default:
			break;
		}
	}
	if (moved)
		sched_setaffinity(0, sizeof(saved), &saved);
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

		if (e->parent >= 0 || e->presence || e->copy)	/* rows only */
			continue;
		for (size_t j = 0; e->expanded && j < n; j++)	/* -a, -p: its first copy's */
			if (evs[j].copy && evs[j].orig == (int)k) {
				e = &evs[j];
				break;
			}
		for (int i = 0; i < e->nparts; i++)	/* a split row: its first part's error */
			if (!evs[e->part0 + i].absent) {
				e = &evs[e->part0 + i];
				break;
			}
		for (size_t j = 0; e->expanded && j < n; j++)	/* ... or its first copy's */
			if (evs[j].copy && evs[j].orig == e - evs) {
				e = &evs[j];
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

/* A group read returns this many counts at most (counter_read_group). */
#define STAT_GROUP_READ_MAX 64

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

void stat_read_all(struct stat_event *evs, size_t n)
{
	struct counter_reading g[STAT_GROUP_READ_MAX];

	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &evs[k];
		size_t got, m = 0;

		if (e->fd < 0 || e->leader >= 0)
			continue;	/* not open, or read with its leader */
		if (!e->group_read) {
			if (counter_read(e->fd, &e->rd) != PP_OK)
				memset(&e->rd, 0, sizeof(e->rd));
			continue;
		}
		got = counter_read_group(e->fd, g, STAT_GROUP_READ_MAX);
		e->rd = got ? g[0] : (struct counter_reading){ 0 };
		/* its members, in the order they were opened (index order) */
		for (size_t j = k + 1; j < n && m < (size_t)e->nmembers; j++)
			if (evs[j].leader == (int)k) {
				m++;
				evs[j].rd = m < got ? g[m] : (struct counter_reading){ 0 };
			}
	}
}

void stat_enable_all(struct stat_event *evs, size_t n, int on)
{
	for (size_t k = 0; k < n; k++)
		if (evs[k].fd >= 0 && evs[k].leader < 0)
			counter_enable(evs[k].fd, on);
}

/* perf's tool events of the run: its times, each as a reading counted all the time (perf's
 * enabled and running are the value itself); user and system time only of a command's end
 * (0, not counted, without one). */
static void read_tools(struct stat_event *evs, size_t n, int only_run,
		       const struct workload_result *res, int have_cmd)
{
	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &evs[k];
		uint64_t v = e->tool == STAT_TOOL_DURATION ? res->wall_ns :
			     !have_cmd ? 0 : e->tool == STAT_TOOL_USER ? res->user_ns : res->sys_ns;

		if (e->tool && stat_in_run(e, only_run))
			e->rd = (struct counter_reading){ .value = v, .enabled = v, .running = v };
	}
}

int stat_run_counted(const struct stat_run_cfg *c, struct stat_event *evs, size_t n,
		     struct workload_result *res, struct stat_ticks *ticks, int *count_stop,
		     int *timed_out)
{
	struct workload w = { .pid = -1, .go_fd = -1 };
	int target = stat_target_any(c->tgt);
	/* counters inherited through pmuprof's own vfork need inherit: -i opens them on the
	 * held child instead, each enabled at its exec as well (held) */
	int on_exec = c->cmd && !target && !c->delay_ms && !c->no_inherit;
	int held = c->cmd && !target && !c->delay_ms && c->no_inherit;
	/* a command and nothing to do until its end: no intervals, no timeout, no delay */
	int plain = on_exec && !c->interval_ms && !c->timeout_ms;
	pp_status st;
	int opened, e = 0, fixture = 0, explained = 0;

	for (size_t k = 0; k < n; k++) {
		evs[k].fd = -1;
		if ((!stat_in_run(&evs[k], c->only_run) && !evs[k].nparts) ||
		    evs[k].absent)
			continue;	/* keeps what its own run read (an absent part: why) */
		evs[k].opened = evs[k].err = 0;
		memset(&evs[k].rd, 0, sizeof(evs[k].rd));
	}
	*count_stop = *timed_out = 0;
	/* counters enabled at the command's exec follow pmuprof itself, disabled, and the
	 * child vfork starts inherits them: they count from its exec, and when it ends the
	 * kernel adds its counts and times to the counters it inherited from (workload_start).
	 * A command with a target or -D is held after its fork while its counters are opened on
	 * it (and enabled now, or after the delay). */
	if (c->cmd && (st = on_exec ? workload_find(c->cmd, &w, &e)
				    : workload_fork(c->cmd, &w, &e)) != PP_OK)
		return not_run(c->cmd[0], st, e);
	opened = open_all(evs, n, !c->cmd ? -1 : on_exec ? 0 : w.pid, c->only_run, c->quiet,
			  on_exec || held, c->no_inherit, &explained);
	for (size_t k = 0; k < n; k++) {
		if (stat_in_run(&evs[k], c->only_run))
			evs[k].opened = evs[k].fd >= 0 || evs[k].tool;
		/* reported as such, nothing failed; a tool event needs no counter */
		fixture |= evs[k].fixture != NULL || evs[k].tool;
	}
	/* nothing opened: an error, unless the events are a fixture's (never opened) or this is
	 * one planned run of several (--mux=runs: its events are reported not supported); no
	 * events at all is -n's null run */
	if (opened < 0 || (opened == 0 && n && !fixture && c->only_run < 0)) {
		int status = c->cmd ? workload_abort(&w) : -1;

		close_all(evs, n);
		/* killed from outside while held: each open failed with ESRCH because of that */
		if (opened == 0 && status != -1 && WIFSIGNALED(status))
			return ended_held(status, "before its counters were opened");
		if (opened == 0 && !explained)	/* (a refusal for permissions said why) */
			nothing_countable(evs, n);
		return PP_EXIT_ERROR;
	}
	/* counters on CPUs or on running tasks count from now (or after -D) */
	if (!on_exec && !held && !c->delay_ms)
		stat_enable_all(evs, n, 1);
	if (c->cmd && (st = plain ? workload_spawn(&w, c->cmd, res, &e)
			    : on_exec ? workload_start(&w, c->cmd, &e)
				      : workload_go(&w, &e)) != PP_OK) {
		close_all(evs, n);
		return st == PP_ESRCH ? ended_held(w.end_status, "before it ran")
				      : not_run(c->cmd[0], st, e);
	}
	if (plain) {
		stat_read_all(evs, n);
	} else if (stat_wait(c, c->cmd ? &w : NULL, evs, n, res, ticks, count_stop,
			     timed_out) != 0) {
		close_all(evs, n);
		return PP_EXIT_ERROR;
	}
	close_all(evs, n);
	read_tools(evs, n, c->only_run, res, c->cmd != NULL);
	return 0;
}

int stat_run_plain(char **argv, struct workload_result *res)
{
	struct workload w;
	pp_status st;
	int e = 0;

	if ((st = workload_find(argv, &w, &e)) != PP_OK)
		return not_run(argv[0], st, e);
	if ((st = workload_spawn(&w, argv, res, &e)) != PP_OK)
		return not_run(argv[0], st, e);	/* no child is held: none ends while held */
	return 0;
}

int stat_shell(const char *cmd)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct workload_result res = { 0 };
	struct workload w;
	int e = 0;

	if (workload_find(argv, &w, &e) != PP_OK || workload_spawn(&w, argv, &res, &e) != PP_OK)
		return -1;
	return res.term_signal ? 128 + res.term_signal : res.exit_code;
}
