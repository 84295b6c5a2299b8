/* SPDX-License-Identifier: Apache-2.0 */
/* test_pmreg.c: PMEVTYPER/PMCCFILTR values and their fields, counter kinds, the programming
 * sequence for a set of events, and threshold terms against fixture format/ and caps/. */
#include <stdio.h>
#include <string.h>

#include "filter.h"
#include "pmreg.h"
#include "sysfs.h"
#include "tap.h"

static void test_values(void)
{
	static const struct {
		uint16_t evt;
		unsigned filter;
		uint32_t th;
		unsigned tc;
		int cycle;
		uint64_t want;
		int line;
	} rows[] = {
		{ 0x08, 0, 0, 0, 0, 0x00000008, __LINE__ },
		{ 0x08, FILTER_P, 0, 0, 0, 0x80000008, __LINE__ },		/* :u */
		{ 0x08, FILTER_U | FILTER_NSH, 0, 0, 0, 0x48000008, __LINE__ },	/* :kh */
		{ 0x11, FILTER_P | FILTER_NSH, 0, 0, 1, 0x88000000, __LINE__ },	/* PMCCFILTR */
		{ 0x4004, FILTER_ALL, 0, 0, 0, 0xfd004004, __LINE__ },	/* every bit, not MT */
		{ 0x3f, 0, 2, 5, 0, 0xa00000020000003full, __LINE__ },	/* TH 2, TC ge+count */
		{ 0x3f, 0, 0, 5, 0, 0x3f, __LINE__ },	/* TC ignored without TH */
		{ 0x3f, FILTER_NSH, 0xfff, 7, 0, 0xe0000fff0800003full, __LINE__ },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct pmreg_event e = { .evt = rows[k].evt, .filter = rows[k].filter,
					 .th = rows[k].th, .tc = rows[k].tc };
		uint64_t v = pmreg_value(&e, rows[k].cycle);

		if (!tap_ok(v == rows[k].want, "value 0x%llx (line %d)", (unsigned long long)v,
			    rows[k].line))
			printf("#   want 0x%llx\n", (unsigned long long)rows[k].want);
		TAP_EQ_INT(pmreg_filter_bits(v), rows[k].filter, "filter bits back (line %d)",
			   rows[k].line);
	}
}

static void test_decode(void)
{
	struct pmreg_field f[16];
	size_t n = pmreg_decode(0xa00000028800003full, 0, 1, 1, f, 16);
	const char *names[] = { "evtCount", "P", "U", "NSK", "NSU", "NSH", "M", "MT", "SH", "TH",
				"TC" };
	const uint64_t values[] = { 0x3f, 1, 0, 0, 0, 1, 0, 0, 0, 2, 5 };

	TAP_EQ_INT(n, 11, "PMEVTYPER with TH decodes to 11 fields");
	for (size_t k = 0; k < n && k < 11; k++) {
		TAP_EQ_STR(f[k].name, names[k], "field %zu name", k);
		TAP_EQ_INT(f[k].value, values[k], "field %s value", names[k]);
	}
	n = pmreg_decode(0x3ff, 0, 0, 0, f, 16);
	TAP_EQ_INT(f[0].hi, 9, "evtCount is 9:0 before PMUv3p1");
	TAP_EQ_INT(n, 9, "evtCount and 8 filter fields, no TH/TC, without a threshold");
	n = pmreg_decode(0x88000000, 1, 5, 0, f, 16);
	TAP_EQ_STR(f[0].name, "P", "PMCCFILTR has no evtCount");
	TAP_EQ_INT(n, 8, "PMCCFILTR: P U NSK NSU NSH M MT SH");
	TAP_EQ_INT(pmreg_decode(0, 0, 1, 1, f, 3), 3, "decode stops at max");
}

static void test_kinds(void)
{
	static const struct {
		uint16_t evt;
		int is_long;
		uint32_t th;
		int pmuver;
		enum pmreg_kind want;
		int line;
	} rows[] = {
		{ 0x11, 0, 0, 1, PMREG_CYCLE, __LINE__ },
		{ 0x11, 1, 0, 0, PMREG_CYCLE, __LINE__ },	/* PMCCNTR is 64-bit anyway */
		{ 0x11, 0, 4, 8, PMREG_ANY, __LINE__ },		/* thresholded: not PMCCNTR */
		{ 0x08, 0, 0, 1, PMREG_ANY, __LINE__ },
		{ 0x08, 1, 0, 1, PMREG_CHAINED, __LINE__ },	/* long before PMUv3p5 */
		{ 0x08, 1, 0, 5, PMREG_ANY, __LINE__ },		/* 64-bit counters */
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct pmreg_event e = { .evt = rows[k].evt, .is_long = rows[k].is_long,
					 .th = rows[k].th };
		struct pmreg_pmu p = { .pmuver = rows[k].pmuver, .counters = 6, .direct = 1 };

		TAP_EQ_STR(pmreg_kind_str(pmreg_kind_of(&e, &p)), pmreg_kind_str(rows[k].want),
			   "kind of 0x%x long %d th %u on PMUv3p%d (line %d)", rows[k].evt,
			   rows[k].is_long, rows[k].th, rows[k].pmuver, rows[k].line);
	}
}

/* Writes as "REG=VALUE;" for one comparison. */
static const char *seq_str(const struct pmreg_seq *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < s->nwrites && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s=%llx;", s->writes[k].reg,
				      (unsigned long long)s->writes[k].value);
	return buf;
}

static void test_program(void)
{
	struct pmreg_event ev[] = {
		{ .evt = 0x11, .filter = FILTER_NSH },			/* cycles */
		{ .evt = 0x08, .filter = FILTER_P },			/* inst_retired:u */
		{ .evt = 0x04, .filter = FILTER_NSH, .is_long = 1 },	/* l1d_cache/long/ */
		{ .evt = 0x11, .filter = FILTER_NSH },			/* cycles again */
	};
	struct pmreg_pmu p = { .pmuver = 1, .counters = 6, .direct = 1 };
	struct pmreg_seq s;
	char buf[1024];

	if (!TAP_EQ_INT(pmreg_program(ev, 4, &p, &s), PP_OK, "program four events"))
		return;
	TAP_EQ_INT(s.slots[0].counter, 31, "cycles on PMCCNTR");
	TAP_EQ_INT(s.slots[1].counter, 0, "inst_retired on counter 0");
	TAP_EQ_INT(s.slots[2].counter, 3, "long event: odd counter 3");
	TAP_EQ_INT(s.slots[2].low, 2, "long event: even counter 2 holds the event");
	TAP_EQ_INT(s.slots[3].counter, 1, "second cycles: cycle counter taken, counter 1");
	TAP_EQ_INT(s.cntenset, 0x8000000f, "PMCNTENSET mask");
	TAP_EQ_INT(s.unplaced, 0, "all placed");
	TAP_EQ_STR(seq_str(&s, buf, sizeof(buf)),
		   "PMCR_EL0=46;"
		   "PMCNTENCLR_EL0=80000000;PMCCFILTR_EL0=8000000;PMINTENSET_EL1=80000000;"
		   "PMCNTENSET_EL0=80000000;"
		   "PMCNTENCLR_EL0=1;PMEVTYPER0_EL0=80000008;PMINTENSET_EL1=1;PMCNTENSET_EL0=1;"
		   "PMCNTENCLR_EL0=c;PMEVTYPER2_EL0=8000004;PMEVTYPER3_EL0=800001e;"
		   "PMINTENSET_EL1=8;PMCNTENSET_EL0=c;"
		   "PMCNTENCLR_EL0=2;PMEVTYPER1_EL0=8000011;PMINTENSET_EL1=2;PMCNTENSET_EL0=2;"
		   "PMCR_EL0=1;",
		   "the whole sequence, direct PMEVTYPER<n> writes");
	pmreg_seq_free(&s);

	p.direct = 0;
	p.pmuver = 5;
	pmreg_program(ev, 2, &p, &s);
	TAP_EQ_STR(seq_str(&s, buf, sizeof(buf)),
		   "PMCR_EL0=c6;"
		   "PMCNTENCLR_EL0=80000000;PMSELR_EL0=1f;PMXEVTYPER_EL0=8000000;"
		   "PMINTENSET_EL1=80000000;PMCNTENSET_EL0=80000000;"
		   "PMCNTENCLR_EL0=1;PMSELR_EL0=0;PMXEVTYPER_EL0=80000008;PMINTENSET_EL1=1;"
		   "PMCNTENSET_EL0=1;PMCR_EL0=1;",
		   "before 5.11: PMSELR + PMXEVTYPER; PMUv3p5 adds PMCR.LP at reset");
	pmreg_seq_free(&s);

	{
		struct pmreg_event many[8];

		for (int k = 0; k < 8; k++)
			many[k] = (struct pmreg_event){ .evt = 0x08 };
		p.direct = 1;
		pmreg_program(many, 8, &p, &s);
		TAP_EQ_INT(s.unplaced, 2, "eight events on six counters: two left to rotate");
		TAP_EQ_INT(s.slots[7].counter, -1, "the eighth has no counter");
		pmreg_seq_free(&s);
	}
}

static void test_versions(void)
{
	TAP_EQ_INT(pmreg_pmuver_for_arch("armv8-a"), 0, "Armv8.0: PMUv3");
	TAP_EQ_INT(pmreg_pmuver_for_arch("armv8.2-a"), 1, "Armv8.2: PMUv3p1");
	TAP_EQ_INT(pmreg_pmuver_for_arch("armv9-a"), 5, "Armv9.0: PMUv3p5");
	TAP_EQ_INT(pmreg_pmuver_for_arch("armv9.3-a"), 8, "Armv9.3: PMUv3p8 (threshold)");
	TAP_EQ_INT(pmreg_pmuver_for_arch("x86-64"), -1, "unknown arch");
	TAP_EQ_INT(pmreg_direct_for_release("5.10.0-28-arm64"), 0, "5.10: PMSELR+PMXEVTYPER");
	TAP_EQ_INT(pmreg_direct_for_release("5.11.0"), 1, "5.11: PMEVTYPER<n>");
	TAP_EQ_INT(pmreg_direct_for_release("6.1.0-56-arm64"), 1, "6.1: PMEVTYPER<n>");
	TAP_EQ_INT(pmreg_direct_for_release("4.19.0"), 0, "4.19: PMSELR+PMXEVTYPER");
}

static void test_threshold(void)
{
	static const struct {
		const char *root, *terms;
		pp_status st;
		uint64_t config1;
		uint32_t th;
		unsigned tc;
		const char *why;
		int line;
	} rows[] = {
		{ "th-255", "threshold=2,threshold_compare=ge,threshold_count", PP_OK, 0x54, 2, 5, "",
		  __LINE__ },
		{ "th-255", "threshold=10,threshold_compare=lt", PP_OK, 10 << 5 | 3 << 3, 10, 6, "",
		  __LINE__ },
		{ "th-255", "threshold=255,threshold_compare=1", PP_OK, 255 << 5 | 1 << 3, 255, 2, "",
		  __LINE__ },
		{ "th-255", "threshold=256", PP_ERANGE, 0, 0, 0, "threshold_max of PMU 'armv8_pmuv3', 255", __LINE__ },
		{ "th-255", "threshold_compare=eq", PP_EINVAL, 0, 0, 0, "need threshold=N", __LINE__ },
		{ "th-255", "threshold=0,threshold_count", PP_EINVAL, 0, 0, 0, "threshold 0 disables",
		  __LINE__ },
		{ "th-0", "threshold=1", PP_ENOTSUP, 0, 0, 0, "no FEAT_PMUv3_TH", __LINE__ },
		{ "../qemu-a57", "threshold=1", PP_ENOTSUP, 0, 0, 0,
		  "this PMU's kernel offers no threshold counting", __LINE__ },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		char root[128], buf[128], why[256], *save = NULL;
		struct pmreg_th_req r = { 0 };
		struct sysfs_pmu pmu;
		uint64_t cfg[4] = { 0 };
		uint32_t th;
		unsigned tc;
		pp_status st;

		snprintf(root, sizeof(root), "tests/fixtures/filter/%s", rows[k].root);
		sysfs_set_root(root);
		if (!TAP_EQ_INT(sysfs_pmu_load("armv8_pmuv3", &pmu), PP_OK, "load PMU in %s (line %d)",
				rows[k].root, rows[k].line))
			continue;
		snprintf(buf, sizeof(buf), "%s", rows[k].terms);
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(t, '=');

			if (eq)
				*eq++ = '\0';
			pmreg_th_term(t, eq, &r);
		}
		st = pmreg_th_apply(&pmu, &r, cfg, why, sizeof(why));
		TAP_EQ_INT(st, rows[k].st, "%s on %s: status (line %d)", rows[k].terms, rows[k].root,
			   rows[k].line);
		if (!tap_ok(strstr(why, rows[k].why) != NULL, "%s: message (line %d)", rows[k].terms,
			    rows[k].line))
			printf("#   got '%s'\n", why);
		if (st == PP_OK) {
			TAP_EQ_INT(cfg[1], rows[k].config1, "%s: config1 (line %d)", rows[k].terms,
				   rows[k].line);
			pmreg_th_extract(&pmu, cfg, &th, &tc);
			TAP_EQ_INT(th, rows[k].th, "TH back from config1 (line %d)", rows[k].line);
			TAP_EQ_INT(tc, rows[k].tc, "TC back from config1 (line %d)", rows[k].line);
		}
		sysfs_pmu_free(&pmu);
	}
	sysfs_set_root(NULL);
}

static void test_th_terms(void)
{
	struct pmreg_th_req r = { 0 };

	TAP_EQ_INT(pmreg_th_term("event", "0x8", &r), PP_ENOENT, "event is not a threshold term");
	TAP_EQ_INT(pmreg_th_term("threshold_compare", "gt", &r), PP_EINVAL, "gt is no comparison");
	TAP_EQ_INT(pmreg_th_term("threshold_compare", "4", &r), PP_EINVAL, "compare 4 too big");
	TAP_EQ_INT(pmreg_th_term("threshold_count", "2", &r), PP_EINVAL, "count is 0 or 1");
	TAP_EQ_INT(pmreg_th_term("threshold", "x", &r), PP_EINVAL, "threshold is a number");
	TAP_EQ_INT(pmreg_th_term("THRESHOLD_COMPARE", "NE", &r), PP_OK, "names, any case");
	TAP_EQ_INT(r.compare, 0, "ne is 0");
	TAP_EQ_STR(pmreg_th_compare_str(2), "ge", "2 is ge");
}

int main(void)
{
	test_values();
	test_decode();
	test_kinds();
	test_program();
	test_versions();
	test_threshold();
	test_th_terms();
	return tap_done();
}
