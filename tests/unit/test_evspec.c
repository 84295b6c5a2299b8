/* SPDX-License-Identifier: Apache-2.0 */
/* test_evspec.c: the event-spec parser, row by row: what parses into which requests, and
 * where and why bad specs fail. */
#include <stdio.h>
#include <string.h>

#include "evspec.h"
#include "tap.h"

struct good {
	int line;
	const char *spec;
	const char *want;	/* requests as "text|name|pmu|mods|group|column;..." */
};

static const struct good goods[] = {
	{ __LINE__, "cycles", "cycles|cycles|-||-1|1;" },
	{ __LINE__, "cycles,instructions", "cycles|cycles|-||-1|1;instructions|instructions|-||-1|8;" },
	{ __LINE__, "cycles:u", "cycles:u|cycles|-|u|-1|1;" },
	{ __LINE__, "cycles:ukhHGD", "cycles:ukhHGD|cycles|-|ukhHGD|-1|1;" },
	{ __LINE__, "cycles:kuk", "cycles:kuk|cycles|-|uk|-1|1;" },
	{ __LINE__, "L1-dcache-load-misses", "L1-dcache-load-misses|L1-dcache-load-misses|-||-1|1;" },
	{ __LINE__, "r0011", "r0011|r0011|-||-1|1;" },
	{ __LINE__, "armv8_pmuv3/event=0x11/", "armv8_pmuv3/event=0x11/|-|armv8_pmuv3||-1|1;" },
	{ __LINE__, "armv8_pmuv3/event=0x11/u", "armv8_pmuv3/event=0x11/u|-|armv8_pmuv3|u|-1|1;" },
	{ __LINE__, "armv8_pmuv3/event=0x11/:k", "armv8_pmuv3/event=0x11/:k|-|armv8_pmuv3|k|-1|1;" },
	{ __LINE__, "cpu//", "cpu//|-|cpu||-1|1;" },
	{ __LINE__, "{cycles,instructions}", "cycles|cycles|-||0|2;instructions|instructions|-||0|9;" },
	{ __LINE__, "{cycles,instructions}:u", "cycles|cycles|-|u|0|2;instructions|instructions|-|u|0|9;" },
	{ __LINE__, "{cycles:k,instructions}:u", "cycles:k|cycles|-|uk|0|2;instructions|instructions|-|u|0|11;" },
	{ __LINE__, "a,{b,c},{d}", "a|a|-||-1|1;b|b|-||0|4;c|c|-||0|6;d|d|-||1|10;" },
	{ __LINE__, "inst_retired/p=1,nsh=1/", "inst_retired/p=1,nsh=1/|-|inst_retired||-1|1;" },
};

static void describe(const struct evspec_list *l, size_t from, char *buf, size_t len)
{
	size_t o = 0;
	char mods[8];

	buf[0] = '\0';
	for (size_t k = from; k < l->n && o < len; k++) {
		const struct evspec_req *r = &l->reqs[k];
		o += (size_t)snprintf(buf + o, len - o, "%s|%s|%s|%s|%d|%d;", r->text,
				      r->name ? r->name : "-", r->pmu ? r->pmu : "-",
				      evspec_mods_str(r->mods, mods), r->group, r->column);
	}
}

struct bad {
	int line;
	const char *spec;
	int column;
	const char *what;
};

static const struct bad bads[] = {
	{ __LINE__, "", 1, "empty event list" },
	{ __LINE__, ",", 1, "empty event name" },
	{ __LINE__, "cycles,", 7, "trailing ',' with no event after it" },
	{ __LINE__, "cycles,,x", 8, "empty event name" },
	{ __LINE__, "cycles:", 8, "empty modifier after ':'" },
	{ __LINE__, "cycles:q", 8, "unknown modifier 'q' (modifiers: u, k, h, H, G, D)" },
	{ __LINE__, "{cycles", 1, "unbalanced '{': missing '}'" },
	{ __LINE__, "cycles}", 7, "unbalanced '}': no '{' before it" },
	{ __LINE__, "}", 1, "unbalanced '}': no '{' before it" },
	{ __LINE__, "{{a}}", 2, "groups cannot be nested" },
	{ __LINE__, "{}", 2, "empty event name" },
	{ __LINE__, "pmu/event=1", 12, "missing closing '/'" },
	{ __LINE__, "pmu/event=/", 11, "empty value after '='" },
	{ __LINE__, "pmu/,/", 5, "empty term" },
	{ __LINE__, "pmu/a=1,,b/", 9, "empty term" },
	{ __LINE__, "pmu/a b/", 6, "unexpected ' ' in a term" },
	{ __LINE__, "cyc les", 4, "unexpected ' ' after an event" },
	{ __LINE__, " cycles", 1, "unexpected ' ' where an event name should be" },
	{ __LINE__, "cycles\xc3\xa9", 7, "unexpected non-ASCII or control character" },
	{ __LINE__, "pmu/event=0x1/x", 15, "unknown modifier 'x' (modifiers: u, k, h, H, G, D)" },
	{ __LINE__, "pmu/event=0x11,EVENT=0x12/", 16, "a term is given twice" },
};

static void test_many_terms(void)
{
	char spec[512] = "pmu/";
	struct evspec_list l = { 0 };
	struct evspec_error err;

	for (int k = 0; k < EVSPEC_MAX_TERMS + 1; k++)
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "%st%d=1", k ? "," : "", k);
	strcat(spec, "/");
	tap_ok(evspec_parse(spec, &l, &err) == PP_EINVAL && l.n == 0,
	       "line %d: 17 terms are refused", __LINE__);
	TAP_EQ_STR(err.what, "too many terms (at most 16)", "line %d: its message", __LINE__);
	evspec_free(&l);
}

static void test_append(void)
{
	struct evspec_list l = { 0 };
	struct evspec_error err;

	evspec_parse("{a,b}", &l, &err);
	evspec_parse("c,{d}", &l, &err);
	tap_ok(evspec_parse("e,{f", &l, &err) == PP_EINVAL, "line %d: a bad spec fails", __LINE__);
	TAP_EQ_INT(l.n, 4, "line %d: a failed parse leaves the list as it was", __LINE__);
	TAP_EQ_INT(l.ngroups, 2, "line %d: groups count across specs", __LINE__);
	TAP_EQ_INT(l.reqs[3].group, 1, "line %d: the second spec's group is group 1", __LINE__);
	evspec_free(&l);
}

static void test_long_name(void)
{
	static char spec[10001];
	struct evspec_list l = { 0 };
	struct evspec_error err;

	memset(spec, 'a', sizeof(spec) - 1);
	tap_ok(evspec_parse(spec, &l, &err) == PP_OK && l.n == 1 &&
	       strlen(l.reqs[0].name) == 10000, "line %d: a 10,000-character name parses", __LINE__);
	evspec_free(&l);
}

int main(void)
{
	char got[1024];

	for (size_t k = 0; k < sizeof(goods) / sizeof(goods[0]); k++) {
		struct evspec_list l = { 0 };
		struct evspec_error err;
		pp_status st = evspec_parse(goods[k].spec, &l, &err);

		describe(&l, 0, got, sizeof(got));
		if (!tap_ok(st == PP_OK, "line %d: '%s' parses", goods[k].line, goods[k].spec))
			printf("#   error at %d: %s\n", err.column, err.what);
		TAP_EQ_STR(got, goods[k].want, "line %d: '%s' requests", goods[k].line, goods[k].spec);
		evspec_free(&l);
	}
	for (size_t k = 0; k < sizeof(bads) / sizeof(bads[0]); k++) {
		struct evspec_list l = { 0 };
		struct evspec_error err;
		pp_status st = evspec_parse(bads[k].spec, &l, &err);

		tap_ok(st == PP_EINVAL && l.n == 0, "line %d: '%s' is refused", bads[k].line,
		       bads[k].spec);
		TAP_EQ_INT(err.column, bads[k].column, "line %d: column", bads[k].line);
		TAP_EQ_STR(err.what, bads[k].what, "line %d: message", bads[k].line);
		evspec_free(&l);
	}
	test_many_terms();
	test_append();
	test_long_name();
	return tap_done();
}
