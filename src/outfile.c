/* outfile.c: atomic report files (temporary file in the target's directory, then rename). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

static void release(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
}

/* Whether path names a directory by its spelling: a trailing '/', or a last component of
 * "." or "..". basename() drops the slash, so the report would land beside it. */
static int dir_path(const char *path)
{
	size_t n = strlen(path);
	const char *last = strrchr(path, '/');

	last = last ? last + 1 : path;
	return (n && path[n - 1] == '/') || !strcmp(last, ".") || !strcmp(last, "..");
}

int outfile_open(struct outfile *o, const char *path)
{
	char *copy, *dir, *base;
	struct stat st;
	mode_t mask;
	int fd, e;

	memset(o, 0, sizeof(*o));
	if (!*path)
		return ENOENT;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return EISDIR;
	if (dir_path(path))	/* "report.txt/" would write report.txt: refused */
		return EISDIR;
	/* a device, FIFO or socket (/dev/null, /dev/stdout, a pipe) is written in place: there
	 * is nothing to replace atomically, and renaming over it would destroy it */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (!(o->fp = fopen(path, "we")))
			return errno;
		return 0;
	}
	copy = strdup(path);
	o->path = strdup(path);
	if (!copy || !o->path) {
		free(copy);
		release(o);
		return ENOMEM;
	}
	dir = dirname(copy);
	base = basename(o->path);
	if (asprintf(&o->tmp, "%s/.%s.XXXXXX", dir, base) < 0) {
		o->tmp = NULL;
		free(copy);
		release(o);
		return ENOMEM;
	}
	free(copy);
	fd = mkostemp(o->tmp, O_CLOEXEC);	/* never inherited by the workload */
	if (fd < 0) {
		e = errno;
		release(o);
		return e;
	}
	/* a new report gets the mode a plain create would give it; an existing one keeps its own */
	mask = umask(0);
	umask(mask);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		fchmod(fd, st.st_mode & 07777);
	else
		fchmod(fd, 0666 & ~mask);
	if (!(o->fp = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		unlink(o->tmp);
		release(o);
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

int outfile_open_append(struct outfile *o, const char *path)
{
	int e = outfile_open(o, path);

	if (e)
		return e;
	if (!o->tmp) {	/* a device or FIFO: written in place, at its end */
		if (!freopen(path, "ae", o->fp)) {
			e = errno;
			o->fp = NULL;
			release(o);
		}
		return e;
	}
	if ((e = copy_into(o->fp, path)) != 0)
		outfile_discard(o);
	return e;
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
