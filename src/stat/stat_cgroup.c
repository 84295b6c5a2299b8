/* SPDX-License-Identifier: Apache-2.0 */
/* stat_cgroup.c: pmuprof stat's -G and --for-each-cgroup: the options, perf's rule giving
 * each event its cgroup, and the cgroups opened for a pass (cgroup.c finds and opens them). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "stat_cmd.h"

error_t stat_cgroup_opt(struct stat_opts *o, int key, char *arg, struct argp_state *state)
{
	struct stat_cgroup_opts *g = &o->cg;
	const char **l;
	size_t *b;

	if (key == STAT_OPT_FOR_EACH_CGROUP) {
		g->for_each = arg;
		return 0;
	}
	if (key != 'G')
		return ARGP_ERR_UNKNOWN;
	/* as perf: a cgroup is given to an event named before it */
	if (!o->ev.nspecs)
		argp_error(state, "-G gives a cgroup to each event named before it: give the "
			   "events first (-e task-clock -G NAME)");
	if (!(l = realloc(g->lists, (g->n + 1) * sizeof(*l))))
		argp_failure(state, 2, ENOMEM, "-G");
	g->lists = l;
	if (!(b = realloc(g->before, (g->n + 1) * sizeof(*b))))
		argp_failure(state, 2, ENOMEM, "-G");
	g->before = b;
	l[g->n] = arg;
	b[g->n++] = o->ev.nspecs;
	return 0;
}

void stat_cgroup_check(struct argp_state *state, const struct stat_opts *o)
{
	const char *opt = o->cg.for_each ? "--for-each-cgroup" : o->cg.n ? "-G" : NULL;

	if (!opt)
		return;
	if (o->cg.for_each && o->cg.n)
		argp_error(state, "-G and --for-each-cgroup both choose the cgroups: give one "
			   "of them");
	if (!o->all_cpus && !o->cpu_list)
		argp_error(state, "%s counts the tasks of a cgroup on each CPU: it needs -a (or "
			   "-C LIST)", opt);
	if (o->aggr == REPORT_AGGR_THREAD)
		argp_error(state, "%s counts per cgroup, --per-thread per thread: give one of "
			   "them", opt);
}

void stat_cgroup_opts_free(struct stat_cgroup_opts *g)
{
	free(g->lists);
	free(g->before);
	memset(g, 0, sizeof(*g));
}

void stat_cgroups_free(struct stat_cgroups *cg)
{
	cgroup_set_free(&cg->set);
}

/* The hierarchy's root into root; -1 after a message. */
static int find_root(char *root, size_t len)
{
	switch (cgroup_root(root, len)) {
	case PP_OK:
		return 0;
	case PP_ENOENT:
		msg_error("cannot count per cgroup: no cgroup v2 hierarchy is mounted (as root, "
			  "'mount -t cgroup2 none /sys/fs/cgroup')");
		return -1;
	default:
		msg_error("cannot count per cgroup: cannot read the cgroup v2 mount from "
			  "/proc/self/mountinfo");
		return -1;
	}
}

/* The message for a cgroup that did not open (name as given). */
static void open_error(pp_status st, const char *root, const char *name)
{
	char b[80];
	const char *c = msg_clip(name, b, sizeof(b));

	if (st == PP_ENOENT)
		msg_error("cannot count in cgroup '%s': no such cgroup under %s (give its path "
			  "below that mount, e.g. 'system.slice')", c, root);
	else if (st == PP_EMFILE)
		msg_error("cannot open cgroup '%s': too many open files (raise the limit with "
			  "'ulimit -n')", c);
	else
		msg_error("cannot open cgroup '%s' under %s: %s (count as root, or in a cgroup "
			  "you can read)", c, root, pp_strstatus(st));
}

/* Repeats the n specs of o once per cgroup of the set. -1 when out of memory. */
static int repeat_specs(struct stat_opts *o, size_t ncg)
{
	size_t n = o->ev.nspecs;
	const char **p = realloc(o->ev.specs, (n * ncg + 1) * sizeof(*p));

	if (!p)
		return -1;
	for (size_t c = 1; c < ncg; c++)
		memcpy(p + c * n, p, n * sizeof(*p));
	o->ev.specs = p;
	o->ev.nspecs = n * ncg;
	return 0;
}

int stat_cgroup_specs(struct stat_opts *o, struct stat_cgroups *cg)
{
	char root[4096], bad[128] = "", c[80];
	pp_status st;

	if (!o->cg.for_each)
		return 0;
	if (find_root(root, sizeof(root)) != 0)
		return -1;
	st = cgroup_match(root, o->cg.for_each, &cg->set, bad, sizeof(bad));
	if (st == PP_EINVAL) {
		msg_error("cannot use --for-each-cgroup pattern '%s': not an extended regular "
			  "expression (see regex(7))", msg_clip(bad, c, sizeof(c)));
		return -1;
	}
	if (st != PP_OK) {
		open_error(st, root, bad);
		return -1;
	}
	if (!cg->set.n) {
		msg_error("no cgroup under %s matches '%s' (list them with 'find %s -type d')",
			  root, msg_clip(o->cg.for_each, c, sizeof(c)), root);
		return -1;
	}
	cg->nspecs = o->ev.nspecs;
	if (repeat_specs(o, cg->set.n) != 0) {
		msg_error("out of memory");
		return -1;
	}
	return 0;
}

/* The index in cg->set of the cgroup name, opened now if it is not yet; -1 after a
 * message. */
static long open_name(struct stat_cgroups *cg, const char *root, const char *name)
{
	struct cgroup_entry *e, one;
	const char *rel = *name == '/' && name[1] ? name + 1 : *name ? name : "/";
	pp_status st;

	for (size_t k = 0; k < cg->set.n; k++)
		if (!strcmp(cg->set.e[k].path, rel))
			return (long)k;
	if ((st = cgroup_open(root, name, &one)) != PP_OK) {
		open_error(st, root, name);
		return -1;
	}
	if (!(e = realloc(cg->set.e, (cg->set.n + 1) * sizeof(*e)))) {
		cgroup_set_free(&(struct cgroup_set){ &one, 1 });
		msg_error("out of memory");
		return -1;
	}
	cg->set.e = e;
	e[cg->set.n] = one;
	return (long)cg->set.n++;
}

static void give(struct stat_event *row, const struct cgroup_entry *e)
{
	row->cgroup = e->path;
	row->cgroup_fd = e->fd;
}

/* One -G list: its names given to the events from *nr on (an empty name leaves its event
 * counting every task), among the nev events named before it. -1 after a message. */
static int one_list(struct stat_cgroups *cg, const char *root, const char *list,
		    struct stat_event *rows, size_t nev, size_t *nr)
{
	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		char *name = strndup(p, n), c[80];
		long ix = 0;

		if (!name) {
			msg_error("out of memory");
			return -1;
		}
		if (*name && *nr >= nev)
			msg_error("cannot give cgroup '%s' an event: -G gives its cgroups in order "
				  "to the events named before it, and %zu event%s come%s before it "
				  "(give fewer cgroups, or more events first)",
				  msg_clip(name, c, sizeof(c)), nev, nev == 1 ? "" : "s",
				  nev == 1 ? "s" : "");
		if (*name && (*nr >= nev || (ix = open_name(cg, root, name)) < 0)) {
			free(name);
			return -1;
		}
		if (*name)
			give(&rows[*nr], &cg->set.e[ix]);
		free(name);
		++*nr;
		p += n;
		if (!*p)
			return 0;
	}
}

/* -G as perf has it: the cgroups of every -G, in order, go to the events in order; one
 * cgroup alone goes to every event named before its -G. */
static int by_lists(const struct stat_opts *o, struct stat_cgroups *cg, struct stat_event *rows,
		    size_t nrows)
{
	char root[4096];
	size_t nr = 0;

	if (find_root(root, sizeof(root)) != 0)
		return -1;
	for (size_t g = 0; g < o->cg.n; g++) {
		size_t nev = 0;

		while (nev < nrows && rows[nev].sel.spec < o->cg.before[g])
			nev++;
		if (one_list(cg, root, o->cg.lists[g], rows, nev, &nr) != 0)
			return -1;
		for (size_t k = 1; nr == 1 && rows[0].cgroup && k < nev; k++) {
			rows[k].cgroup = rows[0].cgroup;
			rows[k].cgroup_fd = rows[0].cgroup_fd;
		}
	}
	return 0;
}

int stat_cgroup_rows(const struct stat_opts *o, struct stat_cgroups *cg,
		     struct stat_event *rows, size_t nrows)
{
	if (o->cg.n)
		return by_lists(o, cg, rows, nrows);
	if (!o->cg.for_each)
		return 0;
	for (size_t k = 0; k < nrows; k++)
		give(&rows[k], &cg->set.e[rows[k].sel.spec / cg->nspecs]);
	return 0;
}
