/* cachefile.c: owns where pmuprof's cache files live and how one is replaced atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefile.h"

/* Appends the n strings of parts to buf (len bytes): 0, or -1 when they do not fit. By
 * copying: list and stat then need none of printf's pages of libc (issue 16). */
static int join(char *buf, size_t len, const char *const *parts, size_t n)
{
	size_t at = 0;

	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(parts[k]);

		if (l >= len - at)
			return -1;
		memcpy(buf + at, parts[k], l);
		at += l;
	}
	buf[at] = '\0';
	return 0;
}

int cachefile_path(char *buf, size_t len, const char *name)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");

	if (!len)
		return -1;
	if (x && *x == '/')
		return join(buf, len, (const char *const[]){ x, "/pmuprof/", name }, 3);
	if (h && *h == '/')
		return join(buf, len, (const char *const[]){ h, "/.cache/pmuprof/", name }, 3);
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
