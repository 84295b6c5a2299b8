/* SPDX-License-Identifier: Apache-2.0 */
/* report_text_region.c: the regions of the text report (stat --regions): a block per region
 * after the whole run's, headed by its name, calls and time, its rows printed from its own
 * report as the whole run's are, then what went wrong with it. */
#include <math.h>

#include "report_text_priv.h"

/* " Region 'NAME' (3 calls, 0.001234567 seconds):" (with -r, the calls and time per run). */
static void heading(const struct report *r, const struct report_region *g, struct textline *l)
{
	int whole = g->calls == floor(g->calls);

	textline_puts(l, "\n Region '");
	textline_puts(l, g->name);
	textline_puts(l, "' (");
	report_text_fixed(l, g->calls, 0, whole ? 0 : 2);
	textline_puts(l, g->calls == 1 ? " call, " : " calls, ");
	report_text_fixed(l, (double)g->r->wall_ns / 1e9, 0, 9);
	textline_puts(l, " seconds");
	if (r->nruns)
		textline_puts(l, " per run");
	textline_puts(l, "):\n\n");
}

/* What the counts of region g do not tell by themselves. */
static void notes(const struct report_region *g, struct textline *l)
{
	if (g->unended) {
		textline_puts(l, "\n Begun ");
		textline_num(l, g->unended, 10, 0);
		textline_puts(l, g->unended == 1 ? " time" : " times");
		textline_puts(l, " and never ended (the command ended or was killed inside it): "
			      "those executions are not counted.\n");
	}
	if (g->overlapped)
		textline_puts(l, "\n Executions overlapped (threads, children or recursion): what "
			      "the counters counted while two were open is in each of them.\n");
}

void report_text_regions(const struct report *r, struct textline *l)
{
	for (size_t k = 0; k < r->nregions; k++) {
		const struct report_region *g = &r->regions[k];

		heading(r, g, l);
		report_text_totals(g->r, l);
		notes(g, l);
	}
	if (r->region_stray_ends) {
		textline_puts(l, "\n ");
		textline_num(l, r->region_stray_ends, 10, 0);
		textline_puts(l, r->region_stray_ends == 1 ? " region end had no begin and was "
			      "ignored.\n" : " region ends had no begin and were ignored.\n");
	}
	if (r->nregions || r->region_stray_ends)
		textline_put(l, "\n", 1);
}
