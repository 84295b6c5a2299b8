/* SPDX-License-Identifier: Apache-2.0 */
/* readings.c: the plain records counting produces (readings.h): appended, never changed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "readings.h"

/* Grows *p (of *cap elements of size) to hold want, doubling at least; -1 when memory ran
 * out. */
static int grow(void **p, size_t *cap, size_t want, size_t size)
{
	size_t c;
	void *q;

	if (want <= *cap)
		return 0;
	c = want > 2 * *cap ? want : 2 * *cap;
	if (c > SIZE_MAX / size || !(q = realloc(*p, c * size)))
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int readings_reserve(struct readings *rs, size_t more)
{
	return more > SIZE_MAX - rs->n ? -1 : grow((void **)&rs->r, &rs->cap, rs->n + more,
						   sizeof(*rs->r));
}

int readings_add(struct readings *rs, const struct reading *r)
{
	if (grow((void **)&rs->r, &rs->cap, rs->n + 1, sizeof(*r)) != 0)
		return -1;
	rs->r[rs->n++] = *r;
	return 0;
}

int readings_add_run(struct readings *rs, const struct reading_run *run)
{
	if (grow((void **)&rs->runs, &rs->runs_cap, rs->nruns + 1, sizeof(*run)) != 0)
		return -1;
	rs->runs[rs->nruns++] = *run;
	return 0;
}

int readings_add_interval(struct readings *rs, uint64_t t_ns)
{
	if (grow((void **)&rs->t_ns, &rs->t_cap, rs->nintervals + 1, sizeof(t_ns)) != 0)
		return -1;
	rs->t_ns[rs->nintervals++] = t_ns;
	return 0;
}

const struct reading_run *readings_run(const struct readings *rs, uint32_t run,
				       uint32_t plan_run)
{
	for (size_t k = 0; k < rs->nruns; k++)
		if (rs->runs[k].run == run && rs->runs[k].plan_run == plan_run)
			return &rs->runs[k];
	return NULL;
}

void readings_free(struct readings *rs)
{
	free(rs->r);
	free(rs->runs);
	free(rs->t_ns);
	memset(rs, 0, sizeof(*rs));
}
