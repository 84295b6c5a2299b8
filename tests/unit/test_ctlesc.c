/* SPDX-License-Identifier: Apache-2.0 */
/* test_ctlesc.c: control characters escaped, everything else (UTF-8 included) kept. */
#include <stdlib.h>

#include "ctlesc.h"
#include "tap.h"

static const struct {
	int line;
	const char *in, *want;
} rows[] = {
	{ __LINE__, "task-clock", "task-clock" },
	{ __LINE__, "", "" },
	{ __LINE__, "evil\x1b[2J\x07name", "evil\\x1b[2J\\x07name" },
	{ __LINE__, "a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd" },
	{ __LINE__, "\x01\x1f\x7f", "\\x01\\x1f\\x7f" },
	{ __LINE__, "back\\slash", "back\\slash" },		/* kept: no control */
	{ __LINE__, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	{ __LINE__, "\xc2\x9b" "2J", "\\u009b2J" },		/* CSI, U+009B */
	{ __LINE__, "\xc2\x80\xc2\x9f\xc2\xa0", "\\u0080\\u009f\xc2\xa0" },	/* C1 ends at U+009F */
	{ __LINE__, "\x9b" "2J", "\\x9b2J" },			/* a lone byte: no UTF-8 */
	{ __LINE__, "\xc0\xaf", "\\xc0\\xaf" },			/* overlong */
	{ __LINE__, "\xed\xa0\x80", "\\xed\\xa0\\x80" },	/* a surrogate */
	{ __LINE__, "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },	/* past U+10FFFF */
	{ __LINE__, "\xe2\x82", "\\xe2\\x82" },			/* cut short */
	{ __LINE__, "\xff", "\\xff" },
};

int main(void)
{
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		char *got = ctlesc_dup(rows[k].in);
		int same = got && !strcmp(got, rows[k].in);

		TAP_EQ_STR(got, rows[k].want, "line %d: escaped", rows[k].line);
		TAP_EQ_INT(ctlesc_needed(rows[k].in), !same, "line %d: needed", rows[k].line);
		free(got);
	}
	return tap_done();
}
