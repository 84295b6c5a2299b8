/* SPDX-License-Identifier: Apache-2.0 */
/* list_generic.h: the text listing's lines for perf's generic events (pmuprof list). */
#ifndef PMUPROF_LIST_GENERIC_H
#define PMUPROF_LIST_GENERIC_H

#include <stdint.h>

#include "textline.h"

/* The section's heading line. */
void list_generic_heading(struct textline *l);
/* One event's line: "  %-32s type %u config 0x%llx", and " (on Arm: event 0x%04x)" when
 * the kernel's Arm map has it. */
void list_generic_line(struct textline *l, const char *name, uint32_t type, uint64_t config);

#endif
