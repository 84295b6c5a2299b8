/* SPDX-License-Identifier: Apache-2.0 */
/* resolve_generic.c: owns perf's generic names (PERF_TYPE_HARDWARE, _SOFTWARE, _HW_CACHE) and
 * what the kernel's PMUv3 driver counts for each of them. */
#include <stdio.h>
#include <string.h>

#include "ascii.h"
#include "resolve.h"

struct generic {
	const char *name;
	uint32_t type;
	uint64_t config;
};

/* perf's names for PERF_TYPE_HARDWARE and PERF_TYPE_SOFTWARE (include/uapi/linux/perf_event.h),
 * aliases after the name perf prints. */
static const struct generic generics[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
};

/* PERF_TYPE_HW_CACHE: config = cache | op << 8 | result << 16; names "<cache>-<op>s" for
 * accesses and "<cache>-<op>-misses" for misses, as perf spells them. */
static const char *const cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache", [PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC", [PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB", [PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};
static const char *const cache_ops[] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load", [PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};
/* the plural perf gives accesses: "L1-dcache-loads", "L1-dcache-prefetches" */
static const char *const cache_plural[] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "s", [PERF_COUNT_HW_CACHE_OP_WRITE] = "s",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "es",
};

#define NCACHE (sizeof(cache_names) / sizeof(cache_names[0]))
#define NOPS (sizeof(cache_ops) / sizeof(cache_ops[0]))

/* "<cache>-<op>s" or "<cache>-<op>-misses" into buf (room for the longest, 24 bytes), by
 * copying: list prints all 42 */
static void cache_name(char *buf, size_t c, size_t op, int miss)
{
	const char *parts[] = { cache_names[c], "-", cache_ops[op],
				miss ? "-misses" : cache_plural[op] };
	size_t n = 0;

	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		memcpy(buf + n, parts[k], strlen(parts[k]));
		n += strlen(parts[k]);
	}
	buf[n] = '\0';
}

/* The index in words[0..n) of the word that begins s and is followed by '-'; *rest gets what
 * follows that '-'. -1 when none does. Case-insensitive, as perf matches them. */
static int word_dash(const char *s, const char *const *words, size_t n, const char **rest)
{
	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(words[k]);

		if (ascii_strncasecmp(s, words[k], len) == 0 && s[len] == '-') {
			*rest = s + len + 1;
			return (int)k;
		}
	}
	return -1;
}

/* PERF_TYPE_HW_CACHE's config for cache c, op and (miss) its misses, else its accesses */
static uint64_t cache_config(size_t c, size_t op, int miss)
{
	uint64_t res = miss ? PERF_COUNT_HW_CACHE_RESULT_MISS : PERF_COUNT_HW_CACHE_RESULT_ACCESS;

	return (uint64_t)c | op << 8 | res << 16;
}

/* A cache name taken apart as "<cache>-<op>s" or "<cache>-<op>-misses" (perf's spelling), so
 * that a name costs a few comparisons instead of formatting the 42 names: *config gets
 * PERF_TYPE_HW_CACHE's cache | op << 8 | result << 16. */
static pp_status cache_parse(const char *name, uint64_t *config)
{
	const char *rest, *tail;
	int c = word_dash(name, cache_names, NCACHE, &rest), miss;

	if (c < 0)
		return PP_ENOENT;
	for (size_t op = 0; op < NOPS; op++) {
		size_t len = strlen(cache_ops[op]);

		if (ascii_strncasecmp(rest, cache_ops[op], len) != 0)
			continue;
		tail = rest + len;
		miss = ascii_strcasecmp(tail, "-misses") == 0;
		if (!miss && ascii_strcasecmp(tail, cache_plural[op]) != 0)
			continue;
		*config = cache_config((size_t)c, op, miss);
		return PP_OK;
	}
	return PP_ENOENT;
}

static const char *unit_of(uint32_t type, uint64_t config)
{
	if (type == PERF_TYPE_SOFTWARE &&
	    (config == PERF_COUNT_SW_CPU_CLOCK || config == PERF_COUNT_SW_TASK_CLOCK))
		return "ns";
	return "";
}

/* What the kernel's PMUv3 driver counts for perf's generic events: THE one copy of that map in
 * pmuprof (resolution, listings, explain and the metrics all ask resolve_generic_arm_code).
 * Source: Linux 6.1, arch/arm64/kernel/perf_event.c, armv8_pmuv3_perf_map and
 * armv8_pmuv3_perf_cache_map (Debian 12's kernel; the file moved to drivers/perf/arm_pmuv3.c
 * in 6.4). There branches is PC_WRITE_RETIRED (0x0C), statically. Later kernels differ: from
 * 6.4 the driver takes PC_WRITE_RETIRED where PMCEID has it, else BR_RETIRED (0x21); later
 * still it maps branches to BR_RETIRED. Some cores override cache entries with their own
 * events. pmuprof keeps PERF_TYPE_HARDWARE / PERF_TYPE_HW_CACHE for these names: the kernel
 * applies its map on every Arm PMU, the attr stays right on any architecture, and no sysfs
 * read is needed to open them. The code is recorded in pp_event.arm_code so that listings
 * and explanations can name the Arm event. */
static const int arm_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES] = 0x11,		/* CPU_CYCLES */
	[PERF_COUNT_HW_INSTRUCTIONS] = 0x08,		/* INST_RETIRED */
	[PERF_COUNT_HW_CACHE_REFERENCES] = 0x04,	/* L1D_CACHE */
	[PERF_COUNT_HW_CACHE_MISSES] = 0x03,		/* L1D_CACHE_REFILL */
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = 0x0C,	/* PC_WRITE_RETIRED */
	[PERF_COUNT_HW_BRANCH_MISSES] = 0x10,		/* BR_MIS_PRED */
	[PERF_COUNT_HW_BUS_CYCLES] = 0x1D,		/* BUS_CYCLES */
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 0x23,	/* STALL_FRONTEND */
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = 0x24,	/* STALL_BACKEND */
	[PERF_COUNT_HW_REF_CPU_CYCLES] = -1,
};

/* Read accesses and misses only: the generic map has no write or prefetch entries. */
static const int arm_cache_map[][2] = {
	[PERF_COUNT_HW_CACHE_L1D] = { 0x04, 0x03 },	/* L1D_CACHE, L1D_CACHE_REFILL */
	[PERF_COUNT_HW_CACHE_L1I] = { 0x14, 0x01 },	/* L1I_CACHE, L1I_CACHE_REFILL */
	[PERF_COUNT_HW_CACHE_LL] = { 0x36, 0x37 },	/* LL_CACHE_RD, LL_CACHE_MISS_RD */
	[PERF_COUNT_HW_CACHE_DTLB] = { 0x25, 0x05 },	/* L1D_TLB, L1D_TLB_REFILL */
	[PERF_COUNT_HW_CACHE_ITLB] = { 0x26, 0x02 },	/* L1I_TLB, L1I_TLB_REFILL */
	[PERF_COUNT_HW_CACHE_BPU] = { 0x12, 0x10 },	/* BR_PRED, BR_MIS_PRED */
	[PERF_COUNT_HW_CACHE_NODE] = { -1, -1 },
};

int resolve_generic_arm_code(uint32_t type, uint64_t config)
{
	uint64_t c = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type == PERF_TYPE_HARDWARE && config < PERF_COUNT_HW_MAX)
		return arm_hw_map[config] ? arm_hw_map[config] : -1;
	if (type != PERF_TYPE_HW_CACHE || config >> 24 || op != PERF_COUNT_HW_CACHE_OP_READ ||
	    c >= sizeof(arm_cache_map) / sizeof(arm_cache_map[0]) || res > 1)
		return -1;
	return arm_cache_map[c][res];
}

#define NGENERIC (sizeof(generics) / sizeof(generics[0]))

pp_status resolve_generic(const char *name, struct pp_attr *attr, const char **unit)
{
	uint64_t config;

	/* no generic or cache name has a '_', and nearly every Arm name has one */
	if (strchr(name, '_'))
		return PP_ENOENT;
	for (size_t k = 0; k < NGENERIC; k++) {
		if (ascii_strcasecmp(name, generics[k].name) == 0) {
			attr->type = generics[k].type;
			attr->config = generics[k].config;
			*unit = unit_of(attr->type, attr->config);
			return PP_OK;
		}
	}
	/* every cache name has a '-' after its cache word */
	if (!strchr(name, '-') || cache_parse(name, &config) != PP_OK)
		return PP_ENOENT;
	attr->type = PERF_TYPE_HW_CACHE;
	attr->config = config;
	*unit = "";
	return PP_OK;
}

static const char *const tool_names[] = { "duration_time", "user_time", "system_time" };

int resolve_tool(const char *name, size_t len)
{
	for (size_t k = 0; k < sizeof(tool_names) / sizeof(tool_names[0]); k++)
		if (strlen(tool_names[k]) == len && ascii_strncasecmp(name, tool_names[k], len) == 0)
			return (int)k + 1;
	return 0;
}

void resolve_generic_names(void (*fn)(const char *name, uint32_t type, uint64_t config,
				       void *arg), void *arg)
{
	char buf[64];

	for (size_t k = 0; k < NGENERIC; k++)
		fn(generics[k].name, generics[k].type, generics[k].config, arg);
	for (size_t c = 0; c < NCACHE; c++)
		for (size_t op = 0; op < NOPS; op++)
			for (int miss = 0; miss < 2; miss++) {
				cache_name(buf, c, op, miss);
				fn(buf, PERF_TYPE_HW_CACHE, cache_config(c, op, miss), arg);
			}
}
