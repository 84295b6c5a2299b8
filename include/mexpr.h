/* SPDX-License-Identifier: Apache-2.0 */
/* mexpr.h: metric formulas: their grammar, checking and evaluation. Pure: no I/O, no other
 * pmuprof module, so the table generator (tools/evgen, HOSTCC) links the same parser.
 *
 * Grammar (Arm's telemetry formulas): expr = term {('+'|'-') term}; term = unary
 * {('*'|'/') unary}; unary = ('-'|'+') unary | primary; primary = NUMBER | NAME | '(' expr ')'.
 * NUMBER is digits with an optional fraction; NAME is [A-Za-z_][A-Za-z0-9_]* (an event).
 * The usual precedence: "1 + 2 * 3" is 7; "-A * B" is (-A) * B; "A / B / C" is (A / B) / C. */
#ifndef PMUPROF_MEXPR_H
#define PMUPROF_MEXPR_H

#include <stddef.h>

#define MEXPR_MAX_NAME 63
#define MEXPR_MAX_DEPTH 64	/* nested parentheses and unary signs */
#define MEXPR_MAX_EVENTS 12	/* distinct events a metric's formula may name: a report keeps
				 * each metric's inputs in an array this long (the generator
				 * refuses more; Arm's data names at most 6) */

enum mexpr_status {
	MEXPR_OK = 0,
	MEXPR_SYNTAX,		/* not a formula of the grammar above (column says where) */
	MEXPR_UNKNOWN,		/* a NAME the lookup does not know (name says which) */
	MEXPR_NOVALUE,		/* a known NAME without a value: not counted (name says which) */
	MEXPR_DIV0,		/* a division by zero: the metric is undefined */
};

/* Why a formula gave no value: the first problem met, left to right (a syntax error wins
 * over every other, as nothing after it is read). column counts from 1. */
struct mexpr_error {
	enum mexpr_status status;
	size_t column;
	char name[MEXPR_MAX_NAME + 1];
};

/* The value of NAME (len bytes at name, not NUL-terminated): returns MEXPR_OK and sets *value,
 * or MEXPR_UNKNOWN (no such name), or MEXPR_NOVALUE (known, not counted). */
typedef enum mexpr_status (*mexpr_lookup)(void *ctx, const char *name, size_t len,
					  double *value);

/* Evaluates formula, asking lookup for each NAME. Returns the value, or NAN with *err saying
 * why (err may be NULL). Every NAME is looked up, even after a problem, so a check that only
 * wants to see each name (and gives 1.0 for all) sees them all. */
double mexpr_eval(const char *formula, mexpr_lookup lookup, void *ctx, struct mexpr_error *err);

/* Formulas compiled at build time (the generator checks every formula and writes its program
 * into the tables, so that a run evaluates it without parsing the text): a postfix program of
 * bytes, each operation one byte, a number's two bytes after its own (low byte first). */
enum mexpr_op {
	MEXPR_OP_INPUT = 0x00,	/* 0x00 + i: push the value of input i (i < MEXPR_MAX_EVENTS) */
	MEXPR_OP_NUMBER = 0x10,	/* push the number in the next two bytes */
	MEXPR_OP_ADD = 0x20,	/* pop b, pop a, push a + b */
	MEXPR_OP_SUB,		/* a - b */
	MEXPR_OP_MUL,		/* a * b */
	MEXPR_OP_DIV,		/* a / b; b == 0: a division by zero */
	MEXPR_OP_NEG,		/* pop a, push -a */
	MEXPR_OP_END = 0xff,
};
#define MEXPR_STACK 16		/* values a program may hold at once */

/* Compiles formula into code (cap bytes, MEXPR_OP_END included): index gives a NAME's input
 * number (len bytes at name), or -1 when it is no input. Returns the program's length with its
 * MEXPR_OP_END, or 0 when the formula is not of the grammar, names what index does not know,
 * holds a number that is not a whole number below 65536 (the only numbers a program holds),
 * needs more than MEXPR_STACK places, or takes more than cap bytes. */
size_t mexpr_compile(const char *formula, int (*index)(void *ctx, const char *name, size_t len),
		     void *ctx, unsigned char *code, size_t cap);

/* The value of input i: MEXPR_OK and *value, or MEXPR_NOVALUE (not counted). */
typedef enum mexpr_status (*mexpr_input)(void *ctx, size_t i, double *value);

/* Runs a program of mexpr_compile: exactly mexpr_eval of its formula (the same operations in
 * the same order: the same value, the same first problem), inputs given by input. On a
 * problem, NAN, with err's status and, for an input, its number in *bad (err's column and
 * name are left empty: the caller knows the inputs' names). */
double mexpr_run(const unsigned char *code, mexpr_input input, void *ctx,
		 struct mexpr_error *err, size_t *bad);

/* Sets err's name to the len bytes at name, cut at MEXPR_MAX_NAME. */
void mexpr_error_name(struct mexpr_error *err, const char *name, size_t len);

/* A one-line reason for a status ("division by zero", "not counted", ...). */
const char *mexpr_strerror(enum mexpr_status st);

#endif
