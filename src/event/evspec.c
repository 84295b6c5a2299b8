/* SPDX-License-Identifier: Apache-2.0 */
/* evspec.c: parses event-spec text (one -e argument) into requests; errors carry a column. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "evspec.h"

/* Modifier letters in canonical order, matching the bits of enum evspec_mod. */
static const char mod_letters[] = "ukhHGD";

/* A spec's requests' texts, carved from one allocation a spec, freed with the list. A
 * request takes its text and its first word, len + 1 + wlen + 1 <= 2 * len + 2 bytes for a
 * text of len characters, so 2 * strlen(spec) + 2 bytes an event hold them all. */
struct evspec_pool {
	struct evspec_pool *next;
	char buf[];
};

struct cursor {
	const char *s;
	size_t i;
	struct evspec_error *err;
	char *pool;		/* where the next request's text goes */
	size_t used, cap;
};

static pp_status fail(struct cursor *c, size_t at, const char *what)
{
	c->err->column = (int)at + 1;
	snprintf(c->err->what, sizeof(c->err->what), "%s", what);
	return PP_EINVAL;
}

static pp_status fail_char(struct cursor *c, const char *fmt)
{
	char what[64];
	unsigned char ch = (unsigned char)c->s[c->i];

	if (ch >= 0x20 && ch < 0x7f)
		snprintf(what, sizeof(what), fmt, ch);
	else
		snprintf(what, sizeof(what), "%s", "unexpected non-ASCII or control character");
	return fail(c, c->i, what);
}

/* The characters of a name, a byte each of the 256: letters, digits, '_', '-', '.' (ASCII
 * whatever the locale). */
static const unsigned char name_chars[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x10 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0,	/* 0x20 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,	/* 0x30 */
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x40 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,	/* 0x50 */
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x60 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,	/* 0x70 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x80 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x90 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xa0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xb0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xc0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xd0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xe0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xf0 */
};

static int is_name_char(char ch)
{
	return name_chars[(unsigned char)ch];
}

/* Where the name that starts at s[i] ends. */
static size_t name_end(const char *s, size_t i)
{
	while (is_name_char(s[i]))
		i++;
	return i;
}

static int is_term_char(char ch)
{
	return is_name_char(ch) || ch == '+';
}

/* Copies s[from, to) into a new string; NULL on allocation failure. */
static char *span(const char *s, size_t from, size_t to)
{
	char *p = malloc(to - from + 1);

	if (p) {
		memcpy(p, s + from, to - from);
		p[to - from] = '\0';
	}
	return p;
}

static void req_free(struct evspec_req *r)
{
	/* its text is the list's (struct evspec_pool) */
	for (int t = 0; t < r->nterms; t++) {
		free(r->terms[t].key);
		free(r->terms[t].value);
	}
	free(r->terms);
	memset(r, 0, sizeof(*r));
}

/* Parses modifier letters at the cursor into *mods; stops at ',', '}' or the end. */
static pp_status parse_mods(struct cursor *c, unsigned *mods)
{
	size_t start = c->i;

	while (c->s[c->i] && c->s[c->i] != ',' && c->s[c->i] != '}') {
		const char *p = strchr(mod_letters, c->s[c->i]);

		if (!p || !*p)
			return fail_char(c, "unknown modifier '%c' (modifiers: u, k, h, H, G, D)");
		*mods |= 1u << (p - mod_letters);
		c->i++;
	}
	if (c->i == start)
		return fail(c, start, "empty modifier after ':'");
	return PP_OK;
}

static pp_status parse_term(struct cursor *c, struct evspec_req *r)
{
	size_t k0 = c->i, v0;
	struct evspec_term *t;

	c->i = name_end(c->s, c->i);
	if (c->i == k0)
		return c->s[c->i] == ',' || c->s[c->i] == '/' ? fail(c, c->i, "empty term")
		       : c->s[c->i] ? fail_char(c, "unexpected '%c' in a term")
		       : fail(c, c->i, "missing closing '/'");
	if (r->nterms == EVSPEC_MAX_TERMS)
		return fail(c, k0, "too many terms (at most 16)");
	if (!r->terms && !(r->terms = calloc(EVSPEC_MAX_TERMS, sizeof(*r->terms))))
		return PP_ENOMEM;
	for (int k = 0; k < r->nterms; k++)
		if (strlen(r->terms[k].key) == c->i - k0 &&
		    ascii_strncasecmp(r->terms[k].key, c->s + k0, c->i - k0) == 0)
			return fail(c, k0, "a term is given twice");
	t = &r->terms[r->nterms];
	t->column = (int)k0 + 1;
	if (!(t->key = span(c->s, k0, c->i)))
		return PP_ENOMEM;
	r->nterms++;
	if (c->s[c->i] != '=')
		return PP_OK;
	v0 = ++c->i;
	while (is_term_char(c->s[c->i]))
		c->i++;
	if (c->i == v0)
		return c->s[c->i] && c->s[c->i] != ',' && c->s[c->i] != '/'
		       ? fail_char(c, "unexpected '%c' in a term value")
		       : fail(c, v0, "empty value after '='");
	return (t->value = span(c->s, v0, c->i)) ? PP_OK : PP_ENOMEM;
}

/* PMU/TERMS/ after the PMU name; the cursor is on the first '/'. */
static pp_status parse_terms(struct cursor *c, struct evspec_req *r)
{
	pp_status st;

	c->i++;
	if (c->s[c->i] == '/') {
		c->i++;
		return PP_OK;
	}
	for (;;) {
		if ((st = parse_term(c, r)) != PP_OK)
			return st;
		if (c->s[c->i] == '/') {
			c->i++;
			return PP_OK;
		}
		if (c->s[c->i] != ',')
			return c->s[c->i] ? fail_char(c, "unexpected '%c' in a term")
			       : fail(c, c->i, "missing closing '/'");
		c->i++;
	}
}

static pp_status parse_event(struct cursor *c, struct evspec_req *r, int group)
{
	size_t start = c->i;
	pp_status st = PP_OK;
	size_t len, wlen;
	int slashed;

	memset(r, 0, sizeof(*r));
	r->group = group;
	r->column = (int)start + 1;
	c->i = name_end(c->s, start);
	if (c->i == start) {
		char ch = c->s[c->i];
		return ch == ',' || ch == '}' || !ch ? fail(c, start, "empty event name")
		       : fail_char(c, "unexpected '%c' where an event name should be");
	}
	wlen = c->i - start;
	if ((slashed = c->s[c->i] == '/')) {
		st = parse_terms(c, r);
		if (st == PP_OK && c->s[c->i] == ':')
			c->i++;
		if (st == PP_OK && c->s[c->i] && c->s[c->i] != ',' && c->s[c->i] != '}')
			st = parse_mods(c, &r->mods);
	} else if (c->s[c->i] == ':') {
		c->i++;
		st = parse_mods(c, &r->mods);
	}
	/* from the spec's pool: the text as written, then its first word (the name, or the
	 * PMU of PMU/terms/) unless that is the whole text (a bare name: most events) */
	len = c->i - start;
	if (st == PP_OK && c->cap - c->used < len + 1 + wlen + 1)
		st = PP_ENOMEM;		/* never: the pool is sized for the spec */
	if (st != PP_OK) {
		req_free(r);
		return st;
	}
	r->text = c->pool + c->used;
	memcpy(r->text, c->s + start, len);
	r->text[len] = '\0';
	c->used += len + 1;
	if (!slashed && wlen == len) {
		r->name = r->text;
		return st;
	}
	memcpy(r->text + len + 1, c->s + start, wlen);
	r->text[len + 1 + wlen] = '\0';
	c->used += wlen + 1;
	if (slashed)
		r->pmu = r->text + len + 1;
	else
		r->name = r->text + len + 1;
	return st;
}

static pp_status push(struct evspec_list *l, size_t *cap, const struct evspec_req *r)
{
	if (l->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		struct evspec_req *p = realloc(l->reqs, ncap * sizeof(*p));

		if (!p)
			return PP_ENOMEM;
		l->reqs = p;
		*cap = ncap;
	}
	l->reqs[l->n++] = *r;
	return PP_OK;
}

/* One '{...}[:mods]' group; the cursor is on '{'. */
static pp_status parse_group(struct cursor *c, struct evspec_list *l, size_t *cap)
{
	size_t open = c->i, first = l->n;
	int group = l->ngroups;
	unsigned mods = 0;
	struct evspec_req r;
	pp_status st;

	c->i++;
	for (;;) {
		if (c->s[c->i] == '{')
			return fail(c, c->i, "groups cannot be nested");
		if ((st = parse_event(c, &r, group)) != PP_OK)
			return st;
		if ((st = push(l, cap, &r)) != PP_OK) {
			req_free(&r);
			return st;
		}
		if (c->s[c->i] == '}')
			break;
		if (c->s[c->i] != ',')
			return c->s[c->i] ? fail_char(c, "unexpected '%c' in a group")
			       : fail(c, open, "unbalanced '{': missing '}'");
		c->i++;
	}
	c->i++;
	if (c->s[c->i] == ':') {
		c->i++;
		if ((st = parse_mods(c, &mods)) != PP_OK)
			return st;
	}
	for (size_t k = first; k < l->n; k++)
		l->reqs[k].mods |= mods;
	l->ngroups++;
	return PP_OK;
}

pp_status evspec_parse(const char *spec, struct evspec_list *list, struct evspec_error *err)
{
	struct cursor c = { .s = spec, .i = 0, .err = err };
	struct evspec_list l = *list;
	size_t cap = l.n, n0 = l.n;
	int g0 = l.ngroups;
	pp_status st = PP_OK;
	struct evspec_pool *pool;
	size_t len = 0, most = 1;

	err->column = 0;
	err->what[0] = '\0';
	if (!*spec)
		return fail(&c, 0, "empty event list");
	/* the most events the spec can hold (one more than its commas), room for each one's
	 * text and first word (parse_event), and the requests' array reserved for them at once */
	len = strlen(spec);
	for (const char *p = spec; (p = memchr(p, ',', (size_t)(spec + len - p))); p++)
		most++;
	c.cap = 2 * len + 2 * most + 1;
	if (cap - l.n < most) {
		struct evspec_req *p = realloc(l.reqs, (l.n + most) * sizeof(*p));

		if (!p)
			return PP_ENOMEM;
		l.reqs = p;
		cap = l.n + most;
		*list = l;	/* the array moved: the caller frees it either way */
	}
	if (!(pool = malloc(sizeof(*pool) + c.cap)))
		return PP_ENOMEM;
	c.pool = pool->buf;
	while (st == PP_OK) {
		if (spec[c.i] == '{') {
			st = parse_group(&c, &l, &cap);
		} else if (spec[c.i] == '}') {
			st = fail(&c, c.i, "unbalanced '}': no '{' before it");
		} else {
			struct evspec_req r;

			st = parse_event(&c, &r, -1);
			if (st == PP_OK && (st = push(&l, &cap, &r)) != PP_OK)
				req_free(&r);
		}
		if (st != PP_OK || !spec[c.i])
			break;
		if (spec[c.i] != ',')
			st = spec[c.i] == '}' ? fail(&c, c.i, "unbalanced '}': no '{' before it")
			     : fail_char(&c, "unexpected '%c' after an event");
		else if (!spec[++c.i])
			st = fail(&c, c.i - 1, "trailing ',' with no event after it");
	}
	if (st != PP_OK) {
		for (size_t k = n0; k < l.n; k++)
			req_free(&l.reqs[k]);
		l.n = n0;
		l.ngroups = g0;
		free(pool);
	} else {
		pool->next = l.pools;
		l.pools = pool;
	}
	*list = l;
	return st;
}

void evspec_free(struct evspec_list *list)
{
	for (size_t k = 0; k < list->n; k++)
		req_free(&list->reqs[k]);
	free(list->reqs);
	while (list->pools) {
		struct evspec_pool *next = list->pools->next;

		free(list->pools);
		list->pools = next;
	}
	memset(list, 0, sizeof(*list));
}

const char *evspec_mods_str(unsigned mods, char *buf)
{
	char *p = buf;

	for (size_t b = 0; mod_letters[b]; b++)
		if (mods & (1u << b))
			*p++ = mod_letters[b];
	*p = '\0';
	return buf;
}
