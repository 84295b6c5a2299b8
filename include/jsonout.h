/* jsonout.h: how every command prints a JSON document: built as one cJSON tree, printed
 * once, the tree freed. */
#ifndef PMUPROF_JSONOUT_H
#define PMUPROF_JSONOUT_H

#include <cJSON.h>
#include <stdio.h>

enum jsonout_style {
	JSONOUT_PRETTY,		/* indented, for people and diffs */
	JSONOUT_COMPACT,	/* one line, for large documents (list --all-cores) */
};

/* Prints root to out with a final newline and frees root (NULL is a failure). 0, or -1 when
 * the tree could not be printed or the stream failed. */
int jsonout_emit(cJSON *root, FILE *out, enum jsonout_style style);

#endif
