/* SPDX-License-Identifier: Apache-2.0 */
/* test_export.c: the OpenMetrics and markdown writers on hand-made reports, for what a real
 * run on this machine does not give: label values that need escaping, numbers that need more
 * than 15 digits, a multiplexed event, per-CPU units (-A) with intervals. Expected lines: the
 * OpenMetrics 1.0 text format (openmetrics.io: label values escape \, " and newline; a
 * sample's value in Go/Python float syntax) and GitHub's table syntax (\| inside a cell). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "tap.h"

/* writer's output for r in buf; "" when it failed. */
static void render(int (*writer)(const struct report *, FILE *), const struct report *r,
		   char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (!f)
		return;
	if (writer(r, f) != 0)
		buf[0] = '\0';
	fclose(f);
}

static const struct {
	int line;
	const char *name;
	enum report_status status;
	double value, counted_pct;
	const char *want;	/* a line the output has (want_absent: has not) */
	int absent;
} om_rows[] = {
	{ __LINE__, "cycles", REPORT_COUNTED, 1234, 100,
	  "pmuprof_event_value{event=\"cycles\",pmu=\"cpu\"} 1234\n", 0 },
	/* quote, backslash and newline escaped in a label value */
	{ __LINE__, "a\"b\\c\nd", REPORT_COUNTED, 1, 100,
	  "pmuprof_event_value{event=\"a\\\"b\\\\c\\nd\",pmu=\"cpu\"} 1\n", 0 },
	/* the shortest spelling that reads back the same double */
	{ __LINE__, "ev", REPORT_COUNTED, 0.1, 100,
	  "pmuprof_event_value{event=\"ev\",pmu=\"cpu\"} 0.1\n", 0 },
	{ __LINE__, "ev", REPORT_COUNTED, 1.0 / 3, 100,
	  "pmuprof_event_value{event=\"ev\",pmu=\"cpu\"} 0.3333333333333333\n", 0 },
	{ __LINE__, "ev", REPORT_COUNTED, 1e20, 100,
	  "pmuprof_event_value{event=\"ev\",pmu=\"cpu\"} 1e+20\n", 0 },
	/* multiplexed: counted half the time */
	{ __LINE__, "ev", REPORT_COUNTED, 10, 50,
	  "pmuprof_event_running_ratio{event=\"ev\",pmu=\"cpu\"} 0.5\n", 0 },
	/* not counted: no value sample, a running ratio of 0 */
	{ __LINE__, "ev", REPORT_NOT_SUPPORTED, 0, 0,
	  "pmuprof_event_value{event=\"ev\"", 1 },
	{ __LINE__, "ev", REPORT_NOT_SUPPORTED, 0, 0,
	  "pmuprof_event_running_ratio{event=\"ev\",pmu=\"cpu\"} 0\n", 0 },
	/* the times in seconds, then the end */
	{ __LINE__, "ev", REPORT_COUNTED, 1, 100, "pmuprof_time_seconds{time=\"wall\"} 1.5\n", 0 },
	{ __LINE__, "ev", REPORT_COUNTED, 1, 100, "{time=\"system\"} 0\n# EOF\n", 0 },
};

static void test_openmetrics(void)
{
	static char buf[8192];

	for (size_t k = 0; k < sizeof(om_rows) / sizeof(om_rows[0]); k++) {
		struct report_event e = { .name = om_rows[k].name, .pmu = "cpu", .unit = "",
					  .group = -1, .fig.status = om_rows[k].status,
					  .fig.value = om_rows[k].value,
					  .fig.counted_pct = om_rows[k].counted_pct };
		struct report r = { .events = &e, .nevents = 1, .wall_ns = 1500000000 };
		const char *hit;

		render(export_openmetrics, &r, buf, sizeof(buf));
		hit = strstr(buf, om_rows[k].want);
		/* "# EOF" ends the exposition: nothing may follow it */
		if (hit && strstr(om_rows[k].want, "# EOF") && hit[strlen(om_rows[k].want)])
			hit = NULL;
		/* the line, not the expected text, names the check: that holds newlines */
		if (!tap_ok(om_rows[k].absent ? !hit : !!hit, "openmetrics line %d",
			    om_rows[k].line))
			printf("# output:\n%s", buf);
	}
}

/* -A with -I: a sample per CPU that counted, in the totals and in each interval. */
static void test_openmetrics_units(void)
{
	static char buf[8192];
	struct report_unit units[2] = { { .id = "CPU0", .cpu = 0 }, { .id = "CPU3", .cpu = 3 } };
	struct report_cell cells[2] = { { .present = 1, .fig.status = REPORT_COUNTED, .fig.value = 7 },
					{ .present = 0 } };
	struct report_cell ud[2] = { { .present = 1, .fig.status = REPORT_COUNTED, .fig.value = 2 },
				     { .present = 1, .fig.status = REPORT_NOT_COUNTED } };
	struct report_delta d = { .fig = { .status = REPORT_COUNTED, .value = 2 } };
	uint64_t t = 100000000;
	struct report_event e = { .name = "cycles", .pmu = "cpu", .unit = "", .group = -1,
				  .fig.status = REPORT_COUNTED, .fig.value = 7, .fig.counted_pct = 100,
				  .deltas = &d, .cells = cells, .unit_deltas = ud };
	struct report r = { .events = &e, .nevents = 1, .aggr = REPORT_AGGR_CPU, .units = units,
			    .nunits = 2, .interval_ms = 100, .interval_t_ns = &t, .nintervals = 1 };

	render(export_openmetrics, &r, buf, sizeof(buf));
	tap_ok(strstr(buf, "pmuprof_event_value{event=\"cycles\",pmu=\"cpu\",cpu=\"0\"} 7\n") != NULL,
	       "openmetrics line %d: CPU0's total", __LINE__);
	tap_ok(strstr(buf, "cpu=\"3\"} 7") == NULL && strstr(buf, ",cpu=\"3\"") == NULL,
	       "openmetrics line %d: CPU3 has no sample (absent; not counted)", __LINE__);
	tap_ok(strstr(buf, "pmuprof_interval_value{event=\"cycles\",pmu=\"cpu\",cpu=\"0\","
			   "interval=\"1\"} 2\n") != NULL,
	       "openmetrics line %d: CPU0's interval", __LINE__);
	tap_ok(strstr(buf, "pmuprof_interval_end_seconds{interval=\"1\"} 0.1\n") != NULL,
	       "openmetrics line %d: the interval's end", __LINE__);
}

static void test_markdown(void)
{
	static char buf[4096];
	struct report_event e[2] = {
		{ .name = "a|b", .pmu = "cpu", .unit = "", .group = -1, .fig.status = REPORT_COUNTED,
		  .fig.value = 42, .fig.counted_pct = 50 },
		{ .name = "c", .pmu = "cpu", .unit = "ns", .group = -1,
		  .fig.status = REPORT_NOT_SUPPORTED },
	};
	struct report r = { .events = e, .nevents = 2 };

	render(export_markdown, &r, buf, sizeof(buf));
	TAP_EQ_STR(buf, "| event | value | unit | \xc2\xb1 | counted | metric |\n"
			"| --- | ---: | --- | ---: | ---: | --- |\n"
			"| a\\|b | 42 |  |  | 50.00% |  |\n"
			"| c |  | ns |  | not supported |  |\n",
		   "markdown line %d: a pipe escaped, a status for the share", __LINE__);
}

int main(void)
{
	test_openmetrics();
	test_openmetrics_units();
	test_markdown();
	return tap_done();
}
