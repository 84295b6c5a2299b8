/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_layout.c: the checked records as offsets and indexes: string pool, events, sets. */
#include <stdlib.h>
#include <string.h>

#include "evgen.h"
#include "evtab_hash.h"

/* Equal strings share one place in the pool (descriptions and own-event names repeat across
 * cores, formulas across revisions). */

static size_t hash(const char *s)
{
	size_t h = 2166136261u;	/* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void rehash(struct evgen_pool *p)
{
	struct evgen_strtab *t = &p->strtab;
	uint32_t *old = t->slots;
	size_t nold = t->nslots;
	t->nslots = nold ? nold * 2 : 1024;
	t->slots = evgen_calloc(t->nslots, sizeof(*t->slots));
	for (size_t i = 0; i < nold; i++) {
		size_t k;
		if (!old[i])
			continue;
		k = hash(p->str + old[i] - 1) & (t->nslots - 1);
		while (t->slots[k])
			k = (k + 1) & (t->nslots - 1);
		t->slots[k] = old[i];
	}
	free(old);
}

uint32_t evgen_pool_add(struct evgen_pool *p, const char *s)
{
	struct evgen_strtab *t = &p->strtab;
	size_t len = strlen(s) + 1, k;
	if (2 * (t->used + 1) > t->nslots)
		rehash(p);
	for (k = hash(s) & (t->nslots - 1); t->slots[k]; k = (k + 1) & (t->nslots - 1))
		if (!strcmp(p->str + t->slots[k] - 1, s))
			return t->slots[k] - 1;
	while (p->nstr + len > p->capstr)
		p->str = evgen_grow(p->str, &p->capstr, p->capstr, 1);
	memcpy(p->str + p->nstr, s, len);
	t->slots[k] = (uint32_t)p->nstr + 1;
	t->used++;
	p->nstr += len;
	return t->slots[k] - 1;
}

void evgen_pool_free(struct evgen_pool *p)
{
	free(p->str);
	free(p->strtab.slots);
	memset(p, 0, sizeof(*p));
}

uint32_t evgen_intern(struct evgen_out *out, const char *s)
{
	return evgen_pool_add(&out->pool, s);
}

static void place_event(struct evgen_out *out, struct evgen_ev *e)
{
	e->index = (int)out->nevents++;
	e->name_at = evgen_intern(out, e->name);
}

/* Appends the event indexes of set (n events) to the run array *a (*na used, *cap room). */
static void add_run(uint16_t **a, size_t *na, size_t *cap, const struct evgen_ev **set, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		*a = evgen_grow(*a, cap, *na, sizeof(**a));
		(*a)[(*na)++] = (uint16_t)set[i]->index;
	}
}

/* Appends a set's hash of its names to the hash array: nslots slots, a quarter of them or
 * more left free (a lookup reads about two), each an event index + 1 or 0 for a free one,
 * placed by linear probing from evtab_hash(name) % nslots. */
static void add_hash(struct evgen_out *out, struct evgen_set *s, const struct evgen_ev **set,
		     size_t n)
{
	size_t i;

	s->nslots = n + n / 3 + 1;
	s->hash = out->nhash;
	for (i = 0; i < s->nslots; i++) {
		out->hash = evgen_grow(out->hash, &out->caphash, out->nhash, sizeof(*out->hash));
		out->hash[out->nhash++] = 0;
	}
	for (i = 0; i < n; i++) {
		size_t k = evtab_hash(set[i]->name) % s->nslots;

		while (out->hash[s->hash + k])
			k = k + 1 < s->nslots ? k + 1 : 0;
		out->hash[s->hash + k] = (uint16_t)(set[i]->index + 1);
	}
}

/* Appends a set's runs, by name and by code, and its names' hash to their arrays. */
static void place_set(struct evgen_out *out, struct evgen_set *s, const struct evgen_ev **set,
		      size_t n)
{
	s->n = n;
	qsort(set, n, sizeof(*set), evgen_by_name);
	s->by_name = out->nby_name;
	add_run(&out->by_name, &out->nby_name, &out->capby_name, set, n);
	qsort(set, n, sizeof(*set), evgen_by_code);
	s->by_code = out->nby_code;
	add_run(&out->by_code, &out->nby_code, &out->capby_code, set, n);
	add_hash(out, s, set, n);
}

static int midr_cmp(const void *a, const void *b)
{
	unsigned kx = ((const struct evgen_midr *)a)->key, ky = ((const struct evgen_midr *)b)->key;
	return (kx > ky) - (kx < ky);
}

static void place_sets(struct evgen_db *db, struct evgen_out *out)
{
	const struct evgen_ev **set;
	size_t i, most = db->ncommons;
	for (i = 0; i < db->ncores; i++)
		if (db->cores[i].nrefs + db->cores[i].nown > most)
			most = db->cores[i].nrefs + db->cores[i].nown;
	set = evgen_calloc(most + 1, sizeof(*set));
	out->sets = evgen_calloc(db->ncores + 1, sizeof(*out->sets));
	for (i = 0; i < db->ncommons; i++)
		set[i] = &db->commons[i];
	place_set(out, &out->sets[0], set, db->ncommons);
	for (i = 0; i < db->ncores; i++)
		place_set(out, &out->sets[1 + i], set, evgen_core_set(&db->cores[i], set));
	free(set);
}

void evgen_layout(struct evgen_db *db, char **files, int nfiles, struct evgen_out *out)
{
	size_t i, j;
	memset(out, 0, sizeof(*out));
	out->db = db;
	out->files = files;
	out->nfiles = nfiles;
	/* The event pool: the common events, then each core's own, in the order of the input;
	 * the string pool: their names first. */
	for (i = 0; i < db->ncommons; i++)
		place_event(out, &db->commons[i]);
	for (i = 0; i < db->ncores; i++)
		for (j = 0; j < db->cores[i].nown; j++)
			place_event(out, &db->cores[i].own[j]);
	for (i = 0; i < db->ncores; i++) {
		struct evgen_core *c = &db->cores[i];
		c->id_at = evgen_intern(out, c->id);
		c->title_at = evgen_intern(out, c->title);
		c->arch_at = evgen_intern(out, c->arch);
	}
	place_sets(db, out);
	/* the cores' own MIDRs; a vendor's (aliases.tsv) is looked up in its rows, with their
	 * revisions */
	out->midrs = evgen_calloc(db->ncores + 1, sizeof(*out->midrs));
	for (i = 0; i < db->ncores; i++)
		out->midrs[out->nmidrs++] = (struct evgen_midr){
			db->cores[i].impl << 12 | db->cores[i].part, i };
	qsort(out->midrs, out->nmidrs, sizeof(*out->midrs), midr_cmp);
	evgen_layout_metrics(db, out);
	/* The descriptions last. (tools/evgen_emit.c places the strings anew, by what reads
	 * them: this pool is where the rows name them.) */
	for (i = 0; i < db->ncommons; i++)
		db->commons[i].desc_at = evgen_intern(out, db->commons[i].desc);
	for (i = 0; i < db->ncores; i++)
		for (j = 0; j < db->cores[i].nown; j++)
			db->cores[i].own[j].desc_at = evgen_intern(out, db->cores[i].own[j].desc);
}

void evgen_layout_free(struct evgen_out *out)
{
	evgen_pool_free(&out->pool);
	free(out->by_name);
	free(out->by_code);
	free(out->hash);
	free(out->sets);
	free(out->midrs);
	free(out->msets);
	free(out->metrics);
	free(out->groups);
	free(out->mcode);
	free(out->mevents);
	free(out->members);
	memset(out, 0, sizeof(*out));
}
