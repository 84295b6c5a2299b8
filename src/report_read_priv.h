/* report_read_priv.h: report_read's two halves: the file checked (report_read.c), its fields
 * loaded (report_load.c). */
#ifndef PMUPROF_REPORT_READ_PRIV_H
#define PMUPROF_REPORT_READ_PRIV_H

#include <cJSON.h>

#include "report.h"

/* Fills r from a checked document (an object with schema 1.x and named events); r's strings
 * point into root. 0, or -1 when memory ran out (r is then freed). */
int report_load(const cJSON *root, struct report *r);
/* Frees what report_load allocated (and r->metrics). */
void report_load_free(struct report *r);

#endif
