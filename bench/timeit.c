/* SPDX-License-Identifier: Apache-2.0 */
/* timeit.c: runs several commands N times each, interleaved so that drift in the machine's
 * speed falls on all of them alike, and prints per command the median wall time and the peak
 * resident memory of its process tree, and the median CPU time (user + system) of the tree,
 * which other processes on a loaded machine do not stretch as they stretch wall time. Output
 * goes to /dev/null.
 *   timeit N LABEL CMD [ARGS...] ::: LABEL CMD [ARGS...] ::: ...
 * prints lines "LABEL median_ns maxrss_kib median_cpu_ns". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct cmd {
	char *label;
	char **argv;
	long long *ns, *cpu;
	long maxrss;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void run_once(struct cmd *c, int i)
{
	struct rusage ru;
	long long t0 = now_ns();
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	wait4(pid, &status, 0, &ru);
	c->ns[i] = now_ns() - t0;
	c->cpu[i] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
	if (ru.ru_maxrss > c->maxrss)
		c->maxrss = ru.ru_maxrss;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "timeit: '%s' failed (status %d)\n", c->label, status);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct cmd cmds[16];
	int n, ncmd = 0;

	if (argc < 4 || (n = atoi(argv[1])) <= 0)
		return fprintf(stderr, "usage: timeit N LABEL CMD... [::: LABEL CMD...]\n"), 2;
	for (int i = 2; i < argc && ncmd < 16; ncmd++) {
		struct cmd *c = &cmds[ncmd];
		c->label = argv[i++];
		c->argv = &argv[i];
		while (i < argc && strcmp(argv[i], ":::") != 0)
			i++;
		if (i < argc)
			argv[i++] = NULL;
		c->ns = calloc((size_t)n, sizeof(*c->ns));
		c->cpu = calloc((size_t)n, sizeof(*c->cpu));
		c->maxrss = 0;
	}
	for (int r = 0; r < n; r++)
		for (int k = 0; k < ncmd; k++)
			run_once(&cmds[k], r);
	for (int k = 0; k < ncmd; k++) {
		qsort(cmds[k].ns, (size_t)n, sizeof(long long), cmp);
		qsort(cmds[k].cpu, (size_t)n, sizeof(long long), cmp);
		printf("%s %lld %ld %lld\n", cmds[k].label, cmds[k].ns[n / 2], cmds[k].maxrss,
		       cmds[k].cpu[n / 2]);
		free(cmds[k].ns);
		free(cmds[k].cpu);
	}
	return 0;
}
