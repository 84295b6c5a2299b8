/* SPDX-License-Identifier: Apache-2.0 */
/* export_json.c: the JSON exports: Bencher Metric Format (bencher.dev's "BMF": an object of
 * benchmarks, each an object of measures {value, lower_value, upper_value}) and
 * github-action-benchmark's custom format (an array of {name, unit, value, range, extra}).
 * Only numbers measured are exported: an event not counted has no entry. With stat --regions
 * each region is a benchmark of its own. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "jsonout.h"
#include "metrics.h"

/* What was run, as the benchmark is named without --name (report_name). */
static char *command_name(const struct report *r)
{
	struct report c = *r;

	c.name = NULL;
	return report_name(&c);
}

/* The keys given so far, in a hash set: finding whether a key is taken by searching the
 * object would cost a pass over its keys for each, quadratic in the events. */
struct keys {
	char **k;
	size_t cap;	/* a power of two, at least twice the keys it can hold */
};

static size_t key_hash(const char *s)
{
	size_t h = 14695981039346656037u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

/* The slot of key s: where it is, or the empty one it would go in. */
static char **key_slot(const struct keys *t, const char *s)
{
	size_t i = key_hash(s) & (t->cap - 1);

	while (t->k[i] && strcmp(t->k[i], s) != 0)
		i = (i + 1) & (t->cap - 1);
	return &t->k[i];
}

/* Room for n keys; -1 when out of memory. */
static int keys_init(struct keys *t, size_t n)
{
	for (t->cap = 16; t->cap < 2 * n + 2; t->cap *= 2)
		;
	t->k = calloc(t->cap, sizeof(*t->k));
	return t->k ? 0 : -1;
}

static void keys_free(struct keys *t)
{
	for (size_t i = 0; t->k && i < t->cap; i++)
		free(t->k[i]);
	free(t->k);
}

/* A key not yet given: name, else "name #2", "name #3", ... (an event counted twice), taken
 * into t; NULL when out of memory. */
static const char *unique_key(struct keys *t, const char *name, char *buf, size_t len)
{
	char **slot;

	snprintf(buf, len, "%s", name);
	for (int n = 2; *(slot = key_slot(t, buf)); n++)
		snprintf(buf, len, "%s #%d", name, n);
	return (*slot = strdup(buf)) ? buf : NULL;
}

/* A measure: the value, and with -r the 95% confidence interval of the mean around it. */
static cJSON *bmf_measure(double value, const struct stats_summary *st)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddNumberToObject(m, "value", value);
	if (st && isfinite(st->ci_lo) && isfinite(st->ci_hi)) {
		cJSON_AddNumberToObject(m, "lower_value", st->ci_lo);
		cJSON_AddNumberToObject(m, "upper_value", st->ci_hi);
	}
	return m;
}

/* The measures of one benchmark: r's counted events and computed metrics; NULL when out of
 * memory. */
static cJSON *bmf_bench(const struct report *r)
{
	cJSON *b = cJSON_CreateObject();
	char key[256], name[256];
	const char *kk;
	struct keys t;

	if (keys_init(&t, r->nevents + r->nmetrics) != 0) {
		cJSON_Delete(b);
		return NULL;
	}
	for (size_t k = 0; b && k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];

		if (e->fig.status != REPORT_COUNTED)
			continue;
		if (!(kk = unique_key(&t, export_cgroup_name(e->name, e->cgroup, name, sizeof(name)),
				      key, sizeof(key)))) {
			cJSON_Delete(b);
			b = NULL;
			break;
		}
		cJSON_AddItemToObject(b, kk, bmf_measure(e->fig.value, r->nruns ? &e->stats : NULL));
	}
	for (size_t i = 0; b && i < r->nmetrics; i++) {
		if (!isfinite(r->metrics[i].value))	/* a metric not computed has no measure */
			continue;
		if (!(kk = unique_key(&t, export_cgroup_name(mxtab_metric_name(r->metrics[i].def),
							     report_metric_cgroup(r, &r->metrics[i]),
							     name, sizeof(name)), key, sizeof(key)))) {
			cJSON_Delete(b);
			b = NULL;
			break;
		}
		cJSON_AddItemToObject(b, kk, bmf_measure(r->metrics[i].value, NULL));
	}
	keys_free(&t);
	return b;
}

/* The whole run as its benchmark, and (stat --regions) each region as one of its own,
 * "BENCHMARK / REGION". */
int export_bmf(const struct report *r, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *b = bmf_bench(r);
	char *name = report_name(r), *rn;
	int ok = b != NULL;

	cJSON_AddItemToObject(root, name ? name : "", b);
	for (size_t k = 0; ok && k < r->nregions; k++) {
		ok = (b = bmf_bench(r->regions[k].r)) != NULL &&
		     asprintf(&rn, "%s / %s", name ? name : "", r->regions[k].name) >= 0;
		if (!ok) {
			cJSON_Delete(b);
			break;
		}
		cJSON_AddItemToObject(root, rn, b);
		free(rn);
	}
	free(name);
	if (!ok) {
		cJSON_Delete(root);
		return -1;
	}
	return jsonout_emit(root, out, JSONOUT_PRETTY);
}

/* The tooltip's lines: the command (its basename and arguments), the share of time counted,
 * the runs. */
static cJSON *gh_extra(const struct report *r, const char *bench, const struct report_event *e)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "command: %s", bench);

	if (e && n > 0 && (size_t)n < sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\ncounted: %.2f%% of the time",
			      e->fig.counted_pct);
	if (r->nruns && n > 0 && (size_t)n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - (size_t)n, "\nruns: %zu", r->nruns);
	return cJSON_CreateString(buf);
}

/* An entry named after its event (region's: "REGION: EVENT"), or with --name "NAME - EVENT"
 * (github-action-benchmark's own examples' spelling), so that several benchmarks can share
 * one data file. */
static cJSON *gh_entry(const struct report *top, const char *region, const char *name,
		       const char *unit, double value)
{
	cJSON *o = cJSON_CreateObject();
	char *both = NULL;
	int n;

	n = top->name && region ? asprintf(&both, "%s - %s: %s", top->name, region, name) :
	    top->name ? asprintf(&both, "%s - %s", top->name, name) :
	    region ? asprintf(&both, "%s: %s", region, name) : 0;
	if (n < 0)
		both = NULL;
	cJSON_AddStringToObject(o, "name", both ? both : name);
	free(both);
	cJSON_AddStringToObject(o, "unit", unit);
	cJSON_AddNumberToObject(o, "value", value);
	return o;
}

/* The entries of r (the whole run, or region's report), into a. */
static void gh_entries(cJSON *a, const struct report *top, const struct report *r,
		       const char *region, const char *bench)
{
	char range[64], name[256];

	for (size_t k = 0; k < r->nevents; k++) {
		const struct report_event *e = &r->events[k];
		cJSON *o;

		if (e->fig.status != REPORT_COUNTED)
			continue;
		o = gh_entry(top, region, export_cgroup_name(e->name, e->cgroup, name, sizeof(name)),
			     *e->unit ? e->unit : "count", e->fig.value);
		/* with -r: the half width of the 95% confidence interval of the mean */
		if (r->nruns && isfinite(e->stats.ci_hi) && isfinite(e->stats.ci_lo)) {
			snprintf(range, sizeof(range), "\xc2\xb1 %.6g",
				 (e->stats.ci_hi - e->stats.ci_lo) / 2);
			cJSON_AddStringToObject(o, "range", range);
		}
		cJSON_AddItemToObject(o, "extra", gh_extra(r, bench, e));
		cJSON_AddItemToArray(a, o);
	}
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct report_metric_value *m = &r->metrics[i];
		cJSON *o;

		if (!isfinite(m->value))
			continue;
		o = gh_entry(top, region, export_cgroup_name(mxtab_metric_name(m->def),
							     report_metric_cgroup(r, m), name,
							     sizeof(name)), mxtab_metric_unit(m->def),
			     m->value);
		cJSON_AddItemToObject(o, "extra", gh_extra(r, bench, NULL));
		cJSON_AddItemToArray(a, o);
	}
}

/* The whole run's entries, then (stat --regions) each region's. */
int export_github_benchmark(const struct report *r, FILE *out)
{
	cJSON *a = cJSON_CreateArray();
	char *bench = command_name(r);

	gh_entries(a, r, r, NULL, bench ? bench : "");
	for (size_t k = 0; k < r->nregions; k++)
		gh_entries(a, r, r->regions[k].r, r->regions[k].name, bench ? bench : "");
	free(bench);
	return jsonout_emit(a, out, JSONOUT_PRETTY);
}
