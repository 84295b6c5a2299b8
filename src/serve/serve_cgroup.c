/* SPDX-License-Identifier: Apache-2.0 */
/* serve_cgroup.c: pmuprof serve's --for-each-cgroup: serve's counters copied once per
 * matching cgroup (each confined to it with PERF_FLAG_PID_CGROUP), scraped as serve's own
 * (serve_scrape), their series labelled cgroup; the hierarchy rescanned at most every
 * rescan interval, at a scrape, so that new cgroups are counted and the counters and
 * descriptors of the gone ones are closed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve.h"

/* The cgroup's copy of the rows and counters of main, closed (fd -1, nothing read). */
static int clone(const struct serve_count *main, const struct cgroup_entry *e,
		 struct serve_cg *g)
{
	const struct stat_counters *cs = &main->cs;

	if (!(g->path = strdup(e->path)) ||
	    !(g->rows = calloc(main->nrows + 1, sizeof(*g->rows))) ||
	    !(g->count.cs.c = calloc(cs->n + 1, sizeof(*cs->c))))
		return -1;
	memcpy(g->rows, main->rows, main->nrows * sizeof(*g->rows));
	for (size_t k = 0; k < main->nrows; k++) {
		g->rows[k].cgroup = g->path;
		g->rows[k].cgroup_fd = e->fd;
	}
	memcpy(g->count.cs.c, cs->c, cs->n * sizeof(*cs->c));
	for (size_t k = 0; k < cs->n; k++) {
		struct stat_counter *c = &g->count.cs.c[k];

		c->fd = -1;
		c->opened = c->group_read = c->nmembers = c->err = 0;
		c->leader = -1;
		memset(&c->rd, 0, sizeof(c->rd));
	}
	/* the parts and PMUs stay main's: a copy only reads them */
	g->count.cs.n = cs->n;
	g->count.cs.parts = cs->parts;
	g->count.cs.nparts = cs->nparts;
	g->count.cs.nrows = cs->nrows;
	g->count.cs.pmus = cs->pmus;
	g->count.cs.npmus = cs->npmus;
	g->count.rows = g->rows;
	g->count.nrows = main->nrows;
	g->count.by = main->by;
	return 0;
}

/* Closes g's counters and frees it (its cgroup's directory is the set's). */
static void cg_free(struct serve_cg *g)
{
	if (!g)
		return;
	stat_counters_close(&g->count.cs);
	free(g->count.cs.c);
	serve_count_free(&g->count);
	serve_samples_free(&g->out);
	free(g->rows);
	free(g->path);
	free(g);
}

/* A new cgroup's counting, opened; NULL when out of memory. A cgroup where nothing opens
 * (gone since the scan) keeps its counting, with no series. */
static struct serve_cg *cg_open(const struct serve_cgroups *sg, const struct serve_count *main,
				const struct cgroup_entry *e)
{
	struct serve_cg *g = calloc(1, sizeof(*g));

	if (!g || clone(main, e, g) != 0 ||
	    serve_count_types(&g->count, sg->topo, sg->machine) != 0 ||
	    serve_hotplug_start(&g->count) != 0) {
		cg_free(g);
		return NULL;
	}
	if (stat_open_wide(g->rows, &g->count.cs) < 0)
		stat_counters_close(&g->count.cs);
	return g;
}

/* The counting of sg->set's entries, the kept ones carried from was (nwas of them, their
 * slots emptied), the added ones opened; -1 when out of memory. */
static int rebuild(struct serve_cgroups *sg, const struct serve_count *main,
		   const struct cgroup_change *chg, struct serve_cg **was, size_t nwas)
{
	struct serve_cg **now = calloc(sg->set.n + 1, sizeof(*now));

	if (!now)
		return -1;
	for (size_t k = 0; k < sg->set.n; k++) {
		int added = 0;

		for (size_t a = 0; a < chg->nadded && !added; a++)
			added = chg->added[a] == k;
		for (size_t j = 0; !added && j < nwas && !now[k]; j++)
			if (was[j] && !strcmp(was[j]->path, sg->set.e[k].path)) {
				now[k] = was[j];
				was[j] = NULL;
			}
		if (!now[k] && !(now[k] = cg_open(sg, main, &sg->set.e[k]))) {
			for (size_t j = 0; j < k; j++)
				cg_free(now[j]);
			free(now);
			return -1;
		}
	}
	sg->cg = now;
	return 0;
}

int serve_cgroups_scan(struct serve_cgroups *sg, const struct serve_count *main, char *bad,
		       size_t badlen)
{
	struct cgroup_change chg;
	struct serve_cg **was = sg->cg;
	size_t nwas = sg->set.n;
	pp_status st;
	int failed;

	/* a name is checked once, at the start: later, a named cgroup removed is gone */
	st = cgroup_rescan(sg->root, sg->list, !sg->scans, &sg->set, &chg, bad, badlen);
	if (st != PP_OK)
		return st;
	sg->scans++;
	sg->cg = NULL;
	if ((failed = rebuild(sg, main, &chg, was, nwas) != 0))
		cgroup_set_free(&sg->set);	/* the set moved on: the old counting goes too */
	for (size_t j = 0; j < nwas; j++)
		cg_free(was[j]);	/* the gone ones (all, after a failure) */
	free(was);
	cgroup_change_free(&chg);
	clock_gettime(CLOCK_MONOTONIC, &sg->scanned);
	return failed ? PP_ENOMEM : PP_OK;
}

/* Whether the last scan is older than the rescan interval. */
static int due(const struct serve_cgroups *sg)
{
	struct timespec now;

	/* in nanoseconds: whole seconds alone made a scan at x.99 s due at x+1.01 s */
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - sg->scanned.tv_sec) * 1000000000LL +
	       (now.tv_nsec - sg->scanned.tv_nsec) >= (long long)sg->rescan_s * 1000000000LL;
}

/* Appends the series of in to out, each labelled cgroup="path". -1 when out of memory. */
static int append(struct serve_samples *out, const struct serve_samples *in, const char *path)
{
	if (out->n + in->n > out->cap) {
		size_t cap = out->n + in->n;
		struct serve_sample *p = realloc(out->s, cap * sizeof(*p));

		if (!p)
			return -1;
		out->s = p;
		out->cap = cap;
	}
	for (size_t k = 0; k < in->n; k++) {
		struct serve_sample *s = &out->s[out->n++];
		size_t at;

		*s = in->s[k];
		at = strlen(s->labels);
		serve_label_add(s->labels, sizeof(s->labels), &at, "cgroup", path);
	}
	return 0;
}

int serve_cgroups_scrape(struct serve_cgroups *sg, const struct serve_count *main,
			 struct serve_samples *out, const unsigned char *on, size_t non)
{
	char bad[128];

	/* a failed rescan keeps the cgroups counted so far until the next one */
	if (due(sg))
		(void)serve_cgroups_scan(sg, main, bad, sizeof(bad));
	for (size_t k = 0; k < sg->set.n; k++) {
		struct serve_cg *g = sg->cg[k];

		if (serve_hotplug(&g->count, on, non) != 0 || serve_scrape(&g->count, &g->out) != 0 ||
		    append(out, &g->out, g->path) != 0)
			return -1;
	}
	return 0;
}

void serve_cgroups_free(struct serve_cgroups *sg)
{
	for (size_t k = 0; sg->cg && k < sg->set.n; k++)
		cg_free(sg->cg[k]);
	free(sg->cg);
	sg->cg = NULL;
	cgroup_set_free(&sg->set);
}
