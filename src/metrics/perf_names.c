/* SPDX-License-Identifier: Apache-2.0 */
/* src/metrics/perf_names.c: perf 6.19's default metric names, as -M aliases of pmuprof's. */
#include <stddef.h>

#include "ascii.h"
#include "metrics.h"

/* perf 6.19 turned its hard-coded stat figures into JSON metrics of these names
 * (tools/perf/pmu-events/arch/common/common/metrics.json), so scripts written for it pass
 * -M insn_per_cycle. Each maps to pmuprof's metric of the same meaning (which counts Arm's
 * events: branch_miss_rate becomes BR_MIS_PRED_RETIRED / BR_RETIRED, a ratio, not perf's
 * percentage of branch-misses over branches), or, where pmuprof prints the figure beside an
 * event instead of as a metric (a rate, CPUs utilized, GHz), to that event. */
static const struct {
	const char *perf, *ours, *hint;
} names[] = {
	{ "insn_per_cycle", "ipc", NULL },
	{ "branch_miss_rate", "branch_misprediction_ratio", NULL },
	{ "frontend_cycles_idle", "frontend_stalled_cycles", NULL },
	{ "backend_cycles_idle", "backend_stalled_cycles", NULL },
	{ "CPUs_utilized", NULL, "task-clock" },
	{ "cs_per_second", NULL, "context-switches" },
	{ "migrations_per_second", NULL, "cpu-migrations" },
	{ "page_faults_per_second", NULL, "page-faults" },
	{ "cycles_frequency", NULL, "cycles" },
	{ "branch_frequency", NULL, "branches" },
	{ "stalled_cycles_per_instruction", NULL, "stalled-cycles-frontend" },
};

static int find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!ascii_strcasecmp(name, names[i].perf))
			return (int)i;
	return -1;
}

const char *metrics_perf_name(const char *name)
{
	int i = find(name);

	return i >= 0 && names[i].ours ? names[i].ours : name;
}

const char *metrics_perf_hint(const char *name)
{
	int i = find(name);

	return i >= 0 ? names[i].hint : NULL;
}
