/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_evtab.c: lookups in the generated event tables (names, codes, cores, MIDRs). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "evtab.h"
#include "tap.h"

static const struct {
	int line;
	const char *core;	/* NULL: common events */
	const char *name;	/* as a user types it */
	const char *want;	/* canonical name, NULL: must not be found */
	unsigned code;
	int cls;
} names[] = {
	{ __LINE__, NULL, "inst_retired", "INST_RETIRED", 0x0008, EVTAB_ARCH },
	{ __LINE__, NULL, "INST_RETIRED", "INST_RETIRED", 0x0008, EVTAB_ARCH },
	{ __LINE__, NULL, "Cpu_Cycles", "CPU_CYCLES", 0x0011, EVTAB_UARCH },
	{ __LINE__, NULL, "l1d_cache_refill", "L1D_CACHE_REFILL", 0x0003, EVTAB_UARCH },
	{ __LINE__, NULL, "stall_backend", "STALL_BACKEND", 0x0024, EVTAB_UARCH },
	{ __LINE__, NULL, "sample_pop", "SAMPLE_POP", 0x4000, EVTAB_UARCH },
	{ __LINE__, NULL, "stall_slot", "STALL_SLOT", 0x003f, EVTAB_UARCH },
	{ __LINE__, NULL, "sve_inst_spec", "SVE_INST_SPEC", 0x8006, EVTAB_UARCH },
	{ __LINE__, NULL, "br_retired", "BR_RETIRED", 0x0021, EVTAB_ARCH },
	{ __LINE__, NULL, "inst_retird", NULL, 0, 0 },
	{ __LINE__, NULL, "", NULL, 0, 0 },
	{ __LINE__, NULL, "l1d_cache_rd", NULL, 0, 0 },	/* 0x40: not a common event */
	{ __LINE__, "neoverse-n1", "l1d_cache_rd", "L1D_CACHE_RD", 0x0040, EVTAB_IMPDEF },
	{ __LINE__, "neoverse-n1", "INST_RETIRED", "INST_RETIRED", 0x0008, EVTAB_ARCH },
	{ __LINE__, "neoverse-n1", "stall_slot", NULL, 0, 0 },	/* v8.2 core: no STALL_SLOT */
	{ __LINE__, "cortex-a53", "cpu_cycles", "CPU_CYCLES", 0x0011, EVTAB_UARCH },
	{ __LINE__, "cortex-a53", "bus_access_rd", "BUS_ACCESS_RD", 0x0060, EVTAB_IMPDEF },
	{ __LINE__, "cortex-a57", "l2d_cache_wb_victim", "L2D_CACHE_WB_VICTIM", 0x0056, EVTAB_IMPDEF },
	{ __LINE__, "cortex-a55", "stall_frontend_tlb", "STALL_FRONTEND_TLB", 0x00e2, EVTAB_IMPDEF },
	{ __LINE__, "neoverse-v3", "stall_frontend_tlb", "STALL_FRONTEND_TLB", 0x815c, EVTAB_UARCH },
	{ __LINE__, "cortex-x4", "l1i_cache_hit", "L1I_CACHE_HIT", 0x8200, EVTAB_IMPDEF },
	{ __LINE__, "cortex-a520", "bus_req_rd", "BUS_REQ_RD", 0x818d, EVTAB_IMPDEF },
	/* implementation-defined events belong to their core only */
	{ __LINE__, "cortex-a57", "l1i_cache_hit", NULL, 0, 0 },
	{ __LINE__, "cortex-a65", "ifu_ic_miss_wait", "IFU_IC_MISS_WAIT", 0x00d0, EVTAB_IMPDEF },
	{ __LINE__, "neoverse-n1", "ifu_ic_miss_wait", NULL, 0, 0 },
	{ __LINE__, NULL, "ifu_ic_miss_wait", NULL, 0, 0 },
	{ __LINE__, "rainier", "cap_ld_spec", "CAP_LD_SPEC", 0x0210, EVTAB_IMPDEF },
	{ __LINE__, "neoverse-v1", "cap_ld_spec", NULL, 0, 0 },
	{ __LINE__, NULL, "an_event_name_far_longer_than_any_name_the_tables_could_ever_hold_at_all", NULL,
	  0, 0 },
};

static const struct {
	int line;
	const char *core;
	unsigned code;
	const char *want;	/* NULL: not found */
} codes[] = {
	{ __LINE__, NULL, 0x0008, "INST_RETIRED" },
	{ __LINE__, NULL, 0x0000, "SW_INCR" },
	{ __LINE__, NULL, 0x4004, "CNT_CYCLES" },
	{ __LINE__, NULL, 0x0040, NULL },
	{ __LINE__, NULL, 0xffff, NULL },
	{ __LINE__, "neoverse-n1", 0x0040, "L1D_CACHE_RD" },
	{ __LINE__, "neoverse-n1", 0x0011, "CPU_CYCLES" },
	{ __LINE__, "cortex-a55", 0x00e2, "STALL_FRONTEND_TLB" },
	{ __LINE__, "cortex-a710", 0x00e2, NULL },
	{ __LINE__, "cortex-a57", 0x8200, NULL },
};

static const struct {
	int line;
	const char *name;
	const char *want;	/* canonical id, NULL: unknown */
} core_names[] = {
	{ __LINE__, "cortex-a57", "cortex-a57" },
	{ __LINE__, "Cortex-A57", "cortex-a57" },
	{ __LINE__, "a57", "cortex-a57" },
	{ __LINE__, "A57", "cortex-a57" },
	{ __LINE__, "cortex_a57", "cortex-a57" },
	{ __LINE__, "cortex a57", "cortex-a57" },
	{ __LINE__, "neoverse_n1", "neoverse-n1" },
	{ __LINE__, "Neoverse N1", "neoverse-n1" },
	{ __LINE__, "n1", "neoverse-n1" },
	{ __LINE__, "neoverse-v3ae", "neoverse-v3ae" },
	{ __LINE__, "x1c", "cortex-x1c" },
	{ __LINE__, "Cortex-A78C", "cortex-a78c" },
	{ __LINE__, "rainier", "rainier" },
	{ __LINE__, "r82", "cortex-r82" },
	{ __LINE__, "cortex-a9", NULL },	/* Armv7, PMUv2: not covered */
	{ __LINE__, "cortex-r52", NULL },	/* AArch32-only Armv8-R: not covered */
	{ __LINE__, "", NULL },
	{ __LINE__, "neoverse", NULL },
	{ __LINE__, "cortex-", NULL },
	/* --cpu-model CORE:rXpY: the core, when the revision is well formed */
	{ __LINE__, "neoverse-n2:r0p3", "neoverse-n2" },
	{ __LINE__, "N2:R1P0", "neoverse-n2" },
	{ __LINE__, "c1-pro:r1p2", "c1-pro" },
	{ __LINE__, "c1-sme2", "c1-sme2" },
	{ __LINE__, "neoverse-n2:", NULL },
	{ __LINE__, "neoverse-n2:r0", NULL },
	{ __LINE__, "neoverse-n2:r16p0", NULL },
	{ __LINE__, "neoverse-n2:r0p3x", NULL },
	{ __LINE__, "neoverse-n2:0p3", NULL },
};

static const struct {
	int line;
	const char *model;
	int want;
} revisions[] = {
	{ __LINE__, "neoverse-n2", -1 },
	{ __LINE__, "neoverse-n2:r0p3", 0x03 },
	{ __LINE__, "neoverse-n2:r1p2", 0x12 },
	{ __LINE__, "n2:R15P15", 0xff },
	{ __LINE__, "n2:r16p0", -2 },
	{ __LINE__, "n2:r0p", -2 },
	{ __LINE__, "n2:p0", -2 },
	{ __LINE__, "n2:", -2 },
};

static const struct {
	int line;
	unsigned long long midr;
	const char *want;
} midrs[] = {
	{ __LINE__, 0x410fd0c0, "neoverse-n1" },
	{ __LINE__, 0x413fd0c1, "neoverse-n1" },	/* r3p1: variant and revision ignored */
	{ __LINE__, 0x411fd070, "cortex-a57" },
	{ __LINE__, 0x410fd034, "cortex-a53" },
	{ __LINE__, 0x412fd050, "cortex-a55" },
	{ __LINE__, 0x410fd0b0, "cortex-a76" },
	{ __LINE__, 0x410fd4f0, "neoverse-v2" },
	{ __LINE__, 0x410fd8e0, "neoverse-n3" },
	{ __LINE__, 0x410fd820, "cortex-x4" },
	{ __LINE__, 0x410fd850, "cortex-x925" },
	{ __LINE__, 0x410fd870, "cortex-a725" },
	{ __LINE__, 0x3f0f4120, "rainier" },
	{ __LINE__, 0x6d0fd490, "neoverse-n2" },	/* Microsoft Cobalt 100: an alias */
	{ __LINE__, 0x6d0fd0c0, NULL },		/* the alias is for that part only */
	{ __LINE__, 0x420f1000, "cortex-a53" },	/* Broadcom Brahma-B53 (aliases.tsv) */
	{ __LINE__, 0x51df805e, "cortex-a55" },	/* Qualcomm Kryo 4xx Silver, rdpe */
	{ __LINE__, 0x410fd830, "neoverse-v3ae" },	/* its own core: only its metrics are V3's */
	{ __LINE__, 0x51cf804e, "cortex-a76" },	/* Kryo 4xx Gold rcpe: the A76's r0p0 */
	{ __LINE__, 0x51ff804f, "cortex-a76" },	/* rfpf, the last of its range */
	{ __LINE__, 0x51bf804f, NULL },		/* rbpf: before the range aliases.tsv gives */
	{ __LINE__, 0x410fd8c0, "c1-ultra" },
	{ __LINE__, 0x411fd8b2, "c1-pro" },		/* r1p2 */
	{ __LINE__, 0x410fd8a0, "c1-nano" },
	{ __LINE__, 0x410fd900, "c1-premium" },
	{ __LINE__, 0x410fd8d0, "c1-sme2" },
	{ __LINE__, 0x410fc090, NULL },		/* Cortex-A9 */
	{ __LINE__, 0x510f8000, NULL },		/* Qualcomm part, not in Arm's data */
	{ __LINE__, 0x0, NULL },
};

static const struct {
	int line;
	const char *core;
	int counters, slots;
	unsigned implementer, part;
	const char *arch;
} facts[] = {
	{ __LINE__, "neoverse-n1", 6, 5, 0x41, 0xd0c, "armv8.2-a" },
	{ __LINE__, "neoverse-v1", 6, 8, 0x41, 0xd40, "armv8.4-a" },
	{ __LINE__, "neoverse-v2", -1, 8, 0x41, 0xd4f, "armv9-a" },
	{ __LINE__, "neoverse-v3", -1, 10, 0x41, 0xd84, "armv9.2-a" },
	{ __LINE__, "cortex-a57", 6, 0, 0x41, 0xd07, "armv8-a" },
	{ __LINE__, "cortex-a510", -1, 0, 0x41, 0xd46, "armv9-a" },
	{ __LINE__, "cortex-r82", 6, 0, 0x41, 0xd15, "armv8.4-r" },
};

/* The core's id, or a marker that matches no id (keeps TAP_EQ_STR away from NULL). */
static const char *id_of(const struct evtab_core *c)
{
	return c ? evtab_core_name(c) : "(no core)";
}

static void test_names(void)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct evtab_core *c = names[i].core ? evtab_core_by_name(names[i].core) : NULL;
		const struct evtab_event *e;
		if (names[i].core && !tap_ok(c != NULL, "line %d: core %s exists", names[i].line,
					     names[i].core))
			continue;
		e = evtab_find_name(c, names[i].name);
		if (!names[i].want) {
			tap_ok(e == NULL, "line %d: '%s' not found for %s", names[i].line, names[i].name,
			       names[i].core ? names[i].core : "common");
			continue;
		}
		if (!tap_ok(e != NULL, "line %d: '%s' found", names[i].line, names[i].name))
			continue;
		TAP_EQ_STR(evtab_event_name(e), names[i].want, "line %d: name of '%s'", names[i].line,
			   names[i].name);
		TAP_EQ_INT(evtab_event_code(e), names[i].code, "line %d: code of %s", names[i].line,
			   names[i].want);
		TAP_EQ_INT(evtab_event_class(e), names[i].cls, "line %d: class of %s", names[i].line,
			   names[i].want);
		tap_ok(*evtab_event_desc(e), "line %d: %s has a description", names[i].line,
		       names[i].want);
	}
}

static void test_codes(void)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		const struct evtab_core *c = codes[i].core ? evtab_core_by_name(codes[i].core) : NULL;
		const struct evtab_event *e = evtab_find_code(c, codes[i].code);
		if (!codes[i].want)
			tap_ok(e == NULL, "line %d: code 0x%04x absent", codes[i].line, codes[i].code);
		else if (tap_ok(e != NULL, "line %d: code 0x%04x found", codes[i].line, codes[i].code))
			TAP_EQ_STR(evtab_event_name(e), codes[i].want, "line %d: name of 0x%04x",
				   codes[i].line, codes[i].code);
	}
}

static void test_core_names(void)
{
	for (size_t i = 0; i < sizeof(core_names) / sizeof(core_names[0]); i++) {
		const struct evtab_core *c = evtab_core_by_name(core_names[i].name);
		if (!core_names[i].want)
			tap_ok(c == NULL, "line %d: '%s' is no core", core_names[i].line, core_names[i].name);
		else
			TAP_EQ_STR(id_of(c), core_names[i].want, "line %d: core '%s'",
				   core_names[i].line, core_names[i].name);
	}
}

static void test_revisions(void)
{
	for (size_t i = 0; i < sizeof(revisions) / sizeof(revisions[0]); i++)
		TAP_EQ_INT(evtab_model_revision(revisions[i].model), revisions[i].want,
			   "line %d: revision of '%s'", revisions[i].line, revisions[i].model);
}

static void test_midrs(void)
{
	for (size_t i = 0; i < sizeof(midrs) / sizeof(midrs[0]); i++) {
		const struct evtab_core *c = evtab_core_by_midr(midrs[i].midr);
		if (!midrs[i].want)
			tap_ok(c == NULL, "line %d: MIDR 0x%llx unknown", midrs[i].line, midrs[i].midr);
		else
			TAP_EQ_STR(id_of(c), midrs[i].want, "line %d: MIDR 0x%llx",
				   midrs[i].line, midrs[i].midr);
	}
}

static void test_facts(void)
{
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct evtab_core *c = evtab_core_by_name(facts[i].core);
		if (!tap_ok(c != NULL, "line %d: core %s", facts[i].line, facts[i].core))
			continue;
		const char *id = evtab_core_name(c);
		TAP_EQ_INT(evtab_core_counters(c), facts[i].counters, "line %d: %s counters",
			   facts[i].line, id);
		TAP_EQ_INT(evtab_core_slots(c), facts[i].slots, "line %d: %s slots", facts[i].line, id);
		TAP_EQ_INT(evtab_core_implementer(c), facts[i].implementer, "line %d: %s implementer",
			   facts[i].line, id);
		TAP_EQ_INT(evtab_core_part(c), facts[i].part, "line %d: %s part", facts[i].line, id);
		TAP_EQ_STR(evtab_core_arch(c), facts[i].arch, "line %d: %s architecture",
			   facts[i].line, id);
	}
}

/* Into lower, name lower-cased ("" when it does not fit size); into longer, the same and an
 * 'X' after it. */
static void variants(const char *name, char *lower, char *longer, size_t size)
{
	size_t i;
	for (i = 0; name[i] && i + 2 < size; i++)
		lower[i] = longer[i] = (char)tolower((unsigned char)name[i]);
	lower[name[i] ? 0 : i] = '\0';
	longer[i] = 'X';
	longer[i + 1] = '\0';
}

/* Every core: sorted by id, sorted events, lookups agree with iteration (by the name in
 * either case; a name one character longer is none), titles resolve. */
static int check_core_tables(const struct evtab_core *c)
{
	size_t n = evtab_nevents(c);
	int ok = n > 0;
	for (size_t i = 0; ok && i < n; i++) {
		const struct evtab_event *e = evtab_event_at(c, i);
		const char *name = e ? evtab_event_name(e) : "?";
		char lower[80], longer[80];
		variants(name, lower, longer, sizeof(lower));
		ok = e && *name && *evtab_event_desc(e) && evtab_event_class(e) >= EVTAB_ARCH &&
		     evtab_event_class(e) <= EVTAB_IMPDEF && evtab_find_name(c, name) == e &&
		     *lower && evtab_find_name(c, lower) == e && !evtab_find_name(c, longer) &&
		     evtab_find_code(c, evtab_event_code(e)) == e &&
		     (i == 0 || strcmp(evtab_event_name(evtab_event_at(c, i - 1)), name) < 0);
		if (!ok)
			printf("# %s: event %zu (%s) breaks the tables\n",
			       c ? evtab_core_name(c) : "common", i, name);
	}
	return ok && evtab_event_at(c, n) == NULL;
}

static void test_all_cores(void)
{
	size_t n = evtab_ncores();
	tap_ok(n >= 35, "at least 35 cores (have %zu)", n);
	tap_ok(evtab_core_at(n) == NULL, "evtab_core_at(ncores) is NULL");
	tap_ok(check_core_tables(NULL), "common events: sorted, complete, lookups agree");
	tap_ok(evtab_nevents(NULL) >= 300, "common events: %zu", evtab_nevents(NULL));
	for (size_t i = 0; i < n; i++) {
		const struct evtab_core *c = evtab_core_at(i);
		const char *id = evtab_core_name(c);
		uint64_t midr = (uint64_t)evtab_core_implementer(c) << 24 |
				(uint64_t)evtab_core_part(c) << 4;
		tap_ok(check_core_tables(c), "%s: sorted, complete, lookups agree", id);
		tap_ok(evtab_core_by_name(evtab_core_title(c)) == c && evtab_core_by_name(id) == c &&
		       evtab_core_by_midr(midr) == c, "%s: found by title, id and MIDR", id);
		if (i > 0)
			tap_ok(strcmp(evtab_core_name(evtab_core_at(i - 1)), id) < 0,
			       "%s: cores sorted", id);
	}
}

/* events/aliases.tsv as the tables serve it: every row names a core, a known use, its name
 * and its source; the rows asked of the issue are there with their core and use. */
static void test_aliases(void)
{
	static const struct {
		int line;
		unsigned impl, part;
		const char *core, *use;
	} want[] = {
		{ __LINE__, 0x6d, 0xd49, "neoverse-n2", "midr" },	/* Cobalt 100 */
		{ __LINE__, 0x42, 0x100, "cortex-a53", "midr" },	/* Brahma-B53 */
		{ __LINE__, 0x41, 0xd83, "neoverse-v3", "metrics" },	/* V3AE */
		{ __LINE__, 0x41, 0xd0d, "cortex-a77", "same" },	/* Kryo 5xx Prime/Gold */
		{ __LINE__, 0x41, 0xd05, "cortex-a55", "same" },	/* Kryo 6xx Silver */
	};
	struct evtab_alias a;
	size_t i, n = evtab_nalias();

	tap_ok(n >= 5, "aliases.tsv has rows (%zu)", n);
	for (i = 0; i < n; i++) {
		tap_ok(evtab_alias_at(i, &a) == 0 && a.core && *a.name && *a.source &&
		       (!strcmp(a.use, "midr") || !strcmp(a.use, "same") || !strcmp(a.use, "metrics")) &&
		       a.rev_lo <= a.rev_hi, "row %zu (%s): core, use, name, source", i, a.name);
	}
	tap_ok(evtab_alias_at(n, &a) == -1, "no row past the last");
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		for (i = 0; evtab_alias_at(i, &a) == 0; i++)
			if (a.implementer == want[k].impl && a.part == want[k].part)
				break;
		tap_ok(i < n && !strcmp(evtab_core_name(a.core), want[k].core) &&
		       !strcmp(a.use, want[k].use), "line %d: 0x%02x/0x%03x is %s (%s)", want[k].line,
		       want[k].impl, want[k].part, want[k].core, want[k].use);
	}
}

int main(void)
{
	test_aliases();
	test_names();
	test_codes();
	test_core_names();
	test_midrs();
	test_revisions();
	test_facts();
	test_all_cores();
	return tap_done();
}
