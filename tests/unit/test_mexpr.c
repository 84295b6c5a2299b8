/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_mexpr.c: the metric formula evaluator: precedence, signs, division by zero,
 * unknown and uncounted names, syntax errors with their columns; and every row compiled and
 * run, which must give the very value and problem of the text's evaluation. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mexpr.h"
#include "tap.h"

/* The names a row may use: A=2, B=3, C=0, CPU_CYCLES=1000, INST_RETIRED=1500, N (known, not
 * counted); anything else is unknown. */
static enum mexpr_status lookup(void *ctx, const char *name, size_t len, double *v)
{
	static const struct { const char *n; double v; } vals[] = {
		{ "A", 2 }, { "B", 3 }, { "C", 0 }, { "CPU_CYCLES", 1000 }, { "INST_RETIRED", 1500 },
	};
	int *seen = ctx;

	(*seen)++;
	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++)
		if (strlen(vals[k].n) == len && !memcmp(vals[k].n, name, len)) {
			*v = vals[k].v;
			return MEXPR_OK;
		}
	return len == 1 && *name == 'N' ? MEXPR_NOVALUE : MEXPR_UNKNOWN;
}

static const struct {
	int line;
	const char *formula;
	double want;			/* when status is MEXPR_OK */
	enum mexpr_status status;
	size_t column;			/* of the problem, when status is not MEXPR_OK */
	const char *name;		/* the name it is about, when any */
	int lookups;			/* names looked up, -1: not checked */
} rows[] = {
	{ __LINE__, "1 + 2 * 3", 7, MEXPR_OK, 0, NULL, 0 },
	{ __LINE__, "(1 + 2) * 3", 9, MEXPR_OK, 0, NULL, 0 },
	{ __LINE__, "A - B - 1", -2, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "12 / A / B", 2, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "A * B / A", 3, MEXPR_OK, 0, NULL, 3 },
	{ __LINE__, "A + B * 2 - 8 / A", 4, MEXPR_OK, 0, NULL, 3 },
	{ __LINE__, "-A * B", -6, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "-A - -B", 1, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "B - -A * -1", 1, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "+A", 2, MEXPR_OK, 0, NULL, 1 },
	{ __LINE__, "--A", 2, MEXPR_OK, 0, NULL, 1 },
	{ __LINE__, "-(A + B)", -5, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "0.5 * A", 1, MEXPR_OK, 0, NULL, 1 },
	{ __LINE__, "INST_RETIRED / CPU_CYCLES", 1.5, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "INST_RETIRED / CPU_CYCLES * 100", 150, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "100 * (1 - A / (B * 2))", 100 * (1 - 2.0 / 6), MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "\tA\t*B ", 6, MEXPR_OK, 0, NULL, 2 },
	/* * and / alike, left to right; + and - alike, left to right */
	{ __LINE__, "12 / A * B", 18, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "A - B + 1", 0, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "B * 4 / A / B", 2, MEXPR_OK, 0, NULL, 3 },
	/* a sign binds tighter than any operator, and applies to what follows it only */
	{ __LINE__, "-B + A", -1, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "A * -B", -6, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "12 / -A", -6, MEXPR_OK, 0, NULL, 1 },
	{ __LINE__, "-A * -B", 6, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "-(A * B) + 1", -5, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "A - -(B - 1)", 4, MEXPR_OK, 0, NULL, 2 },
	/* numbers: a fraction with or without a leading digit, leading zeros */
	{ __LINE__, ".5 * A", 1, MEXPR_OK, 0, NULL, 1 },
	{ __LINE__, "007 + 0.25", 7.25, MEXPR_OK, 0, NULL, 0 },
	{ __LINE__, "A / 0.001", 2000, MEXPR_OK, 0, NULL, 1 },
	/* division by zero: no value, and the operator's column */
	{ __LINE__, "A / C", 0, MEXPR_DIV0, 3, "", 2 },
	{ __LINE__, "A / (B - 3)", 0, MEXPR_DIV0, 3, "", 2 },
	{ __LINE__, "1 / 0", 0, MEXPR_DIV0, 3, "", 0 },
	{ __LINE__, "C / A", 0, MEXPR_OK, 0, NULL, 2 },
	{ __LINE__, "1 + A / C", 0, MEXPR_DIV0, 7, "", 2 },
	{ __LINE__, "A / -C", 0, MEXPR_DIV0, 3, "", 2 },	/* -0 is zero */
	{ __LINE__, "A / C * 0", 0, MEXPR_DIV0, 3, "", 2 },	/* no value, not 0 */
	{ __LINE__, "(A - A) / (B - B)", 0, MEXPR_DIV0, 9, "", 4 },
	{ __LINE__, "A / (C / B)", 0, MEXPR_DIV0, 3, "", 3 },
	{ __LINE__, "CPU_CYCLES / (CPU_CYCLES - 1000)", 0, MEXPR_DIV0, 12, "", 2 },
	/* names */
	{ __LINE__, "A + ZZ * 2", 0, MEXPR_UNKNOWN, 5, "ZZ", 2 },
	{ __LINE__, "ZZ / C + YY", 0, MEXPR_UNKNOWN, 1, "ZZ", 3 },
	{ __LINE__, "A / N", 0, MEXPR_NOVALUE, 5, "N", 2 },
	{ __LINE__, "N / C", 0, MEXPR_NOVALUE, 1, "N", 2 },
	{ __LINE__, "A / C + N", 0, MEXPR_DIV0, 3, "", 3 },
	{ __LINE__, "A + a", 0, MEXPR_UNKNOWN, 5, "a", 2 },	/* names are case-sensitive */
	{ __LINE__, "L1D_CACHE_REFILL / INST_RETIRED", 0, MEXPR_UNKNOWN, 1, "L1D_CACHE_REFILL", 2 },
	{ __LINE__, "A *\t_B2", 0, MEXPR_UNKNOWN, 5, "_B2", 2 },
	{ __LINE__, "A / C + ZZ", 0, MEXPR_DIV0, 3, "", 3 },	/* the first problem met */
	/* syntax */
	{ __LINE__, "", 0, MEXPR_SYNTAX, 1, NULL, 0 },
	{ __LINE__, "A +", 0, MEXPR_SYNTAX, 4, NULL, 1 },
	{ __LINE__, "(A + B", 0, MEXPR_SYNTAX, 7, NULL, 2 },
	{ __LINE__, "A + B)", 0, MEXPR_SYNTAX, 6, NULL, 2 },
	{ __LINE__, "A B", 0, MEXPR_SYNTAX, 3, NULL, 1 },
	{ __LINE__, "A * * B", 0, MEXPR_SYNTAX, 5, NULL, 1 },
	{ __LINE__, "A % B", 0, MEXPR_SYNTAX, 3, NULL, 1 },
	{ __LINE__, "1. + A", 0, MEXPR_SYNTAX, 3, NULL, -1 },
	{ __LINE__, "ZZ +", 0, MEXPR_SYNTAX, 5, NULL, 1 },	/* syntax wins over unknown */
	{ __LINE__, "()", 0, MEXPR_SYNTAX, 2, NULL, 0 },
	{ __LINE__, "   ", 0, MEXPR_SYNTAX, 4, NULL, 0 },
	{ __LINE__, "A / ", 0, MEXPR_SYNTAX, 5, NULL, 1 },
	{ __LINE__, ")", 0, MEXPR_SYNTAX, 1, NULL, 0 },
	{ __LINE__, "A (B)", 0, MEXPR_SYNTAX, 3, NULL, 1 },
	{ __LINE__, "A + (B * )", 0, MEXPR_SYNTAX, 10, NULL, 2 },
	{ __LINE__, "1A", 0, MEXPR_SYNTAX, 2, NULL, 0 },
	{ __LINE__, "1.5.2", 0, MEXPR_SYNTAX, 4, NULL, 0 },
	{ __LINE__, "A ^ 2", 0, MEXPR_SYNTAX, 3, NULL, 1 },
	{ __LINE__, "A / C +", 0, MEXPR_SYNTAX, 8, NULL, 2 },	/* syntax wins over div0 */
	{ __LINE__, "N + )", 0, MEXPR_SYNTAX, 5, NULL, 1 },	/* and over not counted */
};

static void deep(void)
{
	char f[2 * MEXPR_MAX_DEPTH + 8];
	struct mexpr_error err;
	int seen = 0;
	size_t n = MEXPR_MAX_DEPTH + 2;
	double v;

	memset(f, '(', n);
	f[n] = '1';
	memset(f + n + 1, ')', n);
	f[2 * n + 1] = '\0';
	v = mexpr_eval(f, lookup, &seen, &err);
	tap_ok(isnan(v) && err.status == MEXPR_SYNTAX,
	       "nesting deeper than %d is refused, not a stack overflow", MEXPR_MAX_DEPTH);
	memset(f, '-', n);
	f[n] = '1';
	f[n + 1] = '\0';
	v = mexpr_eval(f, lookup, &seen, &err);
	tap_ok(isnan(v) && err.status == MEXPR_SYNTAX, "so are %zu unary signs", n);
}

/* Nesting well inside the limit is evaluated, not refused; err may be NULL; the reasons the
 * reports print (a metric's "reason" for a division by zero is this text). */
static void others(void)
{
	char f[2 * MEXPR_MAX_DEPTH + 8];
	struct mexpr_error err;
	int seen = 0;
	size_t n = MEXPR_MAX_DEPTH / 2;
	double v;

	memset(f, '(', n);
	f[n] = 'B';
	memset(f + n + 1, ')', n);
	f[2 * n + 1] = '\0';
	v = mexpr_eval(f, lookup, &seen, &err);
	tap_ok(err.status == MEXPR_OK && v == 3, "%zu nested parentheses are read (got %g, %s)", n,
	       v, mexpr_strerror(err.status));
	memset(f, '-', n + 1);
	f[n + 1] = 'A';
	f[n + 2] = '\0';
	v = mexpr_eval(f, lookup, &seen, &err);
	tap_ok(err.status == MEXPR_OK && v == -2, "%zu unary minus signs are read (got %g, %s)",
	       n + 1, v, mexpr_strerror(err.status));
	v = mexpr_eval("A * B", lookup, &seen, NULL);
	tap_ok(v == 6, "err may be NULL (got %g)", v);
	tap_ok(isnan(mexpr_eval("A / C", lookup, &seen, NULL)), "a division by zero without err is NAN");
	TAP_EQ_STR(mexpr_strerror(MEXPR_DIV0), "division by zero", "the reason of a division by zero");
	for (int a = MEXPR_OK; a <= MEXPR_DIV0; a++)
		for (int b = a + 1; b <= MEXPR_DIV0; b++)
			tap_ok(strcmp(mexpr_strerror(a), mexpr_strerror(b)) != 0,
			       "status %d and %d have their own reasons ('%s')", a, b, mexpr_strerror(a));
}

/* The compiled rows' inputs: the names of lookup() by number; N (5) not counted. */
static const char *const inputs[] = { "A", "B", "C", "CPU_CYCLES", "INST_RETIRED", "N" };

static int input_number(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		if (strlen(inputs[i]) == len && !memcmp(inputs[i], name, len))
			return (int)i;
	return -1;
}

static enum mexpr_status input_value(void *ctx, size_t i, double *v)
{
	int seen = 0;

	(void)ctx;
	return lookup(&seen, inputs[i], strlen(inputs[i]), v);
}

/* Each row compiled: those of the grammar whose names are inputs and whose numbers are whole
 * compile, and run to the same bits and the same first problem; the others do not compile. */
static void compiled(size_t i)
{
	const char *f = rows[i].formula;
	unsigned char code[256];
	size_t n = mexpr_compile(f, input_number, NULL, code, sizeof(code)), bad = 99;
	int whole = !strchr(f, '.'), known = 1;
	struct mexpr_error want, got;
	double v, w;

	for (const char *p = f; *p; p++)	/* every name an input */
		if ((*p == '_' || isalpha((unsigned char)*p)) &&
		    (p == f || (!isalnum((unsigned char)p[-1]) && p[-1] != '_'))) {
			size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					    "0123456789_");

			known &= input_number(NULL, p, len) >= 0;
		}
	if (rows[i].status == MEXPR_SYNTAX || !whole || !known) {
		TAP_EQ_INT(n, 0, "line %d: '%s' is not compiled", rows[i].line, f);
		return;
	}
	if (!tap_ok(n > 0 && code[n - 1] == MEXPR_OP_END, "line %d: '%s' compiles", rows[i].line, f))
		return;
	w = mexpr_eval(f, lookup, &(int){ 0 }, &want);
	v = mexpr_run(code, input_value, NULL, &got, &bad);
	tap_ok(((isnan(v) && isnan(w)) || !memcmp(&v, &w, sizeof(v))) && got.status == want.status &&
	       (got.status != MEXPR_NOVALUE || !strcmp(inputs[bad], want.name)),
	       "line %d: '%s' runs to %g, %s (evaluated: %g, %s)", rows[i].line, f, v,
	       mexpr_strerror(got.status), w, mexpr_strerror(want.status));
}

/* What a program cannot hold is refused, not compiled wrong. */
static void compile_limits(void)
{
	unsigned char code[512];
	char f[256];
	size_t n = 0;

	TAP_EQ_INT(mexpr_compile("A * 65536", input_number, NULL, code, sizeof(code)), 0,
		   "a number of 65536 or more is not compiled");
	/* past unsigned's range too (no conversion of it: UndefinedBehaviorSanitizer's run) */
	TAP_EQ_INT(mexpr_compile("A * 99999999999999999999", input_number, NULL, code,
				 sizeof(code)), 0, "a number past 2^64 is not compiled");
	n = mexpr_compile("A * 65535", input_number, NULL, code, sizeof(code));
	tap_ok(n == 6 && code[0] == MEXPR_OP_INPUT && code[1] == MEXPR_OP_NUMBER &&
	       code[2] == 0xff && code[3] == 0xff && code[4] == MEXPR_OP_MUL &&
	       code[5] == MEXPR_OP_END,
	       "65535 is a number's two bytes (%zu bytes)", n);
	TAP_EQ_INT(mexpr_compile("A * B", input_number, NULL, code, 3), 0,
		   "a program longer than its room is not compiled");
	TAP_EQ_INT(mexpr_compile("A * B", input_number, NULL, code, 4), 4,
		   "one that fits with its end is");
	/* A + (A + (A + ...)): each parenthesis holds one more value */
	for (int depth = MEXPR_STACK; depth <= MEXPR_STACK + 1; depth++) {
		n = 0;
		for (int k = 1; k < depth; k++)
			n += (size_t)snprintf(f + n, sizeof(f) - n, "A + (");
		n += (size_t)snprintf(f + n, sizeof(f) - n, "A");
		for (int k = 1; k < depth; k++)
			n += (size_t)snprintf(f + n, sizeof(f) - n, ")");
		n = mexpr_compile(f, input_number, NULL, code, sizeof(code));
		tap_ok(depth > MEXPR_STACK ? n == 0 : n > 0, "a formula holding %d values at once "
		       "is %scompiled", depth, depth > MEXPR_STACK ? "not " : "");
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct mexpr_error err;
		int seen = 0;
		double v = mexpr_eval(rows[i].formula, lookup, &seen, &err);

		if (rows[i].status == MEXPR_OK) {
			tap_ok(err.status == MEXPR_OK && fabs(v - rows[i].want) < 1e-12,
			       "line %d: '%s' = %g (got %g, %s)", rows[i].line, rows[i].formula,
			       rows[i].want, v, mexpr_strerror(err.status));
		} else {
			tap_ok(isnan(v) && err.status == rows[i].status &&
				       err.column == rows[i].column &&
				       (!rows[i].name || !strcmp(err.name, rows[i].name)),
			       "line %d: '%s': %s at column %zu (got %s at %zu, '%s')", rows[i].line,
			       rows[i].formula, mexpr_strerror(rows[i].status), rows[i].column,
			       mexpr_strerror(err.status), err.column, err.name);
		}
		if (rows[i].lookups >= 0)
			TAP_EQ_INT(seen, rows[i].lookups, "line %d: names looked up", rows[i].line);
		compiled(i);
	}
	compile_limits();
	deep();
	others();
	return tap_done();
}
