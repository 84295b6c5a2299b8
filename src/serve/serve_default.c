/* SPDX-License-Identifier: Apache-2.0 */
/* serve_default.c: the events pmuprof serve counts when it is given none, in a file of its
 * own so that `pmuprof info --check` names them without linking any of serve's server. */
#include "mxtab.h"
#include "serve.h"

/* Where no Arm PMU counts: the kernel's software events, which count everywhere. */
static const char default_soft[] = "task-clock,context-switches,page-faults";
/* On Arm: cycles and instructions (IPC), with top-down stage 1 where the core has it. */
static const char default_arm[] = "cpu_cycles,inst_retired";

const char *serve_default_events(int arm, const struct metrics_core *mc, const char **group)
{
	*group = NULL;
	if (!arm)
		return default_soft;
	for (size_t i = 0; mc->set && i < mxtab_ngroups(mc->set) && !*group; i++)
		if (mxtab_group_stage(mxtab_group_at(mc->set, i)) == 1)
			*group = mxtab_group_name(mxtab_group_at(mc->set, i));
	return default_arm;
}
