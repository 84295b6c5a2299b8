/* SPDX-License-Identifier: Apache-2.0 */
/* stat_interval.c: the wait for the end of counting, whenever there is more to it than the
 * command's end: -I, --timeout, -D, or a target (-a, -C, -p, -t) with or without a command.
 * pmuprof sleeps in poll() on timerfds (each interval, the timeout, the delay), a pidfd that
 * becomes readable when the command ends, a signalfd for SIGINT/SIGTERM when there is no
 * command to forward them to, and the attached processes' pidfds (no busy wait, no signal
 * races). At each tick it reads every counter and keeps the cumulative readings, from
 * which the report takes per-interval deltas. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "stat.h"
#include "stat_ctl.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

void stat_ticks_free(struct stat_ticks *t)
{
	free(t->t_ns);
	free(t->rd);
	memset(t, 0, sizeof(*t));
}

static uint64_t since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (uint64_t)(t1.tv_sec - t0->tv_sec) * 1000000000u + (uint64_t)(t1.tv_nsec - t0->tv_nsec);
}

/* Reads every counter now into a new tick (and each counter's rd), and tells c's on_tick
 * of it; -1 when memory ran out. */
static int tick(const struct stat_run_cfg *c, struct stat_ticks *t, struct stat_counters *cs,
		uint64_t t_ns)
{
	size_t n = cs->n;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		uint64_t *tn = realloc(t->t_ns, cap * sizeof(*tn));
		struct counter_reading *rd;

		if (!tn)
			return -1;
		t->t_ns = tn;
		if (!(rd = realloc(t->rd, cap * n * sizeof(*rd))))
			return -1;
		t->rd = rd;
		t->cap = cap;
	}
	t->ncounters = n;
	stat_counters_read(cs);
	/* duration_time so far, so that an interval's is its length; user_time and system_time
	 * come from the command's rusage, at its end only (none per interval, as perf's) */
	for (size_t k = 0; k < n; k++)
		if (cs->c[k].tool == STAT_TOOL_DURATION)
			cs->c[k].rd = (struct counter_reading){ t_ns, t_ns, t_ns };
	for (size_t k = 0; k < n; k++)
		t->rd[t->n * n + k] = cs->c[k].rd;
	t->t_ns[t->n++] = t_ns;
	if (c->on_tick)
		c->on_tick(c->tick_arg, cs, t);
	return 0;
}

/* A timer firing at t0 + ms, then every ms when periodic (absolute, so no drift). */
static int timer_at(const struct timespec *t0, unsigned ms, int periodic)
{
	struct itimerspec its = { 0 };
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

	its.it_value.tv_sec = t0->tv_sec + ms / 1000;
	its.it_value.tv_nsec = t0->tv_nsec + (long)(ms % 1000) * 1000000L;
	if (its.it_value.tv_nsec >= 1000000000L) {
		its.it_value.tv_sec++;
		its.it_value.tv_nsec -= 1000000000L;
	}
	if (periodic)
		its.it_interval = (struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000L };
	if (fd >= 0 && timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Whether the child has ended (without reaping it): for kernels without pidfd_open (< 5.3),
 * checked every 100 ms instead. */
static int ended(pid_t pid)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* Whether a task still exists (a thread given with -t, whose end no pidfd reports). */
static int alive(int tid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", tid);
	return access(path, F_OK) == 0;
}

/* What the wait watches; each slot -1 when unused. */
enum { W_TICK, W_TIMEOUT, W_DELAY, W_CMD, W_SIG, W_POLL, W_CTL, W_TASKS };

struct waiter {
	const struct stat_run_cfg *c;
	struct workload *w;
	struct stat_counters *cs;
	struct stat_ticks *t;
	struct pollfd *p;
	size_t np;
	int *ids;		/* the tasks' pidfds stand at p[W_TASKS + k] for ids[k] */
	int nids, left;		/* tasks followed, of which still running */
	struct timespec t0;	/* counting started (or will, after -D) */
	int enabled, timed_out, signalled;
};

static void drain(int fd)
{
	uint64_t x;

	if (read(fd, &x, sizeof(x)) < 0)
		x = 0;
}

/* The tasks that ended (pidfds readable, or a thread gone at a check); 1 when none is left. */
static int tasks_ended(struct waiter *v, int check)
{
	for (int k = 0; k < v->nids; k++) {
		struct pollfd *q = &v->p[W_TASKS + k];

		if (v->ids[k] < 0)
			continue;
		if ((q->fd >= 0 && (q->revents & (POLLIN | POLLHUP))) ||
		    (q->fd < 0 && check && !alive(v->ids[k]))) {
			v->ids[k] = -1;
			if (q->fd >= 0)
				close(q->fd);
			q->fd = -1;
			v->left--;
		}
	}
	return v->left <= 0;
}

/* One event of the wait; 1: counting ends, -1: failure, 0: go on. */
static int step(struct waiter *v)
{
	const struct stat_run_cfg *c = v->c;
	struct pollfd *p = v->p;

	/* the channel first: a line the command wrote just before its end still counts */
	if (p[W_CTL].fd >= 0 && (p[W_CTL].revents & (POLLIN | POLLHUP))) {
		int rc = stat_ctl_input(c->ctl, v->cs, since(&v->t0));

		if (rc < 0)
			return -1;
		if (rc > 0)
			p[W_CTL].fd = -1;	/* done with; stat_ctl closes it */
	}
	if (p[W_DELAY].fd >= 0 && (p[W_DELAY].revents & POLLIN)) {
		drain(p[W_DELAY].fd);
		close(p[W_DELAY].fd);
		p[W_DELAY].fd = -1;
		clock_gettime(CLOCK_MONOTONIC, &v->t0);
		stat_counters_enable(v->cs, 1);
		v->enabled = 1;
		if (c->ctl)
			c->ctl->enabled = 1;
		if (c->interval_ms && (p[W_TICK].fd = timer_at(&v->t0, c->interval_ms, 1)) < 0)
			return -1;
	}
	if (p[W_TICK].fd >= 0 && (p[W_TICK].revents & POLLIN)) {
		drain(p[W_TICK].fd);
		if (tick(c, v->t, v->cs, since(&v->t0)) != 0)
			return -1;
		if (c->interval_count && v->t->n >= c->interval_count) {
			close(p[W_TICK].fd);
			p[W_TICK].fd = -1;
			if (!v->w)
				return 2;	/* no command to run on: done */
			return 3;
		}
	}
	if (p[W_TIMEOUT].fd >= 0 && (p[W_TIMEOUT].revents & POLLIN)) {
		close(p[W_TIMEOUT].fd);
		p[W_TIMEOUT].fd = -1;
		v->timed_out = 1;
		if (!v->w)
			return 1;
		kill(v->w->pid, SIGTERM);	/* as perf: the command is ended, counted so far */
	}
	if (p[W_SIG].fd >= 0 && (p[W_SIG].revents & POLLIN)) {
		struct signalfd_siginfo si;

		if (read(p[W_SIG].fd, &si, sizeof(si)) == sizeof(si))
			v->signalled = 1;
		return 1;
	}
	if (p[W_CMD].fd >= 0 && (p[W_CMD].revents & (POLLIN | POLLHUP)))
		return 1;
	if (p[W_POLL].fd >= 0 && (p[W_POLL].revents & POLLIN)) {
		drain(p[W_POLL].fd);
		if (v->w && v->p[W_CMD].fd < 0 && ended(v->w->pid))
			return 1;
		if (v->nids && tasks_ended(v, 1))
			return 1;
	}
	if (v->nids && !v->w && tasks_ended(v, 0))
		return 1;
	return 0;
}

/* Watches until counting ends: 1 (or 2: --interval-count, no command), -1 on failure. */
static int watch(struct waiter *v)
{
	int rc, stop = 0;

	for (;;) {
		if (poll(v->p, v->np, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		rc = step(v);
		if (rc == 3) {	/* --interval-count: the command runs on, no more reads */
			stop = 1;
			continue;
		}
		if (rc)
			return rc < 0 ? -1 : stop ? 2 : rc;
	}
}

/* The descriptors the wait polls (v->p, all -1 before): the timers, the command's pidfd,
 * the signalfd with no command (SIGINT and SIGTERM blocked, the mask before in *old), the
 * tasks' pidfds; -1 after a message. */
static int watch_setup(struct waiter *v, sigset_t *old)
{
	const struct stat_run_cfg *c = v->c;
	struct pollfd *p = v->p;
	sigset_t block;
	int poll_ms = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	if (!v->w) {	/* no command to forward SIGINT to: it ends the counting */
		sigprocmask(SIG_BLOCK, &block, old);
		if ((p[W_SIG].fd = signalfd(-1, &block, SFD_CLOEXEC)) < 0) {
			sigprocmask(SIG_SETMASK, old, NULL);
			msg_error("cannot wait for SIGINT: %s", strerror(errno));
			return -1;
		}
	}
	if (c->delay_ms)
		p[W_DELAY].fd = timer_at(&v->t0, c->delay_ms, 0);
	else if (c->interval_ms)
		p[W_TICK].fd = timer_at(&v->t0, c->interval_ms, 1);
	if (c->timeout_ms)
		p[W_TIMEOUT].fd = timer_at(&v->t0, c->timeout_ms, 0);
	p[W_CTL].fd = stat_ctl_fd(c->ctl);
	if (v->w && (p[W_CMD].fd = (int)syscall(SYS_pidfd_open, v->w->pid, 0)) < 0)
		poll_ms = 100;	/* kernels before 5.3: look every 100 ms */
	for (int k = 0; k < v->nids; k++) {
		v->ids[k] = c->tgt->ids[k];
		/* a process's end shows on its pidfd; a thread's (no pidfd before Linux 6.9)
		 * is looked for every 100 ms */
		if ((p[W_TASKS + k].fd = (int)syscall(SYS_pidfd_open, v->ids[k], 0)) < 0)
			poll_ms = 100;
	}
	if (poll_ms) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		p[W_POLL].fd = timer_at(&now, (unsigned)poll_ms, 1);
	}
	return 0;
}

/* The end of the wait (rc: watch's): the command reaped, the times and the totals read.
 * -1 when the last tick could not be kept. */
static int watch_end(struct waiter *v, int rc, struct workload_result *res, int *count_stop,
		     int *timed_out)
{
	const struct stat_run_cfg *c = v->c;

	if (rc < 0) {
		msg_error("cannot wait for the end of counting: %s", strerror(errno));
		if (v->w)
			kill(v->w->pid, SIGTERM);
	}
	if (rc == 2)
		*count_stop = 1;	/* as perf stat's: no more intervals read */
	if (v->w) {
		workload_wait(v->w, res);
	} else {
		res->wall_ns = v->enabled ? since(&v->t0) : 0;
		res->interrupted = v->signalled;
	}
	if (v->w && v->enabled && c->delay_ms)
		res->wall_ns = since(&v->t0);	/* -D: the time counted */
	*timed_out = v->timed_out;
	/* the totals: the last interval's reading, which ends with the counting (counters on
	 * CPUs go on counting: a second read would not be the intervals' sum). Where
	 * --interval-count ended the counting (no command), that is the last interval's read,
	 * in each counter's rd already, and the time counted ends there; after the command ran
	 * on past the intervals, a read of the whole run */
	if (rc == 2 && !v->w && v->t->n)
		res->wall_ns = v->t->t_ns[v->t->n - 1];
	else if (rc >= 0 && c->interval_ms && !*count_stop && v->enabled)
		return tick(c, v->t, v->cs, since(&v->t0));
	else
		stat_counters_read(v->cs);
	return rc < 0 ? -1 : 0;
}

int stat_wait(const struct stat_run_cfg *c, struct workload *w, struct stat_counters *cs,
	      struct workload_result *res, struct stat_ticks *ticks, int *count_stop,
	      int *timed_out)
{
	const struct stat_target *tg = c->tgt;
	int nids = tg && tg->tasks && !w ? tg->nids : 0;
	struct pollfd *p = calloc((size_t)(W_TASKS + nids), sizeof(*p));
	int *ids = calloc((size_t)nids + 1, sizeof(*ids));
	struct waiter v = { .c = c, .w = w, .cs = cs, .t = ticks, .p = p,
			    .np = (size_t)(W_TASKS + nids), .ids = ids, .nids = nids,
			    .left = nids };
	sigset_t old;
	int rc = -1;

	if (!p || !ids) {
		msg_error("out of memory");
		if (w) {	/* the command is not left behind */
			kill(w->pid, SIGTERM);
			workload_wait(w, res);
		}
		goto out;
	}
	for (size_t k = 0; k < v.np; k++)
		p[k] = (struct pollfd){ .fd = -1, .events = POLLIN };
	if (w)
		v.t0 = w->t0;
	else
		clock_gettime(CLOCK_MONOTONIC, &v.t0);
	v.enabled = !c->delay_ms && !(c->ctl && c->ctl->start_disabled);
	if (watch_setup(&v, &old) != 0)
		goto out;
	rc = watch_end(&v, watch(&v), res, count_stop, timed_out);
	if (!w) {
		close(p[W_SIG].fd);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
out:
	for (size_t k = 0; p && k < v.np; k++)
		if (p[k].fd >= 0 && k != W_SIG && k != W_CTL)
			close(p[k].fd);
	free(p);
	free(ids);
	return rc < 0 ? -1 : 0;
}
