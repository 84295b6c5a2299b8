/* SPDX-License-Identifier: Apache-2.0 */
/* stat_report_region.c: the report's regions (--regions): each region's readings built into
 * a report of its own by stat_report_build, the whole run's builder, so that a region has
 * every event, metric, per-core-type part and per-run statistic the whole run has. */
#include <stdlib.h>
#include <string.h>

#include "stat_ctl.h"

int stat_report_regions(struct report *r, const struct stat_regions *g,
			const struct stat_event *evs, size_t nrows, const struct stat_build *b)
{
	struct stat_build rb = *b;

	rb.intervals = 0;	/* a region has no -I intervals of its own */
	r->region_stray_ends = g->stray_ends;
	if (!g->n)
		return 0;
	if (!(r->regions = calloc(g->n, sizeof(*r->regions))))
		return -1;
	for (size_t k = 0; k < g->n; k++) {
		const struct stat_region *sr = &g->r[k];
		struct report_region *rr = &r->regions[r->nregions];

		rr->name = strdup(sr->name);
		rr->r = calloc(1, sizeof(*rr->r));
		r->nregions++;	/* report_free_parts frees what was made */
		if (!rr->name || !rr->r)
			return -1;
		rr->calls = sr->s.nruns ? (double)sr->calls / (double)sr->s.nruns : 0;
		rr->unended = sr->unended;
		rr->overlapped = sr->overlapped;
		rr->r->tool_version = r->tool_version;
		if (stat_report_build(rr->r, &sr->s, evs, nrows, &rb) != 0)
			return -1;
	}
	return 0;
}
