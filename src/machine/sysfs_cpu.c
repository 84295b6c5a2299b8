/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs_cpu.c: owns per-CPU facts: MIDR_EL1 (sysfs, else /proc/cpuinfo), the model name and
 * the number of possible CPUs. */
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "sysfs_priv.h"

/* Longest /proc/cpuinfo line kept; longer ones (a long "Features" or "flags" line) are
 * skipped whole, never split into a second fake line. */
#define CPUINFO_LINE_MAX 512

/* The four MIDR_EL1 fields arm64 /proc/cpuinfo prints for each processor (c_show in
 * arch/arm64/kernel/cpuinfo.c), in one block per processor separated by blank lines. */
enum { F_IMPL, F_VARIANT, F_PART, F_REV, F_COUNT };
static const struct {
	const char *key;
	unsigned long long max;
	int shift;
} midr_field[F_COUNT] = {
	[F_IMPL] = { "CPU implementer", 0xff, 24 },
	[F_VARIANT] = { "CPU variant", 0xf, 20 },
	[F_PART] = { "CPU part", 0xfff, 4 },
	[F_REV] = { "CPU revision", 0xf, 0 },
};
/* MIDR_EL1.Architecture (bits 19:16) is 0xf, "defined by ID registers", on every Armv8 core;
 * /proc/cpuinfo's "CPU architecture: 8" is not that field. */
#define MIDR_ARCH_FIELD (0xfULL << 16)

/* Splits "key<tabs> : value" in place. Returns 0 when the line has no colon. */
static int split_line(char *line, char **key, char **val)
{
	char *colon = strchr(line, ':'), *e;

	if (!colon)
		return 0;
	*colon = '\0';
	for (e = colon; e > line && ascii_isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	for (colon++; ascii_isspace((unsigned char)*colon); colon++)
		;
	for (e = colon + strlen(colon); e > colon && ascii_isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	*key = line;
	*val = colon;
	return 1;
}

/* Reads one line into buf; an over-long line is consumed and reported as empty (*skip). */
static int next_line(FILE *f, char *buf, size_t len, int *skip)
{
	size_t n;
	int c;

	if (!fgets(buf, (int)len, f))
		return 0;
	n = strlen(buf);
	*skip = 0;
	if (n && buf[n - 1] == '\n')
		return 1;
	if (n + 1 < len)
		return 1;	/* last line without a newline */
	while ((c = fgetc(f)) != EOF && c != '\n')
		;
	*skip = 1;
	return 1;
}

/* Calls fn(key, value, ctx) for each "key : value" line of /proc/cpuinfo until fn returns
 * non-zero. */
static pp_status cpuinfo_scan(int (*fn)(const char *, const char *, void *), void *ctx)
{
	char line[CPUINFO_LINE_MAX], *key, *val;
	pp_status st;
	FILE *f;
	int skip;

	if ((st = sysfs_fopen("/proc/cpuinfo", &f)) != PP_OK)
		return st;
	while (next_line(f, line, sizeof line, &skip)) {
		if (skip || !split_line(line, &key, &val))
			continue;
		if (fn(key, val, ctx))
			break;
	}
	fclose(f);
	return PP_OK;
}

struct midr_scan {
	int want;		/* the processor asked for */
	int cur;		/* processor of the current block, -1 before the first */
	unsigned long long v[F_COUNT];
	int have[F_COUNT];
	pp_status bad;		/* first malformed field of the wanted block */
};

static int midr_line(const char *key, const char *val, void *ctx)
{
	struct midr_scan *m = ctx;
	long long n;
	uint64_t u;
	int i;

	if (!strcmp(key, "processor")) {
		if (m->cur == m->want)
			return 1;	/* the wanted block is over */
		m->cur = sysfs_parse_ll(val, &n) == PP_OK && n >= 0 && n < SYSFS_MAX_CPUS ?
				 (int)n : -1;
		return 0;
	}
	if (m->cur != m->want)
		return 0;
	for (i = 0; i < F_COUNT; i++) {
		if (strcmp(key, midr_field[i].key))
			continue;
		if (sysfs_parse_u64(val, &u) != PP_OK || u > midr_field[i].max) {
			if (m->bad == PP_OK)
				m->bad = PP_EINVAL;
		} else {
			m->v[i] = u;
			m->have[i] = 1;
		}
	}
	return 0;
}

/* MIDR from /proc/cpuinfo: implementer and part are required, variant and revision
 * default to 0. */
static pp_status midr_from_cpuinfo(int cpu, uint64_t *midr)
{
	struct midr_scan m = { .want = cpu, .cur = -1, .bad = PP_OK };
	uint64_t v = MIDR_ARCH_FIELD;
	pp_status st;
	int i;

	if ((st = cpuinfo_scan(midr_line, &m)) != PP_OK)
		return st;
	if (m.bad != PP_OK)
		return m.bad;
	if (!m.have[F_IMPL] || !m.have[F_PART])
		return PP_ENOENT;
	for (i = 0; i < F_COUNT; i++)
		v |= (uint64_t)m.v[i] << midr_field[i].shift;
	*midr = v;
	return PP_OK;
}

pp_status sysfs_cpu_midr(int cpu, uint64_t *midr)
{
	char path[96], buf[64];
	pp_status st, st2;
	uint64_t v;

	if (cpu < 0 || cpu >= SYSFS_MAX_CPUS || !midr)
		return PP_EINVAL;
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 cpu);
	st = sysfs_read_str(path, buf, sizeof buf);
	if (st == PP_OK && (st = sysfs_parse_u64(buf, &v)) == PP_OK) {
		*midr = v;
		return PP_OK;
	}
	/* Kernels before 4.7, and CPUs offline at boot, have no regs/ directory. */
	st2 = midr_from_cpuinfo(cpu, midr);
	if (st2 == PP_OK)
		return PP_OK;
	return st != PP_ENOENT ? st : st2;
}

struct model_scan {
	char *buf;
	size_t len;
	pp_status st;
};

static int model_line(const char *key, const char *val, void *ctx)
{
	struct model_scan *m = ctx;
	size_t n = strlen(val);

	if (strcmp(key, "model name"))
		return 0;
	if (n >= m->len) {
		m->st = PP_ERANGE;
	} else {
		memcpy(m->buf, val, n + 1);
		m->st = PP_OK;
	}
	return 1;
}

/* arm64 /proc/cpuinfo has no "model name" line: there this is PP_ENOENT and the core is
 * named from its MIDR instead. */
pp_status sysfs_cpu_model(char *buf, size_t len)
{
	struct model_scan m = { .buf = buf, .len = len, .st = PP_ENOENT };
	pp_status st;

	if (!buf || !len)
		return PP_EINVAL;
	buf[0] = '\0';
	if ((st = cpuinfo_scan(model_line, &m)) != PP_OK)
		return st;
	return m.st;
}

/* Highest "cpuN" directory + 1, when the possible file is missing or unreadable. */
static int count_cpu_dirs(void)
{
	char **names;
	size_t n, i;
	int max = -1;
	long long v;

	if (sysfs_list_dir("/sys/devices/system/cpu", &names, &n) != PP_OK)
		return 0;
	for (i = 0; i < n; i++) {
		if (!str_starts(names[i], "cpu") || !ascii_isdigit((unsigned char)names[i][3]))
			continue;
		if (sysfs_parse_ll(names[i] + 3, &v) == PP_OK && v < SYSFS_MAX_CPUS && v > max)
			max = (int)v;
	}
	sysfs_names_free(names);
	return max + 1;
}

/* Returns the highest possible CPU number + 1, so an array of that size is indexed by any
 * CPU number; 0 when neither sysfs file nor cpu directories say. */
int sysfs_ncpus(void)
{
	int *cpus, n, last;

	if (sysfs_read_cpulist("/sys/devices/system/cpu/possible", &cpus, &n) != PP_OK)
		return count_cpu_dirs();
	last = n ? cpus[n - 1] + 1 : 0;
	free(cpus);
	return last ? last : count_cpu_dirs();
}
