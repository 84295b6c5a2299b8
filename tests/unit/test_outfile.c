/* SPDX-License-Identifier: Apache-2.0 */
/* test_outfile.c: where a report file's path leads, in a scratch directory of links, files
 * and directories: outfile_check's verdict (making nothing), outfile_same's over spellings
 * of one file, a commit through a link (the link stays), and report_name's default. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "report.h"
#include "tap.h"

static int entries(void)
{
	FILE *p = popen("ls -A | wc -l", "r");
	int n = -1;

	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* The scratch directory: f (a file), d/ (a directory), l -> f, dl -> d, dang -> new,
 * chain -> l, up/rel -> ../f, loop1 <-> loop2, h (a hard link of f). */
static void make_tree(void)
{
	FILE *f = fopen("f", "w");

	if (f) {
		fputs("old\n", f);
		fclose(f);
	}
	if (mkdir("d", 0755) || mkdir("up", 0755) || symlink("f", "l") || symlink("d", "dl") ||
	    symlink("new", "dang") || symlink("l", "chain") || symlink("../f", "up/rel") ||
	    symlink("loop2", "loop1") || symlink("loop1", "loop2") || link("f", "h"))
		perror("make_tree");
}

static const struct {
	int line;
	const char *path;
	int want;
} check_rows[] = {
	{ __LINE__, "f", 0 },
	{ __LINE__, "new.txt", 0 },
	{ __LINE__, "l", 0 },
	{ __LINE__, "dang", 0 },
	{ __LINE__, "up/rel", 0 },
	{ __LINE__, "d", EISDIR },
	{ __LINE__, "dl", EISDIR },
	{ __LINE__, "f/", EISDIR },
	{ __LINE__, "d/..", EISDIR },
	{ __LINE__, "", ENOENT },
	{ __LINE__, "nodir/x", ENOENT },
	{ __LINE__, "f/x", ENOTDIR },
	{ __LINE__, "loop1", ELOOP },
	{ __LINE__, "/dev/null", 0 },
	{ __LINE__, "/proc/self/fd/1", 0 },	/* the test's standard output */
	{ __LINE__, "/proc/self/fd/999", EBADF },	/* not open */
};

static const struct {
	int line;
	const char *a, *b;
	int want;
} same_rows[] = {
	{ __LINE__, "f", "f", 1 },
	{ __LINE__, "f", "./f", 1 },
	{ __LINE__, "f", "l", 1 },
	{ __LINE__, "f", "chain", 1 },
	{ __LINE__, "f", "up/rel", 1 },
	{ __LINE__, "f", "h", 1 },		/* a hard link: one inode */
	{ __LINE__, "f", "d/../f", 1 },
	{ __LINE__, "new", "dang", 1 },		/* not made yet: by resolved path */
	{ __LINE__, "new", "d/../new", 1 },
	{ __LINE__, "x", "x", 1 },
	{ __LINE__, "f", "new", 0 },
	{ __LINE__, "new", "new2", 0 },
	{ __LINE__, "d/new", "new", 0 },
	/* written in place both: their reports follow each other */
	{ __LINE__, "/dev/null", "/dev/null", 0 },
	{ __LINE__, "/proc/self/fd/1", "/dev/stdout", 0 },
};

static void test_check_same(void)
{
	for (size_t k = 0; k < sizeof(check_rows) / sizeof(check_rows[0]); k++)
		TAP_EQ_INT(outfile_check(check_rows[k].path), check_rows[k].want,
			   "line %d: check '%s'", check_rows[k].line, check_rows[k].path);
	for (size_t k = 0; k < sizeof(same_rows) / sizeof(same_rows[0]); k++)
		TAP_EQ_INT(outfile_same(same_rows[k].a, same_rows[k].b), same_rows[k].want,
			   "line %d: same '%s' '%s'", same_rows[k].line, same_rows[k].a,
			   same_rows[k].b);
}

/* Written through l and dang: f and new get the reports, l and dang stay links, and no
 * temporary file is left. */
static void test_commit(void)
{
	struct outfile o;
	struct stat st;
	char buf[16] = "";
	FILE *f;
	int n = entries();

	TAP_EQ_INT(outfile_open(&o, "l"), 0, "line %d: open l", __LINE__);
	if (o.fp) {
		fputs("report\n", o.fp);
		TAP_EQ_INT(outfile_commit(&o), 0, "line %d: commit l", __LINE__);
	}
	tap_ok(lstat("l", &st) == 0 && S_ISLNK(st.st_mode), "line %d: l is a link", __LINE__);
	if ((f = fopen("f", "r"))) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	TAP_EQ_STR(buf, "report\n", "line %d: f holds the report", __LINE__);
	TAP_EQ_INT(outfile_open(&o, "dang"), 0, "line %d: open dang", __LINE__);
	if (o.fp)
		TAP_EQ_INT(outfile_commit(&o), 0, "line %d: commit dang", __LINE__);
	tap_ok(lstat("dang", &st) == 0 && S_ISLNK(st.st_mode) && stat("new", &st) == 0 &&
	       S_ISREG(st.st_mode), "line %d: dang is a link, new a file", __LINE__);
	TAP_EQ_INT(entries(), n + 1, "line %d: new made, nothing else", __LINE__);
	/* discarded: nothing made, nothing changed */
	TAP_EQ_INT(outfile_open(&o, "other"), 0, "line %d: open other", __LINE__);
	outfile_discard(&o);
	TAP_EQ_INT(entries(), n + 1, "line %d: a discard leaves nothing", __LINE__);
}

static void test_name(void)
{
	char *argv[] = { "/home/ci/checkout/build/bench", "--size", "4", NULL };
	char *dir[] = { "odd/", NULL };
	struct report r = { .argc = 3, .argv = argv };
	char *s;

	s = report_name(&r);
	TAP_EQ_STR(s, "bench --size 4", "line %d: basename and arguments", __LINE__);
	free(s);
	r.name = "sort 4";
	s = report_name(&r);
	TAP_EQ_STR(s, "sort 4", "line %d: --name", __LINE__);
	free(s);
	r = (struct report){ .argc = 1, .argv = dir };
	s = report_name(&r);
	TAP_EQ_STR(s, "odd/", "line %d: no basename: kept whole", __LINE__);
	free(s);
	r = (struct report){ .target = "system wide" };
	s = report_name(&r);
	TAP_EQ_STR(s, "system wide", "line %d: no command: the target", __LINE__);
	free(s);
}

int main(void)
{
	char tmpl[] = "/tmp/pmuprof-test-outfile.XXXXXX", cmd[64];

	if (!mkdtemp(tmpl) || chdir(tmpl) != 0) {
		perror("scratch directory");
		return 1;
	}
	make_tree();
	test_check_same();
	test_commit();
	test_name();
	if (chdir("/") == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", tmpl);
	}
	return tap_done();
}
