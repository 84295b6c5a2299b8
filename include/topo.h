/* SPDX-License-Identifier: Apache-2.0 */
/* topo.h: where each CPU sits, from sysfs topology (/sys/devices/system/cpu/cpuN/topology/
 * physical_package_id, die_id, cluster_id, core_id) and which CPUs are online, under the
 * sysfs root (PMUPROF_SYSFS_ROOT), for perf's targets and aggregation modes: -a (online CPUs),
 * -C LIST, --per-core, --per-cluster, --per-socket. */
#ifndef PMUPROF_TOPO_H
#define PMUPROF_TOPO_H

#include <stddef.h>

#include "aggregate.h"
#include "status.h"

struct topo {
	size_t ncpus;		/* highest possible CPU number + 1; arrays below are this long */
	int *online;		/* 1: online (cpu/online, or every possible CPU when absent) */
	/* sysfs ids per CPU as the kernel gives them (-1 when unknown; an absent die_id or
	 * cluster_id is 0 when the socket is known, as perf prints them). An offline CPU has
	 * no topology/ directory (the kernel removes it on hot-unplug): all -1. x86 shows an
	 * unknown cluster_id as -1 or, since its u16 l2c_id, as 65535 (BAD_APICID). */
	int *socket, *die, *cluster, *core;
	/* unique over the machine (an index into the distinct (socket, die, cluster) and
	 * (socket, die, cluster, core) tuples, in CPU order), for aggregate.h; -1 when
	 * unknown (socket or die unknown; for core_key also the core). The cluster is in the
	 * core's tuple because device-tree arm64 numbers core_id within each cluster (CPU 0
	 * and CPU 4 of a big.LITTLE phone are both core 0); a cluster_id of -1 (no cluster)
	 * makes the die the cluster. */
	int *cluster_key, *core_key;
	int *die_key;		/* unique over the machine: (socket, die); -1 when unknown */
	int *node;		/* NUMA node (node/nodeN/cpulist; 0 without NUMA); -1 offline */
	/* --per-cache (topo_read_caches; NULL until then): each online CPU's cache of the
	 * level read, from cpuN/cache/indexK/: its level and id (-1: none), and a key unique
	 * over the machine for (socket, die, level, id), -1 when unknown */
	int *cache_level, *cache_id, *cache_key;
};

/* Reads the topology of every possible CPU, each file once, online CPUs only. PP_ENOENT
 * when the kernel gives no CPU list (no or an empty cpu/possible); PP_EINVAL when
 * cpu/possible or cpu/online is malformed; PP_ERANGE when either names a CPU at or above
 * SYSFS_MAX_CPUS (sysfs.h). Missing or malformed per-CPU files leave -1:
 * that CPU's readings then fall in aggregate.h's unit -1, apart from every known unit. */
pp_status topo_read(struct topo *t);
void topo_free(struct topo *t);

/* Reads each online CPU's cache of level (1 to 4; 0: the CPU's highest level, perf's default
 * for --per-cache) into t's cache arrays: of the caches at that level, the unified or data
 * one. Its id is the cache's id file, or where the kernel gives none (many arm64 kernels:
 * the id comes from firmware tables that often lack it) the lowest CPU of its
 * shared_cpu_list, which names the instance as uniquely. PP_ENOENT when no online CPU has a
 * cache of that level (*levels then has bit N set for each level N some CPU has: 0 when sysfs
 * lists no cache at all). */
pp_status topo_read_caches(struct topo *t, int level, unsigned *levels);

/* The online CPUs, ascending (malloc'd *cpus of *n). */
pp_status topo_online_cpus(const struct topo *t, int **cpus, int *n);

/* The CPUs of a -C LIST ("0-3,8": the kernel's cpulist format), ascending, each once
 * (malloc'd *cpus of *n). PP_EINVAL for a malformed or empty list; PP_ERANGE when a CPU
 * of it is not online (or not possible), *bad then being the lowest such CPU (INT_MAX for
 * a number too large for an int), -1 otherwise. The caller words the message. */
pp_status topo_cpu_list(const struct topo *t, const char *list, int **cpus, int *n, int *bad);

/* The view aggregate.h takes (pointers into t: valid while t is): core, cluster and die are
 * the keys, socket the package id, node the NUMA node. */
void topo_agg(const struct topo *t, struct agg_topology *out);

#endif
