/* stat_priv.h: what cmd_stat.c and stat_events.c share; not part of include/. */
#ifndef PMUPROF_STAT_PRIV_H
#define PMUPROF_STAT_PRIV_H

#include <stddef.h>

#include "counter.h"
#include "filter.h"
#include "resolve.h"

struct stat_opts {
	const char **specs;
	size_t nspecs;
	int json;
	const char *sep;
	const char *output;
	char **cmd;
	int cmdc;
	const char *cpu_model;	/* --cpu-model: resolve names for this core (issue 3) */
	int kernel_el;		/* --kernel-el: 1 or 2; 0 = detect */
	int allow_secure;	/* --allow-secure */
};

/* One event through the pipeline: resolved, opened, read. */
struct stat_event {
	struct pp_event ev;
	int fd;
	int err;		/* errno of a failed open */
	struct counter_reading rd;
	struct filter_plan plan;	/* of its filter-bit terms (ev.filter.given) */
	char terms[40];			/* those terms, "P,NSK" */
};

/* Specs -> resolved events with their filter-bit terms settled (filter_apply) and, when a
 * term or --kernel-el needs it, the kernel's EL in *kel (kel->el 0: not decided). Stops at
 * the first bad event with its message; -1 then. */
int stat_events_resolve(const struct stat_opts *o, struct stat_event **out, size_t *nout,
			struct filter_kernel_el *kel);
/* Closes the open counters and frees the events. */
void stat_events_free(struct stat_event *evs, size_t n);

#endif
