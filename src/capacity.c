/* capacity.c: an Arm PMU's counters found by probing: groups of k events opened on one of its
 * CPUs (binary search on k), then one CPU_CYCLES and one INST_RETIRED more for the fixed
 * counters; the answer cached per boot (keyed by PMU name, MIDR and boot_id). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cachefile.h"
#include "capacity.h"
#include "counter.h"
#include "evtab.h"
#include "strbuf.h"
#include "sysfs.h"
#include "textline.h"

#define EV_SW_INCR 0x00		/* any event counter, never a fixed one */
#define EV_INST 0x08
#define EV_CYCLES 0x11
#define MAX_GENERAL 31		/* PMCR_EL0.N is 5 bits; 31 is PMCCNTR's index */
#define SPIN_NS 200000		/* how long a group is left enabled */

/* Where and how a trial opens its events. */
struct probe_at {
	int type, cpu;
	pid_t pid;
	int user_only;
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void spin(void)
{
	double end = now_ms() + SPIN_NS / 1e6;

	while (now_ms() < end)
		;
}

/* One member of a trial group: general events, then cycles and inst when asked. */
static unsigned long long member_config(int i, int k, int cycles)
{
	if (i < k)
		return EV_SW_INCR;
	return cycles && i == k ? EV_CYCLES : EV_INST;
}

/* Whether a group of k general events (+ CPU_CYCLES, + INST_RETIRED) is scheduled for all
 * of its enabled time: 1 yes, 0 no, or -errno when its leader cannot be opened. The
 * siblings are opened enabled, so an oversized group fails at open (EINVAL from the
 * driver's validate_group); one that opens must still run (counters taken by others). */
static int trial(const struct probe_at *at, int k, int cycles, int inst)
{
	int fds[MAX_GENERAL + 3], n = k + cycles + inst, opened = 0, fit = 1, err = 0;
	struct perf_event_attr a;

	for (int i = 0; i < n && fit; i++) {
		memset(&a, 0, sizeof(a));
		a.type = (unsigned)at->type;
		a.config = member_config(i, k, cycles);
		a.disabled = i == 0;
		a.exclude_kernel = a.exclude_hv = (unsigned)at->user_only;
		fds[i] = counter_open(&a, at->pid, at->cpu, i ? fds[0] : -1, &err);
		if (fds[i] < 0)
			fit = i == 0 ? -err : 0;
		else
			opened++;
	}
	if (fit == 1 && counter_enable(fds[0], 1) == PP_OK) {
		spin();
		counter_enable(fds[0], 0);
		for (int i = 0; i < n; i++) {
			struct counter_reading r;

			if (counter_read(fds[i], &r) != PP_OK || !r.enabled || r.running != r.enabled)
				fit = 0;
		}
	}
	for (int i = 0; i < opened; i++)
		close(fds[i]);
	return fit;
}

/* The largest k that fits (binary search; fits(0) holds). -errno when nothing can open. */
static int search(const struct probe_at *at)
{
	int lo = 0, hi = MAX_GENERAL + 1, r = trial(at, 1, 0, 0);

	if (r < 0)
		return r;
	if (r == 0)
		return 0;
	lo = 1;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if ((r = trial(at, mid, 0, 0)) < 0)
			return r;
		if (r)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Probes with per-CPU events on the PMU's first CPU, else on pmuprof itself (user space,
 * pinned to the PMU's CPUs: a task's arm_pmu event counts only there). */
static int probe_where(const struct sysfs_pmu *p, struct probe_at *at, struct capacity *c)
{
	cpu_set_t old, set;
	int g, pinned = 0;

	*at = (struct probe_at){ p->type, p->ncpus ? p->cpus[0] : 0, -1, 0 };
	snprintf(c->how, sizeof(c->how), "cpu %d", at->cpu);
	if ((g = search(at)) != -EACCES && g != -EPERM)
		return g;
	*at = (struct probe_at){ p->type, -1, 0, 1 };
	snprintf(c->how, sizeof(c->how), "task");
	CPU_ZERO(&set);
	for (int k = 0; k < p->ncpus && p->cpus[k] < CPU_SETSIZE; k++)
		CPU_SET(p->cpus[k], &set);
	if (p->ncpus && sched_getaffinity(0, sizeof(old), &old) == 0)
		pinned = sched_setaffinity(0, sizeof(set), &set) == 0;
	g = search(at);
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	return g;
}

/* Why a probe that found g (0, or -errno) counters tells nothing; refused: the words for an
 * open refused for another reason than permission. */
static void probe_failed(struct capacity *c, int g, const char *refused)
{
	snprintf(c->why, sizeof(c->why), "%s", g == -EACCES || g == -EPERM
		 ? "not permitted to probe (perf_event_paranoid; run as root)"
		 : g == 0 ? "no group of one event was ever scheduled" : refused);
}

void capacity_probe(const struct sysfs_pmu *p, struct capacity *c)
{
	const struct evtab_core *core = p->midr ? evtab_core_by_midr(p->midr) : NULL;
	double t0 = now_ms();
	struct probe_at at;
	int g;

	memset(c, 0, sizeof(*c));
	c->per_arm = core ? evtab_core_counters(core) : -1;
	c->cycle = c->icntr = -1;
	c->general = -1;
	if (*sysfs_root()) {	/* a fixture's PMU type may be another PMU's number here */
		snprintf(c->why, sizeof(c->why), "not probed: the PMUs are a fixture tree");
		return;
	}
	g = probe_where(p, &at, c);
	if (g <= 0) {
		probe_failed(c, g, "the PMU refused the probe's events");
	} else {
		c->general = g;
		c->source = "probed";
		c->cycle = trial(&at, g, 1, 0) == 1;
		c->icntr = trial(&at, g, c->cycle, 1) == 1 ? 1 : -1;
	}
	c->probe_ms = now_ms() - t0;
}

void capacity_probe_hw(struct capacity *c)
{
	struct sysfs_pmu hw = { .type = PERF_TYPE_HARDWARE };
	double t0 = now_ms();
	struct probe_at at;
	int g;

	memset(c, 0, sizeof(*c));
	c->per_arm = c->cycle = c->icntr = c->general = -1;
	if (*sysfs_root()) {
		snprintf(c->why, sizeof(c->why), "not probed: the PMUs are a fixture tree");
		return;
	}
	/* member_config's general event, code 0, is PERF_COUNT_HW_CPU_CYCLES here */
	g = probe_where(&hw, &at, c);
	if (g <= 0)
		probe_failed(c, g, "the kernel refused the probe's cycles event");
	else {
		c->general = g;
		c->source = "probed";
	}
	c->probe_ms = now_ms() - t0;
}

int capacity_cache_path(const struct sysfs_pmu *p, char *buf, size_t len)
{
	char name[SYSFS_NAME_MAX + 32], hex[TEXTLINE_NUM_LEN];

	strjoin(name, sizeof(name), (const char *const[]){ p->name, "-",	/* "%s-%llx.counters" */
		textline_str(p->midr, 16, hex), ".counters" }, 4);
	return cachefile_path(buf, len, name);
}

/* The next whitespace-separated word of *s, NUL-terminated in place; NULL at the end. */
static char *next_word(char **s)
{
	char *w = *s;

	while (*w == ' ' || *w == '\t' || *w == '\n')
		w++;
	if (!*w)
		return NULL;
	*s = w;
	while (**s && **s != ' ' && **s != '\t' && **s != '\n')
		(*s)++;
	if (**s)
		*(*s)++ = '\0';
	return w;
}

/* A word as an int: an optional '-', decimal digits, at most INT_MAX either way; -1 when it
 * is not one. */
static int word_int(const char *w, int *v)
{
	long long x;

	if (!w || sysfs_parse_decimal(w, &x) || x > INT_MAX || x < -INT_MAX)
		return -1;
	*v = (int)x;
	return 0;
}

/* A word "D[.D]" (as cache_write's %.3f writes it) as the double strtod gives: digits < 2^53
 * over a power of ten that a double holds exactly, one correctly rounded division. -1 for
 * anything else (a cache that does not answer). */
static int word_double(const char *w, double *v)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	uint64_t m = 0;
	int k = -1, n = 0;

	for (; w && *w; w++, n++) {
		if (*w == '.' && k < 0) {
			k = 0;
			continue;
		}
		if (*w < '0' || *w > '9' || n > 15)
			return -1;
		m = m * 10 + (uint64_t)(*w - '0');
		k += k >= 0;
	}
	if (!w || !n || k == 0 || k > 9)
		return -1;
	*v = (double)m / p10[k < 0 ? 0 : k];
	return 0;
}

/* The cache holds one line: "BOOT_ID GENERAL CYCLE ICNTR HOW PROBE_MS". 0 when it answers
 * for this boot. Read with one read() into the stack, not stdio (whose 4 KiB buffer on the
 * heap and fstat every run paid for a 60-byte line: issue 16), and taken apart by hand, not
 * sscanf (its pages of libc, and strtod's, a page fault each). */
static int cache_read(const char *path, const char *boot, struct capacity *c)
{
	char line[256], *s = line, *id, *how;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	line[n] = '\0';
	id = next_word(&s);
	ok = id && strlen(id) < 64 && !word_int(next_word(&s), &c->general) &&
	     !word_int(next_word(&s), &c->cycle) && !word_int(next_word(&s), &c->icntr) &&
	     (how = next_word(&s)) && strlen(how) < 40 && !word_double(next_word(&s), &c->probe_ms) &&
	     !strcmp(id, boot) && c->general > 0 && c->general <= MAX_GENERAL;
	if (!ok)
		return -1;
	strjoin(c->how, sizeof(c->how), (const char *const[]){ strcmp(how, "task") ? "cpu" : "task" },
		1);
	c->source = "cached";
	return 0;
}

/* Writes the cache atomically (temporary file, rename); failures are silent: it is a cache. */
static void cache_write(const char *path, const char *boot, const struct capacity *c)
{
	char tmp[600];
	FILE *f = cachefile_create(path, tmp, sizeof(tmp));

	if (!f)
		return;
	fprintf(f, "%s %d %d %d %s %.3f\n", boot, c->general, c->cycle, c->icntr,
		strncmp(c->how, "task", 4) ? "cpu" : "task", c->probe_ms);
	cachefile_commit(f, tmp, path);
}

void capacity_get(const struct sysfs_pmu *p, struct capacity *c)
{
	char boot[64], path[512];
	int have_key = sysfs_boot_id(boot, sizeof(boot)) ==
		       PP_OK && capacity_cache_path(p, path, sizeof(path)) == 0;
	const struct evtab_core *core = p->midr ? evtab_core_by_midr(p->midr) : NULL;

	memset(c, 0, sizeof(*c));
	c->per_arm = core ? evtab_core_counters(core) : -1;
	if (have_key && cache_read(path, boot, c) == 0)
		return;
	capacity_probe(p, c);
	if (have_key && c->general > 0)
		cache_write(path, boot, c);
}
