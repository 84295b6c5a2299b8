/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_list_sections.c: which cores `pmuprof list` lists (the machine's PMUs, --cpu-model's
 * core, or every core), each as a section with the events its PMU advertises. */
#include <stdlib.h>
#include <string.h>

#include "cmd_list_priv.h"
#include "evtab.h"
#include "resolve.h"
#include "sysfs.h"

const char *list_class_name(int cls)
{
	switch (cls) {
	case EVTAB_ARCH: return "architectural";
	case EVTAB_UARCH: return "microarchitectural";
	default: return "implementation defined";
	}
}

const char *list_class_short(int cls)
{
	return cls == EVTAB_ARCH ? "arch" : cls == EVTAB_UARCH ? "uarch" : "impdef";
}

static int cmp_code(const void *a, const void *b)
{
	return (int)*(const unsigned short *)a - (int)*(const unsigned short *)b;
}

/* -1 when out of memory. */
static int list_section_init(struct list_section *s, const struct evtab_core *core,
			     const struct sysfs_pmu *pmu)
{
	memset(s, 0, sizeof(*s));
	s->core = core;
	s->pmu = pmu;
	if (!sysfs_event_listed(pmu))
		return 0;
	if (!(s->adv = malloc(sysfs_event_listed(pmu) * sizeof(*s->adv))))
		return -1;
	for (size_t k = 0; k < sysfs_event_listed(pmu); k++) {
		const struct sysfs_event *e = sysfs_event_at(pmu, k);
		long code = e ? resolve_sysfs_event_code(e) : -1;

		if (code >= 0 && code < 0x10000)
			s->adv[s->nadv++] = (unsigned short)code;
	}
	qsort(s->adv, s->nadv, sizeof(*s->adv), cmp_code);
	return 0;
}

void list_sections_free(struct list_section *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(s[k].adv);
	free(s);
}

/* 1 advertised, 0 not, -1 no PMU of this core on the machine to ask. */
int list_advertised(const struct list_section *s, unsigned code)
{
	unsigned short c = (unsigned short)code;

	if (!s->pmu)
		return -1;
	return code < 0x10000 && bsearch(&c, s->adv, s->nadv, sizeof(c), cmp_code) != NULL;
}

/* Whether the PMU's events/ entry e is one the section's table lacks (by code, or by name
 * when its terms are not a plain event number): listed after the table's own. */
int list_beyond_table(const struct list_section *s, const struct sysfs_event *e)
{
	long code = resolve_sysfs_event_code(e);

	if (code >= 0 && code < 0x10000)
		return !evtab_find_code(s->core, (unsigned)code);
	return !evtab_find_name(s->core, e->name);
}

/* The sections to list; *n of them, malloc'd. */
int list_pick_sections(const struct list_opts *o, struct resolve_ctx *ctx,
			 struct list_section **out, size_t *n)
{
	size_t cap = o->all_cores ? evtab_ncores() : ctx->model ? 1 : ctx->npmus;
	struct list_section *v = calloc(cap ? cap : 1, sizeof(*v));
	int bad = 0;

	*n = 0;
	if (!v)
		return -1;
	if (o->all_cores) {
		for (size_t k = 0; k < cap; k++) {
			const struct evtab_core *c = evtab_core_at(k);
			bad |= list_section_init(&v[(*n)++], c, resolve_arm_pmu_of(ctx, c));
		}
	} else if (ctx->model) {
		bad |= list_section_init(&v[(*n)++], ctx->model, resolve_arm_pmu_of(ctx, ctx->model));
	} else {
		for (size_t k = 0; k < ctx->npmus; k++)
			bad |= list_section_init(&v[(*n)++], resolve_pmu_core(&ctx->pmus[k]),
					    &ctx->pmus[k]);
	}
	if (bad) {
		list_sections_free(v, *n);
		return -1;
	}
	*out = v;
	return 0;
}
