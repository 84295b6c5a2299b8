/* SPDX-License-Identifier: Apache-2.0 */
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

#include "cgroup.h"
#include "cmd.h"
#include "stat.h"
#include "stat_ctl.h"
#include "sysfs.h"

static void explain_eacces(const struct pp_event *ev)
{
	long long p = -9;

	sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
	if (p >= 3)
		msg_error("not permitted to count '%s': kernel.perf_event_paranoid is %lld, which "
			  "forbids perf to unprivileged users (run as root, or 'sysctl -w "
			  "kernel.perf_event_paranoid=2' to count user space)", ev->name, p);
	else if (!ev->attr.exclude_kernel && p >= 2)
		msg_error("not permitted to count '%s': kernel.perf_event_paranoid is %lld, which "
			  "allows user-space counting only (count user space with the :u modifier, "
			  "or as root 'sysctl -w kernel.perf_event_paranoid=1', or grant "
			  "CAP_PERFMON)", ev->name, p);
	else
		msg_error("not permitted to count '%s' (kernel.perf_event_paranoid is %lld; grant "
			  "CAP_PERFMON or run as root)", ev->name, p);
}

/* Row k becomes NAME:u, in a new allocation of its strings (which the row owns: its old
 * ones were the resolve context's, or its own); the other rows sharing its old name (the
 * context's pool gives one copy to equal names) follow it. */
static void rename_user_only(struct stat_event *rows, size_t nrows, size_t k)
{
	struct pp_event *rv = &rows[k].sel.ev;
	char *name, *ostrs = rv->strs, *oname = rv->name, *opmu = rv->pmu, *oarm = rv->arm_name;

	if (asprintf(&name, "%s:u", oname) < 0)
		return;
	rv->strs = NULL;
	if (resolve_event_strings(rv, name, opmu, oarm) == PP_OK) {
		for (size_t j = 0; j < nrows; j++) {
			struct pp_event *o = &rows[j].sel.ev;

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

/* perf_event_paranoid >= 2 refuses kernel counting to unprivileged users: like perf stat,
 * an event the user gave no level for is counted in user space only, its row renamed
 * NAME:u once, with one warning for the run. Returns the new fd or -1. */
static int open_user_only(struct stat_event *rows, size_t nrows, struct stat_counter *e,
			  struct perf_event_attr *a, pid_t pid, int group_fd, int *warned)
{
	struct stat_event *row = &rows[e->ev];
	long long p = -9;
	int fd, err;

	if (row->sel.ev.mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H) || a->exclude_kernel)
		return -1;
	a->exclude_kernel = a->exclude_hv = 1;
	if ((fd = counter_open(a, pid, e->cpu, group_fd, &err)) < 0) {
		e->err = err;
		return -1;
	}
	e->user_only = 1;
	row->sel.ev.attr.exclude_kernel = row->sel.ev.attr.exclude_hv = 1;
	if (!row->user_only) {
		row->user_only = 1;
		rename_user_only(rows, nrows, e->ev);
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
static void explain_attach(const struct pp_event *ev, int task)
{
	msg_error("not permitted to count '%s' on thread %d: following a task needs the right to "
		  "trace it (the same user, and kernel.yama.ptrace_scope allowing it) or "
		  "CAP_PERFMON; run as root or as the task's owner", ev->name, task);
}

/* Counting every task on a CPU (-a, -C) needs more than counting one's own: says so. */
static void explain_cpu_wide(const struct pp_event *ev, int cpu)
{
	long long p = -9;

	sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &p);
	msg_error("not permitted to count '%s' on CPU %d: counting every task of a CPU (-a, -C) "
		  "needs kernel.perf_event_paranoid <= 0 (it is %lld) or CAP_PERFMON (as root, "
		  "'sysctl -w kernel.perf_event_paranoid=0')", ev->name, cpu, p);
}

/* The leader of counter k's group: its first counter opened before it (for a group pmuprof
 * made, the first that opened and leads: a member whose leader failed counts alone, and
 * leads the members after it); -1 when k leads. */
static int leader_of(const struct stat_counters *cs, size_t k)
{
	const struct stat_counter *c = cs->c, *e = &c[k];

	if (e->group < 0)
		return -1;
	for (size_t j = 0; j < k; j++)
		if (c[j].group == e->group && stat_counter_opens(cs, &c[j]) &&
		    (!e->auto_group || (c[j].fd >= 0 && c[j].leader < 0)))
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

/* What opening the counters shares from one to the next. */
struct opening {
	struct stat_event *rows;
	struct stat_counters *cs;
	pid_t pid;		/* the waiting child; -1: none */
	int on_exec;		/* counting starts at the command's exec */
	int no_inherit;		/* -i: not inherited by the new children of the tasks followed */
	int warned;		/* the user-space fallback was told (or must not be) */
	int at, moved;		/* the CPU pmuprof was moved to; saved holds its affinity */
	cpu_set_t saved;
	int *explained;		/* a refusal for permissions was explained */
	const char *gone;	/* the first cgroup found removed, its path; NULL: none */
};

/* Opens counter k; 1 when it opened (and counts), 0 when it failed, -1 when it was not
 * tried (its group's leader failed) or is a presence counter (whose failure is silent). */
static int open_one(struct opening *o, size_t k)
{
	struct stat_counter *e = &o->cs->c[k];
	struct pp_attr pa = stat_counter_attr(o->cs, o->rows, e);
	struct perf_event_attr a;
	pid_t on = e->cpu_wide ? -1 : e->task > 0 ? e->task : o->pid;
	int group_fd = -1, lead = leader_of(o->cs, k);

	ppattr_to_perf(&pa, &a);	/* the kernel's, made at the open */
	if (lead >= 0) {
		group_fd = o->cs->c[lead].fd;
		if (group_fd < 0)
			e->err = o->cs->c[lead].err;
	}
	/* an event following tasks is inherited by their new children (unless -i); one on a
	 * CPU counts every task there already, and is read with its group in one read */
	a.inherit = !e->cpu_wide && !o->no_inherit;
	if (e->cpu_wide && e->group >= 0)
		a.read_format |= PERF_FORMAT_GROUP;
	if (e->err)
		return -1;	/* its group leader failed */
	if (lead < 0) {
		a.disabled = 1;
		a.enable_on_exec = o->on_exec && !e->cpu_wide && !e->task;
		group_fd = -1;
	}
	if (e->cpu_wide) {
		if (!o->moved++ && sched_getaffinity(0, sizeof(o->saved), &o->saved) != 0)
			o->moved = 0;
		if (o->moved)
			move_to(e->cpu, &o->at);
	}
	if (e->cpu_wide && !e->presence && o->rows[e->ev].cgroup)
		e->fd = counter_open_cgroup(&a, o->rows[e->ev].cgroup_fd, e->cpu, group_fd,
					    &e->err);
	else
		e->fd = counter_open(&a, on, e->cpu, group_fd, &e->err);
	if (e->presence)
		return -1;	/* without it, a part's window is the kernel's enabled */
	if (e->fd < 0 && counter_status(e->err) == PP_EACCES && !e->cpu_wide)
		e->fd = open_user_only(o->rows, o->cs->nrows, e, &a, on, group_fd, &o->warned);
	if (e->fd < 0)
		return 0;
	if (lead >= 0 && e->cpu_wide) {
		e->leader = lead;
		o->cs->c[lead].group_read = 1;
		o->cs->c[lead].nmembers++;
	} else if (e->cpu_wide && e->group >= 0) {
		e->group_read = 1;	/* a leader, read as a group */
	}
	return 1;
}

/* Says why counter e could not be opened, when it is worth saying: -1 for a lack of
 * descriptors, which ends the run. */
static int open_failed(struct opening *o, const struct stat_counter *e)
{
	const struct pp_event *ev = &o->rows[e->ev].sel.ev;

	switch (counter_status(e->err)) {
	case PP_EMFILE:
		msg_error("cannot open event '%s': too many open files (raise the limit with "
			  "'ulimit -n', or count fewer events)", ev->name);
		return -1;
	case PP_EACCES:
		/* once: a copy per CPU or task would say it again */
		if (!(*o->explained)++) {
			if (e->cpu_wide)
				explain_cpu_wide(ev, e->cpu);
			else if (e->task > 0)
				explain_attach(ev, e->task);
			else
				explain_eacces(ev);
		}
		return 0;
	default:
		/* the kernel takes only a live cgroup: this one was removed since it was opened */
		if (e->err == ENOENT && e->cpu_wide && o->rows[e->ev].cgroup && !o->gone &&
		    cgroup_removed(o->rows[e->ev].cgroup_fd))
			o->gone = o->rows[e->ev].cgroup;
		return 0;
	}
}

/* Opens every counter of run only_run: on the waiting child (pid; -1: none), or on its CPU
 * or task (a copy). Each group under its first member, every other counter alone; leaders
 * disabled, with enable_on_exec when on_exec (counting starts at exec), else enabled by
 * stat_counters_enable. Inherited by the new children of the tasks followed unless
 * no_inherit (-i). Returns the number opened, or -1 when out of descriptors (a message has
 * been printed). *gone (when not NULL): the path of a cgroup removed since it was opened,
 * whose counters failed, else NULL. */
static int open_all(struct stat_event *rows, struct stat_counters *cs, pid_t pid, int only_run,
		    int quiet, int on_exec, int no_inherit, int *explained, const char **gone)
{
	struct opening o = { rows, cs, pid, on_exec, no_inherit, quiet, -1, 0, { { 0 } },
			     explained, NULL };
	int opened = 0, rc = 0;

	for (size_t k = 0; k < cs->n && rc >= 0; k++) {
		struct stat_counter *e = &cs->c[k];

		e->leader = -1;
		e->nmembers = 0;
		e->group_read = 0;
		if (!stat_in_run(e, only_run) || !stat_counter_opens(cs, e))
			continue;
		rc = open_one(&o, k);
		opened += rc > 0;
		rc = rc == 0 ? open_failed(&o, e) : 0;
	}
	if (o.moved)
		sched_setaffinity(0, sizeof(o.saved), &o.saved);
	if (gone)
		*gone = o.gone;
	return rc < 0 ? -1 : opened;
}

/* The counter whose error stands for row k's: its first that could open (-1: none). */
static long first_of(const struct stat_counters *cs, size_t k)
{
	for (size_t i = 0; i < cs->n; i++)
		if (!cs->c[i].presence && cs->c[i].ev == k &&
		    !(cs->c[i].part >= 0 && cs->parts[cs->c[i].part].absent))
			return (long)i;
	return -1;
}

/* The events and their errors, whole items only: what does not fit is "and N more" (never
 * an event or errno name cut in half). */
static void nothing_countable(const struct stat_event *rows, const struct stat_counters *cs)
{
	char list[256] = "";
	size_t len = 0, more = 0;

	for (size_t k = 0; k < cs->nrows; k++) {
		long i = first_of(cs, k);
		const char *name = strerrorname_np(i >= 0 ? cs->c[i].err : 0);
		int w;

		w = more ? -1 : snprintf(list + len, sizeof(list) - len, "%s'%s' (%s)",
					 len ? ", " : "", rows[k].sel.ev.name, name ? name : "?");
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

/* Every counter of run only_run made ready to open; what the other runs read is kept (and
 * an absent part's reason). */
static void reset(struct stat_counters *cs, int only_run)
{
	for (size_t k = 0; k < cs->n; k++) {
		struct stat_counter *e = &cs->c[k];

		e->fd = -1;
		if (!stat_in_run(e, only_run) || (e->part >= 0 && cs->parts[e->part].absent))
			continue;
		e->opened = 0;
		e->err = 0;
		memset(&e->rd, 0, sizeof(e->rd));
	}
}

/* perf's tool events of the run: its times, each as a reading counted all the time (perf's
 * enabled and running are the value itself); user and system time only of a command's end
 * (0, not counted, without one). */
static void read_tools(struct stat_counters *cs, int only_run,
		       const struct workload_result *res, int have_cmd)
{
	for (size_t k = 0; k < cs->n; k++) {
		struct stat_counter *e = &cs->c[k];
		uint64_t v = e->tool == STAT_TOOL_DURATION ? res->wall_ns :
			     !have_cmd ? 0 : e->tool == STAT_TOOL_USER ? res->user_ns : res->sys_ns;

		if (e->tool && stat_in_run(e, only_run))
			e->rd = (struct counter_reading){ .value = v, .enabled = v, .running = v };
	}
}

/* Nothing opened: the command let go, the error said; pmuprof's exit status. */
static int none_opened(struct stat_event *rows, struct stat_counters *cs, struct workload *w,
		       int cmd, int opened, int explained)
{
	int status = cmd ? workload_abort(w) : -1;

	stat_counters_close(cs);
	/* killed from outside while held: each open failed with ESRCH because of that */
	if (opened == 0 && status != -1 && WIFSIGNALED(status))
		return ended_held(status, "before its counters were opened");
	if (opened == 0 && !explained)	/* (a refusal for permissions said why) */
		nothing_countable(rows, cs);
	return PP_EXIT_ERROR;
}

/* Opens every counter of the run on the command (held, or followed from pmuprof until its
 * exec), or on the targets; 0, else the exit status after a message (the command not left
 * behind). */
static int open_counted(const struct stat_run_cfg *c, struct stat_event *rows,
			struct stat_counters *cs, struct workload *w, int on_exec, int held)
{
	const char *gone;
	pp_status st;
	int opened, e = 0, fixture = 0, explained = 0;

	/* counters enabled at the command's exec follow pmuprof itself, disabled, and the
	 * child vfork starts inherits them: they count from its exec, and when it ends the
	 * kernel adds its counts and times to the counters it inherited from (workload_start).
	 * A command with a target, -D or a control channel is held after its fork while its
	 * counters are opened on it (and enabled now, or later). */
	if (c->cmd && (st = on_exec ? workload_find(c->cmd, w, &e)
				    : workload_fork(c->cmd, w, &e)) != PP_OK)
		return not_run(c->cmd[0], st, e);
	opened = open_all(rows, cs, !c->cmd ? -1 : on_exec ? 0 : w->pid, c->only_run, c->quiet,
			  on_exec || held, c->no_inherit, &explained, &gone);
	/* the run would count less than the ones before it: the caller stops the series */
	if (gone && opened >= 0) {
		stat_counters_close(cs);
		if (c->cmd)
			workload_abort(w);
		if (c->gone)
			*c->gone = gone;
		return STAT_RUN_GONE;
	}
	for (size_t k = 0; k < cs->n; k++) {
		if (stat_in_run(&cs->c[k], c->only_run))
			cs->c[k].opened = cs->c[k].fd >= 0 || cs->c[k].tool;
		/* reported as such, nothing failed; a tool event needs no counter */
		fixture |= cs->c[k].fixture != NULL || cs->c[k].tool;
	}
	/* nothing opened: an error, unless the events are a fixture's (never opened) or this is
	 * one planned run of several (--mux=runs: its events are reported not supported); no
	 * counters at all is -n's null run */
	if (opened < 0 || (opened == 0 && cs->n && !fixture && c->only_run < 0))
		return none_opened(rows, cs, w, c->cmd != NULL, opened, explained);
	return 0;
}

/* Starts (or lets go) the command and waits for the end of counting; 0 or the exit status
 * after a message. */
static int counted_wait(const struct stat_run_cfg *c, struct stat_counters *cs,
			struct workload *w, struct workload_result *res, struct stat_ticks *ticks,
			int *count_stop, int *timed_out, int on_exec, int plain)
{
	pp_status st;
	int e = 0, waited = 0;

	if (c->cmd && (st = plain ? workload_spawn(w, c->cmd, res, &e)
			    : on_exec ? workload_start(w, c->cmd, &e)
				      : workload_go(w, &e)) != PP_OK) {
		stat_counters_close(cs);
		return st == PP_ESRCH ? ended_held(w->end_status, "before it ran")
				      : not_run(c->cmd[0], st, e);
	}
	if (c->ctl)	/* the command has its ends: its closing them is seen */
		stat_ctl_started(c->ctl);
	if (plain)
		stat_counters_read(cs);
	else if (stat_wait(c, c->cmd ? w : NULL, cs, res, ticks, count_stop, timed_out) != 0)
		waited = -1;
	stat_counters_close(cs);
	return waited < 0 ? PP_EXIT_ERROR : 0;
}

int stat_run_counted(const struct stat_run_cfg *c, struct stat_event *rows,
		     struct stat_counters *cs, struct workload_result *res,
		     struct stat_ticks *ticks, int *count_stop, int *timed_out)
{
	struct workload w = { .pid = -1, .go_fd = -1 };
	int target = stat_target_any(c->tgt);
	/* -D MS and -D -1 hold the command while its counters are opened, disabled */
	int later = c->delay_ms || (c->ctl && c->ctl->start_disabled);
	/* counters inherited through pmuprof's own vfork need inherit: -i opens them on the
	 * held child instead, each enabled at its exec as well (held) */
	int on_exec = c->cmd && !target && !later && !c->no_inherit;
	int held = c->cmd && !target && !later && c->no_inherit;
	/* a command and nothing to do until its end: no intervals, timeout, delay, channel */
	int plain = on_exec && !c->interval_ms && !c->timeout_ms && !c->ctl;
	int rc;

	reset(cs, c->only_run);
	*count_stop = *timed_out = 0;
	if (c->ctl && stat_ctl_run_begin(c->ctl, cs->n, !later) != 0)
		return PP_EXIT_ERROR;
	rc = open_counted(c, rows, cs, &w, on_exec, held);
	/* counters on CPUs or on running tasks count from now (or after -D) */
	if (!rc && !on_exec && !held && !later)
		stat_counters_enable(cs, 1);
	if (!rc)
		rc = counted_wait(c, cs, &w, res, ticks, count_stop, timed_out, on_exec, plain);
	if (c->ctl)
		stat_ctl_run_end(c->ctl);
	if (!rc)
		read_tools(cs, c->only_run, res, c->cmd != NULL);
	return rc;
}

int stat_open_wide(struct stat_event *rows, struct stat_counters *cs)
{
	int opened, explained = 0, fixture = 0;

	reset(cs, -1);
	opened = open_all(rows, cs, -1, -1, 1, 0, 1, &explained, NULL);
	for (size_t k = 0; k < cs->n; k++) {
		cs->c[k].opened = cs->c[k].fd >= 0;
		fixture |= cs->c[k].fixture != NULL;
	}
	if (opened < 0 || (opened == 0 && cs->n && !fixture)) {
		stat_counters_close(cs);
		if (opened == 0 && !explained)
			nothing_countable(rows, cs);
		return -1;
	}
	stat_counters_enable(cs, 1);
	return opened;
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
