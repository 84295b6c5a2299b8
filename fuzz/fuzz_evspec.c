/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_evspec.c: libFuzzer target for the event-spec parser: arbitrary bytes (up to the first
 * NUL) parsed twice into one list, checking the contract of include/evspec.h on the way. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evspec.h"
#include "fuzz.h"

/* What evspec.h promises of a successful parse: every request has its text and exactly one of
 * name and pmu, a column inside the spec, terms with keys, groups below ngroups. */
static void check_reqs(const struct evspec_list *l, size_t from, size_t len)
{
	char mods[8];

	for (size_t k = from; k < l->n; k++) {
		const struct evspec_req *r = &l->reqs[k];

		FUZZ_CHECK(r->text && *r->text);
		FUZZ_CHECK(!r->name != !r->pmu);
		FUZZ_CHECK(r->column >= 1 && (size_t)r->column <= len);
		FUZZ_CHECK(r->nterms >= 0 && r->nterms <= EVSPEC_MAX_TERMS);
		for (int t = 0; t < r->nterms; t++)
			FUZZ_CHECK(r->terms[t].key && *r->terms[t].key);
		FUZZ_CHECK(r->group >= -1 && r->group < l->ngroups);
		FUZZ_CHECK(strlen(evspec_mods_str(r->mods, mods)) < sizeof(mods));
	}
}

static void parse_once(const char *spec, struct evspec_list *l)
{
	struct evspec_error err;
	size_t n0 = l->n, len = strlen(spec);
	int g0 = l->ngroups;

	if (evspec_parse(spec, l, &err) == PP_OK) {
		FUZZ_CHECK(l->n > n0);
		check_reqs(l, n0, len);
		return;
	}
	/* a failed parse leaves the list as it was and says where, inside the text or just
	 * after its end */
	FUZZ_CHECK(l->n == n0 && l->ngroups == g0);
	FUZZ_CHECK(err.column >= 1 && (size_t)err.column <= len + 1);
	FUZZ_CHECK(err.what[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evspec_list l = { 0 };
	char *spec = malloc(size + 1);

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	parse_once(spec, &l);
	parse_once(spec, &l);	/* appending to a list that already holds requests */
	evspec_free(&l);
	free(spec);
	return 0;
}
