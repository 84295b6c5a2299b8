/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/counts.h: event counts by name for the tests that evaluate formulas (mexpr.h's
 * lookup callback over a small table). */
#ifndef PMUPROF_TEST_COUNTS_H
#define PMUPROF_TEST_COUNTS_H

#include <string.h>

#include "mexpr.h"

#define COUNTS_MAX 16

/* names[i] counted values[i]; a name not in the table gets status missing. */
struct counts {
	const char *names[COUNTS_MAX];
	double values[COUNTS_MAX];
	size_t n;
	enum mexpr_status missing;
};

__attribute__((unused))
static enum mexpr_status counts_lookup(void *ctx, const char *name, size_t len, double *v)
{
	const struct counts *c = ctx;

	for (size_t i = 0; i < c->n; i++)
		if (strlen(c->names[i]) == len && !memcmp(c->names[i], name, len)) {
			*v = c->values[i];
			return MEXPR_OK;
		}
	return c->missing;
}

#endif
