/* SPDX-License-Identifier: Apache-2.0 */
/* counter.c: perf_event_open, read and close: the one module that opens and reads counters. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counter.h"

static int open_flags(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		      unsigned long flags, int *err)
{
	struct perf_event_attr a = *attr;
	long fd;

	a.size = sizeof(a);
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			(attr->read_format & PERF_FORMAT_GROUP);
	fd = syscall(SYS_perf_event_open, &a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC | flags);
	*err = fd < 0 ? errno : 0;
	return fd < 0 ? -1 : (int)fd;
}

int counter_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, int *err)
{
	return open_flags(attr, pid, cpu, group_fd, 0, err);
}

int counter_open_cgroup(const struct perf_event_attr *attr, int cgroup_fd, int cpu,
			int group_fd, int *err)
{
	return open_flags(attr, cgroup_fd, cpu, group_fd, PERF_FLAG_PID_CGROUP, err);
}

pp_status counter_enable(int fd, int on)
{
	return ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) == 0 ? PP_OK
										      : PP_EIO;
}

pp_status counter_read(int fd, struct counter_reading *r)
{
	uint64_t buf[3];
	ssize_t n;

	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(buf)) {
		memset(r, 0, sizeof(*r));
		return PP_EIO;
	}
	r->value = buf[0];
	r->enabled = buf[1];
	r->running = buf[2];
	return PP_OK;
}

size_t counter_read_group(int fd, struct counter_reading *out, size_t max)
{
	uint64_t buf[3 + 64];	/* nr, enabled, running, values (a group fits 64 members) */
	ssize_t n;
	size_t nr;

	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < (ssize_t)(3 * sizeof(uint64_t)))
		return 0;
	nr = (size_t)buf[0];
	if (nr > 64 || (size_t)n < (3 + nr) * sizeof(uint64_t))
		return 0;
	for (size_t k = 0; k < nr && k < max; k++)
		out[k] = (struct counter_reading){ buf[3 + k], buf[1], buf[2] };
	return nr < max ? nr : max;
}

/* The kernel says "this PMU cannot count that" in several ways: ENOENT (no PMU accepted the
 * type/config: hardware events on a machine without a PMU), ENODEV, EOPNOTSUPP (e.g.
 * exclude_idle on arm), EINVAL for a config the driver rejects, E2BIG for an attr it does not
 * know. EACCES/EPERM come from perf_event_paranoid or a missing CAP_PERFMON. */
pp_status counter_status(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return PP_EACCES;
	case EMFILE:
	case ENFILE:
		return PP_EMFILE;
	case EBUSY:
		return PP_EBUSY;
	case ENOMEM:
		return PP_ENOMEM;
	default:
		return PP_ENOTSUP;
	}
}

/* Descriptors pmuprof opens during a run besides its counters: the held command's socket
 * pair (2), up to three timerfds (-I, --timeout, -D), the command's pidfd and a signalfd,
 * the report's temporary file (-o), and one file read at a time. perf opens one fewer of
 * each; one event under a hard limit of 20 counts. */
#define FD_MARGIN 10
/* Descriptors a caller may have open that need no count: below this many beyond the
 * counters and the margin, the soft limit is taken as enough without looking. */
#define FD_SLACK 32

/* The limit the first raise found: the caller's, which every later call (--topdown's second
 * pass) reports, the limit being pmuprof's own by then. */
static struct rlimit caller_limit;
static int caller_raised;

/* Descriptors open below lim (where new ones are numbered: the lowest free first). One
 * fcntl each: lim is small where this is asked. */
static rlim_t open_below(rlim_t lim)
{
	rlim_t k, open = 0;

	for (k = 0; k < lim; k++)
		open += fcntl((int)k, F_GETFD) >= 0;
	return open;
}

pp_status counter_reserve_fds(size_t n, struct counter_fds *f)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)n + FD_MARGIN;

	memset(f, 0, sizeof(*f));
	f->raised = caller_raised;
	f->caller = caller_limit;
	f->need = (unsigned long long)want;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= want + FD_SLACK)
		return PP_OK;
	want += open_below(rl.rlim_cur);
	f->need = (unsigned long long)want;
	if (rl.rlim_cur >= want)
		return PP_OK;
	f->hard = (unsigned long long)rl.rlim_max;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		return PP_EMFILE;
	if (!caller_raised)
		caller_limit = rl;
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return PP_EMFILE;
	f->raised = caller_raised = 1;
	f->caller = caller_limit;
	return PP_OK;
}
