/* test_split.c: big.LITTLE. Which events stat opens once per core type, on which PMUs (the
 * phone fixture: cortex-a55 on CPUs 0-3, cortex-a76 on CPUs 4-7, and pmuprof's own CPU
 * affinity), with which type and config, which core types lack an event; then how the parts'
 * readings make the row's (sums, the time on the core types that have the event, scaling)
 * and what the report shows per part. Run from the repo root, or set PMUPROF_FIXTURES. */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat.h"
#include "tap.h"

#define MAXP 16

/* One spec on the phone: the parts stat_split makes (type, config, absent), in PMU order. */
static const struct row {
	int line;
	const char *model;	/* --cpu-model, NULL: none */
	const char *spec;
	int nparts;		/* 0: not split */
	struct { unsigned type; unsigned long long config; int absent; } part[2];
} rows[] = {
	/* an Arm name both cores have: one part per core type, its code on each */
	{ __LINE__, NULL, "inst_retired", 2, { { 8, 0x8, 0 }, { 9, 0x8, 0 } } },
	{ __LINE__, NULL, "INST_RETIRED:u", 2, { { 8, 0x8, 0 }, { 9, 0x8, 0 } } },
	{ __LINE__, NULL, "inst_retired/p=1/", 2, { { 8, 0x8, 0 }, { 9, 0x8, 0 } } },
	/* perf's generic names and raw codes: the PMUv3 event on each PMU's type */
	{ __LINE__, NULL, "cycles", 2, { { 8, 0x11, 0 }, { 9, 0x11, 0 } } },
	{ __LINE__, NULL, "instructions", 2, { { 8, 0x8, 0 }, { 9, 0x8, 0 } } },
	{ __LINE__, NULL, "L1-dcache-load-misses", 2, { { 8, 0x3, 0 }, { 9, 0x3, 0 } } },
	{ __LINE__, NULL, "r11", 2, { { 8, 0x11, 0 }, { 9, 0x11, 0 } } },
	/* an event of one core type only: the other's part is absent */
	{ __LINE__, NULL, "dsb_spec", 2, { { 8, 0, 1 }, { 9, 0x7d, 0 } } },
	{ __LINE__, NULL, "br_cond_pred", 2, { { 8, 0xc9, 0 }, { 9, 0, 1 } } },
	/* not split: a PMU the user named, software events, a core the user named */
	{ __LINE__, NULL, "armv8_cortex_a76/inst_retired/", 0, { { 0 } } },
	{ __LINE__, NULL, "armv8_cortex_a55/event=0x11/", 0, { { 0 } } },
	{ __LINE__, NULL, "task-clock", 0, { { 0 } } },
	{ __LINE__, "cortex-a76", "inst_retired", 0, { { 0 } } },
};

/* Resolves spec on the fixture as stat does: rows first, then stat_split. */
static size_t split_spec(const char *model, const char *spec, struct stat_event **out,
			 size_t *nrows, struct resolve_ctx *ctx)
{
	struct evspec_list list = { 0 };
	struct evspec_error perr;
	struct resolve_error err;
	struct stat_event *evs;
	size_t n = 0;

	*out = NULL;
	*nrows = 0;
	if (resolve_ctx_init(ctx, model, NULL) != PP_OK || evspec_parse(spec, &list, &perr) != PP_OK)
		return 0;
	evs = calloc(list.n + 1, sizeof(*evs));
	for (size_t k = 0; evs && k < list.n; k++) {
		if (resolve_event_in(ctx, &list.reqs[k], &evs[k].sel.ev, &err) != PP_OK)
			break;
		evs[k].fd = -1;
		evs[k].parent = -1;
		evs[k].group = evs[k].sel.ev.group;
		*nrows = k + 1;
	}
	evspec_free(&list);
	if (evs && stat_split(&evs, *nrows, &n, ctx) != 0)
		n = *nrows;
	*out = evs;
	return n;
}

static void free_split(struct stat_event *evs, size_t n, struct resolve_ctx *ctx)
{
	for (size_t k = 0; evs && k < n; k++)
		if (evs[k].parent < 0)
			resolve_event_free(&evs[k].sel.ev);
	free(evs);
	resolve_ctx_free(ctx);
}

static void run_row(const struct row *r)
{
	struct resolve_ctx ctx;
	struct stat_event *evs;
	size_t nrows, n = split_spec(r->model, r->spec, &evs, &nrows, &ctx);

	if (!TAP_EQ_INT(nrows, 1, "line %d: '%s' resolves", r->line, r->spec)) {
		free_split(evs, n, &ctx);
		return;
	}
	TAP_EQ_INT(evs[0].nparts, r->nparts, "line %d: %s: parts", r->line, r->spec);
	TAP_EQ_INT(n, 1 + (size_t)r->nparts, "line %d: %s: entries", r->line, r->spec);
	for (int i = 0; i < r->nparts && i < evs[0].nparts; i++) {
		const struct stat_event *p = &evs[evs[0].part0 + i];

		TAP_EQ_INT(p->parent, 0, "line %d: %s: part %d's row", r->line, r->spec, i);
		TAP_EQ_INT(p->absent, r->part[i].absent, "line %d: %s: part %d absent", r->line,
			   r->spec, i);
		TAP_EQ_INT(p->sel.ev.attr.type, r->part[i].type, "line %d: %s: part %d type",
			   r->line, r->spec, i);
		if (!r->part[i].absent)
			TAP_EQ_INT(p->sel.ev.attr.config, r->part[i].config,
				   "line %d: %s: part %d config", r->line, r->spec, i);
		/* the modifiers and filter terms go with the part */
		TAP_EQ_INT(p->sel.ev.attr.exclude_kernel, evs[0].sel.ev.attr.exclude_kernel,
			   "line %d: %s: part %d exclude_kernel", r->line, r->spec, i);
	}
	free_split(evs, n, &ctx);
}

/* A user group is one group per core type; lone events stay alone. */
static void test_groups(void)
{
	struct resolve_ctx ctx;
	struct stat_event *evs;
	size_t nrows, n = split_spec(NULL, "{inst_retired,cpu_cycles},task-clock,l1d_cache", &evs,
				     &nrows, &ctx);

	if (!TAP_EQ_INT(n, 4 + 6, "groups: 4 rows and 6 parts")) {
		free_split(evs, n, &ctx);
		return;
	}
	TAP_EQ_INT(evs[evs[0].part0].group, evs[evs[1].part0].group,
		   "groups: a55's inst_retired and cpu_cycles share a group");
	TAP_EQ_INT(evs[evs[0].part0 + 1].group, evs[evs[1].part0 + 1].group,
		   "groups: a76's inst_retired and cpu_cycles share a group");
	tap_ok(evs[evs[0].part0].group != evs[evs[0].part0 + 1].group && evs[evs[0].part0].group >= 0,
	       "groups: the core types' groups differ");
	TAP_EQ_INT(evs[evs[3].part0].group, -1, "groups: l1d_cache's parts are alone");
	TAP_EQ_INT(evs[2].nparts, 0, "groups: task-clock is not split");
	free_split(evs, n, &ctx);
}

/* An event given with its PMU, where the command may also run on the other core type: it
 * counts only while on its PMU's CPUs, so its time is the time there, not scaled over it. */
static void test_one_type(void)
{
	struct resolve_ctx ctx;
	struct stat_event *evs;
	size_t nrows, n = split_spec(NULL, "armv8_cortex_a76/inst_retired/,task-clock,inst_retired",
				     &evs, &nrows, &ctx);

	if (!TAP_EQ_INT(n, 5, "one type: 3 rows, 2 parts")) {
		free_split(evs, n, &ctx);
		return;
	}
	TAP_EQ_INT(evs[0].one_type, 1, "one type: armv8_cortex_a76/inst_retired/");
	TAP_EQ_INT(evs[1].one_type, 0, "one type: not task-clock");
	TAP_EQ_INT(evs[2].one_type, 0, "one type: not a split event");
	/* the command ran 700 of 1000 ns on the a76 (the a76 part of inst_retired says so) */
	evs[0].pmu_ix = 1;
	evs[0].opened = evs[3].opened = evs[4].opened = 1;
	evs[0].rd = (struct counter_reading){ 1400, 1000, 700 };
	evs[3].rd = (struct counter_reading){ 600, 1000, 300 };
	evs[4].rd = (struct counter_reading){ 1400, 1000, 700 };
	stat_split_merge(evs, n);
	TAP_EQ_INT(evs[0].rd.enabled, 700, "one type: enabled is the time on its core type");
	TAP_EQ_INT(evs[0].rd.running, 700, "one type: counted all of it");
	TAP_EQ_INT(evs[2].rd.value, 2000, "one type: the split row beside it sums its parts");
	free_split(evs, n, &ctx);
}

/* pmuprof's affinity is the command's: restricted to CPU 0 (a cortex-a55), only that PMU. */
static void test_affinity(void)
{
	cpu_set_t old, one;
	struct resolve_ctx ctx;
	struct stat_event *evs;
	size_t nrows, n;

	if (sched_getaffinity(0, sizeof(old), &old) != 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    !CPU_ISSET(0, &old)) {
		tap_skip("affinity: needs 2 online CPUs with CPU 0 usable");
		return;
	}
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0) {
		tap_skip("affinity: sched_setaffinity refused");
		return;
	}
	n = split_spec(NULL, "inst_retired,dsb_spec", &evs, &nrows, &ctx);
	sched_setaffinity(0, sizeof(old), &old);
	if (TAP_EQ_INT(n, 4, "affinity: on CPU 0, one part each")) {
		TAP_EQ_INT(evs[evs[0].part0].sel.ev.attr.type, 8, "affinity: inst_retired on a55");
		TAP_EQ_INT(evs[evs[1].part0].absent, 1, "affinity: dsb_spec absent on a55");
	}
	free_split(evs, n, &ctx);
}

/* Readings: rows 0 (full: a55 + a76), 1 (a76 only: a55 absent), 2 (full, multiplexed on
 * a76); the command ran 300 ns on a55 and 700 ns on a76. */
static void test_merge(void)
{
	struct sysfs_pmu pmus[2] = { { .name = "armv8_cortex_a55", .type = 8 },
				     { .name = "armv8_cortex_a76", .type = 9 } };
	int cpus[2][4] = { { 0, 1, 2, 3 }, { 4, 5, 6, 7 } };
	struct stat_event e[9] = { 0 };
	struct report_part *rp;

	for (int p = 0; p < 2; p++) {
		pmus[p].cpus = cpus[p];
		pmus[p].ncpus = 4;
	}
	for (int k = 0; k < 9; k++) {
		e[k].fd = -1;
		e[k].parent = k < 3 ? -1 : (k - 3) / 2;
		e[k].pmu_ix = k < 3 ? -1 : (k - 3) % 2;
		e[k].arm_pmu = k < 3 ? NULL : &pmus[(k - 3) % 2];
		e[k].opened = k >= 3;
	}
	for (int r = 0; r < 3; r++) {
		e[r].part0 = 3 + 2 * r;
		e[r].nparts = 2;
	}
	e[5].absent = 1;
	e[5].opened = 0;
	e[3].rd = (struct counter_reading){ 3000, 1000, 300 };
	e[4].rd = (struct counter_reading){ 7000, 1000, 700 };
	e[6].rd = (struct counter_reading){ 1400, 1000, 700 };
	e[7].rd = (struct counter_reading){ 600, 1000, 300 };
	e[8].rd = (struct counter_reading){ 3500, 1000, 350 };	/* half of the a76 time */
	stat_split_merge(e, 9);
	TAP_EQ_INT(e[0].rd.value, 10000, "merge: full row: the parts' sum");
	TAP_EQ_INT(e[0].rd.enabled, 1000, "merge: full row: enabled");
	TAP_EQ_INT(e[0].rd.running, 1000, "merge: full row: counted all the time");
	TAP_EQ_INT(e[0].opened, 1, "merge: full row: opened");
	TAP_EQ_INT(e[1].rd.value, 1400, "merge: a76-only row: its part");
	TAP_EQ_INT(e[1].rd.enabled, 700, "merge: a76-only row: enabled is the time on a76");
	TAP_EQ_INT(e[1].rd.running, 700, "merge: a76-only row: whole (not scaled over a55's time)");
	TAP_EQ_INT(e[2].rd.running, 650, "merge: multiplexed row: running summed");
	TAP_EQ_INT(e[2].rd.enabled, 1000, "merge: multiplexed row: enabled");
	rp = stat_split_report(e, 2, 0);
	if (tap_ok(rp != NULL, "report: parts made")) {
		tap_ok(fabs(rp[0].value - 600 * 1000.0 / 650) < 1e-6 &&
		       fabs(rp[1].value - 3500 * 1000.0 / 650) < 1e-6,
		       "report: parts scaled with their row (%.3f, %.3f)", rp[0].value, rp[1].value);
		TAP_EQ_STR(rp[1].cpus, "4-7", "report: cpus");
		TAP_EQ_STR(rp[0].pmu, "armv8_cortex_a55", "report: pmu");
		TAP_EQ_INT(rp[1].raw, 3500, "report: raw");
	}
	free(rp);
	rp = stat_split_report(e, 1, 0);
	if (rp) {
		TAP_EQ_INT(rp[0].status, REPORT_ABSENT, "report: the absent part");
		tap_ok(rp[1].status == REPORT_COUNTED && rp[1].value == 1400,
		       "report: a76-only: its value unscaled (%.1f)", rp[1].value);
	}
	free(rp);
	/* with -r, each part's mean */
	stat_split_record(e, 9);
	e[3].rd.value = 5000;
	stat_split_merge(e, 9);
	stat_split_record(e, 9);
	rp = stat_split_report(e, 0, 1);
	if (rp)
		tap_ok(rp[0].raw == 4000 && rp[0].value == 4000 && rp[1].raw == 7000,
		       "report -r: means (%llu, %.1f, %llu)", (unsigned long long)rp[0].raw,
		       rp[0].value, (unsigned long long)rp[1].raw);
	free(rp);
	/* a part opened but never on a counter (the command never ran on its CPUs) */
	e[4].rd = (struct counter_reading){ 0, 1000, 0 };
	e[3].rd = (struct counter_reading){ 3000, 1000, 1000 };
	stat_split_merge(e, 9);
	rp = stat_split_report(e, 0, 0);
	if (rp) {
		TAP_EQ_INT(rp[1].status, REPORT_NOT_COUNTED, "report: a part that never ran");
		TAP_EQ_INT(rp[0].status, REPORT_COUNTED, "report: the part that ran");
		TAP_EQ_INT(e[0].rd.running, 1000, "merge: the row counted all the time");
	}
	free(rp);
	/* a part that could not be opened: the row is not counted when none was */
	e[3].opened = e[4].opened = 0;
	e[3].err = e[4].err = 22;
	stat_split_merge(e, 9);
	tap_ok(!e[0].opened && e[0].err == 22, "merge: no part opened: the row neither");
}

int main(void)
{
	const char *fixtures = getenv("PMUPROF_FIXTURES");
	char root[PATH_MAX + 64];

	unsetenv("PMUPROF_CPU_MODEL");
	snprintf(root, sizeof(root), "%s/phone-a55-a76", fixtures ? fixtures : "tests/fixtures");
	sysfs_set_root(root);
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		run_row(&rows[k]);
	test_groups();
	test_one_type();
	test_affinity();
	test_merge();
	return tap_done();
}
