/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs_cache.c: owns the per-boot cache of probe.c's probes of the Arm PMUs' counters
 * (include/cachefile.h says where it lives and how it is turned off).
 *
 * No sysfs file gives PMCR_EL0.N, so probe.c finds a PMU's counters by opening groups of
 * events and letting each trial run (milliseconds a PMU, on any machine). The answer holds
 * for as long as the PMU's registration: a line a probe, "cap NAME TYPE GENERAL CYCLE ICNTR
 * HOW PROBE_US", keyed by the PMU's name and perf type (a PMU registered again, by a module
 * reloaded, gets a new type), in a file whose first lines name the sysfs root and the boot.
 * Counters another tool held during the probe stay missing from its answer until the file is
 * removed. Everything else about the PMUs is read from sysfs at every run. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefile.h"
#include "sysfs_priv.h"

#define CACHE_NAME "counters"
#define CACHE_MAGIC "pmuprof-counters 1\n"

/* The file's first lines for this sysfs root and boot, malloc'd; NULL when there is no boot to
 * key on, or the root cannot be written on a line. */
static char *cache_head(void)
{
	char boot[64], *s;

	if (sysfs_boot_id(boot, sizeof boot) != PP_OK || strchr(sysfs_root(), '\n') ||
	    asprintf(&s, "%sroot %s\nboot %s\n", CACHE_MAGIC, sysfs_root(), boot) < 0)
		return NULL;
	return s;
}

/* A PMU name the file can hold as one word of a line. */
static int word_ok(const char *s)
{
	return sysfs_name_ok(s) && !strpbrk(s, " \t\n\r");
}

/* One "cap ..." line (its newline cut) into *pr when it is p's and well formed: 0, else -1. */
static int parse_cap(char *line, const struct sysfs_pmu *p, struct sysfs_probed *pr)
{
	char *save, *w[9];
	long long x[5];
	int n = 0;

	for (char *t = strtok_r(line, " ", &save); t && n < 9; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	if (n != 8 || strcmp(w[0], "cap") || strcmp(w[1], p->name))
		return -1;
	/* x: type, general, cycle, icntr (w[2] to w[5]), probe_us (w[7]); w[6]: how */
	for (int k = 0; k < 5; k++)
		if (sysfs_parse_decimal(w[k < 4 ? k + 2 : 7], &x[k]) != 0)
			return -1;
	if (x[0] != p->type || x[1] <= 0 || x[1] > SYSFS_MAX_GENERAL || x[2] < -1 || x[2] > 1 ||
	    x[3] < -1 || x[3] > 1 || x[4] < 0 || (strcmp(w[6], "cpu") && strcmp(w[6], "task")))
		return -1;
	*pr = (struct sysfs_probed){ .general = (int)x[1], .cycle = (int)x[2], .icntr = (int)x[3],
				     .task = !strcmp(w[6], "task"), .probe_us = x[4] };
	return 0;
}

pp_status sysfs_cache_path(char *buf, size_t len)
{
	if (cachefile_off())
		return PP_ENOTSUP;
	return cachefile_path(buf, len, CACHE_NAME) == 0 ? PP_OK : PP_ENOENT;
}

int sysfs_cache_probe(const struct sysfs_pmu *p, struct sysfs_probed *out)
{
	char path[PATH_MAX], *head, *line = NULL;
	size_t hlen, at = 0, cap = 0;
	ssize_t n;
	int found = -1;
	FILE *f = NULL;

	if (!word_ok(p->name) || cachefile_path(path, sizeof path, CACHE_NAME) != 0 ||
	    !(head = cache_head()))
		return -1;
	hlen = strlen(head);
	if (!(f = fopen(path, "re")))
		goto out;
	/* the head, then the probes: the last good line of p counts; a line cut short (no
	 * newline yet: its writer is still at it) is not read */
	while ((n = getline(&line, &cap, f)) > 0 && line[n - 1] == '\n') {
		if (at < hlen) {	/* another root's or boot's file: no answer */
			if ((size_t)n > hlen - at || memcmp(line, head + at, (size_t)n) != 0)
				break;
			at += (size_t)n;
			continue;
		}
		line[n - 1] = '\0';
		if (parse_cap(line, p, out) == 0)
			found = 0;
	}
out:
	if (f)
		fclose(f);
	free(line);
	free(head);
	return found;
}

void sysfs_cache_add_probe(const struct sysfs_pmu *p, const struct sysfs_probed *pr)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32], *head, *have = NULL, line[SYSFS_NAME_MAX + 96];
	size_t hlen;
	int len, fd = -1, done = 0;
	FILE *f;

	if (!word_ok(p->name) || cachefile_path(path, sizeof path, CACHE_NAME) != 0 ||
	    !(head = cache_head()))
		return;
	hlen = strlen(head);
	len = snprintf(line, sizeof line, "cap %s %d %d %d %d %s %lld\n", p->name, p->type,
		       pr->general, pr->cycle, pr->icntr, pr->task ? "task" : "cpu", pr->probe_us);
	if (len <= 0 || (size_t)len >= sizeof line)
		goto out;
	/* appended in one write to this root's and boot's file, so that no other writer's line
	 * lands in its middle; else a new file replaces the old one */
	if ((have = malloc(hlen)) && (fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)) >= 0 &&
	    pread(fd, have, hlen, 0) == (ssize_t)hlen && memcmp(have, head, hlen) == 0)
		done = write(fd, line, (size_t)len) == len;
	if (!done && (f = cachefile_create(path, tmp, sizeof tmp))) {
		fputs(head, f);
		fputs(line, f);
		cachefile_commit(f, tmp, path);
	}
out:
	if (fd >= 0)
		close(fd);
	free(have);
	free(head);
}
