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
	 * cluster_id is 0 when the socket is known, as perf prints them) */
	int *socket, *die, *cluster, *core;
	/* unique over the machine (an index into the distinct (socket, die, cluster) and
	 * (socket, die, core) tuples, in CPU order), for aggregate.h; -1 when unknown */
	int *cluster_key, *core_key;
};

/* Reads the topology of every possible CPU. PP_ENOENT when the kernel gives no CPU list;
 * missing per-CPU files leave -1 (a CPU then aggregates alone). */
pp_status topo_read(struct topo *t);
void topo_free(struct topo *t);

/* The online CPUs, ascending (malloc'd *cpus of *n). */
pp_status topo_online_cpus(const struct topo *t, int **cpus, int *n);

/* The view aggregate.h takes (pointers into t: valid while t is). */
void topo_agg(const struct topo *t, struct agg_topology *out);
