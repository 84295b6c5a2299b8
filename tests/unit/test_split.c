/* SPDX-License-Identifier: Apache-2.0 */
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
} specs[] = {
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

/* Resolves spec on the fixture as stat does: rows first, then stat_split's counters. */
static void split_spec(const char *model, const char *spec, struct stat_event **out,
		       size_t *nrows, struct stat_counters *cs, struct resolve_ctx *ctx)
{
	struct evspec_list list = { 0 };
	struct evspec_error perr;
	struct resolve_error err;
	struct stat_event *rows;

	*out = NULL;
	*nrows = 0;
	memset(cs, 0, sizeof(*cs));
	if (resolve_ctx_init(ctx, model, NULL) != PP_OK || evspec_parse(spec, &list, &perr) != PP_OK)
		return;
	rows = calloc(list.n + 1, sizeof(*rows));
	for (size_t k = 0; rows && k < list.n; k++) {
		if (resolve_event_in(ctx, &list.reqs[k], &rows[k].sel.ev, &err) != PP_OK)
			break;
		*nrows = k + 1;
	}
	evspec_free(&list);
	if (rows && stat_split(cs, rows, *nrows, ctx, NULL) != 0)
		memset(cs, 0, sizeof(*cs));
	*out = rows;
}

static void free_split(struct stat_event *rows, size_t nrows, struct stat_counters *cs,
		       struct resolve_ctx *ctx)
{
	for (size_t k = 0; rows && k < nrows; k++)
		resolve_event_free(&rows[k].sel.ev);
	free(rows);
	stat_counters_free(cs);
	resolve_ctx_free(ctx);
}

/* The counter of part i (parts' counters follow the rows'). */
static const struct stat_counter *part_counter(const struct stat_counters *cs, size_t i)
{
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].part == (int)i)
			return &cs->c[k];
	return &cs->c[0];
}

static void run_row(const struct row *r)
{
	struct resolve_ctx ctx;
	struct stat_event *rows;
	struct stat_counters cs;
	size_t nrows, first, nparts;

	split_spec(r->model, r->spec, &rows, &nrows, &cs, &ctx);
	if (!TAP_EQ_INT(nrows, 1, "line %d: '%s' resolves", r->line, r->spec)) {
		free_split(rows, nrows, &cs, &ctx);
		return;
	}
	nparts = stat_row_parts(&cs, 0, &first);
	TAP_EQ_INT(nparts, r->nparts, "line %d: %s: parts", r->line, r->spec);
	TAP_EQ_INT(cs.n, r->nparts ? (size_t)r->nparts : 1, "line %d: %s: counters", r->line,
		   r->spec);
	for (int i = 0; i < r->nparts && (size_t)i < nparts; i++) {
		const struct stat_part *p = &cs.parts[first + (size_t)i];

		TAP_EQ_INT(p->ev, 0, "line %d: %s: part %d's row", r->line, r->spec, i);
		TAP_EQ_INT(part_counter(&cs, first + (size_t)i)->ev, 0,
			   "line %d: %s: part %d's counter's row", r->line, r->spec, i);
		TAP_EQ_INT(p->absent, r->part[i].absent, "line %d: %s: part %d absent", r->line,
			   r->spec, i);
		TAP_EQ_INT(p->attr.type, r->part[i].type, "line %d: %s: part %d type",
			   r->line, r->spec, i);
		if (!r->part[i].absent)
			TAP_EQ_INT(p->attr.config, r->part[i].config,
				   "line %d: %s: part %d config", r->line, r->spec, i);
		/* the modifiers and filter terms go with the part */
		TAP_EQ_INT(p->attr.exclude_kernel, rows[0].sel.ev.attr.exclude_kernel,
			   "line %d: %s: part %d exclude_kernel", r->line, r->spec, i);
	}
	free_split(rows, nrows, &cs, &ctx);
}

/* A user group is one group per core type; lone events stay alone. */
static void test_groups(void)
{
	struct resolve_ctx ctx;
	struct stat_event *rows;
	struct stat_counters cs;
	size_t nrows, f0, f1, f3;

	split_spec(NULL, "{inst_retired,cpu_cycles},task-clock,l1d_cache", &rows, &nrows, &cs, &ctx);
	if (!TAP_EQ_INT(cs.n, 1 + 6, "groups: task-clock's counter and 6 parts'") ||
	    !TAP_EQ_INT(cs.nparts, 6, "groups: 6 parts")) {
		free_split(rows, nrows, &cs, &ctx);
		return;
	}
	stat_row_parts(&cs, 0, &f0);
	stat_row_parts(&cs, 1, &f1);
	stat_row_parts(&cs, 3, &f3);
	TAP_EQ_INT(part_counter(&cs, f0)->group, part_counter(&cs, f1)->group,
		   "groups: a55's inst_retired and cpu_cycles share a group");
	TAP_EQ_INT(part_counter(&cs, f0 + 1)->group, part_counter(&cs, f1 + 1)->group,
		   "groups: a76's inst_retired and cpu_cycles share a group");
	tap_ok(part_counter(&cs, f0)->group != part_counter(&cs, f0 + 1)->group &&
	       part_counter(&cs, f0)->group >= 0, "groups: the core types' groups differ");
	TAP_EQ_INT(part_counter(&cs, f3)->group, -1, "groups: l1d_cache's parts are alone");
	TAP_EQ_INT(stat_row_parts(&cs, 2, &f0), 0, "groups: task-clock is not split");
	TAP_EQ_INT(cs.c[0].ev, 2, "groups: the first counter is task-clock's own");
	free_split(rows, nrows, &cs, &ctx);
}

/* An event given with its PMU, where the command may also run on the other core type: it
 * counts only while on its PMU's CPUs, so its window is the time there, not scaled over it. */
static void test_one_type(void)
{
	struct resolve_ctx ctx;
	struct stat_event *rows;
	struct stat_counters cs;
	size_t nrows;
	struct stat_series s = { 0 };
	struct workload_result res = { .wall_ns = 1000 };
	struct stat_build b = { .counters = &cs };
	struct report r = { 0 };

	split_spec(NULL, "armv8_cortex_a76/inst_retired/,task-clock,inst_retired", &rows, &nrows,
		   &cs, &ctx);
	if (!TAP_EQ_INT(cs.n, 4, "one type: 2 rows' counters, 2 parts'")) {
		free_split(rows, nrows, &cs, &ctx);
		return;
	}
	TAP_EQ_INT(rows[0].one_type, 1, "one type: armv8_cortex_a76/inst_retired/");
	TAP_EQ_INT(rows[1].one_type, 0, "one type: not task-clock");
	TAP_EQ_INT(rows[2].one_type, 0, "one type: not a split event");
	cs.c[0].pmu_ix = 1;
	cs.c[2].pmu_ix = 0;	/* the parts' PMUs, as the plan gives them */
	cs.c[3].pmu_ix = 1;
	TAP_EQ_INT(stat_presence(&cs, rows), 0, "one type: presence counters added");
	/* a55 is CPUs 0-3 and a76 CPUs 4-7 in the fixture: 4 + 4 presence counters */
	if (!TAP_EQ_INT(cs.n, 12, "one type: a presence counter per CPU of each core type")) {
		free_split(rows, nrows, &cs, &ctx);
		return;
	}
	TAP_EQ_INT(cs.c[4].cpu, 0, "one type: the first presence counter is on CPU 0");
	TAP_EQ_INT(cs.c[11].cpu, 7, "one type: the last on CPU 7");
	/* the command ran 300 of 1000 ns on the a55 (CPU 1), 700 on the a76 (CPUs 4 and 6) */
	for (size_t k = 0; k < cs.n; k++)
		cs.c[k].opened = 1;
	cs.c[1].rd = (struct counter_reading){ 1000, 1000, 1000 };
	cs.c[0].rd = (struct counter_reading){ 1400, 1000, 700 };
	cs.c[2].rd = (struct counter_reading){ 600, 1000, 300 };
	cs.c[3].rd = (struct counter_reading){ 1400, 1000, 700 };
	cs.c[5].rd = (struct counter_reading){ 300, 1000, 300 };
	cs.c[8].rd = (struct counter_reading){ 500, 1000, 500 };
	cs.c[10].rd = (struct counter_reading){ 200, 1000, 200 };
	if (TAP_EQ_INT(stat_record(&s.rd, rows, &cs, 0, 0, -1, &res, NULL), 0,
		       "one type: recorded"))
		s.nruns = 1;
	TAP_EQ_INT(s.rd.n, 4, "one type: a reading per row not split and per part");
	if (TAP_EQ_INT(stat_report_build(&r, &s, rows, nrows, &b), 0, "one type: report built")) {
		TAP_EQ_INT(r.events[0].fig.enabled_ns, 700, "one type: its window is the time on a76");
		TAP_EQ_INT(r.events[0].fig.running_ns, 700, "one type: counted all of it");
		TAP_EQ_INT(r.events[0].fig.scaled, 0, "one type: not an estimate");
		tap_ok(r.events[2].fig.value == 2000, "one type: the split row beside it sums its parts "
		       "(%.1f)", r.events[2].fig.value);
		TAP_EQ_INT(r.events[2].fig.enabled_ns, 1000, "one type: the split row's windows add up");
	}
	stat_report_free(&r);
	stat_series_free(&s);
	free_split(rows, nrows, &cs, &ctx);
}

/* A part, and a presence counter, follow the command as its row does: no task of their own
 * (0, so open_all sets enable_on_exec and counting starts at exec: when "none" was -1 and
 * they were made with 0, they stayed disabled and every split event read "not counted" with
 * a command), not counting a whole CPU, no leader. */
static void test_parts_follow_command(void)
{
	struct resolve_ctx ctx;
	struct stat_event *rows;
	struct stat_counters cs;
	size_t nrows;
	int bad = 0;

	split_spec(NULL, "armv8_cortex_a76/inst_retired/,inst_retired", &rows, &nrows, &cs, &ctx);
	if (!TAP_EQ_INT(cs.n, 3, "command: a row's counter, 2 parts'")) {
		free_split(rows, nrows, &cs, &ctx);
		return;
	}
	cs.c[0].pmu_ix = 1;
	TAP_EQ_INT(stat_presence(&cs, rows), 0, "command: presence counters added");
	for (size_t k = 1; k < cs.n; k++)
		if (cs.c[k].task != 0 || cs.c[k].cpu_wide || cs.c[k].leader != -1 ||
		    cs.c[k].fd != -1)
			bad++;
	TAP_EQ_INT(bad, 0, "command: every part and presence counter follows the command (no "
		   "task, not CPU-wide, no leader, not open)");
	free_split(rows, nrows, &cs, &ctx);
}

/* pmuprof's affinity is the command's: restricted to CPU 0 (a cortex-a55), only that PMU. */
static void test_affinity(void)
{
	cpu_set_t old, one;
	struct resolve_ctx ctx;
	struct stat_event *rows;
	struct stat_counters cs;
	size_t nrows, f0, f1;

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
	split_spec(NULL, "inst_retired,dsb_spec", &rows, &nrows, &cs, &ctx);
	sched_setaffinity(0, sizeof(old), &old);
	if (TAP_EQ_INT(cs.nparts, 2, "affinity: on CPU 0, one part each") &&
	    TAP_EQ_INT(stat_row_parts(&cs, 0, &f0), 1, "affinity: inst_retired: one part") &&
	    TAP_EQ_INT(stat_row_parts(&cs, 1, &f1), 1, "affinity: dsb_spec: one part")) {
		TAP_EQ_INT(cs.parts[f0].attr.type, 8, "affinity: inst_retired on a55");
		TAP_EQ_INT(cs.parts[f1].absent, 1, "affinity: dsb_spec absent on a55");
	}
	free_split(rows, nrows, &cs, &ctx);
}

/* The model on the fixture's two core types: rows 0 (full: a55 + a76), 1 (a76 only: a55
 * absent), 2 (full, multiplexed on a76); the command ran 300 ns on a55 and 700 ns on a76;
 * counters 0-5 are the parts', 6 and 7 presence counters (one CPU of each type stands for
 * all). */
struct model {
	struct sysfs_pmu pmus[2];
	int cpus[2][4];
	struct stat_event rows[3];
	struct stat_part parts[6];
	struct stat_counter c[8];
	struct stat_counters cs;
};

static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	m->pmus[0] = (struct sysfs_pmu){ .name = "armv8_cortex_a55", .type = 8 };
	m->pmus[1] = (struct sysfs_pmu){ .name = "armv8_cortex_a76", .type = 9 };
	for (int p = 0; p < 2; p++) {
		for (int c = 0; c < 4; c++)
			m->cpus[p][c] = 4 * p + c;
		m->pmus[p].cpus = m->cpus[p];
		m->pmus[p].ncpus = 4;
	}
	for (int k = 0; k < 8; k++) {
		struct stat_counter *c = &m->c[k];

		c->fd = -1;
		c->cpu = -1;
		c->leader = -1;
		c->group = -1;
		c->part = k < 6 ? k : -1;
		c->ev = k < 6 ? (uint32_t)(k / 2) : 0;
		c->pmu_ix = k % 2;
		c->opened = 1;
		c->presence = k >= 6;
		c->run = k >= 6 ? -1 : 0;
		if (k < 6)
			m->parts[k] = (struct stat_part){ .ev = (uint32_t)(k / 2), .pmu_ix = k % 2 };
	}
	m->parts[2].absent = 1;
	m->c[2].opened = 0;
	m->c[2].pmu_ix = -1;	/* as the plan leaves an absent part */
	m->c[0].rd = (struct counter_reading){ 3000, 1000, 300 };
	m->c[1].rd = (struct counter_reading){ 7000, 1000, 700 };
	m->c[3].rd = (struct counter_reading){ 1400, 1000, 700 };
	m->c[4].rd = (struct counter_reading){ 600, 1000, 300 };
	m->c[5].rd = (struct counter_reading){ 3500, 1000, 350 };	/* half of the a76 time */
	m->c[6].rd = (struct counter_reading){ 300, 1000, 300 };
	m->c[7].rd = (struct counter_reading){ 700, 1000, 700 };
	m->cs = (struct stat_counters){ m->parts, 6, m->c, 8, 3, m->pmus, 2 };
}

/* Records m's readings as run `run` and builds the report (repeated: -r; no_scale:
 * --no-scale). */
static int model_report_as(struct model *m, struct stat_series *s, int runs, struct report *r,
			   int repeated, int no_scale)
{
	struct workload_result res = { .wall_ns = 1000 };
	struct stat_build b = { .repeated = repeated, .no_scale = no_scale, .counters = &m->cs };

	for (int i = 0; i < runs; i++) {
		if (stat_record(&s->rd, m->rows, &m->cs, (uint32_t)s->nruns, 0, -1, &res, NULL) != 0)
			return -1;
		s->nruns++;
		m->c[0].rd.value += 2000;	/* the next run counts more on a55 */
	}
	memset(r, 0, sizeof(*r));
	return stat_report_build(r, s, m->rows, 3, &b);
}

static int model_report(struct model *m, struct stat_series *s, int runs, struct report *r,
			int repeated)
{
	return model_report_as(m, s, runs, r, repeated, 0);
}

/* --no-scale: the multiplexed row is its raw counts, 600 + 3,500, not an estimate; so is each
 * part; the share counted still says what was missed. */
static void test_no_scale(void)
{
	struct model m;
	struct stat_series s = { 0 };
	struct report r;

	model_init(&m);
	if (!TAP_EQ_INT(model_report_as(&m, &s, 1, &r, 0, 1), 0, "no-scale: report built"))
		goto out;
	tap_ok(r.events[2].fig.value == 4100, "no-scale: multiplexed row: 600 + 3500 = 4100 (%.1f)",
	       r.events[2].fig.value);
	TAP_EQ_INT(r.events[2].fig.scaled, 0, "no-scale: multiplexed row: not an estimate");
	TAP_EQ_INT(r.multiplexed, 0, "no-scale: no value is an estimate");
	tap_ok(fabs(r.events[2].fig.counted_pct - 65.0) < 1e-9, "no-scale: the share counted stays "
	       "(%.2f%%)", r.events[2].fig.counted_pct);
	if (tap_ok(r.events[2].split != NULL, "no-scale: parts reported"))
		tap_ok(r.events[2].split[1].fig.value == 3500, "no-scale: the a76 part is its raw "
		       "count (%.1f)", r.events[2].split[1].fig.value);
	tap_ok(r.events[0].fig.value == 10000, "no-scale: a row counted whole is unchanged (%.1f)",
	       r.events[0].fig.value);
out:
	stat_report_free(&r);
	stat_series_free(&s);
}

static void test_model(void)
{
	struct model m;
	struct stat_series s = { 0 };
	struct report r;
	const struct report_part *rp;

	model_init(&m);
	if (!TAP_EQ_INT(model_report(&m, &s, 1, &r, 0), 0, "model: report built"))
		goto out;
	tap_ok(r.events[0].fig.value == 10000, "model: full row: the parts' sum (%.1f)",
	       r.events[0].fig.value);
	TAP_EQ_INT(r.events[0].fig.enabled_ns, 1000, "model: full row: windows 300 + 700");
	TAP_EQ_INT(r.events[0].fig.running_ns, 1000, "model: full row: counted all the time");
	TAP_EQ_INT(r.events[0].fig.scaled, 0, "model: full row: exact");
	tap_ok(r.events[1].fig.value == 1400, "model: a76-only row: its part (%.1f)", r.events[1].fig.value);
	TAP_EQ_INT(r.events[1].fig.enabled_ns, 700, "model: a76-only row: the time on a76");
	TAP_EQ_INT(r.events[1].fig.scaled, 0, "model: a76-only row: not scaled over a55's time");
	/* the case: 600 on a55 for all of its 300 ns there, 3,500 on a76 for 350 of
	 * its 700 ns: 600 + 7,000 */
	tap_ok(r.events[2].fig.value == 7600, "model: multiplexed row: 600 + 3500 * 700/350 = 7600 "
	       "(%.1f)", r.events[2].fig.value);
	TAP_EQ_INT(r.events[2].fig.scaled, 1, "model: multiplexed row: an estimate");
	tap_ok(fabs(r.events[2].fig.counted_pct - 65.0) < 1e-9, "model: multiplexed row: 650 of "
	       "1000 ns counted (%.2f%%)", r.events[2].fig.counted_pct);
	rp = r.events[2].split;
	if (tap_ok(rp != NULL && r.events[2].nsplit == 2, "model: parts reported")) {
		tap_ok(rp[0].fig.value == 600 && rp[1].fig.value == 7000, "model: each part scaled by its "
		       "own times (%.1f, %.1f)", rp[0].fig.value, rp[1].fig.value);
		TAP_EQ_STR(rp[1].cpus, "4-7", "model: cpus");
		TAP_EQ_STR(rp[0].pmu, "armv8_cortex_a55", "model: pmu");
		TAP_EQ_INT(rp[1].fig.raw, 3500, "model: raw");
		TAP_EQ_INT(rp[1].fig.enabled_ns, 700, "model: a part's window");
	}
	rp = r.events[1].split;
	if (rp) {
		TAP_EQ_INT(rp[0].fig.status, REPORT_ABSENT, "model: the absent part");
		tap_ok(rp[1].fig.status == REPORT_COUNTED && rp[1].fig.value == 1400,
		       "model: a76-only: its value unscaled (%.1f)", rp[1].fig.value);
	}
	stat_report_free(&r);
	stat_series_free(&s);

	/* with -r, the means of each part and of the row (a55: 3000, then 5000) */
	model_init(&m);
	if (TAP_EQ_INT(model_report(&m, &s, 2, &r, 1), 0, "model -r: report built")) {
		rp = r.events[0].split;
		tap_ok(rp && rp[0].fig.raw == 4000 && rp[0].fig.value == 4000 && rp[1].fig.raw == 7000,
		       "model -r: the parts' means");
		tap_ok(r.events[0].runs && r.events[0].runs[0] == 10000 &&
		       r.events[0].runs[1] == 12000 && r.events[0].fig.value == 11000,
		       "model -r: each run's total, and their mean (%.1f)", r.events[0].fig.value);
	}
	stat_report_free(&r);
	stat_series_free(&s);

	/* every a76 event multiplexed (each ran 350 of the 700 ns there): the presence counters
	 * give the window, and the a76-only row is an estimate, not "fully counted" */
	model_init(&m);
	m.c[1].rd = (struct counter_reading){ 3500, 1000, 350 };
	m.c[3].rd = (struct counter_reading){ 700, 1000, 350 };
	if (TAP_EQ_INT(model_report(&m, &s, 1, &r, 0), 0, "model: all of a76 multiplexed: built")) {
		tap_ok(r.events[1].fig.value == 1400, "model: all multiplexed: 700 * 700/350 (%.1f)",
		       r.events[1].fig.value);
		TAP_EQ_INT(r.events[1].fig.scaled, 1, "model: all multiplexed: an estimate");
		tap_ok(fabs(r.events[1].fig.counted_pct - 50.0) < 1e-9,
		       "model: all multiplexed: counted half its window (%.2f%%)",
		       r.events[1].fig.counted_pct);
		tap_ok(r.events[0].fig.value == 10000, "model: all multiplexed: 3000 + 3500 * 700/350 "
		       "(%.1f)", r.events[0].fig.value);
	}
	stat_report_free(&r);
	stat_series_free(&s);

	/* a part opened but never on a counter: the command never ran on its CPUs */
	model_init(&m);
	m.c[1].rd = (struct counter_reading){ 0, 1000, 0 };
	m.c[3].rd = (struct counter_reading){ 0, 1000, 0 };
	m.c[5].rd = (struct counter_reading){ 0, 1000, 0 };
	m.c[0].rd = (struct counter_reading){ 3000, 1000, 1000 };
	m.c[4].rd = (struct counter_reading){ 600, 1000, 1000 };
	m.c[6].rd.value = 1000;
	m.c[7].rd.value = 0;
	if (TAP_EQ_INT(model_report(&m, &s, 1, &r, 0), 0, "model: never on a76: built")) {
		rp = r.events[0].split;
		TAP_EQ_INT(rp[1].fig.status, REPORT_NOT_COUNTED, "model: a part that never ran");
		TAP_EQ_INT(rp[0].fig.status, REPORT_COUNTED, "model: the part that ran");
		TAP_EQ_INT(r.events[0].fig.scaled, 0, "model: the row counted all the time it could");
		tap_ok(r.events[0].fig.value == 3000, "model: the row is the part that ran (%.1f)",
		       r.events[0].fig.value);
	}
	stat_report_free(&r);
	stat_series_free(&s);

	/* no part could be opened: the row is not supported, with the parts' errno */
	model_init(&m);
	m.c[0].opened = m.c[1].opened = 0;
	m.c[0].err = m.c[1].err = 22;
	if (TAP_EQ_INT(model_report(&m, &s, 1, &r, 0), 0, "model: no part opened: built")) {
		TAP_EQ_INT(r.events[0].fig.status, REPORT_NOT_SUPPORTED, "model: no part opened");
		TAP_EQ_STR(r.events[0].fig.reason, "EINVAL", "model: the parts' reason");
	}
out:
	stat_report_free(&r);
	stat_series_free(&s);
}

/* --mux=runs: planned run 2 of 2 never happened (run 1 failed): its events have no
 * readings, and say so; each event's wall time is its own run's. */
static void test_failed_run(void)
{
	struct stat_event rows[2] = { { .sel.ev.attr = { .type = PERF_TYPE_SOFTWARE, .config = 1 } },
				      { .sel.ev.attr = { .type = PERF_TYPE_SOFTWARE } } };
	struct stat_counter c[2] = { { .ev = 0, .part = -1, .fd = -1, .cpu = -1, .pmu_ix = -1,
				       .leader = -1, .run = 0, .opened = 1,
				       .rd = { 500, 100, 100 } },
				     { .ev = 1, .part = -1, .fd = -1, .cpu = -1, .pmu_ix = -1,
				       .leader = -1, .run = 1, .opened = 1,
				       .rd = { 900, 100, 100 } } };
	struct stat_counters cs = { .c = c, .n = 2, .nrows = 2 };
	struct workload_result res = { .wall_ns = 250, .exit_code = 1 };
	struct stat_series s = { 0 };
	struct stat_build b = { .runs_mode = 1, .counters = &cs };
	struct report r = { 0 };

	stat_record(&s.rd, rows, &cs, 0, 0, 0, &res, NULL);
	s.nruns = 1;
	if (!TAP_EQ_INT(stat_report_build(&r, &s, rows, 2, &b), 0, "failed run: built"))
		goto out;
	tap_ok(r.events[0].fig.status == REPORT_COUNTED && r.events[0].fig.value == 500,
	       "failed run: run 1's event counted (%.1f)", r.events[0].fig.value);
	TAP_EQ_INT(r.events[0].wall_ns, 250, "failed run: its wall time is its run's");
	TAP_EQ_INT(r.events[1].fig.status, REPORT_NOT_COUNTED, "failed run: run 2's event not counted");
	tap_ok(r.events[1].fig.value == 0 && r.events[1].fig.raw == 0,
	       "failed run: no copy of another run's reading");
	tap_ok(r.events[1].fig.reason && strstr(r.events[1].fig.reason, "not run"),
	       "failed run: the reason says it did not run (%s)", r.events[1].fig.reason);
	TAP_EQ_INT(r.events[1].run, 2, "failed run: its planned run");
out:
	stat_report_free(&r);
	stat_series_free(&s);
}

int main(void)
{
	const char *fixtures = getenv("PMUPROF_FIXTURES");
	char root[PATH_MAX + 64];

	unsetenv("PMUPROF_CPU_MODEL");
	snprintf(root, sizeof(root), "%s/phone-a55-a76", fixtures ? fixtures : "tests/fixtures");
	sysfs_set_root(root);
	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++)
		run_row(&specs[k]);
	test_groups();
	test_one_type();
	test_parts_follow_command();
	test_affinity();
	test_model();
	test_no_scale();
	test_failed_run();
	return tap_done();
}
