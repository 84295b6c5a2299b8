/* SPDX-License-Identifier: Apache-2.0 */
/* test_diff.c: the direction pmuprof diff gives each metric of the tables when no option names
 * one: the rules by name, and every metric of every set classified as its kind says. */
#include <string.h>

#include "diff.h"
#include "mxtab.h"
#include "tap.h"

static const struct {
	const char *name;
	enum diff_dir dir;
	int line;
} rows[] = {
	{ "ipc", DIFF_HIGHER_BETTER, __LINE__ },
	{ "cme_ipc", DIFF_HIGHER_BETTER, __LINE__ },
	{ "fp_ops_per_cycle", DIFF_HIGHER_BETTER, __LINE__ },
	{ "retiring", DIFF_HIGHER_BETTER, __LINE__ },
	{ "cme_retiring", DIFF_HIGHER_BETTER, __LINE__ },
	{ "ll_cache_read_hit_ratio", DIFF_HIGHER_BETTER, __LINE__ },
	{ "l1_prefetcher_accuracy", DIFF_HIGHER_BETTER, __LINE__ },
	{ "l2_prefetcher_coverage_l1hwprf_inclusive", DIFF_HIGHER_BETTER, __LINE__ },
	{ "branch_mpki", DIFF_HIGHER_WORSE, __LINE__ },
	{ "l1d_cache_miss_ratio", DIFF_HIGHER_WORSE, __LINE__ },
	{ "branch_misprediction_ratio", DIFF_HIGHER_WORSE, __LINE__ },
	{ "dtlb_walk_ratio", DIFF_HIGHER_WORSE, __LINE__ },
	{ "frontend_bound", DIFF_HIGHER_WORSE, __LINE__ },
	{ "backend_mem_cache_bound", DIFF_HIGHER_WORSE, __LINE__ },
	{ "bad_speculation", DIFF_HIGHER_WORSE, __LINE__ },
	{ "backend_stalled_cycles", DIFF_HIGHER_WORSE, __LINE__ },
	{ "load_average_latency", DIFF_HIGHER_WORSE, __LINE__ },
	{ "load_percentage", DIFF_NO_DIRECTION, __LINE__ },
	{ "branch_direct_ratio", DIFF_NO_DIRECTION, __LINE__ },
	{ "lsu_port_utilization", DIFF_NO_DIRECTION, __LINE__ },
	{ "dtlb_walk_average_depth", DIFF_NO_DIRECTION, __LINE__ },
};

static int ends(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

int main(void)
{
	size_t checked = 0;

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		TAP_EQ_INT(diff_metric_dir(rows[k].name), rows[k].dir, "line %d: %s", rows[k].line,
			   rows[k].name);
	/* every metric of the tables: an MPKI, a miss ratio or a top-down "bound" share is never
	 * better higher, and a hit ratio or an IPC never worse */
	for (size_t s = 0; s < mxtab_nsets(); s++) {
		const struct mxtab_set *set = mxtab_set_at(s);

		for (size_t i = 0; i < mxtab_nmetrics(set); i++) {
			const char *name = mxtab_metric_name(mxtab_metric_at(set, i));
			enum diff_dir d = diff_metric_dir(name);
			int worse = ends(name, "_mpki") || ends(name, "_miss_ratio") ||
				    ends(name, "_bound");
			int better = ends(name, "_hit_ratio") || ends(name, "ipc");

			checked++;
			if ((worse && d != DIFF_HIGHER_WORSE) || (better && d != DIFF_HIGHER_BETTER))
				tap_ok(0, "set %zu: %s has direction %s", s, name, diff_dir_str(d));
		}
	}
	tap_ok(checked > 500, "the tables' metrics classified (%zu)", checked);
	return tap_done();
}
