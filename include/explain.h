/* SPDX-License-Identifier: Apache-2.0 */
/* explain.h: what `pmuprof explain` shows, as one plain struct built by cmd_explain.c and
 * printed by explain_out.c (text or JSON), like stat's report. */
#ifndef PMUPROF_EXPLAIN_H
#define PMUPROF_EXPLAIN_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "evsel.h"
#include "filter.h"
#include "pmreg.h"
#include "resolve.h"

struct explain_event {
	struct evsel_event sel;		/* the event and its filter plan */
	const char *pmu_name;		/* the sysfs PMU the registers belong to, or NULL */
	int is_arm;			/* has a PMUv3 event number (ev.arm_code >= 0) */
	int filter_given;		/* filter-bit terms were written */
	int marked;			/* a Secure/EL3 request counted only where Linux can */
	struct pmreg_event reg;		/* what the driver programs */
	enum pmreg_kind kind;
};

struct explain {
	struct filter_kernel_el kel;
	const char *core;		/* core name, NULL when unknown */
	const char *arch;
	struct pmreg_pmu pmu;
	int pmuver_assumed, counters_assumed;
	const char *counters_source;	/* "probed" or "cached" (this machine's PMU), "arm-data"
					 * (the core's table), "assumed" */
	char release[65];		/* kernel release the access style comes from */
	struct explain_event *events;
	size_t n;
	struct pmreg_seq seq;		/* over the Arm events, in order */
	size_t *seq_index;		/* seq event index -> events[] index */
	size_t nseq;			/* Arm events in the sequence */
};

/* Prints the explanation; 0 on success, -1 when it cannot be written. */
int explain_print_json(const struct explain *x, FILE *out);
int explain_print_text(const struct explain *x, FILE *out);

#endif
