/* SPDX-License-Identifier: Apache-2.0 */
/* cachefile.c: owns where pmuprof's cache files live, whether there are any, and how one is
 * replaced atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefile.h"

int cachefile_off(void)
{
	const char *v = getenv("PMUPROF_CACHE");

	return v && strcmp(v, "off") == 0;
}

int cachefile_path(char *buf, size_t len, const char *name)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	int n;

	if (cachefile_off())
		return -1;
	if (x && *x == '/')
		n = snprintf(buf, len, "%s/pmuprof/%s", x, name);
	else if (h && *h == '/')
		n = snprintf(buf, len, "%s/.cache/pmuprof/%s", h, name);
	else
		return -1;
	return n >= 0 && (size_t)n < len ? 0 : -1;
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
