/* minimal.c: the floor for pmuprof's start-up cost: it starts the command exactly as pmuprof's
 * workload.c does and does nothing else: fork, the child held on a go-socket, one software
 * counter opened on it with enable_on_exec, the go byte sent (MSG_NOSIGNAL), the exec-error
 * pipe read to its EOF, wait4, the counter read.
 *   minimal /ABSOLUTE/PATH [ARGS...]   (no PATH search: pmuprof's is done before the fork) */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	struct rusage ru;
	int go[2], er[2], fd, status, e;
	uint64_t v[3] = { 0 };
	char c;
	pid_t pid;

	if (argc < 2 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0 ||
	    pipe2(er, O_CLOEXEC) < 0)
		return 2;
	if ((pid = fork()) == 0) {
		close(go[1]);
		close(er[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(125);
		execve(argv[1], argv + 1, environ);
		e = errno;
		if (write(er[1], &e, sizeof(e)) < 0)
			_exit(126);
		_exit(127);
	}
	close(go[0]);
	close(er[1]);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (send(go[1], "g", 1, MSG_NOSIGNAL) != 1)
		return 2;
	close(go[1]);
	if (read(er[0], &e, sizeof(e)) != 0)
		return 2;	/* exec failed */
	close(er[0]);
	wait4(pid, &status, 0, &ru);
	if (fd < 0 || read(fd, v, sizeof(v)) != sizeof(v))
		return 2;
	fprintf(stderr, "%llu ns task-clock\n", (unsigned long long)v[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
