/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_mcheck.c: the checks of the metrics files: a known core and revisions that do not
 * overlap, each metric's fields, each formula parsed by src/metrics/mexpr.c with every name an event of
 * that core (or, in the generic file, a common event), groups and top-down links that name
 * metrics and groups of the same file. Every problem is reported with FILE:LINE. */
#include <stdlib.h>
#include <string.h>

#include "evgen.h"
#include "mexpr.h"

/* What a formula's names are checked against, and the names it uses. */
struct names {
	struct evgen_db *db;
	const struct evgen_mfile *m;
	struct evgen_metric *x;
	const struct evgen_ev **set;	/* the core's events (or the common ones) by name */
	size_t nset;
};

static int by_name_key(const void *k, const void *e)
{
	return strcmp(k, (*(const struct evgen_ev *const *)e)->name);
}

/* Whether any core (or the common events) has an event of this name. */
static int known_anywhere(const struct evgen_db *db, const char *n)
{
	for (size_t i = 0; i < db->ncommons; i++)
		if (!strcmp(db->commons[i].name, n))
			return 1;
	for (size_t i = 0; i < db->ncores; i++)
		for (size_t j = 0; j < db->cores[i].nown; j++)
			if (!strcmp(db->cores[i].own[j].name, n))
				return 1;
	return 0;
}

static void add_event(struct evgen_metric *x, const char *n)
{
	size_t at = 0, cap = x->nevents;

	while (at < x->nevents && strcmp(x->events[at], n) < 0)
		at++;
	if (at < x->nevents && !strcmp(x->events[at], n))
		return;
	x->events = evgen_grow(x->events, &cap, x->nevents, sizeof(*x->events));
	memmove(x->events + at + 1, x->events + at, (x->nevents - at) * sizeof(*x->events));
	x->events[at] = evgen_strdup(n);
	x->nevents++;
}

/* mexpr's lookup: every name is given the value 1 and checked here, so that all the bad names
 * of a formula are reported, not only the first. */
static enum mexpr_status check_name(void *ctx, const char *name, size_t len, double *v)
{
	struct names *c = ctx;
	char n[EVGEN_MAX_NAME + 1];
	const char *where = c->m->core ? c->m->core : "the common events";

	*v = 1;
	if (len > EVGEN_MAX_NAME) {
		evgen_error(c->db, c->m->file, c->x->formula_line, "formula of %s: name '%.*s...' "
			    "is too long", c->x->name, EVGEN_MAX_NAME, name);
		return MEXPR_OK;
	}
	memcpy(n, name, len);
	n[len] = '\0';
	if (!c->x->first)	/* mexpr reads the names in the formula's order */
		c->x->first = evgen_strdup(n);
	if (bsearch(n, c->set, c->nset, sizeof(*c->set), by_name_key))
		add_event(c->x, n);
	else if (known_anywhere(c->db, n))
		evgen_error(c->db, c->m->file, c->x->formula_line, "formula of %s: event '%s' is "
			    "not an event of %s", c->x->name, n, where);
	else
		evgen_error(c->db, c->m->file, c->x->formula_line, "formula of %s: unknown "
			    "identifier '%s' (not an event of %s)", c->x->name, n, where);
	return MEXPR_OK;
}

/* mexpr_compile's input numbers: a name's place among the formula's events (sorted). */
static int input_number(void *ctx, const char *name, size_t len)
{
	const struct evgen_metric *x = ctx;

	for (size_t i = 0; i < x->nevents; i++)
		if (strlen(x->events[i]) == len && !memcmp(x->events[i], name, len))
			return (int)i;
	return -1;
}

static void check_metric(struct names *c, struct evgen_metric *x)
{
	struct mexpr_error err;
	unsigned char code[1024];
	int errors = c->db->nerrors;
	static const char *const need[] = { "title", "unit", "formula" };
	const char *have[] = { x->title, x->unit, x->formula };

	for (size_t k = 0; k < 3; k++)
		if (!have[k])
			evgen_error(c->db, x->file, x->line, "metric %s has no '%s' line", x->name,
				    need[k]);
	if (!x->formula)
		return;
	c->x = x;
	mexpr_eval(x->formula, check_name, c, &err);
	if (err.status == MEXPR_SYNTAX)
		evgen_error(c->db, x->file, x->formula_line, "formula of %s: syntax error at "
			    "column %zu of '%s'", x->name, err.column, x->formula);
	else if (x->nevents > MEXPR_MAX_EVENTS)
		evgen_error(c->db, x->file, x->formula_line, "formula of %s names %zu events; a "
			    "metric may name at most %d", x->name, x->nevents, MEXPR_MAX_EVENTS);
	if (c->db->nerrors != errors)
		return;
	x->ncode = mexpr_compile(x->formula, input_number, x, code, sizeof(code));
	if (!x->ncode) {
		evgen_error(c->db, x->file, x->formula_line, "formula of %s cannot be compiled: a "
			    "number that is not a whole number below 65536, or more than %d values "
			    "held at once (mexpr.h)", x->name, MEXPR_STACK);
		return;
	}
	x->code = evgen_calloc(x->ncode, 1);
	memcpy(x->code, code, x->ncode);
}

static int metric_cmp(const void *a, const void *b)
{
	return strcmp(((const struct evgen_metric *)a)->name,
		      ((const struct evgen_metric *)b)->name);
}

static long find_metric(const struct evgen_mfile *m, const char *n)
{
	for (size_t i = 0; i < m->nmetrics; i++)
		if (!strcmp(m->metrics[i].name, n))
			return (long)i;
	return -1;
}

static long find_group(const struct evgen_mfile *m, const char *n)
{
	for (size_t i = 0; i < m->ngroups; i++)
		if (!strcmp(m->groups[i].name, n))
			return (long)i;
	return -1;
}

static void check_group(struct evgen_db *db, struct evgen_mfile *m, struct evgen_group *g)
{
	char *list, *p, *n;
	size_t cap = 0;

	if (!g->title)
		evgen_error(db, g->file, g->line, "group %s has no 'title' line", g->name);
	if (!g->members) {
		evgen_error(db, g->file, g->line, "group %s has no 'metrics' line", g->name);
		return;
	}
	p = list = evgen_strdup(g->members);
	while ((n = evgen_next_field(&p))) {
		long i = find_metric(m, n);

		if (i < 0) {
			evgen_error(db, g->file, g->members_line, "group %s: no metric '%s' in this "
				    "file", g->name, n);
			continue;
		}
		g->member = evgen_grow(g->member, &cap, g->nmember, sizeof(*g->member));
		g->member[g->nmember++] = (size_t)i;
	}
	free(list);
}

/* Each name of a metric's "next" line is a metric or a group of the same file. */
static void check_next(struct evgen_db *db, const struct evgen_mfile *m,
		       const struct evgen_metric *x)
{
	char *list, *p, *n;

	if (!x->next)
		return;
	p = list = evgen_strdup(x->next);
	while ((n = evgen_next_field(&p)))
		if (find_metric(m, n) < 0 && find_group(m, n) < 0)
			evgen_error(db, x->file, x->next_line, "metric %s: next names '%s', neither "
				    "a metric nor a group of this file", x->name, n);
	free(list);
}

/* The file's core and its revisions, which no other file of that core may share. */
static void check_core(struct evgen_db *db, struct evgen_mfile *m, size_t k)
{
	size_t i;

	for (i = 0; i < db->ncores && strcmp(db->cores[i].id, m->core); i++)
		;
	if (i == db->ncores) {
		evgen_error(db, m->file, m->line, "no core '%s' in events/cores", m->core);
		m->core = NULL;
		return;
	}
	m->core_at = i;
	for (size_t j = 0; j < k; j++)
		if (db->mfiles[j].core && !strcmp(db->mfiles[j].core, m->core) &&
		    m->lo <= db->mfiles[j].hi && db->mfiles[j].lo <= m->hi)
			evgen_error(db, m->file, m->line, "revisions of %s overlap those of %s",
				    m->core, db->mfiles[j].file);
}

static void check_file(struct evgen_db *db, struct evgen_mfile *m, size_t k)
{
	struct names c = { .db = db, .m = m };
	size_t i;

	if (m->core)
		check_core(db, m, k);
	else if (m->lo != 0 || m->hi != 0xff)
		evgen_error(db, m->file, m->line, "'revisions' without 'core': the generic "
			    "metrics hold for every revision");
	if (m->core) {
		const struct evgen_core *core = &db->cores[m->core_at];

		c.set = evgen_calloc(core->nrefs + core->nown + 1, sizeof(*c.set));
		c.nset = evgen_core_set(core, c.set);
	} else {
		c.set = evgen_calloc(db->ncommons + 1, sizeof(*c.set));
		for (i = 0; i < db->ncommons; i++)
			c.set[c.nset++] = &db->commons[i];
	}
	qsort(c.set, c.nset, sizeof(*c.set), evgen_by_name);
	if (m->nmetrics)
		qsort(m->metrics, m->nmetrics, sizeof(*m->metrics), metric_cmp);
	for (i = 0; i < m->nmetrics; i++) {
		if (i && !strcmp(m->metrics[i].name, m->metrics[i - 1].name))
			evgen_error(db, m->file, m->metrics[i].line, "duplicate metric %s (also "
				    "line %d)", m->metrics[i].name, m->metrics[i - 1].line);
		check_metric(&c, &m->metrics[i]);
		check_next(db, m, &m->metrics[i]);
	}
	for (i = 0; i < m->ngroups; i++) {
		if (find_group(m, m->groups[i].name) != (long)i)
			evgen_error(db, m->file, m->groups[i].line, "duplicate group %s",
				    m->groups[i].name);
		check_group(db, m, &m->groups[i]);
	}
	if (!m->nmetrics)
		evgen_error(db, m->file, m->line, "no 'metric' record in this file");
	free(c.set);
}

void evgen_check_metrics(struct evgen_db *db)
{
	const char *generic = NULL;

	for (size_t k = 0; k < db->nmfiles; k++) {
		struct evgen_mfile *m = &db->mfiles[k];

		if (!m->core && generic)
			evgen_error(db, m->file, m->line, "a second file without 'core' (the "
				    "generic metrics are %s)", generic);
		if (!m->core)
			generic = m->file;
		check_file(db, m, k);
	}
}
