/* SPDX-License-Identifier: Apache-2.0 */
/* stat_topology.c: where the CPUs sit, for the report's units (--per-core, --per-cluster,
 * --per-socket, --per-die, --per-node, --per-cache): the topology read before the command
 * runs, so that a machine that cannot give it refuses the count and loses nothing. */
#include <stdio.h>

#include "msg.h"
#include "stat_cmd.h"
#include "topo.h"

static int needs_topology(enum report_aggr a)
{
	return a == REPORT_AGGR_CORE || a == REPORT_AGGR_CLUSTER || a == REPORT_AGGR_SOCKET ||
	       a == REPORT_AGGR_DIE || a == REPORT_AGGR_NODE || a == REPORT_AGGR_CACHE;
}

/* "1, 2, 3": the levels of the bits set in levels. */
static void level_list(unsigned levels, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 1; k < 16 && at < len; k++)
		if (levels & (1u << k)) {
			int w = snprintf(buf + at, len - at, "%sL%d", at ? ", " : "", k);

			at += w > 0 ? (size_t)w : 0;
		}
}

/* --per-cache: the caches of level (0: each CPU's highest); -1 after a message. */
static int read_caches(struct topo *t, int level)
{
	unsigned levels;
	char have[64];
	pp_status st = topo_read_caches(t, level, &levels);

	if (st == PP_OK)
		return 0;
	if (st == PP_ENOENT && levels) {
		level_list(levels, have, sizeof(have));
		msg_error("--per-cache=L%d: no CPU has a level %d cache (this machine's "
			  "caches are %s): give one of those levels", level, level, have);
	} else if (st == PP_ENOENT) {
		msg_error("--per-cache needs the CPUs' caches, which /sys/devices/system/cpu/cpuN/"
			  "cache does not list: --per-cluster or --per-core groups the CPUs "
			  "instead");
	} else {
		msg_error("--per-cache cannot read the CPUs' caches: %s", pp_strstatus(st));
	}
	return -1;
}

int stat_topology_read(const struct stat_opts *o, struct topo *t)
{
	pp_status st;

	if (!needs_topology(o->aggr))
		return 0;
	if ((st = topo_read(t)) != PP_OK) {
		msg_error("%s needs the CPU topology, which cannot be read from "
			  "/sys/devices/system/cpu (%s): -A gives one row per CPU instead",
			  o->aggr_opt, pp_strstatus(st));
		return -1;
	}
	return o->aggr == REPORT_AGGR_CACHE ? read_caches(t, o->cache_level) : 0;
}

void stat_topology_view(const struct topo *t, struct agg_topology *at, struct topo_ids *ids)
{
	topo_agg(t, at);
	*ids = (struct topo_ids){ t->ncpus, t->socket, t->die, t->cluster, t->core,
				  t->cache_level, t->cache_id };
}
