/* floor-arm64.c: the floor that bench/arm64 holds pmuprof against in the arm64 guest: the least
 * a counting tool must do. It reads one sysfs file (the Arm PMU's type), opens the counters
 * with enable_on_exec on a child it starts the way pmuprof does (src/workload.c), waits,
 * reads them and prints them; with -I it also reads and prints every MS milliseconds, with -r
 * it does all of it N times. Dynamically linked against libc only, like pmuprof.
 *   floor-arm64 [-r N] [-I MS] TYPEFILE EVENTS CMD [ARGS...]
 * EVENTS: a comma-separated list of hex event codes for that PMU, or sw:N / hw:N for perf's
 * PERF_TYPE_SOFTWARE / PERF_TYPE_HARDWARE config N. Counters are opened one by one (no
 * group), so that more events than counters are multiplexed by the kernel.
 * Its spawn (spawn_held, go) must follow src/workload.c's primitive: today _Fork, with the
 * child held on a pipe until the counters are open, its calls bound before the fork. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXEV 64

extern char **environ;

struct held {
	char **argv;
	int go_r, go_w;
};

/* as workload.c's: the child's calls bound when the program is loaded, not lazily in it */
static int (*volatile c_close)(int) = close;
static ssize_t (*volatile c_read)(int, void *, size_t) = read;
static int (*volatile c_execv)(const char *, char *const[]) = execv;

/* the child (forked): wait for the go byte, exec (argv[0] is a path: no PATH search, which
 * pmuprof does before the fork) */
static int child(void *arg)
{
	struct held *h = arg;
	char c;

	c_close(h->go_w);
	if (c_read(h->go_r, &c, 1) != 1)
		_exit(125);
	c_execv(h->argv[0], h->argv);
	_exit(127);
}

/* Starts argv held on a pipe, as workload_fork does: *go_w gets the pipe's end to release it. */
static pid_t spawn_held(char **argv, int *go_w)
{
	static struct held h;
	int go[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	h = (struct held){ .argv = argv, .go_r = go[0], .go_w = go[1] };
	pid = _Fork();
	if (pid == 0)
		child(&h);
	close(go[0]);
	*go_w = go[1];
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

/* One run: open, release, wait (reading every interval_ms when > 0), read, print. */
static int run_once(char **argv, struct perf_event_attr *a, int n, int interval_ms)
{
	int fd[MAXEV], go_w, status = 0;
	pid_t pid = spawn_held(argv, &go_w);

	if (pid < 0)
		return perror("floor: fork"), 1;
	for (int k = 0; k < n; k++)
		fd[k] = (int)syscall(SYS_perf_event_open, &a[k], pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (write(go_w, "g", 1) != 1)
		return perror("floor: go"), 1;
	close(go_w);
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
