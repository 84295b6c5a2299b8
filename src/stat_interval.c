/* stat_interval.c: -I: while the command runs, pmuprof sleeps in poll() on a timerfd that
 * fires every interval and a pidfd that becomes readable when the command ends (no busy
 * wait, no signal races); at each tick it reads every counter and keeps the cumulative
 * readings, from which the report takes per-interval deltas. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "stat.h"

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

/* Reads every counter now into evs[k].rd (a split row: its parts' sum). */
static void read_all(struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (evs[k].fd >= 0 && counter_read(evs[k].fd, &evs[k].rd) != PP_OK)
			memset(&evs[k].rd, 0, sizeof(evs[k].rd));
}

/* Reads every counter now into a new tick (and evs[k].rd); -1 when memory ran out. */
static int tick(struct stat_ticks *t, struct stat_event *evs, size_t n, uint64_t t_ns)
{
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
	t->nevents = n;
	read_all(evs, n);
	for (size_t k = 0; k < n; k++)
		t->rd[t->n * n + k] = evs[k].rd;
	t->t_ns[t->n++] = t_ns;
	return 0;
}

/* A periodic timer from t0: ticks at t0 + ms, t0 + 2 ms, ... (absolute, so no drift). */
static int interval_timer(const struct timespec *t0, unsigned ms)
{
	struct itimerspec its = { .it_interval = { ms / 1000, (long)(ms % 1000) * 1000000L } };
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

	its.it_value.tv_sec = t0->tv_sec + its.it_interval.tv_sec;
	its.it_value.tv_nsec = t0->tv_nsec + its.it_interval.tv_nsec;
	if (its.it_value.tv_nsec >= 1000000000L) {
		its.it_value.tv_sec++;
		its.it_value.tv_nsec -= 1000000000L;
	}
	if (fd >= 0 && timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Whether the child has ended (without reaping it): for kernels without pidfd_open (< 5.3),
 * checked at each tick instead. */
static int ended(pid_t pid)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* Ticks until the command ends or the count is reached; 1 when the count ended it. */
static int loop(const struct stat_run_cfg *c, struct workload *w, struct stat_event *evs,
		size_t n, struct stat_ticks *t, int tfd, int pfd)
{
	struct pollfd p[2] = { { .fd = tfd, .events = POLLIN }, { .fd = pfd, .events = POLLIN } };
	uint64_t exp;

	for (;;) {
		if (poll(p, pfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if ((p[0].revents & POLLIN) && read(tfd, &exp, sizeof(exp)) == sizeof(exp)) {
			if (tick(t, evs, n, since(&w->t0)) != 0)
				return -1;
			if (c->interval_count && t->n >= c->interval_count)
				return 1;
			if (pfd < 0 && ended(w->pid))
				return 0;
		}
		if (pfd >= 0 && (p[1].revents & (POLLIN | POLLHUP)))
			return 0;
	}
}

int stat_interval_wait(const struct stat_run_cfg *c, struct workload *w,
		       struct stat_event *evs, size_t n, struct workload_result *res,
		       struct stat_ticks *ticks, int *count_stop)
{
	int pfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	int tfd = interval_timer(&w->t0, c->interval_ms);
	int rc = tfd < 0 ? -1 : loop(c, w, evs, n, ticks, tfd, pfd);

	if (rc < 0) {
		msg_error("cannot read the counters every %u ms: %s", c->interval_ms,
			  strerror(errno));
		kill(w->pid, SIGTERM);
	} else if (rc == 1) {
		/* --interval-count reached: as perf stat's, no more intervals are read, and
		 * the command runs on to its end (ending it is --timeout's job) */
		*count_stop = 1;
	}
	workload_wait(w, res);
	if (rc == 0 && tick(ticks, evs, n, since(&w->t0)) != 0)
		rc = -1;	/* the last interval ends with the command */
	if (rc == 1)
		read_all(evs, n);	/* the totals: the whole run, past the last interval */
	if (tfd >= 0)
		close(tfd);
	if (pfd >= 0)
		close(pfd);
	return rc < 0 ? -1 : 0;
}
