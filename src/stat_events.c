/* stat_events.c: stat's events: the -e specs parsed and resolved (with their messages), then
 * their PMEVTYPER filter-bit terms turned into exclude flags with the kernel's EL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "evspec.h"
#include "stat_priv.h"

static void report_spec_error(const char *spec, const struct evspec_error *e)
{
	msg_error("cannot parse event list '%s': %s at column %d", spec, e->what, e->column);
}

static void report_resolve_error(const char *spec, const struct evspec_req *req,
				 const struct resolve_error *e)
{
	char hint[3 * SUGGEST_LEN + 40] = "";
	int n = 0;

	for (int k = 0; k < e->near.n; k++)
		n += snprintf(hint + n, sizeof(hint) - (size_t)n, "%s'%s'",
			      k == 0 ? " (did you mean " : k == e->near.n - 1 ? " or " : ", ",
			      e->near.best[k]);
	if (e->near.n)
		snprintf(hint + n, sizeof(hint) - (size_t)n, "?)");
	else if (!req->pmu)
		snprintf(hint, sizeof(hint), " (see 'pmuprof list')");
	msg_error("cannot use event '%s' (column %d of '%s'): %s%s", req->text, e->column, spec,
		  e->what, hint);
}

/* --cpu-model / $PMUPROF_CPU_MODEL -> a resolution context; a message when unknown. */
static int start_ctx(const struct stat_opts *o, struct resolve_ctx *ctx)
{
	const char *model = resolve_model_name(o->cpu_model);
	struct suggest near;

	if (resolve_ctx_init(ctx, model, &near) == PP_OK)
		return 0;
	msg_error("unknown CPU model '%s'%s%s%s (see 'pmuprof list --all-cores')", model,
		  near.n ? " (did you mean '" : "", near.n ? near.best[0] : "", near.n ? "'?)" : "");
	return -1;
}

/* Specs -> resolved events; stops at the first bad one, with its message. */
static int resolve_all(const struct stat_opts *o, struct stat_event **out, size_t *nout)
{
	struct resolve_ctx ctx;
	struct evspec_list list = { 0 };
	struct stat_event *evs = NULL;
	size_t *first = calloc(o->nspecs + 1, sizeof(*first));	/* first request of each spec */
	size_t done = 0, spec = 0;
	int rc = -1;

	if (start_ctx(o, &ctx) != 0) {
		free(first);
		return -1;
	}
	if (!first)
		goto oom;
	for (size_t s = 0; s < o->nspecs; s++) {
		struct evspec_error perr;
		pp_status st = evspec_parse(o->specs[s], &list, &perr);

		if (st == PP_ENOMEM)
			goto oom;
		if (st != PP_OK) {
			report_spec_error(o->specs[s], &perr);
			goto out;
		}
		first[s + 1] = list.n;
	}
	if (!(evs = calloc(list.n, sizeof(*evs))))
		goto oom;
	for (; done < list.n; done++) {
		struct resolve_error rerr;
		pp_status st;

		while (done >= first[spec + 1])
			spec++;
		st = resolve_event_in(&ctx, &list.reqs[done], &evs[done].ev, &rerr);
		if (st == PP_ENOMEM)
			goto oom;
		if (st != PP_OK) {
			report_resolve_error(o->specs[spec], &list.reqs[done], &rerr);
			goto out;
		}
		evs[done].fd = -1;
	}
	*out = evs;
	*nout = done;
	evs = NULL;
	rc = 0;
	goto out;
oom:
	msg_error("out of memory");
out:
	for (size_t k = 0; evs && k < done; k++)
		resolve_event_free(&evs[k].ev);
	free(evs);
	free(first);
	evspec_free(&list);
	resolve_ctx_free(&ctx);
	return rc;
}

/* The filter-bit terms of each event into its exclude flags (filter_apply). The kernel's EL
 * is decided once, and only when a term or --kernel-el asks for it: detecting reads /proc
 * and sysfs, which the common path must not pay for. kel->el stays 0 when not decided.
 * -1 after a message. */
static int settle_filters(const struct stat_opts *o, struct stat_event *evs, size_t n,
			  struct filter_kernel_el *kel)
{
	int need = o->kernel_el != 0;
	char why[768];

	kel->el = 0;
	kel->why = NULL;
	for (size_t k = 0; k < n; k++)
		need |= evs[k].ev.filter.given != 0;
	if (!need)
		return 0;
	filter_kernel_el_detect(o->kernel_el, resolve_model_name(o->cpu_model), kel);
	for (size_t k = 0; k < n; k++) {
		struct stat_event *e = &evs[k];
		pp_status st;

		if (!e->ev.filter.given)
			continue;
		st = filter_apply(&e->ev.filter, e->ev.mods, kel->el,
				  o->allow_secure ? FILTER_ALLOW_SECURE : 0, &e->ev.attr, &e->plan);
		if (st != PP_OK) {
			msg_error("cannot count event '%s': %s", e->ev.name,
				  filter_apply_why(st, &e->plan, why, sizeof(why)));
			return -1;
		}
		filter_bits_str(e->plan.req_bits, e->terms, sizeof(e->terms));
	}
	return 0;
}

void stat_events_free(struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (evs[k].fd >= 0)
			close(evs[k].fd);
		resolve_event_free(&evs[k].ev);
	}
	free(evs);
}

int stat_events_resolve(const struct stat_opts *o, struct stat_event **out, size_t *nout,
			struct filter_kernel_el *kel)
{
	if (resolve_all(o, out, nout) != 0)
		return -1;
	if (settle_filters(o, *out, *nout, kel) == 0)
		return 0;
	stat_events_free(*out, *nout);
	*out = NULL;
	*nout = 0;
	return -1;
}
