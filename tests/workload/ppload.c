/* SPDX-License-Identifier: Apache-2.0 */
/* ppload.c: a workload with known behaviour for pmuprof's tests and demo. Steps run in order:
 *   spin MS        burn MS milliseconds of CPU time
 *   touch PAGES    write one byte to each of PAGES fresh pages (one page fault each)
 *   trickle N MS   touch N fresh pages one at a time, sleeping MS ms after each (page faults
 *                  spread over time, for interval counts)
 *   sleep N MS     sleep N times for MS milliseconds (a context switch each)
 *   fork N MS      N children, each spinning MS ms, all waited for
 *   threads N MS   N threads, each spinning MS ms, all joined
 *   fds            print the numbers of this process's open descriptors
 *   exit CODE      exit now with CODE
 *   kill SIG       kill itself with signal SIG
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile unsigned long sink;

static void spin(long ms)
{
	double end = cpu_ms() + (double)ms;

	while (cpu_ms() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
}

static void touch(long pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("ppload: mmap");
		exit(100);
	}
	for (long i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap(p, (size_t)(pages * psz));
}

static void nap(long n, long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	for (long i = 0; i < n; i++)
		nanosleep(&ts, NULL);
}

static void trickle(long n, long ms)
{
	for (long i = 0; i < n; i++) {
		touch(1);
		nap(1, ms);
	}
}

static void forks(long n, long ms)
{
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0) {
			spin(ms);
			_exit(0);
		}
		if (p < 0) {
			perror("ppload: fork");
			exit(100);
		}
	}
	while (wait(NULL) > 0)
		;
}

static void *thread_main(void *arg)
{
	spin((long)(intptr_t)arg);
	return NULL;
}

static void threads(long n, long ms)
{
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	for (long i = 0; t && i < n; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)ms) != 0) {
			fprintf(stderr, "ppload: cannot create thread %ld\n", i);
			exit(100);
		}
	for (long i = 0; t && i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
}

static void fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && atoi(de->d_name) != dirfd(d))
			printf("%s\n", de->d_name);
	if (d)
		closedir(d);
	fflush(stdout);
}

static long arg(char **argv, int *i, int argc)
{
	char *end;
	long v;

	if (*i + 1 >= argc) {
		fprintf(stderr, "ppload: '%s' needs a number\n", argv[*i]);
		exit(100);
	}
	v = strtol(argv[++*i], &end, 0);
	if (*end || v < 0) {
		fprintf(stderr, "ppload: '%s' is not a number\n", argv[*i]);
		exit(100);
	}
	return v;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *op = argv[i];
		long a, b;

		if (!strcmp(op, "spin"))
			spin(arg(argv, &i, argc));
		else if (!strcmp(op, "touch"))
			touch(arg(argv, &i, argc));
		else if (!strcmp(op, "sleep") && (a = arg(argv, &i, argc), b = arg(argv, &i, argc), 1))
			nap(a, b);
		else if (!strcmp(op, "trickle") && (a = arg(argv, &i, argc), b = arg(argv, &i, argc), 1))
			trickle(a, b);
		else if (!strcmp(op, "fork") && (a = arg(argv, &i, argc), b = arg(argv, &i, argc), 1))
			forks(a, b);
		else if (!strcmp(op, "threads") && (a = arg(argv, &i, argc), b = arg(argv, &i, argc), 1))
			threads(a, b);
		else if (!strcmp(op, "fds"))
			fds();
		else if (!strcmp(op, "exit"))
			exit((int)arg(argv, &i, argc));
		else if (!strcmp(op, "kill")) {
			a = arg(argv, &i, argc);
			signal((int)a, SIG_DFL);
			kill(getpid(), (int)a);
		} else {
			fprintf(stderr, "ppload: unknown step '%s'\n", op);
			return 100;
		}
	}
	return 0;
}
