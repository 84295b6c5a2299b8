/* SPDX-License-Identifier: Apache-2.0 */
/* src/metrics/perf_names.c: perf 6.19's default metric names, as -M aliases of pmuprof's. */
#include <stddef.h>

#include "ascii.h"
#include "metrics.h"

/* perf 6.19 turned its hard-coded stat figures into JSON metrics (its file
 * tools/perf/pmu-events/arch/common/common/metrics.json, the group "Default"): the eleven
 * names below, so scripts written for it pass -M insn_per_cycle or -M cs_per_second.
 * Four map to pmuprof's metric of the same meaning (which counts Arm's events:
 * branch_miss_rate becomes BR_MIS_PRED_RETIRED / BR_RETIRED, a ratio, not perf's percentage
 * of branch-misses over branches). The other seven are figures pmuprof prints beside an event
 * rather than as a metric (per second of task-clock, CPUs utilized): asked for, they count the
 * events whose figures answer them, the events of perf's formula. perf divides by cpu-clock
 * when counting CPUs (-a, -C); pmuprof's figures take task-clock, else cpu-clock, so
 * task-clock serves both. */
static const struct {
	const char *perf, *ours, *events;
} names[] = {
	{ "insn_per_cycle", "ipc", NULL },
	{ "branch_miss_rate", "branch_misprediction_ratio", NULL },
	{ "frontend_cycles_idle", "frontend_stalled_cycles", NULL },
	{ "backend_cycles_idle", "backend_stalled_cycles", NULL },
	{ "CPUs_utilized", NULL, "task-clock" },
	{ "cs_per_second", NULL, "context-switches,task-clock" },
	{ "migrations_per_second", NULL, "cpu-migrations,task-clock" },
	{ "page_faults_per_second", NULL, "page-faults,task-clock" },
	{ "cycles_frequency", NULL, "cycles,task-clock" },
	{ "branch_frequency", NULL, "branches,task-clock" },
	{ "stalled_cycles_per_instruction", NULL,
	  "stalled-cycles-frontend,stalled-cycles-backend,instructions" },
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

const char *metrics_perf_events(const char *name)
{
	int i = find(name);

	return i >= 0 ? names[i].events : NULL;
}

const char *metrics_perf_at(size_t i, const char **ours, const char **events)
{
	if (i >= sizeof(names) / sizeof(names[0]))
		return NULL;
	*ours = names[i].ours;
	*events = names[i].events;
	return names[i].perf;
}
