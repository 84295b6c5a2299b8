/* SPDX-License-Identifier: Apache-2.0 */
/* test_diff_match.c: diff_compare's matching (pure): an event counted per cgroup is matched
 * with the same name in the same cgroup, whatever the place or the other cgroups; a name
 * repeated in one cgroup, the k-th with the k-th. */
#include <math.h>
#include <string.h>

#include "diff.h"
#include "tap.h"

#define EV(nm, cg, v) { .name = (nm), .unit = "", .status = "counted", .cgroup = (cg), .has = 1, \
		        .sum = { .n = 1, .mean = (v), .median = (v), .min = (v), .max = (v), \
				 .stddev = NAN, .cv = NAN, .rse = NAN, .ci_lo = NAN, .ci_hi = NAN } }

/* "name@cgroup:verdict" of each row ("-" for no cgroup), joined by spaces. */
static const char *rows_of(const struct diff_result *r)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < r->nrows && n < sizeof(buf); k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s@%s:%s", k ? " " : "",
				      r->rows[k].name, r->rows[k].cgroup ? r->rows[k].cgroup : "-",
				      diff_verdict_str(r->rows[k].verdict));
	return buf;
}

static void compare(struct diff_event *a, size_t na, struct diff_event *b, size_t nb,
		    const char *want, const char *what)
{
	struct diff_input ia = { .path = "a", .events = a, .nevents = na };
	struct diff_input ib = { .path = "b", .events = b, .nevents = nb };
	struct diff_opts o = { .threshold_pct = 2, .alpha = 0.05 };
	struct diff_result r;
	struct diff_why why = { 0 };

	TAP_EQ_INT(diff_compare(&ia, &ib, &o, &r, &why), DIFF_OK, "%s: compared", what);
	TAP_EQ_STR(rows_of(&r), want, "%s: rows", what);
	diff_result_free(&r);
}

int main(void)
{
	struct diff_event a[] = { EV("cycles", NULL, 100), EV("cycles", "web", 10),
				  EV("cycles", "db", 50) };
	struct diff_event b[] = { EV("cycles", "api", 30), EV("cycles", "db", 60),
				  EV("cycles", "web", 10), EV("cycles", NULL, 100) };
	struct diff_event c[] = { EV("cycles", "web", 10), EV("cycles", "web", 20) };
	struct diff_event d[] = { EV("cycles", "web", 10), EV("cycles", "web", 30) };

	compare(a, 3, b, 4, "cycles@-:unchanged cycles@web:unchanged cycles@db:regression "
		"cycles@api:not compared", "cgroups in another order, one new");
	compare(b, 4, a, 3, "cycles@api:not compared cycles@db:improvement "
		"cycles@web:unchanged cycles@-:unchanged", "the other way");
	compare(c, 2, d, 2, "cycles@web:unchanged cycles@web:regression",
		"one name twice in one cgroup: in order");
	return tap_done();
}
