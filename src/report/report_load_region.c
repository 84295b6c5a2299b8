/* SPDX-License-Identifier: Apache-2.0 */
/* report_load_region.c: a saved report's regions (1.7, stat --regions) read back, each into
 * a report of its own, as stat builds them: its events (the top level's fields), its calls
 * and time. */
#include <stdlib.h>
#include <string.h>

#include "report_read_priv.h"

static double number(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && v->valuedouble >= 0 ? v->valuedouble : 0;
}

/* Region o into g (its name copied: a region owns it); r's runs are its runs. */
static int load_one(const cJSON *o, const struct report *r, struct report_region *g)
{
	const cJSON *evs = cJSON_GetObjectItemCaseSensitive(o, "events"), *it;
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "name"));
	size_t k = 0;

	if (!(g->name = strdup(name ? name : "?")) || !(g->r = calloc(1, sizeof(*g->r))))
		return -1;
	g->calls = number(o, "calls");
	g->unended = (uint64_t)number(o, "unended");
	g->overlapped = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "overlapped"));
	g->r->tool_version = r->tool_version;
	g->r->wall_ns = (uint64_t)number(o, "wall_ns");
	g->r->nruns = r->nruns;
	if (!(g->r->events = calloc((size_t)cJSON_GetArraySize(evs) + 1, sizeof(*g->r->events))))
		return -1;
	cJSON_ArrayForEach(it, evs) {
		if (!cJSON_IsObject(it) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "name")))
			continue;	/* an event without a name is no row */
		g->r->nevents++;
		if (report_load_event(it, &g->r->events[k], r->nruns) != 0)
			return -1;
		g->r->per_cgroup |= g->r->events[k++].cgroup != NULL;
	}
	return 0;
}

int report_load_regions(const cJSON *root, struct report *r)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "regions"), *it;

	r->region_stray_ends = (uint64_t)number(root, "region_stray_ends");
	if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
		return 0;
	if (!(r->regions = calloc((size_t)cJSON_GetArraySize(a), sizeof(*r->regions))))
		return -1;
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsObject(it))
			continue;
		if (load_one(it, r, &r->regions[r->nregions++]) != 0)
			return -1;
	}
	return 0;
}
