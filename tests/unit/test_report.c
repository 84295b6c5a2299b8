/* SPDX-License-Identifier: Apache-2.0 */
/* test_report.c: the -x and text writers on hand-made reports, for the rows this machine
 * cannot produce for real (an event enabled but never on a counter needs a PMU to multiplex;
 * tests/cli/perf_format.bats checks what real runs print). Expected lines: perf 6.1's
 * print_running_csv and print_noise_pct conventions, as Debian's perf prints them for
 * software events (-x, with -r). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "render.h"
#include "report.h"
#include "tap.h"

static const struct {
	int line;
	enum report_status status;
	const char *unit;
	uint64_t raw, enabled_ns, running_ns;
	size_t nruns;
	double rse;
	const char *csv;	/* the event's -x, line */
} rows[] = {
	/* opened, never on a counter: perf's share is running/enabled, 0.00 */
	{ __LINE__, REPORT_NOT_COUNTED, "", 0, 5000, 0, 0, NAN,
	  "<not counted>,,ev,0,0.00,," },
	/* the unit stays with a time event that has no value */
	{ __LINE__, REPORT_NOT_COUNTED, "ns", 0, 5000, 0, 0, NAN,
	  "<not counted>,msec,ev,0,0.00,," },
	/* refused: enabled and running both 0, perf's 100.00 */
	{ __LINE__, REPORT_NOT_SUPPORTED, "", 0, 0, 0, 0, NAN,
	  "<not supported>,,ev,0,100.00,," },
	/* -r: no spread to show is perf's 0.00% */
	{ __LINE__, REPORT_NOT_SUPPORTED, "", 0, 0, 0, 3, NAN,
	  "<not supported>,,ev,0.00%,0,100.00,," },
	{ __LINE__, REPORT_NOT_COUNTED, "", 0, 5000, 0, 3, NAN,
	  "<not counted>,,ev,0.00%,0,0.00,," },
	{ __LINE__, REPORT_COUNTED, "", 0, 5000, 5000, 3, NAN,
	  "0,,ev,0.00%,5000,100.00,," },
	{ __LINE__, REPORT_COUNTED, "", 10, 5000, 5000, 3, 0.1234,
	  "10,,ev,12.34%,5000,100.00,," },
	{ __LINE__, REPORT_COUNTED, "", 10, 4000, 1000, 0, NAN,
	  "10,,ev,1000,25.00,," },
};

/* The report of one event "ev" as row r describes it, written by -x into buf. */
static void csv_of(size_t r, char *buf, size_t len)
{
	struct report_event e = {
		.name = "ev", .pmu = "cpu", .unit = rows[r].unit, .type = 4, .group = -1,
		.fig.status = rows[r].status, .fig.raw = rows[r].raw, .fig.value = (double)rows[r].raw,
		.fig.enabled_ns = rows[r].enabled_ns, .fig.running_ns = rows[r].running_ns,
		.fig.counted_pct = rows[r].enabled_ns ? 100.0 * (double)rows[r].running_ns /
			       (double)rows[r].enabled_ns : 100.0,
	};
	struct report rep = { .events = &e, .nevents = 1, .nruns = rows[r].nruns };
	FILE *f = fmemopen(buf, len, "w");

	e.stats.rse = rows[r].rse;
	if (!f) {
		buf[0] = '\0';
		return;
	}
	report_derive(&rep, NULL, NULL, 0);
	report_csv(&rep, f, ",");
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* A part's name on PMU "armv8_cortex_a55": perf's hybrid spelling, modifiers after it. */
static const struct {
	int line;
	const char *event, *want;
} parts[] = {
	{ __LINE__, "cycles", "armv8_cortex_a55/cycles/" },
	{ __LINE__, "inst_retired:u", "armv8_cortex_a55/inst_retired/u" },
	{ __LINE__, "inst_retired:uk", "armv8_cortex_a55/inst_retired/uk" },
	{ __LINE__, "inst_retired/p=1/", "armv8_cortex_a55/inst_retired,p=1/" },
	{ __LINE__, "inst_retired/p=1,nsk=1/u", "armv8_cortex_a55/inst_retired,p=1,nsk=1/u" },
	{ __LINE__, "inst_retired/p=1/:k", "armv8_cortex_a55/inst_retired,p=1/k" },
	{ __LINE__, "r08", "armv8_cortex_a55/r08/" },
};


static void expect_in(struct report *r, int fmt, const char *want, const char *what)
{
	char *got = render_report(r, fmt);

	if (!tap_ok(got && strstr(got, want), "--metric-only: %s", what))
		printf("# got:\n%s\n", got ? got : "(nothing)");
	free(got);
}

/* --metric-only on a hand-made report with an IPC (this machine counts no cycles): perf 6.1's
 * columns, a value per interval (blank where an input was not counted), no event rows. */
static void test_metric_only(void)
{
	static char *argv[] = { "x", NULL };
	static struct report_delta dc[2], di[2];
	static const uint64_t t[2] = { 100000000, 200000000 };
	struct report_event ev[2] = {
		{ .name = "cycles", .pmu = "cpu", .unit = "", .config = 0, .fig.value = 2000,
		  .fig.raw = 2000, .fig.counted_pct = 100, .group = -1 },
		{ .name = "instructions", .pmu = "cpu", .unit = "", .config = 1, .fig.value = 3000,
		  .fig.raw = 3000, .fig.counted_pct = 100, .group = -1 },
	};
	/* the generic set's ipc; its events sorted: CPU_CYCLES (cycles), INST_RETIRED */
	struct report_metric_value ipc = { .value = 1.5, .anchor = 1, .ev = { 0, 1 }, .nev = 2,
					   .label = "insn per cycle",
					   .core = "generic" };
	struct metrics_core mc;
	struct report r = { .tool_version = "test", .argc = 1, .argv = argv, .events = ev,
			    .nevents = 2, .wall_ns = 300000000, .metrics = &ipc, .nmetrics = 1,
			    .disp = { .metric_only = 1 } };
	char *got;

	metrics_core_set(&mc, NULL, 0);
	ipc.def = mxtab_find_metric(mc.set, "ipc");
	if (!tap_ok(ipc.def != NULL, "--metric-only: the ipc metric is defined"))
		return;
	expect_in(&r, 't', "'x':\n\n      insn per cycle \n               1.500 \n\n",
		  "text: the unit in 20 columns, the value under it");
	got = render_report(&r, 't');
	tap_ok(got && !strstr(got, "cycles\n") && !strstr(got, "instructions"),
	       "--metric-only: text: no event rows");
	free(got);
	expect_in(&r, 'x', "insn per cycle,\n1.500,\n", "-x: units, then values");
	report_delta_set(&dc[0], &ev[0], 1, 1000, 10, 10, 1000);
	report_delta_set(&dc[1], &ev[0], 1, 1000, 10, 10, 1000);
	report_delta_set(&di[0], &ev[1], 1, 500, 10, 10, 500);
	report_delta_set(&di[1], &ev[1], 0, 0, 10, 0, 0);
	ev[0].deltas = dc;
	ev[1].deltas = di;
	r.interval_t_ns = t;
	r.nintervals = 2;
	r.interval_ms = 100;
	expect_in(&r, 't', "#           time       insn per cycle \n     0.100000000 "
		  "               0.500 \n     0.200000000                      \n",
		  "text -I: perf's heading, a line per interval, blank where not counted");
	expect_in(&r, 't', "'x':\n\n               1.500 \n\n",
		  "text -I: the totals' values without their units");
	expect_in(&r, 'x', " time,insn per cycle,\n     0.100000000,0.500,\n     0.200000000,,\n"
		  "         summary,1.500,\n", "-x -I: perf's ' time,' heading and summary line");
	r.disp.no_summary = 1;
	got = render_report(&r, 'x');
	tap_ok(got && !strstr(got, "summary"), "--metric-only -x -I --no-summary: no totals");
	free(got);
}

int main(void)
{
	char buf[512];
	struct report_part p = { .pmu = "armv8_cortex_a55" };

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		csv_of(r, buf, sizeof(buf));
		TAP_EQ_STR(buf, rows[r].csv, "line %d: -x row", rows[r].line);
	}
	for (size_t r = 0; r < sizeof(parts) / sizeof(parts[0]); r++) {
		struct report_event e = { .name = parts[r].event };

		TAP_EQ_STR(report_part_name(&e, &p, buf, sizeof(buf)), parts[r].want,
			   "line %d: part name of '%s'", parts[r].line, parts[r].event);
	}
	test_metric_only();
	return tap_done();
}
