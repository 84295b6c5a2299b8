/* SPDX-License-Identifier: Apache-2.0 */
/* test_aggregate.c: readings -> rows in every mode, with the expected values worked out by
 * hand beside each case (each reading scaled by its own window and running time, then
 * added). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "tap.h"

/* A two-socket machine of 8 CPUs: socket 0 is CPUs 0-3, socket 1 CPUs 4-7; two CPUs a core
 * (SMT), two cores a cluster. */
static const int core_of[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
static const int cluster_of[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
static const int socket_of[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
/* one die a socket; NUMA nodes of 2, 2 and 4 CPUs (a node need not follow the sockets) */
static const int die_of[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
static const int node_of[8] = { 0, 0, 1, 1, 2, 2, 2, 2 };
static const struct agg_topology topo = { 8, core_of, cluster_of, socket_of, die_of, node_of,
					  NULL };

#define RD(e, c, v, w, r) { .ev = e, .part = -1, .cpu = c, .task = -1, .interval = READING_TOTAL, \
			    .value = v, .enabled = w, .running = r, .window = w }

/* event 0 on every CPU: CPU k counted 100 * (k + 1) for all of its 1000 ns, except CPU 5,
 * multiplexed: 300 for 250 of 1000 ns (1200 scaled); event 1 refused on every CPU. */
static const struct reading per_cpu[] = {
	RD(0, 0, 100, 1000, 1000), RD(0, 1, 200, 1000, 1000), RD(0, 2, 300, 1000, 1000),
	RD(0, 3, 400, 1000, 1000), RD(0, 4, 500, 1000, 1000), RD(0, 5, 300, 1000, 250),
	RD(0, 6, 700, 1000, 1000), RD(0, 7, 800, 1000, 1000),
	{ .ev = 1, .part = -1, .cpu = 0, .task = -1, .interval = READING_TOTAL, .err = 95 },
	{ .ev = 1, .part = -1, .cpu = 1, .task = -1, .interval = READING_TOTAL, .err = 95 },
};

static const struct agg_row *find(const struct agg_row *rows, size_t n, uint32_t ev,
				  int32_t unit)
{
	struct agg_key k = { ev, unit, 0, READING_TOTAL };

	return agg_find(rows, n, &k);
}

static void check(const struct agg_row *w, double value, int scaled, const char *what)
{
	if (!tap_ok(w != NULL, "%s: the row exists", what))
		return;
	tap_ok(fabs(w->value - value) < 1e-9, "%s: %.1f (got %.3f)", what, value, w->value);
	TAP_EQ_INT(w->scaled, scaled, "%s: scaled", what);
}

static void modes(void)
{
	const size_t n = sizeof(per_cpu) / sizeof(per_cpu[0]);
	struct agg_row *rows;
	size_t nr;

	/* the whole: 100+200+300+400+500+1200+700+800 = 4200, an estimate (CPU 5) */
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_COMMAND, &topo, &rows, &nr), 0, "command")) {
		TAP_EQ_INT(nr, 2, "command: a row per event");
		check(find(rows, nr, 0, -1), 4200, 1, "command: event 0");
		TAP_EQ_INT(find(rows, nr, 0, -1)->running, 7250, "command: running added");
		TAP_EQ_INT(find(rows, nr, 0, -1)->window, 8000, "command: windows added");
		TAP_EQ_INT(find(rows, nr, 1, -1)->status, AGG_NOT_OPENED, "command: refused");
		TAP_EQ_INT(find(rows, nr, 1, -1)->err, 95, "command: refused: its errno");
	}
	free(rows);
	/* per CPU: CPU 5 alone is scaled, 300 * 1000 / 250 */
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_CPU, &topo, &rows, &nr), 0, "cpu")) {
		TAP_EQ_INT(nr, 10, "cpu: a row per event per CPU");
		check(find(rows, nr, 0, 5), 1200, 1, "cpu: CPU 5");
		check(find(rows, nr, 0, 4), 500, 0, "cpu: CPU 4");
		tap_ok(find(rows, nr, 1, 1) && find(rows, nr, 1, 1)->status == AGG_NOT_OPENED,
		       "cpu: event 1 on CPU 1 refused");
	}
	free(rows);
	/* per core: core 2 = CPUs 4 + 5 = 500 + 1200 */
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_CORE, &topo, &rows, &nr), 0, "core")) {
		check(find(rows, nr, 0, 0), 300, 0, "core: core 0 (CPUs 0, 1)");
		check(find(rows, nr, 0, 2), 1700, 1, "core: core 2 (CPUs 4, 5)");
		check(find(rows, nr, 0, 3), 1500, 0, "core: core 3 (CPUs 6, 7)");
	}
	free(rows);
	/* per socket and per cluster: 1000 and 3200 */
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_SOCKET, &topo, &rows, &nr), 0, "socket")) {
		check(find(rows, nr, 0, 0), 1000, 0, "socket: socket 0");
		check(find(rows, nr, 0, 1), 3200, 1, "socket: socket 1");
	}
	free(rows);
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_CLUSTER, &topo, &rows, &nr), 0, "cluster"))
		check(find(rows, nr, 0, 1), 3200, 1, "cluster: cluster 1");
	free(rows);
	/* per die: as per socket here, 1000 and 3200 */
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_DIE, &topo, &rows, &nr), 0, "die")) {
		check(find(rows, nr, 0, 0), 1000, 0, "die: die 0");
		check(find(rows, nr, 0, 1), 3200, 1, "die: die 1");
	}
	free(rows);
	/* per node: 100+200 = 300, 300+400 = 700, 500+1200+700+800 = 3200 */
	if (TAP_EQ_INT(agg_build(per_cpu, n, AGG_NODE, &topo, &rows, &nr), 0, "node")) {
		check(find(rows, nr, 0, 0), 300, 0, "node: node 0");
		check(find(rows, nr, 0, 1), 700, 0, "node: node 1");
		check(find(rows, nr, 0, 2), 3200, 1, "node: node 2");
	}
	free(rows);
	/* a CPU the topology does not know falls in the unit -1 */
	{
		struct reading odd = RD(0, 9, 10, 10, 10);

		TAP_EQ_INT(agg_unit(&odd, AGG_CORE, &topo), -1, "unit: unknown CPU");
		TAP_EQ_INT(agg_unit(&odd, AGG_CPU, &topo), 9, "unit: per CPU, any CPU");
	}
}

/* Per thread and per core type, runs and intervals keep their own rows. */
static void threads_runs_intervals(void)
{
	struct reading rs[] = {
		{ .ev = 0, .part = -1, .cpu = -1, .task = 101, .interval = READING_TOTAL,
		  .value = 50, .enabled = 100, .running = 100, .window = 100 },
		{ .ev = 0, .part = -1, .cpu = -1, .task = 102, .interval = READING_TOTAL,
		  .value = 30, .enabled = 100, .running = 50, .window = 100 },
		{ .ev = 0, .part = -1, .cpu = -1, .task = 101, .run = 1,
		  .interval = READING_TOTAL, .value = 70, .enabled = 100, .running = 100,
		  .window = 100 },
		{ .ev = 0, .part = -1, .cpu = -1, .task = 101, .interval = 0, .value = 20,
		  .enabled = 40, .running = 10, .window = 40 },
		{ .ev = 0, .part = 1, .cpu = -1, .task = -1, .interval = READING_TOTAL,
		  .value = 0, .enabled = 100, .running = 0, .window = 0 },
		{ .ev = 0, .part = 0, .cpu = -1, .task = -1, .interval = READING_TOTAL,
		  .absent = 1 },
	};
	const size_t n = sizeof(rs) / sizeof(rs[0]);
	struct agg_row *rows;
	size_t nr;
	struct agg_key k;

	if (TAP_EQ_INT(agg_build(rs, n, AGG_THREAD, NULL, &rows, &nr), 0, "thread")) {
		check(find(rows, nr, 0, 101), 50, 0, "thread: 101, run 0");
		check(find(rows, nr, 0, 102), 60, 1, "thread: 102, 30 * 100/50");
		k = (struct agg_key){ 0, 101, 1, READING_TOTAL };
		check(agg_find(rows, nr, &k), 70, 0, "thread: 101, run 1 is its own row");
		k = (struct agg_key){ 0, 101, 0, 0 };
		check(agg_find(rows, nr, &k), 80, 1, "thread: interval 0, 20 * 40/10");
	}
	free(rows);
	if (TAP_EQ_INT(agg_build(rs, n, AGG_CORE_TYPE, NULL, &rows, &nr), 0, "core type")) {
		const struct agg_row *w = find(rows, nr, 0, 1);

		TAP_EQ_INT(w ? (int)w->status : -1, AGG_NOT_COUNTED, "core type: never ran there");
		TAP_EQ_INT(w ? w->scaled : -1, 0, "core type: no window there: not an estimate");
		w = find(rows, nr, 0, 0);
		TAP_EQ_INT(w ? (int)w->status : -1, AGG_ABSENT, "core type: absent");
	}
	free(rows);
}

static void scale(void)
{
	tap_ok(agg_scale(300, 1000, 250) == 1200, "scale: by window / running");
	tap_ok(agg_scale(300, 1000, 1000) == 300, "scale: whole: as read");
	tap_ok(agg_scale(300, 990, 1000) == 300, "scale: running past the window: as read");
	tap_ok(agg_scale(300, 1000, 0) == 0, "scale: never ran: nothing");
}

int main(void)
{
	modes();
	threads_runs_intervals();
	scale();
	return tap_done();
}
