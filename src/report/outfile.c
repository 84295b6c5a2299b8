/* SPDX-License-Identifier: Apache-2.0 */
/* outfile.c: report files: where a path leads (its symbolic links followed), checked before
 * the run without making anything, and written after it: a regular file atomically (a
 * temporary file in its own directory, renamed over it), a device, FIFO, socket or pmuprof's
 * own open descriptor in place. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "outfile.h"

/* Where a path leads. */
struct dest {
	enum { DEST_REPLACE, DEST_IN_PLACE, DEST_FD } kind;
	char *path;	/* the file at the end of the links (REPLACE, IN_PLACE) */
	int fd;		/* DEST_FD: pmuprof's descriptor that /proc/self/fd/N names */
	int exists;	/* st is the file's (always, except a REPLACE not made yet) */
	struct stat st;
};

/* Linux follows at most 40 links in a path (path_resolution(7)): so does pmuprof. */
#define HOPS 40

/* Whether path names a directory by its spelling: a trailing '/', or a last component of
 * "." or "..". */
static int dir_path(const char *path)
{
	size_t n = strlen(path);
	const char *last = strrchr(path, '/');

	last = last ? last + 1 : path;
	return (n && path[n - 1] == '/') || !strcmp(last, ".") || !strcmp(last, "..");
}

/* path's directory part, as written ("." when it has none); NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Whether link's directory is on procfs. Its links (/proc/self/fd/N, /proc/PID/cwd) are not
 * paths but the kernel's handles on open files: their text may name a pipe ("pipe:[123]"),
 * a deleted file or nothing reachable, so they are opened, never followed by hand. */
static int on_proc(const char *link)
{
	char *dir = dir_of(link);
	struct statfs fs;
	int r = dir && statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;

	free(dir);
	return r;
}

/* Whether path is pmuprof's own /proc/self/fd/N (or /proc/thread-self/fd/N, /dev/fd/N,
 * /proc/PID/fd/N): 1 with *fd = N, 0 when it is not. Such a path is the descriptor itself,
 * with the offset and O_APPEND that the shell's '>' or '>>' gave it: opening the link anew
 * would start a second description at offset 0 (over what the command wrote there). */
static int own_fd(const char *path, int *fd)
{
	const char *n = base_of(path);
	char *dir, *end, real[PATH_MAX], want[64];
	long v;
	int r;

	errno = 0;
	v = strtol(n, &end, 10);
	if (*n < '0' || *n > '9' || *end || errno || v > INT_MAX)
		return 0;
	dir = dir_of(path);
	r = dir && realpath(dir, real);
	free(dir);
	if (!r)
		return 0;
	snprintf(want, sizeof(want), "/proc/%ld/fd", (long)getpid());
	r = !strcmp(real, want);
	snprintf(want, sizeof(want), "/proc/%ld/task/%ld/fd", (long)getpid(), (long)gettid());
	r = r || !strcmp(real, want);
	if (r)
		*fd = (int)v;
	return r;
}

/* The path link points to: its text, relative to link's directory unless absolute. NULL
 * with errno set when it cannot be read. */
static char *link_target(const char *link)
{
	char buf[PATH_MAX], *dir, *s;
	ssize_t n = readlink(link, buf, sizeof(buf));

	if (n < 0)
		return NULL;
	if ((size_t)n == sizeof(buf)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	buf[n] = '\0';
	if (buf[0] == '/' || !strchr(link, '/'))
		return strdup(buf);
	/* no lexical "a/../b" folding: the kernel resolves ".." after the links before it */
	if (!(dir = dir_of(link)))
		return NULL;
	if (asprintf(&s, "%s/%s", dir, buf) < 0)
		s = NULL;
	free(dir);
	return s;
}

static void dest_free(struct dest *d)
{
	free(d->path);
	d->path = NULL;
}

/* Follows path's links, one at a time (realpath cannot: the last one may lead to a file
 * not made yet, or into /proc), to what a report written there lands on. 0 or an errno
 * (EISDIR: a directory; EBADF: a descriptor of pmuprof's that is not open). */
static int resolve(const char *path, struct dest *d)
{
	char *cur, *next;
	struct stat st;
	int e = 0;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (!*path)
		return ENOENT;
	if (!(cur = strdup(path)))
		return ENOMEM;
	for (int hop = 0;; hop++) {
		if (dir_path(cur)) {	/* "report.txt/" would write report.txt: refused */
			e = EISDIR;
			break;
		}
		if (lstat(cur, &st) != 0) {
			e = errno;
			if (e == ENOENT && own_fd(cur, &d->fd))
				e = EBADF;	/* /dev/stdout with standard output closed */
			else if (e == ENOENT)
				e = 0;	/* made by the commit */
			d->kind = DEST_REPLACE;
			break;
		}
		if (S_ISLNK(st.st_mode) && own_fd(cur, &d->fd)) {
			d->kind = DEST_FD;
			d->exists = 1;
			if (fstat(d->fd, &d->st) != 0)
				e = EBADF;
			break;
		}
		if (S_ISLNK(st.st_mode) && on_proc(cur)) {
			d->kind = DEST_IN_PLACE;
			d->exists = 1;
			if (stat(cur, &d->st) != 0)
				e = errno;
			else if (S_ISDIR(d->st.st_mode))
				e = EISDIR;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			if (hop == HOPS) {
				e = ELOOP;
				break;
			}
			if (!(next = link_target(cur))) {
				e = errno;
				break;
			}
			free(cur);
			cur = next;
			continue;
		}
		if (S_ISDIR(st.st_mode))
			e = EISDIR;
		/* a device, FIFO or socket (/dev/null, a pipe) is written in place: there is
		 * nothing to replace atomically, and renaming over it would destroy it */
		d->kind = S_ISREG(st.st_mode) ? DEST_REPLACE : DEST_IN_PLACE;
		d->exists = 1;
		d->st = st;
		break;
	}
	if (e)
		free(cur);
	else
		d->path = cur;
	return e;
}

int outfile_check(const char *path)
{
	struct dest d;
	struct stat st;
	char *dir;
	int e = resolve(path, &d), fl;

	if (e)
		return e;
	switch (d.kind) {
	case DEST_FD:
		fl = fcntl(d.fd, F_GETFL);
		e = fl < 0 ? errno : (fl & O_ACCMODE) == O_RDONLY ? EBADF : 0;
		break;
	case DEST_IN_PLACE:
		e = access(d.path, W_OK) ? errno : 0;
		break;
	case DEST_REPLACE:	/* the temporary file and the rename need its directory */
		if (!(dir = dir_of(d.path))) {
			e = ENOMEM;
			break;
		}
		if (stat(dir, &st) != 0)
			e = errno;
		else if (!S_ISDIR(st.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK) != 0)
			e = errno;
		free(dir);
		break;
	}
	dest_free(&d);
	return e;
}

/* The path canonical: its directory's real path and its last component. NULL when the
 * directory cannot be resolved. */
static char *canonical(const char *path)
{
	char *dir = dir_of(path), real[PATH_MAX], *s = NULL;

	if (dir && realpath(dir, real) && asprintf(&s, "%s/%s", strcmp(real, "/") ? real : "",
						  base_of(path)) < 0)
		s = NULL;
	free(dir);
	return s;
}

int outfile_same(const char *a, const char *b)
{
	struct dest da, db;
	char *ca, *cb;
	int same = 0;

	if (resolve(a, &da) != 0 || resolve(b, &db) != 0) {
		dest_free(&da);
		return !strcmp(a, b);
	}
	/* two writers in place follow each other; one that replaces the file loses the other */
	if (da.kind != DEST_REPLACE && db.kind != DEST_REPLACE)
		same = 0;
	else if (da.exists && db.exists)
		same = da.st.st_dev == db.st.st_dev && da.st.st_ino == db.st.st_ino;
	else if (!da.exists && !db.exists) {
		ca = canonical(da.path);
		cb = canonical(db.path);
		same = ca && cb ? !strcmp(ca, cb) : !strcmp(da.path, db.path);
		free(ca);
		free(cb);
	}
	dest_free(&da);
	dest_free(&db);
	return same;
}

static void release(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
}

/* Writes in place on pmuprof's descriptor fd, through a copy of it: fclose then leaves fd
 * open. What pmuprof's stdio holds for it goes first. */
static int open_fd(struct outfile *o, int fd)
{
	int dup;

	if (fd == STDOUT_FILENO)
		fflush(stdout);
	if ((dup = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0)
		return errno;
	if (!(o->fp = fdopen(dup, "w"))) {
		close(dup);
		return errno;
	}
	return 0;
}

/* The temporary file in the directory of d's file: renamed over it, it replaces it at once. */
static int open_tmp(struct outfile *o, const struct dest *d)
{
	char *dir = dir_of(d->path);
	mode_t mask;
	int fd, e;

	if (!dir)
		return ENOMEM;
	if (asprintf(&o->tmp, "%s/.%s.XXXXXX", dir, base_of(d->path)) < 0) {
		o->tmp = NULL;
		free(dir);
		return ENOMEM;
	}
	free(dir);
	if ((fd = mkostemp(o->tmp, O_CLOEXEC)) < 0)
		return errno;
	/* a new report gets the mode a plain create would give it; an existing one keeps its own */
	mask = umask(0);
	umask(mask);
	fchmod(fd, d->exists ? d->st.st_mode & 07777 : 0666 & ~mask);
	if (!(o->fp = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		unlink(o->tmp);
		return e;
	}
	return 0;
}

/* Copies the file at path, if there is one, to fp. Returns 0 or an errno. */
static int copy_into(FILE *fp, const char *path)
{
	char buf[8192];
	size_t got;
	FILE *in = fopen(path, "re");
	int e = 0;

	if (!in)
		return errno == ENOENT ? 0 : errno;
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, got, fp) != got) {
			e = errno ? errno : EIO;
			break;
		}
	if (!e && ferror(in))
		e = EIO;
	fclose(in);
	return e;
}

static int open_as(struct outfile *o, const char *path, int append)
{
	struct dest d;
	int e;

	memset(o, 0, sizeof(*o));
	if ((e = resolve(path, &d)) != 0)
		return e;
	switch (d.kind) {
	case DEST_FD:	/* its offset is the end of what went there: appended either way */
		e = open_fd(o, d.fd);
		break;
	case DEST_IN_PLACE:
		if (!(o->fp = fopen(d.path, append ? "ae" : "we")))
			e = errno;
		break;
	case DEST_REPLACE:
		e = open_tmp(o, &d);
		if (!e && append && (e = copy_into(o->fp, d.path)) != 0) {
			fclose(o->fp);
			unlink(o->tmp);
		}
		if (!e) {
			o->path = d.path;	/* the rename's target: the file, not a link to it */
			d.path = NULL;
		}
		break;
	}
	dest_free(&d);
	if (e)
		release(o);
	return e;
}

int outfile_open(struct outfile *o, const char *path)
{
	return open_as(o, path, 0);
}

int outfile_open_append(struct outfile *o, const char *path)
{
	return open_as(o, path, 1);
}

int outfile_commit(struct outfile *o)
{
	int e = 0;

	if (fflush(o->fp) != 0 || ferror(o->fp))
		e = errno ? errno : EIO;
	if (fclose(o->fp) != 0 && !e)
		e = errno;
	o->fp = NULL;
	if (!e && o->tmp && rename(o->tmp, o->path) != 0)
		e = errno;
	if (e && o->tmp)
		unlink(o->tmp);
	release(o);
	return e;
}

void outfile_discard(struct outfile *o)
{
	if (o->fp)
		fclose(o->fp);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}
