/* SPDX-License-Identifier: Apache-2.0 */
/* test_suggest.c: edit distances and the "did you mean" ranking. */
#include "suggest.h"
#include "tap.h"

static const struct {
	int line;
	const char *a, *b;
	int want;
} dists[] = {
	{ __LINE__, "cycles", "cycles", 0 },
	{ __LINE__, "cycles", "CYCLES", 0 },
	{ __LINE__, "cycles", "cylces", 1 },	/* adjacent swap is one edit */
	{ __LINE__, "inst_retird", "inst_retired", 1 },
	{ __LINE__, "page-fualts", "page-faults", 1 },
	{ __LINE__, "abc", "xyz", 3 },
	{ __LINE__, "", "abc", 3 },
	{ __LINE__, "kitten", "sitting", 3 },
};

int main(void)
{
	struct suggest s;
	static const char *const cands[] = { "inst_retired", "inst_spec", "cpu_cycles",
					     "inst_retired", "br_retired", "INST_RETIRED" };

	for (size_t k = 0; k < sizeof(dists) / sizeof(dists[0]); k++)
		TAP_EQ_INT(suggest_distance(dists[k].a, dists[k].b, 10), dists[k].want,
			   "line %d: distance '%s' '%s'", dists[k].line, dists[k].a, dists[k].b);
	TAP_EQ_INT(suggest_distance("abcdefgh", "zzzzzzzz", 2), 3,
		   "line %d: distances past the cap stop at cap+1", __LINE__);

	suggest_init(&s, "inst_retird");
	for (size_t k = 0; k < sizeof(cands) / sizeof(cands[0]); k++)
		suggest_offer(&s, cands[k]);
	TAP_EQ_INT(s.n, 1, "line %d: one close name, duplicates and case variants folded", __LINE__);
	TAP_EQ_STR(s.best[0], "inst_retired", "line %d: the closest first", __LINE__);

	suggest_init(&s, "zzzzzz");
	for (size_t k = 0; k < sizeof(cands) / sizeof(cands[0]); k++)
		suggest_offer(&s, cands[k]);
	TAP_EQ_INT(s.n, 0, "line %d: nothing close, nothing suggested", __LINE__);

	suggest_init(&s, "brnches");
	suggest_offer(&s, "branches");
	suggest_offer(&s, "branch-misses");
	suggest_offer(&s, "brunches");
	suggest_offer(&s, "benches");
	suggest_offer(&s, "branch");
	TAP_EQ_INT(s.n, 3, "line %d: at most three", __LINE__);
	TAP_EQ_STR(s.best[0], "branches", "line %d: ranked by distance", __LINE__);
	return tap_done();
}
