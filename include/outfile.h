/* SPDX-License-Identifier: Apache-2.0 */
/* outfile.h: a report file, checked before the run and written after it. The path's
 * symbolic links are followed to the file at their end, which is what gets written (a link
 * stays a link). A regular file (or one not made yet) is written atomically: a temporary
 * file in that file's directory, renamed over it only when complete, so readers never see
 * half a report and a failed run leaves an existing file untouched. A device, FIFO or
 * socket (/dev/null, a pipe) is written in place, and so is pmuprof's own open descriptor
 * named as /proc/self/fd/N (/dev/stdout, /dev/fd/N): through that descriptor, at its
 * offset, as if pmuprof wrote to it. Nothing is made before outfile_open. */
#ifndef PMUPROF_OUTFILE_H
#define PMUPROF_OUTFILE_H

#include <stdio.h>

struct outfile {
	char *path;	/* the file renamed over (links followed); NULL when in place */
	char *tmp;	/* the temporary file while open; NULL when in place */
	FILE *fp;
};

/* Whether a report could be written at path, making nothing: 0, or an errno (EISDIR: path
 * names a directory; ENOENT, ENOTDIR: a missing directory; EACCES, EROFS: an unwritable
 * one; ELOOP: links in a loop; EBADF: a descriptor of pmuprof's that is closed or read
 * only). Done before the workload runs, so that a bad path costs nothing. */
int outfile_check(const char *path);
/* Whether a and b lead to one file that at least one of them would replace (the same file
 * by device and inode when it exists, by its directory's real path and name when not):
 * written in place both, their reports follow each other and nothing is lost. */
int outfile_same(const char *a, const char *b);
/* Makes the temporary file (or opens the file written in place). Returns 0, or an errno. */
int outfile_open(struct outfile *o, const char *path);
/* As outfile_open, for a report that follows the target's present content (--append): that
 * content is copied into the temporary file first, so the commit still replaces the target
 * at once, with its old content and the new report. A device or FIFO is opened for
 * appending; a descriptor is written at its offset either way. Returns 0 or an errno (also
 * one reading the target). */
int outfile_open_append(struct outfile *o, const char *path);
/* Flushes, closes and renames over the target. Returns 0 or an errno; on error the
 * temporary file is removed and the target untouched. */
int outfile_commit(struct outfile *o);
/* Removes the temporary file; the target stays as it was. */
void outfile_discard(struct outfile *o);

#endif
