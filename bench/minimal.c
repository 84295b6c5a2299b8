/* minimal.c: the reference for pmuprof's start-up cost: fork, hold the child on a pipe, open
 * one software counter on it with enable_on_exec, let it exec, wait, read. Nothing else. */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	int go[2], fd, status;
	uint64_t v[3] = { 0 };
	char c;
	pid_t pid;

	if (argc < 2 || pipe(go) < 0)
		return 2;
	if ((pid = fork()) == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(125);
		execvp(argv[1], argv + 1);
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
	fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
	if (write(go[1], "g", 1) != 1)
		return 2;
	waitpid(pid, &status, 0);
	if (fd < 0 || read(fd, v, sizeof(v)) != sizeof(v))
		return 2;
	fprintf(stderr, "%llu ns task-clock\n", (unsigned long long)v[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
