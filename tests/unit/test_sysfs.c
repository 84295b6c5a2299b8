/* SPDX-License-Identifier: Apache-2.0 */
/* test_sysfs.c: table-driven tests of the sysfs module against the fixture trees in
 * tests/fixtures (run from the repo root, or point PMUPROF_FIXTURES at the directory). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "sysfs.h"
#include "tap.h"

static char fixtures[PATH_MAX];

/* Passes a char array to TAP_EQ_STR as a plain pointer (its NULL checks would otherwise warn
 * that an array's address is never NULL). */
__attribute__((noinline)) static const char *str(const char *s)
{
	return s;
}

static void use_tree(const char *tree)
{
	char root[PATH_MAX + 64];

	snprintf(root, sizeof root, "%s/%s", fixtures, tree);
	sysfs_set_root(root);
}

/* The row's text fit for one TAP line: a newline shows as \n. */
static const char *esc(const char *s)
{
	static char buf[128];
	size_t n = 0;

	for (; *s && n + 3 < sizeof buf; s++) {
		if (*s == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

/* One PMU loaded by name: what each fixture says about it. */
static const struct pmu_row {
	int line;
	const char *tree, *pmu;
	pp_status st;
	int type, is_arm, ncpus, first, last;
	uint64_t midr;
	size_t nformats, nevents;
	long long mux;
} pmu_rows[] = {
	{ __LINE__, "n1-server", "armv8_pmuv3_0", PP_OK, 8, 1, 80, 0, 79, 0x413fd0c1, 3, 45, 4 },
	{ __LINE__, "n1-server", "smmuv3_pmcg_3f001002", PP_OK, 9, 0, 1, 0, 0, 0, 4, 3, 4 },
	{ __LINE__, "n1-server", "arm_spe_0", PP_OK, 10, 0, 80, 0, 79, 0, 6, 0, 4 },
	{ __LINE__, "n1-server", "software", PP_OK, 1, 0, 0, -1, -1, 0, 0, 0, 0 },
	{ __LINE__, "n1-server", "uprobe", PP_OK, 7, 0, 0, -1, -1, 0, 2, 0, 0 },
	{ __LINE__, "n1-server", "armv8_pmuv3", PP_ENOENT, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "n1-server", "../devices", PP_EINVAL, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "n1-server", "", PP_EINVAL, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a55", PP_OK, 8, 1, 4, 0, 3, 0x412fd050, 3, 47, 4 },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a76", PP_OK, 9, 1, 4, 4, 7, 0x414fd0b1, 3, 41, 4 },
	{ __LINE__, "phone-a55-a76", "arm_dsu_0", PP_OK, 10, 0, 1, 0, 0, 0, 1, 2, 4 },
	{ __LINE__, "qemu-a57", "armv8_pmuv3", PP_OK, 8, 1, 1, 0, 0, 0x411fd070, 3, 2, 4 },
	{ __LINE__, "rk3399-cpuinfo", "armv8_cortex_a53", PP_OK, 8, 1, 4, 0, 3, 0x410fd034, 3, 28, 4 },
	{ __LINE__, "rk3399-cpuinfo", "armv8_cortex_a72", PP_OK, 9, 1, 2, 4, 5, 0x410fd082, 3, 24, 4 },
	{ __LINE__, "x86-host", "cpu", PP_OK, 4, 0, 0, -1, -1, 0, 6, 4, 4 },
	{ __LINE__, "x86-host", "power", PP_OK, 10, 0, 1, 0, 0, 0, 1, 1, -1 },
	{ __LINE__, "broken", "garbage_type", PP_EINVAL, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "huge_type", PP_ERANGE, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "dir_type", PP_EINVAL, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "bad_cpus", PP_EINVAL, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "range_cpus", PP_ERANGE, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "bad_format", PP_EINVAL, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "long_format", PP_ERANGE, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
	{ __LINE__, "broken", "no_format", PP_OK, 11, 0, 4, 0, 3, 0, 0, 1, 4 },
	/* events/huge (8000 bytes), events/nul (a NUL byte) and events/spaced are left out */
	{ __LINE__, "broken", "good_after_bad", PP_OK, 14, 1, 4, 0, 3, 0, 3, 1, 4 },
	{ __LINE__, "no-such-tree", "armv8_pmuv3", PP_ENOENT, 0, 0, 0, -1, -1, 0, 0, 0, -1 },
};

static void test_pmu_load(void)
{
	size_t i;

	for (i = 0; i < sizeof pmu_rows / sizeof pmu_rows[0]; i++) {
		const struct pmu_row *r = &pmu_rows[i];
		struct sysfs_pmu p;
		pp_status st;

		use_tree(r->tree);
		st = sysfs_pmu_load(r->pmu, &p);
		if (!TAP_EQ_INT(st, r->st, "line %d: load %s/%s: status", r->line, r->tree, r->pmu) ||
		    st != PP_OK) {
			sysfs_pmu_free(&p);
			continue;
		}
		TAP_EQ_STR(str(p.name), r->pmu, "line %d: %s name", r->line, r->pmu);
		TAP_EQ_INT(p.type, r->type, "line %d: %s type", r->line, r->pmu);
		TAP_EQ_INT(p.is_arm, r->is_arm, "line %d: %s is_arm", r->line, r->pmu);
		TAP_EQ_INT(p.ncpus, r->ncpus, "line %d: %s ncpus", r->line, r->pmu);
		if (r->ncpus) {
			TAP_EQ_INT(p.cpus[0], r->first, "line %d: %s first cpu", r->line, r->pmu);
			TAP_EQ_INT(p.cpus[p.ncpus - 1], r->last, "line %d: %s last cpu", r->line,
				   r->pmu);
		}
		TAP_EQ_INT(p.midr, r->midr, "line %d: %s midr", r->line, r->pmu);
		TAP_EQ_INT(p.nformats, r->nformats, "line %d: %s nformats", r->line, r->pmu);
		TAP_EQ_INT(sysfs_event_count(&p), r->nevents, "line %d: %s usable events", r->line,
			   r->pmu);
		TAP_EQ_INT(p.mux_interval_ms, r->mux, "line %d: %s mux interval", r->line, r->pmu);
		sysfs_pmu_free(&p);
	}
}

/* sysfs_arm_pmus: which PMUs each machine has, recognised by content. */
static const struct arm_row {
	int line;
	const char *tree;
	pp_status st;
	const char *names;	/* space-separated, sorted */
} arm_rows[] = {
	{ __LINE__, "n1-server", PP_OK, "armv8_pmuv3_0" },
	{ __LINE__, "phone-a55-a76", PP_OK, "armv8_cortex_a55 armv8_cortex_a76" },
	{ __LINE__, "qemu-a57", PP_OK, "armv8_pmuv3" },
	{ __LINE__, "rk3399-cpuinfo", PP_OK, "armv8_cortex_a53 armv8_cortex_a72" },
	{ __LINE__, "x86-host", PP_OK, "" },
	/* long_format's rdpmc is over-long: a term no event uses no longer hides the PMU */
	{ __LINE__, "broken", PP_OK, "good_after_bad long_format" },
	{ __LINE__, "no-such-tree", PP_OK, "" },
};

static void test_arm_pmus(void)
{
	size_t i, j;

	for (i = 0; i < sizeof arm_rows / sizeof arm_rows[0]; i++) {
		const struct arm_row *r = &arm_rows[i];
		struct sysfs_pmu *pmus = NULL;
		char got[512] = "";
		size_t n = 0;
		pp_status st;

		use_tree(r->tree);
		st = sysfs_arm_pmus(&pmus, &n);
		TAP_EQ_INT(st, r->st, "line %d: arm pmus of %s: status", r->line, r->tree);
		for (j = 0; j < n; j++) {
			if (j)
				strcat(got, " ");
			strncat(got, pmus[j].name, sizeof got - strlen(got) - 1);
		}
		TAP_EQ_STR(str(got), r->names, "line %d: arm pmus of %s", r->line, r->tree);
		sysfs_pmus_free(pmus, n);
	}
}

/* Discovery reads format/event and format/long only; the other terms on first use. */
static void test_formats_on_use(void)
{
	struct sysfs_pmu *pmus = NULL;
	const struct sysfs_format *f;
	size_t n = 0;

	use_tree("qemu-a57");
	TAP_EQ_INT(sysfs_arm_pmus(&pmus, &n), PP_OK, "qemu-a57: arm pmus");
	TAP_EQ_INT((int)n, 1, "qemu-a57: one arm pmu");
	if (n == 1) {
		TAP_EQ_INT((int)pmus[0].nformats, 2, "qemu-a57: event and long read at discovery");
		tap_ok(pmus[0].unread & SYSFS_UNREAD_FORMATS, "qemu-a57: the rest still unread");
		tap_ok(sysfs_format_find(&pmus[0], "long") != NULL, "qemu-a57: long found");
		TAP_EQ_INT((int)pmus[0].nformats, 2, "qemu-a57: long found without a listing");
		f = sysfs_format_find(&pmus[0], "rdpmc");
		tap_ok(f && f->field == 1 && f->mask == 2, "qemu-a57: rdpmc = config1:1, read on use");
		TAP_EQ_INT((int)sysfs_format_listed(&pmus[0]), 3, "qemu-a57: three terms listed");
		tap_ok(!(pmus[0].unread & SYSFS_UNREAD_FORMATS), "qemu-a57: nothing left unread");
		TAP_EQ_STR(pmus[0].formats[0].name, "event", "qemu-a57: listed in order of name");
	}
	sysfs_pmus_free(pmus, n);

	use_tree("broken");
	pmus = NULL;
	n = 0;
	TAP_EQ_INT(sysfs_arm_pmus(&pmus, &n), PP_OK, "broken: arm pmus");
	for (size_t k = 0; k < n; k++) {
		if (strcmp(pmus[k].name, "long_format"))
			continue;
		tap_ok(sysfs_format_find(&pmus[k], "rdpmc") == NULL,
		       "long_format: its over-long rdpmc is not a term");
		TAP_EQ_INT((int)sysfs_format_listed(&pmus[k]), 2,
			   "long_format: a failed listing keeps event and long");
		tap_ok(sysfs_format_find(&pmus[k], "event") != NULL, "long_format: event kept");
	}
	sysfs_pmus_free(pmus, n);
}

/* MIDR per CPU: sysfs regs/identification, else /proc/cpuinfo's four fields. */
static const struct midr_row {
	int line;
	const char *tree;
	int cpu;
	pp_status st;
	uint64_t midr;
} midr_rows[] = {
	{ __LINE__, "n1-server", 0, PP_OK, 0x413fd0c1 },
	{ __LINE__, "n1-server", 79, PP_OK, 0x413fd0c1 },
	{ __LINE__, "n1-server", 80, PP_ENOENT, 0 },
	{ __LINE__, "n1-server", -1, PP_EINVAL, 0 },
	{ __LINE__, "n1-server", SYSFS_MAX_CPUS, PP_EINVAL, 0 },
	{ __LINE__, "phone-a55-a76", 3, PP_OK, 0x412fd050 },
	{ __LINE__, "phone-a55-a76", 4, PP_OK, 0x414fd0b1 },
	{ __LINE__, "qemu-a57", 0, PP_OK, 0x411fd070 },
	{ __LINE__, "rk3399-cpuinfo", 0, PP_OK, 0x410fd034 },	/* from /proc/cpuinfo */
	{ __LINE__, "rk3399-cpuinfo", 3, PP_OK, 0x410fd034 },
	{ __LINE__, "rk3399-cpuinfo", 4, PP_OK, 0x410fd082 },
	{ __LINE__, "rk3399-cpuinfo", 5, PP_OK, 0x410fd082 },
	{ __LINE__, "rk3399-cpuinfo", 6, PP_ENOENT, 0 },
	{ __LINE__, "x86-host", 0, PP_ENOENT, 0 },
	{ __LINE__, "broken", 0, PP_EINVAL, 0 },	/* garbage midr_el1, no cpuinfo fields */
	{ __LINE__, "broken", 1, PP_ERANGE, 0 },	/* over-long midr_el1, part too big */
	{ __LINE__, "broken", 2, PP_OK, 0x410fd034 },	/* after an over-long Features line */
	{ __LINE__, "broken", 3, PP_ENOENT, 0 },
};

static void test_midr(void)
{
	size_t i;

	for (i = 0; i < sizeof midr_rows / sizeof midr_rows[0]; i++) {
		const struct midr_row *r = &midr_rows[i];
		uint64_t midr = 0;
		pp_status st;

		use_tree(r->tree);
		st = sysfs_cpu_midr(r->cpu, &midr);
		TAP_EQ_INT(st, r->st, "line %d: midr of %s cpu%d: status", r->line, r->tree, r->cpu);
		if (st == PP_OK)
			TAP_EQ_INT(midr, r->midr, "line %d: midr of %s cpu%d", r->line, r->tree,
				   r->cpu);
	}
}

/* Format terms: the kernel's strings and the shapes other PMUs use. */
static const struct format_row {
	int line;
	const char *text;
	pp_status st;
	int field;
	uint64_t mask;
} format_rows[] = {
	{ __LINE__, "config:0-15", PP_OK, 0, 0xffff },
	{ __LINE__, "config:0-9", PP_OK, 0, 0x3ff },
	{ __LINE__, "config1:0", PP_OK, 1, 0x1 },
	{ __LINE__, "config1:1", PP_OK, 1, 0x2 },
	{ __LINE__, "config1:5-16", PP_OK, 1, 0x1ffe0 },
	{ __LINE__, "config2:0-11", PP_OK, 2, 0xfff },
	{ __LINE__, "config3:63", PP_OK, 3, 1ULL << 63 },
	{ __LINE__, "config:0-63", PP_OK, 0, ~0ULL },
	{ __LINE__, "config:0-7,32-35", PP_OK, 0, 0xf000000ffULL },
	{ __LINE__, "config:32-35,0-7", PP_OK, 0, 0xf000000ffULL },
	{ __LINE__, "config:1,3,5", PP_OK, 0, 0x2a },
	{ __LINE__, "config:0-15\n", PP_OK, 0, 0xffff },
	{ __LINE__, "config:15-0", PP_EINVAL, 0, 0 },
	{ __LINE__, "config:0-64", PP_ERANGE, 0, 0 },
	{ __LINE__, "config:99999999999999999999", PP_ERANGE, 0, 0 },
	{ __LINE__, "config:0-7,4-9", PP_EINVAL, 0, 0 },
	{ __LINE__, "config4:0", PP_EINVAL, 0, 0 },
	{ __LINE__, "config", PP_EINVAL, 0, 0 },
	{ __LINE__, "config:", PP_EINVAL, 0, 0 },
	{ __LINE__, "config:0-", PP_EINVAL, 0, 0 },
	{ __LINE__, "config:0,", PP_EINVAL, 0, 0 },
	{ __LINE__, "config:-3", PP_EINVAL, 0, 0 },
	{ __LINE__, "config:0 junk", PP_EINVAL, 0, 0 },
	{ __LINE__, "event:0-15", PP_EINVAL, 0, 0 },
	{ __LINE__, "", PP_EINVAL, 0, 0 },
};

static void test_format_parse(void)
{
	size_t i;

	for (i = 0; i < sizeof format_rows / sizeof format_rows[0]; i++) {
		const struct format_row *r = &format_rows[i];
		struct sysfs_format f;
		pp_status st = sysfs_format_parse("term", r->text, &f);

		TAP_EQ_INT(st, r->st, "line %d: parse '%s': status", r->line, esc(r->text));
		if (st != PP_OK)
			continue;
		TAP_EQ_INT(f.field, r->field, "line %d: parse '%s': field", r->line, esc(r->text));
		TAP_EQ_INT(f.mask, r->mask, "line %d: parse '%s': mask", r->line, esc(r->text));
		TAP_EQ_STR(str(f.name), "term", "line %d: parse '%s': name", r->line, esc(r->text));
	}
}

/* Placing values: low bits first into the lowest range; refusing values that do not fit.
 * Every row starts from config = {0xa0, 0xb1, 0xc2, 0xd3} to show other bits are kept. */
static const struct apply_row {
	int line;
	const char *text;
	uint64_t value;
	pp_status st;
	uint64_t want[4];
} apply_rows[] = {
	{ __LINE__, "config:0-15", 0x11, PP_OK, { 0x11, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config:0-15", 0xffff, PP_OK, { 0xffff, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config:0-15", 0x10000, PP_ERANGE, { 0xa0, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config:0-9", 0x400, PP_ERANGE, { 0xa0, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config1:0", 1, PP_OK, { 0xa0, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config1:0", 0, PP_OK, { 0xa0, 0xb0, 0xc2, 0xd3 } },
	{ __LINE__, "config1:1", 1, PP_OK, { 0xa0, 0xb3, 0xc2, 0xd3 } },
	{ __LINE__, "config1:1", 2, PP_ERANGE, { 0xa0, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config2:0-11", 0xfff, PP_OK, { 0xa0, 0xb1, 0xfff, 0xd3 } },
	{ __LINE__, "config2:0-11", 0x1000, PP_ERANGE, { 0xa0, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config1:5-16", 2, PP_OK, { 0xa0, 0x51, 0xc2, 0xd3 } },
	{ __LINE__, "config:0-7,32-35", 0x5ab, PP_OK, { 0x5000000abULL, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config:0-7,32-35", 0xfff, PP_OK, { 0xf000000ffULL, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config:0-7,32-35", 0x1000, PP_ERANGE, { 0xa0, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config:32-35,0-7", 0x5ab, PP_OK, { 0x5000000abULL, 0xb1, 0xc2, 0xd3 } },
	{ __LINE__, "config3:0-63", ~0ULL, PP_OK, { 0xa0, 0xb1, 0xc2, ~0ULL } },
	{ __LINE__, "config3:63", 1, PP_OK, { 0xa0, 0xb1, 0xc2, 0x80000000000000d3ULL } },
};

static void test_format_apply(void)
{
	size_t i;
	int k;

	for (i = 0; i < sizeof apply_rows / sizeof apply_rows[0]; i++) {
		const struct apply_row *r = &apply_rows[i];
		uint64_t cfg[4] = { 0xa0, 0xb1, 0xc2, 0xd3 };
		struct sysfs_format f;
		pp_status st;

		if (!tap_ok(sysfs_format_parse("t", r->text, &f) == PP_OK, "line %d: parse '%s'",
			    r->line, r->text))
			continue;
		st = sysfs_format_apply(&f, r->value, cfg);
		TAP_EQ_INT(st, r->st, "line %d: apply %#llx to '%s': status", r->line,
			   (unsigned long long)r->value, r->text);
		for (k = 0; k < 4; k++)
			TAP_EQ_INT(cfg[k], r->want[k], "line %d: apply %#llx to '%s': config%d",
				   r->line, (unsigned long long)r->value, r->text, k);
	}
}

/* Term and event lookup on loaded PMUs, case-insensitive. */
static const struct lookup_row {
	int line;
	const char *tree, *pmu, *name;
	int is_format;
	const char *want;	/* event terms; for a format "field:mask" in hex; NULL = absent */
} lookup_rows[] = {
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "cpu_cycles", 0, "event=0x0011" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "INST_RETIRED", 0, "event=0x0008" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "Stall_Backend", 0, "event=0x0024" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "sample_collision", 0, "event=0x4003" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "ld_retired", 0, NULL },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "chain", 0, NULL },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "inst_retire", 0, NULL },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "event", 1, "0:ffff" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "LONG", 1, "1:1" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "rdpmc", 1, "1:2" },
	{ __LINE__, "n1-server", "armv8_pmuv3_0", "threshold", 1, NULL },
	{ __LINE__, "n1-server", "arm_spe_0", "min_latency", 1, "2:fff" },
	{ __LINE__, "n1-server", "arm_spe_0", "event_filter", 1, "1:ffffffffffffffff" },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a55", "ld_retired", 0, "event=0x0006" },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a76", "ld_retired", 0, NULL },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a76", "remote_access", 0, "event=0x0031" },
	{ __LINE__, "qemu-a57", "armv8_pmuv3", "cpu_cycles", 0, "event=0x0011" },
	{ __LINE__, "qemu-a57", "armv8_pmuv3", "l1d_cache", 0, NULL },
	{ __LINE__, "x86-host", "cpu", "MEM-LOADS", 0, "event=0xcd,umask=0x1,ldlat=3" },
	{ __LINE__, "x86-host", "cpu", "ldlat", 1, "1:ffff" },
	{ __LINE__, "x86-host", "power", "energy-pkg", 0, "event=0x02" },
	{ __LINE__, "x86-host", "power", "energy-pkg.scale", 0, NULL },
	{ __LINE__, "broken", "good_after_bad", "huge", 0, NULL },
	{ __LINE__, "broken", "good_after_bad", "nul", 0, NULL },
	{ __LINE__, "broken", "good_after_bad", "spaced", 0, NULL },
};

static void test_lookup(void)
{
	size_t i;

	for (i = 0; i < sizeof lookup_rows / sizeof lookup_rows[0]; i++) {
		const struct lookup_row *r = &lookup_rows[i];
		const struct sysfs_format *f = NULL;
		const struct sysfs_event *e = NULL;
		struct sysfs_pmu p;
		char got[64];

		use_tree(r->tree);
		if (!tap_ok(sysfs_pmu_load(r->pmu, &p) == PP_OK, "line %d: load %s", r->line,
			    r->pmu))
			continue;
		if (r->is_format)
			f = sysfs_format_find(&p, r->name);
		else
			e = sysfs_event_find(&p, r->name);
		if (!r->want) {
			tap_ok(!f && !e, "line %d: %s has no '%s'", r->line, r->pmu, r->name);
		} else if (r->is_format) {
			if (f)
				snprintf(got, sizeof got, "%d:%llx", f->field,
					 (unsigned long long)f->mask);
			TAP_EQ_STR(str(f ? got : NULL), r->want, "line %d: %s format '%s'", r->line,
				   r->pmu, r->name);
		} else {
			TAP_EQ_STR(str(e ? e->terms : NULL), r->want, "line %d: %s event '%s'", r->line,
				   r->pmu, r->name);
		}
		sysfs_pmu_free(&p);
	}
}

/* caps/: Arm's "0x%08x" files, x86's decimal ones, absent (-1) and garbage (-1). */
static const struct caps_row {
	int line;
	const char *tree, *pmu;
	long long slots, bus_slots, bus_width, threshold_max, branches;
} caps_rows[] = {
	{ __LINE__, "n1-server", "armv8_pmuv3_0", 0, 0, 0, -1, -1 },
	{ __LINE__, "qemu-a57", "armv8_pmuv3", 0, 0, 0, -1, -1 },
	{ __LINE__, "x86-host", "cpu", -1, -1, -1, -1, 32 },
	{ __LINE__, "n1-server", "software", -1, -1, -1, -1, -1 },
	{ __LINE__, "broken", "good_after_bad", -1, 0, 0, -1, -1 },
};

static void test_caps(void)
{
	size_t i;

	for (i = 0; i < sizeof caps_rows / sizeof caps_rows[0]; i++) {
		const struct caps_row *r = &caps_rows[i];
		const struct sysfs_caps *caps;
		struct sysfs_pmu p;

		use_tree(r->tree);
		if (!tap_ok(sysfs_pmu_load(r->pmu, &p) == PP_OK, "line %d: load %s", r->line,
			    r->pmu))
			continue;
		caps = sysfs_pmu_caps(&p);
		TAP_EQ_INT(caps->slots, r->slots, "line %d: %s slots", r->line, r->pmu);
		TAP_EQ_INT(caps->bus_slots, r->bus_slots, "line %d: %s bus_slots", r->line, r->pmu);
		TAP_EQ_INT(caps->bus_width, r->bus_width, "line %d: %s bus_width", r->line, r->pmu);
		TAP_EQ_INT(caps->threshold_max, r->threshold_max, "line %d: %s threshold_max",
			   r->line, r->pmu);
		TAP_EQ_INT(caps->branches, r->branches, "line %d: %s branches", r->line, r->pmu);
		sysfs_pmu_free(&p);
	}
}

/* Cpu lists in the kernel's format. */
static const struct cpulist_row {
	int line;
	const char *text;
	pp_status st;
	int n, first, last;
} cpulist_rows[] = {
	{ __LINE__, "0-3,8,10-11", PP_OK, 7, 0, 11 },
	{ __LINE__, "0-79\n", PP_OK, 80, 0, 79 },
	{ __LINE__, "4-7", PP_OK, 4, 4, 7 },
	{ __LINE__, "5", PP_OK, 1, 5, 5 },
	{ __LINE__, "8,0-3,2", PP_OK, 5, 0, 8 },
	{ __LINE__, "1023", PP_OK, 1, 1023, 1023 },
	{ __LINE__, "", PP_OK, 0, -1, -1 },
	{ __LINE__, "\n", PP_OK, 0, -1, -1 },
	{ __LINE__, "1024", PP_ERANGE, 0, -1, -1 },
	{ __LINE__, "0-99999999999999999999", PP_ERANGE, 0, -1, -1 },
	{ __LINE__, "3-1", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "0-", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "0,,1", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "0-3,x", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "-1", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "0 1", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "0-15:2/4", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "ff", PP_EINVAL, 0, -1, -1 },
	/* a malformed list is a syntax error whatever its numbers (not a range error that
	 * a message would word as "no such CPU") */
	{ __LINE__, "1024,x", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "5000-", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, "2000-1500", PP_EINVAL, 0, -1, -1 },
	{ __LINE__, " 1,3 \n", PP_OK, 2, 1, 3 },
	{ __LINE__, "3,1,2,1-3,1", PP_OK, 3, 1, 3 },
};

/* The cpu a range error names: the lowest at or above SYSFS_MAX_CPUS (1024). */
static const struct over_row {
	int line;
	const char *text;
	pp_status st;
	int over, n, first, last;	/* the cpus below 1024 it still gives */
} over_rows[] = {
	{ __LINE__, "0-3", PP_OK, -1, 4, 0, 3 },
	{ __LINE__, "5000", PP_ERANGE, 5000, 0, -1, -1 },
	{ __LINE__, "7,5000,2000", PP_ERANGE, 2000, 1, 7, 7 },
	{ __LINE__, "1000-1030", PP_ERANGE, 1024, 24, 1000, 1023 },
	{ __LINE__, "1024", PP_ERANGE, 1024, 0, -1, -1 },
	{ __LINE__, "3000-4000,1500,2", PP_ERANGE, 1500, 1, 2, 2 },
	{ __LINE__, "99999999999999999999", PP_ERANGE, INT_MAX, 0, -1, -1 },
	{ __LINE__, "2147483647", PP_ERANGE, INT_MAX, 0, -1, -1 },
	{ __LINE__, "5000,x", PP_EINVAL, -1, 0, -1, -1 },
	{ __LINE__, "", PP_OK, -1, 0, -1, -1 },
};

static void test_cpulist_over(void)
{
	size_t i;

	for (i = 0; i < sizeof over_rows / sizeof over_rows[0]; i++) {
		const struct over_row *r = &over_rows[i];
		int *cpus, n, over = -7;
		pp_status st = sysfs_parse_cpulist_over(r->text, &cpus, &n, &over);

		TAP_EQ_INT(st, r->st, "line %d: cpulist '%s': status", r->line, r->text);
		TAP_EQ_INT(over, r->over, "line %d: cpulist '%s': the cpu out of range", r->line,
			   r->text);
		TAP_EQ_INT(n, r->n, "line %d: cpulist '%s': count", r->line, r->text);
		if (n > 0) {
			TAP_EQ_INT(cpus[0], r->first, "line %d: cpulist '%s': first", r->line,
				   r->text);
			TAP_EQ_INT(cpus[n - 1], r->last, "line %d: cpulist '%s': last", r->line,
				   r->text);
		}
		free(cpus);
	}
}

static void test_cpulist(void)
{
	size_t i;

	for (i = 0; i < sizeof cpulist_rows / sizeof cpulist_rows[0]; i++) {
		const struct cpulist_row *r = &cpulist_rows[i];
		int *cpus = (int *)&i, n = -1;	/* poisoned: must be reset */
		pp_status st = sysfs_parse_cpulist(r->text, &cpus, &n);

		TAP_EQ_INT(st, r->st, "line %d: cpulist '%s': status", r->line, esc(r->text));
		if (st != PP_OK) {
			tap_ok(cpus == NULL && n == 0, "line %d: cpulist '%s': empty on error",
			       r->line, esc(r->text));
			continue;
		}
		TAP_EQ_INT(n, r->n, "line %d: cpulist '%s': count", r->line, esc(r->text));
		if (n > 0) {
			TAP_EQ_INT(cpus[0], r->first, "line %d: cpulist '%s': first", r->line,
				   esc(r->text));
			TAP_EQ_INT(cpus[n - 1], r->last, "line %d: cpulist '%s': last", r->line,
				   esc(r->text));
		}
		free(cpus);
	}
}

/* Machine facts main and `pmuprof info` read through the module. */
static const struct file_row {
	int line;
	const char *tree, *path;
	int is_num;
	pp_status st;
	long long num;
	const char *str;
} file_rows[] = {
	{ __LINE__, "n1-server", "/proc/sys/kernel/perf_event_paranoid", 1, PP_OK, 2, NULL },
	{ __LINE__, "qemu-a57", "/proc/sys/kernel/perf_event_paranoid", 1, PP_OK, 3, NULL },
	{ __LINE__, "qemu-a57", "/proc/sys/kernel/perf_user_access", 1, PP_OK, 0, NULL },
	{ __LINE__, "qemu-a57", "/proc/sys/kernel/nmi_watchdog", 1, PP_OK, 0, NULL },
	{ __LINE__, "qemu-a57", "/proc/sys/kernel/osrelease", 0, PP_OK, 0, "6.1.0-56-arm64" },
	{ __LINE__, "qemu-a57", "/sys/bus/event_source/devices/armv8_pmuv3/caps/slots", 1, PP_OK,
	  0, NULL },
	{ __LINE__, "rk3399-cpuinfo", "/proc/sys/kernel/perf_user_access", 1, PP_ENOENT, 0, NULL },
	{ __LINE__, "broken", "/proc/sys/kernel/perf_event_paranoid", 1, PP_EINVAL, 0, NULL },
	{ __LINE__, "broken", "/proc/sys/kernel/osrelease", 0, PP_ERANGE, 0, "" },
	{ __LINE__, "broken", "/sys/bus/event_source/devices/dir_type/type", 0, PP_EINVAL, 0, "" },
	{ __LINE__, "broken", "proc/sys/kernel/osrelease", 0, PP_EINVAL, 0, "" },
	{ __LINE__, "x86-host", "/proc/sys/kernel/osrelease", 0, PP_OK, 0, "6.1.0-18-amd64" },
};

static void test_files(void)
{
	size_t i;

	for (i = 0; i < sizeof file_rows / sizeof file_rows[0]; i++) {
		const struct file_row *r = &file_rows[i];
		char buf[256] = "unset";
		long long v = -12345;
		pp_status st;

		use_tree(r->tree);
		st = r->is_num ? sysfs_read_ll(r->path, &v) : sysfs_read_str(r->path, buf, sizeof buf);
		TAP_EQ_INT(st, r->st, "line %d: read %s%s: status", r->line, r->tree, r->path);
		if (r->is_num && st == PP_OK)
			TAP_EQ_INT(v, r->num, "line %d: read %s%s", r->line, r->tree, r->path);
		if (!r->is_num)
			TAP_EQ_STR(str(buf), r->str, "line %d: read %s%s", r->line, r->tree, r->path);
	}
}

/* Host facts: model name (x86 only: arm64 /proc/cpuinfo has none) and possible CPUs. */
static const struct host_row {
	int line;
	const char *tree;
	int ncpus;
	pp_status model_st;
	const char *model;
} host_rows[] = {
	{ __LINE__, "n1-server", 80, PP_ENOENT, "" },
	{ __LINE__, "phone-a55-a76", 8, PP_ENOENT, "" },
	{ __LINE__, "qemu-a57", 1, PP_ENOENT, "" },
	{ __LINE__, "rk3399-cpuinfo", 6, PP_ENOENT, "" },
	{ __LINE__, "x86-host", 4, PP_OK, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz" },
	{ __LINE__, "broken", 4, PP_ENOENT, "" },	/* "0-": counted from cpuN dirs */
	{ __LINE__, "no-such-tree", 0, PP_ENOENT, "" },
};

static void test_host(void)
{
	size_t i;
	char small[8];

	for (i = 0; i < sizeof host_rows / sizeof host_rows[0]; i++) {
		const struct host_row *r = &host_rows[i];
		char buf[128];

		use_tree(r->tree);
		TAP_EQ_INT(sysfs_ncpus(), r->ncpus, "line %d: ncpus of %s", r->line, r->tree);
		TAP_EQ_INT(sysfs_cpu_model(buf, sizeof buf), r->model_st,
			   "line %d: model of %s: status", r->line, r->tree);
		TAP_EQ_STR(str(buf), r->model, "line %d: model of %s", r->line, r->tree);
	}
	use_tree("x86-host");
	TAP_EQ_INT(sysfs_cpu_model(small, sizeof small), PP_ERANGE, "line %d: model too long",
		   __LINE__);
}

/* Which PMU serves a CPU on big.LITTLE. */
static const struct cover_row {
	int line;
	const char *tree, *pmu;
	int cpu, covers;
} cover_rows[] = {
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a55", 0, 1 },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a55", 4, 0 },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a76", 7, 1 },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a76", 8, 0 },
	{ __LINE__, "phone-a55-a76", "armv8_cortex_a76", -1, 0 },
	{ __LINE__, "x86-host", "cpu", 3, 1 },	/* no cpus file: every CPU */
};

static void test_cover(void)
{
	size_t i;

	for (i = 0; i < sizeof cover_rows / sizeof cover_rows[0]; i++) {
		const struct cover_row *r = &cover_rows[i];
		struct sysfs_pmu p;

		use_tree(r->tree);
		if (!tap_ok(sysfs_pmu_load(r->pmu, &p) == PP_OK, "line %d: load %s", r->line,
			    r->pmu))
			continue;
		TAP_EQ_INT(sysfs_pmu_has_cpu(&p, r->cpu), r->covers, "line %d: %s covers cpu%d",
			   r->line, r->pmu, r->cpu);
		sysfs_pmu_free(&p);
	}
}

static void test_root_and_status(void)
{
	char root[PATH_MAX + 64], buf[64];

	snprintf(root, sizeof root, "%s/qemu-a57///", fixtures);
	sysfs_set_root(root);
	TAP_EQ_INT(sysfs_read_str("/proc/sys/kernel/osrelease", buf, sizeof buf), PP_OK,
		   "line %d: trailing slashes on the root are dropped", __LINE__);
	tap_ok(sysfs_root()[strlen(sysfs_root()) - 1] != '/', "line %d: root '%s' has no '/' at end",
	       __LINE__, sysfs_root());
	sysfs_set_root("/");
	TAP_EQ_STR(sysfs_root(), "", "line %d: '/' is the real root", __LINE__);
	sysfs_set_root(NULL);
	TAP_EQ_STR(sysfs_root(), "", "line %d: NULL is the real root", __LINE__);
	TAP_EQ_STR(pp_strstatus(PP_ENOENT), "not found", "line %d: strstatus", __LINE__);
	TAP_EQ_STR(pp_strstatus(PP_ERANGE), "value out of range", "line %d: strstatus", __LINE__);
	TAP_EQ_STR(pp_strstatus((pp_status)999), "unknown error", "line %d: strstatus", __LINE__);
	TAP_EQ_INT(sysfs_format_apply(NULL, 1, NULL), PP_EINVAL, "line %d: apply NULL", __LINE__);
}

/* A big directory: a PMU with 300 events/ entries of 40-byte names has them all listed,
 * sorted. */
static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *const big_dirs[] = {
	"sys", "sys/bus", "sys/bus/event_source", "sys/bus/event_source/devices",
	"sys/bus/event_source/devices/big", "sys/bus/event_source/devices/big/events",
};
#define BIG_PMU "sys/bus/event_source/devices/big"

static void test_big_dir(void)
{
	char root[] = "/tmp/pmuprof-test-sysfs-XXXXXX", path[PATH_MAX];
	const struct sysfs_event *e;
	struct sysfs_pmu p;
	size_t nd = sizeof big_dirs / sizeof big_dirs[0];
	pp_status st;

	if (!mkdtemp(root)) {
		TAP_EQ_INT(0, 1, "big events/: a temporary tree (mkdtemp)");
		return;
	}
	for (size_t k = 0; k < nd; k++) {
		snprintf(path, sizeof path, "%s/%s", root, big_dirs[k]);
		mkdir(path, 0700);
	}
	snprintf(path, sizeof path, "%s/" BIG_PMU "/type", root);
	write_file(path, "42\n");
	for (int k = 0; k < 300; k++) {
		snprintf(path, sizeof path, "%s/" BIG_PMU "/events/event_%03d_with_a_long_name_xx",
			 root, k);
		write_file(path, "event=0x11\n");
	}
	sysfs_set_root(root);
	st = sysfs_pmu_load("big", &p);
	TAP_EQ_INT(st, PP_OK, "big events/: the PMU loads");
	if (st == PP_OK) {
		TAP_EQ_INT(sysfs_event_listed(&p), 300, "big events/: every entry listed");
		TAP_EQ_STR(str(p.events[0].name), "event_000_with_a_long_name_xx", "big events/: first");
		TAP_EQ_STR(str(p.events[299].name), "event_299_with_a_long_name_xx", "big events/: last");
		e = sysfs_event_find(&p, "event_150_with_a_long_name_xx");
		TAP_EQ_STR(e ? e->terms : "not found", "event=0x11",
			   "big events/: one in the middle is read");
		sysfs_pmu_free(&p);
	}
	sysfs_set_root(NULL);
	for (int k = 0; k < 300; k++) {
		snprintf(path, sizeof path, "%s/" BIG_PMU "/events/event_%03d_with_a_long_name_xx",
			 root, k);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/" BIG_PMU "/type", root);
	unlink(path);
	for (size_t k = nd; k-- > 0;) {
		snprintf(path, sizeof path, "%s/%s", root, big_dirs[k]);
		rmdir(path);
	}
	rmdir(root);
}

/* sysfs_parse_decimal takes a word strtoll reads whole, with no space or '+' first, on edge
 * cases and on random strings of digits, signs and letters. */
static void test_parse_decimal(void)
{
	char buf[32];
	unsigned seed = 12345;
	int bad = 0;

	for (int r = 0; r < 40000; r++) {
		const char *words[] = { "", "-", "--5", "-0", "0", "12", "-12", "1x", "9223372036854775807",
					"9223372036854775808", "-9223372036854775808",
					"-9223372036854775809", "007", "5 " };
		long long got = 0, want;
		char *end;
		int ok, wok;

		if (r < (int)(sizeof(words) / sizeof(words[0]))) {
			strcpy(buf, words[r]);
		} else {
			size_t len = (seed = seed * 1103515245 + 12345) % 22;

			for (size_t i = 0; i < len; i++)
				buf[i] = "0123456789-9x"[((seed = seed * 1103515245 + 12345) >> 8) % 13];
			buf[len] = '\0';
		}
		errno = 0;
		want = strtoll(buf, &end, 10);
		wok = *buf && *buf != '+' && *buf != ' ' && !*end && errno != ERANGE &&
		      end != buf && !(buf[0] == '-' && !buf[1]);
		ok = sysfs_parse_decimal(buf, &got) == 0;
		if (ok != wok || (ok && got != want)) {
			printf("# '%s': %s %lld, strtoll %s %lld\n", buf, ok ? "took" : "refused", got,
			       wok ? "took" : "refused", want);
			bad++;
		}
	}
	tap_ok(bad == 0, "sysfs_parse_decimal takes the words strtoll reads whole (%d differ)", bad);
}

/* The cache of the counters' probes (sysfs_cache.c), written by sysfs_cache_add_probe as a run
 * writes it after a probe: read back for the same PMU, appended to for this boot and root,
 * replaced for another boot, never used for another PMU type; PMUPROF_CACHE=off turns both
 * ways off. */
static void probe_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

static void test_probe_cache(void)
{
	char dir[] = "/tmp/pmuprof-test-cache-XXXXXX", path[PATH_MAX], want[PATH_MAX + 256],
	     have[PATH_MAX + 256], cache[PATH_MAX];
	struct sysfs_pmu p = { .name = "armv8_pmuv3", .type = 8 };
	struct sysfs_probed pr, a = { .general = 5, .cycle = 1, .icntr = -1, .probe_us = 1875 },
			       b = { .general = 4, .cycle = 0, .icntr = -1, .task = 1, .probe_us = 2000 };
	const char *const dirs[] = { "root", "root/proc", "root/proc/sys", "root/proc/sys/kernel",
				     "root/proc/sys/kernel/random", "xdg" };

	if (!mkdtemp(dir)) {
		TAP_EQ_INT(0, 1, "probe cache: a temporary tree (mkdtemp)");
		return;
	}
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, dirs[k]);
		mkdir(path, 0700);
	}
	snprintf(path, sizeof path, "%s/root/proc/sys/kernel/random/boot_id", dir);
	write_file(path, "boot-1\n");
	snprintf(path, sizeof path, "%s/xdg", dir);
	setenv("XDG_CACHE_HOME", path, 1);
	unsetenv("PMUPROF_CACHE");
	snprintf(path, sizeof path, "%s/root", dir);
	sysfs_set_root(path);
	snprintf(cache, sizeof cache, "%s/xdg/pmuprof/counters", dir);
	TAP_EQ_INT(sysfs_cache_path(path, sizeof path), PP_OK, "probe cache: it has a path");
	TAP_EQ_STR(str(path), cache, "probe cache: under XDG_CACHE_HOME/pmuprof");
	TAP_EQ_INT(sysfs_cache_probe(&p, &pr), -1, "probe cache: none before a probe");

	sysfs_cache_add_probe(&p, &a);
	snprintf(want, sizeof want, "pmuprof-counters 1\nroot %s/root\nboot boot-1\n"
		 "cap armv8_pmuv3 8 5 1 -1 cpu 1875\n", dir);
	probe_file(cache, have, sizeof have);
	TAP_EQ_STR(str(have), want, "probe cache: the first probe makes the file");
	TAP_EQ_INT(sysfs_cache_probe(&p, &pr), 0, "probe cache: it answers for the PMU");
	tap_ok(pr.general == 5 && pr.cycle == 1 && pr.icntr == -1 && !pr.task &&
	       pr.probe_us == 1875, "probe cache: with what was probed");
	sysfs_cache_add_probe(&p, &b);
	probe_file(cache, have, sizeof have);
	tap_ok(strlen(have) > strlen(want) && !strncmp(have, want, strlen(want)) &&
	       !strcmp(have + strlen(want), "cap armv8_pmuv3 8 4 0 -1 task 2000\n"),
	       "probe cache: a later probe is appended");
	TAP_EQ_INT(sysfs_cache_probe(&p, &pr), 0, "probe cache: the last probe answers");
	tap_ok(pr.general == 4 && pr.task, "probe cache: with its values");
	p.type = 9;
	TAP_EQ_INT(sysfs_cache_probe(&p, &pr), -1, "probe cache: not for another type");
	p.type = 8;

	snprintf(path, sizeof path, "%s/root/proc/sys/kernel/random/boot_id", dir);
	write_file(path, "boot-2\n");
	snprintf(path, sizeof path, "%s/root", dir);
	sysfs_set_root(path);	/* forgets the boot_id read */
	TAP_EQ_INT(sysfs_cache_probe(&p, &pr), -1, "probe cache: not for another boot");
	sysfs_cache_add_probe(&p, &a);
	snprintf(want, sizeof want, "pmuprof-counters 1\nroot %s/root\nboot boot-2\n"
		 "cap armv8_pmuv3 8 5 1 -1 cpu 1875\n", dir);
	probe_file(cache, have, sizeof have);
	TAP_EQ_STR(str(have), want, "probe cache: another boot's file is replaced");

	setenv("PMUPROF_CACHE", "off", 1);
	TAP_EQ_INT(sysfs_cache_path(path, sizeof path), PP_ENOTSUP, "probe cache: off, no path");
	TAP_EQ_INT(sysfs_cache_probe(&p, &pr), -1, "probe cache: off, not read");
	sysfs_cache_add_probe(&p, &b);
	probe_file(cache, have, sizeof have);
	TAP_EQ_STR(str(have), want, "probe cache: off, not written");
	unsetenv("PMUPROF_CACHE");

	sysfs_set_root(NULL);
	unlink(cache);
	snprintf(path, sizeof path, "%s/root/proc/sys/kernel/random/boot_id", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/xdg/pmuprof", dir);
	rmdir(path);
	for (size_t k = sizeof dirs / sizeof dirs[0]; k-- > 0;) {
		snprintf(path, sizeof path, "%s/%s", dir, dirs[k]);
		rmdir(path);
	}
	rmdir(dir);
}

int main(void)
{
	const char *env = getenv("PMUPROF_FIXTURES");

	snprintf(fixtures, sizeof fixtures, "%s", env && *env ? env : "tests/fixtures");
	test_pmu_load();
	test_arm_pmus();
	test_formats_on_use();
	test_midr();
	test_format_parse();
	test_format_apply();
	test_lookup();
	test_caps();
	test_cpulist();
	test_cpulist_over();
	test_files();
	test_host();
	test_cover();
	test_root_and_status();
	test_big_dir();
	test_probe_cache();
	test_parse_decimal();
	return tap_done();
}
