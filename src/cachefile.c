/* cachefile.c: owns where pmuprof's cache files live and how one is replaced atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefile.h"
#include "strbuf.h"

int cachefile_path(char *buf, size_t len, const char *name)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");

	if (x && *x == '/')
		return strjoin(buf, len, (const char *const[]){ x, "/pmuprof/", name }, 3) < len
		       ? 0 : -1;
	if (h && *h == '/')
		return strjoin(buf, len, (const char *const[]){ h, "/.cache/pmuprof/", name }, 3) <
		       len ? 0 : -1;
	return -1;
}

FILE *cachefile_create(const char *path, char *tmp, size_t tmplen)
{
	char dir[600], *slash;
	int n;

	n = snprintf(dir, sizeof(dir), "%s", path);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return NULL;
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	for (char *s = dir + 1; (s = strchr(s, '/')); *s++ = '/') {
		*s = '\0';
		mkdir(dir, 0700);
	}
	mkdir(dir, 0700);
	n = snprintf(tmp, tmplen, "%s.%d.tmp", path, (int)getpid());
	if (n < 0 || (size_t)n >= tmplen)
		return NULL;
	return fopen(tmp, "w");
}

void cachefile_commit(FILE *f, const char *tmp, const char *path)
{
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}
