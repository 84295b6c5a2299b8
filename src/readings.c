/* readings.c: the plain records counting produces (readings.h): appended, never changed. */
#include <stdlib.h>
#include <string.h>

#include "readings.h"

/* Grows *p (of *cap elements of size) to hold one more than n; -1 when memory ran out. */
static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 16;
	if (!(q = realloc(*p, c * size)))
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int readings_add(struct readings *rs, const struct reading *r)
{
	if (grow((void **)&rs->r, &rs->cap, rs->n, sizeof(*r)) != 0)
		return -1;
	rs->r[rs->n++] = *r;
	return 0;
}

int readings_add_run(struct readings *rs, const struct reading_run *run)
{
	if (grow((void **)&rs->runs, &rs->runs_cap, rs->nruns, sizeof(*run)) != 0)
		return -1;
	rs->runs[rs->nruns++] = *run;
	return 0;
}

int readings_add_interval(struct readings *rs, uint64_t t_ns)
{
	if (grow((void **)&rs->t_ns, &rs->t_cap, rs->nintervals, sizeof(t_ns)) != 0)
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
