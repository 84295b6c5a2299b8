/* SPDX-License-Identifier: Apache-2.0 */
/* topo_cache.c: owns the CPUs' caches for --per-cache (topo.h): each online CPU's cache of
 * one level from /sys/devices/system/cpu/cpuN/cache/indexK/{level,type,id,shared_cpu_list},
 * and the machine-wide key of each cache instance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"
#include "topo.h"
#include "topo_priv.h"

/* The kernel lists a CPU's caches as index0, index1, ... without a gap (cacheinfo.c); a core
 * has four or five (L1d, L1i, L2, L3, and a system cache on some). */
#define INDEX_MAX 16

/* One cache of a CPU, as sysfs shows it. */
struct cache {
	int level;
	int id;			/* -1: the kernel gives none */
	int first_cpu;		/* the lowest CPU of shared_cpu_list, -1 when unreadable */
	int instruction;	/* type "Instruction" (else Data or Unified) */
};

/* Reads cache k of CPU cpu; -1 when there is none (the end of the list). */
static int read_cache(int cpu, int k, struct cache *out)
{
	char path[96], buf[4096];
	size_t dir;
	long long v;
	int *cpus, n;

	dir = (size_t)snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/",
			       cpu, k);
	strcpy(path + dir, "level");
	if (sysfs_read_ll(path, &v) != PP_OK || v < 1 || v > 15)
		return -1;
	out->level = (int)v;
	strcpy(path + dir, "id");
	out->id = sysfs_read_ll(path, &v) == PP_OK && v >= 0 && v <= 0x7fffffff ? (int)v : -1;
	strcpy(path + dir, "type");
	out->instruction = sysfs_read_str(path, buf, sizeof buf) == PP_OK &&
			   !strcmp(buf, "Instruction");
	out->first_cpu = -1;
	strcpy(path + dir, "shared_cpu_list");
	if (out->id < 0 && sysfs_read_cpulist(path, &cpus, &n) == PP_OK) {
		out->first_cpu = n ? cpus[0] : -1;
		free(cpus);
	}
	return 0;
}

/* Whether cache c is a better pick than the one held (*have, -1 level: none) for level
 * (0: the highest): a higher level when any will do, else data or unified over
 * instruction. */
static int better(const struct cache *c, const struct cache *have, int level)
{
	if (level && c->level != level)
		return 0;
	if (have->level < 0 || c->level > have->level)
		return 1;
	return c->level == have->level && have->instruction && !c->instruction;
}

/* CPU cpu's cache of level (0: its highest) into t's arrays; the levels it has into
 * *levels. */
static void read_cpu_cache(struct topo *t, int cpu, int level, unsigned *levels)
{
	struct cache c, pick = { .level = -1, .id = -1, .first_cpu = -1 };

	for (int k = 0; k < INDEX_MAX && read_cache(cpu, k, &c) == 0; k++) {
		*levels |= 1u << c.level;
		if (better(&c, &pick, level))
			pick = c;
	}
	t->cache_level[cpu] = pick.level;
	t->cache_id[cpu] = pick.id >= 0 ? pick.id : pick.first_cpu;
	if (t->cache_id[cpu] < 0)
		t->cache_level[cpu] = -1;
}

pp_status topo_read_caches(struct topo *t, int level, unsigned *levels)
{
	struct topo_tuple *tup;
	size_t n = 0;
	int *block;

	*levels = 0;
	if (!t || !t->ncpus || level < 0 || level > 4)
		return PP_EINVAL;
	free(t->cache_level);
	t->cache_level = t->cache_id = t->cache_key = NULL;
	if (!(block = malloc(3 * t->ncpus * sizeof *block)))
		return PP_ENOMEM;
	if (!(tup = malloc(t->ncpus * sizeof *tup))) {
		free(block);
		return PP_ENOMEM;
	}
	t->cache_level = block;
	t->cache_id = block + t->ncpus;
	t->cache_key = block + 2 * t->ncpus;
	for (size_t c = 0; c < t->ncpus; c++) {
		t->cache_level[c] = t->cache_id[c] = t->cache_key[c] = -1;
		/* an offline CPU has no cache/ (cacheinfo removes it on hot-unplug) */
		if (t->online[c])
			read_cpu_cache(t, (int)c, level, levels);
		if (t->cache_level[c] >= 0 && t->socket[c] >= 0 && t->die[c] >= 0)
			tup[n++] = (struct topo_tuple){ { t->socket[c], t->die[c],
							  t->cache_level[c], t->cache_id[c] },
							(int)c };
	}
	topo_number_keys(t->ncpus, tup, n, t->cache_key);
	free(tup);
	return n ? PP_OK : PP_ENOENT;
}
