/* SPDX-License-Identifier: Apache-2.0 */
/* counter.h: perf_event_open, read and close; the only module that touches counters. */
#ifndef PMUPROF_COUNTER_H
#define PMUPROF_COUNTER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "status.h"

/* One read with PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING. */
struct counter_reading {
	uint64_t value;
	uint64_t enabled;	/* ns the event was enabled */
	uint64_t running;	/* ns it was on a counter; < enabled when multiplexed */
};

/* Opens a counter (close-on-exec, so it never leaks into the workload). Returns the fd, or -1
 * with *err set to the errno the kernel gave. attr's read_format may ask for
 * PERF_FORMAT_GROUP (a leader read with its members: counter_read_group); the times are
 * always read. */
int counter_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, int *err);
/* Opens a counter on cpu that counts only while a task of the cgroup whose directory is
 * cgroup_fd runs there (PERF_FLAG_PID_CGROUP); a group's members must share the cgroup of
 * their leader (the kernel refuses others with EINVAL). Returns as counter_open. */
int counter_open_cgroup(const struct perf_event_attr *attr, int cgroup_fd, int cpu,
			int group_fd, int *err);
/* Reads a PERF_FORMAT_GROUP leader: out[0] the leader, out[1..] its members in the order
 * they were opened; returns how many (at most max), 0 when the read failed. One syscall. */
size_t counter_read_group(int fd, struct counter_reading *out, size_t max);
/* Enables or disables a counter and its group (PERF_EVENT_IOC_ENABLE / _DISABLE). */
pp_status counter_enable(int fd, int on);
/* Reads the counter. PP_EIO when the kernel returns nothing (a pinned event in error state). */
pp_status counter_read(int fd, struct counter_reading *r);
/* What counter_reserve_fds found. */
struct counter_fds {
	unsigned long long hard, need;	/* refused: the hard limit, and what is needed */
	int raised;			/* pmuprof's soft limit is raised (now or before) */
	struct rlimit caller;		/* raised: the limit before, the caller's */
};

/* Makes room for n counters: where the soft RLIMIT_NOFILE may be too low, counts the
 * descriptors open and raises the soft limit to what the run needs (never the hard limit),
 * as far as the hard limit allows. PP_EMFILE when even the hard limit (f->hard) is below
 * what is needed (f->need). f->caller is the limit to give back to the command. */
pp_status counter_reserve_fds(size_t n, struct counter_fds *f);
/* What an open errno means for the user: PP_ENOTSUP (the PMU or kernel cannot count it),
 * PP_EACCES (perf_event_paranoid or capabilities), PP_EMFILE, PP_EBUSY, PP_EINVAL. */
pp_status counter_status(int err);

#endif
