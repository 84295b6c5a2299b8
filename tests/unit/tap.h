/* SPDX-License-Identifier: Apache-2.0 */
/* Minimal TAP output for the table-driven C unit tests: each check prints one "ok"/"not ok" line
 * naming the row it came from; tap_done() returns the exit status. tests/run counts the lines. */
#ifndef PMUPROF_TAP_H
#define PMUPROF_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

/* Records one check: cond true is "ok". fmt names the check (and the table row: use __LINE__). */
__attribute__((format(printf, 2, 3), unused))
static int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

__attribute__((unused))
static int tap_skip(const char *why)
{
	printf("ok %d - skipped # SKIP %s\n", ++tap_n, why);
	return 1;
}

#define TAP_EQ_INT(got, want, ...) \
	(tap_ok((long long)(got) == (long long)(want), __VA_ARGS__) ? 1 : \
	 (printf("#   got %lld, want %lld\n", (long long)(got), (long long)(want)), 0))
/* Equal strings; two NULLs are equal, NULL and a string are not. */
__attribute__((unused))
static int tap_streq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

__attribute__((unused))
static const char *tap_str(const char *s)
{
	return s ? s : "(null)";
}

#define TAP_EQ_STR(got, want, ...) \
	(tap_ok(tap_streq((got), (want)), __VA_ARGS__) ? 1 : \
	 (printf("#   got '%s', want '%s'\n", tap_str(got), tap_str(want)), 0))

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
