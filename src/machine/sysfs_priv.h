/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs_priv.h: helpers shared by the sysfs_*.c files (root-relative paths, bounded reads,
 * directory listing, number parsing); not part of the module's contract in include/sysfs.h. */
#ifndef PMUPROF_SYSFS_PRIV_H
#define PMUPROF_SYSFS_PRIV_H

#include <stdint.h>
#include <stdio.h>

#include "sysfs.h"

/* Longest file the module reads whole (a sysfs attribute is at most one page). */
#define SYSFS_FILE_MAX 4096

/* Formats an absolute machine path (printf-style) and prefixes the root into buf.
 * PP_EINVAL when the path is not absolute, PP_ERANGE when it does not fit. */
pp_status sysfs_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Opens a machine path under the root for reading with stdio (for /proc/cpuinfo); *out is
 * NULL unless PP_OK. */
pp_status sysfs_fopen(const char *path, FILE **out);

/* Names in a directory under the root, "." and ".." left out, sorted with strcmp: *names is
 * one allocation, the pointers and the names (NULL when there are none). PP_ENOENT when the
 * directory does not exist. Free with sysfs_names_free (never a name on its own). */
pp_status sysfs_list_dir(const char *path, char ***names, size_t *n);
void sysfs_names_free(char **names);

/* Parse a whole string (trailing whitespace allowed) as a signed decimal or 0x hex number. */
pp_status sysfs_parse_ll(const char *s, long long *out);
/* Same for an unsigned 64-bit value (register contents such as MIDR_EL1). */
pp_status sysfs_parse_u64(const char *s, uint64_t *out);

/* Walks s as "lo[-hi]" items separated by commas, the shape of the kernel's cpu lists and of
 * format/ bit ranges: each number read by num, each item given to each (lo <= hi), whose
 * status other than PP_OK ends the walk with it; only spaces may follow the last item.
 * PP_EINVAL when malformed. */
pp_status sysfs_walk_ranges(const char *s, pp_status (*num)(const char **sp, int *out),
			    pp_status (*each)(void *arg, int lo, int hi), void *arg);

/* Longest format/ attribute kept (the kernel's are under 32 bytes). */
#define SYSFS_FORMAT_TEXT_MAX 128

/* Reads <PMU dir>/pmu/dir[/name] into buf, as sysfs_read_str does. */
pp_status sysfs_pmu_read(const char *pmu, const char *dir, const char *name, char *buf,
			 size_t len);
/* Lists <PMU dir>/pmu/rel, as sysfs_list_dir does. */
pp_status sysfs_pmu_list(const char *pmu, const char *rel, char ***names, size_t *n);

/* A PMU's format/ (sysfs_format.c): every term (a PMU loaded by name), or at discovery the
 * two that recognise PMUv3, "event" (its text read already) and "long", the rest left to
 * sysfs_format_listed. */
pp_status sysfs_formats_load(struct sysfs_pmu *p);
pp_status sysfs_formats_known(struct sysfs_pmu *p, const char *event_text);

/* A name safe to use as one path component: non-empty, no '/', not "." or "..", short. */
int sysfs_name_ok(const char *name);

#endif
