/* SPDX-License-Identifier: Apache-2.0 */
/* stat_verbose.c: pmuprof stat -v on standard error: how each row and part is opened, then
 * what each counter read in each run (perf stat -v's "NAME: VALUE ENABLED RUNNING" lines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "stat.h"

/* The PMU, type, config and exclusions of attr a, after "event 'NAME': PMU X". */
static void encoding(const struct pp_event *ev, const struct evtab_core *core,
		     const struct pp_attr *a)
{
	fprintf(stderr, ", type %u, config 0x%llx", a->type, (unsigned long long)a->config);
	if (a->config1)
		fprintf(stderr, ", config1 0x%llx", (unsigned long long)a->config1);
	if (a->config2)
		fprintf(stderr, ", config2 0x%llx", (unsigned long long)a->config2);
	if (ev->arm_code >= 0)	/* a generic name: what the Arm kernel maps */
		fprintf(stderr, core ? " (Arm event 0x%04x)" : " (on Arm: event 0x%04x)",
			(unsigned)ev->arm_code);
	if (a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_host ||
	    a->exclude_guest)
		fprintf(stderr, ", excluding%s%s%s%s%s", a->exclude_user ? " user" : "",
			a->exclude_kernel ? " kernel" : "", a->exclude_hv ? " hv" : "",
			a->exclude_host ? " host" : "", a->exclude_guest ? " guest" : "");
	if (a->pinned)
		fputs(", pinned", stderr);
}

/* Row k's line: a tool event, a row split over core types, or its own encoding. */
static void row_line(const struct stat_event *rows, const struct stat_counters *cs, size_t k,
		     const char *fixture)
{
	const struct pp_event *ev = &rows[k].sel.ev;
	size_t first, nparts = stat_row_parts(cs, k, &first);

	fprintf(stderr, "event '%s': PMU %s", ev->name, ev->pmu);
	if (rows[k].tool) {
		fputs(", measured by pmuprof (no counter)\n", stderr);
		return;
	}
	if (nparts) {
		fprintf(stderr, ", counted on %zu core types (its parts below)\n", nparts);
		return;
	}
	encoding(ev, ev->core, &ev->attr);
	if (ev->group >= 0)
		fprintf(stderr, ", group %d", ev->group + 1);
	if (fixture)
		fputs(", never opened: its PMU is a fixture tree's", stderr);
	fputc('\n', stderr);
}

/* Part i's line: the row's event on one core type. */
static void part_line(const struct stat_event *rows, const struct stat_counters *cs, size_t i)
{
	const struct stat_part *p = &cs->parts[i];
	const struct pp_event *ev = &rows[p->ev].sel.ev;
	const char *pmu = cs->pmus[p->pmu_ix].name;

	fprintf(stderr, "event '%s' (%s): PMU %s", ev->name, pmu, pmu);
	encoding(ev, p->core, &p->attr);
	if (p->group >= 0)
		fprintf(stderr, ", group %d", p->group + 1);
	if (p->absent)
		fputs(", absent: its core type has no such event", stderr);
	else if (stat_part_fixture(cs, i))
		fputs(", never opened: its PMU is a fixture tree's", stderr);
	fputc('\n', stderr);
}

void stat_verbose_events(const struct stat_event *rows, const struct stat_counters *cs)
{
	/* the events as asked and the parts they are split into, not their copies per CPU or
	 * task, nor the presence counters pmuprof adds */
	const char **fixture = calloc(cs->nrows + 1, sizeof(*fixture));

	if (!fixture) {
		msg_error("out of memory");
		return;
	}
	stat_rows_fixture(cs, fixture);
	for (size_t k = 0; k < cs->nrows; k++)
		row_line(rows, cs, k, fixture[k]);
	free(fixture);
	for (size_t i = 0; i < cs->nparts; i++)
		part_line(rows, cs, i);
}

/* " (CPU 3)", " (thread 1234)", " (armv8_cortex_a55)": where counter c counts, when it is
 * one of several counters of its row. */
static void where(const struct stat_counters *cs, const struct stat_counter *c, char *buf,
		  size_t len)
{
	if (c->cpu_wide)
		snprintf(buf, len, " (CPU %d)", c->cpu);
	else if (c->task > 0)
		snprintf(buf, len, " (thread %d)", c->task);
	else if (c->part >= 0)
		snprintf(buf, len, " (%s)", cs->pmus[cs->parts[c->part].pmu_ix].name);
	else
		*buf = '\0';
}

void stat_verbose_counts(const struct stat_event *rows, const struct stat_counters *cs)
{
	for (size_t k = 0; k < cs->n; k++) {
		const struct stat_counter *c = &cs->c[k];
		const struct counter_reading *r = &c->rd;
		const char *name, *en;
		char at[80];

		/* what was opened (or measured) and what failed to open; not what was never to
		 * be opened */
		if (c->presence || c->fixture || (c->part >= 0 && cs->parts[c->part].absent))
			continue;
		name = rows[c->ev].sel.ev.name;
		where(cs, c, at, sizeof(at));
		if (c->opened) {
			fprintf(stderr, "%s%s: %llu %llu %llu\n", name, at,
				(unsigned long long)r->value, (unsigned long long)r->enabled,
				(unsigned long long)r->running);
		} else if (c->err) {
			en = strerrorname_np(c->err);
			fprintf(stderr, "%s%s: not counted: the kernel refused to open it (%s: %s)\n",
				name, at, en ? en : "?", strerror(c->err));
		}
	}
}
