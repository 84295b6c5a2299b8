/* SPDX-License-Identifier: Apache-2.0 */
/* list_metrics.c: `pmuprof list --metrics`, as text and JSON: for each core picked, its metric sets
 * (a revision range each), their groups with stage and members, and each metric with its
 * unit, formula, events and top-down links. */
#include <cJSON.h>
#include <fnmatch.h>
#include <string.h>

#include "jsonout.h"
#include "list_metrics.h"

int list_metrics_matches(const char *pattern, const char *name)
{
	if (!pattern)
		return 1;
	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, pattern) != NULL;
}

int list_metrics_shows(const struct list_metrics_core *c, const struct mxtab_set *s)
{
	if (!c->core)
		return s == mxtab_generic_set();
	if (mxtab_set_core(s) != c->core)
		return 0;
	return c->rev < 0 || mxtab_set_for(c->core, (unsigned)c->rev) == s;
}

/* "r0p3" for a revision (variant << 4 | revision). */
static const char *rev_str(unsigned rev, char *buf, size_t len)
{
	snprintf(buf, len, "r%up%u", (rev >> 4) & 0xf, rev & 0xf);
	return buf;
}

/* " (r0p0 to r0p2)", " (r0p3 and later)" or "" for a set that holds for every revision. */
static const char *span_str(const struct mxtab_set *s, char *buf, size_t len)
{
	char a[24], b[24];
	unsigned lo = mxtab_set_rev_lo(s), hi = mxtab_set_rev_hi(s);

	if (lo == 0 && hi == 0xff)
		snprintf(buf, len, "%s", mxtab_set_generic(s) ? " (generic metrics)" : "");
	else if (hi == 0xff)
		snprintf(buf, len, " (%s and later)", rev_str(lo, a, sizeof(a)));
	else
		snprintf(buf, len, " (%s to %s)", rev_str(lo, a, sizeof(a)), rev_str(hi, b, sizeof(b)));
	return buf;
}

/* Whether metric m is a member of group g. */
static int in_group(const struct mxtab_group *g, const struct mxtab_metric *m)
{
	for (size_t i = 0; i < mxtab_group_nmetrics(g); i++)
		if (mxtab_group_metric(g, i) == m)
			return 1;
	return 0;
}

/* unknown: listed for a core the tables lack (not as the set's own core's) */
static void set_text(const struct mxtab_set *s, int unknown, const char *pattern, FILE *fp)
{
	char span[80];

	if (unknown)
		fprintf(fp, "Generic metrics (the core is not in pmuprof's tables):\n");
	else
		fprintf(fp, "%s metrics%s:\n", evtab_core_title(mxtab_set_core(s)),
			span_str(s, span, sizeof(span)));
	for (size_t i = 0; i < mxtab_ngroups(s); i++) {
		const struct mxtab_group *g = mxtab_group_at(s, i);

		if (!list_metrics_matches(pattern, mxtab_group_name(g)))
			continue;
		fprintf(fp, "  group %-28s", mxtab_group_name(g));
		if (mxtab_group_stage(g))
			fprintf(fp, " stage %d:", mxtab_group_stage(g));
		else
			fputs(":", fp);
		for (size_t k = 0; k < mxtab_group_nmetrics(g); k++)
			fprintf(fp, " %s", mxtab_metric_name(mxtab_group_metric(g, k)));
		fputc('\n', fp);
	}
	for (size_t i = 0; i < mxtab_nmetrics(s); i++) {
		const struct mxtab_metric *m = mxtab_metric_at(s, i);

		if (!list_metrics_matches(pattern, mxtab_metric_name(m)))
			continue;
		fprintf(fp, "  %-34s %s (%s)\n      = %s\n", mxtab_metric_name(m),
			mxtab_metric_title(m), mxtab_metric_unit(m), mxtab_metric_formula(m));
		fputs("      events:", fp);
		for (size_t k = 0; k < mxtab_metric_nevents(m); k++)
			fprintf(fp, " %s", mxtab_metric_event(m, k));
		fputc('\n', fp);
		if (*mxtab_metric_next(m))
			fprintf(fp, "      next: %s\n", mxtab_metric_next(m));
	}
	fputc('\n', fp);
}

void list_metrics_text(const struct list_metrics_core *c, size_t n, const char *pattern, FILE *fp)
{
	for (size_t k = 0; k < n; k++) {
		int any = 0;

		for (size_t i = 0; i < mxtab_nsets(); i++)
			if (list_metrics_shows(&c[k], mxtab_set_at(i))) {
				set_text(mxtab_set_at(i), !c[k].core, pattern, fp);
				any = 1;
			}
		if (!any && c[k].core)
			fprintf(fp, "%s: no metrics (its events allow none of the generic ones)\n\n",
				evtab_core_title(c[k].core));
	}
}

size_t list_metrics_count(const struct list_metrics_core *c, size_t n, const char *pattern)
{
	size_t got = 0;

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < mxtab_nsets(); i++) {
			const struct mxtab_set *s = mxtab_set_at(i);

			if (!list_metrics_shows(&c[k], s))
				continue;
			for (size_t j = 0; j < mxtab_ngroups(s); j++)
				got += list_metrics_matches(pattern, mxtab_group_name(mxtab_group_at(s, j)));
			for (size_t j = 0; j < mxtab_nmetrics(s); j++)
				got += list_metrics_matches(pattern, mxtab_metric_name(mxtab_metric_at(s, j)));
		}
	return got;
}

static cJSON *ref(const char *s)
{
	return cJSON_CreateStringReference(s);
}

/* A space-separated list as an array of strings. */
static cJSON *words_json(const char *list)
{
	cJSON *a = cJSON_CreateArray();
	char buf[64];

	while (*list) {
		size_t n = strcspn(list, " ");

		if (n && n < sizeof(buf)) {
			memcpy(buf, list, n);
			buf[n] = '\0';
			cJSON_AddItemToArray(a, cJSON_CreateString(buf));
		}
		list += n;
		list += strspn(list, " ");
	}
	return a;
}

static cJSON *metric_json(const struct mxtab_set *s, const struct mxtab_metric *m)
{
	cJSON *o = cJSON_CreateObject(), *ev = cJSON_CreateArray(), *gr = cJSON_CreateArray();

	cJSON_AddItemToObject(o, "name", ref(mxtab_metric_name(m)));
	cJSON_AddItemToObject(o, "title", ref(mxtab_metric_title(m)));
	cJSON_AddItemToObject(o, "unit", ref(mxtab_metric_unit(m)));
	cJSON_AddItemToObject(o, "formula", ref(mxtab_metric_formula(m)));
	for (size_t i = 0; i < mxtab_metric_nevents(m); i++)
		cJSON_AddItemToArray(ev, ref(mxtab_metric_event(m, i)));
	cJSON_AddItemToObject(o, "events", ev);
	for (size_t i = 0; i < mxtab_ngroups(s); i++)
		if (in_group(mxtab_group_at(s, i), m))
			cJSON_AddItemToArray(gr, ref(mxtab_group_name(mxtab_group_at(s, i))));
	cJSON_AddItemToObject(o, "groups", gr);
	cJSON_AddItemToObject(o, "next", words_json(mxtab_metric_next(m)));
	return o;
}

static cJSON *group_json(const struct mxtab_group *g)
{
	cJSON *o = cJSON_CreateObject(), *ms = cJSON_CreateArray();

	cJSON_AddItemToObject(o, "name", ref(mxtab_group_name(g)));
	cJSON_AddItemToObject(o, "title", ref(mxtab_group_title(g)));
	cJSON_AddItemToObject(o, "stage", mxtab_group_stage(g) ?
				  cJSON_CreateNumber(mxtab_group_stage(g)) : cJSON_CreateNull());
	for (size_t i = 0; i < mxtab_group_nmetrics(g); i++)
		cJSON_AddItemToArray(ms, ref(mxtab_metric_name(mxtab_group_metric(g, i))));
	cJSON_AddItemToObject(o, "metrics", ms);
	return o;
}

static cJSON *set_json(const struct mxtab_set *s, int unknown, const char *pattern)
{
	cJSON *o = cJSON_CreateObject(), *gs = cJSON_CreateArray(), *ms = cJSON_CreateArray();
	const struct evtab_core *c = mxtab_set_core(s);
	char a[24], b[24];

	/* a core the tables lack: "generic", as a report's metrics name their core */
	cJSON_AddItemToObject(o, "core", ref(unknown ? "generic" : evtab_core_name(c)));
	cJSON_AddItemToObject(o, "title", ref(unknown ? "Generic metrics" : evtab_core_title(c)));
	cJSON_AddItemToObject(o, "rev_from", cJSON_CreateString(rev_str(mxtab_set_rev_lo(s), a,
									 sizeof(a))));
	cJSON_AddItemToObject(o, "rev_to", mxtab_set_rev_hi(s) == 0xff ? cJSON_CreateNull() :
			      cJSON_CreateString(rev_str(mxtab_set_rev_hi(s), b, sizeof(b))));
	cJSON_AddBoolToObject(o, "generic", mxtab_set_generic(s));
	for (size_t i = 0; i < mxtab_ngroups(s); i++)
		if (list_metrics_matches(pattern, mxtab_group_name(mxtab_group_at(s, i))))
			cJSON_AddItemToArray(gs, group_json(mxtab_group_at(s, i)));
	cJSON_AddItemToObject(o, "groups", gs);
	for (size_t i = 0; i < mxtab_nmetrics(s); i++)
		if (list_metrics_matches(pattern, mxtab_metric_name(mxtab_metric_at(s, i))))
			cJSON_AddItemToArray(ms, metric_json(s, mxtab_metric_at(s, i)));
	cJSON_AddItemToObject(o, "metrics", ms);
	return o;
}

int list_metrics_json(const struct list_metrics_core *c, size_t n, const char *pattern,
		      const char *note, FILE *fp)
{
	cJSON *root = cJSON_CreateObject(), *sets = cJSON_CreateArray();

	cJSON_AddStringToObject(root, "schema_version", "1.0");
	cJSON_AddItemToObject(root, "pattern", pattern ? cJSON_CreateString(pattern)
						       : cJSON_CreateNull());
	cJSON_AddItemToObject(root, "note", note ? cJSON_CreateString(note) : cJSON_CreateNull());
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < mxtab_nsets(); i++)
			if (list_metrics_shows(&c[k], mxtab_set_at(i)))
				cJSON_AddItemToArray(sets, set_json(mxtab_set_at(i), !c[k].core,
								    pattern));
	cJSON_AddItemToObject(root, "metric_sets", sets);
	return jsonout_emit(root, fp, JSONOUT_COMPACT);
}
