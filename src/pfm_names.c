/* pfm_names.c: owns the per-boot list of the event names libpfm4 knows on this machine, so that
 * a name it cannot know is refused without loading it. Loading libpfm4 costs 7-8 ms of guest
 * time on an arm64 core under QEMU, nearly all of it pfm_initialize probing the ~90 PMU models
 * it was built with; the lookup itself costs 20 us (issue 16, bench/arm64). A bare name (pmuprof
 * passes no "PMU::" prefix: its event syntax has no '::') can only match an event of a PMU
 * libpfm4 finds present, so the list of those events' names answers "can libpfm4 know it". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ascii.h"
#include "cachefile.h"
#include "pfm.h"
#include "sysfs.h"

#define NAMES_FILE "libpfm4.names"
#define NAMES_MAGIC "pmuprof-libpfm4-names 1"

/* What the list is valid for: this boot, the same libpfm.so.4 file (path, inode, size, mtime)
 * and the same LD_LIBRARY_PATH (which could load another file). */
struct names_key {
	char boot[64];
	char lib[512];
	char ldpath[512];
};

/* The environment libpfm4 reads its own settings from (LIBPFM_FORCE_PMU,
 * LIBPFM_ENCODE_INACTIVE, LIBPFM_DISABLED_PMUS, ...): with any of them the list may not hold. */
static int libpfm_env_set(void)
{
	extern char **environ;

	for (char **e = environ; e && *e; e++)
		if (str_starts(*e, "LIBPFM_"))
			return 1;
	return 0;
}

/* The key for the library at path ("" when it could not be stat'ed). 0 when there is one. */
static int key_of(const char *path, struct names_key *k)
{
	const char *ld = getenv("LD_LIBRARY_PATH");
	struct stat sb;

	memset(k, 0, sizeof(*k));
	if (libpfm_env_set() ||
	    sysfs_boot_id(k->boot, sizeof(k->boot)) != PP_OK ||
	    !path || !*path || stat(path, &sb) != 0)
		return -1;
	snprintf(k->lib, sizeof(k->lib), "%s %llu %lld %lld.%09ld", path,
		 (unsigned long long)sb.st_ino, (long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
		 sb.st_mtim.tv_nsec);
	snprintf(k->ldpath, sizeof(k->ldpath), "%s", ld ? ld : "");
	return 0;
}

/* Reads a line into buf without its newline; 0 at the end or on an over-long line. */
static int line(FILE *f, char *buf, size_t len)
{
	size_t n;

	if (!fgets(buf, (int)len, f))
		return 0;
	n = strlen(buf);
	if (!n || buf[n - 1] != '\n')
		return 0;
	buf[n - 1] = '\0';
	return 1;
}

/* Opens the list and checks its header against this run's key: the file positioned at the
 * first name, or NULL when there is no valid list. The header names the library's path; its
 * key is taken afresh from that path, so a replaced library invalidates the list. */
static FILE *open_valid(void)
{
	char path[600], buf[600], want[600];
	struct names_key k;
	FILE *f;

	if (libpfm_env_set() || cachefile_path(path, sizeof(path), NAMES_FILE) != 0 ||
	    !(f = fopen(path, "re")))
		return NULL;
	if (!line(f, buf, sizeof(buf)) || strcmp(buf, NAMES_MAGIC) != 0 ||
	    !line(f, buf, sizeof(buf)) || !str_starts(buf, "lib "))
		goto stale;
	/* "lib PATH INODE SIZE MTIME": the path ends at the third space from the end */
	{
		char *end = buf + strlen(buf);
		int spaces = 0;

		while (end > buf + 4 && spaces < 3)
			if (*--end == ' ')
				spaces++;
		if (spaces != 3)
			goto stale;
		*end = '\0';
		if (key_of(buf + 4, &k) != 0)
			goto stale;
		*end = ' ';
	}
	if (strcmp(buf + 4, k.lib) != 0)
		goto stale;
	snprintf(want, sizeof(want), "boot %s", k.boot);
	if (!line(f, buf, sizeof(buf)) || strcmp(buf, want) != 0)
		goto stale;
	snprintf(want, sizeof(want), "ldpath %s", k.ldpath);
	if (!line(f, buf, sizeof(buf)) || strcmp(buf, want) != 0)
		goto stale;
	return f;
stale:
	fclose(f);
	return NULL;
}

pp_status pfm_names_may_know(const char *name)
{
	char buf[256];
	FILE *f;
	pp_status st = PP_ENOENT;

	/* libpfm4's perf_raw PMU lists one event, r0000, and takes any rHEX for it: such names
	 * (pmuprof's own raw syntax catches the all-hex ones first) are left to libpfm4 */
	if ((name[0] == 'r' || name[0] == 'R') && ascii_isxdigit((unsigned char)name[1]))
		return PP_OK;
	if (!(f = open_valid()))
		return PP_OK;
	while (st == PP_ENOENT && line(f, buf, sizeof(buf)))
		if (ascii_strcasecmp(buf, name) == 0)	/* libpfm4 matches names case-insensitively */
			st = PP_OK;
	fclose(f);
	return st;
}

static void put_name(const char *name, void *arg)
{
	fprintf(arg, "%s\n", name);
}

void pfm_names_save(struct pfm_lib *lib)
{
	char path[600], tmp[640];
	struct names_key k;
	FILE *f;

	if ((f = open_valid())) {
		fclose(f);
		return;
	}
	if (key_of(pfm_lib_path(lib), &k) != 0 || cachefile_path(path, sizeof(path), NAMES_FILE) ||
	    !(f = cachefile_create(path, tmp, sizeof(tmp))))
		return;
	fprintf(f, "%s\nlib %s\nboot %s\nldpath %s\n", NAMES_MAGIC, k.lib, k.boot, k.ldpath);
	pfm_each_name(lib, put_name, f);
	cachefile_commit(f, tmp, path);
}
