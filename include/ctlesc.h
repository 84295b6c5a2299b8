/* SPDX-License-Identifier: Apache-2.0 */
/* ctlesc.h: text from outside pmuprof (a saved report's strings) made safe to print: its
 * control characters written as escapes, so that none reaches a terminal raw (an ESC starts
 * a sequence that can clear the screen or retitle the window, BEL rings, a newline breaks a
 * table's row). C0 controls and DEL become "\xHH" ("\x1b", "\x07", "\x0a"), the C1 controls
 * U+0080 to U+009F (CSI is U+009B) "\u00HH", and a byte that is no part of valid UTF-8
 * "\xHH"; the rest is left as it is, backslashes included. */
#ifndef PMUPROF_CTLESC_H
#define PMUPROF_CTLESC_H

/* Whether s holds anything to escape. */
int ctlesc_needed(const char *s);
/* s with its control characters escaped (malloc'd); NULL when out of memory. */
char *ctlesc_dup(const char *s);

#endif
