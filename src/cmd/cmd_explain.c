/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_explain.c: `pmuprof explain`: its options, then the pipeline: specs -> resolved events ->
 * filter bits and exclude flags (kernel EL) -> register values (threshold terms placed by
 * resolve) and counter kinds -> the programming sequence -> text | JSON. Opens no counter. */
#include <argp.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "argp_hint.h"
#include "cmd.h"
#include "evsel.h"
#include "explain.h"
#include "sysfs.h"

struct explain_opts {
	struct evsel_opts ev;	/* -e, --cpu-model, --kernel-el, --allow-secure */
	int json;
};

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Explain as one JSON document", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct explain_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->ev;
		break;
	case 'j':
		o->json = 1;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (events go after -e)", arg);
		break;
	case ARGP_KEY_END:
		if (!o->ev.nspecs)
			argp_error(state, "no event given (try 'pmuprof explain -e inst_retired:u')");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child children[] = { { &evsel_argp_long, 0, NULL, 0 }, { 0 } };

static const struct argp explain_argp = {
	options, parse_opt, NULL,
	"Show what Linux will program into the Arm PMU for events: the perf_event_attr, where "
	"each counter counts, the PMEVTYPER/PMCCFILTR value field by field, the counter it needs, "
	"and the register writes for the whole set. Nothing is counted.",
	children, NULL, NULL
};

/* The sysfs PMU an event's registers live in: its own, else the first Arm PMU. */
static const struct sysfs_pmu *pmu_of(struct resolve_ctx *c, const struct pp_event *ev)
{
	if (resolve_ctx_pmus(c) != PP_OK)
		return NULL;
	for (size_t k = 0; k < c->npmus; k++)
		if (strcmp(c->pmus[k].name, ev->pmu) == 0)
			return &c->pmus[k];
	return c->npmus ? &c->pmus[0] : NULL;
}

/* What the driver programs for one selected event (filter bits settled by evsel_select,
 * threshold terms placed by resolve). */
static void describe_event(struct resolve_ctx *c, struct explain *x, struct explain_event *e)
{
	const struct pp_event *ev = &e->sel.ev;
	const struct sysfs_pmu *pmu = pmu_of(c, ev);
	uint64_t cfg[4] = { ev->attr.config, ev->attr.config1, ev->attr.config2, 0 };
	struct filter_excl xl;

	e->filter_given = ev->filter.given != 0;
	e->marked = e->sel.plan.verdict == FILTER_SECURE;
	e->is_arm = ev->arm_code >= 0;
	e->pmu_name = e->is_arm && pmu ? pmu->name : NULL;
	filter_excl_from_attr(&ev->attr, &xl);
	e->reg.evt = (uint16_t)(e->is_arm ? ev->arm_code : 0);
	e->reg.filter = filter_from_excl(&xl, x->kel.el);
	/* armv8pmu_event_is_64bit: config1 bit 0 (format/long) */
	e->reg.is_long = pmu ? pmreg_format_get(pmu, "long", cfg) != 0 : (cfg[1] & 1);
	if (pmu)
		pmreg_th_extract(pmu, cfg, &e->reg.th, &e->reg.tc);
	e->kind = pmreg_kind_of(&e->reg, &x->pmu);
}

/* Which PMU model the registers follow: the named or detected core, the kernel release. */
static void describe_pmu(struct resolve_ctx *c, struct explain *x)
{
	const struct evtab_core *core = c->model;
	const struct sysfs_pmu *pmu;
	struct capacity k;
	int ver;

	if (!core && resolve_ctx_pmus(c) == PP_OK && c->npmus)
		core = resolve_pmu_core(&c->pmus[0]);
	x->core = core ? evtab_core_name(core) : NULL;
	x->arch = core ? evtab_core_arch(core) : NULL;
	ver = pmreg_pmuver_for_arch(x->arch);
	x->pmuver_assumed = ver < 0;
	x->pmu.pmuver = ver < 0 ? 1 : ver;
	x->counters_assumed = !core || evtab_core_counters(core) <= 0;
	x->pmu.counters = x->counters_assumed ? 6 : evtab_core_counters(core);
	x->counters_source = x->counters_assumed ? "assumed" : "arm-data";
	/* the counters this machine's PMU for the core really has free (probed, or this
	 * boot's cached probe) before Arm's PMCR_EL0.N for the core */
	if (!c->model)
		pmu = resolve_ctx_pmus(c) == PP_OK && c->npmus ? &c->pmus[0] : NULL;
	else
		pmu = resolve_arm_pmu_of(c, c->model);
	if (pmu) {
		probe_get(pmu, &k);
		if (k.general > 0) {
			x->pmu.counters = k.general;
			x->counters_assumed = 0;
			x->counters_source = k.source;
		}
	}
	if (sysfs_read_str("/proc/sys/kernel/osrelease", x->release, sizeof(x->release)) != PP_OK)
		x->release[0] = '\0';
	x->pmu.direct = pmreg_direct_for_release(x->release);
	x->pmu.th_max = 0;
	if (resolve_ctx_pmus(c) == PP_OK && c->npmus && sysfs_pmu_caps(&c->pmus[0])->threshold_max > 0)
		x->pmu.th_max = (uint32_t)sysfs_pmu_caps(&c->pmus[0])->threshold_max;
}

/* Selects every event (kernel EL decided) into x->events; -1 after a message. */
static int select_all(struct resolve_ctx *c, const struct explain_opts *o, struct explain *x)
{
	struct evsel_event *sel;
	size_t n;

	if (evsel_select(&o->ev, c, EVSEL_ALWAYS_EL, "explain", &sel, &n, &x->kel) != 0)
		return -1;
	if (!(x->events = calloc(n + 1, sizeof(*x->events)))) {
		evsel_free(sel, n);
		msg_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < n; k++) {	/* the names move to x with the events */
		x->events[k].sel = sel[k];
		describe_event(c, x, &x->events[k]);
	}
	free(sel);
	x->n = n;
	return 0;
}

/* The programming sequence over the Arm events, in the order given. */
static int program(struct explain *x)
{
	struct pmreg_event *regs = calloc(x->n + 1, sizeof(*regs));
	size_t m = 0;
	pp_status st;

	x->seq_index = calloc(x->n + 1, sizeof(*x->seq_index));
	if (!regs || !x->seq_index) {
		free(regs);
		return -1;
	}
	for (size_t k = 0; k < x->n; k++)
		if (x->events[k].is_arm) {
			x->seq_index[m] = k;
			regs[m++] = x->events[k].reg;
		}
	x->nseq = m;
	st = pmreg_program(regs, m, &x->pmu, &x->seq);
	free(regs);
	return st == PP_OK ? 0 : -1;
}

static void explain_free(struct explain *x)
{
	for (size_t k = 0; k < x->n; k++)
		resolve_event_free(&x->events[k].sel.ev);
	free(x->events);
	free(x->seq_index);
	pmreg_seq_free(&x->seq);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { 0 };
	struct explain x = { 0 };
	struct resolve_ctx c;
	int rc = PP_EXIT_ERROR;

	argp_hint_parse(&explain_argp, argc, argv, 0, &o);
	if (evsel_ctx_init(&o.ev, &c) != 0) {
		evsel_opts_free(&o.ev);
		return PP_EXIT_ERROR;
	}
	describe_pmu(&c, &x);
	if (select_all(&c, &o, &x) == 0 && program(&x) == 0) {
		errno = 0;
		if ((o.json ? explain_print_json(&x, stdout) : explain_print_text(&x, stdout)) == 0 &&
		    fflush(stdout) == 0)
			rc = 0;
		else	/* the stream's failed write left its errno */
			msg_error("cannot write the explanation: %s", strerror(errno ? errno : EIO));
	}
	explain_free(&x);
	resolve_ctx_free(&c);
	evsel_opts_free(&o.ev);
	return rc;
}
