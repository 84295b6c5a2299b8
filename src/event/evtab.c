/* SPDX-License-Identifier: Apache-2.0 */
/* src/event/evtab.c: the generated event tables' accessors and lookups (by name, code, core
 * name, MIDR). */
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "evtab.h"
#include "evtab_data.h"
#include "evtab_hash.h"

/* Longest event or core name a caller can mean; anything longer is not in the tables. */
#define NAME_MAX_LEN 64

/* The set of events of a core (NULL: the common set). The core pointer must come from this
 * module (evtab_core_at / _by_name / _by_midr); anything else gets the common set. */
static const struct evtab_gen_set *set_of(const struct evtab_core *core)
{
	if (core && core >= evtab_gen.cores && core < evtab_gen.cores + evtab_gen.ncores)
		return &evtab_gen.sets[1 + (core - evtab_gen.cores)];
	return &evtab_gen.sets[0];
}

/* A string of the tables' pool. */
static const char *str(uint32_t at)
{
	return evtab_gen.str + at;
}

/* Set s's runs: its names' hash, then its numbers by code, then by name. */
static const uint16_t *runs(const struct evtab_gen_set *s)
{
	return evtab_at(s->runs);
}

/* Event number v of set s: a common event, or one of the set's own. */
static const struct evtab_event *event_of(const struct evtab_gen_set *s, unsigned v)
{
	if (v < evtab_gen.ncommon)
		return &evtab_gen.common.ev[v];
	return (const struct evtab_event *)evtab_at(s->ev) + (v - evtab_gen.ncommon);
}

const char *evtab_event_name(const struct evtab_event *e)
{
	return (const char *)e + e->name;	/* its chunk's names follow its events */
}

const char *evtab_event_desc(const struct evtab_event *e)
{
	return str((uint32_t)e->desc_hi << 16 | e->desc_lo);
}

unsigned evtab_event_code(const struct evtab_event *e)
{
	return e->code;
}

enum evtab_class evtab_event_class(const struct evtab_event *e)
{
	return (enum evtab_class)e->cls;
}

const char *evtab_core_name(const struct evtab_core *c)
{
	return str(c->name);
}

const char *evtab_core_title(const struct evtab_core *c)
{
	return str(c->title);
}

const char *evtab_core_arch(const struct evtab_core *c)
{
	return str(c->arch);
}

unsigned evtab_core_implementer(const struct evtab_core *c)
{
	return c->implementer;
}

unsigned evtab_core_part(const struct evtab_core *c)
{
	return c->part;
}

int evtab_core_counters(const struct evtab_core *c)
{
	return c->counters;
}

int evtab_core_slots(const struct evtab_core *c)
{
	return c->slots;
}

size_t evtab_ncores(void)
{
	return evtab_gen.ncores;
}

const struct evtab_core *evtab_core_at(size_t i)
{
	return i < evtab_gen.ncores ? &evtab_gen.cores[i] : NULL;
}

size_t evtab_nevents(const struct evtab_core *core)
{
	return set_of(core)->n;
}

const struct evtab_event *evtab_event_at(const struct evtab_core *core, size_t i)
{
	const struct evtab_gen_set *s = set_of(core);
	return i < s->n ? event_of(s, runs(s)[s->nslots + s->n + i]) : NULL;
}

/* Whether name (any case) is the table's upper-case spelling t. */
static int same_name(const char *name, const char *t)
{
	for (; *t; name++, t++)
		if ((unsigned char)*name != (unsigned char)*t &&
		    ascii_toupper((unsigned char)*name) != (unsigned char)*t)
			return 0;
	return !*name;
}

const struct evtab_event *evtab_find_name(const struct evtab_core *core, const char *name)
{
	const struct evtab_gen_set *s = set_of(core);
	const uint16_t *slot = runs(s);
	uint32_t h = EVTAB_HASH_INIT;
	size_t k;

	if (!name)
		return NULL;
	for (const char *p = name; *p; p++)
		h = evtab_hash_step(h, (unsigned char)*p);
	/* the generator left a quarter of the slots free: the probe ends at one */
	for (k = evtab_hash_end(h) % s->nslots; slot[k]; k = k + 1 < s->nslots ? k + 1 : 0) {
		const struct evtab_event *e = event_of(s, slot[k] - 1u);

		if (same_name(name, evtab_event_name(e)))
			return e;
	}
	return NULL;
}

const struct evtab_event *evtab_find_code(const struct evtab_core *core, unsigned code)
{
	const struct evtab_gen_set *s = set_of(core);
	const uint16_t *run = runs(s) + s->nslots;
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct evtab_event *e = event_of(s, run[mid]);
		if (e->code == code)
			return e;
		if (code < e->code)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Lower-cases name and spells the separators '_' and ' ' as '-': "Neoverse_N1" -> "neoverse-n1". */
static int normalize(const char *name, char *buf, size_t size)
{
	size_t i;
	for (i = 0; name[i]; i++) {
		char c = (char)ascii_tolower((unsigned char)name[i]);
		if (i + 1 >= size)
			return 0;
		buf[i] = (c == '_' || c == ' ') ? '-' : c;
	}
	buf[i] = '\0';
	return 1;
}

/* The id without its family prefix ("cortex-a57" -> "a57"), or the id itself. */
static const char *short_id(const char *id)
{
	static const char *const families[] = { "cortex-", "neoverse-" };
	size_t i;
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		size_t n = strlen(families[i]);
		if (strncmp(id, families[i], n) == 0)
			return id + n;
	}
	return id;
}

int evtab_model_revision(const char *model)
{
	const char *s = model ? strchr(model, ':') : NULL;
	unsigned v = 0, r = 0;
	int nv = 0, nr = 0;

	if (!s)
		return -1;
	if (*++s != 'r' && *s != 'R')
		return -2;
	for (s++; ascii_isdigit((unsigned char)*s) && nv < 3; s++, nv++)
		v = v * 10 + (unsigned)(*s - '0');
	if (!nv || (*s != 'p' && *s != 'P'))
		return -2;
	for (s++; ascii_isdigit((unsigned char)*s) && nr < 3; s++, nr++)
		r = r * 10 + (unsigned)(*s - '0');
	if (!nr || *s || v > 15 || r > 15)
		return -2;
	return (int)(v << 4 | r);
}

const struct evtab_core *evtab_core_by_name(const char *name)
{
	char key[NAME_MAX_LEN + 1], base[NAME_MAX_LEN + 1];
	const char *colon = name ? strchr(name, ':') : NULL;
	size_t i;

	if (colon) {	/* "neoverse-n2:r0p3": the core, if the revision is well formed */
		if (evtab_model_revision(name) < 0 || (size_t)(colon - name) > NAME_MAX_LEN)
			return NULL;
		memcpy(base, name, (size_t)(colon - name));
		base[colon - name] = '\0';
		name = base;
	}
	if (!name || !*name || !normalize(name, key, sizeof(key)))
		return NULL;
	/* Ids are unique and so are their short forms; ~40 cores: a scan costs nothing. */
	for (i = 0; i < evtab_gen.ncores; i++) {
		const char *id = str(evtab_gen.cores[i].name);
		if (!strcmp(key, id) || !strcmp(key, short_id(id)))
			return &evtab_gen.cores[i];
	}
	return NULL;
}

static int midr_cmp(const void *key, const void *elem)
{
	uint32_t k = *(const uint32_t *)key, e = ((const struct evtab_gen_midr *)elem)->key;
	return (k > e) - (k < e);
}

/* MIDR_EL1: Implementer [31:24], Variant [23:20], Architecture [19:16], PartNum [15:4],
 * Revision [3:0]; a core model is the implementer and part number. A vendor's MIDR of an Arm
 * core (events/aliases.tsv, "midr") may hold for some revisions only: Qualcomm numbers its
 * Kryo 4xx Gold's revisions from rcpe, where the Cortex-A76's start at r0p0. */
const struct evtab_core *evtab_core_by_midr(uint64_t midr)
{
	uint32_t key = EVTAB_GEN_MIDR_KEY((midr >> 24) & 0xFF, (midr >> 4) & 0xFFF);
	unsigned rev = (unsigned)((midr >> 16 & 0xF0) | (midr & 0xF));
	const struct evtab_gen_midr *m;

	m = bsearch(&key, evtab_gen.midrs, evtab_gen.nmidrs, sizeof(*m), midr_cmp);
	if (m)
		return &evtab_gen.cores[m->core];
	for (unsigned i = 0; i < evtab_gen_naliases; i++) {	/* a dozen rows: a scan */
		const struct evtab_gen_alias *a = &evtab_gen_aliases[i];

		if (a->use == 0 && EVTAB_GEN_MIDR_KEY(a->impl, a->part) == key && a->lo <= rev &&
		    rev <= a->hi)
			return &evtab_gen.cores[a->core];
	}
	return NULL;
}

size_t evtab_nalias(void)
{
	return evtab_gen_naliases;
}

int evtab_alias_at(size_t i, struct evtab_alias *a)
{
	static const char *const uses[] = { "midr", "same", "metrics" };
	const struct evtab_gen_alias *g;

	if (i >= evtab_gen_naliases)
		return -1;
	g = &evtab_gen_aliases[i];
	*a = (struct evtab_alias){ g->impl, g->part, g->lo, g->hi, &evtab_gen.cores[g->core],
				   uses[g->use % 3], g->name, g->source };
	return 0;
}
