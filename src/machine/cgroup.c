/* SPDX-License-Identifier: Apache-2.0 */
/* cgroup.c: owns the cgroup v2 hierarchy: its mount, walking it for the cgroups a list or a
 * pattern picks, their directory descriptors, and the rescans that keep them current. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cgroup.h"

/* A walk's paths, grown as found. */
struct paths {
	char **p;
	size_t n, cap;
};

/* Undoes mountinfo's octal escapes (\040 for a space, fs/proc_namespace.c's mangle) in
 * place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* The mount point of one mountinfo line when its type is cgroup2; NULL otherwise. */
static char *cgroup2_point(char *line)
{
	char *sep = strstr(line, " - "), *f = line, *point = NULL;
	int k = 0;

	if (!sep || strncmp(sep + 3, "cgroup2 ", 8) != 0)
		return NULL;
	*sep = '\0';
	for (; k < 5 && f; k++) {	/* id parent major:minor root point */
		point = f;
		f = strchr(f, ' ');
		if (f)
			*f++ = '\0';
	}
	return k == 5 ? point : NULL;
}

pp_status cgroup_mount_parse(FILE *mountinfo, char *out, size_t len)
{
	char *line = NULL, *point;
	size_t cap = 0;
	pp_status st = PP_ENOENT;

	while (st == PP_ENOENT && getline(&line, &cap, mountinfo) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!(point = cgroup2_point(line)))
			continue;
		unescape(point);
		st = strlen(point) < len ? PP_OK : PP_ERANGE;
		if (st == PP_OK)
			strcpy(out, point);
	}
	free(line);
	return st;
}

pp_status cgroup_root(char *out, size_t len)
{
	const char *env = getenv("PMUPROF_CGROUP_ROOT");
	FILE *f;
	pp_status st;

	if (env && *env) {
		if (strlen(env) >= len)
			return PP_ERANGE;
		strcpy(out, env);
		return PP_OK;
	}
	if (!(f = fopen("/proc/self/mountinfo", "re")))
		return errno == ENOMEM ? PP_ENOMEM : PP_ENOENT;
	st = cgroup_mount_parse(f, out, len);
	fclose(f);
	return st;
}

int cgroup_is_pattern(const char *list)
{
	return strpbrk(list, "{}[]()|*+?^$") != NULL;
}

static int paths_add(struct paths *ps, const char *rel, const char *name)
{
	char *s;
	size_t need = strlen(rel) + strlen(name) + 2;

	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 16;
		char **p = realloc(ps->p, cap * sizeof(*p));

		if (!p)
			return -1;
		ps->p = p;
		ps->cap = cap;
	}
	if (!(s = malloc(need)))
		return -1;
	snprintf(s, need, "%s%s%s", rel, *rel && *name ? "/" : "", name);
	ps->p[ps->n++] = s;
	return 0;
}

static void paths_free(struct paths *ps)
{
	for (size_t k = 0; k < ps->n; k++)
		free(ps->p[k]);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

/* Adds the directories below root/rel, depth first; the root's path is "". Directories that
 * vanish while walked are skipped: cgroups come and go. -1: out of memory. */
static int walk(const char *root, const char *rel, struct paths *ps, int depth)
{
	char dir[4096];
	struct dirent *d;
	size_t first = ps->n;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	if (depth > 64 || !(dp = opendir(dir)))
		return 0;
	while ((d = readdir(dp)))
		if (d->d_type == DT_DIR && strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
		    paths_add(ps, rel, d->d_name) != 0) {
			closedir(dp);
			return -1;
		}
	closedir(dp);
	for (size_t k = first, end = ps->n; k < end; k++)
		if (walk(root, ps->p[k], ps, depth + 1) != 0)
			return -1;
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every cgroup under root, sorted ("" is the root cgroup). */
static pp_status all_paths(const char *root, struct paths *ps)
{
	if (paths_add(ps, "", "") != 0 || walk(root, "", ps, 0) != 0) {
		paths_free(ps);
		return PP_ENOMEM;
	}
	qsort(ps->p, ps->n, sizeof(*ps->p), cmp_path);
	return PP_OK;
}

pp_status cgroup_open(const char *root, const char *name, struct cgroup_entry *out)
{
	char path[4096];
	struct stat sb;
	const char *rel = name[0] == '/' ? name + 1 : name;

	out->fd = -1;
	out->path = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >= sizeof(path))
		return PP_ENOENT;
	if ((out->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return errno == EACCES || errno == EPERM ? PP_EACCES :
		       errno == EMFILE || errno == ENFILE ? PP_EMFILE : PP_ENOENT;
	if (fstat(out->fd, &sb) != 0 || !(out->path = strdup(*rel ? rel : "/"))) {
		close(out->fd);
		out->fd = -1;
		return PP_ENOMEM;
	}
	out->dev = sb.st_dev;
	out->ino = sb.st_ino;
	return PP_OK;
}

/* Appends the cgroup at rel, opened, unless the set has it already. */
static pp_status set_add(struct cgroup_set *s, const char *root, const char *rel)
{
	struct cgroup_entry *e;
	const char *p = *rel && strcmp(rel, "/") ? rel : "/";
	pp_status st;

	for (size_t k = 0; k < s->n; k++)
		if (!strcmp(s->e[k].path, p))
			return PP_OK;
	if (!(e = realloc(s->e, (s->n + 1) * sizeof(*e))))
		return PP_ENOMEM;
	s->e = e;
	if ((st = cgroup_open(root, rel, &s->e[s->n])) == PP_OK)
		s->n++;
	return st;
}

/* The paths one expression matches, added to s; the root cgroup's path is "/". */
static pp_status match_one(struct cgroup_set *s, const char *root, const struct paths *ps,
			   const char *re_text)
{
	regex_t re;
	pp_status st = PP_OK;

	if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB) != 0)
		return PP_EINVAL;
	for (size_t k = 0; k < ps->n && st == PP_OK; k++)
		if (regexec(&re, *ps->p[k] ? ps->p[k] : "/", 0, NULL, 0) == 0)
			st = set_add(s, root, ps->p[k]);
	regfree(&re);
	/* a cgroup removed between the walk and its open is no longer there: not an error */
	return st == PP_ENOENT ? PP_OK : st;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct cgroup_entry *)a)->path,
		      ((const struct cgroup_entry *)b)->path);
}

/* Each item of list, in turn: a name, or (pattern) an expression. A name that is no cgroup
 * fails the match when strict, else it is left out. */
static pp_status match_items(const char *root, const char *list, int pattern, int strict,
			     const struct paths *ps, struct cgroup_set *out, char *bad,
			     size_t badlen)
{
	pp_status st = PP_OK;

	for (const char *p = list; st == PP_OK; p++) {
		size_t n = strcspn(p, ",");
		char *item = strndup(p, n);

		if (!item)
			return PP_ENOMEM;
		st = !*item ? set_add(out, root, "") :
		     pattern ? match_one(out, root, ps, item) : set_add(out, root, item);
		if (st == PP_ENOENT && !strict)
			st = PP_OK;
		if (st != PP_OK && bad)
			snprintf(bad, badlen, "%s", item);
		free(item);
		p += n;
		if (!*p)
			break;
	}
	return st;
}

static pp_status match(const char *root, const char *list, int strict, struct cgroup_set *out,
		       char *bad, size_t badlen)
{
	struct paths ps = { 0 };
	int pattern = cgroup_is_pattern(list);
	pp_status st;

	memset(out, 0, sizeof(*out));
	if (pattern && (st = all_paths(root, &ps)) != PP_OK)
		return st;
	st = match_items(root, list, pattern, strict, &ps, out, bad, badlen);
	paths_free(&ps);
	if (st != PP_OK) {
		cgroup_set_free(out);
		return st;
	}
	if (out->n)	/* qsort takes no NULL array, even of no element */
		qsort(out->e, out->n, sizeof(*out->e), cmp_entry);
	return PP_OK;
}

pp_status cgroup_match(const char *root, const char *list, struct cgroup_set *out, char *bad,
		       size_t badlen)
{
	return match(root, list, 1, out, bad, badlen);
}

/* The entry of old that is the same cgroup as e (same path, same directory); NULL: none. */
static struct cgroup_entry *same(struct cgroup_set *old, const struct cgroup_entry *e)
{
	for (size_t k = 0; k < old->n; k++)
		if (old->e[k].fd >= 0 && !strcmp(old->e[k].path, e->path) &&
		    old->e[k].dev == e->dev && old->e[k].ino == e->ino)
			return &old->e[k];
	return NULL;
}

/* Moves the descriptors of kept cgroups from old into now, notes the added ones. */
static pp_status keep_old(struct cgroup_set *old, struct cgroup_set *now,
			  struct cgroup_change *chg)
{
	if (now->n && !(chg->added = malloc(now->n * sizeof(*chg->added))))
		return PP_ENOMEM;
	for (size_t k = 0; k < now->n; k++) {
		struct cgroup_entry *o = same(old, &now->e[k]);

		if (!o) {
			chg->added[chg->nadded++] = k;
			continue;
		}
		close(now->e[k].fd);
		now->e[k].fd = o->fd;
		o->fd = -1;
	}
	return PP_OK;
}

/* Hands the cgroups of old that were not kept over to chg->gone (room made before),
 * closing their descriptors. */
static void note_gone(struct cgroup_set *old, struct cgroup_change *chg)
{
	for (size_t k = 0; k < old->n; k++)
		if (old->e[k].fd >= 0) {
			close(old->e[k].fd);
			old->e[k].fd = -1;
			chg->gone[chg->ngone++] = old->e[k].path;
			old->e[k].path = NULL;
		}
}

pp_status cgroup_rescan(const char *root, const char *list, int strict, struct cgroup_set *set,
			struct cgroup_change *chg, char *bad, size_t badlen)
{
	struct cgroup_set now;
	pp_status st;

	memset(chg, 0, sizeof(*chg));
	if ((st = match(root, list, strict, &now, bad, badlen)) != PP_OK)
		return st;
	/* every allocation comes before the first descriptor moves: a failure leaves *set
	 * whole */
	if ((set->n && !(chg->gone = calloc(set->n, sizeof(*chg->gone)))) ||
	    (st = keep_old(set, &now, chg)) != PP_OK) {
		cgroup_change_free(chg);
		cgroup_set_free(&now);
		return PP_ENOMEM;
	}
	note_gone(set, chg);
	cgroup_set_free(set);
	*set = now;
	return PP_OK;
}

int cgroup_removed(int fd)
{
	struct statfs fs;
	struct stat sb;

	if (fstat(fd, &sb) == 0 && sb.st_nlink == 0)
		return 1;	/* a plain directory (a test's tree) */
	/* kernfs keeps a removed cgroup's link count, but its files are gone; cgroup.procs is
	 * in every cgroup, the root one too */
	return fstatfs(fd, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC &&
	       faccessat(fd, "cgroup.procs", F_OK, 0) != 0 && errno == ENOENT;
}

void cgroup_change_free(struct cgroup_change *chg)
{
	for (size_t k = 0; k < chg->ngone; k++)
		free(chg->gone[k]);
	free(chg->gone);
	free(chg->added);
	memset(chg, 0, sizeof(*chg));
}

void cgroup_set_free(struct cgroup_set *set)
{
	for (size_t k = 0; k < set->n; k++) {
		if (set->e[k].fd >= 0)
			close(set->e[k].fd);
		free(set->e[k].path);
	}
	free(set->e);
	memset(set, 0, sizeof(*set));
}
