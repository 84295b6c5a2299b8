/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_aliases.c: events/aliases.tsv, the vendor MIDRs of Arm cores: read, checked
 * against the cores, and turned into MIDR aliases, metric sets and the listed rows. */
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

#define NFIELDS 7	/* implementer, part, revisions, core, use, name, source */

static const char *const uses[] = { "midr", "same", "metrics" };

/* "*" (every revision) or "rXpY-rXpY" -> lo, hi as variant << 4 | revision; -1 if neither. */
static int parse_revs(const char *s, unsigned *lo, unsigned *hi)
{
	unsigned v1, r1, v2, r2;
	char end;

	if (!strcmp(s, "*")) {
		*lo = 0;
		*hi = 0xff;
		return 0;
	}
	if (sscanf(s, "r%up%u-r%up%u%c", &v1, &r1, &v2, &r2, &end) != 4 || v1 > 15 || r1 > 15 ||
	    v2 > 15 || r2 > 15 || (v1 << 4 | r1) > (v2 << 4 | r2))
		return -1;
	*lo = v1 << 4 | r1;
	*hi = v2 << 4 | r2;
	return 0;
}

/* Splits line at runs of tabs (spaces belong to a field: names and sources have them). */
static int split_tabs(char *line, char **f)
{
	int n = 0;

	for (char *p = line; *p && n < NFIELDS;) {
		f[n++] = p;
		p += strcspn(p, "\t");
		if (*p)
			*p++ = '\0';
		p += strspn(p, "\t");
	}
	return n;
}

static void add_row(struct evgen_db *db, const char *file, int line, char **f)
{
	struct evgen_valias a = { .file = file, .line = line, .use = -1 };
	char *end1, *end2;
	long impl = strtol(f[0], &end1, 16), part = strtol(f[1], &end2, 16);

	for (int u = 0; u < 3; u++)
		if (!strcmp(f[4], uses[u]))
			a.use = u;
	if (strncmp(f[0], "0x", 2) || *end1 || impl < 1 || impl > 0xff || strncmp(f[1], "0x", 2) ||
	    *end2 || part < 0 || part > 0xfff)
		evgen_error(db, file, line, "implementer and part are 0x and hex: 0x6d 0xd49");
	else if (parse_revs(f[2], &a.lo, &a.hi))
		evgen_error(db, file, line, "revisions are '*' or a range such as r12p14-r15p15");
	else if (a.use < 0)
		evgen_error(db, file, line, "use '%s' is none of midr, same, metrics", f[4]);
	else if (strlen(f[5]) > 47 || strlen(f[6]) > 159)
		evgen_error(db, file, line, "a name is at most 47 characters, a source 159");
	else if (!evgen_check_text(db, file, line, "name", f[5]) &&
		 !evgen_check_text(db, file, line, "source", f[6])) {
		a.impl = (unsigned)impl;
		a.part = (unsigned)part;
		a.core = evgen_strdup(f[3]);
		a.name = evgen_strdup(f[5]);
		a.source = evgen_strdup(f[6]);
		db->valiases = evgen_grow(db->valiases, &db->capvaliases, db->nvaliases,
					  sizeof(*db->valiases));
		db->valiases[db->nvaliases++] = a;
	}
}

void evgen_read_aliases(struct evgen_db *db, const char *file)
{
	char buf[EVGEN_MAX_LINE + 2], *f[NFIELDS];
	FILE *in = fopen(file, "r");
	int line = 0;

	if (!in) {
		evgen_error(db, file, 0, "cannot open it");
		return;
	}
	while (fgets(buf, sizeof(buf), in)) {
		line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		if (!buf[0] || buf[0] == '#')
			continue;
		if (split_tabs(buf, f) != NFIELDS)
			evgen_error(db, file, line, "a row has %d tab-separated fields: implementer, "
				    "part, revisions, core, use, name, source", NFIELDS);
		else
			add_row(db, file, line, f);
	}
	fclose(in);
}

static struct evgen_core *core_of(struct evgen_db *db, const char *id)
{
	for (size_t i = 0; i < db->ncores; i++)
		if (!strcmp(db->cores[i].id, id))
			return &db->cores[i];
	return NULL;
}

static struct evgen_core *core_at_midr(struct evgen_db *db, unsigned impl, unsigned part)
{
	for (size_t i = 0; i < db->ncores; i++)
		if (db->cores[i].has_midr && db->cores[i].impl == impl && db->cores[i].part == part)
			return &db->cores[i];
	return NULL;
}

/* "metrics": the core at the row's MIDR takes a copy of each metrics file of the row's core,
 * so that the metric checks hold its formulas against that core's own events. */
static void clone_metrics(struct evgen_db *db, const struct evgen_core *to, const char *from)
{
	size_t n = db->nmfiles;

	for (size_t i = 0; i < n; i++) {
		struct evgen_mfile m = db->mfiles[i];

		if (!m.core || strcmp(m.core, from))
			continue;
		m.core = to->id;
		m.metrics = evgen_calloc(m.nmetrics + 1, sizeof(*m.metrics));
		memcpy(m.metrics, db->mfiles[i].metrics, m.nmetrics * sizeof(*m.metrics));
		m.groups = evgen_calloc(m.ngroups + 1, sizeof(*m.groups));
		memcpy(m.groups, db->mfiles[i].groups, m.ngroups * sizeof(*m.groups));
		m.capmetrics = m.nmetrics;
		m.capgroups = m.ngroups;
		db->mfiles = evgen_grow(db->mfiles, &db->capmfiles, db->nmfiles, sizeof(*db->mfiles));
		db->mfiles[db->nmfiles++] = m;
	}
}

static void check_row(struct evgen_db *db, struct evgen_valias *a)
{
	struct evgen_core *c = core_of(db, a->core), *at = core_at_midr(db, a->impl, a->part);

	if (!c) {
		evgen_error(db, a->file, a->line, "no core '%s' in events/cores", a->core);
		return;
	}
	a->core_at = (size_t)(c - db->cores);
	if (a->use == EVGEN_ALIAS_MIDR) {
		c->aliases = evgen_grow(c->aliases, &c->capaliases, c->naliases,
					sizeof(*c->aliases));
		c->aliases[c->naliases++] = (struct evgen_alias){ a->impl, a->part, a->file, a->line };
	} else if (a->use == EVGEN_ALIAS_SAME && at != c)
		evgen_error(db, a->file, a->line, "'same': 0x%02x/0x%03x is not %s's MIDR", a->impl,
			    a->part, c->id);
	else if (a->use == EVGEN_ALIAS_METRICS && (!at || at == c))
		evgen_error(db, a->file, a->line, "'metrics': 0x%02x/0x%03x is no core but %s's "
			    "own", a->impl, a->part, c->id);
	else if (a->use == EVGEN_ALIAS_METRICS)
		clone_metrics(db, at, c->id);
}

void evgen_check_aliases(struct evgen_db *db)
{
	for (size_t i = 0; i < db->nvaliases; i++)
		check_row(db, &db->valiases[i]);
	evgen_check_midr_aliases(db);
}

/* Fixed-size strings, not pointers: the generated tables need no relocation. */
void evgen_emit_aliases(FILE *o, const struct evgen_out *out)
{
	const struct evgen_db *db = out->db;

	fprintf(o, "const struct evtab_gen_alias evtab_gen_aliases[%zu] = {\n", db->nvaliases + 1);
	for (size_t i = 0; i < db->nvaliases; i++) {
		const struct evgen_valias *a = &db->valiases[i];

		fprintf(o, "\t{ 0x%02x, 0x%03x, 0x%02x, 0x%02x, %d, %zu, \"%s\", \"%s\" },\n",
			a->impl, a->part, a->lo, a->hi, a->use, a->core_at, a->name, a->source);
	}
	fprintf(o, "};\nconst unsigned evtab_gen_naliases = %zu;\n", db->nvaliases);
}
