/* resolve.h: event requests -> perf_event_attr, through perf's generic names, raw codes, and a
 * PMU's sysfs type, format/ terms and events/. */
#ifndef PMUPROF_RESOLVE_H
#define PMUPROF_RESOLVE_H

#include <linux/perf_event.h>
#include <stddef.h>

#include "evspec.h"
#include "status.h"
#include "suggest.h"

/* One event ready to open. */
struct pp_event {
	char *name;		/* as the user wrote it, modifiers included */
	char *pmu;		/* "cpu" (generic hardware), "software", "raw", or a sysfs PMU name */
	const char *unit;	/* unit of the raw count: "ns" for clocks, "" for plain counts */
	struct perf_event_attr attr;
	unsigned mods;		/* the modifier letters given (enum evspec_mod) */
	int group;		/* user group index, -1 when not in braces */
	int column;		/* where the event starts in its spec */
};

/* Why a request did not resolve: the message subject and cause, and close names. */
struct resolve_error {
	int column;			/* 1-based column in the spec */
	char what[160];			/* e.g. "no such event", "unknown term 'foo' for PMU ..." */
	struct suggest near;		/* closest known names (near.n of them) */
};

/* Resolves one request into *out (fields malloc'd; free with resolve_event_free). */
pp_status resolve_event(const struct evspec_req *req, struct pp_event *out,
			struct resolve_error *err);
void resolve_event_free(struct pp_event *ev);

/* Looks a perf generic, software or cache name up (case-insensitive): type and config. */
pp_status resolve_generic(const char *name, struct perf_event_attr *attr, const char **unit);
/* Calls fn for every generic name it knows, for suggestions and listings. */
void resolve_generic_names(void (*fn)(const char *name, void *arg), void *arg);

#endif
