/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_emit.c: writes the laid-out tables as C: evtab_data.h (layout), evtab_data.c.
 *
 * One struct holds everything: the head (cores, sets, MIDRs, metric sets), the common events
 * with their names, a chunk per core (its names' hash, its runs by code and by name, its own
 * events and their names, its metric sets with their metrics, events and groups), and one pool
 * of the other strings (cores', metrics' and groups' names, units, formulas, titles and the
 * events' descriptions).
 *
 * The tables hold no pointers (a position-independent pmuprof starts without a relocation for
 * them): places are byte offsets from the start of evtab_gen, written as offsetof expressions
 * the compiler works out, and an event's name is at an offset from the event itself (its
 * chunk's names follow its events), which keeps an event record at 8 bytes. */
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

/* C has no empty arrays: a table with no rows is declared with one, left zero. */
static size_t dim(size_t n)
{
	return n ? n : 1;
}

/* The chunk of core k (or of the common events): what its arrays hold, as emitted. */
struct chunk {
	const struct evgen_set *set;	/* its event set */
	size_t own_start, nown;		/* its own events: global indexes own_start.. */
	struct evgen_pool names;		/* its own events' names (the common names: chunk -1) */
	size_t m0, nm;			/* its metric sets: out->msets[m0 .. m0 + nm) */
	size_t nmetrics, nmevents, ngroups, nmembers, nmcode;
};

struct regions {
	struct evgen_pool str;		/* the strings that are not events' names */
	struct chunk common, *core;	/* core[k]: db->cores[k]'s */
	size_t ncommon;
	size_t *name_at;		/* global event index -> offset in its chunk's names */
	size_t *desc_at;		/* global event index -> offset in str */
	size_t *str_at;			/* out->pool offset -> str offset; -1 when none yet */
};

static struct regions rg;

static const char *ostr(const struct evgen_out *out, uint32_t at)
{
	return out->pool.str + at;
}

/* The offset in the emitted pool of the string at offset at of the generator's pool. */
static size_t str(const struct evgen_out *out, uint32_t at)
{
	if (!rg.str_at) {
		rg.str_at = evgen_calloc(out->pool.nstr + 1, sizeof(*rg.str_at));
		memset(rg.str_at, 0xff, (out->pool.nstr + 1) * sizeof(*rg.str_at));
	}
	if (rg.str_at[at] == (size_t)-1)
		rg.str_at[at] = evgen_pool_add(&rg.str, ostr(out, at));
	return rg.str_at[at];
}

/* The index in its set's chunk of the event with global index g: the common events first,
 * then the core's own. */
static size_t local(const struct chunk *c, size_t g)
{
	return g < rg.ncommon ? g : rg.ncommon + (g - c->own_start);
}

/* The event of c's set whose name is the pool string at, as an offsetof member designator
 * written to buf; 0 when the set has none of that name. */
static int name_place(const struct evgen_out *out, const struct chunk *c, size_t k, uint32_t at,
		      char *buf, size_t len, unsigned *code)
{
	const struct evgen_db *db = out->db;

	/* the core's own first: a common event of that name is then not in its set */
	for (size_t i = 0; c && i < c->nown; i++)
		if (db->cores[k].own[i].name_at == at) {
			snprintf(buf, len, "c%zu.names[%zu]", k, rg.name_at[c->own_start + i]);
			*code = db->cores[k].own[i].code;
			return 1;
		}
	for (size_t g = 0; g < rg.ncommon; g++)
		if (db->commons[g].name_at == at) {
			snprintf(buf, len, "common.names[%zu]", rg.name_at[g]);
			*code = db->commons[g].code;
			return 1;
		}
	return 0;
}

int evgen_layout_fits(const struct evgen_out *out)
{
	const struct evgen_db *db = out->db;
	size_t start = db->ncommons, total = db->ncommons;

	memset(&rg, 0, sizeof(rg));
	rg.ncommon = db->ncommons;
	for (size_t k = 0; k < db->ncores; k++)
		total += db->cores[k].nown;
	rg.name_at = evgen_calloc(total + 1, sizeof(*rg.name_at));
	rg.desc_at = evgen_calloc(total + 1, sizeof(*rg.desc_at));
	rg.core = evgen_calloc(db->ncores + 1, sizeof(*rg.core));
	for (size_t k = 0; k < db->ncores; k++) {
		str(out, db->cores[k].id_at);
		str(out, db->cores[k].title_at);
		str(out, db->cores[k].arch_at);
	}
	rg.common.set = &out->sets[0];
	rg.common.nown = db->ncommons;
	for (size_t g = 0; g < db->ncommons; g++) {
		rg.name_at[g] = evgen_pool_add(&rg.common.names, db->commons[g].name);
		rg.desc_at[g] = str(out, db->commons[g].desc_at);
	}
	for (size_t k = 0; k < db->ncores; k++) {
		struct chunk *c = &rg.core[k];
		const struct evgen_core *co = &db->cores[k];

		c->set = &out->sets[1 + k];
		c->own_start = start;
		c->nown = co->nown;
		for (size_t i = 0; i < co->nown; i++) {
			rg.name_at[start + i] = evgen_pool_add(&c->names, co->own[i].name);
			rg.desc_at[start + i] = str(out, co->own[i].desc_at);
		}
		start += co->nown;
		c->m0 = out->nmsets;
		for (size_t s = 0; s < out->nmsets; s++) {
			const struct evgen_mset *ms = &out->msets[s];

			if (ms->core != k)
				continue;
			if (c->m0 == out->nmsets)
				c->m0 = s;
			c->nm++;
			c->nmetrics += ms->n;
			c->ngroups += ms->ng;
			for (size_t i = 0; i < ms->n; i++) {
				const struct evgen_mrow *r = &out->metrics[ms->first + i];
				char place[64];
				unsigned code;

				for (size_t j = 0; j < r->nevents; j++)
					if (!name_place(out, c, k, out->mevents[r->events + j], place,
							sizeof(place), &code)) {
						fprintf(stderr, "evgen: metric %s of %s names %s, not an "
							"event of the core\n", ostr(out, r->name), co->id,
							ostr(out, out->mevents[r->events + j]));
						return 0;
					}
				c->nmevents += r->nevents;
				c->nmcode += r->ncode;
				str(out, r->name);
				str(out, r->unit);
				str(out, r->formula);
				str(out, r->next);
				str(out, r->title);
			}
			for (size_t i = 0; i < ms->ng; i++) {
				c->nmembers += out->groups[ms->gfirst + i].nmembers;
				str(out, out->groups[ms->gfirst + i].name);
				str(out, out->groups[ms->gfirst + i].title);
			}
		}
		/* a core's metric sets are consecutive (evgen_mlayout.c places them core by core) */
		for (size_t s = c->m0; s < c->m0 + c->nm; s++)
			if (out->msets[s].core != k) {
				fprintf(stderr, "evgen: the metric sets of %s are not consecutive\n",
					co->id);
				return 0;
			}
	}
	/* an event's name is at most 16 bits past it, its description 24 into str */
	for (size_t k = 0; k <= db->ncores; k++) {
		const struct chunk *c = k ? &rg.core[k - 1] : &rg.common;

		if (c->nown * 8 + c->names.nstr > 0xffff) {
			fprintf(stderr, "evgen: %s: its events and their names take %zu bytes, more than "
				"struct evtab_event's 16-bit name offset reaches (tools/evgen_emit.c)\n",
				k ? db->cores[k - 1].id : "the common events", c->nown * 8 + c->names.nstr);
			return 0;
		}
	}
	if (rg.str.nstr > 0xffffff) {
		fprintf(stderr, "evgen: the string pool (%zu bytes) is wider than struct evtab_event's "
			"24-bit description offset (tools/evgen_emit.c): widen it\n", rg.str.nstr);
		return 0;
	}
	return 1;
}

void evgen_layout_regions_free(void)
{
	evgen_pool_free(&rg.str);
	evgen_pool_free(&rg.common.names);
	for (size_t k = 0; rg.core && rg.core[k].set; k++)
		evgen_pool_free(&rg.core[k].names);
	free(rg.core);
	free(rg.name_at);
	free(rg.desc_at);
	free(rg.str_at);
	memset(&rg, 0, sizeof(rg));
}

static void emit_banner(FILE *o, const struct evgen_out *out)
{
	int i;
	fprintf(o, "/* Generated by tools/evgen: do not edit; edit events/ and rebuild.\n"
		   " * From:\n");
	for (i = 0; i < out->nfiles; i++)
		fprintf(o, " *   %s\n", out->files[i]);
	fprintf(o, " */\n");
}

void evgen_emit_header(FILE *o, const struct evgen_out *out)
{
	const struct evgen_db *db = out->db;

	emit_banner(o, out);
	fputs("/* evtab_data.h: the layout of the generated tables, for src/event/evtab.c and src/metrics/mxtab.c\n"
	      " * only (tools/evgen_emit.c says why they are laid out so).\n"
	      " * The tables hold no pointers, so a position-independent pmuprof starts without a\n"
	      " * relocation for them: places are byte offsets from the start of evtab_gen\n"
	      " * (EVTAB_AT), strings offsets into its pool str. */\n"
	      "#ifndef PMUPROF_EVTAB_DATA_H\n#define PMUPROF_EVTAB_DATA_H\n\n"
	      "#include <stddef.h>\n#include <stdint.h>\n#include \"evtab.h\"\n\n"
	      "/* 8 bytes: the name 16 bits past the event itself (its chunk's names follow its\n"
	      " * events; the generator checks they reach), the description 24 into str. */\n"
	      "struct evtab_event {\n"
	      "\tuint16_t name;\t\t/* upper case as Arm spells it, e.g. \"INST_RETIRED\" */\n"
	      "\tuint16_t code;\t\t/* evtCount, e.g. 0x0008 */\n"
	      "\tuint8_t cls;\t\t/* enum evtab_class */\n"
	      "\tuint8_t desc_hi;\t/* the description at str[desc_hi << 16 | desc_lo] */\n"
	      "\tuint16_t desc_lo;\n};\n\n"
	      "/* name, title, arch: offsets into str */\n"
	      "struct evtab_core {\n"
	      "\tuint32_t name;\t\t/* canonical id, lower case: \"cortex-a57\" */\n"
	      "\tuint32_t title;\t\t/* as Arm names it: \"Cortex-A57\" */\n"
	      "\tuint32_t arch;\t\t/* \"armv8-a\", \"armv8.2-a\", ... */\n"
	      "\tuint16_t part;\t\t/* MIDR_EL1.PartNum */\n"
	      "\tuint8_t implementer;\t/* MIDR_EL1.Implementer, 0x41 for Arm */\n"
	      "\tint8_t counters;\t/* PMCR.N per Arm's data; -1 unknown */\n"
	      "\tuint8_t slots;\t\t/* PMMIR.SLOTS per Arm's data; 0 unknown */\n};\n\n"
	      "/* One event set: n events, numbered from 0: the common events (common.ev[v] for\n"
	      " * v < ncommon), then the set's own (at ev, v - ncommon). At runs: nslots slots of\n"
	      " * the names' hash (evtab_hash.h), each a number + 1, 0 when free (a quarter or more),\n"
	      " * then the n numbers sorted by code, then the n sorted by name. */\n"
	      "struct evtab_gen_set {\n\tuint32_t runs, ev;\n\tuint16_t nslots, n;\n};\n\n"
	      "/* MIDR key (implementer << 12 | part) -> core index, sorted by key. */\n"
	      "struct evtab_gen_midr {\n\tuint32_t key;\n\tuint16_t core;\n};\n\n"
	      "#define EVTAB_GEN_MIDR_KEY(impl, part) "
	      "(((uint32_t)(impl) << 12) | (uint32_t)(part))\n\n"
	      "/* The metric tables (events/metrics): a set is one core's metrics for a range of its\n"
	      " * revisions (variant << 4 | revision, inclusive), or the generic metrics its events\n"
	      " * allow, in the core's chunk: its metrics (sorted by name) at metrics, its groups at\n"
	      " * groups. A metric's events are a run of inputs at events: the place of a name (the\n"
	      " * name of an event of the core's set, so equal names are equal pointers) and that\n"
	      " * event's code, in name order; a group's\n"
	      " * members a run of numbers at members of the set's metrics (at metrics). name, title,\n"
	      " * unit, formula and next are offsets into str. A metric's code is its\n"
	      " * formula compiled (mexpr.h); a set's needs are a bit mask per metric, bit code %% 64\n"
	      " * of each of its events' codes. */\n"
	      "struct mxtab_input {\n\tuint32_t name;\n\tuint16_t code;\n};\n\n"
	      "struct mxtab_metric {\n\tuint32_t name, title, unit, formula, next, events, code;\n"
	      "\tuint8_t nevents;\n\tuint8_t first;\t/* events[first]: the one the formula "
	      "reads first */\n\tuint16_t group;\t/* 1 + the first of the set's groups that "
	      "lists it; 0 none */\n};\n\n"
	      "struct mxtab_group {\n\tuint32_t name, title, metrics, members;\n\tuint16_t nmembers;\n"
	      "\tuint8_t stage;\t\t/* top-down stage 1 or 2; 0 none */\n};\n\n"
	      "struct mxtab_set {\n\tuint32_t metrics, groups, needs;\n"
	      "\tuint16_t nmetrics, ngroups, core;\n"
	      "\tuint8_t lo, hi;\n\tuint8_t generic;\t/* 1: the generic metrics, for a core "
	      "without its own */\n};\n\n", o);
	fprintf(o, "/* sets[0] is the common events; sets[1 + i] is cores[i], whose chunk is c<i>.\n"
		   " * Arrays have at least one element (C has none empty). */\n"
		   "struct evtab_gen {\n"
		   "\tuint16_t nevents, ncores, nmidrs, nmsets, ncommon;\n"
		   "\tstruct evtab_core cores[%zu];\n"
		   "\tstruct evtab_gen_set sets[%zu];\n"
		   "\tstruct evtab_gen_midr midrs[%zu];\n"
		   "\tstruct mxtab_set msets[%zu];\n"
		   "\tstruct {\n\t\tstruct evtab_event ev[%zu];\n\t\tchar names[%zu];\n"
		   "\t\tuint16_t runs[%zu];\n\t} common;\n",
		dim(db->ncores), db->ncores + 1, dim(out->nmidrs), dim(out->nmsets),
		dim(rg.common.nown), dim(rg.common.names.nstr),
		dim(out->sets[0].nslots + 2 * out->sets[0].n));
	for (size_t k = 0; k < db->ncores; k++) {
		const struct chunk *c = &rg.core[k];

		fprintf(o, "\tstruct {\t/* %s */\n"
			   "\t\tuint16_t runs[%zu];\n\t\tstruct evtab_event ev[%zu];\n"
			   "\t\tchar names[%zu];\n\t\tuint64_t mneed[%zu];\n"
			   "\t\tstruct mxtab_metric metrics[%zu];\n"
			   "\t\tstruct mxtab_input mevents[%zu];\n"
			   "\t\tstruct mxtab_group groups[%zu];\n"
			   "\t\tuint16_t members[%zu];\n\t\tuint8_t mcode[%zu];\n\t} c%zu;\n",
			db->cores[k].id, dim(c->set->nslots + 2 * c->set->n), dim(c->nown),
			dim(c->names.nstr), dim(c->nmetrics), dim(c->nmetrics), dim(c->nmevents),
			dim(c->ngroups), dim(c->nmembers), dim(c->nmcode), k);
	}
	fprintf(o, "\tchar str[%zu];\n};\n\n", rg.str.nstr + 1);
	fputs("/* The byte offset of member m of evtab_gen. */\n"
	      "#define EVTAB_AT(m) ((uint32_t)offsetof(struct evtab_gen, m))\n\n"
	      "/* Hidden: the program reaches the tables PC-relative, not through a GOT slot that the\n"
	      " * loader would have to relocate. */\n"
	      "#if defined(__GNUC__)\n__attribute__((visibility(\"hidden\")))\n#endif\n"
	      "extern const struct evtab_gen evtab_gen;\n\n"
	      "/* events/aliases.tsv's rows: a vendor MIDR (revisions variant << 4 | revision,\n"
	      " * inclusive), its use (0 names the core, 1 is the core's own, 2 takes its metrics),\n"
	      " * the core (cores[core]), the vendor's name and the row's source. */\n"
	      "struct evtab_gen_alias {\n\tuint8_t impl;\n\tuint16_t part;\n\tuint8_t lo, hi, use;\n"
	      "\tuint16_t core;\n\tchar name[48];\n\tchar source[160];\n};\n\n"
	      "#if defined(__GNUC__)\n__attribute__((visibility(\"hidden\")))\n#endif\n"
	      "extern const struct evtab_gen_alias evtab_gen_aliases[];\n"
	      "#if defined(__GNUC__)\n__attribute__((visibility(\"hidden\")))\n#endif\n"
	      "extern const unsigned evtab_gen_naliases;\n\n"
	      "/* The table at byte offset at of evtab_gen (EVTAB_AT). */\n"
	      "static inline const void *evtab_at(uint32_t at)\n{\n"
	      "\treturn (const char *)&evtab_gen + at;\n}\n\n#endif\n", o);
}

/* A pool, one string per line, each with its NUL written out (a string literal per line, so
 * the next one's first character never extends the \0 escape). */
static void emit_pool(FILE *o, const char *field, const struct evgen_pool *p, const char *indent)
{
	size_t at = 0;

	fprintf(o, "%s.%s =\n", indent, field);
	if (!p->nstr)
		fprintf(o, "%s\t\"\"", indent);
	while (at < p->nstr) {
		fprintf(o, "%s%s\t\"%s\\0\"", at ? "\n" : "", indent, p->str + at);
		at += strlen(p->str + at) + 1;
	}
	fputs(",\n", o);
}

static const char *cls_name(int cls)
{
	return cls == EVGEN_ARCH ? "EVTAB_ARCH" : cls == EVGEN_UARCH ? "EVTAB_UARCH" : "EVTAB_IMPDEF";
}

/* The events of a chunk: n of them from global index first; record i's name is
 * (n - i) * 8 + its offset in the chunk's names past it. */
static void emit_events(FILE *o, const struct evgen_out *out, const struct evgen_ev *ev,
			size_t n, size_t first)
{
	(void)out;
	fputs("\t\t.ev = {\n", o);
	for (size_t i = 0; i < n; i++) {
		size_t name = (n - i) * 8 + rg.name_at[first + i], desc = rg.desc_at[first + i];

		fprintf(o, "\t\t\t{ %zu, 0x%04x, %s, %zu, %zu },\t/* %s */\n", name, ev[i].code,
			cls_name(ev[i].cls), desc >> 16, desc & 0xffff, ev[i].name);
	}
	fputs("\t\t},\n", o);
}

/* The runs of set s (hash, by code, by name), as numbers of chunk c. */
static void emit_runs(FILE *o, const struct evgen_out *out, const struct evgen_set *s,
		      const struct chunk *c)
{
	size_t k = 0;

	fputs("\t\t.runs = {", o);
	for (size_t i = 0; i < s->nslots; i++, k++) {
		unsigned v = out->hash[s->hash + i];

		fprintf(o, "%s%zu,", k % 12 ? " " : "\n\t\t\t", v ? local(c, v - 1) + 1 : 0);
	}
	for (size_t i = 0; i < s->n; i++, k++)
		fprintf(o, "%s%zu,", k % 12 ? " " : "\n\t\t\t", local(c, out->by_code[s->by_code + i]));
	for (size_t i = 0; i < s->n; i++, k++)
		fprintf(o, "%s%zu,", k % 12 ? " " : "\n\t\t\t", local(c, out->by_name[s->by_name + i]));
	fputs("\n\t\t},\n", o);
}

/* Chunk k's metric sets: their metrics, events, groups and members. */
static void emit_metrics(FILE *o, const struct evgen_out *out, size_t k)
{
	const struct chunk *c = &rg.core[k];
	size_t ei = 0, ci = 0;
	char place[64];

	if (!c->nm)
		return;
	fputs("\t\t.mneed = {", o);
	for (size_t s = c->m0, n = 0; s < c->m0 + c->nm; s++)
		for (size_t i = 0; i < out->msets[s].n; i++, n++)
			fprintf(o, "%s0x%llxu,", n % 4 ? " " : "\n\t\t\t",
				(unsigned long long)out->metrics[out->msets[s].first + i].need);
	fputs("\n\t\t},\n\t\t.metrics = {\n", o);
	for (size_t s = c->m0; s < c->m0 + c->nm; s++)
		for (size_t i = 0; i < out->msets[s].n; i++) {
			const struct evgen_mrow *r = &out->metrics[out->msets[s].first + i];

			fprintf(o, "\t\t\t{ %zu, %zu, %zu, %zu, %zu, EVTAB_AT(c%zu.mevents[%zu]), "
				   "EVTAB_AT(c%zu.mcode[%zu]), %zu, %zu, %zu },\t/* %s */\n",
				str(out, r->name), str(out, r->title), str(out, r->unit),
				str(out, r->formula), str(out, r->next), k, ei, k, ci, r->nevents,
				r->first, r->group, ostr(out, r->name));
			ei += r->nevents;
			ci += r->ncode;
		}
	fputs("\t\t},\n\t\t.mevents = {\n", o);
	for (size_t s = c->m0; s < c->m0 + c->nm; s++)
		for (size_t i = 0; i < out->msets[s].n; i++) {
			const struct evgen_mrow *r = &out->metrics[out->msets[s].first + i];

			for (size_t j = 0; j < r->nevents; j++) {
				uint32_t at = out->mevents[r->events + j];
				unsigned code = 0;

				name_place(out, c, k, at, place, sizeof(place), &code);	/* checked */
				fprintf(o, "\t\t\t{ EVTAB_AT(%s), 0x%04x },\t/* %s */\n", place, code,
					ostr(out, at));
			}
		}
	fputs("\t\t},\n", o);
	if (c->ngroups) {
		size_t gi = 0, base = 0;

		fputs("\t\t.groups = {\n", o);
		for (size_t s = c->m0; s < c->m0 + c->nm; s++) {
			for (size_t i = 0; i < out->msets[s].ng; i++) {
				const struct evgen_grec *g = &out->groups[out->msets[s].gfirst + i];

				fprintf(o, "\t\t\t{ %zu, %zu, EVTAB_AT(c%zu.metrics[%zu]), "
					   "EVTAB_AT(c%zu.members[%zu]), %zu, %d },\t/* %s */\n",
					str(out, g->name), str(out, g->title), k, base, k, gi,
					g->nmembers, g->stage, ostr(out, g->name));
				gi += g->nmembers;
			}
			base += out->msets[s].n;
		}
		fputs("\t\t},\n\t\t.members = {", o);
		gi = 0;
		for (size_t s = c->m0; s < c->m0 + c->nm; s++)
			for (size_t i = 0; i < out->msets[s].ng; i++) {
				const struct evgen_grec *g = &out->groups[out->msets[s].gfirst + i];

				for (size_t j = 0; j < g->nmembers; j++, gi++)
					fprintf(o, "%s%zu,", gi % 12 ? " " : "\n\t\t\t",
						(size_t)out->members[g->members + j] - out->msets[s].first);
			}
		fputs("\n\t\t},\n", o);
	}
	fputs("\t\t.mcode = {", o);
	ci = 0;
	for (size_t s = c->m0; s < c->m0 + c->nm; s++)
		for (size_t i = 0; i < out->msets[s].n; i++) {
			const struct evgen_mrow *r = &out->metrics[out->msets[s].first + i];

			for (size_t j = 0; j < r->ncode; j++, ci++)
				fprintf(o, "%s0x%02x,", ci % 12 ? " " : "\n\t\t\t",
					out->mcode[r->code + j]);
		}
	fputs("\n\t\t},\n", o);
}

void evgen_emit_source(FILE *o, const struct evgen_out *out)
{
	const struct evgen_db *db = out->db;
	size_t base;

	emit_banner(o, out);
	fputs("/* evtab_data.c: the event tables; reached only through src/event/evtab.c and "
	      "src/metrics/mxtab.c. */\n#include \"evtab_data.h\"\n\n", o);
	/* the events' names follow their events: an event's name offset counts on it */
	fprintf(o, "_Static_assert(EVTAB_AT(common.names) == EVTAB_AT(common.ev) + %zu * "
		   "sizeof(struct evtab_event), \"the common names follow their events\");\n",
		dim(rg.common.nown));
	for (size_t k = 0; k < db->ncores; k++)
		fprintf(o, "_Static_assert(EVTAB_AT(c%zu.names) == EVTAB_AT(c%zu.ev) + %zu * "
			   "sizeof(struct evtab_event), \"%s's names follow its events\");\n", k, k,
			dim(rg.core[k].nown), db->cores[k].id);
	fputs("_Static_assert(sizeof(struct evtab_event) == 8, \"an event is 8 bytes\");\n\n"
	      "const struct evtab_gen evtab_gen = {\n", o);
	fprintf(o, "\t.nevents = %zu,\n\t.ncores = %zu,\n\t.nmidrs = %zu,\n\t.nmsets = %zu,\n"
		   "\t.ncommon = %zu,\n", out->nevents, db->ncores, out->nmidrs, out->nmsets,
		rg.ncommon);
	if (db->ncores) {
		fputs("\t.cores = {\n", o);
		for (size_t i = 0; i < db->ncores; i++) {
			const struct evgen_core *c = &db->cores[i];

			fprintf(o, "\t\t{ .name = %zu, .title = %zu, .arch = %zu, .implementer = "
				   "0x%02x, .part = 0x%03x, .counters = %d, .slots = %d },\t/* %zu %s */\n",
				str(out, c->id_at), str(out, c->title_at), str(out, c->arch_at), c->impl,
				c->part, c->counters, c->slots, i, c->id);
		}
		fputs("\t},\n", o);
	}
	fputs("\t.sets = {\n", o);
	fprintf(o, "\t\t{ EVTAB_AT(common.runs), EVTAB_AT(common.ev), %zu, %zu },\t/* common */\n",
		out->sets[0].nslots, out->sets[0].n);
	for (size_t k = 0; k < db->ncores; k++)
		fprintf(o, "\t\t{ EVTAB_AT(c%zu.runs), EVTAB_AT(c%zu.ev), %zu, %zu },\t/* %s */\n", k,
			k, out->sets[1 + k].nslots, out->sets[1 + k].n, db->cores[k].id);
	fputs("\t},\n", o);
	if (out->nmidrs) {
		fputs("\t.midrs = {\n", o);
		for (size_t i = 0; i < out->nmidrs; i++)
			fprintf(o, "\t\t{ EVTAB_GEN_MIDR_KEY(0x%02x, 0x%03x), %zu },\t/* %s */\n",
				out->midrs[i].key >> 12, out->midrs[i].key & 0xfff, out->midrs[i].core,
				db->cores[out->midrs[i].core].id);
		fputs("\t},\n", o);
	}
	if (out->nmsets) {
		fputs("\t.msets = {\n", o);
		for (size_t k = 0; k < db->ncores; k++) {
			const struct chunk *c = &rg.core[k];
			size_t m = 0, g = 0;

			for (size_t s = c->m0; s < c->m0 + c->nm; s++) {
				const struct evgen_mset *ms = &out->msets[s];

				fprintf(o, "\t\t{ EVTAB_AT(c%zu.metrics[%zu]), EVTAB_AT(c%zu.groups[%zu]), "
					   "EVTAB_AT(c%zu.mneed[%zu]), %zu, %zu, %zu, 0x%02x, 0x%02x, %d "
					   "},\t/* %s */\n", k, m, k, g, k, m, ms->n, ms->ng, ms->core,
					ms->lo, ms->hi, ms->generic, db->cores[k].id);
				m += ms->n;
				g += ms->ng;
			}
		}
		fputs("\t},\n", o);
	}
	fputs("\t.common = {\n", o);
	emit_events(o, out, db->commons, db->ncommons, 0);
	emit_pool(o, "names", &rg.common.names, "\t\t");
	emit_runs(o, out, &out->sets[0], &rg.common);
	fputs("\t},\n", o);
	base = db->ncommons;
	for (size_t k = 0; k < db->ncores; k++) {
		const struct chunk *c = &rg.core[k];

		fprintf(o, "\t.c%zu = {\t/* %s */\n", k, db->cores[k].id);
		emit_runs(o, out, c->set, c);
		if (c->nown) {
			emit_events(o, out, db->cores[k].own, c->nown, base);
			emit_pool(o, "names", &c->names, "\t\t");
		}
		emit_metrics(o, out, k);
		fputs("\t},\n", o);
		base += c->nown;
	}
	emit_pool(o, "str", &rg.str, "\t");
	fputs("};\n", o);
	evgen_emit_aliases(o, out);
}
