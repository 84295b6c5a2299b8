/* SPDX-License-Identifier: Apache-2.0 */
/* gtime-arm64.c: the arm64 guest's stopwatch for bench/arm64 (static, no dynamic loader of its
 * own to time). Runs CMD N times, its output to /dev/null, and prints one line a run: the
 * guest nanoseconds from fork to wait4 (CLOCK_MONOTONIC: under QEMU's -icount shift=0 one
 * nanosecond per executed instruction, idle time skipped with sleep=off) and the exit status.
 *   gtime-arm64 N CMD [ARGS...] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[1]) : 0;

	if (n <= 0)
		return fprintf(stderr, "usage: gtime-arm64 N CMD [ARGS...]\n"), 2;
	for (int i = 0; i < n; i++) {
		int status = 0;
		long long t0 = now_ns();
		pid_t pid = fork();

		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			dup2(null, 2);
			execvp(argv[2], &argv[2]);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			return perror("gtime-arm64"), 1;
		printf("%lld %d\n", now_ns() - t0,
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	return 0;
}
