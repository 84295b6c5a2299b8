/* SPDX-License-Identifier: Apache-2.0 */
/* list_generic.c: owns the text of perf's generic events in list (include/list_generic.h). */
#include "list_generic.h"
#include "resolve.h"

void list_generic_heading(struct textline *l)
{
	textline_put(l, "perf generic events:", 20);
	textline_end(l);
}

void list_generic_line(struct textline *l, const char *name, uint32_t type, uint64_t config)
{
	int arm = resolve_generic_arm_code(type, config);

	/* "  %-32s type %u config 0x%llx" and " (on Arm: event 0x%04x)" */
	textline_put(l, "  ", 2);
	textline_pad(l, name, 32);
	textline_put(l, " type ", 6);
	textline_num(l, type, 10, 1);
	textline_put(l, " config 0x", 10);
	textline_num(l, config, 16, 1);
	if (arm >= 0) {
		textline_put(l, " (on Arm: event 0x", 18);
		textline_num(l, (unsigned)arm, 16, 4);
		textline_put(l, ")", 1);
	}
	textline_end(l);
}
