/* stat_verbose.c: pmuprof stat -v on standard error: how each event is opened, then what each
 * counter read in each run (perf stat -v's "NAME: VALUE ENABLED RUNNING" lines). */
#include <stdio.h>
#include <string.h>

#include "stat.h"

/* The row's name of entry e: a part and a copy share their row's. */
static const char *name_of(const struct stat_event *e)
{
	return e->sel.ev.name;
}

/* " (CPU 3)", " (thread 1234)", " (armv8_cortex_a55)": where the entry counts, when it is
 * one of several entries of its row. */
static void where(const struct stat_event *e, char *buf, size_t len)
{
	if (e->copy && e->cpu_wide)
		snprintf(buf, len, " (CPU %d)", e->cpu);
	else if (e->copy && e->task > 0)
		snprintf(buf, len, " (thread %d)", e->task);
	else if (e->parent >= 0 && e->arm_pmu)
		snprintf(buf, len, " (%s)", e->arm_pmu->name);
	else
		*buf = '\0';
}

void stat_verbose_events(const struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct stat_event *e = &evs[k];
		const struct pp_attr *a = &e->sel.ev.attr;
		char at[80];

		/* the events as asked and the parts they are split into, not their copies per CPU
		 * or task, nor the presence counters pmuprof adds */
		if (e->copy || e->presence)
			continue;
		where(e, at, sizeof(at));
		fprintf(stderr, "event '%s'%s: PMU %s", name_of(e), at, e->sel.ev.pmu);
		if (e->tool) {
			fputs(", measured by pmuprof (no counter)\n", stderr);
			continue;
		}
		if (e->nparts) {
			fprintf(stderr, ", counted on %d core types (its parts below)\n", e->nparts);
			continue;
		}
		fprintf(stderr, ", type %u, config 0x%llx", a->type, (unsigned long long)a->config);
		if (a->config1)
			fprintf(stderr, ", config1 0x%llx", (unsigned long long)a->config1);
		if (a->config2)
			fprintf(stderr, ", config2 0x%llx", (unsigned long long)a->config2);
		if (e->sel.ev.arm_code >= 0)	/* a generic name: what the Arm kernel maps */
			fprintf(stderr, e->sel.ev.core ? " (Arm event 0x%04x)" :
				" (on Arm: event 0x%04x)", (unsigned)e->sel.ev.arm_code);
		if (a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_host ||
		    a->exclude_guest)
			fprintf(stderr, ", excluding%s%s%s%s%s", a->exclude_user ? " user" : "",
				a->exclude_kernel ? " kernel" : "", a->exclude_hv ? " hv" : "",
				a->exclude_host ? " host" : "", a->exclude_guest ? " guest" : "");
		if (a->pinned)
			fputs(", pinned", stderr);
		if (e->group >= 0 && !e->auto_group)
			fprintf(stderr, ", group %d", e->group + 1);
		if (e->absent)
			fputs(", absent: its core type has no such event", stderr);
		else if (e->fixture)
			fputs(", never opened: its PMU is a fixture tree's", stderr);
		fputc('\n', stderr);
	}
}

void stat_verbose_counts(const struct stat_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct stat_event *e = &evs[k];
		const struct counter_reading *r = &e->rd;
		char at[80];
		const char *en;

		/* what was opened (or measured) and what failed to open; not the rows whose
		 * copies or parts were, nor what was never to be opened */
		if (e->expanded || e->nparts || e->absent || e->fixture || e->presence)
			continue;
		where(e, at, sizeof(at));
		if (e->opened) {
			fprintf(stderr, "%s%s: %llu %llu %llu\n", name_of(e), at,
				(unsigned long long)r->value, (unsigned long long)r->enabled,
				(unsigned long long)r->running);
		} else if (e->err) {
			en = strerrorname_np(e->err);
			fprintf(stderr, "%s%s: not counted: the kernel refused to open it (%s: %s)\n",
				name_of(e), at, en ? en : "?", strerror(e->err));
		}
	}
}
