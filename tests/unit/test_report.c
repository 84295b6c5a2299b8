/* test_report.c: the -x and text writers on hand-made reports, for the rows this machine
 * cannot produce for real (an event enabled but never on a counter needs a PMU to multiplex;
 * tests/cli/perf_format.bats checks what real runs print). Expected lines: perf 6.1's
 * print_running_csv and print_noise_pct conventions, as Debian's perf prints them for
 * software events (-x, with -r). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		.status = rows[r].status, .raw = rows[r].raw, .value = (double)rows[r].raw,
		.enabled_ns = rows[r].enabled_ns, .running_ns = rows[r].running_ns,
		.counted_pct = rows[r].enabled_ns ? 100.0 * (double)rows[r].running_ns /
			       (double)rows[r].enabled_ns : 100.0,
	};
	struct report rep = { .events = &e, .nevents = 1, .nruns = rows[r].nruns };
	FILE *f = fmemopen(buf, len, "w");

	e.stats.rse = rows[r].rse;
	if (!f) {
		buf[0] = '\0';
		return;
	}
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
	return tap_done();
}
