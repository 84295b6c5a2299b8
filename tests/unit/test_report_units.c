/* SPDX-License-Identifier: Apache-2.0 */
/* test_report_units.c: the text, CSV and JSON writers on hand-made reports aggregated per unit
 * (-A, --per-core, --per-cluster, --per-socket, --per-thread; with -I and -r), for the shapes
 * the counting side cannot yet produce for real. Expected lines are written out in full, from
 * the shapes Debian's perf 6.1 prints (perf stat -a -A / --per-core / --per-socket /
 * --per-thread, with -x, and -I): its stat-display.c pads the unit as CPU%-7d, S%d-D%d-C%-8d
 * then %4d CPUs, S%-5d then %4d, comm %16s-tid %-8d. Each CSV line is also held to the
 * separator count perf's own checker expects for its mode
 * (/usr/lib/perf-core/tests/shell/stat+csv_output.sh, commachecker: 6 plain, 7 with -I, 7 with
 * -A and --per-thread, 8 with --per-core and --per-socket).
 * With --json-dir DIR, also writes each mode's JSON report there (tests/cli/schema.bats
 * validates them against man/pmuprof-json.schema.json). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "metrics.h"
#include "render.h"
#include "report.h"
#include "tap.h"

enum { NEV = 6, NU = 4, NI = 2 };

/* A phone's four CPUs: 0-1 Cortex-A55 (cluster 0), 2-3 Cortex-A76 (cluster 1); the run took
 * 100 ms. Events: task-clock, context-switches on every CPU; inst_retired and cpu_cycles of
 * the A55 PMU (CPU1's cycles counted half of the time); cycles split over both core types
 * (CPU3's never on a counter); r1234, refused. */
static const char *const names[NEV] = { "task-clock", "context-switches", "inst_retired",
					"cpu_cycles", "cycles", "r1234" };
static struct report_event ev[NEV];
static struct report_cell cpu[NEV][NU], cells[NEV][NU], deltas[NEV][NI * NU];
static struct report_unit units[NU];
static struct report_metric_value ipc;
static struct report_part parts[2] = {
	{ .pmu = "armv8_cortex_a55", .cpus = "0-1", .fig.status = REPORT_COUNTED },
	{ .pmu = "armv8_cortex_a76", .cpus = "2-3", .fig.status = REPORT_COUNTED },
};
static const uint64_t tnow[NI] = { 60000000, 100000000 };
static struct report rep;

/* A cell counted for running of enabled ns, raw scaled as the counting side scales it. */
static struct report_cell counted(uint64_t raw, uint64_t enabled, uint64_t running)
{
	struct report_cell c = { .present = 1, .fig.status = REPORT_COUNTED, .fig.raw = raw,
				 .fig.enabled_ns = enabled, .fig.running_ns = running };

	c.fig.value = (double)raw * (double)enabled / (double)running;
	c.fig.counted_pct = 100.0 * (double)running / (double)enabled;
	c.fig.scaled = running < enabled;
	return c;
}

static struct report_cell uncounted(enum report_status st, const char *reason, uint64_t enabled)
{
	/* the share counted, as the builders give a count not counted: perf's CSV field */
	return (struct report_cell){ .present = 1, .fig.status = st, .fig.reason = reason,
				     .fig.enabled_ns = enabled,
				     .fig.counted_pct = report_share_pct(0, enabled) };
}

/* The generic set's metric of this name. */
static const struct mxtab_metric *def_named(const char *name)
{
	struct metrics_core mc;

	metrics_core_set(&mc, NULL, 0);
	return mxtab_find_metric(mc.set, name);
}

/* The figures per CPU; unit u of the report sums CPUs [first[u], first[u + 1]). */
static const uint64_t tc[NU] = { 100000000, 50000000, 25000000, 12500000 };
static const uint64_t cs[NU] = { 200, 5, 1000, 0 };
static const uint64_t inst[NU] = { 3000000, 1000000 };
static const uint64_t cyc_raw[NU] = { 2000000, 1000000 }, cyc_run[NU] = { 100, 50 };
static const uint64_t cycles[NU] = { 5000000, 4000000, 9000000 };

/* The cells of the whole run, one unit per CPU; the intervals: 60% of each count in the
 * first 60 ms, the rest in the last 40 ms. */
static void fill_cpu_cells(void)
{
	for (int c = 0; c < NU; c++) {
		cpu[0][c] = counted(tc[c], tc[c], tc[c]);
		cpu[1][c] = counted(cs[c], 100000000, 100000000);
		if (c < 2) {
			cpu[2][c] = counted(inst[c], 100, 100);
			cpu[3][c] = counted(cyc_raw[c], 100, cyc_run[c]);
		} else {
			cpu[2][c] = cpu[3][c] = (struct report_cell){ 0 };	/* A76: none */
		}
		cpu[4][c] = c < 3 ? counted(cycles[c], 100, 100)
				  : uncounted(REPORT_NOT_COUNTED, NULL, 100);
		cpu[5][c] = uncounted(REPORT_NOT_SUPPORTED, "EOPNOTSUPP", 0);
		for (int k = 0; k < NEV; k++) {
			cells[k][c] = cpu[k][c];
			for (uint64_t i = 0; i < NI; i++) {
				const struct report_cell *w = &cpu[k][c];
#define PART(x) (i ? (x) - (x) * 6 / 10 : (x) * 6 / 10)
				deltas[k][i * NU + c] = w->present && w->fig.status == REPORT_COUNTED ?
					counted(PART(w->fig.raw), PART(w->fig.enabled_ns), PART(w->fig.running_ns))
					: *w;
#undef PART
			}
		}
	}
}

/* Units of several CPUs: unit u sums CPUs [first[u], first[u + 1]), each CPU's count scaled
 * by its own times (as aggregation does), counted when any CPU counted it. */
static void group_cells(const int *first, size_t n)
{
	for (int k = 0; k < NEV; k++)
		for (size_t u = 0; u < n; u++) {
			struct report_cell *g = &cells[k][u];

			*g = (struct report_cell){ 0 };
			for (int c = first[u]; c < first[u + 1]; c++) {
				const struct report_cell *w = &cpu[k][c];

				if (!w->present)
					continue;
				if (!g->present || (w->fig.status == REPORT_COUNTED &&
						    g->fig.status != REPORT_COUNTED)) {
					g->fig.status = w->fig.status;
					g->fig.reason = w->fig.reason;
				}
				g->present = 1;
				g->fig.raw += w->fig.raw;
				g->fig.enabled_ns += w->fig.enabled_ns;
				g->fig.running_ns += w->fig.running_ns;
				g->fig.value += w->fig.status == REPORT_COUNTED ? w->fig.value : 0;
			}
			if (g->fig.status != REPORT_COUNTED)
				g->fig.counted_pct = report_share_pct(g->fig.running_ns,
								      g->fig.enabled_ns);
			else if (g->fig.enabled_ns)
				g->fig.counted_pct = 100.0 * (double)g->fig.running_ns /
						     (double)g->fig.enabled_ns;
			g->fig.scaled = g->fig.running_ns < g->fig.enabled_ns;
		}
}

/* Units named by their topology: ids printed as perf does, n units of ncpus CPUs. */
static void name_units(enum report_aggr aggr, size_t n, int ncpus)
{
	static const char *const tids[NU] = { "ppload-101", "ppload-102", "kworker/0:1-7",
					      "sh-99" };
	static const int tid[NU] = { 101, 102, 7, 99 };

	rep.aggr = aggr;
	rep.nunits = n;
	for (size_t u = 0; u < n; u++) {
		struct report_unit *x = &units[u];
		int s = aggr == REPORT_AGGR_CORE ? (int)u / 2 : aggr == REPORT_AGGR_SOCKET ? (int)u : 0;

		*x = (struct report_unit){ .cpu = -1, .socket = s, .die = 0, .cluster = -1,
					   .core = -1, .tid = -1, .ncpus = ncpus, .cache_level = -1,
					   .cache = -1 };
		if (aggr == REPORT_AGGR_CORE) {
			x->core = (int)u % 2;
			snprintf(x->id, sizeof(x->id), "S%d-D0-C%d", s, x->core);
		} else if (aggr == REPORT_AGGR_CLUSTER) {
			x->cluster = (int)u;
			snprintf(x->id, sizeof(x->id), "S0-D0-CLS%zu", u);
		} else if (aggr == REPORT_AGGR_CACHE) {	/* an L2 per cluster */
			x->cache_level = 2;
			x->cache = (int)u * 4;
			snprintf(x->id, sizeof(x->id), "S0-D0-L2-ID%d", x->cache);
		} else if (aggr == REPORT_AGGR_SOCKET) {
			x->die = -1;
			snprintf(x->id, sizeof(x->id), "S%zu", u);
		} else if (aggr == REPORT_AGGR_THREAD) {
			*x = (struct report_unit){ .cpu = -1, .socket = -1, .die = -1, .cluster = -1,
						   .core = -1, .tid = tid[u], .ncpus = 0,
						   .cache_level = -1, .cache = -1 };
			snprintf(x->id, sizeof(x->id), "%s", tids[u]);
		}
	}
}

/* The report of the phone, -a -A, without -I or -r. */
static void setup(void)
{
	static const uint32_t type[NEV] = { 1, 1, 8, 8, 0, 4 };
	static const uint64_t config[NEV] = { 1, 3, 0x08, 0x11, 0, 0x1234 };
	static const char *const pmu[NEV] = { "software", "software", "armv8_cortex_a55",
					      "armv8_cortex_a55", "cpu", "raw" };

	memset(ev, 0, sizeof(ev));
	for (int k = 0; k < NEV; k++) {
		ev[k] = (struct report_event){ .name = names[k], .pmu = pmu[k], .type = type[k],
					       .config = config[k], .unit = k ? "" : "ns",
					       .group = -1, .fig.status = REPORT_COUNTED,
					       .wall_ns = 100000000, .cells = cells[k] };
	}
	ev[5].fig.status = REPORT_NOT_SUPPORTED;
	ev[4].split = parts;
	ev[4].nsplit = 2;
	for (int c = 0; c < NU; c++)
		units[c] = (struct report_unit){ .cpu = c, .socket = 0, .die = 0,
						 .cluster = c / 2, .core = c, .tid = -1,
						 .ncpus = 1, .cache_level = -1, .cache = -1 };
	for (int c = 0; c < NU; c++)
		snprintf(units[c].id, sizeof(units[c].id), "CPU%d", c);
	fill_cpu_cells();
	/* its events sorted: CPU_CYCLES (ev[3]), INST_RETIRED (ev[2]) */
	ipc = (struct report_metric_value){ .def = def_named("ipc"), .value = 1.0, .anchor = 2,
					    .ev = { 3, 2 }, .nev = 2, .label = "insn per cycle",
					    .core = "generic" };
	rep = (struct report){ .tool_version = "test", .events = ev, .nevents = NEV,
			       .wall_ns = 100000000, .user_ns = 1000000, .sys_ns = 2000000,
			       .target = "system wide", .system_wide = 1,
			       .aggr = REPORT_AGGR_CPU, .units = units, .nunits = NU,
			       .metrics = &ipc, .nmetrics = 1 };
}

/* -I: two intervals, of the cells' deltas. */
static void with_intervals(void)
{
	for (int k = 0; k < NEV; k++)
		ev[k].unit_deltas = deltas[k];
	rep.interval_ms = 60;
	rep.interval_t_ns = tnow;
	rep.nintervals = NI;
}

/* What writer wrote of the report (render.h). */
static char *render(int fmt)
{
	return render_report(&rep, fmt);
}

/* Checks the writer's whole output against the lines, joined by newlines. */
static void expect(int line, int fmt, const char *const *want, size_t n, const char *what)
{
	char *got = render(fmt);
	size_t len = 0;
	char *all;

	for (size_t i = 0; i < n; i++)
		len += strlen(want[i]) + 1;
	all = calloc(1, len + 1);
	for (size_t i = 0; all && i < n; i++)
		strcat(strcat(all, want[i]), "\n");
	if (!TAP_EQ_STR(got, all, "line %d: %s", line, what) && got && all)
		for (char *g = got, *w = all; *g || *w; ) {	/* the first line that differs */
			size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");

			if (gl != wl || strncmp(g, w, gl)) {
				printf("#   first difference:\n#   got  '%.*s'\n#   want '%.*s'\n",
				       (int)gl, g, (int)wl, w);
				break;
			}
			g += gl + (g[gl] != '\0');
			w += wl + (w[wl] != '\0');
		}
	free(got);
	free(all);
}

/* Every CSV line (not a "#" comment) has seps separators, as perf's commachecker counts
 * them. */
static void csv_fields(int line, int seps, const char *what)
{
	char *got = render('x'), *l, *save = NULL;
	int bad = 0, n = 0;

	for (l = got ? strtok_r(got, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		int c = 0;

		if (l[0] == '#')
			continue;
		n++;
		for (const char *p = l; *p; p++)
			c += *p == ',';
		if (c != seps && !bad++)
			printf("#   %d separators in '%s'\n", c, l);
	}
	tap_ok(got && n > 0 && !bad, "line %d: %s: every line has %d separators (%d lines)", line,
	       what, seps, n);
	free(got);
}

#define EXPECT(fmt, want, what) expect(__LINE__, fmt, want, sizeof(want) / sizeof(want[0]), what)

static const char *const a_text[] = {
	"",
	" Performance counter stats for 'system wide':",
	"",
	"CPU0                   100.00 msec task-clock                       #    1.000 CPUs utilized",
	"CPU1                    50.00 msec task-clock                       #    0.500 CPUs utilized",
	"CPU2                    25.00 msec task-clock                       #    0.250 CPUs utilized",
	"CPU3                    12.50 msec task-clock                       #    0.125 CPUs utilized",
	"CPU0                      200      context-switches                 #    2.000 K/sec",
	"CPU1                        5      context-switches                 #  100.000 /sec",
	"CPU2                    1,000      context-switches                 #   40.000 K/sec",
	"CPU3                        0      context-switches                 #    0.000 /sec",
	"CPU0                3,000,000      inst_retired                     #    1.500 insn per cycle",
	"CPU1                1,000,000      inst_retired                     #    0.500 insn per cycle",
	"CPU0                2,000,000      cpu_cycles                       #   20.000 M/sec",
	"CPU1                2,000,000      cpu_cycles                       #   40.000 M/sec                (50.00%)",
	"CPU0                5,000,000      cycles                           #   50.000 M/sec",
	"CPU1                4,000,000      cycles                           #   80.000 M/sec",
	"CPU2                9,000,000      cycles                           #  360.000 M/sec",
	"CPU3            <not counted>      cycles",
	"CPU0          <not supported>      r1234",
	"CPU1          <not supported>      r1234",
	"CPU2          <not supported>      r1234",
	"CPU3          <not supported>      r1234",
	"",
	"       0.100000000 seconds time elapsed",
	"",
};

static const char *const a_csv[] = {
	"CPU0,100.00,msec,task-clock,100000000,100.00,1.000,CPUs utilized",
	"CPU1,50.00,msec,task-clock,50000000,100.00,0.500,CPUs utilized",
	"CPU2,25.00,msec,task-clock,25000000,100.00,0.250,CPUs utilized",
	"CPU3,12.50,msec,task-clock,12500000,100.00,0.125,CPUs utilized",
	"CPU0,200,,context-switches,100000000,100.00,2.000,K/sec",
	"CPU1,5,,context-switches,100000000,100.00,100.000,/sec",
	"CPU2,1000,,context-switches,100000000,100.00,40.000,K/sec",
	"CPU3,0,,context-switches,100000000,100.00,0.000,/sec",
	"CPU0,3000000,,inst_retired,100,100.00,1.500,insn per cycle",
	"CPU1,1000000,,inst_retired,100,100.00,0.500,insn per cycle",
	"CPU0,2000000,,cpu_cycles,100,100.00,20.000,M/sec",
	"CPU1,2000000,,cpu_cycles,50,50.00,40.000,M/sec",
	"CPU0,5000000,,cycles,100,100.00,50.000,M/sec",
	"CPU1,4000000,,cycles,100,100.00,80.000,M/sec",
	"CPU2,9000000,,cycles,100,100.00,360.000,M/sec",
	"CPU3,<not counted>,,cycles,0,0.00,,",
	"CPU0,<not supported>,,r1234,0,100.00,,",
	"CPU1,<not supported>,,r1234,0,100.00,,",
	"CPU2,<not supported>,,r1234,0,100.00,,",
	"CPU3,<not supported>,,r1234,0,100.00,,",
};

static const char *const a_csv_r[] = {
	"CPU0,100.00,msec,task-clock,,100000000,100.00,1.000,CPUs utilized",
	"CPU1,50.00,msec,task-clock,,50000000,100.00,0.500,CPUs utilized",
	"CPU2,25.00,msec,task-clock,,25000000,100.00,0.250,CPUs utilized",
	"CPU3,12.50,msec,task-clock,,12500000,100.00,0.125,CPUs utilized",
	"CPU0,200,,context-switches,,100000000,100.00,2.000,K/sec",
	"CPU1,5,,context-switches,,100000000,100.00,100.000,/sec",
	"CPU2,1000,,context-switches,,100000000,100.00,40.000,K/sec",
	"CPU3,0,,context-switches,,100000000,100.00,0.000,/sec",
	"CPU0,3000000,,inst_retired,,100,100.00,1.500,insn per cycle",
	"CPU1,1000000,,inst_retired,,100,100.00,0.500,insn per cycle",
	"CPU0,2000000,,cpu_cycles,,100,100.00,20.000,M/sec",
	"CPU1,2000000,,cpu_cycles,,50,50.00,40.000,M/sec",
	"CPU0,5000000,,cycles,,100,100.00,50.000,M/sec",
	"CPU1,4000000,,cycles,,100,100.00,80.000,M/sec",
	"CPU2,9000000,,cycles,,100,100.00,360.000,M/sec",
	"CPU3,<not counted>,,cycles,,0,0.00,,",
	"CPU0,<not supported>,,r1234,,0,100.00,,",
	"CPU1,<not supported>,,r1234,,0,100.00,,",
	"CPU2,<not supported>,,r1234,,0,100.00,,",
	"CPU3,<not supported>,,r1234,,0,100.00,,",
};

static const char *const ai_text[] = {
	"#           time CPU                    counts unit events",
	"     0.060000000 CPU0                    60.00 msec task-clock                       #    1.000 CPUs utilized",
	"     0.060000000 CPU1                    30.00 msec task-clock                       #    0.500 CPUs utilized",
	"     0.060000000 CPU2                    15.00 msec task-clock                       #    0.250 CPUs utilized",
	"     0.060000000 CPU3                     7.50 msec task-clock                       #    0.125 CPUs utilized",
	"     0.060000000 CPU0                      120      context-switches                 #    2.000 K/sec",
	"     0.060000000 CPU1                        3      context-switches                 #  100.000 /sec",
	"     0.060000000 CPU2                      600      context-switches                 #   40.000 K/sec",
	"     0.060000000 CPU3                        0      context-switches                 #    0.000 /sec",
	"     0.060000000 CPU0                1,800,000      inst_retired                     #    1.500 insn per cycle",
	"     0.060000000 CPU1                  600,000      inst_retired                     #    0.500 insn per cycle",
	"     0.060000000 CPU0                1,200,000      cpu_cycles                       #   20.000 M/sec",
	"     0.060000000 CPU1                1,200,000      cpu_cycles                       #   40.000 M/sec                (50.00%)",
	"     0.060000000 CPU0                3,000,000      cycles                           #   50.000 M/sec",
	"     0.060000000 CPU1                2,400,000      cycles                           #   80.000 M/sec",
	"     0.060000000 CPU2                5,400,000      cycles                           #  360.000 M/sec",
	"     0.060000000 CPU3            <not counted>      cycles",
	"     0.060000000 CPU0          <not supported>      r1234",
	"     0.060000000 CPU1          <not supported>      r1234",
	"     0.060000000 CPU2          <not supported>      r1234",
	"     0.060000000 CPU3          <not supported>      r1234",
	"     0.100000000 CPU0                    40.00 msec task-clock                       #    1.000 CPUs utilized",
	"     0.100000000 CPU1                    20.00 msec task-clock                       #    0.500 CPUs utilized",
	"     0.100000000 CPU2                    10.00 msec task-clock                       #    0.250 CPUs utilized",
	"     0.100000000 CPU3                     5.00 msec task-clock                       #    0.125 CPUs utilized",
	"     0.100000000 CPU0                       80      context-switches                 #    2.000 K/sec",
	"     0.100000000 CPU1                        2      context-switches                 #  100.000 /sec",
	"     0.100000000 CPU2                      400      context-switches                 #   40.000 K/sec",
	"     0.100000000 CPU3                        0      context-switches                 #    0.000 /sec",
	"     0.100000000 CPU0                1,200,000      inst_retired                     #    1.500 insn per cycle",
	"     0.100000000 CPU1                  400,000      inst_retired                     #    0.500 insn per cycle",
	"     0.100000000 CPU0                  800,000      cpu_cycles                       #   20.000 M/sec",
	"     0.100000000 CPU1                  800,000      cpu_cycles                       #   40.000 M/sec                (50.00%)",
	"     0.100000000 CPU0                2,000,000      cycles                           #   50.000 M/sec",
	"     0.100000000 CPU1                1,600,000      cycles                           #   80.000 M/sec",
	"     0.100000000 CPU2                3,600,000      cycles                           #  360.000 M/sec",
	"     0.100000000 CPU3            <not counted>      cycles",
	"     0.100000000 CPU0          <not supported>      r1234",
	"     0.100000000 CPU1          <not supported>      r1234",
	"     0.100000000 CPU2          <not supported>      r1234",
	"     0.100000000 CPU3          <not supported>      r1234",
	"",
	" Performance counter stats for 'system wide':",
	"",
	"CPU0                   100.00 msec task-clock                       #    1.000 CPUs utilized",
	"CPU1                    50.00 msec task-clock                       #    0.500 CPUs utilized",
	"CPU2                    25.00 msec task-clock                       #    0.250 CPUs utilized",
	"CPU3                    12.50 msec task-clock                       #    0.125 CPUs utilized",
	"CPU0                      200      context-switches                 #    2.000 K/sec",
	"CPU1                        5      context-switches                 #  100.000 /sec",
	"CPU2                    1,000      context-switches                 #   40.000 K/sec",
	"CPU3                        0      context-switches                 #    0.000 /sec",
	"CPU0                3,000,000      inst_retired                     #    1.500 insn per cycle",
	"CPU1                1,000,000      inst_retired                     #    0.500 insn per cycle",
	"CPU0                2,000,000      cpu_cycles                       #   20.000 M/sec",
	"CPU1                2,000,000      cpu_cycles                       #   40.000 M/sec                (50.00%)",
	"CPU0                5,000,000      cycles                           #   50.000 M/sec",
	"CPU1                4,000,000      cycles                           #   80.000 M/sec",
	"CPU2                9,000,000      cycles                           #  360.000 M/sec",
	"CPU3            <not counted>      cycles",
	"CPU0          <not supported>      r1234",
	"CPU1          <not supported>      r1234",
	"CPU2          <not supported>      r1234",
	"CPU3          <not supported>      r1234",
	"",
	"       0.100000000 seconds time elapsed",
	"",
};

static const char *const ai_csv[] = {
	"0.060000000,CPU0,60.00,msec,task-clock,60000000,100.00,1.000,CPUs utilized",
	"0.060000000,CPU1,30.00,msec,task-clock,30000000,100.00,0.500,CPUs utilized",
	"0.060000000,CPU2,15.00,msec,task-clock,15000000,100.00,0.250,CPUs utilized",
	"0.060000000,CPU3,7.50,msec,task-clock,7500000,100.00,0.125,CPUs utilized",
	"0.060000000,CPU0,120,,context-switches,60000000,100.00,2.000,K/sec",
	"0.060000000,CPU1,3,,context-switches,60000000,100.00,100.000,/sec",
	"0.060000000,CPU2,600,,context-switches,60000000,100.00,40.000,K/sec",
	"0.060000000,CPU3,0,,context-switches,60000000,100.00,0.000,/sec",
	"0.060000000,CPU0,1800000,,inst_retired,60,100.00,1.500,insn per cycle",
	"0.060000000,CPU1,600000,,inst_retired,60,100.00,0.500,insn per cycle",
	"0.060000000,CPU0,1200000,,cpu_cycles,60,100.00,20.000,M/sec",
	"0.060000000,CPU1,1200000,,cpu_cycles,30,50.00,40.000,M/sec",
	"0.060000000,CPU0,3000000,,cycles,60,100.00,50.000,M/sec",
	"0.060000000,CPU1,2400000,,cycles,60,100.00,80.000,M/sec",
	"0.060000000,CPU2,5400000,,cycles,60,100.00,360.000,M/sec",
	"0.060000000,CPU3,<not counted>,,cycles,0,0.00,,",
	"0.060000000,CPU0,<not supported>,,r1234,0,100.00,,",
	"0.060000000,CPU1,<not supported>,,r1234,0,100.00,,",
	"0.060000000,CPU2,<not supported>,,r1234,0,100.00,,",
	"0.060000000,CPU3,<not supported>,,r1234,0,100.00,,",
	"0.100000000,CPU0,40.00,msec,task-clock,40000000,100.00,1.000,CPUs utilized",
	"0.100000000,CPU1,20.00,msec,task-clock,20000000,100.00,0.500,CPUs utilized",
	"0.100000000,CPU2,10.00,msec,task-clock,10000000,100.00,0.250,CPUs utilized",
	"0.100000000,CPU3,5.00,msec,task-clock,5000000,100.00,0.125,CPUs utilized",
	"0.100000000,CPU0,80,,context-switches,40000000,100.00,2.000,K/sec",
	"0.100000000,CPU1,2,,context-switches,40000000,100.00,100.000,/sec",
	"0.100000000,CPU2,400,,context-switches,40000000,100.00,40.000,K/sec",
	"0.100000000,CPU3,0,,context-switches,40000000,100.00,0.000,/sec",
	"0.100000000,CPU0,1200000,,inst_retired,40,100.00,1.500,insn per cycle",
	"0.100000000,CPU1,400000,,inst_retired,40,100.00,0.500,insn per cycle",
	"0.100000000,CPU0,800000,,cpu_cycles,40,100.00,20.000,M/sec",
	"0.100000000,CPU1,800000,,cpu_cycles,20,50.00,40.000,M/sec",
	"0.100000000,CPU0,2000000,,cycles,40,100.00,50.000,M/sec",
	"0.100000000,CPU1,1600000,,cycles,40,100.00,80.000,M/sec",
	"0.100000000,CPU2,3600000,,cycles,40,100.00,360.000,M/sec",
	"0.100000000,CPU3,<not counted>,,cycles,0,0.00,,",
	"0.100000000,CPU0,<not supported>,,r1234,0,100.00,,",
	"0.100000000,CPU1,<not supported>,,r1234,0,100.00,,",
	"0.100000000,CPU2,<not supported>,,r1234,0,100.00,,",
	"0.100000000,CPU3,<not supported>,,r1234,0,100.00,,",
	"summary,CPU0,100.00,msec,task-clock,100000000,100.00,1.000,CPUs utilized",
	"summary,CPU1,50.00,msec,task-clock,50000000,100.00,0.500,CPUs utilized",
	"summary,CPU2,25.00,msec,task-clock,25000000,100.00,0.250,CPUs utilized",
	"summary,CPU3,12.50,msec,task-clock,12500000,100.00,0.125,CPUs utilized",
	"summary,CPU0,200,,context-switches,100000000,100.00,2.000,K/sec",
	"summary,CPU1,5,,context-switches,100000000,100.00,100.000,/sec",
	"summary,CPU2,1000,,context-switches,100000000,100.00,40.000,K/sec",
	"summary,CPU3,0,,context-switches,100000000,100.00,0.000,/sec",
	"summary,CPU0,3000000,,inst_retired,100,100.00,1.500,insn per cycle",
	"summary,CPU1,1000000,,inst_retired,100,100.00,0.500,insn per cycle",
	"summary,CPU0,2000000,,cpu_cycles,100,100.00,20.000,M/sec",
	"summary,CPU1,2000000,,cpu_cycles,50,50.00,40.000,M/sec",
	"summary,CPU0,5000000,,cycles,100,100.00,50.000,M/sec",
	"summary,CPU1,4000000,,cycles,100,100.00,80.000,M/sec",
	"summary,CPU2,9000000,,cycles,100,100.00,360.000,M/sec",
	"summary,CPU3,<not counted>,,cycles,0,0.00,,",
	"summary,CPU0,<not supported>,,r1234,0,100.00,,",
	"summary,CPU1,<not supported>,,r1234,0,100.00,,",
	"summary,CPU2,<not supported>,,r1234,0,100.00,,",
	"summary,CPU3,<not supported>,,r1234,0,100.00,,",
};

static const char *const socket_text[] = {
	"",
	" Performance counter stats for 'system wide':",
	"",
	"S0        2             150.00 msec task-clock                       #    1.500 CPUs utilized",
	"S0        2                205      context-switches                 #    1.367 K/sec",
	"S0        2          4,000,000      inst_retired                     #    1.000 insn per cycle",
	"S0        2          4,000,000      cpu_cycles                       #   26.667 M/sec                (75.00%)",
	"S0        2          9,000,000      cycles                           #   60.000 M/sec",
	"S0        2    <not supported>      r1234",
	"S1        2              37.50 msec task-clock                       #    0.375 CPUs utilized",
	"S1        2              1,000      context-switches                 #   26.667 K/sec",
	"S1        2          9,000,000      cycles                           #  240.000 M/sec                (50.00%)",
	"S1        2    <not supported>      r1234",
	"                        # r1234: not supported: no such PMU in the fixture tree",
	"",
	"       0.100000000 seconds time elapsed",
	"",
	" Counting ended at the timeout (--timeout 100 ms).",
	"",
};

static const char *const socket_csv[] = {
	"S0,2,150.00,msec,task-clock,150000000,100.00,1.500,CPUs utilized",
	"S0,2,205,,context-switches,200000000,100.00,1.367,K/sec",
	"S0,2,4000000,,inst_retired,200,100.00,1.000,insn per cycle",
	"S0,2,4000000,,cpu_cycles,150,75.00,26.667,M/sec",
	"S0,2,9000000,,cycles,200,100.00,60.000,M/sec",
	"S0,2,<not supported>,,r1234,0,100.00,,",
	"S1,2,37.50,msec,task-clock,37500000,100.00,0.375,CPUs utilized",
	"S1,2,1000,,context-switches,200000000,100.00,26.667,K/sec",
	"S1,2,9000000,,cycles,100,50.00,240.000,M/sec",
	"S1,2,<not supported>,,r1234,0,100.00,,",
};

static const char *const cluster_text[] = {
	"",
	" Performance counter stats for 'system wide':",
	"",
	"S0-D0-CLS0           2             150.00 msec task-clock                       #    1.500 CPUs utilized",
	"S0-D0-CLS0           2                205      context-switches                 #    1.367 K/sec",
	"S0-D0-CLS0           2          4,000,000      inst_retired                     #    1.000 insn per cycle",
	"S0-D0-CLS0           2          4,000,000      cpu_cycles                       #   26.667 M/sec                (75.00%)",
	"S0-D0-CLS0           2          9,000,000      cycles                           #   60.000 M/sec",
	"S0-D0-CLS0           2    <not supported>      r1234",
	"S0-D0-CLS1           2              37.50 msec task-clock                       #    0.375 CPUs utilized",
	"S0-D0-CLS1           2              1,000      context-switches                 #   26.667 K/sec",
	"S0-D0-CLS1           2          9,000,000      cycles                           #  240.000 M/sec                (50.00%)",
	"S0-D0-CLS1           2    <not supported>      r1234",
	"",
	"       0.100000000 seconds time elapsed",
	"",
};

static const char *const core_text[] = {
	"",
	" Performance counter stats for 'system wide':",
	"",
	"S0-D0-C0           1             100.00 msec task-clock                       #    1.000 CPUs utilized",
	"S0-D0-C0           1                200      context-switches                 #    2.000 K/sec",
	"S0-D0-C0           1          3,000,000      inst_retired                     #    1.500 insn per cycle",
	"S0-D0-C0           1          2,000,000      cpu_cycles                       #   20.000 M/sec",
	"S0-D0-C0           1          5,000,000      cycles                           #   50.000 M/sec",
	"S0-D0-C0           1    <not supported>      r1234",
	"S0-D0-C1           1              50.00 msec task-clock                       #    0.500 CPUs utilized",
	"S0-D0-C1           1                  5      context-switches                 #  100.000 /sec",
	"S0-D0-C1           1          1,000,000      inst_retired                     #    0.500 insn per cycle",
	"S0-D0-C1           1          2,000,000      cpu_cycles                       #   40.000 M/sec                (50.00%)",
	"S0-D0-C1           1          4,000,000      cycles                           #   80.000 M/sec",
	"S0-D0-C1           1    <not supported>      r1234",
	"S1-D0-C0           1              25.00 msec task-clock                       #    0.250 CPUs utilized",
	"S1-D0-C0           1              1,000      context-switches                 #   40.000 K/sec",
	"S1-D0-C0           1          9,000,000      cycles                           #  360.000 M/sec",
	"S1-D0-C0           1    <not supported>      r1234",
	"S1-D0-C1           1              12.50 msec task-clock                       #    0.125 CPUs utilized",
	"S1-D0-C1           1                  0      context-switches                 #    0.000 /sec",
	"S1-D0-C1           1      <not counted>      cycles",
	"S1-D0-C1           1    <not supported>      r1234",
	"",
	"       0.100000000 seconds time elapsed",
	"",
};

static const char *const core_csv[] = {
	"S0-D0-C0,1,100.00,msec,task-clock,100000000,100.00,1.000,CPUs utilized",
	"S0-D0-C0,1,200,,context-switches,100000000,100.00,2.000,K/sec",
	"S0-D0-C0,1,3000000,,inst_retired,100,100.00,1.500,insn per cycle",
	"S0-D0-C0,1,2000000,,cpu_cycles,100,100.00,20.000,M/sec",
	"S0-D0-C0,1,5000000,,cycles,100,100.00,50.000,M/sec",
	"S0-D0-C0,1,<not supported>,,r1234,0,100.00,,",
	"S0-D0-C1,1,50.00,msec,task-clock,50000000,100.00,0.500,CPUs utilized",
	"S0-D0-C1,1,5,,context-switches,100000000,100.00,100.000,/sec",
	"S0-D0-C1,1,1000000,,inst_retired,100,100.00,0.500,insn per cycle",
	"S0-D0-C1,1,2000000,,cpu_cycles,50,50.00,40.000,M/sec",
	"S0-D0-C1,1,4000000,,cycles,100,100.00,80.000,M/sec",
	"S0-D0-C1,1,<not supported>,,r1234,0,100.00,,",
	"S1-D0-C0,1,25.00,msec,task-clock,25000000,100.00,0.250,CPUs utilized",
	"S1-D0-C0,1,1000,,context-switches,100000000,100.00,40.000,K/sec",
	"S1-D0-C0,1,9000000,,cycles,100,100.00,360.000,M/sec",
	"S1-D0-C0,1,<not supported>,,r1234,0,100.00,,",
	"S1-D0-C1,1,12.50,msec,task-clock,12500000,100.00,0.125,CPUs utilized",
	"S1-D0-C1,1,0,,context-switches,100000000,100.00,0.000,/sec",
	"S1-D0-C1,1,<not counted>,,cycles,0,0.00,,",
	"S1-D0-C1,1,<not supported>,,r1234,0,100.00,,",
};

static const char *const thread_text[] = {
	"",
	" Performance counter stats for process id '101,7,99':",
	"",
	"          ppload-101                  100.00 msec task-clock                       #    1.000 CPUs utilized",
	"          ppload-102                   50.00 msec task-clock                       #    0.500 CPUs utilized",
	"     kworker/0:1-7                     25.00 msec task-clock                       #    0.250 CPUs utilized",
	"              sh-99                    12.50 msec task-clock                       #    0.125 CPUs utilized",
	"     kworker/0:1-7                     1,000      context-switches                 #   40.000 K/sec",
	"          ppload-101                     200      context-switches                 #    2.000 K/sec",
	"          ppload-102                       5      context-switches                 #  100.000 /sec",
	"              sh-99                        0      context-switches                 #    0.000 /sec",
	"          ppload-101               3,000,000      inst_retired                     #    1.500 insn per cycle",
	"          ppload-102               1,000,000      inst_retired                     #    0.500 insn per cycle",
	"          ppload-101               2,000,000      cpu_cycles                       #   20.000 M/sec",
	"          ppload-102               2,000,000      cpu_cycles                       #   40.000 M/sec                (50.00%)",
	"     kworker/0:1-7                 9,000,000      cycles                           #  360.000 M/sec",
	"          ppload-101               5,000,000      cycles                           #   50.000 M/sec",
	"          ppload-102               4,000,000      cycles                           #   80.000 M/sec",
	"              sh-99            <not counted>      cycles",
	"          ppload-101         <not supported>      r1234",
	"          ppload-102         <not supported>      r1234",
	"     kworker/0:1-7           <not supported>      r1234",
	"              sh-99          <not supported>      r1234",
	"",
	"       0.100000000 seconds time elapsed",
	"",
};

static const char *const thread_csv[] = {
	"ppload-101,100.00,msec,task-clock,100000000,100.00,1.000,CPUs utilized",
	"ppload-102,50.00,msec,task-clock,50000000,100.00,0.500,CPUs utilized",
	"kworker/0:1-7,25.00,msec,task-clock,25000000,100.00,0.250,CPUs utilized",
	"sh-99,12.50,msec,task-clock,12500000,100.00,0.125,CPUs utilized",
	"kworker/0:1-7,1000,,context-switches,100000000,100.00,40.000,K/sec",
	"ppload-101,200,,context-switches,100000000,100.00,2.000,K/sec",
	"ppload-102,5,,context-switches,100000000,100.00,100.000,/sec",
	"sh-99,0,,context-switches,100000000,100.00,0.000,/sec",
	"ppload-101,3000000,,inst_retired,100,100.00,1.500,insn per cycle",
	"ppload-102,1000000,,inst_retired,100,100.00,0.500,insn per cycle",
	"ppload-101,2000000,,cpu_cycles,100,100.00,20.000,M/sec",
	"ppload-102,2000000,,cpu_cycles,50,50.00,40.000,M/sec",
	"kworker/0:1-7,9000000,,cycles,100,100.00,360.000,M/sec",
	"ppload-101,5000000,,cycles,100,100.00,50.000,M/sec",
	"ppload-102,4000000,,cycles,100,100.00,80.000,M/sec",
	"sh-99,<not counted>,,cycles,0,0.00,,",
	"ppload-101,<not supported>,,r1234,0,100.00,,",
	"ppload-102,<not supported>,,r1234,0,100.00,,",
	"kworker/0:1-7,<not supported>,,r1234,0,100.00,,",
	"sh-99,<not supported>,,r1234,0,100.00,,",
};

/* The item at a path of keys and array indexes, "events/2/units/1/value"; NULL when none. */
static const cJSON *jget(const cJSON *j, const char *path)
{
	char key[64];

	while (j && *path) {
		size_t n = strcspn(path, "/");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (cJSON_IsArray(j))
			j = cJSON_GetArrayItem(j, atoi(key));
		else
			j = cJSON_GetObjectItemCaseSensitive(j, key);
		n = strlen(key);
		path += n + (path[n] == '/');
	}
	return j;
}

/* The JSON report: written to DIR/NAME.json with --json-dir, and its values at paths checked
 * (numbers, strings, or "null"). */
static void expect_json(int line, const char *dir, const char *name,
			const char *const (*want)[2], size_t n)
{
	char *got = render('j');
	cJSON *j = got ? cJSON_Parse(got) : NULL;

	tap_ok(j != NULL, "line %d: %s: JSON parses", line, name);
	for (size_t i = 0; j && i < n; i++) {
		const cJSON *v = jget(j, want[i][0]);
		char buf[64] = "(none)";

		if (cJSON_IsNumber(v))
			snprintf(buf, sizeof(buf), "%.6g", v->valuedouble);
		else if (cJSON_IsString(v))
			snprintf(buf, sizeof(buf), "%s", v->valuestring);
		else if (v && (v->type & 0xff) == cJSON_NULL)
			snprintf(buf, sizeof(buf), "null");
		else if (v && (v->type & 0xff) == cJSON_True)
			snprintf(buf, sizeof(buf), "true");
		else if (v && (v->type & 0xff) == cJSON_False)
			snprintf(buf, sizeof(buf), "false");
		else if (cJSON_IsArray(v))
			snprintf(buf, sizeof(buf), "[%d]", cJSON_GetArraySize(v));
		TAP_EQ_STR(buf, want[i][1], "line %d: %s: %s", line, name, want[i][0]);
	}
	if (dir && got) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.json", dir, name);
		f = fopen(path, "w");
		tap_ok(f && fputs(got, f) >= 0 && fclose(f) == 0, "line %d: wrote %s", line, path);
	}
	cJSON_Delete(j);
	free(got);
}

#define EXPECT_JSON(name, ...) do { \
	static const char *const want_[][2] = { __VA_ARGS__ }; \
	expect_json(__LINE__, json_dir, name, want_, sizeof(want_) / sizeof(want_[0])); \
} while (0)

/* Count of lines of the writer's output that hold s; that are s, when s starts with '='. */
static int lines_with(int fmt, const char *s)
{
	char *got = render(fmt), *l, *save = NULL;
	int n = 0;

	for (l = got ? strtok_r(got, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		n += s[0] == '=' ? !strcmp(l, s + 1) : strstr(l, s) != NULL;
	free(got);
	return n;
}

int main(int argc, char **argv)
{
	const char *json_dir = argc == 3 && !strcmp(argv[1], "--json-dir") ? argv[2] : NULL;
	static const int pairs[] = { 0, 2, 4 }, each[] = { 0, 1, 2, 3, 4 };

	/* -a -A */
	setup();
	EXPECT('t', a_text, "-a -A: text");
	EXPECT('x', a_csv, "-a -A: CSV");
	csv_fields(__LINE__, 7, "-a -A: CSV (commachecker --system-wide-no-aggr)");
	EXPECT_JSON("cpu",
		    { "schema_version", "1.8" }, { "target", "system wide" },
		    { "system_wide", "true" }, { "aggregation", "cpu" }, { "timeout_ms", "null" },
		    { "timed_out", "false" }, { "events/0/units", "[4]" },
		    { "events/0/units/3/unit", "CPU3" }, { "events/0/units/3/cpu", "3" },
		    { "events/0/units/3/value", "1.25e+07" },
		    { "events/0/units/3/metric/value", "0.125" },
		    { "events/0/units/3/metric/unit", "CPUs utilized" },
		    { "events/0/units/3/thread", "null" },
		    /* the A55's events only where the A55 is */
		    { "events/2/units", "[2]" }, { "events/2/units/1/metric/value", "0.5" },
		    { "events/2/units/1/metric/unit", "insn per cycle" },
		    { "events/3/units/1/raw_value", "1e+06" }, { "events/3/units/1/value", "2e+06" },
		    { "events/3/units/1/counted_pct", "50" }, { "events/3/units/1/scaled", "true" },
		    { "events/4/units/3/status", "not counted" },
		    { "events/4/units/3/value", "null" }, { "events/4/units/3/raw_value", "0" },
		    { "events/4/units/3/counted_pct", "null" },
		    { "events/5/units/0/status", "not supported" },
		    { "events/5/units/0/reason", "EOPNOTSUPP" },
		    { "events/5/units/0/raw_value", "null" }, { "events/5/units/0/metric", "null" },
		    /* the totals keep their own figures */
		    { "events/2/metric/value", "1" });

	/* -a -A -r 3: cell means; the noise field is there, empty */
	setup();
	rep.nruns = 3;
	EXPECT('x', a_csv_r, "-a -A -r 3: CSV");
	TAP_EQ_INT(lines_with('t', "Performance counter stats for 'system wide' (3 runs):"), 1,
		   "line %d: -a -A -r 3: the header counts the runs", __LINE__);

	/* -a -A -I 60 */
	setup();
	with_intervals();
	EXPECT('t', ai_text, "-a -A -I: text");
	EXPECT('x', ai_csv, "-a -A -I: CSV");
	csv_fields(__LINE__, 8, "-a -A -I: CSV (the time, then -A's 7)");
	EXPECT_JSON("cpu-interval",
		    { "intervals/1/events/0/units/0/value", "4e+07" },
		    { "intervals/1/events/0/units/0/metric/value", "1" },
		    { "intervals/0/events/3/units/1/value", "1.2e+06" },
		    { "intervals/0/events/3/units/1/counted_pct", "50" },
		    { "intervals/0/events/2/units", "[2]" },
		    { "intervals/0/events/0/value", "null" });
	rep.csv_no_summary = 1;
	TAP_EQ_INT(lines_with('x', "summary"), 0, "line %d: --no-csv-summary", __LINE__);
	TAP_EQ_INT(lines_with('x', "=CPU0,100.00,msec,task-clock,100000000,100.00,1.000,"
			      "CPUs utilized"), 1,
		   "line %d: --no-csv-summary: the totals without the time field", __LINE__);

	/* --per-socket, two sockets of two CPUs; r1234 with a note; ended at --timeout */
	setup();
	group_cells(pairs, 2);
	name_units(REPORT_AGGR_SOCKET, 2, 2);
	ev[5].note = "no such PMU in the fixture tree";
	rep.timeout_ms = 100;
	rep.timed_out = 1;
	EXPECT('t', socket_text, "--per-socket: text");
	EXPECT('x', socket_csv, "--per-socket: CSV");
	csv_fields(__LINE__, 8, "--per-socket: CSV (commachecker --per-socket)");
	EXPECT_JSON("socket",
		    { "aggregation", "socket" }, { "timeout_ms", "100" }, { "timed_out", "true" },
		    { "events/0/units/1/unit", "S1" }, { "events/0/units/1/socket", "1" },
		    { "events/0/units/1/die", "null" }, { "events/0/units/1/cpu", "null" },
		    { "events/0/units/1/ncpus", "2" }, { "events/0/units/1/value", "3.75e+07" },
		    { "events/3/units", "[1]" }, { "events/3/units/0/counted_pct", "75" },
		    { "events/2/units/0/metric/value", "1" });

	/* --per-cluster: the phone's two clusters */
	setup();
	group_cells(pairs, 2);
	name_units(REPORT_AGGR_CLUSTER, 2, 2);
	EXPECT('t', cluster_text, "--per-cluster: text");
	csv_fields(__LINE__, 8, "--per-cluster: CSV (as --per-core)");
	EXPECT_JSON("cluster", { "aggregation", "cluster" },
		    { "events/4/units/1/unit", "S0-D0-CLS1" }, { "events/4/units/1/cluster", "1" },
		    { "events/4/units/1/counted_pct", "50" });

	/* --per-cache=L2: the phone's clusters, an L2 each (ids 0 and 4): perf 6.4's names, the
	 * id padded to 22 columns, then the CPUs */
	setup();
	group_cells(pairs, 2);
	name_units(REPORT_AGGR_CACHE, 2, 2);
	TAP_EQ_INT(lines_with('t', "=S0-D0-L2-ID0              2             150.00 msec task-clock"
			      "                       #    1.500 CPUs utilized"), 1,
		   "line %d: --per-cache: text", __LINE__);
	TAP_EQ_INT(lines_with('t', "=S0-D0-L2-ID4              2          9,000,000      cycles"
			      "                           #  240.000 M/sec                (50.00%)"), 1,
		   "line %d: --per-cache: text, the second cache", __LINE__);
	TAP_EQ_INT(lines_with('x', "=S0-D0-L2-ID4,2,9000000,,cycles,"), 0,
		   "line %d: --per-cache: CSV has more fields after", __LINE__);
	TAP_EQ_INT(lines_with('x', "S0-D0-L2-ID4,2,9000000,,cycles,"), 1,
		   "line %d: --per-cache: CSV: the id, the CPUs, then the count", __LINE__);
	csv_fields(__LINE__, 8, "--per-cache: CSV (commachecker --per-cache)");
	EXPECT_JSON("cache", { "aggregation", "cache" },
		    { "events/4/units/1/unit", "S0-D0-L2-ID4" },
		    { "events/4/units/1/cache_level", "2" }, { "events/4/units/1/cache", "4" },
		    { "events/4/units/1/cluster", "null" }, { "events/4/units/1/ncpus", "2" });

	/* --per-core: one CPU per core, two sockets */
	setup();
	group_cells(each, 4);
	name_units(REPORT_AGGR_CORE, 4, 1);
	EXPECT('t', core_text, "--per-core: text");
	EXPECT('x', core_csv, "--per-core: CSV");
	csv_fields(__LINE__, 8, "--per-core: CSV (commachecker --per-core)");
	EXPECT_JSON("core", { "aggregation", "core" }, { "events/0/units/2/unit", "S1-D0-C0" },
		    { "events/0/units/2/socket", "1" }, { "events/0/units/2/core", "0" });

	/* --per-thread -p: threads sorted per event, largest first */
	setup();
	name_units(REPORT_AGGR_THREAD, 4, 0);
	rep.target = "process id '101,7,99'";
	rep.system_wide = 0;
	EXPECT('t', thread_text, "--per-thread -p: text");
	EXPECT('x', thread_csv, "--per-thread -p: CSV");
	csv_fields(__LINE__, 7, "--per-thread: CSV (commachecker --per-thread)");
	EXPECT_JSON("thread", { "aggregation", "thread" }, { "target", "process id '101,7,99'" },
		    { "events/1/units/2/unit", "kworker/0:1-7" },
		    { "events/1/units/2/thread", "7" }, { "events/1/units/2/value", "1000" });
	/* -a --per-thread: the threads that counted nothing are left out, as perf does */
	rep.target = "system wide";
	rep.system_wide = 1;
	TAP_EQ_INT(lines_with('t', "sh-99"), 3, "line %d: -a --per-thread: sh-99's zero "
		   "context-switches left out of the text", __LINE__);
	TAP_EQ_INT(lines_with('x', "sh-99,0,,context-switches"), 0,
		   "line %d: -a --per-thread: and of the CSV", __LINE__);

	/* summed over CPUs (-C without -A): perf's heading for the target, no user/sys times */
	setup();
	rep.aggr = REPORT_AGGR_GLOBAL;
	rep.target = "CPU(s) 0-1";
	TAP_EQ_INT(lines_with('t', "= Performance counter stats for 'CPU(s) 0-1':"), 1,
		   "line %d: -C: the heading names the CPUs", __LINE__);
	TAP_EQ_INT(lines_with('t', "seconds user") + lines_with('t', "seconds sys"), 0,
		   "line %d: -C: no user and sys times of a command", __LINE__);
	rep.target = "thread id '1235'";
	TAP_EQ_INT(lines_with('t', "= Performance counter stats for thread id '1235':"), 1,
		   "line %d: -t: a target that quotes itself is printed as it is", __LINE__);
	rep.target = NULL;
	rep.argc = 2;
	rep.argv = (char *const[]){ "sleep", "1" };
	TAP_EQ_INT(lines_with('t', "= Performance counter stats for 'sleep 1':"), 1,
		   "line %d: the command's heading, as before", __LINE__);
	TAP_EQ_INT(lines_with('t', "seconds user") + lines_with('t', "seconds sys"), 2,
		   "line %d: ... with its user and sys times", __LINE__);
	TAP_EQ_INT(lines_with('t', "CPU0"), 0, "line %d: ... and no units", __LINE__);

	/* aggregated, a unit with no readings of any event is printed nowhere */
	setup();
	for (int k = 0; k < NEV; k++)
		cells[k][3].present = 0;
	TAP_EQ_INT(lines_with('t', "CPU3"), 0, "line %d: a unit without readings", __LINE__);
	TAP_EQ_INT(lines_with('x', "CPU3"), 0, "line %d: ... nor in CSV", __LINE__);
	return tap_done();
}
