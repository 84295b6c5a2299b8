/* SPDX-License-Identifier: Apache-2.0 */
/* stat_counters.c: the counters pmuprof stat opens for its rows, as one array: what each
 * opens with, what a row's counters say of it, and the reads, enables and closes that go
 * over all of them (the run and the interval wait share these). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat.h"

void stat_counters_free(struct stat_counters *cs)
{
	free(cs->parts);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

int stat_counter_opens(const struct stat_counters *cs, const struct stat_counter *c)
{
	return !c->fixture && !c->tool && !(c->part >= 0 && cs->parts[c->part].absent);
}

struct pp_attr stat_counter_attr(const struct stat_counters *cs, const struct stat_event *rows,
				 const struct stat_counter *c)
{
	struct pp_attr a;

	if (c->presence)
		return (struct pp_attr){ .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_TASK_CLOCK };
	a = c->part >= 0 ? cs->parts[c->part].attr : rows[c->ev].sel.ev.attr;
	if (c->user_only)
		a.exclude_kernel = a.exclude_hv = 1;
	return a;
}

size_t stat_row_parts(const struct stat_counters *cs, size_t k, size_t *first)
{
	size_t i = 0, n = 0;

	while (i < cs->nparts && cs->parts[i].ev < k)
		i++;
	*first = i;
	while (i + n < cs->nparts && cs->parts[i + n].ev == k)
		n++;
	return n;
}

/* Whether counter c is row k's own or one of its parts' (not absent). */
static int counts_row(const struct stat_counters *cs, const struct stat_counter *c, size_t k)
{
	return !c->presence && c->ev == k && !(c->part >= 0 && cs->parts[c->part].absent);
}

int stat_row_run(const struct stat_counters *cs, const struct stat_event *rows, size_t k)
{
	for (size_t i = 0; i < cs->n; i++)
		if (counts_row(cs, &cs->c[i], k))
			return cs->c[i].run;
	/* no part of it can count: planned with the rest of its user group, if any */
	for (size_t i = 0; rows[k].sel.ev.group >= 0 && i < cs->n; i++)
		if (!cs->c[i].presence && cs->c[i].part < 0 &&
		    cs->c[i].group == rows[k].sel.ev.group)
			return cs->c[i].run;
	return 0;
}

void stat_rows_fixture(const struct stat_counters *cs, const char **why)
{
	/* backwards, so that a row's first counter is the one written last: first whichever
	 * counter it has, then over that the first that counts it */
	for (size_t i = cs->n; i-- > 0;)
		if (!cs->c[i].presence)
			why[cs->c[i].ev] = cs->c[i].fixture;
	for (size_t i = cs->n; i-- > 0;)
		if (counts_row(cs, &cs->c[i], cs->c[i].ev))
			why[cs->c[i].ev] = cs->c[i].fixture;
}

const char *stat_part_fixture(const struct stat_counters *cs, size_t part)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].part == (int)part)
			return cs->c[i].fixture;
	return NULL;
}

/* A group read returns this many counts at most (counter_read_group). */
#define STAT_GROUP_READ_MAX 64

void stat_counters_read(struct stat_counters *cs)
{
	struct counter_reading g[STAT_GROUP_READ_MAX];
	struct stat_counter *c = cs->c;

	for (size_t k = 0; k < cs->n; k++) {
		size_t got, m = 0;

		if (c[k].fd < 0 || c[k].leader >= 0)
			continue;	/* not open, or read with its leader */
		if (!c[k].group_read) {
			if (counter_read(c[k].fd, &c[k].rd) != PP_OK)
				memset(&c[k].rd, 0, sizeof(c[k].rd));
			continue;
		}
		got = counter_read_group(c[k].fd, g, STAT_GROUP_READ_MAX);
		c[k].rd = got ? g[0] : (struct counter_reading){ 0 };
		/* its members, in the order they were opened (index order); a member the group
		 * read leaves out is read alone: when a CPU goes offline the kernel breaks up the
		 * groups on it (DETACH_GROUP), and the leader's read then returns itself only */
		for (size_t j = k + 1; j < cs->n && m < (size_t)c[k].nmembers; j++)
			if (c[j].leader == (int)k) {
				m++;
				if (m < got)
					c[j].rd = g[m];
				else if (counter_read_group(c[j].fd, &c[j].rd, 1) != 1)
					c[j].rd = (struct counter_reading){ 0 };
			}
	}
}

void stat_counters_enable(struct stat_counters *cs, int on)
{
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].fd >= 0 && cs->c[k].leader < 0)
			counter_enable(cs->c[k].fd, on);
}

void stat_counters_close(struct stat_counters *cs)
{
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].fd >= 0) {
			close(cs->c[k].fd);
			cs->c[k].fd = -1;
		}
}
