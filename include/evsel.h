/* SPDX-License-Identifier: Apache-2.0 */
/* evsel.h: event selection shared by the commands that take events (stat, explain): the
 * -e/--cpu-model/--kernel-el/--allow-secure options, and the specs parsed, resolved and their
 * filter-bit terms settled, with the user's messages on failure. */
#ifndef PMUPROF_EVSEL_H
#define PMUPROF_EVSEL_H

#include <argp.h>
#include <stddef.h>

#include "filter.h"
#include "resolve.h"

struct evsel_opts {
	const char **specs;	/* each -e argument */
	size_t nspecs;
	const char *cpu_model;	/* --cpu-model, else $PMUPROF_CPU_MODEL */
	int kernel_el;		/* --kernel-el: 1 or 2; 0 = detect */
	int allow_secure;	/* --allow-secure */
	unsigned all_levels;	/* stat's --all-user, --all-kernel: EVSPEC_MOD_U or _K given to
				 * every event (0: none), as perf's options do */
};

/* The options as an argp child: its input is a struct evsel_opts (set child_inputs[0] to it
 * at ARGP_KEY_INIT). --cpu-model is long only: -M is perf's --metric (stat's). */
extern const struct argp evsel_argp_long;
void evsel_opts_free(struct evsel_opts *o);

/* One selected event. */
struct evsel_event {
	struct pp_event ev;
	struct filter_plan plan;	/* of its filter-bit terms (ev.filter.given) */
	const char *terms;		/* those terms, "P,NSK", in the resolution context's
					 * strings; NULL: none */
	size_t spec;		/* the spec it came from (its index in the options' specs) */
};

/* How to select. */
enum evsel_flags {
	EVSEL_ALWAYS_EL = 1 << 0,	/* decide the kernel's EL and settle every event, even
					 * without filter-bit terms (explain shows it all) */
};

/* 0 when model (NULL: none) is no CORE:rXpY or a well-formed one; else -1 after a message. */
int evsel_model_revision_ok(const char *model);
/* The resolution context for --cpu-model / $PMUPROF_CPU_MODEL; -1 after a message. */
int evsel_ctx_init(const struct evsel_opts *o, struct resolve_ctx *ctx);
/* Parses and resolves every spec in ctx, then settles filter-bit terms with the kernel's EL,
 * decided once into *kel and only when a term, --kernel-el or EVSEL_ALWAYS_EL asks for it
 * (detecting reads files the common path must not pay for; kel->el stays 0 then). verb names
 * the command in a refusal's message ("count", "explain"); a name that does not resolve is
 * "cannot use event". *out is a new array of *n events (evsel_free frees it). -1 after a
 * message. */
int evsel_select(const struct evsel_opts *o, struct resolve_ctx *ctx, unsigned flags,
		 const char *verb, struct evsel_event **out, size_t *n,
		 struct filter_kernel_el *kel);
/* Frees the first n events' names and the array. */
void evsel_free(struct evsel_event *evs, size_t n);

#endif
