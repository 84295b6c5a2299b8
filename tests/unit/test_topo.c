/* SPDX-License-Identifier: Apache-2.0 */
/* test_topo.c: the topology reader against the fixture trees in tests/fixtures (run from the
 * repo root, or point PMUPROF_FIXTURES at the directory): ids and keys per CPU, the online
 * mask, -C lists, each CPU's cache of a level (--per-cache), aggregation by core, cluster,
 * socket and cache through agg_build with topo_agg's view (expected sums worked out by hand),
 * and this machine's own /sys against lscpu. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "sysfs.h"
#include "tap.h"
#include "topo.h"

static const char *fixtures = "tests/fixtures";

static void use_tree(const char *tree)
{
	char root[PATH_MAX];

	snprintf(root, sizeof root, "%s/%s", fixtures, tree);
	sysfs_set_root(root);
}

#define NCPU_MAX 8

/* What topo_read gives per CPU of a tree. */
static const struct tree_row {
	int line;
	const char *tree;
	int ncpus;
	int online[NCPU_MAX], socket[NCPU_MAX], die[NCPU_MAX], cluster[NCPU_MAX],
		core[NCPU_MAX], cluster_key[NCPU_MAX], core_key[NCPU_MAX];
} tree_rows[] = {
	/* device tree: one package, no die_id (x86 only: 0), cluster 0 = A55s, 1 = A76s, and
	 * core_id numbered within each cluster: CPU 0 and CPU 4 are different cores */
	{ __LINE__, "phone-a55-a76", 8,
	  { 1, 1, 1, 1, 1, 1, 1, 1 },
	  { 0, 0, 0, 0, 0, 0, 0, 0 },
	  { 0, 0, 0, 0, 0, 0, 0, 0 },
	  { 0, 0, 0, 0, 1, 1, 1, 1 },
	  { 0, 1, 2, 3, 0, 1, 2, 3 },
	  { 0, 0, 0, 0, 1, 1, 1, 1 },
	  { 0, 1, 2, 3, 4, 5, 6, 7 } },
	/* two sockets whose cluster and core ids restart; CPU 6 offline (no topology/) */
	{ __LINE__, "n1-2s", 8,
	  { 1, 1, 1, 1, 1, 1, 0, 1 },
	  { 0, 0, 0, 0, 1, 1, -1, 1 },
	  { 0, 0, 0, 0, 0, 0, -1, 0 },
	  { 0, 0, 1, 1, 0, 0, -1, 1 },
	  { 0, 1, 2, 3, 0, 1, -1, 3 },
	  { 0, 0, 1, 1, 2, 2, -1, 3 },
	  { 0, 1, 2, 3, 4, 5, -1, 6 } },
	/* no online file: all possible online. cpu0-1: no cluster_id (0); cpu2: garbage
	 * core_id; cpu3: no physical_package_id (nothing known but the core); cpu4: no
	 * topology/; cpu5: socket 1, cluster_id -1 (its die is the cluster) */
	{ __LINE__, "topo-partial", 6,
	  { 1, 1, 1, 1, 1, 1 },
	  { 0, 0, 0, -1, -1, 1 },
	  { 0, 0, 0, -1, -1, 0 },
	  { 0, 0, 0, -1, -1, -1 },
	  { 0, 1, -1, 3, -1, 0 },
	  { 0, 0, 0, -1, -1, 1 },
	  { 0, 1, -1, -1, -1, 2 } },
};

static void check_ids(const char *tree, int line, const char *what, const int *got,
		      const int *want, int n)
{
	for (int c = 0; c < n; c++)
		TAP_EQ_INT(got[c], want[c], "line %d: %s: cpu%d %s", line, tree, c, what);
}

static void test_trees(void)
{
	for (size_t i = 0; i < sizeof tree_rows / sizeof tree_rows[0]; i++) {
		const struct tree_row *r = &tree_rows[i];
		struct topo t;

		use_tree(r->tree);
		if (!TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: %s: read", r->line, r->tree))
			continue;
		if (TAP_EQ_INT(t.ncpus, r->ncpus, "line %d: %s: ncpus", r->line, r->tree)) {
			check_ids(r->tree, r->line, "online", t.online, r->online, r->ncpus);
			check_ids(r->tree, r->line, "socket", t.socket, r->socket, r->ncpus);
			check_ids(r->tree, r->line, "die", t.die, r->die, r->ncpus);
			check_ids(r->tree, r->line, "cluster", t.cluster, r->cluster, r->ncpus);
			check_ids(r->tree, r->line, "core", t.core, r->core, r->ncpus);
			check_ids(r->tree, r->line, "cluster key", t.cluster_key, r->cluster_key,
				  r->ncpus);
			check_ids(r->tree, r->line, "core key", t.core_key, r->core_key, r->ncpus);
		}
		topo_free(&t);
		tap_ok(t.online == NULL && t.ncpus == 0, "line %d: %s: freed", r->line, r->tree);
	}
}

/* Trees that give no topology, or none at all. */
static void test_missing(void)
{
	struct topo t;
	int known = 0, online = 0;

	/* n1-server has cpu/possible (0-79) and no topology/ or online file */
	use_tree("n1-server");
	if (TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: n1-server: read", __LINE__)) {
		TAP_EQ_INT(t.ncpus, 80, "line %d: n1-server: ncpus", __LINE__);
		for (size_t c = 0; c < t.ncpus; c++) {
			online += t.online[c];
			known += t.socket[c] != -1 || t.die[c] != -1 || t.cluster[c] != -1 ||
				 t.core[c] != -1 || t.cluster_key[c] != -1 || t.core_key[c] != -1;
		}
		TAP_EQ_INT(online, 80, "line %d: n1-server: every possible CPU online", __LINE__);
		TAP_EQ_INT(known, 0, "line %d: n1-server: CPUs with any id or key", __LINE__);
		topo_free(&t);
	}
	use_tree("broken-nosys");	/* no /sys at all */
	TAP_EQ_INT(topo_read(&t), PP_ENOENT, "line %d: no cpu/possible", __LINE__);
	TAP_EQ_INT(t.ncpus, 0, "line %d: no cpu/possible: nothing read", __LINE__);
	topo_free(&t);
	use_tree("broken");		/* cpu/possible "0-" */
	TAP_EQ_INT(topo_read(&t), PP_EINVAL, "line %d: malformed cpu/possible", __LINE__);
	TAP_EQ_INT(topo_read(NULL), PP_EINVAL, "line %d: NULL", __LINE__);
	topo_free(NULL);
}

static void test_online(void)
{
	static const int want[] = { 0, 1, 2, 3, 4, 5, 7 };
	struct topo t;
	int *cpus, n;

	use_tree("n1-2s");
	if (!TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: n1-2s: read", __LINE__))
		return;
	if (TAP_EQ_INT(topo_online_cpus(&t, &cpus, &n), PP_OK, "line %d: online", __LINE__)) {
		if (TAP_EQ_INT(n, 7, "line %d: online: count", __LINE__))
			tap_ok(!memcmp(cpus, want, sizeof want), "line %d: online: 0-5,7",
			       __LINE__);
		free(cpus);
	}
	topo_free(&t);
}

/* -C lists on n1-2s (possible 0-7, CPU 6 offline) and topo-partial (0-5, no online file). */
static const struct list_row {
	int line;
	const char *tree, *list;
	pp_status st;
	int bad, n;
	int cpus[NCPU_MAX];
} list_rows[] = {
	{ __LINE__, "n1-2s", "0-3", PP_OK, -1, 4, { 0, 1, 2, 3 } },
	{ __LINE__, "n1-2s", "7,0,5-5,0", PP_OK, -1, 3, { 0, 5, 7 } },
	{ __LINE__, "n1-2s", "0-5,7", PP_OK, -1, 7, { 0, 1, 2, 3, 4, 5, 7 } },
	{ __LINE__, "n1-2s", " 4-5 ", PP_OK, -1, 2, { 4, 5 } },
	{ __LINE__, "n1-2s", "0-7", PP_ERANGE, 6, 0, { 0 } },
	{ __LINE__, "n1-2s", "6", PP_ERANGE, 6, 0, { 0 } },
	{ __LINE__, "n1-2s", "8", PP_ERANGE, 8, 0, { 0 } },
	{ __LINE__, "n1-2s", "9,8", PP_ERANGE, 8, 0, { 0 } },
	{ __LINE__, "n1-2s", "7,5000", PP_ERANGE, 5000, 0, { 0 } },
	{ __LINE__, "n1-2s", "5000,6", PP_ERANGE, 6, 0, { 0 } },
	{ __LINE__, "n1-2s", "99999999999999999999", PP_ERANGE, INT_MAX, 0, { 0 } },
	{ __LINE__, "n1-2s", "", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", " ", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "x", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "0-", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "3-1", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "-1", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "0,,1", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "6,x", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "n1-2s", "0 1", PP_EINVAL, -1, 0, { 0 } },
	{ __LINE__, "topo-partial", "0-5", PP_OK, -1, 6, { 0, 1, 2, 3, 4, 5 } },
	{ __LINE__, "topo-partial", "4,6", PP_ERANGE, 6, 0, { 0 } },
};

static void test_cpu_list(void)
{
	const char *tree = NULL;
	struct topo t = { 0 };

	for (size_t i = 0; i < sizeof list_rows / sizeof list_rows[0]; i++) {
		const struct list_row *r = &list_rows[i];
		int *cpus = (int *)&i, n = -7, bad = -7;	/* poisoned: must be set */
		pp_status st;

		if (!tree || strcmp(tree, r->tree)) {
			topo_free(&t);
			use_tree(tree = r->tree);
			if (!TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: %s: read", r->line, tree))
				return;
		}
		st = topo_cpu_list(&t, r->list, &cpus, &n, &bad);
		TAP_EQ_INT(st, r->st, "line %d: -C '%s': status", r->line, r->list);
		TAP_EQ_INT(bad, r->bad, "line %d: -C '%s': the CPU named", r->line, r->list);
		TAP_EQ_INT(n, r->n, "line %d: -C '%s': count", r->line, r->list);
		if (st != PP_OK) {
			tap_ok(cpus == NULL, "line %d: -C '%s': no list on error", r->line, r->list);
			continue;
		}
		if (n == r->n)
			tap_ok(!memcmp(cpus, r->cpus, (size_t)n * sizeof *cpus),
			       "line %d: -C '%s': the CPUs, ascending", r->line, r->list);
		free(cpus);
	}
	topo_free(&t);
}

#define RD(c, v, w, r) { .ev = 0, .part = -1, .cpu = c, .task = -1, .interval = READING_TOTAL, \
			 .value = v, .enabled = w, .running = r, .window = w }

/* One event on every online CPU c: 100 * (c + 1) for all of its 1000 ns, except CPU 5,
 * multiplexed: 300 for 250 of its 1000 ns, 1200 once scaled. */
static const struct reading phone_rd[] = {
	RD(0, 100, 1000, 1000), RD(1, 200, 1000, 1000), RD(2, 300, 1000, 1000),
	RD(3, 400, 1000, 1000), RD(4, 500, 1000, 1000), RD(5, 300, 1000, 250),
	RD(6, 700, 1000, 1000), RD(7, 800, 1000, 1000),
};
/* n1-2s: the same without CPU 6, which is offline */
static const struct reading server_rd[] = {
	RD(0, 100, 1000, 1000), RD(1, 200, 1000, 1000), RD(2, 300, 1000, 1000),
	RD(3, 400, 1000, 1000), RD(4, 500, 1000, 1000), RD(5, 300, 1000, 250),
	RD(7, 800, 1000, 1000),
};

/* The expected rows of one mode: unit, value, scaled. */
struct unit_want {
	int32_t unit;
	double value;
	int scaled;
};

static const struct agg_case {
	int line;
	const char *tree;
	const struct reading *rd;
	size_t nrd;
	enum agg_mode mode;
	size_t nrows;
	struct unit_want rows[NCPU_MAX];
	int cache_level;	/* AGG_CACHE: the level read (0: each CPU's highest) */
} agg_cases[] = {
	/* every CPU its own core: CPU 0 and CPU 4 (both core_id 0) stay apart */
	{ __LINE__, "phone-a55-a76", phone_rd, 8, AGG_CORE, 8,
	  { { 0, 100, 0 }, { 1, 200, 0 }, { 2, 300, 0 }, { 3, 400, 0 }, { 4, 500, 0 },
	    { 5, 1200, 1 }, { 6, 700, 0 }, { 7, 800, 0 } }, 0 },
	/* A55s: 100+200+300+400 = 1000; A76s: 500+1200+700+800 = 3200, an estimate */
	{ __LINE__, "phone-a55-a76", phone_rd, 8, AGG_CLUSTER, 2,
	  { { 0, 1000, 0 }, { 1, 3200, 1 } }, 0 },
	{ __LINE__, "phone-a55-a76", phone_rd, 8, AGG_SOCKET, 1, { { 0, 4200, 1 } }, 0 },
	/* cores 0-5 are CPUs 0-5, core 6 is CPU 7 (socket 1's core_id 3, not socket 0's) */
	{ __LINE__, "n1-2s", server_rd, 7, AGG_CORE, 7,
	  { { 0, 100, 0 }, { 1, 200, 0 }, { 2, 300, 0 }, { 3, 400, 0 }, { 4, 500, 0 },
	    { 5, 1200, 1 }, { 6, 800, 0 } }, 0 },
	/* pairs: 100+200, 300+400, 500+1200 (estimate), and CPU 7 alone (CPU 6 offline);
	 * socket 1's cluster 0 is not socket 0's */
	{ __LINE__, "n1-2s", server_rd, 7, AGG_CLUSTER, 4,
	  { { 0, 300, 0 }, { 1, 700, 0 }, { 2, 1700, 1 }, { 3, 800, 0 } }, 0 },
	/* 100+200+300+400 = 1000; 500+1200+800 = 2500, an estimate */
	{ __LINE__, "n1-2s", server_rd, 7, AGG_SOCKET, 2, { { 0, 1000, 0 }, { 1, 2500, 1 } }, 0 },
	{ __LINE__, "n1-2s", server_rd, 7, AGG_COMMAND, 1, { { -1, 3500, 1 } }, 0 },
	/* the DSU's one L3 over all eight CPUs: 4200, an estimate (CPU 5's share) */
	{ __LINE__, "phone-a55-a76", phone_rd, 8, AGG_CACHE, 1, { { 0, 4200, 1 } }, 0 },
	{ __LINE__, "phone-a55-a76", phone_rd, 8, AGG_CACHE, 1, { { 0, 4200, 1 } }, 3 },
	/* each core's own L2: a unit per CPU, as --per-core's */
	{ __LINE__, "phone-a55-a76", phone_rd, 8, AGG_CACHE, 8,
	  { { 0, 100, 0 }, { 1, 200, 0 }, { 2, 300, 0 }, { 3, 400, 0 }, { 4, 500, 0 },
	    { 5, 1200, 1 }, { 6, 700, 0 }, { 7, 800, 0 } }, 2 },
	/* an L3 per socket (ids 0 and 1), as --per-socket's: 1000; 500+1200+800 = 2500 */
	{ __LINE__, "n1-2s", server_rd, 7, AGG_CACHE, 2, { { 0, 1000, 0 }, { 1, 2500, 1 } }, 0 },
	/* the L1 data caches (not the instruction ones, whose ids are the same here) */
	{ __LINE__, "n1-2s", server_rd, 7, AGG_CACHE, 7,
	  { { 0, 100, 0 }, { 1, 200, 0 }, { 2, 300, 0 }, { 3, 400, 0 }, { 4, 500, 0 },
	    { 5, 1200, 1 }, { 6, 800, 0 } }, 1 },
};

/* What topo_read_caches gives per CPU of a tree for a level. */
static const struct cache_row {
	int line;
	const char *tree;
	int level;
	pp_status st;
	unsigned levels;
	int cache_level[NCPU_MAX], cache_id[NCPU_MAX], cache_key[NCPU_MAX];
} cache_rows[] = {
	/* no id files: an instance is named by its lowest CPU */
	{ __LINE__, "phone-a55-a76", 0, PP_OK, 0xe,
	  { 3, 3, 3, 3, 3, 3, 3, 3 }, { 0, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ __LINE__, "phone-a55-a76", 2, PP_OK, 0xe,
	  { 2, 2, 2, 2, 2, 2, 2, 2 }, { 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 1, 2, 3, 4, 5, 6, 7 } },
	/* id files; CPU 6 offline (no cache/) */
	{ __LINE__, "n1-2s", 0, PP_OK, 0xe,
	  { 3, 3, 3, 3, 3, 3, -1, 3 }, { 0, 0, 0, 0, 1, 1, -1, 1 }, { 0, 0, 0, 0, 1, 1, -1, 1 } },
	{ __LINE__, "n1-2s", 1, PP_OK, 0xe,
	  { 1, 1, 1, 1, 1, 1, -1, 1 }, { 0, 1, 2, 3, 4, 5, -1, 7 }, { 0, 1, 2, 3, 4, 5, -1, 6 } },
	{ __LINE__, "n1-2s", 4, PP_ENOENT, 0xe,
	  { -1, -1, -1, -1, -1, -1, -1, -1 }, { -1, -1, -1, -1, -1, -1, -1, -1 },
	  { -1, -1, -1, -1, -1, -1, -1, -1 } },
	/* no cache/ at all */
	{ __LINE__, "topo-partial", 0, PP_ENOENT, 0,
	  { -1, -1, -1, -1, -1, -1 }, { -1, -1, -1, -1, -1, -1 }, { -1, -1, -1, -1, -1, -1 } },
};

static void test_caches(void)
{
	for (size_t i = 0; i < sizeof cache_rows / sizeof cache_rows[0]; i++) {
		const struct cache_row *r = &cache_rows[i];
		unsigned levels = 99;
		struct topo t;
		int n;

		use_tree(r->tree);
		if (!TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: %s: read", r->line, r->tree))
			continue;
		n = (int)t.ncpus;
		TAP_EQ_INT(topo_read_caches(&t, r->level, &levels), r->st, "line %d: %s: L%d",
			   r->line, r->tree, r->level);
		TAP_EQ_INT(levels, r->levels, "line %d: %s: levels seen", r->line, r->tree);
		check_ids(r->tree, r->line, "cache level", t.cache_level, r->cache_level, n);
		check_ids(r->tree, r->line, "cache id", t.cache_id, r->cache_id, n);
		check_ids(r->tree, r->line, "cache key", t.cache_key, r->cache_key, n);
		topo_free(&t);
	}
	TAP_EQ_INT(topo_read_caches(NULL, 0, &(unsigned){ 0 }), PP_EINVAL, "line %d: NULL",
		   __LINE__);
}

static void test_aggregate(void)
{
	for (size_t i = 0; i < sizeof agg_cases / sizeof agg_cases[0]; i++) {
		const struct agg_case *a = &agg_cases[i];
		struct agg_topology at;
		struct agg_row *rows;
		struct topo t;
		size_t nr;

		use_tree(a->tree);
		if (!TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: %s: read", a->line, a->tree))
			continue;
		if (a->mode == AGG_CACHE)
			TAP_EQ_INT(topo_read_caches(&t, a->cache_level, &(unsigned){ 0 }), PP_OK,
				   "line %d: %s: caches", a->line, a->tree);
		topo_agg(&t, &at);
		TAP_EQ_INT(at.ncpus, t.ncpus, "line %d: %s: agg view ncpus", a->line, a->tree);
		if (!TAP_EQ_INT(agg_build(a->rd, a->nrd, a->mode, &at, &rows, &nr), 0,
				"line %d: %s: agg_build", a->line, a->tree)) {
			topo_free(&t);
			continue;
		}
		TAP_EQ_INT(nr, a->nrows, "line %d: %s: mode %d: rows", a->line, a->tree, a->mode);
		for (size_t k = 0; k < a->nrows; k++) {
			struct agg_key key = { 0, a->rows[k].unit, 0, READING_TOTAL };
			const struct agg_row *w = agg_find(rows, nr, &key);

			if (!tap_ok(w != NULL, "line %d: %s: unit %d exists", a->line, a->tree,
				    a->rows[k].unit))
				continue;
			tap_ok(fabs(w->value - a->rows[k].value) < 1e-9,
			       "line %d: %s: unit %d: %.0f (got %.3f)", a->line, a->tree,
			       a->rows[k].unit, a->rows[k].value, w->value);
			TAP_EQ_INT(w->scaled, a->rows[k].scaled, "line %d: %s: unit %d: scaled",
				   a->line, a->tree, a->rows[k].unit);
		}
		free(rows);
		topo_free(&t);
	}
}

/* This machine's /sys against lscpu's view of it: the same online CPUs, and two CPUs share
 * a core (a socket) in topo_read exactly when they do in lscpu. lscpu numbers cores and
 * sockets itself (logical ids), so only the grouping is compared, never the numbers. */
static void test_host(void)
{
	int cpu[SYSFS_MAX_CPUS], core[SYSFS_MAX_CPUS], sock[SYSFS_MAX_CPUS];
	int n = 0, online = 0, apart = 0, unknown = 0;
	char line[256];
	struct topo t;
	FILE *p;

	sysfs_set_root(NULL);
	if (!TAP_EQ_INT(topo_read(&t), PP_OK, "line %d: host: read /sys", __LINE__))
		return;
	p = popen("lscpu -p=CPU,CORE,SOCKET 2>/dev/null", "r");
	while (p && n < SYSFS_MAX_CPUS && fgets(line, sizeof line, p))
		if (line[0] != '#' && sscanf(line, "%d,%d,%d", &cpu[n], &core[n], &sock[n]) == 3)
			n++;
	if ((p ? pclose(p) : -1) != 0 || n == 0) {
		tap_skip("host: lscpu -p is not there to compare with (util-linux)");
		topo_free(&t);
		return;
	}
	for (size_t c = 0; c < t.ncpus; c++) {
		online += t.online[c];
		unknown += t.online[c] && (t.core_key[c] < 0 || t.socket[c] < 0);
	}
	TAP_EQ_INT(online, n, "line %d: host: online CPUs, as many as lscpu lists", __LINE__);
	TAP_EQ_INT(unknown, 0, "line %d: host: online CPUs without a core or socket", __LINE__);
	for (int i = 0; i < n; i++) {
		int ci = cpu[i];

		if (ci < 0 || (size_t)ci >= t.ncpus || !t.online[ci]) {
			apart++;
			continue;
		}
		for (int j = 0; j < n; j++) {
			int cj = cpu[j];

			if (cj < 0 || (size_t)cj >= t.ncpus)
				continue;
			apart += (core[i] == core[j]) != (t.core_key[ci] == t.core_key[cj]);
			apart += (sock[i] == sock[j]) != (t.socket[ci] == t.socket[cj]);
		}
	}
	TAP_EQ_INT(apart, 0, "line %d: host: %d CPUs grouped in cores and sockets as lscpu does",
		   __LINE__, n);
	topo_free(&t);
}

int main(void)
{
	const char *env = getenv("PMUPROF_FIXTURES");

	if (env && *env)
		fixtures = env;
	test_trees();
	test_missing();
	test_online();
	test_cpu_list();
	test_caches();
	test_aggregate();
	test_host();
	return tap_done();
}
