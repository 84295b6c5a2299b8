/* SPDX-License-Identifier: Apache-2.0 */
/* floor-arm64.c: the floor that bench/arm64 holds pmuprof against in the arm64 guest: the least
 * a counting tool must do. It reads one sysfs file (the Arm PMU's type), opens the counters
 * with enable_on_exec for a child it starts the way pmuprof does (src/count/workload.c), waits,
 * reads them and prints them; with -I it also reads and prints every MS milliseconds, with -r
 * it does all of it N times. Dynamically linked against libc only, like pmuprof.
 *   floor-arm64 [-r N] [-I MS] TYPEFILE EVENTS CMD [ARGS...]
 * EVENTS: a comma-separated list of hex event codes for that PMU, or sw:N / hw:N for perf's
 * PERF_TYPE_SOFTWARE / PERF_TYPE_HARDWARE config N. Counters are opened one by one (no
 * group), so that more events than counters are multiplexed by the kernel.
 * Its spawn must follow src/count/workload.c's: it opens the counters on itself, inherited by the
 * child vfork then starts and enabled at its exec (spawn_now). */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXEV 64

/* Starts argv at once, as workload_spawn does: vfork, the exec's errno left in the shared
 * frame. The counters are open on this process already. */
static pid_t spawn_now(char **argv)
{
	volatile int err = 0;
	pid_t pid = vfork();

	if (pid == 0) {
		execv(argv[0], argv);
		err = errno;
		_exit(127);
	}
	if (pid > 0 && err) {
		waitpid(pid, NULL, 0);
		errno = err;
		return -1;
	}
	return pid;
}

static int parse_events(char *list, uint32_t pmu_type, struct perf_event_attr *a)
{
	int n = 0;

	for (char *t = strtok(list, ","); t && n < MAXEV; t = strtok(NULL, ","), n++) {
		memset(&a[n], 0, sizeof(a[n]));
		a[n].size = sizeof(a[n]);
		a[n].type = pmu_type;
		if (!strncmp(t, "sw:", 3) || !strncmp(t, "hw:", 3)) {
			a[n].type = t[0] == 's' ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE;
			t += 3;
		}
		a[n].config = strtoull(t, NULL, 16);
		a[n].disabled = 1;
		a[n].enable_on_exec = 1;
		a[n].inherit = 1;
		a[n].exclude_guest = 1;
		a[n].read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	return n;
}

static void print_counts(const int *fd, int n)
{
	for (int k = 0; k < n; k++) {
		uint64_t v[3] = { 0, 0, 0 };

		if (fd[k] < 0 || read(fd[k], v, sizeof(v)) != sizeof(v))
			printf("<not counted>\n");
		else
			printf("%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", v[0], v[1], v[2]);
	}
}

/* One run: open, start, wait (reading every interval_ms when > 0), read, print. */
static int run_once(char **argv, struct perf_event_attr *a, int n, int interval_ms)
{
	int fd[MAXEV], status = 0;
	pid_t pid;

	for (int k = 0; k < n; k++)
		fd[k] = (int)syscall(SYS_perf_event_open, &a[k], 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if ((pid = spawn_now(argv)) < 0)
		return perror("floor: exec"), 1;
	if (interval_ms > 0) {
		/* a read every interval until the child ends, and not an interval longer: the
		 * child's pidfd wakes the wait the moment it exits */
		struct pollfd pf = { .fd = (int)syscall(SYS_pidfd_open, pid, 0), .events = POLLIN };

		while (pf.fd >= 0 && poll(&pf, 1, interval_ms) == 0)
			print_counts(fd, n);
		if (pf.fd >= 0)
			close(pf.fd);
	}
	waitpid(pid, &status, 0);
	print_counts(fd, n);
	for (int k = 0; k < n; k++)
		if (fd[k] >= 0)
			close(fd[k]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	struct perf_event_attr a[MAXEV];
	int runs = 1, interval_ms = 0, n, opt, st = 0;
	char buf[32];
	FILE *f;

	while ((opt = getopt(argc, argv, "+r:I:")) != -1) {
		if (opt == 'r')
			runs = atoi(optarg);
		else if (opt == 'I')
			interval_ms = atoi(optarg);
		else
			return 2;
	}
	if (argc - optind < 3)
		return fprintf(stderr, "usage: floor-arm64 [-r N] [-I MS] TYPEFILE EVENTS CMD...\n"), 2;
	if (!(f = fopen(argv[optind], "r")) || !fgets(buf, sizeof(buf), f))
		return fprintf(stderr, "floor-arm64: cannot read '%s'\n", argv[optind]), 1;
	fclose(f);
	n = parse_events(argv[optind + 1], (uint32_t)atoi(buf), a);
	for (int r = 0; r < runs; r++)
		st = run_once(&argv[optind + 2], a, n, interval_ms);
	return st;
}
