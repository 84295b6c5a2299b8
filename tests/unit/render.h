/* render.h: the unit tests' one way to see what a writer prints of a report. */
#ifndef PMUPROF_TEST_RENDER_H
#define PMUPROF_TEST_RENDER_H

#include <stdio.h>

#include "report.h"

/* What writer fmt ('t' text, 'x' CSV with ",", else JSON) wrote of r, in a buffer to free;
 * NULL when no memory stream could be opened. */
static inline char *render_report(const struct report *r, int fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (fmt == 't')
		report_text(r, f);
	else if (fmt == 'x')
		report_csv(r, f, ",");
	else
		report_json(r, f);
	fclose(f);
	return buf;
}

#endif
