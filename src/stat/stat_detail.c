/* SPDX-License-Identifier: Apache-2.0 */
/* stat_detail.c: perf stat's -d, -dd, -ddd: the detailed events added to the count, as Arm's
 * common PMUv3 events that the machine's cores have in their tables, or perf's generic cache
 * events where no Arm core is known. */
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "stat.h"
#include "strbuf.h"

/* perf 6.1's detailed sets (tools/perf/builtin-stat.c, add_default_attributes): the generic
 * cache events, which the kernel of an Arm machine maps through armv8_pmuv3_perf_cache_map
 * where it can, and reports not supported where it cannot (the prefetches) or where there is
 * no PMU at all, as on this x86 host. */
static const char *const generic_levels[3] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,"
	 "iTLB-load-misses"),	/* one string: clang's -Wstring-concatenation asks for () */
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* One step of the Arm sets: a pair of events (accesses, then refills or misses; the second
 * may be NULL), with an alternative pair for cores that lack the first. The first pair that
 * every core has both of is taken; when none is, each event of the first pair that every core
 * has is taken alone (Cortex-A57 counts L1D_TLB_REFILL but not L1D_TLB). */
struct detail_step {
	int level;
	const char *pair[2][2];
};

/* perf's sets, in Arm's common events: -d the L1 data cache and the last level (LL_CACHE_RD
 * and LL_CACHE_MISS_RD from Armv8.1's PMU; the L2 data cache before); -dd the L1 instruction
 * cache and the L1 TLBs; -ddd the hardware prefetches of the L1 data cache (perf's
 * L1-dcache-prefetches), the L2 data cache and TLB, and the table walks. */
static const struct detail_step arm_steps[] = {
	{ 1, { { "l1d_cache", "l1d_cache_refill" } } },
	{ 1, { { "ll_cache_rd", "ll_cache_miss_rd" }, { "l2d_cache", "l2d_cache_refill" } } },
	{ 2, { { "l1i_cache", "l1i_cache_refill" } } },
	{ 2, { { "l1d_tlb", "l1d_tlb_refill" } } },
	{ 2, { { "l1i_tlb", "l1i_tlb_refill" } } },
	{ 3, { { "l1d_cache_hwprf", "l1d_cache_refill_hwprf" } } },
	{ 3, { { "l2d_cache", "l2d_cache_refill" } } },
	{ 3, { { "l2d_tlb", "l2d_tlb_refill" } } },
	{ 3, { { "dtlb_walk", "itlb_walk" } } },
};

#define DETAIL_MAX_CORES 8

/* Whether every core's tables have the event (NULL: no event, which every core "has"). */
static int all_have(const struct evtab_core *const *cores, size_t n, const char *name)
{
	for (size_t k = 0; name && k < n; k++)
		if (!evtab_find_name(cores[k], name))
			return 0;
	return 1;
}

/* Appends name to the list in buf unless it is there already (-ddd's L2 pair after a -d that
 * fell back to it). */
static void add(char *buf, size_t len, const char *name)
{
	size_t at = 0, nl = strlen(name);

	for (const char *p = buf; *p; p += at + (p[at] == ',')) {
		at = strcspn(p, ",");
		if (at == nl && !strncmp(p, name, nl))
			return;
	}
	at = strlen(buf);
	snprintf(buf + at, len - at, "%s%s", at ? "," : "", name);
}

/* The Arm events of levels 1 to level for the cores, comma-separated, into buf. */
static void arm_spec(const struct evtab_core *const *cores, size_t n, int level, char *buf,
		     size_t len)
{
	*buf = '\0';
	for (size_t s = 0; s < sizeof(arm_steps) / sizeof(arm_steps[0]); s++) {
		const struct detail_step *st = &arm_steps[s];
		int taken = 0;

		if (st->level > level)
			continue;
		for (int a = 0; a < 2 && st->pair[a][0] && !taken; a++)
			if (all_have(cores, n, st->pair[a][0]) && all_have(cores, n, st->pair[a][1])) {
				add(buf, len, st->pair[a][0]);
				if (st->pair[a][1])
					add(buf, len, st->pair[a][1]);
				taken = 1;
			}
		for (int i = 0; i < 2 && !taken; i++)
			if (st->pair[0][i] && all_have(cores, n, st->pair[0][i]))
				add(buf, len, st->pair[0][i]);
	}
}

int stat_detail_spec(struct resolve_ctx *ctx, int level, char **spec)
{
	const struct evtab_core *cores[DETAIL_MAX_CORES];
	size_t n = 0;
	char buf[512] = "";

	if (level > 3)
		level = 3;
	/* the cores: --cpu-model's, else every Arm PMU's, each once; none when a PMU's core is
	 * not in the tables (the kernel's generic map is then the one that knows its events) */
	if (ctx->model) {
		cores[n++] = ctx->model;
	} else if (resolve_ctx_pmus(ctx) == PP_OK) {
		for (size_t k = 0; k < ctx->npmus; k++) {
			const struct evtab_core *c = resolve_pmu_core(&ctx->pmus[k]);
			size_t j = 0;

			if (!c || n == DETAIL_MAX_CORES) {
				n = 0;
				break;
			}
			while (j < n && cores[j] != c)
				j++;
			if (j == n)
				cores[n++] = c;
		}
	}
	if (n) {
		arm_spec(cores, n, level, buf, sizeof(buf));
	} else {
		for (int l = 0; l < level; l++) {
			size_t at = strlen(buf);

			snprintf(buf + at, sizeof(buf) - at, "%s%s", l ? "," : "", generic_levels[l]);
		}
	}
	if (!*buf) {	/* a core whose tables have none of them */
		*spec = NULL;
		return 0;
	}
	if (!(*spec = strdup(buf))) {
		msg_error("out of memory");
		return -1;
	}
	return 0;
}
