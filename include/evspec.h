/* SPDX-License-Identifier: Apache-2.0 */
/* evspec.h: event-spec text -> requests. Pure: no sysfs, no tables; names are resolved later.
 *
 *   LIST  := ITEM (',' ITEM)*
 *   ITEM  := EVENT | '{' EVENT (',' EVENT)* '}' [':' MODS]
 *   EVENT := NAME [':' MODS] | PMU '/' [TERM (',' TERM)*] '/' [[':'] MODS]
 *   TERM  := KEY ['=' VALUE]
 * NAME covers perf names (cycles, L1-dcache-load-misses), Arm names (inst_retired) and raw
 * codes (r8, r0011); MODS are modifier letters (u, k, h, ...).
 */
#ifndef PMUPROF_EVSPEC_H
#define PMUPROF_EVSPEC_H

#include <stddef.h>

#include "status.h"

#define EVSPEC_MAX_TERMS 16

/* Modifier bits, one per letter. */
enum evspec_mod {
	EVSPEC_MOD_U = 1 << 0,	/* u: user space (EL0) only */
	EVSPEC_MOD_K = 1 << 1,	/* k: kernel (EL1) only */
	EVSPEC_MOD_H = 1 << 2,	/* h: hypervisor (EL2) only */
	EVSPEC_MOD_HOST = 1 << 3,	/* H: host only (exclude_guest) */
	EVSPEC_MOD_GUEST = 1 << 4,	/* G: guest only (exclude_host) */
	EVSPEC_MOD_PINNED = 1 << 5,	/* D: pinned, always on the PMU */
};

struct evspec_term {
	char *key;
	char *value;		/* NULL when the term is a bare key ("long") */
	int column;		/* 1-based column of the key in the spec */
};

struct evspec_req {
	char *text;		/* the event as written, modifiers included, then the string name
				 * or pmu points to; the list's */
	char *name;		/* event name or raw code; NULL for PMU/terms/ */
	char *pmu;		/* PMU name for PMU/terms/, else NULL */
	struct evspec_term *terms;	/* room for EVSPEC_MAX_TERMS once a term is seen, else
					 * NULL (most requests are a bare name) */
	int nterms;
	unsigned mods;		/* enum evspec_mod bits */
	int group;		/* user group index ({...}), -1 when not in braces */
	int column;		/* 1-based column of the event in its spec */
};

struct evspec_pool;

struct evspec_list {
	struct evspec_req *reqs;
	size_t n;
	int ngroups;		/* user groups seen so far (indexes 0..ngroups-1) */
	struct evspec_pool *pools;	/* the requests' texts: one allocation a spec */
};

/* Where a parse failed and why, for the caller's message. */
struct evspec_error {
	int column;		/* 1-based column in the spec text */
	char what[96];		/* e.g. "unbalanced '{'", "unknown modifier 'x'" */
};

/* Appends the events of one spec (one -e argument) to list. On failure the list is unchanged
 * and err says where. */
pp_status evspec_parse(const char *spec, struct evspec_list *list, struct evspec_error *err);
void evspec_free(struct evspec_list *list);
/* The modifier bits as letters in canonical order, e.g. "uk"; buf holds at least 8 bytes. */
const char *evspec_mods_str(unsigned mods, char *buf);

#endif
