/* SPDX-License-Identifier: Apache-2.0 */
/* bench/bench_mxtab.c: times `list --metrics` for every core in-process (text and JSON, to
 * /dev/null) and a metric's evaluation, from its formula's text and from the program the
 * generator compiled (what a run does), the way bench_evtab.c times the event listing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "evtab.h"
#include "list_metrics.h"
#include "mxtab.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static enum mexpr_status one(void *ctx, const char *name, size_t len, double *v)
{
	(void)ctx;
	*v = (double)len * 1000.0 + (double)(unsigned char)name[0];
	return MEXPR_OK;
}

/* The same values by input number (the inputs in name order, as the program numbers them). */
static enum mexpr_status by_number(void *ctx, size_t i, double *v)
{
	const char *name = mxtab_metric_event(ctx, i);

	return one(NULL, name, strlen(name), v);
}

int main(void)
{
	struct list_metrics_core all[64];
	size_t n = 0;
	double text = 1e30, json = 1e30, t0, per, run;
	FILE *null = fopen("/dev/null", "w");
	const struct mxtab_metric *m = mxtab_find_metric(
		mxtab_set_for(evtab_core_by_name("neoverse-n2"), 0x03), "bad_speculation");
	volatile double sink = 0;
	int ok = null && m;

	for (size_t i = 0; i < evtab_ncores() && n < 64; i++)
		all[n++] = (struct list_metrics_core){ evtab_core_at(i), -1 };
	for (int r = 0; ok && r < 5; r++) {
		t0 = now_ns();
		list_metrics_text(all, n, NULL, null);
		fflush(null);
		if (now_ns() - t0 < text)
			text = now_ns() - t0;
		t0 = now_ns();
		ok = list_metrics_json(all, n, NULL, NULL, null) == 0;
		fflush(null);
		if (now_ns() - t0 < json)
			json = now_ns() - t0;
	}
	if (!ok) {
		puts("mxtab: cannot run (no /dev/null, or no N2 r0p3 bad_speculation)");
		return 1;
	}
	t0 = now_ns();
	for (int r = 0; r < 100000; r++)
		sink += mxtab_metric_eval(m, one, NULL, NULL);
	per = (now_ns() - t0) / 100000;
	t0 = now_ns();
	for (int r = 0; r < 100000; r++)
		sink += mxtab_metric_run(m, by_number, (void *)m, NULL);
	run = (now_ns() - t0) / 100000;
	printf("mxtab list --metrics, all %zu cores: text %.3f ms, JSON %.3f ms (target < 10 ms)\n",
	       n, text / 1e6, json / 1e6);
	printf("mxtab evaluate N2 bad_speculation (5 events): %.1f ns/op from the text, %.1f ns/op "
	       "by the compiled program\n", per, run);
	fclose(null);
	return text < 1e7 && json < 1e7 ? 0 : 1;
}
