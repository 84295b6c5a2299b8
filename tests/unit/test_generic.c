/* SPDX-License-Identifier: Apache-2.0 */
/* test_generic.c: perf's generic and cache names (resolve_generic.c): every name with its exact
 * type and config as perf 6.1 gives them, and the matcher that takes cache names apart checked
 * against the one it replaced (format all 42 names, compare each), name by name, on the names
 * and on thousands of near misses. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "list_generic.h"
#include "resolve.h"
#include "tap.h"

/* perf's names and what `perf stat -vv -e NAME true` (perf 6.1.187, Debian 12) prints as the
 * attr's type and config for each; the cache names are the 32 it accepts of the 42 "<cache>-
 * <op>s" / "<cache>-<op>-misses" spellings (it refuses L1-icache and iTLB stores, iTLB and
 * branch prefetches, and branch stores, which pmuprof keeps and the kernel refuses at open). */
static const struct perf_row {
	int line;
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *unit;
} perf_rows[] = {
	{ __LINE__, "cycles", 0, 0x0, "" },
	{ __LINE__, "cpu-cycles", 0, 0x0, "" },
	{ __LINE__, "instructions", 0, 0x1, "" },
	{ __LINE__, "cache-references", 0, 0x2, "" },
	{ __LINE__, "cache-misses", 0, 0x3, "" },
	{ __LINE__, "branches", 0, 0x4, "" },
	{ __LINE__, "branch-instructions", 0, 0x4, "" },
	{ __LINE__, "branch-misses", 0, 0x5, "" },
	{ __LINE__, "bus-cycles", 0, 0x6, "" },
	{ __LINE__, "stalled-cycles-frontend", 0, 0x7, "" },
	{ __LINE__, "idle-cycles-frontend", 0, 0x7, "" },
	{ __LINE__, "stalled-cycles-backend", 0, 0x8, "" },
	{ __LINE__, "idle-cycles-backend", 0, 0x8, "" },
	{ __LINE__, "ref-cycles", 0, 0x9, "" },
	{ __LINE__, "cpu-clock", 1, 0x0, "ns" },
	{ __LINE__, "task-clock", 1, 0x1, "ns" },
	{ __LINE__, "page-faults", 1, 0x2, "" },
	{ __LINE__, "faults", 1, 0x2, "" },
	{ __LINE__, "context-switches", 1, 0x3, "" },
	{ __LINE__, "cs", 1, 0x3, "" },
	{ __LINE__, "cpu-migrations", 1, 0x4, "" },
	{ __LINE__, "migrations", 1, 0x4, "" },
	{ __LINE__, "minor-faults", 1, 0x5, "" },
	{ __LINE__, "major-faults", 1, 0x6, "" },
	{ __LINE__, "alignment-faults", 1, 0x7, "" },
	{ __LINE__, "emulation-faults", 1, 0x8, "" },
	{ __LINE__, "dummy", 1, 0x9, "" },
	{ __LINE__, "bpf-output", 1, 0xa, "" },
	{ __LINE__, "cgroup-switches", 1, 0xb, "" },
	{ __LINE__, "L1-dcache-loads", 3, 0x0, "" },
	{ __LINE__, "L1-dcache-load-misses", 3, 0x10000, "" },
	{ __LINE__, "L1-dcache-stores", 3, 0x100, "" },
	{ __LINE__, "L1-dcache-store-misses", 3, 0x10100, "" },
	{ __LINE__, "L1-dcache-prefetches", 3, 0x200, "" },
	{ __LINE__, "L1-dcache-prefetch-misses", 3, 0x10200, "" },
	{ __LINE__, "L1-icache-loads", 3, 0x1, "" },
	{ __LINE__, "L1-icache-load-misses", 3, 0x10001, "" },
	{ __LINE__, "L1-icache-prefetches", 3, 0x201, "" },
	{ __LINE__, "L1-icache-prefetch-misses", 3, 0x10201, "" },
	{ __LINE__, "LLC-loads", 3, 0x2, "" },
	{ __LINE__, "LLC-load-misses", 3, 0x10002, "" },
	{ __LINE__, "LLC-stores", 3, 0x102, "" },
	{ __LINE__, "LLC-store-misses", 3, 0x10102, "" },
	{ __LINE__, "LLC-prefetches", 3, 0x202, "" },
	{ __LINE__, "LLC-prefetch-misses", 3, 0x10202, "" },
	{ __LINE__, "dTLB-loads", 3, 0x3, "" },
	{ __LINE__, "dTLB-load-misses", 3, 0x10003, "" },
	{ __LINE__, "dTLB-stores", 3, 0x103, "" },
	{ __LINE__, "dTLB-store-misses", 3, 0x10103, "" },
	{ __LINE__, "dTLB-prefetches", 3, 0x203, "" },
	{ __LINE__, "dTLB-prefetch-misses", 3, 0x10203, "" },
	{ __LINE__, "iTLB-loads", 3, 0x4, "" },
	{ __LINE__, "iTLB-load-misses", 3, 0x10004, "" },
	{ __LINE__, "branch-loads", 3, 0x5, "" },
	{ __LINE__, "branch-load-misses", 3, 0x10005, "" },
	{ __LINE__, "node-loads", 3, 0x6, "" },
	{ __LINE__, "node-load-misses", 3, 0x10006, "" },
	{ __LINE__, "node-stores", 3, 0x106, "" },
	{ __LINE__, "node-store-misses", 3, 0x10106, "" },
	{ __LINE__, "node-prefetches", 3, 0x206, "" },
	{ __LINE__, "node-prefetch-misses", 3, 0x10206, "" },
};

static void test_perf_names(void)
{
	for (size_t k = 0; k < sizeof(perf_rows) / sizeof(perf_rows[0]); k++) {
		const struct perf_row *r = &perf_rows[k];
		struct pp_attr a;
		const char *unit = NULL;
		pp_status st;

		memset(&a, 0, sizeof(a));
		st = resolve_generic(r->name, &a, &unit);
		if (!TAP_EQ_INT(st, PP_OK, "line %d: %s resolves", r->line, r->name))
			continue;
		TAP_EQ_INT(a.type, r->type, "line %d: %s type", r->line, r->name);
		TAP_EQ_INT(a.config, r->config, "line %d: %s config", r->line, r->name);
		TAP_EQ_STR(unit, r->unit, "line %d: %s unit", r->line, r->name);
	}
}

/* The matcher resolve_generic had before its cache parser (commit c9d0b83, 'prefetches'
 * spelled as perf does since): all 42 cache names formatted and compared with strcasecmp. The
 * reference the parsing matcher must agree with on every string. */
static const char *const old_caches[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB",
					  "branch", "node" };
static const char *const old_ops[] = { "load", "store", "prefetch" };
static const char *const old_plural[] = { "s", "s", "es" };

static void old_name(char *buf, size_t len, size_t c, size_t op, int miss)
{
	snprintf(buf, len, "%s-%s%s", old_caches[c], old_ops[op], miss ? "-misses" : old_plural[op]);
}

static pp_status old_cache(const char *name, uint64_t *config)
{
	char buf[64];

	for (size_t c = 0; c < 7; c++)
		for (size_t op = 0; op < 3; op++)
			for (int miss = 0; miss < 2; miss++) {
				old_name(buf, sizeof(buf), c, op, miss);
				if (strcasecmp(name, buf) == 0) {
					*config = c | op << 8 | (uint64_t)miss << 16;
					return PP_OK;
				}
			}
	return PP_ENOENT;
}

static int ncompared, ndiffer;

/* One string through both matchers: the same status, and the same type and config. Only
 * disagreements print a line (thousands of strings agree). */
static void compare(const char *s)
{
	struct pp_attr a;
	const char *unit;
	uint64_t want = 0;
	pp_status old = old_cache(s, &want), st;
	int same;

	memset(&a, 0, sizeof(a));
	st = resolve_generic(s, &a, &unit);
	/* a generic (non-cache) name is matched before either cache matcher */
	if (st == PP_OK && a.type != PERF_TYPE_HW_CACHE)
		return;
	ncompared++;
	same = st == old && (st != PP_OK || (a.type == PERF_TYPE_HW_CACHE && a.config == want));
	if (!same) {
		ndiffer++;
		tap_ok(0, "'%s': old matcher %d config 0x%llx, parser %d type %u config 0x%llx", s,
		       old, (unsigned long long)want, st, a.type, (unsigned long long)a.config);
	}
}

/* Every cache name of the old table, in three cases, and strings near each: every prefix, one
 * character dropped, one appended, '-' as '_', and the other suffixes. */
static void test_against_old(void)
{
	static const char *const tails[] = { "s", "es", "-misses", "-miss", "-", "x", "ss",
					     "-missess", "-loads" };
	char name[64], s[80];
	size_t len;

	for (size_t c = 0; c < 7; c++)
		for (size_t op = 0; op < 3; op++)
			for (int miss = 0; miss < 2; miss++) {
				old_name(name, sizeof(name), c, op, miss);
				len = strlen(name);
				compare(name);
				for (size_t i = 0; i <= len; i++)
					s[i] = (char)toupper((unsigned char)name[i]);
				compare(s);
				for (size_t i = 0; i <= len; i++)
					s[i] = (char)tolower((unsigned char)name[i]);
				compare(s);
				for (size_t i = 0; i < len; i++) {
					memcpy(s, name, i);
					s[i] = '\0';
					compare(s);			/* prefix */
					memcpy(s, name, i);
					strcpy(s + i, name + i + 1);
					compare(s);			/* one dropped */
				}
				for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
					snprintf(s, sizeof(s), "%s%s", name, tails[t]);
					compare(s);
				}
				for (size_t i = 0; i <= len; i++)
					s[i] = name[i] == '-' ? '_' : name[i];
				compare(s);
				/* each cache's name with each other op's and result's tail */
				for (size_t o = 0; o < 3; o++) {
					snprintf(s, sizeof(s), "%s-%s%s", old_caches[c], old_ops[o],
						 miss ? old_plural[o] : "-misses");
					compare(s);
				}
			}
	tap_ok(ncompared > 2000 && ndiffer == 0,
	       "the parser and the old 42-name matcher agree on all %d strings (%d differ)",
	       ncompared, ndiffer);
}

/* resolve_generic_names lists what resolve_generic accepts: each listed name resolves to the
 * type and config listed with it, and the list holds every name of the table above and the
 * 42 cache names. */
static char *listed[128];
static size_t nlisted;
static int listed_wrong;	/* names listed with another type or config than they resolve to */

static void collect(const char *name, uint32_t type, uint64_t config, void *arg)
{
	struct pp_attr a;
	const char *unit;

	(void)arg;
	if (resolve_generic(name, &a, &unit) != PP_OK || a.type != type || a.config != config) {
		printf("# %s listed as type %u config 0x%llx\n", name, type,
		       (unsigned long long)config);
		listed_wrong++;
	}
	if (nlisted < sizeof(listed) / sizeof(listed[0]))
		listed[nlisted] = strdup(name);
	nlisted++;
}

static int is_listed(const char *name)
{
	for (size_t k = 0; k < nlisted && k < sizeof(listed) / sizeof(listed[0]); k++)
		if (listed[k] && strcmp(listed[k], name) == 0)
			return 1;
	return 0;
}

static void test_listing(void)
{
	char name[64];
	int missing = 0, bad = 0;
	size_t ngeneric = 0;

	for (size_t k = 0; k < sizeof(perf_rows) / sizeof(perf_rows[0]); k++)
		ngeneric += perf_rows[k].type != PERF_TYPE_HW_CACHE;
	resolve_generic_names(collect, NULL);
	TAP_EQ_INT(nlisted, ngeneric + 42, "the listing: every generic name and the 42 cache names");
	for (size_t k = 0; k < sizeof(perf_rows) / sizeof(perf_rows[0]); k++)
		missing += !is_listed(perf_rows[k].name);
	for (size_t c = 0; c < 7; c++)
		for (size_t op = 0; op < 3; op++)
			for (int miss = 0; miss < 2; miss++) {
				old_name(name, sizeof(name), c, op, miss);
				missing += !is_listed(name);
			}
	TAP_EQ_INT(missing, 0, "every name of perf's and of the old table is listed");
	for (size_t k = 0; k < nlisted && k < sizeof(listed) / sizeof(listed[0]); k++) {
		struct pp_attr a;
		const char *unit;

		bad += resolve_generic(listed[k], &a, &unit) != PP_OK;
		free(listed[k]);
	}
	TAP_EQ_INT(bad, 0, "every listed name resolves");
	TAP_EQ_INT(listed_wrong, 0, "every name is listed with the type and config it resolves to");
}

/* list's generic section, as list_generic_heading and list_generic_line build it, is what
 * printf's formats give for every listed name: "  %-32s type %u config 0x%llx",
 * " (on Arm: event 0x%04x)" where the kernel's Arm map has one, under its heading. */
static char *want;
static size_t nwant, capwant;

static void expect(const char *name, uint32_t type, uint64_t config, void *arg)
{
	int arm = resolve_generic_arm_code(type, config);
	char line[160], tail[40] = "";

	(void)arg;
	if (arm >= 0)
		snprintf(tail, sizeof(tail), " (on Arm: event 0x%04x)", (unsigned)arm);
	snprintf(line, sizeof(line), "  %-32s type %u config 0x%llx%s\n", name, type,
		 (unsigned long long)config, tail);
	if (nwant + strlen(line) + 1 > capwant && !(want = realloc(want, capwant += 8192)))
		abort();
	memcpy(want + nwant, line, strlen(line) + 1);
	nwant += strlen(line);
}

static void line_cb(const char *name, uint32_t type, uint64_t config, void *arg)
{
	list_generic_line(arg, name, type, config);
}

static void test_section(void)
{
	char *text = NULL, tb[256];
	size_t at = 0, len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct textline l = TEXTLINE_ON(mem, tb);

	if (!mem || !(want = malloc(capwant = 8192)))
		abort();
	strcpy(want, "perf generic events:\n");
	nwant = strlen(want);
	resolve_generic_names(expect, NULL);
	list_generic_heading(&l);
	resolve_generic_names(line_cb, &l);
	textline_flush(&l);
	if (fclose(mem) != 0)
		abort();
	TAP_EQ_INT(len, nwant, "list's generic section has printf's length");
	while (at < nwant && at < len && want[at] == text[at])
		at++;
	if (at < nwant)
		printf("# first difference at byte %zu: '%.40s' against '%.40s'\n", at, want + at,
		       at < len ? text + at : "");
	tap_ok(at == nwant && nwant == len,
	       "list's generic section is the heading and printf's line for every listed name");
	tap_ok(strstr(text, "\n  cycles                           type 0 config 0x0 "
			    "(on Arm: event 0x0011)\n") != NULL,
	       "its cycles line names Arm's CPU_CYCLES");
	free(text);
	free(want);
}

int main(void)
{
	test_perf_names();
	test_against_old();
	test_listing();
	test_section();
	return tap_done();
}
