/* SPDX-License-Identifier: Apache-2.0 */
/* cgroup.h: the cgroup v2 hierarchy that counters can be confined to: where it is mounted,
 * the cgroups a name list or a pattern picks, each with its directory open (the "pid"
 * perf_event_open takes with PERF_FLAG_PID_CGROUP), and rescans that say which cgroups came
 * and which went, so a long-running caller keeps one descriptor per live cgroup. */
#ifndef PMUPROF_CGROUP_H
#define PMUPROF_CGROUP_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "status.h"

/* One cgroup, open. */
struct cgroup_entry {
	char *path;	/* relative to the mount: "/" for the root cgroup, else "a" or "a/b" */
	int fd;		/* its directory (O_RDONLY | O_DIRECTORY | O_CLOEXEC) */
	dev_t dev;	/* which directory it is: a cgroup removed and made again under */
	ino_t ino;	/* the same name is another cgroup */
};

/* The cgroups picked, sorted by path, each once. */
struct cgroup_set {
	struct cgroup_entry *e;
	size_t n;
};

/* What a rescan changed: added[k] are indices into the new set; gone[k] the paths of the
 * cgroups that are no longer there (their descriptors are closed). */
struct cgroup_change {
	size_t *added;
	size_t nadded;
	char **gone;
	size_t ngone;
};

/* The mount point of the cgroup v2 hierarchy in a mountinfo text (proc(5): the fifth field,
 * octal escapes undone, of the line whose type after " - " is cgroup2). PP_ENOENT: none;
 * PP_ERANGE: it does not fit in len. */
pp_status cgroup_mount_parse(FILE *mountinfo, char *out, size_t len);
/* The root of the hierarchy: $PMUPROF_CGROUP_ROOT when set (a test's tree), else the cgroup2
 * mount of /proc/self/mountinfo. Statuses as cgroup_mount_parse's. */
pp_status cgroup_root(char *out, size_t len);
/* Whether a --for-each-cgroup list holds a pattern (perf's rule: one of {}[]()|*+?^$);
 * without one its names are taken as they are. */
int cgroup_is_pattern(const char *list);
/* The cgroups under root a comma-separated list picks: names as they are (an empty one is
 * the root cgroup), or with a pattern in the list, every cgroup whose path matches one of
 * its extended regular expressions (unanchored; an empty one is the root cgroup). Each is
 * opened. PP_ENOENT: a name is no cgroup; PP_EINVAL: an expression does not compile; in both
 * the culprit is copied to bad (badlen bytes). No match is an empty set and PP_OK. */
pp_status cgroup_match(const char *root, const char *list, struct cgroup_set *out, char *bad,
		       size_t badlen);
/* Opens the one cgroup name (relative to root; "" or "/": the root cgroup). PP_ENOENT when it
 * is no directory there, PP_EACCES when it cannot be opened. */
pp_status cgroup_open(const char *root, const char *name, struct cgroup_entry *out);
/* Matches list again: *set becomes the new set, keeping the descriptors of the cgroups that
 * are still there, closing those of the ones gone; *chg says what changed (freed with
 * cgroup_change_free). A name of list that is no cgroup fails with PP_ENOENT when strict (a
 * caller's first scan), else it is left out: a named cgroup removed since the last scan is
 * gone like an unmatched one, and comes back when it is made again. On failure *set is left
 * as it was. */
pp_status cgroup_rescan(const char *root, const char *list, int strict, struct cgroup_set *set,
			struct cgroup_change *chg, char *bad, size_t badlen);
/* Whether the cgroup whose directory is fd was removed since it was opened (perf_event_open
 * then refuses it with ENOENT: the kernel takes only a live cgroup). */
int cgroup_removed(int fd);
void cgroup_change_free(struct cgroup_change *chg);
/* Closes every descriptor and frees the set (zeroed). */
void cgroup_set_free(struct cgroup_set *set);

#endif
