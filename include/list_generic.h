/* list_generic.h: the text listing's lines for perf's generic events (pmuprof list), one
 * renderer for the program and for the build-time generator of the whole section. */
#ifndef PMUPROF_LIST_GENERIC_H
#define PMUPROF_LIST_GENERIC_H

#include <stddef.h>
#include <stdint.h>

#include "textline.h"

/* The section's heading line. */
void list_generic_heading(struct textline *l);
/* One event's line: "  %-32s type %u config 0x%llx", and " (on Arm: event 0x%04x)" when
 * the kernel's Arm map has it. */
void list_generic_line(struct textline *l, const char *name, uint32_t type, uint64_t config);

/* The whole section as list prints it without a pattern (the heading, every generic event,
 * a blank line): made at build time by tools/genlist.c with the two functions above, so a
 * listing copies it instead of building its 72 lines (issue 16). tests/unit/test_generic.c
 * holds it equal to what they build. */
extern const char list_generic_text[];
extern const size_t list_generic_len;

#endif
