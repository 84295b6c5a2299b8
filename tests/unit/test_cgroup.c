/* SPDX-License-Identifier: Apache-2.0 */
/* test_cgroup.c: the cgroup module against mountinfo texts and a temporary directory tree
 * standing for the hierarchy: names and patterns picked, errors, rescans, descriptors. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "tap.h"

static char root[PATH_MAX];

/* The paths of a set, joined by spaces. */
static const char *joined(const struct cgroup_set *s)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < s->n && n < sizeof buf; k++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", k ? " " : "", s->e[k].path);
	return buf;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void mk(const char *rel)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof p, "%s/%s", root, rel);
	mkdir(p, 0755);
}

static void rm(const char *rel)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof p, "%s/%s", root, rel);
	rmdir(p);
}

static const struct mount_row {
	int line;
	const char *text, *want;
	pp_status st;
} mount_rows[] = {
	{ __LINE__, "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
		    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
	  "/sys/fs/cgroup/unified", PP_OK },
	{ __LINE__, "29 1 0:26 / /sys/fs/cgroup rw shared:4 - cgroup2 cgroup2 rw,nsdelegate\n",
	  "/sys/fs/cgroup", PP_OK },
	{ __LINE__, "41 31 0:38 / /mnt/cg\\040two rw - cgroup2 none rw\n", "/mnt/cg two", PP_OK },
	{ __LINE__, "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "", PP_ENOENT },
	{ __LINE__, "", "", PP_ENOENT },
};

static void test_mount(void)
{
	for (size_t k = 0; k < sizeof mount_rows / sizeof mount_rows[0]; k++) {
		const struct mount_row *r = &mount_rows[k];
		char text[256], out[64] = "";
		FILE *f;

		snprintf(text, sizeof text, "%s", r->text);
		f = fmemopen(text, strlen(text) + 1, "r");
		TAP_EQ_INT(cgroup_mount_parse(f, out, sizeof out), r->st, "line %d: status", r->line);
		TAP_EQ_STR(r->st == PP_OK ? out : "", r->want, "line %d: mount point", r->line);
		fclose(f);
	}
}

static const struct match_row {
	int line;
	const char *list, *want, *bad;
	pp_status st;
} match_rows[] = {
	{ __LINE__, "web", "web", NULL, PP_OK },
	{ __LINE__, "web,db/x", "db/x web", NULL, PP_OK },
	{ __LINE__, ",web", "/ web", NULL, PP_OK },
	{ __LINE__, "/", "/", NULL, PP_OK },
	{ __LINE__, "nosuch", "", "nosuch", PP_ENOENT },
	{ __LINE__, "web,nosuch", "", "nosuch", PP_ENOENT },
	{ __LINE__, "web-[0-9]+", "web-1 web-2", NULL, PP_OK },
	{ __LINE__, "^web", "web web-1 web-2", NULL, PP_OK },
	{ __LINE__, "^db$,^web$", "db web", NULL, PP_OK },
	{ __LINE__, "x$", "db/x", NULL, PP_OK },	/* paths below the top level match too */
	{ __LINE__, "^/$", "/", NULL, PP_OK },
	{ __LINE__, "^zz.*", "", NULL, PP_OK },		/* no match: an empty set */
	{ __LINE__, "zz[", "", "zz[", PP_EINVAL },
	{ __LINE__, "^web$,(", "", "(", PP_EINVAL },
};

static void test_match(void)
{
	for (size_t k = 0; k < sizeof match_rows / sizeof match_rows[0]; k++) {
		const struct match_row *r = &match_rows[k];
		struct cgroup_set s;
		char bad[64] = "";
		int before = open_fds();

		TAP_EQ_INT(cgroup_match(root, r->list, &s, bad, sizeof bad), r->st,
			   "line %d: status of '%s'", r->line, r->list);
		TAP_EQ_STR(joined(&s), r->want, "line %d: paths", r->line);
		if (r->bad)
			TAP_EQ_STR(bad, r->bad, "line %d: the culprit named", r->line);
		for (size_t j = 0; j < s.n; j++)
			tap_ok(s.e[j].fd >= 0, "line %d: '%s' open", r->line, s.e[j].path);
		TAP_EQ_INT(open_fds() - before, (int)s.n, "line %d: one descriptor each", r->line);
		cgroup_set_free(&s);
		TAP_EQ_INT(open_fds(), before, "line %d: none left after free", r->line);
	}
}

/* Containers come and go: a rescan keeps the descriptors of the ones still there, closes
 * those of the ones gone, opens the new ones, and leaks none. */
static void test_rescan(void)
{
	struct cgroup_set s;
	struct cgroup_change chg;
	int before = open_fds(), fd2;

	TAP_EQ_INT(cgroup_match(root, "^web-", &s, NULL, 0), PP_OK, "first scan");
	TAP_EQ_STR(joined(&s), "web-1 web-2", "first scan's set");
	fd2 = s.n == 2 ? s.e[1].fd : -1;
	rm("web-1");
	mk("web-3");
	TAP_EQ_INT(cgroup_rescan(root, "^web-", 0, &s, &chg, NULL, 0), PP_OK, "rescan");
	TAP_EQ_STR(joined(&s), "web-2 web-3", "the new set");
	TAP_EQ_INT(s.n ? s.e[0].fd : -1, fd2, "web-2 keeps its descriptor");
	TAP_EQ_INT(chg.nadded, 1, "one added");
	TAP_EQ_STR(chg.nadded ? s.e[chg.added[0]].path : NULL, "web-3", "web-3 added");
	TAP_EQ_INT(chg.ngone, 1, "one gone");
	TAP_EQ_STR(chg.ngone ? chg.gone[0] : NULL, "web-1", "web-1 gone");
	TAP_EQ_INT(open_fds() - before, 2, "two descriptors open");
	cgroup_change_free(&chg);
	TAP_EQ_INT(cgroup_rescan(root, "web-[", 0, &s, &chg, NULL, 0), PP_EINVAL, "bad pattern");
	TAP_EQ_STR(joined(&s), "web-2 web-3", "a failed rescan leaves the set");
	TAP_EQ_INT(cgroup_rescan(root, "^zz", 0, &s, &chg, NULL, 0), PP_OK, "all gone");
	TAP_EQ_INT(chg.ngone, 2, "both gone");
	TAP_EQ_INT(s.n, 0, "an empty set");
	cgroup_change_free(&chg);
	cgroup_set_free(&s);
	TAP_EQ_INT(open_fds(), before, "no descriptor left");
	rm("web-3");
	mk("web-1");
}

/* A name list's cgroup removed while a caller keeps it: a first (strict) scan refuses the
 * name, a later one leaves it out and closes its descriptor, and takes it when made again. */
static void test_rescan_names(void)
{
	struct cgroup_set s = { 0 };
	struct cgroup_change chg;
	char bad[64] = "";
	int before = open_fds();

	mk("gone");
	TAP_EQ_INT(cgroup_rescan(root, "gone,web", 1, &s, &chg, bad, sizeof bad), PP_OK,
		   "first scan of names");
	TAP_EQ_STR(joined(&s), "gone web", "both named");
	cgroup_change_free(&chg);
	rm("gone");
	TAP_EQ_INT(cgroup_rescan(root, "gone,web", 1, &s, &chg, bad, sizeof bad), PP_ENOENT,
		   "strict: a name that is no cgroup fails");
	TAP_EQ_STR(bad, "gone", "the culprit named");
	TAP_EQ_STR(joined(&s), "gone web", "the failed rescan leaves the set");
	TAP_EQ_INT(cgroup_rescan(root, "gone,web", 0, &s, &chg, NULL, 0), PP_OK,
		   "later: a removed name is no error");
	TAP_EQ_STR(joined(&s), "web", "the removed one is left out");
	TAP_EQ_INT(chg.ngone, 1, "one gone");
	TAP_EQ_STR(chg.ngone ? chg.gone[0] : NULL, "gone", "the named one");
	TAP_EQ_INT(open_fds() - before, 1, "its descriptor closed");
	cgroup_change_free(&chg);
	mk("gone");
	TAP_EQ_INT(cgroup_rescan(root, "gone,web", 0, &s, &chg, NULL, 0), PP_OK,
		   "made again");
	TAP_EQ_STR(joined(&s), "gone web", "taken again");
	TAP_EQ_INT(chg.nadded, 1, "as an added one");
	cgroup_change_free(&chg);
	tap_ok(!cgroup_removed(s.e[0].fd), "a cgroup there is not removed");
	rm("gone");
	tap_ok(cgroup_removed(s.e[0].fd), "a removed one is");
	cgroup_set_free(&s);
	TAP_EQ_INT(open_fds(), before, "no descriptor left");
}

static void test_root(void)
{
	char out[PATH_MAX];

	setenv("PMUPROF_CGROUP_ROOT", root, 1);
	TAP_EQ_INT(cgroup_root(out, sizeof out), PP_OK, "root from the environment");
	TAP_EQ_STR(out, root, "it is the variable's");
	TAP_EQ_INT(cgroup_root(out, 4), PP_ERANGE, "too long a root");
	unsetenv("PMUPROF_CGROUP_ROOT");
	tap_ok(cgroup_is_pattern("a|b") && !cgroup_is_pattern("a.b,c-d"),
	       "patterns are told by perf's characters");
}

int main(void)
{
	static const char *const dirs[] = { "web", "web-1", "web-2", "db", "db/x" };

	snprintf(root, sizeof root, "%s/pmuprof-cgroup-XXXXXX", P_tmpdir);
	if (!mkdtemp(root)) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++)
		mk(dirs[k]);
	test_mount();
	test_match();
	test_rescan();
	test_rescan_names();
	test_root();
	for (size_t k = sizeof dirs / sizeof dirs[0]; k-- > 0;)
		rm(dirs[k]);
	rmdir(root);
	return tap_done();
}
