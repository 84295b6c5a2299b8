/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.c: event requests -> perf_event_attr: the order names are tried in (perf's generic
 * names, raw rNNNN, the Arm tables and events/ through resolve_ctx.c, libpfm4), NAME/terms/
 * for a PMU or for an event, and the messages and suggestions when nothing fits. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "msg.h"
#include "pfm.h"
#include "resolve_priv.h"
#include "suggest.h"
#include "sysfs.h"

pp_status resolve_errf(struct resolve_error *err, int column, pp_status st, const char *fmt, ...)
{
	va_list ap;

	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->what, sizeof(err->what), fmt, ap);
	va_end(ap);
	return st;
}

pp_status resolve_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return PP_EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return PP_EINVAL;
	if (errno == ERANGE)
		return PP_ERANGE;
	*out = v;
	return PP_OK;
}

/* rNNNN: a raw event code in hex, for the core PMU (PERF_TYPE_RAW). */
static int is_raw(const char *name)
{
	if (name[0] != 'r' && name[0] != 'R')
		return 0;
	if (!name[1])
		return 0;
	for (const char *p = name + 1; *p; p++)
		if (!strchr("0123456789abcdefABCDEF", *p))
			return 0;
	return 1;
}

pp_status resolve_event_strings(struct pp_event *ev, const char *name, const char *pmu,
				const char *arm)
{
	size_t ln = name ? strlen(name) + 1 : 0, lp = pmu ? strlen(pmu) + 1 : 0,
	       la = arm ? strlen(arm) + 1 : 0;
	char *b = malloc(ln + lp + la + 1);

	if (!b)
		return PP_ENOMEM;
	if (ln)
		memcpy(b, name, ln);
	if (lp)
		memcpy(b + ln, pmu, lp);
	if (la)
		memcpy(b + ln + lp, arm, la);
	free(ev->strs);
	ev->strs = b;
	ev->name = ln ? b : NULL;
	ev->pmu = lp ? b + ln : NULL;
	ev->arm_name = la ? b + ln + lp : NULL;
	return PP_OK;
}

/* The PMU it resolved against: the name is a literal, the context's or the request's (never
 * a PMU of the caller's frame), copied with the event's other strings when it has resolved
 * (keep_strings). */
static pp_status set_pmu(struct pp_event *ev, const char *name)
{
	ev->pmu = (char *)name;
	return PP_OK;
}

/* A block of the context's pool of strings (struct resolve_ctx.strings). */
struct resolve_pool {
	struct resolve_pool *next;
	size_t used, size;
	char buf[];
};

/* Copies s (NULL: none) into c's pool; NULL when out of memory (*ok cleared). */
static char *pool_copy(struct resolve_ctx *c, const char *s, int *ok)
{
	size_t len;
	struct resolve_pool *b = c->strings;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	if (!b || b->size - b->used < len) {
		/* 256 bytes first (a few events' strings), twice the last after */
		size_t size = b ? 2 * b->size : 256;

		if (size < len)
			size = len;
		if (!(b = malloc(sizeof(*b) + size))) {
			*ok = 0;
			return NULL;
		}
		b->next = c->strings;
		b->used = 0;
		b->size = size;
		c->strings = b;
	}
	memcpy(b->buf + b->used, s, len);
	b->used += len;
	return b->buf + b->used - len;
}

/* The resolved event's strings, borrowed while it resolved (the request's text, a PMU's or a
 * table's name), copied into c's pool. */
static pp_status keep_strings(struct resolve_ctx *c, struct pp_event *ev)
{
	const char *name = ev->name;
	int ok = 1;

	/* one copy of what events share: the PMU's name (a run's events are mostly on one),
	 * and an Arm name written without modifiers (the request's text itself) */
	ev->name = pool_copy(c, ev->name, &ok);
	if (ev->pmu && c->pmu_copy && !strcmp(ev->pmu, c->pmu_copy))
		ev->pmu = (char *)c->pmu_copy;
	else if (ev->pmu)
		c->pmu_copy = ev->pmu = pool_copy(c, ev->pmu, &ok);
	if (ev->arm_name && ev->name && !strcmp(ev->arm_name, name))
		ev->arm_name = ev->name;
	else
		ev->arm_name = pool_copy(c, ev->arm_name, &ok);
	return ok ? PP_OK : PP_ENOMEM;
}

const char *resolve_keep(struct resolve_ctx *c, const char *s)
{
	int ok = 1;

	return pool_copy(c, s, &ok);
}

void resolve_pool_free(struct resolve_ctx *c)
{
	while (c->strings) {
		struct resolve_pool *next = c->strings->next;

		free(c->strings);
		c->strings = next;
	}
	c->pmu_copy = NULL;
}

static pp_status resolve_raw(const char *name, int column, struct pp_event *ev,
			     struct resolve_error *err)
{
	const char *hex = name + 1;
	char buf[24], nb[QUOTE];
	uint64_t code;

	while (*hex == '0' && hex[1])
		hex++;
	if (strlen(hex) > 16)
		return resolve_errf(err, column, PP_ERANGE, "raw code '%s' is wider than 64 bits",
			    msg_clip(name, nb, sizeof(nb)));
	snprintf(buf, sizeof(buf), "0x%s", hex);
	ev->attr.type = PERF_TYPE_RAW;
	if (resolve_parse_u64(buf, &code) != PP_OK)
		return resolve_errf(err, column, PP_EINVAL, "raw code '%s' is not hex",
			    msg_clip(name, nb, sizeof(nb)));
	ev->attr.config = code;
	ev->split = RESOLVE_SPLIT_CODE;
	return set_pmu(ev, "raw");
}

static void offer_cb(const char *name, uint32_t type, uint64_t config, void *arg)
{
	(void)type;
	(void)config;
	suggest_offer(arg, name);
}

/* An Arm name found by resolve_arm_find: its PMU's type (PERF_TYPE_RAW when --cpu-model
 * named a core and the machine has no Arm PMU: stat's plan then never opens it), the code
 * through format/event. */
static pp_status use_arm_hit(const struct arm_hit *h, struct pp_event *ev)
{
	uint64_t cfg[4] = { 0 };
	long code = h->ev ? (long)evtab_event_code(h->ev) : resolve_sysfs_event_code(h->sev);

	ev->core = h->core;
	ev->arm_code = (int)code;
	ev->attr.type = h->pmu ? (uint32_t)h->pmu->type : PERF_TYPE_RAW;
	if (h->ev ? resolve_place_code(h->pmu, evtab_event_code(h->ev), cfg) != PP_OK
		  : resolve_apply_term_string(h->pmu, h->sev->terms, cfg) != PP_OK)
		return PP_EINVAL;
	ev->attr.config = cfg[0];
	ev->attr.config1 = cfg[1];
	ev->attr.config2 = cfg[2];
	return set_pmu(ev, h->pmu ? h->pmu->name : "raw");
}

/* libpfm4, loaded on the first name nothing else knows. PP_ENOENT: not a libpfm4 name either;
 * PP_ENOTSUP: no libpfm4 (c->pfm_why says why). */
static pp_status try_pfm(struct resolve_ctx *c, const char *name, struct pp_event *ev,
			 struct resolve_error *err, int column)
{
	char why[128];
	pp_status st;

	if (!c->pfm_tried) {
		c->pfm_tried = 1;
		c->pfm_status = pfm_open(&c->pfm, c->pfm_why, sizeof(c->pfm_why));
	}
	if (c->pfm_status != PP_OK)
		return PP_ENOTSUP;
	st = pfm_encode(c->pfm, name, &ev->attr, NULL, why, sizeof(why));
	if (st == PP_EINVAL)
		return resolve_errf(err, column, st, "libpfm4 refuses it: %s", why);
	if (st != PP_OK)
		return st;
	return set_pmu(ev, "libpfm4");
}

/* A plain name: raw, generic, Arm (tables and events/), libpfm4, in that order; *pmu gets
 * the sysfs PMU it resolved against (NULL for the others). On PP_ENOENT err says why and
 * near holds the closest names. */
static pp_status resolve_name(struct resolve_ctx *c, const char *name, int column,
			      struct pp_event *ev, const struct sysfs_pmu **pmu,
			      struct resolve_error *err)
{
	struct arm_hit hit;
	pp_status st;

	*pmu = NULL;
	/* raw codes first: they cost one scan of the name and are the commonest in scripts */
	if (is_raw(name))
		return resolve_raw(name, column, ev, err);
	if (resolve_tool(name, strlen(name))) {	/* measured, never opened: perf's encoding */
		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = PERF_COUNT_SW_DUMMY;
		ev->unit = "ns";
		return set_pmu(ev, "tool");
	}
	if (resolve_generic(name, &ev->attr, &ev->unit) == PP_OK) {
		ev->arm_code = resolve_generic_arm_code(ev->attr.type, ev->attr.config);
		if (ev->arm_code >= 0)
			ev->split = RESOLVE_SPLIT_CODE;
		return set_pmu(ev, ev->attr.type == PERF_TYPE_SOFTWARE ? "software" : "cpu");
	}
	if (resolve_arm_find(c, name, &hit) == PP_OK) {
		*pmu = hit.pmu;
		ev->split = RESOLVE_SPLIT_NAME;
		ev->arm_name = (char *)name;	/* copied once resolved (keep_strings) */
		if ((st = use_arm_hit(&hit, ev)) == PP_EINVAL)
			return resolve_errf(err, column, st, "PMU '%s' cannot encode event '%s'",
				    hit.pmu->name, name);
		return st;
	}
	st = try_pfm(c, name, ev, err, column);
	if (st != PP_ENOENT && st != PP_ENOTSUP)
		return st;
	suggest_init(&err->near, name);
	resolve_generic_names(offer_cb, &err->near);
	resolve_arm_offer(c, &err->near);
	if (st == PP_ENOTSUP)
		return resolve_errf(err, column, PP_ENOENT,
			    "no such event (libpfm4, which knows more names, is not available: %s)",
			    c->pfm_why);
	return resolve_errf(err, column, PP_ENOENT, "no such event");
}

/* Whether a directory under /sys/bus/event_source/devices could have this name. */
static int pmu_name_possible(const char *name)
{
	return strlen(name) < SYSFS_NAME_MAX && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* The PMU a PMU/terms/ spec names: one of the machine's Arm PMUs when it is one (read once a
 * run, from the per-boot cache: a dozen sysfs files a spec otherwise), else loaded into
 * *own. */
static pp_status named_pmu(struct resolve_ctx *c, const char *name, struct sysfs_pmu *own,
			   const struct sysfs_pmu **out)
{
	memset(own, 0, sizeof(*own));
	*out = own;
	if (resolve_ctx_pmus(c) == PP_OK)
		for (size_t k = 0; k < c->npmus; k++)
			if (strcmp(c->pmus[k].name, name) == 0) {
				*out = &c->pmus[k];
				return PP_OK;
			}
	return sysfs_pmu_load(name, own);
}

/* PMU/terms/, or EVENT/terms/ when no PMU has that name (inst_retired/p=1,nsh=1/). */
static pp_status resolve_slashed(struct resolve_ctx *c, const struct evspec_req *req,
				 struct pp_event *ev, struct resolve_error *err)
{
	struct sysfs_pmu own;
	const struct sysfs_pmu *pmu, *np;
	struct pmreg_th_req th = { 0 };	/* the threshold terms, placed once all are read */
	char pb[QUOTE];
	pp_status st = named_pmu(c, req->pmu, &own, &np);

	if (st == PP_OK) {
		ev->attr.type = (uint32_t)np->type;
		ev->core = np->is_arm ? resolve_pmu_core(np) : NULL;
		if ((st = resolve_apply_terms(np, req, ev, &th, err)) == PP_OK)
			st = resolve_apply_threshold(np, req->column, ev, &th, err);
		if (st == PP_OK)	/* the request's own copy of np's name: np may be own */
			st = set_pmu(ev, req->pmu);
		if (st == PP_OK && np->is_arm && ev->attr.config < 0x10000)
			ev->arm_code = (int)ev->attr.config;
		sysfs_pmu_free(&own);
		return st;
	}
	/* PP_EINVAL is both "no PMU can have that name" and "that PMU's files are malformed":
	 * only a name a PMU directory can have is the second */
	if (st != PP_ENOENT && (st != PP_EINVAL || pmu_name_possible(req->pmu)))
		return resolve_errf(err, req->column, st, "cannot read PMU '%s': %s in its sysfs files",
			    req->pmu, pp_strstatus(st));
	st = resolve_name(c, req->pmu, req->column, ev, &pmu, err);
	if (st == PP_ENOENT)
		return resolve_errf(err, req->column, st, "no PMU or event '%s'",
			    msg_clip(req->pmu, pb, sizeof(pb)));
	if (st == PP_OK)
		st = resolve_apply_terms(pmu, req, ev, &th, err);
	/* a generic name counting a PMUv3 event belongs to the first Arm PMU */
	if (st == PP_OK && !pmu && ev->arm_code >= 0 && resolve_ctx_pmus(c) == PP_OK && c->npmus)
		pmu = &c->pmus[0];
	return st == PP_OK ? resolve_apply_threshold(pmu, req->column, ev, &th, err) : st;
}

/* perf's modifier letters -> exclude_* flags, through the filter module's reading of them
 * (filter_excl_from_mods, tools/perf/util/parse-events.c semantics): u/k/h replace the level
 * flags only when one is given, H and G add their exclusion; D pins. */
static void apply_mods(unsigned mods, struct pp_attr *a)
{
	struct filter_excl x;

	filter_excl_from_mods(mods, &x);
	if (mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H)) {
		a->exclude_user = x.user;
		a->exclude_kernel = x.kernel;
		a->exclude_hv = x.hv;
	}
	a->exclude_guest |= x.guest;
	a->exclude_host |= x.host;
	if (mods & EVSPEC_MOD_PINNED)
		a->pinned = 1;
}

pp_status resolve_event_in(struct resolve_ctx *c, const struct evspec_req *req,
			   struct pp_event *ev, struct resolve_error *err)
{
	const struct sysfs_pmu *pmu;
	pp_status st;

	memset(ev, 0, sizeof(*ev));
	/* what a refusal reads, not the whole (its names' room is some 700 bytes) */
	err->column = 0;
	err->what[0] = '\0';
	err->near.word = NULL;
	err->near.n = 0;
	ev->group = req->group;
	ev->mods = req->mods;
	ev->column = req->column;
	ev->unit = "";
	ev->arm_code = -1;
	/* borrowed while it resolves, like the PMU's name and the Arm name; copied into the
	 * context's pool once it has resolved (keep_strings) */
	ev->name = req->text;
	if (req->pmu)
		st = resolve_slashed(c, req, ev, err);
	else
		st = resolve_name(c, req->name, req->column, ev, &pmu, err);
	if (st == PP_OK)
		st = keep_strings(c, ev);
	if (st == PP_OK)	/* the modifiers: the suffix's and any written as terms */
		apply_mods(ev->mods, &ev->attr);
	else
		resolve_event_free(ev);
	return st;
}

pp_status resolve_event(const struct evspec_req *req, struct pp_event *ev,
			struct resolve_error *err)
{
	struct resolve_ctx c;
	pp_status st;

	if (resolve_ctx_init(&c, resolve_model_name(NULL), &err->near) != PP_OK) {
		memset(ev, 0, sizeof(*ev));
		return resolve_errf(err, req->column, PP_EINVAL, "unknown CPU model '%s' in "
			    "PMUPROF_CPU_MODEL", resolve_model_name(NULL));
	}
	st = resolve_event_in(&c, req, ev, err);
	/* the event's own copy, before the context and its pool go */
	if (st == PP_OK)
		st = resolve_event_strings(ev, ev->name, ev->pmu, ev->arm_name);
	if (st != PP_OK)
		resolve_event_free(ev);
	resolve_ctx_free(&c);
	return st;
}

void resolve_event_free(struct pp_event *ev)
{
	if (ev->strs)	/* a run's events have their strings in the context's pool */
		free(ev->strs);
	ev->name = ev->pmu = ev->arm_name = ev->strs = NULL;
}

pp_status resolve_on_pmu(const struct pp_event *ev, const struct sysfs_pmu *p,
			 struct pp_attr *out)
{
	uint64_t cfg[4] = { 0, ev->attr.config1, ev->attr.config2, 0 };
	const struct evtab_event *te = NULL;
	const struct sysfs_event *se = NULL;
	pp_status st;

	*out = ev->attr;
	out->type = (uint32_t)p->type;
	switch (ev->split) {
	case RESOLVE_SPLIT_CODE:
		if (ev->attr.type == PERF_TYPE_RAW)
			return PP_OK;		/* rNNNN: the config as written */
		st = resolve_place_code(p, (unsigned)ev->arm_code, cfg);
		break;
	case RESOLVE_SPLIT_NAME:
		if (!(te = evtab_find_name(resolve_pmu_core(p), ev->arm_name)) &&
		    !(se = sysfs_event_find(p, ev->arm_name)))
			return PP_ENOENT;
		st = te ? resolve_place_code(p, evtab_event_code(te), cfg)
			: resolve_apply_term_string(p, se->terms, cfg);
		/* the bits of config the event field does not hold (none on today's kernels) */
		cfg[0] |= ev->attr.config & ~(uint64_t)0xffff;
		break;
	default:
		return PP_EINVAL;
	}
	out->config = cfg[0];
	out->config1 = cfg[1];
	out->config2 = cfg[2];
	return st;
}
