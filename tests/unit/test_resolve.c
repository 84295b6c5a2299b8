/* SPDX-License-Identifier: Apache-2.0 */
/* test_resolve.c: table-driven tests of name resolution against the fixture trees: which PMU,
 * type and config each name gets, per machine and --cpu-model (run from the repo root, or
 * point PMUPROF_FIXTURES at tests/fixtures). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evspec.h"
#include "resolve.h"
#include "sysfs.h"
#include "tap.h"

static const struct row {
	int line;
	const char *tree, *model, *spec;
	pp_status st;
	const char *pmu;
	unsigned type;
	unsigned long long config, config1;
	int arm_code;
} rows[] = {
	{ __LINE__, "n1-server", NULL, "inst_retired", PP_OK, "armv8_pmuv3_0", 8, 0x8, 0, 0x8 },
	{ __LINE__, "n1-server", NULL, "INST_RETIRED", PP_OK, "armv8_pmuv3_0", 8, 0x8, 0, 0x8 },
	{ __LINE__, "n1-server", NULL, "l1d_cache_refill_inner", PP_OK, "armv8_pmuv3_0", 8, 0x44, 0, 0x44 },
	{ __LINE__, "n1-server", NULL, "cycles", PP_OK, "cpu", 0, 0, 0, 0x11 },
	{ __LINE__, "n1-server", NULL, "instructions", PP_OK, "cpu", 0, 1, 0, 0x08 },
	{ __LINE__, "n1-server", NULL, "branch-misses", PP_OK, "cpu", 0, 5, 0, 0x10 },
	{ __LINE__, "n1-server", NULL, "L1-dcache-load-misses", PP_OK, "cpu", 3, 0x10000, 0, 0x03 },
	{ __LINE__, "n1-server", NULL, "task-clock", PP_OK, "software", 1, 1, 0, -1 },
	/* the kernel's generic map as of Linux 6.1: branches is PC_WRITE_RETIRED, not BR_RETIRED */
	{ __LINE__, "n1-server", NULL, "branches", PP_OK, "cpu", 0, 4, 0, 0x0c },
	{ __LINE__, "n1-server", NULL, "branch-instructions", PP_OK, "cpu", 0, 4, 0, 0x0c },
	{ __LINE__, "n1-server", NULL, "stalled-cycles-backend", PP_OK, "cpu", 0, 8, 0, 0x24 },
	/* cache names taken apart: every cache, op and result */
	{ __LINE__, "n1-server", NULL, "L1-dcache-loads", PP_OK, "cpu", 3, 0x0, 0, 0x04 },
	{ __LINE__, "n1-server", NULL, "l1-ICACHE-LOAD-MISSES", PP_OK, "cpu", 3, 0x10001, 0, 0x01 },
	{ __LINE__, "n1-server", NULL, "LLC-loads", PP_OK, "cpu", 3, 0x2, 0, 0x36 },
	{ __LINE__, "n1-server", NULL, "dTLB-load-misses", PP_OK, "cpu", 3, 0x10003, 0, 0x05 },
	{ __LINE__, "n1-server", NULL, "iTLB-loads", PP_OK, "cpu", 3, 0x4, 0, 0x26 },
	{ __LINE__, "n1-server", NULL, "branch-load-misses", PP_OK, "cpu", 3, 0x10005, 0, 0x10 },
	{ __LINE__, "n1-server", NULL, "node-prefetches", PP_OK, "cpu", 3, 0x206, 0, -1 },
	{ __LINE__, "n1-server", NULL, "L1-dcache-store-misses", PP_OK, "cpu", 3, 0x10100, 0, -1 },
	{ __LINE__, "n1-server", NULL, "L1-icache-prefetch-misses", PP_OK, "cpu", 3, 0x10201, 0, -1 },
	{ __LINE__, "x86-host", NULL, "L1-dcache-loadss", PP_ENOENT, NULL, 0, 0, 0, 0 },
	{ __LINE__, "x86-host", NULL, "L1-dcache-", PP_ENOENT, NULL, 0, 0, 0, 0 },
	{ __LINE__, "x86-host", NULL, "L1-dcache-load-missess", PP_ENOENT, NULL, 0, 0, 0, 0 },
	{ __LINE__, "n1-server", NULL, "r11", PP_OK, "raw", 4, 0x11, 0, -1 },
	{ __LINE__, "n1-server", NULL, "armv8_pmuv3_0/event=0x11/", PP_OK, "armv8_pmuv3_0", 8, 0x11, 0, 0x11 },
	{ __LINE__, "n1-server", NULL, "inst_retired/long/", PP_OK, "armv8_pmuv3_0", 8, 0x8, 1, 0x8 },
	{ __LINE__, "n1-server", NULL, "inst_retired/p=1/", PP_OK, "armv8_pmuv3_0", 8, 0x8, 0, 0x8 },
	{ __LINE__, "n1-server", NULL, "inst_retired/bogus/", PP_ENOENT, NULL, 0, 0, 0, 0 },
	{ __LINE__, "phone-a55-a76", NULL, "inst_retired", PP_OK, "armv8_cortex_a55", 8, 0x8, 0, 0x8 },
	{ __LINE__, "phone-a55-a76", NULL, "dsb_spec", PP_OK, "armv8_cortex_a76", 9, 0x7d, 0, 0x7d },
	{ __LINE__, "phone-a55-a76", NULL, "br_cond_pred", PP_OK, "armv8_cortex_a55", 8, 0xc9, 0, 0xc9 },
	{ __LINE__, "phone-a55-a76", "a76", "inst_retired", PP_OK, "armv8_cortex_a76", 9, 0x8, 0, 0x8 },
	{ __LINE__, "phone-a55-a76", NULL, "armv8_cortex_a76/l1d_cache_refill_inner/", PP_OK,
	  "armv8_cortex_a76", 9, 0x44, 0, 0x44 },
	{ __LINE__, "qemu-a57", NULL, "cpu_cycles", PP_OK, "armv8_pmuv3", 8, 0x11, 0, 0x11 },
	{ __LINE__, "qemu-a57", NULL, "l1d_cache_refill_inner", PP_ENOENT, NULL, 0, 0, 0, 0 },
	{ __LINE__, "x86-host", "neoverse-n1", "l1d_cache_refill_inner", PP_OK, "raw", 4, 0x44, 0, 0x44 },
	{ __LINE__, "x86-host", "cortex-a76", "DSB_SPEC", PP_OK, "raw", 4, 0x7d, 0, 0x7d },
	{ __LINE__, "x86-host", NULL, "cycles", PP_OK, "cpu", 0, 0, 0, 0x11 },
};

static void use_tree(const char *fixtures, const char *tree)
{
	char root[PATH_MAX + 64];

	snprintf(root, sizeof root, "%s/%s", fixtures, tree);
	sysfs_set_root(root);
}

/* Fails the row when the spec does not parse into exactly one request. */
static void run_row(const struct row *r)
{
	struct evspec_list list = { 0 };
	struct evspec_error perr;
	struct resolve_error err;
	struct resolve_ctx ctx;
	struct pp_event ev;
	pp_status st;

	if (!tap_ok(evspec_parse(r->spec, &list, &perr) == PP_OK && list.n == 1,
		    "line %d: '%s' parses", r->line, r->spec))
		return;
	tap_ok(resolve_ctx_init(&ctx, r->model, NULL) == PP_OK, "line %d: model %s", r->line,
	       tap_str(r->model));
	st = resolve_event_in(&ctx, &list.reqs[0], &ev, &err);
	TAP_EQ_INT(st, r->st, "line %d: %s on %s: status (%s)", r->line, r->spec, r->tree, err.what);
	if (st == PP_OK && r->st == PP_OK) {
		TAP_EQ_STR(ev.pmu, r->pmu, "line %d: %s: pmu", r->line, r->spec);
		TAP_EQ_INT(ev.attr.type, r->type, "line %d: %s: type", r->line, r->spec);
		TAP_EQ_INT(ev.attr.config, r->config, "line %d: %s: config", r->line, r->spec);
		TAP_EQ_INT(ev.attr.config1, r->config1, "line %d: %s: config1", r->line, r->spec);
		TAP_EQ_INT(ev.arm_code, r->arm_code, "line %d: %s: arm_code", r->line, r->spec);
		resolve_event_free(&ev);
	}
	resolve_ctx_free(&ctx);
	evspec_free(&list);
}

/* A misspelt Arm name gets the right one first. */
static void test_suggestion(const char *fixtures)
{
	struct evspec_list list = { 0 };
	struct evspec_error perr;
	struct resolve_error err;
	struct resolve_ctx ctx;
	struct pp_event ev;

	use_tree(fixtures, "n1-server");
	evspec_parse("inst_retird", &list, &perr);
	resolve_ctx_init(&ctx, NULL, NULL);
	TAP_EQ_INT(resolve_event_in(&ctx, &list.reqs[0], &ev, &err), PP_ENOENT,
		   "line %d: inst_retird is unknown", __LINE__);
	tap_ok(err.near.n >= 1 && strcmp(err.near.best[0], "inst_retired") == 0,
	       "line %d: suggests inst_retired (got %s)", __LINE__,
	       err.near.n ? err.near.best[0] : "nothing");
	resolve_ctx_free(&ctx);
	evspec_free(&list);
}

int main(void)
{
	const char *fixtures = getenv("PMUPROF_FIXTURES");

	if (!fixtures)
		fixtures = "tests/fixtures";
	unsetenv("PMUPROF_CPU_MODEL");
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		use_tree(fixtures, rows[k].tree);
		run_row(&rows[k]);
	}
	test_suggestion(fixtures);
	return tap_done();
}
