/* SPDX-License-Identifier: Apache-2.0 */
/* evsel.c: event selection for stat and explain: shared options, then specs -> resolved
 * events -> filter-bit terms settled, each failure a message in git's style. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "evsel.h"
#include "evtab.h"
#include "evspec.h"

enum { OPT_KERNEL_EL = 0x200, OPT_ALLOW_SECURE, OPT_CPU_MODEL };

#define CPU_MODEL_DOC \
	"Resolve Arm event names for CORE (neoverse-n1, a76, ...), on any host (default: each " \
	"PMU's own core, or $PMUPROF_CPU_MODEL)"

/* --cpu-model has no short form: perf's -M is --metric, which stat's -M is too */
static const struct argp_option options_long[] = {
	{ "cpu-model", OPT_CPU_MODEL, "CORE", 0, CPU_MODEL_DOC, 0 },
	{ "event", 'e', "LIST", 0, "Events, comma-separated; repeatable", 0 },
	{ "kernel-el", OPT_KERNEL_EL, "1|2", 0,
	  "Read filter-bit terms with the kernel at EL1, or at EL2 with VHE (default: detected)",
	  0 },
	{ "allow-secure", OPT_ALLOW_SECURE, NULL, 0,
	  "Accept filter-bit terms that ask for Secure or EL3 counting: take the Non-secure "
	  "levels Linux can count, with the event marked", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct evsel_opts *o = state->input;
	const char **p;

	switch (key) {
	case 'e':
		if (!(p = realloc(o->specs, (o->nspecs + 1) * sizeof(*p))))
			argp_failure(state, PP_EXIT_ERROR, 0, "out of memory");
		o->specs = p;
		o->specs[o->nspecs++] = arg;
		break;
	case OPT_CPU_MODEL:
		o->cpu_model = arg;
		break;
	case OPT_KERNEL_EL:
		if (strcmp(arg, "1") != 0 && strcmp(arg, "2") != 0)
			argp_error(state, "--kernel-el takes 1 or 2, not '%s'", arg);
		o->kernel_el = arg[0] - '0';
		break;
	case OPT_ALLOW_SECURE:
		o->allow_secure = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp evsel_argp_long = { options_long, parse_opt, NULL, NULL, NULL, NULL, NULL };

void evsel_opts_free(struct evsel_opts *o)
{
	free(o->specs);
	o->specs = NULL;
	o->nspecs = 0;
}

int evsel_model_revision_ok(const char *model)
{
	if (!model || evtab_model_revision(model) != -2)
		return 0;
	msg_error("bad revision in CPU model '%s': want CORE:rXpY with X and Y from 0 to 15 "
		  "(e.g. neoverse-n2:r0p3)", model);
	return -1;
}

int evsel_ctx_init(const struct evsel_opts *o, struct resolve_ctx *ctx)
{
	const char *model = resolve_model_name(o->cpu_model);
	struct suggest near;

	if (evsel_model_revision_ok(model) != 0)
		return -1;
	if (resolve_ctx_init(ctx, model, &near) == PP_OK)
		return 0;
	msg_error("unknown CPU model '%s'%s%s%s (see 'pmuprof list --all-cores')", model,
		  near.n ? " (did you mean '" : "", near.n ? near.best[0] : "", near.n ? "'?)" : "");
	return -1;
}

#define CLIP 80	/* longest subject quoted whole in a message */

static void spec_error(const char *spec, const struct evspec_error *e)
{
	char c[CLIP];
	int col;
	const char *shown = msg_clip_at(spec, e->column, c, sizeof(c), &col);

	msg_error("cannot parse event list '%s': %s at column %d", shown, e->what, col);
}

static void resolve_error(const char *spec, const struct evspec_req *req,
			  const struct resolve_error *e)
{
	char hint[3 * SUGGEST_LEN + 40] = "", c1[CLIP], c2[CLIP];
	int n = 0;

	for (int k = 0; k < e->near.n; k++)
		n += snprintf(hint + n, sizeof(hint) - (size_t)n, "%s'%s'",
			      k == 0 ? " (did you mean " : k == e->near.n - 1 ? " or " : ", ",
			      e->near.best[k]);
	if (e->near.n)
		snprintf(hint + n, sizeof(hint) - (size_t)n, "?)");
	else if (!req->pmu)
		snprintf(hint, sizeof(hint), " (see 'pmuprof list')");
	int col;
	const char *shown = msg_clip_at(spec, e->column, c2, sizeof(c2), &col);

	msg_error("cannot use event '%s' (column %d of '%s'): %s%s",
		  msg_clip(req->text, c1, sizeof(c1)), col, shown, e->what, hint);
}

/* Every spec parsed into list; first[s] is the first request of spec s. -1 after a message. */
static int parse_all(const struct evsel_opts *o, struct evspec_list *list, size_t *first)
{
	for (size_t s = 0; s < o->nspecs; s++) {
		struct evspec_error perr;
		pp_status st = evspec_parse(o->specs[s], list, &perr);

		if (st != PP_OK) {
			if (st == PP_ENOMEM)
				msg_error("out of memory");
			else
				spec_error(o->specs[s], &perr);
			return -1;
		}
		first[s + 1] = list->n;
	}
	return 0;
}

#define LEVEL_MODS (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H)

/* --all-user, --all-kernel: the modifier given to the request, as if written after it; -1
 * after a message when the request chooses other levels itself (perf lets the option win in
 * silence: the count would not be of what the spec says). */
static int all_levels(const struct evsel_opts *o, struct evspec_req *req, const char *verb)
{
	const char *opt = o->all_levels == EVSPEC_MOD_U ? "--all-user" : "--all-kernel";
	char c[CLIP];

	if ((req->mods & LEVEL_MODS) && (req->mods & LEVEL_MODS) != o->all_levels) {
		msg_error("cannot %s event '%s' with %s: its modifier chooses other levels (drop "
			  "one of them)", verb, msg_clip(req->text, c, sizeof(c)), opt);
		return -1;
	}
	req->mods |= o->all_levels;
	return 0;
}

/* Specs -> resolved events; stops at the first bad one, with its message. */
static int resolve_all(const struct evsel_opts *o, struct resolve_ctx *ctx, const char *verb,
		       struct evsel_event **out, size_t *nout)
{
	struct evspec_list list = { 0 };
	struct evsel_event *evs = NULL;
	size_t *first = calloc(o->nspecs + 1, sizeof(*first));
	size_t done = 0, spec = 0;
	int rc = -1;

	if (!first) {
		msg_error("out of memory");
		goto out;
	}
	if (parse_all(o, &list, first) != 0)
		goto out;
	if (!(evs = calloc(list.n + 1, sizeof(*evs)))) {
		msg_error("out of memory");
		goto out;
	}
	for (; done < list.n; done++) {
		struct resolve_error rerr;
		pp_status st;

		while (done >= first[spec + 1])
			spec++;
		if (o->all_levels && all_levels(o, &list.reqs[done], verb) != 0)
			goto out;
		evs[done].spec = spec;
		st = resolve_event_in(ctx, &list.reqs[done], &evs[done].ev, &rerr);
		if (st != PP_OK) {
			if (st == PP_ENOMEM)
				msg_error("out of memory");
			else
				resolve_error(o->specs[spec], &list.reqs[done], &rerr);
			goto out;
		}
		/* filter-bit terms choose the levels themselves (PMEVTYPER's bits) */
		if (o->all_levels && evs[done].ev.filter.given) {
			char c[CLIP];

			msg_error("cannot %s event '%s' with %s: its filter-bit terms choose its "
				  "levels (drop one of them)", verb,
				  msg_clip(list.reqs[done].text, c, sizeof(c)),
				  o->all_levels == EVSPEC_MOD_U ? "--all-user" : "--all-kernel");
			done++;	/* resolved: freed with the others */
			goto out;
		}
	}
	*out = evs;
	*nout = done;
	evs = NULL;
	rc = 0;
out:
	evsel_free(evs, done);	/* what resolved before a failure */
	free(first);
	evspec_free(&list);
	return rc;
}

/* Filter-bit terms into exclude flags (filter_apply), with the kernel's EL decided once. */
static int settle(const struct evsel_opts *o, struct resolve_ctx *ctx, unsigned flags,
		  const char *verb, struct evsel_event *evs, size_t n,
		  struct filter_kernel_el *kel)
{
	int need = o->kernel_el != 0 || (flags & EVSEL_ALWAYS_EL);
	char why[768], terms[40];

	kel->el = 0;
	kel->why = NULL;
	for (size_t k = 0; k < n; k++)
		need |= evs[k].ev.filter.given != 0;
	if (!need)
		return 0;
	filter_kernel_el_detect(o->kernel_el, resolve_model_name(o->cpu_model), kel);
	for (size_t k = 0; k < n; k++) {
		struct evsel_event *e = &evs[k];
		pp_status st;

		if (!e->ev.filter.given && !(flags & EVSEL_ALWAYS_EL))
			continue;
		st = filter_apply(&e->ev.filter, e->ev.mods, kel->el,
				  o->allow_secure ? FILTER_ALLOW_SECURE : 0, &e->ev.attr, &e->plan);
		if (st != PP_OK) {
			msg_error("cannot %s event '%s': %s", verb, e->ev.name,
				  filter_apply_why(st, &e->plan, why, sizeof(why)));
			return -1;
		}
		filter_bits_str(e->plan.req_bits, terms, sizeof(terms));
		if (!(e->terms = resolve_keep(ctx, terms))) {
			msg_error("out of memory");
			return -1;
		}
	}
	return 0;
}

int evsel_select(const struct evsel_opts *o, struct resolve_ctx *ctx, unsigned flags,
		 const char *verb, struct evsel_event **out, size_t *n,
		 struct filter_kernel_el *kel)
{
	if (resolve_all(o, ctx, verb, out, n) != 0)
		return -1;
	if (settle(o, ctx, flags, verb, *out, *n, kel) == 0)
		return 0;
	evsel_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

void evsel_free(struct evsel_event *evs, size_t n)
{
	for (size_t k = 0; evs && k < n; k++)
		resolve_event_free(&evs[k].ev);
	free(evs);
}
