/* SPDX-License-Identifier: Apache-2.0 */
/* topo.c: owns the CPU topology (topo.h): the possible and online CPUs, each online CPU's
 * package, die, cluster and core ids from sysfs, and the machine-wide keys built on them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "sysfs.h"
#include "textline.h"
#include "topo.h"
#include "topo_priv.h"

#define CPU_DIR "/sys/devices/system/cpu/"
/* Longest id file path: CPU_DIR "cpu1023/topology/physical_package_id" is 60 bytes. */
#define ID_PATH_MAX 96

/* The arrays of struct topo, in the order of the one allocation that holds them. */
enum { A_ONLINE, A_SOCKET, A_DIE, A_CLUSTER, A_CORE, A_CLUSTER_KEY, A_CORE_KEY, A_DIE_KEY,
       A_NODE, A_COUNT };

/* Writes CPU_DIR "cpu<cpu>/topology/" into path and returns its length. Built by hand: it
 * runs for every online CPU of every -a or --per-* run (no formatting call per file). */
static size_t topology_dir(char *path, int cpu)
{
	static const char pre[] = CPU_DIR "cpu", post[] = "/topology/";
	char digits[12], *d = textline_digits((unsigned)cpu, 10, 1, digits + sizeof digits);
	size_t len = sizeof pre - 1, nd = (size_t)(digits + sizeof digits - d);

	memcpy(path, pre, len);
	memcpy(path + len, d, nd);
	len += nd;
	memcpy(path + len, post, sizeof post);
	return len + sizeof post - 1;
}

/* One id file of the directory path[0..dirlen): its value; -1 when it is missing (*absent
 * set), malformed or beyond an int (the kernel prints an int, "%d"). */
static int read_id(char *path, size_t dirlen, const char *file, int *absent)
{
	long long v;
	pp_status st;

	strcpy(path + dirlen, file);
	st = sysfs_read_ll(path, &v);
	*absent = st == PP_ENOENT;
	if (st != PP_OK || v < INT_MIN || v > INT_MAX)
		return -1;
	return (int)v;
}

/* Reads the four ids of one online CPU. die_id exists on x86 only and cluster_id from 5.16
 * (TOPOLOGY_DIE_SYSFS, TOPOLOGY_CLUSTER_SYSFS in drivers/base/topology.c): absent, they are
 * 0 once the socket is known, as perf prints them. */
static void read_cpu(struct topo *t, int cpu)
{
	char path[ID_PATH_MAX];
	size_t dirlen = topology_dir(path, cpu);
	int absent, sock;

	sock = t->socket[cpu] = read_id(path, dirlen, "physical_package_id", &absent);
	t->die[cpu] = read_id(path, dirlen, "die_id", &absent);
	if (absent && sock >= 0)
		t->die[cpu] = 0;
	t->cluster[cpu] = read_id(path, dirlen, "cluster_id", &absent);
	if (absent && sock >= 0)
		t->cluster[cpu] = 0;
	t->core[cpu] = read_id(path, dirlen, "core_id", &absent);
}

/* Whether an online CPU's tuple of nids ids is known: socket and die, and the core when it
 * is part of the tuple (a cluster of -1 is known: no cluster, the die stands for it). */
static int tuple_known(const struct topo *t, int c, int nids)
{
	return t->online[c] && t->socket[c] >= 0 && t->die[c] >= 0 &&
	       (nids < 4 || t->core[c] >= 0);
}

static int tuple_cmp(const void *a, const void *b)
{
	const struct topo_tuple *x = a, *y = b;

	for (int j = 0; j < 4; j++)
		if (x->id[j] != y->id[j])
			return x->id[j] < y->id[j] ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

void topo_number_keys(size_t ncpus, struct topo_tuple *tup, size_t n, int *keys)
{
	size_t i, c;
	int nkeys = 0;

	qsort(tup, n, sizeof *tup, tuple_cmp);
	/* each CPU first points at the lowest CPU of its tuple (which sorts first) ... */
	for (i = 0; i < n; i++)
		keys[tup[i].cpu] = i && memcmp(tup[i].id, tup[i - 1].id, sizeof tup[i].id) == 0 ?
					   keys[tup[i - 1].cpu] : tup[i].cpu;
	/* ... then, in CPU order, that CPU's key: a new one for the lowest, taken from it
	 * (already numbered, being lower) for the others */
	for (c = 0; c < ncpus; c++)
		if (keys[c] >= 0)
			keys[c] = keys[c] == (int)c ? nkeys++ : keys[keys[c]];
}

/* keys[c] = the index of CPU c's tuple (the first nids of socket, die, cluster, core) among
 * the distinct known tuples, numbered in the order of their first CPUs; -1 when unknown.
 * tup (ncpus long) is scratch. */
static void make_keys(struct topo *t, int nids, int *keys, struct topo_tuple *tup)
{
	size_t n = 0;

	for (size_t c = 0; c < t->ncpus; c++) {
		keys[c] = -1;
		if (tuple_known(t, (int)c, nids))
			tup[n++] = (struct topo_tuple){ { t->socket[c], t->die[c],
							  nids >= 3 ? t->cluster[c] : 0,
							  nids == 4 ? t->core[c] : 0 }, (int)c };
	}
	topo_number_keys(t->ncpus, tup, n, keys);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Marks the online CPUs: those of cpu/online that are possible, or every possible CPU when
 * the file is absent (kernels without CPU hotplug). */
static pp_status mark_online(struct topo *t, const int *possible, int npossible)
{
	int *cpus, n, i;
	pp_status st;

	st = sysfs_read_cpulist(CPU_DIR "online", &cpus, &n);
	if (st == PP_ENOENT) {
		for (i = 0; i < npossible; i++)
			t->online[possible[i]] = 1;
		return PP_OK;
	}
	if (st != PP_OK)
		return st;
	for (i = 0; i < n; i++)
		if (bsearch(&cpus[i], possible, (size_t)npossible, sizeof *possible, cmp_int))
			t->online[cpus[i]] = 1;
	free(cpus);
	return PP_OK;
}

/* The NUMA node of each online CPU, from node/nodeN/cpulist of the possible nodes; without
 * NUMA in sysfs (CONFIG_NUMA off) every online CPU is on node 0. */
static void read_nodes(struct topo *t)
{
	char path[64];
	int *nodes = NULL, nn = 0, *cpus, n;

	for (size_t c = 0; c < t->ncpus; c++)
		t->node[c] = -1;
	if (sysfs_read_cpulist("/sys/devices/system/node/possible", &nodes, &nn) != PP_OK) {
		for (size_t c = 0; c < t->ncpus; c++)
			t->node[c] = t->online[c] ? 0 : -1;
		return;
	}
	for (int k = 0; k < nn; k++) {
		/* one path per node, not per CPU: a few nodes at most */
		snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", nodes[k]);
		if (sysfs_read_cpulist(path, &cpus, &n) != PP_OK)
			continue;
		for (int j = 0; j < n; j++)
			if ((size_t)cpus[j] < t->ncpus && t->online[cpus[j]])
				t->node[cpus[j]] = nodes[k];
		free(cpus);
	}
	free(nodes);
}

pp_status topo_read(struct topo *t)
{
	int *possible, n, *block, c;
	struct topo_tuple *tup = NULL;
	pp_status st;
	size_t i;

	if (!t)
		return PP_EINVAL;
	memset(t, 0, sizeof *t);
	if ((st = sysfs_read_cpulist(CPU_DIR "possible", &possible, &n)) != PP_OK)
		return st;
	if (!n) {
		free(possible);
		return PP_ENOENT;
	}
	t->ncpus = (size_t)possible[n - 1] + 1;
	if (!(block = malloc(A_COUNT * t->ncpus * sizeof *block))) {
		free(possible);
		return PP_ENOMEM;
	}
	for (i = 0; i < A_COUNT * t->ncpus; i++)
		block[i] = i < t->ncpus ? 0 : -1;
	t->online = block + A_ONLINE * t->ncpus;
	t->socket = block + A_SOCKET * t->ncpus;
	t->die = block + A_DIE * t->ncpus;
	t->cluster = block + A_CLUSTER * t->ncpus;
	t->core = block + A_CORE * t->ncpus;
	t->cluster_key = block + A_CLUSTER_KEY * t->ncpus;
	t->core_key = block + A_CORE_KEY * t->ncpus;
	t->die_key = block + A_DIE_KEY * t->ncpus;
	t->node = block + A_NODE * t->ncpus;
	st = mark_online(t, possible, n);
	free(possible);
	if (st == PP_OK && !(tup = malloc(t->ncpus * sizeof *tup)))
		st = PP_ENOMEM;
	if (st != PP_OK) {
		topo_free(t);
		return st;
	}
	/* an offline CPU has no topology/ (topology_remove_dev on hot-unplug): not read */
	for (c = 0; (size_t)c < t->ncpus; c++)
		if (t->online[c])
			read_cpu(t, c);
	make_keys(t, 2, t->die_key, tup);
	make_keys(t, 3, t->cluster_key, tup);
	read_nodes(t);
	make_keys(t, 4, t->core_key, tup);
	free(tup);
	return PP_OK;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	free(t->online);	/* the start of the one allocation */
	free(t->cache_level);	/* topo_read_caches' */
	memset(t, 0, sizeof *t);
}

pp_status topo_online_cpus(const struct topo *t, int **cpus, int *n)
{
	int *v, c, count = 0;

	if (!t || !cpus || !n)
		return PP_EINVAL;
	*cpus = NULL;
	*n = 0;
	for (c = 0; (size_t)c < t->ncpus; c++)
		count += t->online[c] != 0;
	if (!(v = malloc(((size_t)count + 1) * sizeof *v)))
		return PP_ENOMEM;
	for (c = 0, count = 0; (size_t)c < t->ncpus; c++)
		if (t->online[c])
			v[count++] = c;
	*cpus = v;
	*n = count;
	return PP_OK;
}

pp_status topo_cpu_list(const struct topo *t, const char *list, int **cpus, int *n, int *bad)
{
	int *v, nv, over, i, first = -1;
	pp_status st;

	if (!t || !list || !cpus || !n || !bad)
		return PP_EINVAL;
	*cpus = NULL;
	*n = 0;
	*bad = -1;
	st = sysfs_parse_cpulist_over(list, &v, &nv, &over);
	if (st != PP_OK && st != PP_ERANGE)
		return st;
	if (st == PP_OK && !nv) {
		free(v);
		return PP_EINVAL;	/* "" or blank: no list at all */
	}
	for (i = 0; i < nv && first < 0; i++)
		if ((size_t)v[i] >= t->ncpus || !t->online[v[i]])
			first = v[i];
	if (st == PP_ERANGE || first >= 0) {
		free(v);
		*bad = first >= 0 ? first : over;	/* over is above any CPU of v */
		return PP_ERANGE;
	}
	*cpus = v;
	*n = nv;
	return PP_OK;
}

void topo_agg(const struct topo *t, struct agg_topology *out)
{
	out->ncpus = t->ncpus;
	out->core = t->core_key;
	out->cluster = t->cluster_key;
	out->socket = t->socket;
	out->die = t->die_key;
	out->node = t->node;
	out->cache = t->cache_key;
}
