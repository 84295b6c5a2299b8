/* SPDX-License-Identifier: Apache-2.0 */
/* render.h: the unit tests' one way to see what a writer prints of a report. */
#ifndef PMUPROF_TEST_RENDER_H
#define PMUPROF_TEST_RENDER_H

#include <stdio.h>
#include <stdlib.h>

#include "report.h"

/* The figures derived from r's counts, as the results stage stores them before any writer
 * runs (report_derive: r's metrics as the test set them, none bound); what it allocated is
 * freed by render_done. */
static inline void render_derive(struct report *r)
{
	report_derive(r, NULL, NULL, 0);
}

static inline void render_done(struct report *r)
{
	for (size_t k = 0; k < r->nmetrics; k++) {
		free(r->metrics[k].units);
		r->metrics[k].units = NULL;
	}
}

/* What writer fmt ('t' text, 'x' CSV with ",", else JSON) wrote of r, derived first, in a
 * buffer to free; NULL when no memory stream could be opened. */
static inline char *render_report(struct report *r, int fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	render_derive(r);
	if (fmt == 't')
		report_text(r, f);
	else if (fmt == 'x')
		report_csv(r, f, ",");
	else
		report_json(r, f);
	fclose(f);
	render_done(r);
	return buf;
}

#endif
