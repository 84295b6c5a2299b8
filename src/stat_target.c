/* stat_target.c: perf's targets. -a and -C count every task on a set of CPUs; -p and -t
 * follow running tasks instead of a command of pmuprof's own. Each event to open becomes
 * one copy per CPU or per task; the copies are what is opened and read, and each reading
 * keeps its CPU or task, so the aggregation (aggregate.h) can sum them or keep them apart. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ascii.h"
#include "cmd.h"
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

static int online_cpus(int **cpus, int *n)
{
	char buf[4096];

	if (sysfs_read_str("/sys/devices/system/cpu/online", buf, sizeof(buf)) != PP_OK)
		return -1;
	return sysfs_parse_cpulist(buf, cpus, n) == PP_OK ? 0 : -1;
}

int stat_target_cpus(struct stat_target *t, const char *list)
{
	int *on = NULL, non = 0, *want = NULL, nwant = 0;
	char text[64];

	if (online_cpus(&on, &non) != 0 || !non) {
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

/* Whether entry e is opened at all (else it is not copied either). */
static int to_copy(const struct stat_event *e)
{
	return !e->nparts && !e->absent && !e->fixture && !e->expanded;
}

/* Whether copy e may count on cpu: an Arm PMU's events only on its own CPUs. */
static int on_cpu(const struct stat_event *e, int cpu)
{
	const struct sysfs_pmu *p = e->arm_pmu;

	return !p || sysfs_pmu_has_cpu(p, cpu);
}

int stat_target_expand(struct stat_event **evs, size_t *n, const struct stat_target *t,
		       int grouping)
{
	struct stat_event *e = *evs, *grown;
	size_t want = 0, j = *n, n0 = *n;
	int nslots = t->cpus ? t->ncpus : t->ntasks, maxgroup = 0;

	for (size_t k = 0; k < n0; k++) {
		if (e[k].group + 1 > maxgroup)
			maxgroup = e[k].group + 1;
		if (to_copy(&e[k]))
			want += (size_t)nslots;
	}
	if (!want)
		return 0;
	if (!(grown = realloc(e, (n0 + want + 1) * sizeof(*grown)))) {
		msg_error("out of memory");
		return -1;
	}
	*evs = e = grown;
	for (int s = 0; s < nslots; s++) {
		size_t first = j;

		for (size_t k = 0; k < n0; k++) {
			struct stat_event *c;

			if (!to_copy(&e[k]) || (t->cpus && !on_cpu(&e[k], t->cpus[s])))
				continue;
			c = &e[j++];
			*c = e[k];
			c->copy = 1;
			c->orig = (int)k;
			c->leader = -1;
			if (t->cpus) {
				c->cpu = t->cpus[s];
				c->cpu_wide = 1;
				c->task = 0;
			} else {
				c->task = t->tasks[s];	/* a presence counter keeps its CPU */
			}
			/* the user's groups, one per slot (a group cannot span CPUs) */
			if (e[k].group >= 0)
				c->group = maxgroup * (s + 1) + e[k].group;
		}
		/* the events of one CPU, type and planned run that the user did not group,
		 * grouped: one read returns them all (the plan says they fit the counters;
		 * software events always do) */
		for (size_t a = first; t->cpus && a < j; a++) {
			int g;

			if (e[a].group >= 0 || e[a].presence ||
			    (!grouping && e[a].sel.ev.attr.type != PERF_TYPE_SOFTWARE))
				continue;
			int size = 1;

			g = maxgroup * (nslots + 1) + (int)a;
			e[a].group = g;
			e[a].auto_group = 1;
			for (size_t b = a + 1; b < j && size < STAT_AUTO_GROUP_MAX; b++)
				if (e[b].group < 0 && !e[b].presence &&
				    e[b].sel.ev.attr.type == e[a].sel.ev.attr.type &&
				    e[b].run == e[a].run) {
					e[b].group = g;
					e[b].auto_group = 1;
					size++;
				}
		}
	}
	for (size_t k = 0; k < n0; k++)
		if (to_copy(&e[k]))
			e[k].expanded = 1;
	*n = j;
	return 0;
}
