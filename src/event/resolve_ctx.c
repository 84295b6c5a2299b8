/* SPDX-License-Identifier: Apache-2.0 */
/* resolve_ctx.c: owns the resolution context: the --cpu-model core, the machine's Arm PMUs
 * (read once, when a name first needs them), libpfm4's handle, lookups of Arm names in each
 * PMU's core tables and events/, and the Arm names offered for a misspelt one. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "pfm.h"
#include "resolve_priv.h"

const char *resolve_model_name(const char *opt)
{
	const char *env;

	if (opt && *opt)
		return opt;
	env = getenv("PMUPROF_CPU_MODEL");
	return env && *env ? env : NULL;
}

pp_status resolve_ctx_init(struct resolve_ctx *c, const char *model, struct suggest *near)
{
	memset(c, 0, sizeof(*c));
	if (!model)
		return PP_OK;
	if ((c->model = evtab_core_by_name(model)))
		return PP_OK;
	if (near) {
		suggest_init(near, model);
		for (size_t k = 0; k < evtab_ncores(); k++)
			suggest_offer(near, evtab_core_name(evtab_core_at(k)));
	}
	return PP_ENOENT;
}

void resolve_ctx_free(struct resolve_ctx *c)
{
	resolve_pool_free(c);
	sysfs_pmus_free(c->pmus, c->npmus);
	pfm_close(c->pfm);
	memset(c, 0, sizeof(*c));
}

static int first_cpu(const struct sysfs_pmu *p)
{
	return p->ncpus ? p->cpus[0] : INT_MAX;
}

static int cmp_first_cpu(const void *a, const void *b)
{
	int x = first_cpu(a), y = first_cpu(b);

	return (x > y) - (x < y);
}

pp_status resolve_ctx_pmus(struct resolve_ctx *c)
{
	if (c->pmus_loaded)
		return c->pmus_status;
	c->pmus_loaded = 1;
	c->pmus_status = sysfs_arm_pmus(&c->pmus, &c->npmus);
	if (c->pmus_status != PP_OK) {
		c->pmus = NULL;
		c->npmus = 0;
	} else if (c->npmus > 1) {
		/* big.LITTLE: "the PMU of the first CPU" is the first one tried */
		qsort(c->pmus, c->npmus, sizeof(*c->pmus), cmp_first_cpu);
	}
	return c->pmus_status;
}

const struct evtab_core *resolve_pmu_core(const struct sysfs_pmu *pmu)
{
	return pmu && pmu->midr ? evtab_core_by_midr(pmu->midr) : NULL;
}

const struct sysfs_pmu *resolve_arm_pmu_of(struct resolve_ctx *c, const struct evtab_core *core)
{
	for (size_t k = 0; k < c->npmus; k++)
		if (resolve_pmu_core(&c->pmus[k]) == core)
			return &c->pmus[k];
	return NULL;
}

long resolve_sysfs_event_code(const struct sysfs_event *e)
{
	const char *p = strstr(e->terms, "event=");
	char *end;
	long v;

	if (!p || (p != e->terms && p[-1] != ','))
		return -1;
	v = strtol(p + 6, &end, 0);
	return (*end == '\0' || *end == ',') && v >= 0 ? v : -1;
}

/* With --cpu-model: that core's table; the type is its PMU's if the machine has one, else the
 * first Arm PMU whose core the tables do not know (the user names its core), else none
 * (PERF_TYPE_RAW, never opened): a PMU of another known core would count its own events
 * under the named core's codes. */
static pp_status find_for_model(struct resolve_ctx *c, const char *name, struct arm_hit *hit)
{
	hit->core = c->model;
	hit->pmu = resolve_arm_pmu_of(c, c->model);
	for (size_t k = 0; !hit->pmu && k < c->npmus; k++)
		if (!resolve_pmu_core(&c->pmus[k]))
			hit->pmu = &c->pmus[k];
	if ((hit->ev = evtab_find_name(c->model, name)))
		return PP_OK;
	if (hit->pmu && (hit->sev = sysfs_event_find(hit->pmu, name)))
		return PP_OK;
	return PP_ENOENT;
}

pp_status resolve_arm_find(struct resolve_ctx *c, const char *name, struct arm_hit *hit)
{
	memset(hit, 0, sizeof(*hit));
	resolve_ctx_pmus(c);
	if (c->model)
		return find_for_model(c, name, hit);
	for (size_t k = 0; k < c->npmus; k++) {
		hit->pmu = &c->pmus[k];
		hit->core = resolve_pmu_core(hit->pmu);
		if ((hit->ev = evtab_find_name(hit->core, name)) ||
		    (hit->sev = sysfs_event_find(hit->pmu, name)))
			return PP_OK;
	}
	memset(hit, 0, sizeof(*hit));
	return PP_ENOENT;
}

static void offer_lower(struct suggest *s, const char *name)
{
	char buf[SUGGEST_LEN];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(buf); i++)
		buf[i] = (char)ascii_tolower((unsigned char)name[i]);
	buf[i] = '\0';
	suggest_offer(s, buf);
}

static void offer_core(const struct evtab_core *core, struct suggest *s)
{
	size_t n = evtab_nevents(core);

	for (size_t k = 0; k < n; k++)
		offer_lower(s, evtab_event_name(evtab_event_at(core, k)));
}

void resolve_arm_offer(struct resolve_ctx *c, struct suggest *s)
{
	if (c->model)
		offer_core(c->model, s);
	for (size_t k = 0; k < c->npmus; k++) {
		const struct sysfs_pmu *p = &c->pmus[k];

		if (!c->model)
			offer_core(resolve_pmu_core(p), s);
		for (size_t j = 0; j < p->nevents; j++)
			suggest_offer(s, sysfs_event_name(p, j));
	}
}
