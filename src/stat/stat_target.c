/* SPDX-License-Identifier: Apache-2.0 */
/* stat_target.c: perf's targets. -a and -C count every task on a set of CPUs; -p and -t
 * follow running tasks instead of a command of pmuprof's own. Each counter to open becomes
 * one copy per CPU or per task; the copies are what is opened and read, and each reading
 * keeps its CPU or task, so the aggregation (aggregate.h) can sum them or keep them apart. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ascii.h"
#include "msg.h"
#include "stat.h"
#include "sysfs.h"

void stat_target_free(struct stat_target *t)
{
	free(t->cpus);
	free(t->tasks);
	free(t->comm);
	free(t->ids);
	t->ids = NULL;
	t->nids = 0;
	t->cpus = t->tasks = NULL;
	t->comm = NULL;
	t->ncpus = t->ntasks = 0;
}

int stat_target_cpus(struct stat_target *t, const char *list)
{
	int *on = NULL, non = 0, *want = NULL, nwant = 0;
	char text[64];

	if (sysfs_read_cpulist("/sys/devices/system/cpu/online", &on, &non) != PP_OK || !non) {
		free(on);
		msg_error("cannot count on every CPU: the kernel lists no online CPU in "
			  "/sys/devices/system/cpu/online");
		return -1;
	}
	if (!list) {
		t->cpus = on;
		t->ncpus = non;
		t->all = 1;
		snprintf(t->desc, sizeof(t->desc), "system wide");
		return 0;
	}
	if (sysfs_parse_cpulist(list, &want, &nwant) != PP_OK || !nwant) {
		sysfs_format_cpulist(on, non, text, sizeof(text));
		free(on);
		free(want);
		msg_error("-C takes a list of CPUs such as 0-3,6, not '%s' (this machine's "
			  "online CPUs are %s)", list, text);
		return -1;
	}
	for (int k = 0; k < nwant; k++) {
		int ok = 0;

		for (int j = 0; j < non && !ok; j++)
			ok = on[j] == want[k];
		if (!ok) {
			sysfs_format_cpulist(on, non, text, sizeof(text));
			msg_error("-C: CPU %d is not online (this machine's online CPUs are %s)",
				  want[k], text);
			free(on);
			free(want);
			return -1;
		}
	}
	free(on);
	/* sysfs_parse_cpulist sorts; duplicates ("1,1") are dropped */
	int m = 0;

	for (int k = 0; k < nwant; k++)
		if (!m || want[m - 1] != want[k])
			want[m++] = want[k];
	t->cpus = want;
	t->ncpus = m;
	sysfs_format_cpulist(want, m, text, sizeof(text));
	snprintf(t->desc, sizeof(t->desc), "CPU(s) %s", text);
	return 0;
}

/* Appends task tid with its comm; -1 when memory ran out. */
static int add_task(struct stat_target *t, int tid)
{
	char path[64], comm[64] = "";
	int *tk;
	char (*cm)[16];

	for (int k = 0; k < t->ntasks; k++)
		if (t->tasks[k] == tid)
			return 0;
	if (!(tk = realloc(t->tasks, (size_t)(t->ntasks + 1) * sizeof(*tk))))
		return -1;
	t->tasks = tk;
	if (!(cm = realloc(t->comm, (size_t)(t->ntasks + 1) * sizeof(*cm))))
		return -1;
	t->comm = cm;
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	comm[strcspn(comm, "\n")] = '\0';
	snprintf(t->comm[t->ntasks], sizeof(t->comm[0]), "%s", comm);
	t->tasks[t->ntasks++] = tid;
	return 0;
}

/* The threads of process pid (its /proc/PID/task), in tid order; -1: no such process. */
static int add_threads(struct stat_target *t, int pid)
{
	char path[64];
	struct dirent **ents = NULL;
	int n, rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if ((n = scandir(path, &ents, NULL, versionsort)) < 0)
		return -1;
	for (int k = 0; k < n; k++) {
		if (ascii_isdigit((unsigned char)ents[k]->d_name[0]) && rc == 0 &&
		    add_task(t, atoi(ents[k]->d_name)) != 0)
			rc = -2;
		free(ents[k]);
	}
	free(ents);
	return rc;
}

int stat_target_tasks(struct stat_target *t, const char *list, int per_process)
{
	const char *opt = per_process ? "-p" : "-t";
	const char *p = list;

	t->per_process = per_process;
	while (*p) {
		char *end;
		long id;

		errno = 0;
		id = strtol(p, &end, 10);
		if (end == p || errno || id <= 0 || id > 0x3fffffff || (*end && *end != ',')) {
			msg_error("%s takes a list of %s such as 1234,1240, not '%s'", opt,
				  per_process ? "process ids" : "thread ids", list);
			return -1;
		}
		char path[64];

		snprintf(path, sizeof(path), "/proc/%ld", id);
		if (per_process ? add_threads(t, (int)id) == -1
				: (access(path, F_OK) != 0 || add_task(t, (int)id) != 0)) {
			msg_error("%s: no %s %ld on this machine (is it still running?)", opt,
				  per_process ? "process" : "thread", id);
			return -1;
		}
		int *ids = realloc(t->ids, (size_t)(t->nids + 1) * sizeof(*ids));

		if (!ids) {
			msg_error("out of memory");
			return -1;
		}
		t->ids = ids;
		t->ids[t->nids++] = (int)id;
		p = *end ? end + 1 : end;
	}
	if (!t->ntasks) {
		msg_error("%s takes a list of ids such as 1234,1240, not '%s'", opt, list);
		return -1;
	}
	snprintf(t->desc, sizeof(t->desc), "%s id '%s'", per_process ? "process" : "thread",
		 list);
	return 0;
}

/* The members of a group made here, at most (counter_read_group reads 64) */
#define STAT_AUTO_GROUP_MAX 32

int stat_target_all_tasks(struct stat_target *t)
{
	struct dirent **ents = NULL;
	int n, rc = 0, self = getpid();

	if ((n = scandir("/proc", &ents, NULL, versionsort)) < 0) {
		msg_error("cannot list the tasks of this machine in /proc: %s", strerror(errno));
		return -1;
	}
	for (int k = 0; k < n; k++) {
		/* every process but pmuprof; one that ended meanwhile is passed over */
		if (ascii_isdigit((unsigned char)ents[k]->d_name[0]) && atoi(ents[k]->d_name) != self &&
		    rc == 0 && add_threads(t, atoi(ents[k]->d_name)) == -2)
			rc = -1;
		free(ents[k]);
	}
	free(ents);
	if (rc)
		msg_error("out of memory");
	snprintf(t->desc, sizeof(t->desc), "system wide");
	t->all = 1;
	return rc;
}

/* Whether copy c may count on cpu: an Arm PMU's part or presence only on its own CPUs. */
static int on_cpu(const struct stat_counters *cs, const struct stat_counter *c, int cpu)
{
	if (c->part < 0 && !c->presence)
		return 1;
	return sysfs_pmu_has_cpu(&cs->pmus[c->part >= 0 ? cs->parts[c->part].pmu_ix : c->pmu_ix],
				 cpu);
}

/* Copy of counter o on slot s of t (maxgroup: above the user's groups). */
static struct stat_counter copy_of(const struct stat_counter *o, const struct stat_target *t,
				   int s, int maxgroup)
{
	struct stat_counter c = *o;

	c.leader = -1;
	if (t->cpus) {
		c.cpu = t->cpus[s];
		c.cpu_wide = 1;
		c.task = 0;
	} else {
		c.task = t->tasks[s];	/* a presence counter keeps its CPU */
	}
	/* the user's groups, one per slot (a group cannot span CPUs) */
	if (o->group >= 0)
		c.group = maxgroup * (s + 1) + o->group;
	return c;
}

/* The counters c[first..n) of one CPU, type and planned run that the user did not group,
 * grouped: one read returns them all (the plan says they fit the counters, with grouping;
 * software events always do). base: above every other group. */
static void auto_group(const struct stat_counters *cs, struct stat_counter *c,
		       const struct stat_event *rows, size_t first, size_t n, int grouping,
		       int base)
{
	for (size_t a = first; a < n; a++) {
		uint32_t type = stat_counter_attr(cs, rows, &c[a]).type;
		int size = 1;

		if (c[a].group >= 0 || c[a].presence || (!grouping && type != PERF_TYPE_SOFTWARE))
			continue;
		c[a].group = base + (int)a;
		c[a].auto_group = 1;
		for (size_t b = a + 1; b < n && size < STAT_AUTO_GROUP_MAX; b++)
			if (c[b].group < 0 && !c[b].presence &&
			    rows[c[b].ev].cgroup == rows[c[a].ev].cgroup &&
			    stat_counter_attr(cs, rows, &c[b]).type == type &&
			    c[b].run == c[a].run) {
				c[b].group = c[a].group;
				c[b].auto_group = 1;
				size++;
			}
	}
}

int stat_target_expand(struct stat_counters *cs, const struct stat_event *rows,
		       const struct stat_target *t, int grouping)
{
	struct stat_counter *o = cs->c, *c;
	size_t want = 0, j = 0, n0 = cs->n;
	int nslots = t->cpus ? t->ncpus : t->ntasks, maxgroup = 0;

	for (size_t k = 0; k < n0; k++) {
		if (o[k].group + 1 > maxgroup)
			maxgroup = o[k].group + 1;
		want += stat_counter_opens(cs, &o[k]) ? (size_t)nslots : 1;
	}
	if (!(c = calloc(want + 1, sizeof(*c))))
		return ENOMEM;
	for (size_t k = 0; k < n0; k++)		/* what never opens stays as it is */
		if (!stat_counter_opens(cs, &o[k]))
			c[j++] = o[k];
	for (int s = 0; s < nslots; s++) {
		size_t first = j;

		for (size_t k = 0; k < n0; k++)
			if (stat_counter_opens(cs, &o[k]) &&
			    (!t->cpus || on_cpu(cs, &o[k], t->cpus[s])))
				c[j++] = copy_of(&o[k], t, s, maxgroup);
		if (t->cpus)
			auto_group(cs, c, rows, first, j, grouping, maxgroup * (nslots + 1));
	}
	free(o);
	cs->c = c;
	cs->n = j;
	return 0;
}
