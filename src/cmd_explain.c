/* cmd_explain.c: `pmuprof explain`: its options, then the pipeline: specs -> resolved events ->
 * filter bits and exclude flags (kernel EL) -> register values (threshold terms placed by
 * resolve) and counter kinds -> the programming sequence -> text | JSON. Opens no counter. */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "evspec.h"
#include "explain.h"
#include "sysfs.h"

struct explain_opts {
	const char **specs;
	size_t nspecs;
	const char *cpu_model;
	int json, kernel_el, allow_secure;
};

enum { OPT_KERNEL_EL = 0x100, OPT_ALLOW_SECURE };

static const struct argp_option options[] = {
	{ "event", 'e', "LIST", 0, "Events to explain, comma-separated; repeatable", 0 },
	{ "json", 'j', NULL, 0, "Explain as one JSON document", 0 },
	{ "cpu-model", 'M', "CORE", 0, "Explain for CORE (neoverse-n1, a57, ...) on any host", 0 },
	{ "kernel-el", OPT_KERNEL_EL, "1|2", 0,
	  "The kernel runs at EL1, or at EL2 with VHE (default: detected)", 0 },
	{ "allow-secure", OPT_ALLOW_SECURE, NULL, 0,
	  "Accept filter bits that only change Secure state or EL3 counting: explain what Linux "
	  "counts, with the event marked", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct explain_opts *o = state->input;
	const char **p;

	switch (key) {
	case 'e':
		if (!(p = realloc(o->specs, (o->nspecs + 1) * sizeof(*p))))
			argp_failure(state, PP_EXIT_ERROR, 0, "out of memory");
		o->specs = p;
		o->specs[o->nspecs++] = arg;
		break;
	case 'j':
		o->json = 1;
		break;
	case 'M':
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
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (events go after -e)", arg);
		break;
	case ARGP_KEY_END:
		if (!o->nspecs)
			argp_error(state, "no event given (try 'pmuprof explain -e inst_retired:u')");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp explain_argp = {
	options, parse_opt, NULL,
	"Show what Linux will program into the Arm PMU for events: the perf_event_attr, where "
	"each counter counts, the PMEVTYPER/PMCCFILTR value field by field, the counter it needs, "
	"and the register writes for the whole set. Nothing is counted.",
	NULL, NULL, NULL
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

/* Filter bits of one resolved event (its threshold terms were placed by resolve), then what
 * the driver programs; -1 after a message. */
static int settle(struct resolve_ctx *c, const struct explain_opts *o, struct explain *x,
		  struct explain_event *e)
{
	const struct sysfs_pmu *pmu = pmu_of(c, &e->ev);
	uint64_t cfg[4] = { e->ev.attr.config, e->ev.attr.config1, e->ev.attr.config2, 0 };
	struct filter_excl xl;
	char why[768];
	pp_status st;

	e->filter_given = e->ev.filter.given != 0;
	st = filter_apply(&e->ev.filter, e->ev.mods, x->kel.el,
			  o->allow_secure ? FILTER_ALLOW_SECURE : 0, &e->ev.attr, &e->plan);
	if (st != PP_OK) {
		msg_error("cannot explain event '%s': %s", e->ev.name,
			  filter_apply_why(st, &e->plan, why, sizeof(why)));
		return -1;
	}
	e->marked = e->plan.verdict == FILTER_SECURE;
	e->is_arm = e->ev.arm_code >= 0;
	e->pmu_name = e->is_arm && pmu ? pmu->name : NULL;
	filter_excl_from_attr(&e->ev.attr, &xl);
	e->reg.evt = (uint16_t)(e->is_arm ? e->ev.arm_code : 0);
	e->reg.filter = filter_from_excl(&xl, x->kel.el);
	/* armv8pmu_event_is_64bit: config1 bit 0 (format/long) */
	e->reg.is_long = pmu ? pmreg_format_get(pmu, "long", cfg) != 0 : (cfg[1] & 1);
	if (pmu)
		pmreg_th_extract(pmu, cfg, &e->reg.th, &e->reg.tc);
	e->kind = pmreg_kind_of(&e->reg, &x->pmu);
	return 0;
}

/* Which PMU model the registers follow: the named or detected core, the kernel release. */
static void describe_pmu(struct resolve_ctx *c, struct explain *x)
{
	const struct evtab_core *core = c->model;
	int ver;

	if (!core && resolve_ctx_pmus(c) == PP_OK && c->npmus)
		core = resolve_pmu_core(&c->pmus[0]);
	x->core = core ? core->name : NULL;
	x->arch = core ? core->arch : NULL;
	ver = pmreg_pmuver_for_arch(x->arch);
	x->pmuver_assumed = ver < 0;
	x->pmu.pmuver = ver < 0 ? 1 : ver;
	x->counters_assumed = !core || core->counters <= 0;
	x->pmu.counters = x->counters_assumed ? 6 : core->counters;
	if (sysfs_read_str("/proc/sys/kernel/osrelease", x->release, sizeof(x->release)) != PP_OK)
		x->release[0] = '\0';
	x->pmu.direct = pmreg_direct_for_release(x->release);
	x->pmu.th_max = 0;
	if (resolve_ctx_pmus(c) == PP_OK && c->npmus && c->pmus[0].caps.threshold_max > 0)
		x->pmu.th_max = (uint32_t)c->pmus[0].caps.threshold_max;
}

/* Resolves every spec into x->events; -1 after a message. */
static int resolve_all(struct resolve_ctx *c, const struct explain_opts *o,
		       struct evspec_list *l, struct explain *x)
{
	struct evspec_error pe;
	struct resolve_error re;

	for (size_t k = 0; k < o->nspecs; k++)
		if (evspec_parse(o->specs[k], l, &pe) != PP_OK) {
			msg_error("cannot parse '%s' at column %d: %s", o->specs[k], pe.column,
				  pe.what);
			return -1;
		}
	if (!(x->events = calloc(l->n, sizeof(*x->events))))
		return -1;
	for (size_t k = 0; k < l->n; k++) {
		struct explain_event *e = &x->events[k];

		if (resolve_event_in(c, &l->reqs[k], &e->ev, &re) != PP_OK) {
			msg_error("cannot explain event '%s': %s%s%s%s", l->reqs[k].text, re.what,
				  re.near.n ? " (did you mean '" : "", re.near.n ? re.near.best[0] : "",
				  re.near.n ? "'?)" : "");
			return -1;
		}
		x->n++;
		if (settle(c, o, x, e) != 0)
			return -1;
	}
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
		resolve_event_free(&x->events[k].ev);
	free(x->events);
	free(x->seq_index);
	pmreg_seq_free(&x->seq);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { 0 };
	struct explain x = { 0 };
	struct evspec_list l = { 0 };
	struct resolve_ctx c;
	struct suggest near;
	const char *model;
	int rc = PP_EXIT_ERROR;

	argp_parse(&explain_argp, argc, argv, 0, NULL, &o);
	model = resolve_model_name(o.cpu_model);
	if (resolve_ctx_init(&c, model, &near) != PP_OK) {
		msg_error("unknown CPU model '%s'%s%s%s (see 'pmuprof list --all-cores')", model,
			  near.n ? " (did you mean '" : "", near.n ? near.best[0] : "",
			  near.n ? "'?)" : "");
		free(o.specs);
		return PP_EXIT_ERROR;
	}
	filter_kernel_el_detect(o.kernel_el, c.model ? c.model->name : NULL, &x.kel);
	describe_pmu(&c, &x);
	if (resolve_all(&c, &o, &l, &x) == 0 && program(&x) == 0) {
		if ((o.json ? explain_print_json(&x, stdout) : explain_print_text(&x, stdout)) == 0)
			rc = 0;
		else
			msg_error("cannot write the explanation");
	}
	explain_free(&x);
	evspec_free(&l);
	resolve_ctx_free(&c);
	free(o.specs);
	return rc;
}
