/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.h: event requests -> perf_event_attr, through perf's generic names, raw codes, the
 * Arm tables for each PMU's core, a PMU's sysfs type, format/ terms and events/, and libpfm4
 * as the last resort. */
#ifndef PMUPROF_RESOLVE_H
#define PMUPROF_RESOLVE_H

#include <linux/perf_event.h>
#include <stddef.h>

#include "evspec.h"
#include "evtab.h"
#include "filter.h"
#include "pmreg.h"
#include "ppattr.h"
#include "status.h"
#include "suggest.h"
#include "sysfs.h"

struct pfm_lib;

/* Whether an event can be opened on every Arm PMU of a machine with several core types, and
 * how: by its PMUv3 code (raw rNNNN, generic names the armv8_pmuv3 map covers) or by its name
 * looked up in each core's table and events/. An event the user gave a PMU for, software and
 * libpfm4 events are not split. */
enum resolve_split { RESOLVE_SPLIT_NONE = 0, RESOLVE_SPLIT_CODE, RESOLVE_SPLIT_NAME };

/* One event ready to open. */
struct pp_event {
	char *name;		/* as the user wrote it, modifiers included */
	char *pmu;		/* "cpu" (generic hardware), "software", "raw", "libpfm4", or a sysfs
				 * PMU name: the PMU the event resolved against */
	const char *unit;	/* unit of the raw count: "ns" for clocks, "" for plain counts */
	struct pp_attr attr;
	const struct evtab_core *core;	/* the Arm core whose tables named it; NULL otherwise */
	int arm_code;		/* the PMUv3 event number it counts (for generic names: what the
				 * kernel's armv8_pmuv3 map gives); -1 when not an Arm event */
	struct filter_req filter;	/* PMEVTYPER filter terms given (p=1,nsh=1), see filter.h
					 * (threshold terms are placed into config as resolved) */
	unsigned mods;		/* the modifier letters given (enum evspec_mod) */
	enum resolve_split split;	/* how it is counted on each core type (big.LITTLE) */
	char *arm_name;		/* the Arm name it was found by (split by name), else NULL */
	char *strs;		/* owns name, pmu and arm_name: one allocation; NULL when they
				 * are the resolve context's (resolve_event_in) */
	int group;		/* user group index, -1 when not in braces */
	int column;		/* where the event starts in its spec */
};

/* Why a request did not resolve: the message subject and cause, and close names. */
struct resolve_error {
	int column;			/* 1-based column in the spec */
	char what[224];			/* e.g. "no such event", "unknown term 'foo' for PMU ..." */
	struct suggest near;		/* closest known names (near.n of them) */
};

/* What names are resolved against; sysfs and libpfm4 are read only when a name needs them,
 * so `stat -e task-clock` reads nothing. Not shared between threads. */
struct resolve_pool;

struct resolve_ctx {
	const struct evtab_core *model;	/* --cpu-model / PMUPROF_CPU_MODEL core, NULL: none */
	int pmus_loaded;
	pp_status pmus_status;		/* of the sysfs walk, once done */
	struct sysfs_pmu *pmus;		/* the Arm PMUs, ordered by their first CPU */
	size_t npmus;
	int pfm_tried;
	pp_status pfm_status;
	char pfm_why[160];		/* why libpfm4 is unavailable */
	struct pfm_lib *pfm;
	struct resolve_pool *strings;	/* the strings of the events resolved in it */
	const char *pmu_copy;		/* the last PMU name copied there (events share it) */
};

/* The model name to use: opt when given, else $PMUPROF_CPU_MODEL, else NULL. */
const char *resolve_model_name(const char *opt);
/* Starts a context; model (may be NULL) names a core (evtab_core_by_name). PP_ENOENT when the
 * model is unknown: near then holds the closest core names. */
pp_status resolve_ctx_init(struct resolve_ctx *c, const char *model, struct suggest *near);
void resolve_ctx_free(struct resolve_ctx *c);
/* Reads the Arm PMUs once (sysfs_arm_pmus); later calls return the first outcome. */
pp_status resolve_ctx_pmus(struct resolve_ctx *c);
/* The core of a PMU, from the MIDR of its first CPU; NULL when not in the tables. */
const struct evtab_core *resolve_pmu_core(const struct sysfs_pmu *pmu);
/* The Arm PMU of ctx (after resolve_ctx_pmus) whose core is core, or NULL. */
const struct sysfs_pmu *resolve_arm_pmu_of(struct resolve_ctx *c, const struct evtab_core *core);
/* The event number of an events/ entry ("event=0x0011"), -1 when it has none. */
long resolve_sysfs_event_code(const struct sysfs_event *e);

/* The attr of ev (resolved in c, ev->split != RESOLVE_SPLIT_NONE) on Arm PMU p: p's type, the
 * event's code on p's core, every other field as ev's. PP_ENOENT when p's core has no such
 * event; PP_EINVAL when p cannot encode it. */
pp_status resolve_on_pmu(const struct pp_event *ev, const struct sysfs_pmu *p,
			 struct pp_attr *out);

/* Resolves one request into *out. Its strings (name, pmu, arm_name) are c's, valid until
 * resolve_ctx_free(c); free the event with resolve_event_free, before c. */
pp_status resolve_event_in(struct resolve_ctx *c, const struct evspec_req *req,
			   struct pp_event *out, struct resolve_error *err);
/* The same with a context of its own (model from $PMUPROF_CPU_MODEL); the event owns its
 * strings (ev->strs). */
pp_status resolve_event(const struct evspec_req *req, struct pp_event *out,
			struct resolve_error *err);
void resolve_event_free(struct pp_event *ev);
/* Gives ev the strings name, pmu and arm (NULL: none) in a new allocation of its own, which
 * may copy from the one it had (freed after): ev->strs, with name, pmu and arm_name in it. */
pp_status resolve_event_strings(struct pp_event *ev, const char *name, const char *pmu,
				const char *arm);

/* A copy of s in c's strings (valid until resolve_ctx_free(c)); NULL when out of memory. */
const char *resolve_keep(struct resolve_ctx *c, const char *s);

/* Looks a perf generic, software or cache name up (case-insensitive): type and config. */
pp_status resolve_generic(const char *name, struct pp_attr *attr, const char **unit);
/* perf's tool events, duration_time, user_time and system_time: 1, 2 or 3 for the first len
 * characters of name (any case), in that order; 0 for any other name. They resolve to PMU
 * "tool" with perf's encoding of them, PERF_TYPE_SOFTWARE's dummy event, and unit "ns":
 * never opened, their values are times the command that counts measures itself. */
int resolve_tool(const char *name, size_t len);
/* Calls fn for every generic name it knows, with the type and config resolve_generic gives
 * it, for suggestions and listings. */
void resolve_generic_names(void (*fn)(const char *name, uint32_t type, uint64_t config,
				       void *arg), void *arg);
/* The PMUv3 event the kernel's armv8_pmuv3 driver counts for a PERF_TYPE_HARDWARE or
 * PERF_TYPE_HW_CACHE attr (armv8_pmuv3_perf_map, armv8_pmuv3_perf_cache_map); -1 for none. */
int resolve_generic_arm_code(uint32_t type, uint64_t config);

#endif
