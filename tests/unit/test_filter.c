/* SPDX-License-Identifier: Apache-2.0 */
/* test_filter.c: the filter module against the Arm ARM's CountPMUEvents table (all 128
 * combinations of P U NSK NSU NSH M SH, three implementation models), perf's modifier letters
 * through evspec_parse + resolve_event, attr -> bits -> register -> bits round trips, refused
 * requests and their messages, and where the kernel's EL is detected from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evspec.h"
#include "filter.h"
#include "pmreg.h"
#include "resolve.h"
#include "sysfs.h"
#include "tap.h"

/* Expected rows, generated once from the table in ../shared/notes/arm-pmu-linux.md by a
 * separate script (not this code): bits in the order P U NSK NSU NSH M SH; where-it-counts in
 * the order NS-EL0 NS-EL1 NS-EL2 S-EL0 S-EL1 S-EL2 EL3 ('1' counts, '0' filtered, '-' level
 * absent), for a PE with EL3 and Secure EL2, with neither, and with EL3 but no Secure EL2. */
static const struct {
	const char *bits, *full, *noel3, *nosel2;
	int line;
} table[128] = {
	{ "0000000", "1101101", "110----", "11011-1", __LINE__ },
	{ "0000001", "1101111", "110----", "11011-1", __LINE__ },
	{ "0000010", "1101100", "110----", "11011-0", __LINE__ },
	{ "0000011", "1101110", "110----", "11011-0", __LINE__ },
	{ "0000100", "1111111", "111----", "11111-1", __LINE__ },
	{ "0000101", "1111101", "111----", "11111-1", __LINE__ },
	{ "0000110", "1111110", "111----", "11111-0", __LINE__ },
	{ "0000111", "1111100", "111----", "11111-0", __LINE__ },
	{ "0001000", "0101101", "110----", "01011-1", __LINE__ },
	{ "0001001", "0101111", "110----", "01011-1", __LINE__ },
	{ "0001010", "0101100", "110----", "01011-0", __LINE__ },
	{ "0001011", "0101110", "110----", "01011-0", __LINE__ },
	{ "0001100", "0111111", "111----", "01111-1", __LINE__ },
	{ "0001101", "0111101", "111----", "01111-1", __LINE__ },
	{ "0001110", "0111110", "111----", "01111-0", __LINE__ },
	{ "0001111", "0111100", "111----", "01111-0", __LINE__ },
	{ "0010000", "1001101", "110----", "10011-1", __LINE__ },
	{ "0010001", "1001111", "110----", "10011-1", __LINE__ },
	{ "0010010", "1001100", "110----", "10011-0", __LINE__ },
	{ "0010011", "1001110", "110----", "10011-0", __LINE__ },
	{ "0010100", "1011111", "111----", "10111-1", __LINE__ },
	{ "0010101", "1011101", "111----", "10111-1", __LINE__ },
	{ "0010110", "1011110", "111----", "10111-0", __LINE__ },
	{ "0010111", "1011100", "111----", "10111-0", __LINE__ },
	{ "0011000", "0001101", "110----", "00011-1", __LINE__ },
	{ "0011001", "0001111", "110----", "00011-1", __LINE__ },
	{ "0011010", "0001100", "110----", "00011-0", __LINE__ },
	{ "0011011", "0001110", "110----", "00011-0", __LINE__ },
	{ "0011100", "0011111", "111----", "00111-1", __LINE__ },
	{ "0011101", "0011101", "111----", "00111-1", __LINE__ },
	{ "0011110", "0011110", "111----", "00111-0", __LINE__ },
	{ "0011111", "0011100", "111----", "00111-0", __LINE__ },
	{ "0100000", "0100101", "010----", "01001-1", __LINE__ },
	{ "0100001", "0100111", "010----", "01001-1", __LINE__ },
	{ "0100010", "0100100", "010----", "01001-0", __LINE__ },
	{ "0100011", "0100110", "010----", "01001-0", __LINE__ },
	{ "0100100", "0110111", "011----", "01101-1", __LINE__ },
	{ "0100101", "0110101", "011----", "01101-1", __LINE__ },
	{ "0100110", "0110110", "011----", "01101-0", __LINE__ },
	{ "0100111", "0110100", "011----", "01101-0", __LINE__ },
	{ "0101000", "1100101", "010----", "11001-1", __LINE__ },
	{ "0101001", "1100111", "010----", "11001-1", __LINE__ },
	{ "0101010", "1100100", "010----", "11001-0", __LINE__ },
	{ "0101011", "1100110", "010----", "11001-0", __LINE__ },
	{ "0101100", "1110111", "011----", "11101-1", __LINE__ },
	{ "0101101", "1110101", "011----", "11101-1", __LINE__ },
	{ "0101110", "1110110", "011----", "11101-0", __LINE__ },
	{ "0101111", "1110100", "011----", "11101-0", __LINE__ },
	{ "0110000", "0000101", "010----", "00001-1", __LINE__ },
	{ "0110001", "0000111", "010----", "00001-1", __LINE__ },
	{ "0110010", "0000100", "010----", "00001-0", __LINE__ },
	{ "0110011", "0000110", "010----", "00001-0", __LINE__ },
	{ "0110100", "0010111", "011----", "00101-1", __LINE__ },
	{ "0110101", "0010101", "011----", "00101-1", __LINE__ },
	{ "0110110", "0010110", "011----", "00101-0", __LINE__ },
	{ "0110111", "0010100", "011----", "00101-0", __LINE__ },
	{ "0111000", "1000101", "010----", "10001-1", __LINE__ },
	{ "0111001", "1000111", "010----", "10001-1", __LINE__ },
	{ "0111010", "1000100", "010----", "10001-0", __LINE__ },
	{ "0111011", "1000110", "010----", "10001-0", __LINE__ },
	{ "0111100", "1010111", "011----", "10101-1", __LINE__ },
	{ "0111101", "1010101", "011----", "10101-1", __LINE__ },
	{ "0111110", "1010110", "011----", "10101-0", __LINE__ },
	{ "0111111", "1010100", "011----", "10101-0", __LINE__ },
	{ "1000000", "1001000", "100----", "10010-0", __LINE__ },
	{ "1000001", "1001010", "100----", "10010-0", __LINE__ },
	{ "1000010", "1001001", "100----", "10010-1", __LINE__ },
	{ "1000011", "1001011", "100----", "10010-1", __LINE__ },
	{ "1000100", "1011010", "101----", "10110-0", __LINE__ },
	{ "1000101", "1011000", "101----", "10110-0", __LINE__ },
	{ "1000110", "1011011", "101----", "10110-1", __LINE__ },
	{ "1000111", "1011001", "101----", "10110-1", __LINE__ },
	{ "1001000", "0001000", "100----", "00010-0", __LINE__ },
	{ "1001001", "0001010", "100----", "00010-0", __LINE__ },
	{ "1001010", "0001001", "100----", "00010-1", __LINE__ },
	{ "1001011", "0001011", "100----", "00010-1", __LINE__ },
	{ "1001100", "0011010", "101----", "00110-0", __LINE__ },
	{ "1001101", "0011000", "101----", "00110-0", __LINE__ },
	{ "1001110", "0011011", "101----", "00110-1", __LINE__ },
	{ "1001111", "0011001", "101----", "00110-1", __LINE__ },
	{ "1010000", "1101000", "100----", "11010-0", __LINE__ },
	{ "1010001", "1101010", "100----", "11010-0", __LINE__ },
	{ "1010010", "1101001", "100----", "11010-1", __LINE__ },
	{ "1010011", "1101011", "100----", "11010-1", __LINE__ },
	{ "1010100", "1111010", "101----", "11110-0", __LINE__ },
	{ "1010101", "1111000", "101----", "11110-0", __LINE__ },
	{ "1010110", "1111011", "101----", "11110-1", __LINE__ },
	{ "1010111", "1111001", "101----", "11110-1", __LINE__ },
	{ "1011000", "0101000", "100----", "01010-0", __LINE__ },
	{ "1011001", "0101010", "100----", "01010-0", __LINE__ },
	{ "1011010", "0101001", "100----", "01010-1", __LINE__ },
	{ "1011011", "0101011", "100----", "01010-1", __LINE__ },
	{ "1011100", "0111010", "101----", "01110-0", __LINE__ },
	{ "1011101", "0111000", "101----", "01110-0", __LINE__ },
	{ "1011110", "0111011", "101----", "01110-1", __LINE__ },
	{ "1011111", "0111001", "101----", "01110-1", __LINE__ },
	{ "1100000", "0000000", "000----", "00000-0", __LINE__ },
	{ "1100001", "0000010", "000----", "00000-0", __LINE__ },
	{ "1100010", "0000001", "000----", "00000-1", __LINE__ },
	{ "1100011", "0000011", "000----", "00000-1", __LINE__ },
	{ "1100100", "0010010", "001----", "00100-0", __LINE__ },
	{ "1100101", "0010000", "001----", "00100-0", __LINE__ },
	{ "1100110", "0010011", "001----", "00100-1", __LINE__ },
	{ "1100111", "0010001", "001----", "00100-1", __LINE__ },
	{ "1101000", "1000000", "000----", "10000-0", __LINE__ },
	{ "1101001", "1000010", "000----", "10000-0", __LINE__ },
	{ "1101010", "1000001", "000----", "10000-1", __LINE__ },
	{ "1101011", "1000011", "000----", "10000-1", __LINE__ },
	{ "1101100", "1010010", "001----", "10100-0", __LINE__ },
	{ "1101101", "1010000", "001----", "10100-0", __LINE__ },
	{ "1101110", "1010011", "001----", "10100-1", __LINE__ },
	{ "1101111", "1010001", "001----", "10100-1", __LINE__ },
	{ "1110000", "0100000", "000----", "01000-0", __LINE__ },
	{ "1110001", "0100010", "000----", "01000-0", __LINE__ },
	{ "1110010", "0100001", "000----", "01000-1", __LINE__ },
	{ "1110011", "0100011", "000----", "01000-1", __LINE__ },
	{ "1110100", "0110010", "001----", "01100-0", __LINE__ },
	{ "1110101", "0110000", "001----", "01100-0", __LINE__ },
	{ "1110110", "0110011", "001----", "01100-1", __LINE__ },
	{ "1110111", "0110001", "001----", "01100-1", __LINE__ },
	{ "1111000", "1100000", "000----", "11000-0", __LINE__ },
	{ "1111001", "1100010", "000----", "11000-0", __LINE__ },
	{ "1111010", "1100001", "000----", "11000-1", __LINE__ },
	{ "1111011", "1100011", "000----", "11000-1", __LINE__ },
	{ "1111100", "1110010", "001----", "11100-0", __LINE__ },
	{ "1111101", "1110000", "001----", "11100-0", __LINE__ },
	{ "1111110", "1110011", "001----", "11100-1", __LINE__ },
	{ "1111111", "1110001", "001----", "11100-1", __LINE__ },
};

/* perf stat's exclude flags for every mix of u k h H G (get_event_modifier in
 * tools/perf/util/parse-events.c, exclude_GH_default off), generated the same way. */
static const struct {
	const char *mods;
	int user, kernel, hv, host, guest;
	int line;
} modrows[32] = {
	{ "", 0, 0, 0, 0, 0, __LINE__ },
	{ "G", 0, 0, 0, 1, 0, __LINE__ },
	{ "H", 0, 0, 0, 0, 1, __LINE__ },
	{ "HG", 0, 0, 0, 0, 0, __LINE__ },
	{ "h", 1, 1, 0, 0, 0, __LINE__ },
	{ "hG", 1, 1, 0, 1, 0, __LINE__ },
	{ "hH", 1, 1, 0, 0, 1, __LINE__ },
	{ "hHG", 1, 1, 0, 0, 0, __LINE__ },
	{ "k", 1, 0, 1, 0, 0, __LINE__ },
	{ "kG", 1, 0, 1, 1, 0, __LINE__ },
	{ "kH", 1, 0, 1, 0, 1, __LINE__ },
	{ "kHG", 1, 0, 1, 0, 0, __LINE__ },
	{ "kh", 1, 0, 0, 0, 0, __LINE__ },
	{ "khG", 1, 0, 0, 1, 0, __LINE__ },
	{ "khH", 1, 0, 0, 0, 1, __LINE__ },
	{ "khHG", 1, 0, 0, 0, 0, __LINE__ },
	{ "u", 0, 1, 1, 0, 0, __LINE__ },
	{ "uG", 0, 1, 1, 1, 0, __LINE__ },
	{ "uH", 0, 1, 1, 0, 1, __LINE__ },
	{ "uHG", 0, 1, 1, 0, 0, __LINE__ },
	{ "uh", 0, 1, 0, 0, 0, __LINE__ },
	{ "uhG", 0, 1, 0, 1, 0, __LINE__ },
	{ "uhH", 0, 1, 0, 0, 1, __LINE__ },
	{ "uhHG", 0, 1, 0, 0, 0, __LINE__ },
	{ "uk", 0, 0, 1, 0, 0, __LINE__ },
	{ "ukG", 0, 0, 1, 1, 0, __LINE__ },
	{ "ukH", 0, 0, 1, 0, 1, __LINE__ },
	{ "ukHG", 0, 0, 1, 0, 0, __LINE__ },
	{ "ukh", 0, 0, 0, 0, 0, __LINE__ },
	{ "ukhG", 0, 0, 0, 1, 0, __LINE__ },
	{ "ukhH", 0, 0, 0, 0, 1, __LINE__ },
	{ "ukhHG", 0, 0, 0, 0, 0, __LINE__ },
};

static unsigned parse_bits(const char *s)
{
	static const unsigned order[FILTER_NBITS] = { FILTER_P, FILTER_U, FILTER_NSK, FILTER_NSU,
						      FILTER_NSH, FILTER_M, FILTER_SH };
	unsigned b = 0;

	for (int k = 0; k < FILTER_NBITS; k++)
		if (s[k] == '1')
			b |= order[k];
	return b;
}

static const char *where_str(unsigned where, const struct filter_impl *impl, char *buf)
{
	unsigned present = filter_levels_present(impl);

	for (int l = 0; l < FILTER_NLEVELS; l++)
		buf[l] = !(present & 1u << l) ? '-' : where & 1u << l ? '1' : '0';
	buf[FILTER_NLEVELS] = '\0';
	return buf;
}

static void test_table(void)
{
	static const struct filter_impl noel3 = { 0, 0 }, nosel2 = { 1, 0 };
	char got[8];

	for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
		unsigned b = parse_bits(table[k].bits);

		TAP_EQ_STR(where_str(filter_where(b, &filter_impl_full), &filter_impl_full, got),
			   table[k].full, "where %s, EL3 and Secure EL2 (line %d)", table[k].bits,
			   table[k].line);
		TAP_EQ_STR(where_str(filter_where(b, &noel3), &noel3, got), table[k].noel3,
			   "where %s, no EL3: NSK NSU M SH RES0 (line %d)", table[k].bits,
			   table[k].line);
		TAP_EQ_STR(where_str(filter_where(b, &nosel2), &nosel2, got), table[k].nosel2,
			   "where %s, EL3 without Secure EL2: SH RES0 (line %d)", table[k].bits,
			   table[k].line);
	}
}

static void test_terms(void)
{
	static const struct {
		const char *key, *value;
		pp_status st;
		unsigned given, value_bits;
		int line;
	} rows[] = {
		{ "p", NULL, PP_OK, FILTER_P, FILTER_P, __LINE__ },
		{ "P", "1", PP_OK, FILTER_P, FILTER_P, __LINE__ },
		{ "nsh", "0", PP_OK, FILTER_NSH, 0, __LINE__ },
		{ "NSK", "1", PP_OK, FILTER_NSK, FILTER_NSK, __LINE__ },
		{ "nsu", NULL, PP_OK, FILTER_NSU, FILTER_NSU, __LINE__ },
		{ "m", "1", PP_OK, FILTER_M, FILTER_M, __LINE__ },
		{ "sh", "0", PP_OK, FILTER_SH, 0, __LINE__ },
		{ "u", "0", PP_OK, FILTER_U, 0, __LINE__ },
		{ "p", "2", PP_EINVAL, 0, 0, __LINE__ },
		{ "p", "yes", PP_EINVAL, 0, 0, __LINE__ },
		{ "event", "0x8", PP_ENOENT, 0, 0, __LINE__ },
		{ "mt", "1", PP_ENOENT, 0, 0, __LINE__ },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct filter_req fr = { 0, 0 };

		TAP_EQ_INT(filter_term(rows[k].key, rows[k].value, &fr), rows[k].st,
			   "term %s=%s status (line %d)", rows[k].key,
			   rows[k].value ? rows[k].value : "(bare)", rows[k].line);
		TAP_EQ_INT(fr.given, rows[k].given, "term %s given (line %d)", rows[k].key,
			   rows[k].line);
		TAP_EQ_INT(fr.value & fr.given, rows[k].value_bits, "term %s value (line %d)",
			   rows[k].key, rows[k].line);
	}
}

/* Resolves one spec; 0 when it did not resolve. */
static int resolve_one(const char *spec, struct pp_event *ev)
{
	struct evspec_list l = { 0 };
	struct evspec_error e;
	struct resolve_error re;
	int ok = evspec_parse(spec, &l, &e) == PP_OK && l.n == 1 &&
		 resolve_event(&l.reqs[0], ev, &re) == PP_OK;

	if (!ok)
		printf("# %s: %s %s\n", spec, e.what, l.n ? re.what : "");
	evspec_free(&l);
	return ok;
}

static void test_modifiers(void)
{
	for (size_t k = 0; k < sizeof(modrows) / sizeof(modrows[0]); k++) {
		char spec[64];
		struct pp_event ev;
		struct filter_excl x;

		snprintf(spec, sizeof(spec), "instructions%s%s", *modrows[k].mods ? ":" : "",
			 modrows[k].mods);
		if (!tap_ok(resolve_one(spec, &ev), "%s resolves (line %d)", spec, modrows[k].line))
			continue;
		tap_ok(ev.attr.exclude_user == (unsigned)modrows[k].user &&
		       ev.attr.exclude_kernel == (unsigned)modrows[k].kernel &&
		       ev.attr.exclude_hv == (unsigned)modrows[k].hv &&
		       ev.attr.exclude_host == (unsigned)modrows[k].host &&
		       ev.attr.exclude_guest == (unsigned)modrows[k].guest,
		       "%s: exclude user %d kernel %d hv %d host %d guest %d as perf sets them "
		       "(line %d)", spec, modrows[k].user, modrows[k].kernel, modrows[k].hv,
		       modrows[k].host, modrows[k].guest, modrows[k].line);
		filter_excl_from_mods(ev.mods, &x);
		tap_ok(x.user == (unsigned)modrows[k].user && x.kernel == (unsigned)modrows[k].kernel &&
		       x.hv == (unsigned)modrows[k].hv && x.host == (unsigned)modrows[k].host &&
		       x.guest == (unsigned)modrows[k].guest,
		       "filter_excl_from_mods agrees for '%s' (line %d)", modrows[k].mods,
		       modrows[k].line);
		resolve_event_free(&ev);
	}
	{
		struct pp_event ev;

		if (tap_ok(resolve_one("instructions:uD", &ev), "instructions:uD resolves")) {
			TAP_EQ_INT(ev.attr.pinned, 1, "D pins the event");
			resolve_event_free(&ev);
		}
	}
}

/* armv8pmu_set_event_filter, as the notes state it, one row per case. */
static void test_from_excl(void)
{
	static const struct {
		unsigned user, kernel, hv, host;
		int el;
		const char *bits;	/* P U NSK NSU NSH M SH */
		int line;
	} rows[] = {
		{ 0, 0, 0, 0, 1, "0000100", __LINE__ },	/* everything: NSH for EL2 */
		{ 0, 1, 1, 0, 1, "1000000", __LINE__ },	/* :u */
		{ 1, 0, 1, 0, 1, "0100000", __LINE__ },	/* :k */
		{ 1, 1, 0, 0, 1, "1100100", __LINE__ },	/* :h */
		{ 0, 0, 0, 1, 1, "0000000", __LINE__ },	/* :G, exclude_host clears NSH */
		{ 0, 0, 1, 0, 1, "0000000", __LINE__ },	/* exclude_hv at EL1 */
		{ 0, 0, 1, 0, 2, "0000100", __LINE__ },	/* exclude_hv ignored with VHE */
		{ 0, 1, 1, 0, 2, "1000000", __LINE__ },	/* :u with VHE: EL2 follows kernel */
		{ 1, 0, 1, 0, 2, "0100100", __LINE__ },	/* :k with VHE counts EL2 */
		{ 1, 1, 0, 0, 2, "1100000", __LINE__ },	/* :h with VHE counts nothing */
		{ 0, 0, 0, 1, 2, "0000000", __LINE__ },	/* exclude_host clears NSH with VHE */
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct filter_excl x = { .user = rows[k].user, .kernel = rows[k].kernel,
					 .hv = rows[k].hv, .host = rows[k].host };
		char got[32], want[32];

		TAP_EQ_STR(filter_bits_str(filter_from_excl(&x, rows[k].el), got, sizeof(got)),
			   filter_bits_str(parse_bits(rows[k].bits), want, sizeof(want)),
			   "driver bits for user %u kernel %u hv %u host %u at EL%d (line %d)",
			   rows[k].user, rows[k].kernel, rows[k].hv, rows[k].host, rows[k].el,
			   rows[k].line);
	}
}

static int row_has_secure_bits(const char *bits)
{
	return bits[2] == '1' || bits[3] == '1' || bits[5] == '1' || bits[6] == '1';
}

/* bits -> attr -> register -> bits, and the verdict for every combination. */
static void test_round_trips(void)
{
	for (int el = 1; el <= 2; el++) {
		int ok = 0;

		for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
			struct filter_req fr = { FILTER_ALL, parse_bits(table[k].bits) };
			struct filter_plan p;
			enum filter_verdict want = FILTER_OK;

			/* with VHE the driver cannot split Non-secure EL1 from EL2 */
			if (el == 2 && table[k].full[1] != table[k].full[2])
				want = FILTER_VHE_SPLIT;
			else if (row_has_secure_bits(table[k].bits))
				want = FILTER_SECURE;
			filter_plan_bits(&fr, el, NULL, &p);
			TAP_EQ_INT(p.verdict, want, "verdict for %s at EL%d (line %d)",
				   table[k].bits, el, table[k].line);
			if (p.verdict == FILTER_OK) {
				struct pmreg_event e = { .evt = 0x08 };
				unsigned back;

				ok++;
				e.filter = filter_from_excl(&p.excl, el);
				back = pmreg_filter_bits(pmreg_value(&e, 0));
				TAP_EQ_INT(back, fr.value, "round trip %s at EL%d (line %d)",
					   table[k].bits, el, table[k].line);
			} else {
				tap_ok(p.differ != 0 && p.where_req != p.where_drv,
				       "refused %s at EL%d differs somewhere (line %d)", table[k].bits,
				       el, table[k].line);
			}
		}
		TAP_EQ_INT(ok, el == 1 ? 8 : 4, "representable combinations at EL%d", el);
	}
}

static struct filter_req req_of(const char *terms)
{
	struct filter_req fr = { 0, 0 };
	char buf[64], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (eq)
			*eq++ = '\0';
		filter_term(t, eq, &fr);
	}
	return fr;
}

static int has(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		return 1;
	printf("#   '%s' lacks '%s'\n", hay, needle);
	return 0;
}

static void test_refusals(void)
{
	static const struct {
		const char *terms;
		int el;
		unsigned flags;
		pp_status st;
		const char *why1, *why2;	/* in filter_refusal's text */
		int user, kernel, hv;		/* attr after a PP_OK */
		int line;
	} rows[] = {
		{ "p=1", 1, 0, PP_OK, "", "", 0, 1, 1, __LINE__ },
		{ "u=1,nsh=1", 1, 0, PP_OK, "", "", 1, 0, 0, __LINE__ },
		{ "p=1,nsk=1", 1, 0, PP_ENOTSUP, "Secure EL1 and EL3", "firmware", 0, 0, 0,
		  __LINE__ },
		{ "p=1,nsk=1", 1, FILTER_ALLOW_SECURE, PP_OK, "", "", 0, 0, 1, __LINE__ },
		{ "m=1", 1, 0, PP_ENOTSUP, "EL3", "MDCR_EL3", 0, 0, 0, __LINE__ },
		{ "sh=1", 1, 0, PP_ENOTSUP, "Secure EL2", "never sets NSK, NSU, M or SH", 0, 0, 0,
		  __LINE__ },
		{ "nsu=1", 1, 0, PP_ENOTSUP, "Non-secure", "NSU", 0, 0, 0, __LINE__ },
		{ "nsu=1", 1, FILTER_ALLOW_SECURE, PP_OK, "", "", 1, 0, 1, __LINE__ },
		{ "p=1,nsh=1", 2, 0, PP_ENOTSUP, "VHE", "Non-secure EL2 but not Non-secure EL1", 0, 0, 0, __LINE__ },
		{ "u=1", 2, 0, PP_ENOTSUP, "VHE", "Non-secure EL1 but not Non-secure EL2", 0, 0, 0,
		  __LINE__ },
		{ "p=1", 2, 0, PP_OK, "", "", 0, 1, 1, __LINE__ },
		{ "p=1,nsh=0", 2, 0, PP_OK, "", "", 0, 1, 1, __LINE__ },
		{ "nsh=1", 2, 0, PP_OK, "", "", 0, 0, 0, __LINE__ },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct filter_req fr = req_of(rows[k].terms);
		struct pp_attr a = { 0 };
		struct filter_plan p;
		pp_status st = filter_apply(&fr, 0, rows[k].el, rows[k].flags, &a, &p);
		char why[512];

		TAP_EQ_INT(st, rows[k].st, "%s at EL%d: status (line %d)", rows[k].terms, rows[k].el,
			   rows[k].line);
		filter_refusal(&p, why, sizeof(why));
		if (st == PP_OK) {
			tap_ok(a.exclude_user == (unsigned)rows[k].user &&
			       a.exclude_kernel == (unsigned)rows[k].kernel &&
			       a.exclude_hv == (unsigned)rows[k].hv,
			       "%s at EL%d: exclude user %d kernel %d hv %d (line %d)", rows[k].terms,
			       rows[k].el, rows[k].user, rows[k].kernel, rows[k].hv, rows[k].line);
			continue;
		}
		tap_ok(!a.exclude_user && !a.exclude_kernel && !a.exclude_hv,
		       "%s refused: attr untouched (line %d)", rows[k].terms, rows[k].line);
		tap_ok(has(why, rows[k].why1) && has(why, rows[k].why2),
		       "%s refusal says why (line %d)", rows[k].terms, rows[k].line);
		tap_ok(has(filter_remedy(&p), p.verdict == FILTER_SECURE ? "--allow-secure"
									  : "--kernel-el"),
		       "%s refusal says how to proceed (line %d)", rows[k].terms, rows[k].line);
	}
	{
		struct filter_req fr = req_of("p=1");
		struct pp_attr a = { 0 };
		struct filter_plan p;

		TAP_EQ_INT(filter_apply(&fr, EVSPEC_MOD_U, 1, 0, &a, &p), PP_EINVAL,
			   "filter bits and u/k/h modifiers together are refused");
	}
}

/* The QEMU check, in pure form: inst_retired/p=1/ is inst_retired:u exactly. */
static void test_p1_is_u(void)
{
	struct pp_event ev;
	struct filter_req fr = req_of("p=1");
	struct pp_attr a = { 0 };
	struct filter_plan p;

	if (!tap_ok(resolve_one("instructions:u", &ev), "instructions:u resolves"))
		return;
	filter_apply(&fr, 0, 1, 0, &a, &p);
	tap_ok(a.exclude_user == ev.attr.exclude_user && a.exclude_kernel == ev.attr.exclude_kernel &&
	       a.exclude_hv == ev.attr.exclude_hv && a.exclude_host == ev.attr.exclude_host &&
	       a.exclude_guest == ev.attr.exclude_guest, "p=1 gives the exclude flags of :u");
	resolve_event_free(&ev);
}

static void test_kernel_el(void)
{
	static const struct {
		const char *root, *model;
		int override, el;
		const char *why;
		int line;
	} rows[] = {
		{ "tests/fixtures/qemu-a57", NULL, 0, 1, "Armv8.0", __LINE__ },
		{ "tests/fixtures/filter/th-255", NULL, 0, 2, "KVM", __LINE__ },
		{ "tests/fixtures/filter/th-255", "cortex-a72", 0, 1, "Armv8.0", __LINE__ },
		{ "tests/fixtures/filter/th-0", NULL, 0, 1, "kvm-arm.mode=nvhe", __LINE__ },
		{ "tests/fixtures/qemu-a57", NULL, 2, 2, "--kernel-el", __LINE__ },
		{ "tests/fixtures/x86-host", NULL, 0, 1, "assumed", __LINE__ },
		/* a core the machine lacks: neither its KVM nor its command line is that core's */
		{ "tests/fixtures/filter/th-255", "neoverse-n1", 0, 1, "not this machine's core",
		  __LINE__ },
		{ "tests/fixtures/filter/th-0", "neoverse-n1", 0, 1, "not this machine's core",
		  __LINE__ },
		{ "tests/fixtures/filter/th-255", "neoverse-v2", 0, 2, "KVM", __LINE__ },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct filter_kernel_el kel;

		sysfs_set_root(rows[k].root);
		filter_kernel_el_detect(rows[k].override, rows[k].model, &kel);
		TAP_EQ_INT(kel.el, rows[k].el, "kernel EL on %s (line %d)", rows[k].root,
			   rows[k].line);
		tap_ok(has(kel.why, rows[k].why), "and why (line %d)", rows[k].line);
	}
	sysfs_set_root(NULL);
}

/* filter_apply_why: the message part stat and explain print after "cannot ... event 'X': " */
static void test_apply_why(void)
{
	static const struct {
		int line;
		unsigned given, value, mods;
		int kernel_el;
		pp_status st;
		const char *starts, *has;
	} rows[] = {
		{ __LINE__, FILTER_P, FILTER_P, EVSPEC_MOD_K, 1, PP_EINVAL,
		  "its filter-bit terms and its :u, :k or :h modifier", "give one or the other" },
		{ __LINE__, FILTER_P | FILTER_NSK, FILTER_P | FILTER_NSK, 0, 1, PP_ENOTSUP,
		  "NSK would have Secure EL1 and EL3 counted differently", "(drop the NSK, NSU" },
		{ __LINE__, FILTER_P | FILTER_NSH, FILTER_P | FILTER_NSH, 0, 2, PP_ENOTSUP,
		  "this asks for Non-secure EL2 but not Non-secure EL1", "give --kernel-el 1" },
	};

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		struct filter_req fr = { rows[k].given, rows[k].value };
		struct pp_attr a = { 0 };
		struct filter_plan p;
		char buf[768];
		pp_status st = filter_apply(&fr, rows[k].mods, rows[k].kernel_el, 0, &a, &p);
		const char *m = filter_apply_why(st, &p, buf, sizeof(buf));

		TAP_EQ_INT(st, rows[k].st, "filter_apply status (line %d)", rows[k].line);
		tap_ok(strncmp(m, rows[k].starts, strlen(rows[k].starts)) == 0 &&
		       strstr(m, rows[k].has) && m[strlen(m) - 1] == ')',
		       "why: '%s...', says '%s', ends with the way out (line %d)", rows[k].starts,
		       rows[k].has, rows[k].line);
	}
}

int main(void)
{
	sysfs_set_root("tests/fixtures/qemu-a57");
	test_table();
	test_terms();
	test_modifiers();
	test_from_excl();
	test_round_trips();
	test_refusals();
	test_p1_is_u();
	test_kernel_el();
	test_apply_why();
	return tap_done();
}
