/* SPDX-License-Identifier: Apache-2.0 */
/* test_region.c: the pure parts of stat's control channel and regions: --control's argument,
 * and a region's sums from the counters' readings at its boundaries (nesting, repeats,
 * overlap, an end without a begin, executions never ended), then as readings. */
#include <stdlib.h>
#include <string.h>

#include "stat_ctl.h"
#include "tap.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	int line;
	const char *arg;
	int rc, mode, ctl, ack;
	const char *path, *ack_path;
} specs[] = {
	{ __LINE__, "fd:10,11", 0, STAT_CTL_FD, 10, 11, NULL, NULL },
	{ __LINE__, "fd:7", 0, STAT_CTL_FD, 7, -1, NULL, NULL },
	{ __LINE__, "fifo:ctl,ack", 0, STAT_CTL_FIFO, -1, -1, "ctl", "ack" },
	{ __LINE__, "fifo:/tmp/c", 0, STAT_CTL_FIFO, -1, -1, "/tmp/c", NULL },
	{ __LINE__, "fd:x,4", -1, 0, 0, 0, NULL, NULL },
	{ __LINE__, "fd:3,", -1, 0, 0, 0, NULL, NULL },
	{ __LINE__, "fd:", -1, 0, 0, 0, NULL, NULL },
	{ __LINE__, "fd:-1", -1, 0, 0, 0, NULL, NULL },
	{ __LINE__, "fifo:", -1, 0, 0, 0, NULL, NULL },
	{ __LINE__, "pipe:3", -1, 0, 0, 0, NULL, NULL },
	{ __LINE__, "", -1, 0, 0, 0, NULL, NULL },
};

static void test_specs(void)
{
	for (size_t k = 0; k < LEN(specs); k++) {
		struct stat_ctl c = { 0 };
		const char *why = NULL;
		int rc = stat_ctl_parse(&c, specs[k].arg, &why);

		TAP_EQ_INT(rc, specs[k].rc, "line %d: --control '%s'", specs[k].line, specs[k].arg);
		tap_ok(rc == 0 || (why && *why), "line %d: a refusal says why", specs[k].line);
		if (rc == 0) {
			TAP_EQ_INT(c.mode, specs[k].mode, "line %d: mode", specs[k].line);
			TAP_EQ_INT(c.user_ctl, specs[k].ctl, "line %d: CTL", specs[k].line);
			TAP_EQ_INT(c.user_ack, specs[k].ack, "line %d: ACK", specs[k].line);
			TAP_EQ_STR(c.ctl_path, specs[k].path, "line %d: CTL path", specs[k].line);
			TAP_EQ_STR(c.ack_path, specs[k].ack_path, "line %d: ACK path", specs[k].line);
		}
		free(c.spec);
	}
}

/* Two counters whose readings the steps set: value, enabled and running. */
struct world {
	struct stat_counter c[2];
	struct stat_counters cs;
	struct stat_regions g;
};

static void at(struct world *w, uint64_t v0, uint64_t v1, uint64_t t)
{
	w->c[0].rd = (struct counter_reading){ v0, t, t };
	w->c[1].rd = (struct counter_reading){ v1, t, t / 2 };
}

static const struct stat_region *named(const struct world *w, const char *name)
{
	for (size_t k = 0; k < w->g.n; k++)
		if (!strcmp(w->g.r[k].name, name))
			return &w->g.r[k];
	return NULL;
}

static void test_sums(void)
{
	struct world w = { 0 };
	const struct stat_region *a, *b;

	w.cs.c = w.c;
	w.cs.n = 2;
	/* a [0..100] holds b [10..30] and b [50..60]; a again [200..250]; b begun, never ended */
	at(&w, 0, 0, 0);
	TAP_EQ_INT(stat_region_begin(&w.g, "a", &w.cs, 0), 0, "begin a");
	at(&w, 10, 1, 10);
	stat_region_begin(&w.g, "b", &w.cs, 10);
	at(&w, 30, 5, 30);
	TAP_EQ_INT(stat_region_end(&w.g, "b", &w.cs, 30), 0, "end b");
	at(&w, 50, 7, 50);
	stat_region_begin(&w.g, "b", &w.cs, 50);
	at(&w, 60, 9, 60);
	stat_region_end(&w.g, "b", &w.cs, 60);
	at(&w, 100, 20, 100);
	stat_region_end(&w.g, "a", &w.cs, 100);
	TAP_EQ_INT(stat_region_end(&w.g, "a", &w.cs, 100), 1, "a second end of a: no begin");
	TAP_EQ_INT(stat_region_end(&w.g, "zz", &w.cs, 100), 1, "an end of an unknown region");
	TAP_EQ_INT(w.g.stray_ends, 2, "the ends without a begin are counted");
	at(&w, 200, 40, 200);
	stat_region_begin(&w.g, "a", &w.cs, 200);
	at(&w, 250, 45, 250);
	stat_region_end(&w.g, "a", &w.cs, 250);
	stat_region_begin(&w.g, "b", &w.cs, 250);
	stat_regions_run_end(&w.g);
	a = named(&w, "a");
	b = named(&w, "b");
	tap_ok(a && b && w.g.n == 2, "two regions, in the order first begun");
	if (!a || !b)
		return;
	TAP_EQ_STR(w.g.r[0].name, "a", "a first");
	TAP_EQ_INT(a->acc[0].value, 100 + 50, "a: counter 0, summed over its executions");
	TAP_EQ_INT(a->acc[1].value, 20 + 5, "a: counter 1");
	TAP_EQ_INT(a->acc[0].enabled, 150, "a: enabled time summed");
	TAP_EQ_INT(a->acc[1].running, 50 + 25, "a: running time summed");
	TAP_EQ_INT(a->calls_run, 2, "a: 2 calls");
	TAP_EQ_INT(a->wall_run, 150, "a: its time");
	TAP_EQ_INT(b->acc[0].value, 20 + 10, "b: nested, summed");
	TAP_EQ_INT(b->calls_run, 2, "b: 2 ended calls");
	TAP_EQ_INT(b->unended, 1, "b: begun once and never ended");
	TAP_EQ_INT(b->overlapped, 0, "b: never open twice");
	stat_regions_free(&w.g);
}

static void test_overlap(void)
{
	struct world w = { 0 };

	w.cs.c = w.c;
	w.cs.n = 2;
	at(&w, 0, 0, 0);
	stat_region_begin(&w.g, "t", &w.cs, 0);
	at(&w, 5, 0, 5);
	stat_region_begin(&w.g, "t", &w.cs, 5);
	at(&w, 8, 0, 8);
	stat_region_end(&w.g, "t", &w.cs, 8);
	at(&w, 20, 0, 20);
	stat_region_end(&w.g, "t", &w.cs, 20);
	TAP_EQ_INT(w.g.r[0].overlapped, 1, "t: begun again while open: overlapped");
	TAP_EQ_INT(w.g.r[0].acc[0].value, 3 + 20, "t: the innermost ends first, each counted");
	TAP_EQ_INT(w.g.r[0].calls_run, 2, "t: 2 calls");
	stat_regions_free(&w.g);
}

int main(void)
{
	test_specs();
	test_sums();
	test_overlap();
	return tap_done();
}
