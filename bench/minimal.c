/* SPDX-License-Identifier: Apache-2.0 */
/* minimal.c: the floor for pmuprof's start-up cost: it starts the command exactly as pmuprof's
 * workload.c does for a run counted from the exec and does nothing else: one software counter opened on
 * itself (disabled, enable_on_exec, inherit), vfork, the exec (its errno left in the shared
 * frame), wait4, the counter read.
 *   minimal /ABSOLUTE/PATH [ARGS...]   (no PATH search: pmuprof's is done before the vfork) */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	struct rusage ru;
	volatile int err = 0;
	int fd, status;
	uint64_t v[3] = { 0 };
	pid_t pid;

	if (argc < 2)
		return 2;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if ((pid = vfork()) == 0) {
		execve(argv[1], argv + 1, environ);
		err = errno;
		_exit(127);
	}
	if (pid < 0)
		return 2;
	wait4(pid, &status, 0, &ru);
	if (err)
		return 2;	/* exec failed */
	if (fd < 0 || read(fd, v, sizeof(v)) != sizeof(v))
		return 2;
	fprintf(stderr, "%llu ns task-clock\n", (unsigned long long)v[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
