/* filter.h: the PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 filter bits (P, U, NSK, NSU, NSH, M, SH) and
 * their translation to and from perf_event_attr's exclude_* flags. Pure: no kernel access. */
#ifndef PMUPROF_FILTER_H
#define PMUPROF_FILTER_H

#include "status.h"

/* One bit each, in PMEVTYPER bit order from the top: P (31) U (30) NSK (29) NSU (28) NSH (27)
 * M (26) SH (24). */
enum filter_bit {
	FILTER_P = 1 << 0,
	FILTER_U = 1 << 1,
	FILTER_NSK = 1 << 2,
	FILTER_NSU = 1 << 3,
	FILTER_NSH = 1 << 4,
	FILTER_M = 1 << 5,
	FILTER_SH = 1 << 6,
};

/* Filter bits written as event terms (inst_retired/p=1,nsh=1/): which were given, and their
 * values. given == 0 means the event uses perf's modifiers only. */
struct filter_req {
	unsigned given;		/* enum filter_bit mask */
	unsigned value;		/* enum filter_bit mask, meaningful where given */
};

/* Takes one term if it is a filter bit (p, u, nsk, nsu, nsh, m, sh; any case; value 0 or 1;
 * a bare key means 1). PP_ENOENT when key is not a filter bit (the caller tries other
 * meanings), PP_EINVAL when the value is not 0 or 1. */
pp_status filter_term(const char *key, const char *value, struct filter_req *fr);

#endif
