/* SPDX-License-Identifier: Apache-2.0 */
/* ppregion.c: a workload that marks regions with pmuprof/region.h, for pmuprof's tests of
 * --regions and perf's --control. Steps run in order:
 *   begin NAME / end NAME   mark a region (the call's result is printed when not 0)
 *   touch PAGES             write one byte to each of PAGES fresh pages (a page fault each)
 *   loop N                  N iterations of a loop of fixed length (inst_retired: k * N)
 *   pair N1 N2              region r1 around loop N1, then region r2 around loop N2: the
 *                           same code between each begin and end but for N (the names
 *                           equally aligned), so r2 - r1 is exactly k * (N2 - N1)
 *   sleep MS                sleep MS milliseconds
 *   threads N NAME PAGES    N threads, each touching PAGES pages inside region NAME
 *   fork NAME PAGES         a child touching PAGES pages inside region NAME, waited for
 *   close                   close the channel's descriptors (PMUPROF_CTL_FD, _ACK_FD)
 *   kill SIG                kill itself with signal SIG
 *   bench N                 N begin/end pairs of region "bench"; prints ns per pair
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmuprof/region.h"

static void check(const char *what, const char *name, int rc)
{
	if (rc)
		printf("%s %s: %d (%s)\n", what, name, rc, strerror(-rc));
	fflush(stdout);
}

static void touch(long pages)
{
	long sz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(pages * sz), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(99);
	for (long k = 0; k < pages; k++)
		p[k * sz] = 1;
	munmap(p, (size_t)(pages * sz));
}

/* N iterations of a loop whose body is the same instructions every time. */
static void loop(long n)
{
	if (n <= 0)
		return;
#if defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#elif defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
	for (volatile long k = 0; k < n; k++)
		;
#endif
}

static void pair(long n1, long n2)
{
	static const char names[2][8] __attribute__((aligned(8))) = { "r1", "r2" };
	const long n[2] = { n1, n2 };
	int b[2], e[2];

	for (int k = 0; k < 2; k++) {
		b[k] = pmuprof_region_begin(names[k]);
		loop(n[k]);
		e[k] = pmuprof_region_end(names[k]);
	}
	for (int k = 0; k < 2; k++) {
		check("begin", names[k], b[k]);
		check("end", names[k], e[k]);
	}
}

struct job {
	const char *name;
	long pages;
};

static void *thread(void *arg)
{
	const struct job *j = arg;

	check("begin", j->name, pmuprof_region_begin(j->name));
	touch(j->pages);
	check("end", j->name, pmuprof_region_end(j->name));
	return NULL;
}

static void threads(int n, const char *name, long pages)
{
	pthread_t t[64];
	struct job j = { name, pages };

	n = n > 64 ? 64 : n;
	for (int k = 0; k < n; k++)
		pthread_create(&t[k], NULL, thread, &j);
	for (int k = 0; k < n; k++)
		pthread_join(t[k], NULL);
}

static void bench(long n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long k = 0; k < n; k++) {
		pmuprof_region_begin("bench");
		pmuprof_region_end("bench");
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f ns per begin/end pair\n",
	       ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *a = i + 1 < argc ? argv[i + 1] : "0";

		if (!strcmp(s, "begin") || !strcmp(s, "end")) {
			check(s, a, s[0] == 'b' ? pmuprof_region_begin(a) : pmuprof_region_end(a));
			i++;
		} else if (!strcmp(s, "touch")) {
			touch(atol(a));
			i++;
		} else if (!strcmp(s, "loop")) {
			loop(atol(a));
			i++;
		} else if (!strcmp(s, "pair") && i + 2 < argc) {
			pair(atol(a), atol(argv[i + 2]));
			i += 2;
		} else if (!strcmp(s, "sleep")) {
			usleep((useconds_t)atol(a) * 1000);
			i++;
		} else if (!strcmp(s, "threads") && i + 3 < argc) {
			threads(atoi(a), argv[i + 2], atol(argv[i + 3]));
			i += 3;
		} else if (!strcmp(s, "fork") && i + 2 < argc) {
			struct job j = { a, atol(argv[i + 2]) };
			pid_t pid = fork();

			if (pid == 0) {
				thread(&j);
				_exit(0);
			}
			waitpid(pid, NULL, 0);
			i += 2;
		} else if (!strcmp(s, "close")) {
			const char *c = getenv("PMUPROF_CTL_FD"), *k = getenv("PMUPROF_ACK_FD");

			if (c)
				close(atoi(c));
			if (k)
				close(atoi(k));
		} else if (!strcmp(s, "kill")) {
			kill(getpid(), atoi(a));
			i++;
		} else if (!strcmp(s, "bench")) {
			bench(atol(a));
			i++;
		} else {
			fprintf(stderr, "ppregion: unknown step '%s'\n", s);
			return 2;
		}
	}
	return 0;
}
