/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_check.c: the generator's checks across records: duplicates, references, MIDRs. */
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

/* Ties (duplicates) are broken by place in the input, so messages name the later line. */
static int by_place(const struct evgen_ev *x, const struct evgen_ev *y)
{
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int evgen_by_code(const void *a, const void *b)
{
	const struct evgen_ev *x = *(const struct evgen_ev *const *)a;
	const struct evgen_ev *y = *(const struct evgen_ev *const *)b;
	int c = (x->code > y->code) - (x->code < y->code);
	return c ? c : by_place(x, y);
}

int evgen_by_name(const void *a, const void *b)
{
	const struct evgen_ev *x = *(const struct evgen_ev *const *)a;
	const struct evgen_ev *y = *(const struct evgen_ev *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : by_place(x, y);
}

/* Reports duplicate codes and names in a set of events (pointers, order is changed). */
static void check_dups(struct evgen_db *db, const struct evgen_ev **set, size_t n,
		       const char *where)
{
	size_t i;
	qsort(set, n, sizeof(*set), evgen_by_code);
	for (i = 1; i < n; i++)
		if (set[i]->code == set[i - 1]->code)
			evgen_error(db, set[i]->file, set[i]->line, "duplicate code 0x%04x in %s: %s "
				    "here, %s at %s:%d", set[i]->code, where, set[i]->name,
				    set[i - 1]->name, set[i - 1]->file, set[i - 1]->line);
	qsort(set, n, sizeof(*set), evgen_by_name);
	for (i = 1; i < n; i++)
		if (!strcmp(set[i]->name, set[i - 1]->name))
			evgen_error(db, set[i]->file, set[i]->line, "duplicate name %s in %s (also at "
				    "%s:%d)", set[i]->name, where, set[i - 1]->file, set[i - 1]->line);
}

static const struct evgen_ev *common_by_code(const struct evgen_db *db, unsigned code)
{
	size_t i;
	for (i = 0; i < db->ncommons; i++)
		if (db->commons[i].code == code)
			return &db->commons[i];
	return NULL;
}

static void resolve_refs(struct evgen_db *db, struct evgen_core *c)
{
	size_t i;
	for (i = 0; i < c->nrefs; i++) {
		struct evgen_ref *r = &c->refs[i];
		r->ev = common_by_code(db, r->code);
		if (!r->ev)
			evgen_error(db, r->file, r->line, "unknown common event 0x%04x (%s): not in "
				    "any common event file", r->code, r->name);
		else if (strcmp(r->ev->name, r->name))
			evgen_error(db, r->file, r->line, "common event 0x%04x is %s (%s:%d), not %s",
				    r->code, r->ev->name, r->ev->file, r->ev->line, r->name);
	}
	for (i = 0; i < c->nown; i++) {
		const struct evgen_ev *e = common_by_code(db, c->own[i].code);
		if (e)
			evgen_error(db, c->own[i].file, c->own[i].line, "code 0x%04x is the common "
				    "event %s: write 'uses 0x%04x %s'", e->code, e->name, e->code,
				    e->name);
	}
}

size_t evgen_core_set(const struct evgen_core *c, const struct evgen_ev **set)
{
	size_t i, n = 0;
	for (i = 0; i < c->nrefs; i++)
		if (c->refs[i].ev)
			set[n++] = c->refs[i].ev;
	for (i = 0; i < c->nown; i++)
		set[n++] = &c->own[i];
	return n;
}

static void check_core(struct evgen_db *db, struct evgen_core *c)
{
	const struct evgen_ev **set;
	if (!c->arch)
		evgen_error(db, c->file, c->line, "core %s has no 'architecture' line", c->id);
	if (!c->has_midr)
		evgen_error(db, c->file, c->line, "core %s has no 'midr' line", c->id);
	resolve_refs(db, c);
	set = evgen_calloc(c->nrefs + c->nown + 1, sizeof(*set));
	check_dups(db, set, evgen_core_set(c, set), c->id);
	free(set);
}

/* An alias must name no other core's MIDR, nor another alias's. */
void evgen_check_midr_aliases(struct evgen_db *db)
{
	for (size_t i = 0; i < db->ncores; i++)
		for (size_t a = 0; a < db->cores[i].naliases; a++) {
			const struct evgen_alias *al = &db->cores[i].aliases[a];

			for (size_t j = 0; j < db->ncores; j++) {
				const struct evgen_core *o = &db->cores[j];

				if (o->has_midr && o->impl == al->impl && o->part == al->part)
					evgen_error(db, al->file, al->line, "alias MIDR 0x%02x/0x%03x "
						    "is %s's own MIDR", al->impl, al->part, o->id);
				for (size_t b = 0; b < o->naliases && (j < i || b < a); b++)
					if (o->aliases[b].impl == al->impl &&
					    o->aliases[b].part == al->part)
						evgen_error(db, al->file, al->line, "alias MIDR "
							    "0x%02x/0x%03x also names %s", al->impl,
							    al->part, o->id);
			}
		}
}

static int core_cmp(const void *a, const void *b)
{
	return strcmp(((const struct evgen_core *)a)->id, ((const struct evgen_core *)b)->id);
}

void evgen_check(struct evgen_db *db)
{
	const struct evgen_ev **set = evgen_calloc(db->ncommons + 1, sizeof(*set));
	struct evgen_core *cs = db->cores;
	size_t i, j;
	for (i = 0; i < db->ncommons; i++)
		set[i] = &db->commons[i];
	check_dups(db, set, db->ncommons, "the common events");
	free(set);
	if (db->ncores)
		qsort(cs, db->ncores, sizeof(*cs), core_cmp);
	for (i = 0; i < db->ncores; i++) {
		check_core(db, &cs[i]);
		for (j = 0; j < i; j++) {
			if (!strcmp(cs[i].id, cs[j].id))
				evgen_error(db, cs[i].file, cs[i].line, "duplicate core id %s "
					    "(also %s)", cs[i].id, cs[j].file);
			if (cs[i].has_midr && cs[j].has_midr && cs[i].impl == cs[j].impl &&
			    cs[i].part == cs[j].part)
				evgen_error(db, cs[i].file, cs[i].line, "MIDR 0x%02x/0x%03x also "
					    "belongs to %s", cs[i].impl, cs[i].part, cs[j].id);
		}
	}
}
