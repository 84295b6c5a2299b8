/* minimal.c: the floor for pmuprof's start-up cost: it starts the command exactly as pmuprof's
 * workload.c does and does nothing else: _Fork, the child held on a socket (its calls bound
 * before the fork), one software counter opened on it with enable_on_exec, the go byte sent
 * (MSG_NOSIGNAL), wait4, the socket read for an exec's errno, the counter read.
 *   minimal /ABSOLUTE/PATH [ARGS...]   (no PATH search: pmuprof's is done before the fork) */
#define _GNU_SOURCE	/* _Fork */
#include <errno.h>
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

/* as workload.c's: bound at load, not lazily in the child */
static int (*volatile c_close)(int) = close;
static ssize_t (*volatile c_read)(int, void *, size_t) = read;
static int (*volatile c_execve)(const char *, char *const[], char *const[]) = execve;

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	struct rusage ru;
	int go[2], fd, status, e;
	uint64_t v[3] = { 0 };
	char c;
	pid_t pid;

	if (argc < 2 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0)
		return 2;
	if ((pid = _Fork()) == 0) {
		c_close(go[1]);
		if (c_read(go[0], &c, 1) != 1)
			_exit(125);
		c_execve(argv[1], argv + 1, environ);
		e = errno;
		if (send(go[0], &e, sizeof(e), MSG_NOSIGNAL) < 0)
			_exit(126);
		_exit(127);
	}
	close(go[0]);
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
	wait4(pid, &status, 0, &ru);
	if (recv(go[1], &e, sizeof(e), MSG_DONTWAIT) > 0)
		return 2;	/* exec failed */
	close(go[1]);
	if (fd < 0 || read(fd, v, sizeof(v)) != sizeof(v))
		return 2;
	fprintf(stderr, "%llu ns task-clock\n", (unsigned long long)v[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
