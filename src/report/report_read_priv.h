/* SPDX-License-Identifier: Apache-2.0 */
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
