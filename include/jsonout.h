/* SPDX-License-Identifier: Apache-2.0 */
/* jsonout.h: how every command prints a JSON document: built as one cJSON tree, printed
 * once, the tree freed. */
#ifndef PMUPROF_JSONOUT_H
#define PMUPROF_JSONOUT_H

#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>

enum jsonout_style {
	JSONOUT_PRETTY,		/* indented, for people and diffs */
	JSONOUT_COMPACT,	/* one line, for large documents (list --all-cores) */
};

/* Prints root to out with a final newline and frees root (NULL is a failure). 0, or -1 when
 * the tree could not be printed or the stream failed. */
int jsonout_emit(cJSON *root, FILE *out, enum jsonout_style style);

/* The values every document spells the same way: a register value as a "0x..." string (it
 * uses all 64 bits; JSON readers keep 53), a string or null when absent or empty, a number
 * or null when not defined (NAN), and the "exclude" object of perf_event_attr's flags. */
cJSON *jsonout_hex(uint64_t v);
cJSON *jsonout_str_or_null(const char *s);
cJSON *jsonout_num(double v);
cJSON *jsonout_exclude(int user, int kernel, int hv, int host, int guest);

#endif
