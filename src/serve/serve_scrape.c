/* SPDX-License-Identifier: Apache-2.0 */
/* serve_scrape.c: one scrape of pmuprof serve: the open counters read, recorded as readings
 * (stat_record), aggregated by core type, CPU, core or cluster (agg_build_as, the one scaling
 * function), each aggregate becoming a labelled series whose value never goes back. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "evtab.h"
#include "serve.h"

size_t serve_escape(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '"' ? "\\\"" : *s == '\n' ? "\\n" : NULL;
		size_t w = e ? 2 : 1;

		if (n + w >= len)
			break;
		memcpy(buf + n, e ? e : s, w);
		n += w;
	}
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}

void serve_label_add(char *buf, size_t len, size_t *at, const char *name, const char *value)
{
	int w;

	if (*at >= len)
		return;
	w = snprintf(buf + *at, len - *at, "%s%s=\"", *at ? "," : "", name);
	if (w < 0 || (size_t)w >= len - *at) {
		*at = len;
		return;
	}
	*at += (size_t)w;
	*at += serve_escape(buf + *at, len - *at, value);
	if (*at + 1 < len) {
		buf[(*at)++] = '"';
		buf[*at] = '\0';
	}
}

void serve_labels(char *buf, size_t len, const char *event, const char *pmu,
		  const char *core, const char *unit_name, long unit)
{
	size_t at = 0;
	char num[24];

	buf[0] = '\0';
	serve_label_add(buf, len, &at, "event", event);
	serve_label_add(buf, len, &at, "pmu", pmu);
	serve_label_add(buf, len, &at, "core", core);
	if (unit_name) {
		snprintf(num, sizeof(num), "%ld", unit);
		serve_label_add(buf, len, &at, unit_name, num);
	}
}

void serve_samples_free(struct serve_samples *s)
{
	free(s->s);
	*s = (struct serve_samples){ 0 };
}

void serve_count_free(struct serve_count *sc)
{
	free(sc->type_of);
	free(sc->type_ids);
	free(sc->type_name);
	free(sc->carry);
	free(sc->dup);
	free(sc->online);
	serve_samples_free(&sc->last);
}

/* The Arm PMU that owns cpu among cs's (-1: none). A PMU that lists no CPUs owns them all. */
static int owner(const struct stat_counters *cs, int cpu)
{
	for (size_t i = 0; i < cs->npmus; i++) {
		const struct sysfs_pmu *p = &cs->pmus[i];

		if (!p->ncpus)
			return (int)i;
		for (int j = 0; j < p->ncpus; j++)
			if (p->cpus[j] == cpu)
				return (int)i;
	}
	return -1;
}

/* Whether a and b would make the same series: one name on one PMU. */
static int same_event(const struct pp_event *a, const struct pp_event *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->pmu ? a->pmu : "", b->pmu ? b->pmu : "");
}

int serve_count_types(struct serve_count *sc, const struct topo *t, const char *machine)
{
	const struct stat_counters *cs = &sc->cs;
	size_t n = 1;

	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].cpu >= 0 && (size_t)cs->c[k].cpu + 1 > n)
			n = (size_t)cs->c[k].cpu + 1;
	if (t->ncpus > n)
		n = t->ncpus;
	sc->ncpus = n;
	sc->type_of = calloc(n, sizeof(int));
	sc->type_ids = calloc(n, sizeof(int));
	sc->type_name = calloc(cs->npmus + 1, sizeof(char *));
	sc->carry = calloc(cs->n + 1, sizeof(*sc->carry));
	sc->dup = calloc(sc->nrows + 1, 1);
	if (!sc->type_of || !sc->type_ids || !sc->type_name || !sc->carry || !sc->dup)
		return -1;
	for (size_t k = 0; k < sc->nrows; k++)
		for (size_t j = 0; j < k && !sc->dup[k]; j++)
			sc->dup[k] = same_event(&sc->rows[j].sel.ev, &sc->rows[k].sel.ev);
	for (size_t c = 0; c < n; c++)
		sc->type_ids[c] = sc->type_of[c] = owner(cs, (int)c);
	for (size_t i = 0; i < cs->npmus; i++) {
		const struct evtab_core *core = resolve_pmu_core(&cs->pmus[i]);

		sc->type_name[i] = core ? evtab_core_name(core) : cs->pmus[i].name;
	}
	sc->type_name[cs->npmus] = machine;
	if (sc->by == SERVE_BY_CORE || sc->by == SERVE_BY_CLUSTER)
		topo_agg(t, &sc->at);
	else	/* one unit per core type: its PMU's index stands for a cluster id */
		sc->at = (struct agg_topology){ .ncpus = n, .cluster = sc->type_ids };
	return 0;
}

static enum agg_mode mode_of(enum serve_by by)
{
	return by == SERVE_BY_CPU ? AGG_CPU : by == SERVE_BY_CORE ? AGG_CORE : AGG_CLUSTER;
}

/* The core type of a unit of sc's mode: that of its first CPU. */
static int type_of_unit(const struct serve_count *sc, int32_t unit)
{
	const int *ids = sc->by == SERVE_BY_CORE ? sc->at.core : sc->at.cluster;

	if (unit < 0)
		return -1;
	if (sc->by == SERVE_BY_TYPE)
		return unit;
	if (sc->by == SERVE_BY_CPU)
		return (size_t)unit < sc->ncpus ? sc->type_of[unit] : -1;
	for (size_t c = 0; ids && c < sc->at.ncpus && c < sc->ncpus; c++)
		if (ids[c] == unit)
			return sc->type_of[c];
	return -1;
}

static const char *const unit_names[] = {
	[SERVE_BY_TYPE] = NULL, [SERVE_BY_CPU] = "cpu", [SERVE_BY_CORE] = "core_id",
	[SERVE_BY_CLUSTER] = "cluster",
};

/* The series of aggregate a into *s. */
static void sample_of(const struct serve_count *sc, const struct agg_row *a,
		      struct serve_sample *s)
{
	const struct stat_event *row = &sc->rows[a->key.ev];
	int t = type_of_unit(sc, a->key.unit);
	size_t first;
	const char *pmu = row->sel.ev.pmu;

	if (t >= 0 && stat_row_parts(&sc->cs, a->key.ev, &first))
		pmu = sc->cs.pmus[t].name;	/* a part: counted on that core type's PMU */
	serve_labels(s->labels, sizeof(s->labels), row->sel.ev.name, pmu ? pmu : "",
		     sc->type_name[t >= 0 ? (size_t)t : sc->cs.npmus], unit_names[sc->by],
		     (long)a->key.unit);
	s->value = a->value;
	s->enabled = a->window;
	s->running = a->running;
}

/* The previous scrape's series with s's labels (at hint i when the set has not changed). */
static const struct serve_sample *previous(const struct serve_samples *last, size_t i,
					   const char *labels)
{
	if (i < last->n && !strcmp(last->s[i].labels, labels))
		return &last->s[i];
	for (size_t k = 0; k < last->n; k++)
		if (!strcmp(last->s[k].labels, labels))
			return &last->s[k];
	return NULL;
}

/* The aggregates as series, each no lower than it was (a multiplexed estimate can dip). */
static int samples_of(struct serve_count *sc, const struct agg_row *a, size_t n,
		      struct serve_samples *out)
{
	out->n = 0;
	if (n > out->cap) {
		struct serve_sample *p = realloc(out->s, n * sizeof(*p));

		if (!p)
			return -1;
		out->s = p;
		out->cap = n;
	}
	for (size_t k = 0; k < n; k++) {
		struct serve_sample *s = &out->s[out->n];
		const struct serve_sample *was;

		if ((a[k].status != AGG_COUNTED && a[k].status != AGG_NOT_COUNTED) ||
		    sc->dup[a[k].key.ev])
			continue;	/* never opened here: no series rather than a false 0 */
		sample_of(sc, &a[k], s);
		was = previous(&sc->last, out->n, s->labels);
		if (was && was->value > s->value)
			s->value = was->value;
		out->n++;
	}
	return 0;
}

/* The last scrape's series kept for the next: a copy of out. */
static int keep(struct serve_samples *last, const struct serve_samples *out)
{
	if (out->n > last->cap) {
		struct serve_sample *p = realloc(last->s, out->n * sizeof(*p));

		if (!p)
			return -1;
		last->s = p;
		last->cap = out->n;
	}
	if (out->n)
		memcpy(last->s, out->s, out->n * sizeof(*out->s));
	last->n = out->n;
	return 0;
}

int serve_scrape(struct serve_count *sc, struct serve_samples *out)
{
	struct stat_counters *cs = &sc->cs;
	struct workload_result none = { 0 };
	struct readings rd = { 0 };
	struct agg_row *a = NULL;
	size_t n = 0;
	int rc = -1;

	stat_counters_read(cs);
	for (size_t k = 0; k < cs->n; k++) {	/* what earlier opens of it counted */
		cs->c[k].rd.value += sc->carry[k].value;
		cs->c[k].rd.enabled += sc->carry[k].enabled;
		cs->c[k].rd.running += sc->carry[k].running;
	}
	if (stat_record(&rd, sc->rows, cs, 0, 0, -1, &none, NULL) == 0 &&
	    agg_build_as(rd.r, rd.n, mode_of(sc->by), &sc->at, AGG_SCALED, &a, &n) == 0 &&
	    samples_of(sc, a, n, out) == 0 && keep(&sc->last, out) == 0)
		rc = 0;
	free(a);
	readings_free(&rd);
	return rc;
}
