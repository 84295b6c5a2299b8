/* SPDX-License-Identifier: Apache-2.0 */
/* bench/bench_evtab.c: times event-table lookups and listing every event of every core. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "evtab.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Names typed the way users type them (lower case), looked up on a large core. */
static double bench_find_name(const struct evtab_core *core, int rounds)
{
	static const char *const names[] = { "inst_retired", "cpu_cycles", "l1d_cache_refill",
		"stall_backend", "br_mis_pred_retired", "l2d_cache_wb_victim", "sve_inst_spec",
		"no_such_event" };
	const size_t n = sizeof(names) / sizeof(names[0]);
	volatile size_t found = 0;
	double t0 = now_ns();
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < n; i++)
			found += evtab_find_name(core, names[i]) != NULL;
	return (now_ns() - t0) / ((double)rounds * (double)n);
}

static double bench_find_code(const struct evtab_core *core, int rounds)
{
	volatile size_t found = 0;
	double t0 = now_ns();
	for (int r = 0; r < rounds; r++)
		for (unsigned code = 0; code < 256; code++)
			found += evtab_find_code(core, code) != NULL;
	return (now_ns() - t0) / ((double)rounds * 256.0);
}

/* What `pmuprof list --all-cores` does with the tables: every event of every core, formatted. */
static double bench_list_all(size_t *nlines)
{
	static char buf[1 << 20];
	size_t used = 0, lines = 0;
	double t0 = now_ns();
	for (size_t c = 0; c < evtab_ncores(); c++) {
		const struct evtab_core *core = evtab_core_at(c);
		for (size_t i = 0; i < evtab_nevents(core); i++) {
			const struct evtab_event *e = evtab_event_at(core, i);
			int w = snprintf(buf + used, sizeof(buf) - used, "%-12s 0x%04x %-34s %s\n",
					 evtab_core_name(core), evtab_event_code(e),
					 evtab_event_name(e), evtab_event_desc(e));
			if (w > 0 && (size_t)w < sizeof(buf) - used)
				used += (size_t)w;
			else
				used = 0;	/* reuse the buffer: only the formatting is measured */
			lines++;
		}
	}
	*nlines = lines;
	return (now_ns() - t0) / 1e6;
}

int main(void)
{
	const struct evtab_core *v3 = evtab_core_by_name("neoverse-v3");
	size_t lines = 0;
	double best = 1e30;
	for (int i = 0; i < 5; i++) {
		double ms = bench_list_all(&lines);
		if (ms < best)
			best = ms;
	}
	printf("evtab lookup by name: %.1f ns/op\n", bench_find_name(v3, 200000));
	printf("evtab lookup by code: %.1f ns/op\n", bench_find_code(v3, 20000));
	printf("evtab core by MIDR: %s\n", evtab_core_by_midr(0x410fd0c0) ? "ok" : "MISSING");
	printf("evtab list all cores: %.3f ms (%zu events of %zu cores; target < 10 ms)\n", best,
	       lines, evtab_ncores());
	return best < 10.0 ? 0 : 1;
}
