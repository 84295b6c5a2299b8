/* SPDX-License-Identifier: Apache-2.0 */
/* pmreg.h: the PMU registers the kernel programs for a set of events: the PMEVTYPER<n>_EL0 /
 * PMCCFILTR_EL0 value field by field, the counter each event needs, the order of register
 * writes (armv8pmu_enable_event, armv8pmu_start), and FEAT_PMUv3_TH threshold terms taken
 * from the PMU's sysfs format/. Pure, except pmreg_th_* which read a loaded sysfs_pmu. */
#ifndef PMUPROF_PMREG_H
#define PMUPROF_PMREG_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "sysfs.h"

#define PMREG_CPU_CYCLES 0x11	/* goes to PMCCNTR_EL0 when free */
#define PMREG_CHAIN 0x1e	/* the odd counter of a chained pair counts overflows */
#define PMREG_CYCLE_COUNTER 31	/* PMCNTENSET bit and PMSELR value of PMCCNTR */

/* What the PMU is, as far as register values go. */
struct pmreg_pmu {
	int pmuver;		/* minor PMUv3 version: 0 (v8.0), 1, 4, 5, 7, 8 (PMUv3p8) */
	int counters;		/* PMCR_EL0.N event counters */
	int direct;		/* kernel writes PMEVTYPER<n>_EL0 (5.11+), else PMSELR+PMXEVTYPER */
	uint32_t th_max;	/* caps/threshold_max; 0 = no FEAT_PMUv3_TH */
};

/* The PMUv3 version an architecture level implies ("armv8.2-a" -> 1, "armv9-a" -> 5);
 * -1 when the string is not one pmuprof knows. */
int pmreg_pmuver_for_arch(const char *arch);
/* Whether a kernel release ("6.1.0-56-arm64") writes PMEVTYPER<n> directly: 5.11 and later
 * (the kernel's "avoid PMXEV* indirection"). Unparsable: 1. */
int pmreg_direct_for_release(const char *release);

/* One event as the driver sees it. */
struct pmreg_event {
	uint16_t evt;		/* evtCount (config & 0xffff after the kernel's event map) */
	unsigned filter;	/* enum filter_bit the driver programs */
	int is_long;		/* config1 `long`: a 64-bit count */
	uint32_t th;		/* PMEVTYPER.TH; 0 = no threshold */
	unsigned tc;		/* PMEVTYPER.TC: threshold_compare << 1 | threshold_count */
};

enum pmreg_kind {
	PMREG_ANY = 0,		/* any event counter */
	PMREG_CYCLE,		/* PMCCNTR_EL0 when free, else an event counter */
	PMREG_CHAINED,		/* an even/odd pair of event counters (long before PMUv3p5) */
};
const char *pmreg_kind_str(enum pmreg_kind k);
enum pmreg_kind pmreg_kind_of(const struct pmreg_event *e, const struct pmreg_pmu *p);

/* The value armv8pmu_write_evtype writes: evtCount, the filter bits, TH and TC (TH/TC only
 * when th != 0). For PMCCFILTR_EL0 pass cycle = 1: evtCount is RES0 there. */
uint64_t pmreg_value(const struct pmreg_event *e, int cycle);
/* The filter bits in a PMEVTYPER/PMCCFILTR value (the reverse of pmreg_value's filter part). */
unsigned pmreg_filter_bits(uint64_t reg);

/* One field of a register value. */
struct pmreg_field {
	const char *name;	/* "evtCount", "P", ..., "TH", "TC" */
	int hi, lo;		/* bit positions */
	uint64_t value;
};
/* Splits a value into its fields (evtCount 15:0, or 9:0 before PMUv3p1; none for PMCCFILTR;
 * TH and TC only with with_th). Returns the number written (at most max). */
size_t pmreg_decode(uint64_t reg, int cycle, int pmuver, int with_th, struct pmreg_field *out,
		    size_t max);

/* Where an event landed. */
struct pmreg_slot {
	int counter;		/* hardware counter: 0..N-1, PMREG_CYCLE_COUNTER, -1 = not placed */
	int low;		/* chained: the even counter holding the event; else -1 */
};

/* One register write of the programming sequence. */
struct pmreg_write {
	char reg[24];		/* "PMEVTYPER3_EL0", "PMSELR_EL0", "PMCR_EL0", ... */
	uint64_t value;		/* value written (for PMCR_EL0: the bits set) */
	int event;		/* index of the event it is for; -1 for the whole set */
	const char *what;	/* short note: "event type", "enable counters", ... */
};

struct pmreg_seq {
	struct pmreg_slot *slots;	/* one per event */
	struct pmreg_write *writes;
	size_t nwrites;
	uint32_t cntenset;		/* PMCNTENSET_EL0 once every placed event is on */
	size_t unplaced;		/* events that found no counter (the kernel would rotate) */
};

/* Places the events in order as armv8pmu_get_event_idx does (CPU_CYCLES without threshold to
 * the cycle counter, chained pairs at an odd counter whose even neighbour is free, else the
 * lowest free counter) and lists the writes: PMCR reset at probe, per event PMCNTENCLR, the
 * type register(s), PMINTENSET, PMCNTENSET, then PMCR_EL0.E. Deterministic. */
pp_status pmreg_program(const struct pmreg_event *ev, size_t n, const struct pmreg_pmu *p,
			struct pmreg_seq *out);
void pmreg_seq_free(struct pmreg_seq *s);

/* FEAT_PMUv3_TH terms, as the kernel spells them in format/ (6.8+): threshold (TH),
 * threshold_compare (TC[2:1]: 0 ne, 1 eq, 2 ge, 3 lt) and threshold_count (TC[0]: count 1
 * per cycle that passes instead of the event's increment). */
struct pmreg_th_req {
	unsigned given;		/* PMREG_TH_* bits */
	uint64_t threshold;
	unsigned compare;
	unsigned count;
};
#define PMREG_TH_VALUE 1u
#define PMREG_TH_COMPARE 2u
#define PMREG_TH_COUNT 4u

/* Takes one term if it is a threshold term: threshold=N, threshold_compare=eq|ne|ge|lt|0-3,
 * threshold_count[=0|1]. PP_ENOENT when it is not one, PP_EINVAL for a bad value. */
pp_status pmreg_th_term(const char *key, const char *value, struct pmreg_th_req *r);
/* "ne", "eq", "ge", "lt" for compare 0..3. */
const char *pmreg_th_compare_str(unsigned compare);

/* Places the request into cfg through the PMU's format/ terms, validated: PP_ENOTSUP when the
 * PMU's format/ lacks the terms ("this PMU's kernel offers no threshold counting") or its
 * caps/threshold_max is 0 or absent (no FEAT_PMUv3_TH); PP_ERANGE beyond threshold_max;
 * PP_EINVAL for compare/count without a threshold (threshold 0 disables them). why says which,
 * for the message. An empty request is PP_OK and changes nothing. */
pp_status pmreg_th_apply(const struct sysfs_pmu *pmu, const struct pmreg_th_req *r,
			 uint64_t cfg[4], char *why, size_t len);
/* Reads TH and TC back out of a config through the PMU's format/ (0, 0 when it has none). */
void pmreg_th_extract(const struct sysfs_pmu *pmu, const uint64_t cfg[4], uint32_t *th,
		      unsigned *tc);
/* Reads a format term's value out of cfg (0 when the PMU has no such term). */
uint64_t pmreg_format_get(const struct sysfs_pmu *pmu, const char *term, const uint64_t cfg[4]);
/* The same for a term already found (sysfs_format_find); 0 for NULL. */
uint64_t pmreg_format_value(const struct sysfs_format *f, const uint64_t cfg[4]);

#endif
