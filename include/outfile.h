/* outfile.h: a report file written atomically: a temporary file beside the target, renamed
 * over it only when complete, so readers never see half a report and a failed run leaves an
 * existing file untouched. */
#ifndef PMUPROF_OUTFILE_H
#define PMUPROF_OUTFILE_H

#include <stdio.h>

struct outfile {
	char *path;	/* the target */
	char *tmp;	/* the temporary file while open */
	FILE *fp;
};

/* Creates the temporary file. Returns 0, or an errno (the directory is missing or not
 * writable). Done before the workload runs, so a bad path costs nothing. */
int outfile_open(struct outfile *o, const char *path);
/* As outfile_open, for a report that follows the target's present content (--append): that
 * content is copied into the temporary file first, so the commit still replaces the target
 * at once, with its old content and the new report. A device or FIFO is opened for
 * appending. Returns 0 or an errno (also one reading the target). */
int outfile_open_append(struct outfile *o, const char *path);
/* Flushes, closes and renames over the target. Returns 0 or an errno; on error the
 * temporary file is removed and the target untouched. */
int outfile_commit(struct outfile *o);
/* Removes the temporary file; the target stays as it was. */
void outfile_discard(struct outfile *o);

#endif
