/* test_sort.c: sort_short against qsort, for arrays on both sides of its limits, and its
 * stability. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "tap.h"

/* An element: a key that repeats, and the element's first position (stability). */
struct el {
	uint32_t key;
	uint32_t at;
	char pad[8];
};

/* By key, then by position: qsort's order made total, to compare with. */
static int by_key_at(const void *a, const void *b)
{
	const struct el *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->at > y->at) - (x->at < y->at);
}

static int by_key(const void *a, const void *b)
{
	const struct el *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* A big element: past SORT_ELEM_MAX, sorted by qsort. */
struct big {
	uint32_t key;
	char pad[SORT_ELEM_MAX];
};

static int by_big(const void *a, const void *b)
{
	const struct big *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static uint32_t next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

int main(void)
{
	static const size_t ns[] = { 0, 1, 2, 3, 7, 20, SORT_SHORT, SORT_SHORT + 1, 300 };
	static const uint32_t spans[] = { 1, 4, 1000 };	/* keys from 0 to span - 1 */
	struct el *v = malloc(300 * sizeof(*v)), *w = malloc(300 * sizeof(*w));
	struct big *bv = malloc(20 * sizeof(*bv));
	uint32_t seed = 7;

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (size_t j = 0; j < sizeof(spans) / sizeof(spans[0]); j++)
			for (int sorted = 0; sorted < 2; sorted++) {
				size_t n = ns[i], bad = 0;

				for (size_t k = 0; k < n; k++) {
					uint32_t key = sorted ? (uint32_t)(k * spans[j] / n)
							      : next(&seed) % spans[j];

					v[k] = (struct el){ key, (uint32_t)k, { 0 } };
				}
				memcpy(w, v, n * sizeof(*v));
				sort_short(v, n, sizeof(*v), by_key);
				qsort(w, n, sizeof(*w), by_key_at);
				for (size_t k = 0; k < n; k++)
					bad += v[k].key != w[k].key ||
					       (n <= SORT_SHORT && v[k].at != w[k].at);
				tap_ok(bad == 0, "line %d: %zu elements, keys below %u%s: "
				       "sorted as qsort%s", __LINE__, n, (unsigned)spans[j],
				       sorted ? ", in order" : "",
				       n <= SORT_SHORT ? ", equal keys in their order" : "");
			}
	for (size_t k = 0; k < 20; k++)
		bv[k].key = (uint32_t)(20 - k);
	sort_short(bv, 20, sizeof(*bv), by_big);
	{
		size_t bad = 0;

		for (size_t k = 0; k < 20; k++)
			bad += bv[k].key != k + 1;
		tap_ok(bad == 0, "line %d: elements larger than SORT_ELEM_MAX are sorted too",
		       __LINE__);
	}
	free(v);
	free(w);
	free(bv);
	return tap_done();
}
