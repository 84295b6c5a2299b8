/* mexpr.c: the metric formula parser and evaluator (recursive descent, evaluating as it reads).
 * Shared with the table generator, which checks every formula with it at build time. */
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
};

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
	if (len > MEXPR_MAX_NAME)
		len = MEXPR_MAX_NAME;
	memcpy(m->err.name, name, len);
	m->err.name[len] = '\0';
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
	v = *m->p++ == '-' ? -unary(m) : unary(m);
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
	double v;

	if (++m->depth > MEXPR_MAX_DEPTH) {
		fail(m, MEXPR_SYNTAX, m->p, "", 0);
		return NAN;
	}
	v = term(m);
	for (;;) {
		skip_space(m);
		if (m->err.status == MEXPR_SYNTAX || (*m->p != '+' && *m->p != '-'))
			break;
		v = *m->p++ == '+' ? v + term(m) : v - term(m);
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
