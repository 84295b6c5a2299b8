/* SPDX-License-Identifier: Apache-2.0 */
/* resolve_terms.c: the terms of NAME/terms/ and PMU/terms/ applied to an event's attr: format
 * terms through the PMU's format/, PMEVTYPER filter bits, modifiers, threshold terms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "msg.h"
#include "filter.h"
#include "resolve_priv.h"
#include "suggest.h"
#include "sysfs.h"

/* Applies "event=0x11,umask=2"-style terms (from an events/ file) through format/. */
pp_status resolve_apply_term_string(const struct sysfs_pmu *pmu, const char *terms,
				    uint64_t cfg[4])
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		const struct sysfs_format *f;

		if (eq) {
			*eq = '\0';
			if (resolve_parse_u64(eq + 1, &v) != PP_OK)
				return PP_EINVAL;
		}
		if (!(f = sysfs_format_find(pmu, t)) || sysfs_format_apply(f, v, cfg) != PP_OK)
			return PP_EINVAL;
	}
	return PP_OK;
}

/* A PMUv3 event number into config through the PMU's "event" format term (config:0-15 on
 * every kernel, but read, not assumed); config itself when there is no PMU or no term. */
pp_status resolve_place_code(const struct sysfs_pmu *pmu, unsigned code, uint64_t cfg[4])
{
	const struct sysfs_format *f = NULL;

	/* the kernel spells it "event": the case-blind search only when none is spelled so */
	for (size_t i = 0; pmu && !f && i < pmu->nformats; i++)
		if (!memcmp(pmu->formats[i].name, "event", sizeof("event")))
			f = &pmu->formats[i];
	if (pmu && !f)
		f = sysfs_format_find(pmu, "event");

	if (!f) {
		cfg[0] = code;
		return PP_OK;
	}
	return sysfs_format_apply(f, code, cfg);
}

/* The PMEVTYPER filter terms (p, u, nsk, nsu, nsh, m, sh) belong to the filter module
 * (include/filter.h). PP_ENOENT: not a filter term. */
static pp_status filter_hook(const struct evspec_term *t, struct pp_event *ev)
{
	return filter_term(t->key, t->value, &ev->filter);
}

/* One term of PMU/terms/ or EVENT/terms/: a format term of the PMU, a filter bit, a raw
 * config field, or (PMU/terms/ only, bare) an event of the PMU's events/ or core table. */
/* perf's modifiers written as terms (armv8_pmuv3/event=0x8,user/ is :u): words, because
 * single letters inside the slashes are the PMEVTYPER filter bits (u=1 sets PMEVTYPER.U). */
static const struct {
	const char *word;
	unsigned mod;
} mod_terms[] = {
	{ "user", EVSPEC_MOD_U },	{ "kernel", EVSPEC_MOD_K },
	{ "hv", EVSPEC_MOD_H },		{ "host", EVSPEC_MOD_HOST },
	{ "guest", EVSPEC_MOD_GUEST },	{ "pinned", EVSPEC_MOD_PINNED },
};

/* A modifier term: its bit into ev->mods. PP_ENOENT when key is no modifier word. */
static pp_status mod_term(const struct evspec_term *t, struct pp_event *ev)
{
	for (size_t k = 0; k < sizeof(mod_terms) / sizeof(mod_terms[0]); k++)
		if (ascii_strcasecmp(t->key, mod_terms[k].word) == 0) {
			if (t->value && strcmp(t->value, "1") != 0)
				return PP_EINVAL;
			ev->mods |= mod_terms[k].mod;
			return PP_OK;
		}
	return PP_ENOENT;
}

static pp_status apply_term(const struct sysfs_pmu *pmu, const struct evspec_term *t,
			    uint64_t cfg[4], struct pp_event *ev, struct pmreg_th_req *th,
			    struct resolve_error *err)
{
	char kb[QUOTE], vb[QUOTE];
	const char *K = msg_clip(t->key, kb, sizeof(kb));
	const char *V = t->value ? msg_clip(t->value, vb, sizeof(vb)) : NULL;
	static const char *const raw_fields[] = { "config", "config1", "config2" };
	const struct sysfs_format *f;
	const struct sysfs_event *e;
	const struct evtab_event *te;
	const char *owner = pmu ? pmu->name : ev->name;
	uint64_t v = 1;
	pp_status st;

	/* threshold terms are collected before format/ could place them blindly: they are
	 * validated against caps/threshold_max (apply_threshold). A non-Arm PMU keeps its own
	 * format terms of that name. */
	if ((!pmu || pmu->is_arm) && (st = pmreg_th_term(t->key, t->value, th)) != PP_ENOENT)
		return st == PP_OK ? PP_OK : resolve_errf(err, t->column, st,
			"bad threshold term '%s%s%s' (threshold=N, threshold_compare=eq|ne|ge|lt, "
			"threshold_count[=0|1])", K, V ? "=" : "", V ? V : "");
	if (pmu && (f = sysfs_format_find(pmu, t->key))) {
		if (t->value && (st = resolve_parse_u64(t->value, &v)) != PP_OK)
			goto bad_value;
		if (sysfs_format_apply(f, v, cfg) != PP_OK)
			return resolve_errf(err, t->column, PP_ERANGE,
				    "value '%s' does not fit term '%s' of PMU '%s'",
				    V ? V : "1", K, pmu->name);
		return PP_OK;
	}
	if ((st = mod_term(t, ev)) != PP_ENOENT)
		return st == PP_OK ? PP_OK : resolve_errf(err, t->column, st,
			"modifier term '%s' takes no value (or 1), not '%s'", K, V);
	if ((st = filter_hook(t, ev)) != PP_ENOENT)
		return st == PP_OK ? PP_OK : resolve_errf(err, t->column, st,
			"filter term '%s' takes 0 or 1, not '%s'", K, V);
	if (t->value && (st = resolve_parse_u64(t->value, &v)) != PP_OK)
		goto bad_value;
	for (int k = 0; k < 3; k++)
		if (ascii_strcasecmp(t->key, raw_fields[k]) == 0) {
			if (!t->value)
				return resolve_errf(err, t->column, PP_EINVAL, "term '%s' needs a value",
					    K);
			cfg[k] = v;
			return PP_OK;
		}
	if (pmu && ev->arm_code < 0 && !t->value && (e = sysfs_event_find(pmu, t->key))) {
		if (resolve_apply_term_string(pmu, e->terms, cfg) != PP_OK)
			return resolve_errf(err, t->column, PP_EINVAL,
				    "PMU '%s' describes event '%s' as '%s', which pmuprof cannot apply",
				    pmu->name, K, e->terms);
		return PP_OK;
	}
	if (pmu && ev->arm_code < 0 && !t->value &&
	    (te = evtab_find_name(resolve_pmu_core(pmu), t->key)))
		return resolve_place_code(pmu, evtab_event_code(te), cfg);
	if (pmu && pmu->format_err != PP_OK)	/* the term may be the one that did not read */
		return resolve_errf(err, t->column, pmu->format_err, "unknown term '%s' for PMU "
			    "'%s': its format/ cannot be read (%s)", K, owner,
			    pp_strstatus(pmu->format_err));
	return resolve_errf(err, t->column, PP_ENOENT, "unknown term '%s' for %s '%s'", K,
		    pmu ? "PMU" : "event", owner);
bad_value:
	return resolve_errf(err, t->column, st, st == PP_ERANGE
		    ? "value '%s' of term '%s' is wider than 64 bits"
		    : "value '%s' of term '%s' is not a number", V, K);
}

static void offer_format(const struct sysfs_pmu *pmu, struct suggest *s)
{
	if (!pmu)
		return;
	for (size_t k = 0; k < sysfs_format_listed(pmu); k++)
		suggest_offer(s, pmu->formats[k].name);
	for (size_t k = 0; k < sysfs_event_listed(pmu); k++)
		suggest_offer(s, sysfs_event_name(pmu, k));
}

/* Applies every term of req on top of ev's attr (config fields start from what the name
 * gave); on an unknown term, near holds the PMU's terms and events. */
pp_status resolve_apply_terms(const struct sysfs_pmu *pmu, const struct evspec_req *req,
			      struct pp_event *ev, struct pmreg_th_req *th,
			      struct resolve_error *err)
{
	uint64_t cfg[4] = { ev->attr.config, ev->attr.config1, ev->attr.config2, 0 };
	pp_status st = PP_OK;

	for (int k = 0; k < req->nterms && st == PP_OK; k++) {
		st = apply_term(pmu, &req->terms[k], cfg, ev, th, err);
		if (st == PP_ENOENT) {
			suggest_init(&err->near, req->terms[k].key);
			offer_format(pmu, &err->near);
		}
	}
	ev->attr.config = cfg[0];
	ev->attr.config1 = cfg[1];
	ev->attr.config2 = cfg[2];
	return st;
}

/* Threshold terms (FEAT_PMUv3_TH) into config through pmu's format/, validated against its
 * caps/threshold_max; pmu is the event's Arm PMU (NULL: none, which is an error when terms
 * were given). */
pp_status resolve_apply_threshold(const struct sysfs_pmu *pmu, int column, struct pp_event *ev,
				  const struct pmreg_th_req *th, struct resolve_error *err)
{
	uint64_t cfg[4] = { ev->attr.config, ev->attr.config1, ev->attr.config2, 0 };
	char why[sizeof(err->what)];
	pp_status st;

	if (!th->given)
		return PP_OK;
	if (!pmu || !pmu->is_arm)
		return resolve_errf(err, column, PP_ENOTSUP, "threshold terms need an event of an Arm "
			    "PMU, and this machine shows none for '%s' (point PMUPROF_SYSFS_ROOT at "
			    "one, or use the PMU's own name)", ev->name);
	if ((st = pmreg_th_apply(pmu, th, cfg, why, sizeof(why))) != PP_OK)
		return resolve_errf(err, column, st, "%s", why);
	ev->attr.config1 = cfg[1];
	ev->attr.config2 = cfg[2];
	return PP_OK;
}
