/* SPDX-License-Identifier: Apache-2.0 */
/* mexpr.c: the metric formula parser and evaluator (recursive descent, evaluating as it reads),
 * the same parser compiling a formula into a postfix program as it reads, and the program's
 * runner. Shared with the table generator, which checks and compiles every formula with it at
 * build time; a run only runs programs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "mexpr.h"

struct mx {
	const char *s, *p;
	mexpr_lookup lookup;
	void *ctx;
	int depth;
	struct mexpr_error err;
	/* compiling: the program so far, the input numbers, the stack's depth; bad: it cannot
	 * be compiled */
	unsigned char *code;
	size_t ncode, cap;
	int (*index)(void *ctx, const char *name, size_t len);
	int sp, bad;
};

/* Appends byte op to the program being compiled (none: nothing); the stack then holds depth
 * values more (a push 1, a binary operation -1). */
static void emit(struct mx *m, unsigned op, int depth)
{
	if (!m->code)
		return;
	if (m->ncode + 1 >= m->cap)	/* room for MEXPR_OP_END */
		m->bad = 1;
	else
		m->code[m->ncode++] = (unsigned char)op;
	m->sp += depth;
	if (m->sp > MEXPR_STACK)
		m->bad = 1;
}

/* Records the first problem; a syntax error replaces whatever came before it. */
static void fail(struct mx *m, enum mexpr_status st, const char *at, const char *name,
		 size_t len)
{
	if (m->err.status != MEXPR_OK && st != MEXPR_SYNTAX)
		return;
	if (m->err.status == MEXPR_SYNTAX)
		return;
	m->err.status = st;
	m->err.column = (size_t)(at - m->s) + 1;
	mexpr_error_name(&m->err, name, len);
}

void mexpr_error_name(struct mexpr_error *err, const char *name, size_t len)
{
	if (len > MEXPR_MAX_NAME)
		len = MEXPR_MAX_NAME;
	memcpy(err->name, name, len);
	err->name[len] = '\0';
}

static void skip_space(struct mx *m)
{
	while (*m->p == ' ' || *m->p == '\t')
		m->p++;
}

static double expr(struct mx *m);

static double number(struct mx *m)
{
	const char *start = m->p;
	double v = 0, scale = 1;

	while (ascii_isdigit((unsigned char)*m->p))
		v = v * 10 + (*m->p++ - '0');
	if (*m->p == '.') {
		m->p++;
		if (!ascii_isdigit((unsigned char)*m->p))
			fail(m, MEXPR_SYNTAX, m->p, start, (size_t)(m->p - start));
		while (ascii_isdigit((unsigned char)*m->p))
			v += (*m->p++ - '0') * (scale /= 10);
	}
	if (m->code) {
		/* a program holds whole numbers below 65536, exactly what the text gives (and a
		 * larger one is not converted: out of unsigned's range that is undefined) */
		unsigned n = v <= 0xffff ? (unsigned)v : 0;

		if (v > 0xffff || v != (double)n)
			m->bad = 1;
		emit(m, MEXPR_OP_NUMBER, 1);
		emit(m, n & 0xff, 0);
		emit(m, n >> 8, 0);
	}
	return v;
}

static double name(struct mx *m)
{
	const char *start = m->p;
	enum mexpr_status st;
	double v = NAN;

	while (ascii_isalnum((unsigned char)*m->p) || *m->p == '_')
		m->p++;
	st = m->lookup(m->ctx, start, (size_t)(m->p - start), &v);
	if (m->code) {
		int i = m->index(m->ctx, start, (size_t)(m->p - start));

		if (i < 0 || i >= MEXPR_MAX_EVENTS)
			m->bad = 1;
		emit(m, MEXPR_OP_INPUT + (unsigned)(i < 0 ? 0 : i), 1);
	}
	if (st != MEXPR_OK) {
		fail(m, st == MEXPR_NOVALUE ? MEXPR_NOVALUE : MEXPR_UNKNOWN, start, start,
		     (size_t)(m->p - start));
		return NAN;
	}
	return v;
}

static double primary(struct mx *m)
{
	double v;

	skip_space(m);
	if (ascii_isdigit((unsigned char)*m->p) || (*m->p == '.' && ascii_isdigit((unsigned char)m->p[1])))
		return number(m);
	if (ascii_isalpha((unsigned char)*m->p) || *m->p == '_')
		return name(m);
	if (*m->p == '(') {
		m->p++;
		v = expr(m);
		skip_space(m);
		if (*m->p != ')') {
			fail(m, MEXPR_SYNTAX, m->p, ")", 1);
			return NAN;
		}
		m->p++;
		return v;
	}
	fail(m, MEXPR_SYNTAX, m->p, m->p, *m->p ? 1 : 0);
	return NAN;
}

static double unary(struct mx *m)
{
	double v;

	skip_space(m);
	if (*m->p != '-' && *m->p != '+')
		return primary(m);
	if (++m->depth > MEXPR_MAX_DEPTH) {
		fail(m, MEXPR_SYNTAX, m->p, "", 0);
		return NAN;
	}
	if (*m->p++ == '-') {
		v = -unary(m);
		emit(m, MEXPR_OP_NEG, 0);
	} else {
		v = unary(m);
	}
	m->depth--;
	return v;
}

static double term(struct mx *m)
{
	double v = unary(m), r;
	const char *op;

	for (;;) {
		skip_space(m);
		if (m->err.status == MEXPR_SYNTAX || (*m->p != '*' && *m->p != '/'))
			return v;
		op = m->p++;
		r = unary(m);
		emit(m, *op == '*' ? MEXPR_OP_MUL : MEXPR_OP_DIV, -1);
		if (*op == '*') {
			v *= r;
		} else if (r == 0) {
			fail(m, MEXPR_DIV0, op, "", 0);
			v = NAN;
		} else {
			v /= r;
		}
	}
}

static double expr(struct mx *m)
{
	double v, r;
	char op;

	if (++m->depth > MEXPR_MAX_DEPTH) {
		fail(m, MEXPR_SYNTAX, m->p, "", 0);
		return NAN;
	}
	v = term(m);
	for (;;) {
		skip_space(m);
		if (m->err.status == MEXPR_SYNTAX || (*m->p != '+' && *m->p != '-'))
			break;
		op = *m->p++;
		r = term(m);
		v = op == '+' ? v + r : v - r;
		emit(m, op == '+' ? MEXPR_OP_ADD : MEXPR_OP_SUB, -1);
	}
	m->depth--;
	return v;
}

double mexpr_eval(const char *formula, mexpr_lookup lookup, void *ctx, struct mexpr_error *err)
{
	struct mx m = { .s = formula, .p = formula, .lookup = lookup, .ctx = ctx };
	double v = expr(&m);

	skip_space(&m);
	if (m.err.status != MEXPR_SYNTAX && *m.p)
		fail(&m, MEXPR_SYNTAX, m.p, m.p, 1);
	if (err)
		*err = m.err;
	return m.err.status == MEXPR_OK ? v : NAN;
}

/* Compiling: every name counts 1 (the program's inputs are what index says). */
static enum mexpr_status any_name(void *ctx, const char *name, size_t len, double *value)
{
	(void)ctx;
	(void)name;
	(void)len;
	*value = 1;
	return MEXPR_OK;
}

size_t mexpr_compile(const char *formula, int (*index)(void *ctx, const char *name, size_t len),
		     void *ctx, unsigned char *code, size_t cap)
{
	struct mx m = { .s = formula, .p = formula, .lookup = any_name, .ctx = ctx, .code = code,
			.cap = cap, .index = index };

	if (!cap)
		return 0;
	expr(&m);
	skip_space(&m);
	if (*m.p || m.err.status == MEXPR_SYNTAX || m.bad || m.sp != 1)
		return 0;
	code[m.ncode++] = MEXPR_OP_END;
	return m.ncode;
}

double mexpr_run(const unsigned char *code, mexpr_input input, void *ctx,
		 struct mexpr_error *err, size_t *bad)
{
	double st[MEXPR_STACK];
	size_t sp = 0;
	enum mexpr_status status = MEXPR_OK, s;

	/* the programs are the generator's, checked there (tests/unit/test_mxtab.c runs every
	 * one against its formula): no bounds to check here */
	for (;; code++) {
		switch (*code) {
		case MEXPR_OP_NUMBER:
			st[sp++] = code[1] | (unsigned)code[2] << 8;
			code += 2;
			break;
		case MEXPR_OP_ADD:
			sp--;
			st[sp - 1] += st[sp];
			break;
		case MEXPR_OP_SUB:
			sp--;
			st[sp - 1] -= st[sp];
			break;
		case MEXPR_OP_MUL:
			sp--;
			st[sp - 1] *= st[sp];
			break;
		case MEXPR_OP_DIV:
			sp--;
			if (st[sp] == 0) {
				if (status == MEXPR_OK)
					status = MEXPR_DIV0;
				st[sp - 1] = NAN;
			} else {
				st[sp - 1] /= st[sp];
			}
			break;
		case MEXPR_OP_NEG:
			st[sp - 1] = -st[sp - 1];
			break;
		case MEXPR_OP_END:
			goto done;
		default:	/* an input */
			s = input(ctx, *code, &st[sp]);
			if (s != MEXPR_OK) {
				st[sp] = NAN;
				if (status == MEXPR_OK) {
					status = s == MEXPR_NOVALUE ? MEXPR_NOVALUE : MEXPR_UNKNOWN;
					if (bad)
						*bad = *code;
				}
			}
			sp++;
		}
	}
done:
	if (err) {
		err->status = status;
		err->column = 0;
		err->name[0] = '\0';
	}
	return status == MEXPR_OK ? st[0] : NAN;
}

const char *mexpr_strerror(enum mexpr_status st)
{
	switch (st) {
	case MEXPR_OK: return "ok";
	case MEXPR_SYNTAX: return "syntax error";
	case MEXPR_UNKNOWN: return "unknown identifier";
	case MEXPR_NOVALUE: return "an input was not counted";
	case MEXPR_DIV0: return "division by zero";
	}
	return "unknown status";
}
