/* SPDX-License-Identifier: Apache-2.0 */
/* report_read_priv.h: report_read's parts: the file checked (report_read.c), its fields
 * loaded (report_load.c, the regions' in report_load_region.c). */
#ifndef PMUPROF_REPORT_READ_PRIV_H
#define PMUPROF_REPORT_READ_PRIV_H

#include <cJSON.h>

#include "report.h"

/* Fills r from a checked document (an object with schema 1.x and named events); r's strings
 * point into root. 0, or -1 when memory ran out (r is then freed). */
int report_load(const cJSON *root, struct report *r);
/* One event of the document (an item of "events", the top level's or a region's), with
 * nruns per-run values when it gives them. 0, or -1 when memory ran out. */
int report_load_event(const cJSON *o, struct report_event *e, size_t nruns);
/* 1.7: the regions (report_load_region.c), each a report of its events. 0, or -1 when memory
 * ran out (what was made is r's). */
int report_load_regions(const cJSON *root, struct report *r);
/* Frees what report_load allocated (and r->metrics). */
void report_load_free(struct report *r);
/* Whether the fields report_load reads are of their types, and the figures an event gives
 * twice agree (report_check.c): 0, or -1 with what is wrong in what (len bytes), the field
 * named by its path. */
int report_check(const cJSON *root, char *what, size_t len);

/* A string of the document and the escaped copy in its place. */
struct report_saved_swap {
	cJSON *node;
	char *doc;
};

#endif
