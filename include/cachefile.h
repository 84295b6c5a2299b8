/* SPDX-License-Identifier: Apache-2.0 */
/* cachefile.h: pmuprof's per-user cache files ($XDG_CACHE_HOME/pmuprof, else
 * ~/.cache/pmuprof; none with PMUPROF_CACHE=off): where they live and how they are replaced (a
 * temporary file renamed over the old one, so a reader never sees half a file). Callers key
 * their contents (boot_id, ...). */
#ifndef PMUPROF_CACHEFILE_H
#define PMUPROF_CACHEFILE_H

#include <stdio.h>

/* Whether the user turned the cache off ($PMUPROF_CACHE is "off"): nothing is read or
 * written then. */
int cachefile_off(void);
/* The path of the cache file NAME into buf; -1 when there is none (the cache is off, or
 * neither XDG_CACHE_HOME nor HOME is an absolute path) or it does not fit. */
int cachefile_path(char *buf, size_t len, const char *name);
/* Creates the cache directory if needed and opens a temporary file beside path for writing
 * (its name into tmp). NULL on failure. */
FILE *cachefile_create(const char *path, char *tmp, size_t tmplen);
/* Closes f and renames tmp over path; removes tmp when either fails. */
void cachefile_commit(FILE *f, const char *tmp, const char *path);

#endif
