/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen.h: what the generator's stages share: the events/ records, their layout, errors. */
#ifndef PMUPROF_EVGEN_H
#define PMUPROF_EVGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVGEN_MAX_NAME 63
#define EVGEN_MAX_LINE 1024

enum evgen_cls { EVGEN_ARCH = 1, EVGEN_UARCH = 2, EVGEN_IMPDEF = 3 };

struct evgen_ev {
	char *name, *desc;
	unsigned code;
	int cls;		/* enum evgen_cls */
	const char *file;
	int line;
	int index;		/* position in the generated event pool */
	uint32_t name_at, desc_at;	/* offsets of name and desc in the string pool */
};

/* A core's "uses" line: a common event by code and name. */
struct evgen_ref {
	unsigned code;
	const struct evgen_ev *ev;	/* the common event, once resolved */
	const char *file;
	int line;
	char *name;
};

/* A MIDR another implementer reports for this core's part ("alias" line). */
struct evgen_alias {
	unsigned impl, part;
	const char *file;
	int line;
};

struct evgen_core {
	char *id, *title, *arch;
	unsigned impl, part;
	int counters, slots, has_midr;
	const char *file;
	int line;
	struct evgen_ref *refs;
	size_t nrefs, caprefs;
	struct evgen_ev *own;
	size_t nown, capown;
	struct evgen_alias *aliases;
	size_t naliases, capaliases;
	uint32_t id_at, title_at, arch_at;	/* offsets in the string pool */
};

/* A metric of a events/metrics file: its formula's events are found by the check. */
struct evgen_metric {
	char *name, *title, *unit, *formula, *next;
	const char *file;
	int line, formula_line, next_line;
	char **events;			/* the formula's names, sorted, each once */
	size_t nevents;
	char *first;			/* the name the formula reads first (its anchor) */
	int index;			/* position in the generated metric table */
	unsigned char *code;		/* the formula compiled (mexpr_compile), once checked */
	size_t ncode;
};

/* A group of metrics: its members by name until the check finds them. */
struct evgen_group {
	char *name, *title, *members;
	int stage;			/* 1 or 2: top-down stage; 0: none */
	const char *file;
	int line, members_line;
	size_t *member;			/* indexes into the file's metrics, once checked */
	size_t nmember;
};

/* One events/metrics file: a core's metrics for a range of revisions, or (core NULL) the
 * generic metrics, given to every core without a file of its own whose events allow them. */
struct evgen_mfile {
	char *core;
	const char *file;
	int line;
	unsigned lo, hi;		/* revisions, variant << 4 | revision, inclusive */
	size_t core_at;			/* db->cores index, once checked */
	struct evgen_metric *metrics;
	size_t nmetrics, capmetrics;
	struct evgen_group *groups;
	size_t ngroups, capgroups;
};

/* A row of events/aliases.tsv: a vendor MIDR (and revisions) of an Arm core. */
enum { EVGEN_ALIAS_MIDR, EVGEN_ALIAS_SAME, EVGEN_ALIAS_METRICS };
struct evgen_valias {
	unsigned impl, part, lo, hi;	/* revisions: variant << 4 | revision, inclusive */
	int use;			/* EVGEN_ALIAS_*: names the core, is its own, takes metrics */
	char *core, *name, *source;
	size_t core_at;			/* db->cores index, once checked */
	const char *file;
	int line;
};

/* Everything read from the events/ files, and how many problems were reported on the way. */
struct evgen_db {
	struct evgen_ev *commons;
	size_t ncommons, capcommons;
	struct evgen_core *cores;
	size_t ncores, capcores;
	struct evgen_mfile *mfiles;
	size_t nmfiles, capmfiles;
	struct evgen_valias *valiases;
	size_t nvaliases, capvaliases;
	int nerrors;
};

/* Reports "evgen: FILE:LINE: message" on stderr and counts it in db->nerrors. */
__attribute__((format(printf, 4, 5)))
void evgen_error(struct evgen_db *db, const char *file, int line, const char *fmt, ...);
/* realloc/strdup that end the program (status 2) when memory runs out. */
void *evgen_grow(void *p, size_t *cap, size_t n, size_t size);
void *evgen_calloc(size_t n, size_t size);

/* evgen_parse.c: reads one events/ file into db, reporting what is wrong line by line. */
void evgen_read_file(struct evgen_db *db, const char *file);

struct evgen_out;
/* evgen_aliases.c: reads events/aliases.tsv; after evgen_check and before
 * evgen_check_metrics, checks each row against the cores: a "midr" row becomes the core's
 * MIDR alias, a "metrics" row gives the core at its MIDR a copy of the row core's metrics. */
void evgen_read_aliases(struct evgen_db *db, const char *file);
void evgen_check_aliases(struct evgen_db *db);
/* The rows as the generated evtab_gen_aliases array (the header declares its type). */
void evgen_emit_aliases(FILE *o, const struct evgen_out *out);

/* evgen_mparse.c: reads one events/metrics file (NAME.metrics) into db. */
void evgen_read_metrics(struct evgen_db *db, const char *file);
/* evgen_mcheck.c: after evgen_check: each metrics file's core and revisions, each formula
 * (syntax, unknown names, events its core lacks), groups and links; sorts metrics by name. */
void evgen_check_metrics(struct evgen_db *db);
/* Reads f line by line, giving fn each line that is neither blank nor a comment: its first
 * field (kw) and the rest. Long lines are reported; -1 (reported) when f cannot be opened. */
typedef void (*evgen_line_fn)(void *ctx, int line, char *kw, char *rest);
int evgen_each_line(struct evgen_db *db, const char *f, evgen_line_fn fn, void *ctx);
/* evgen_parse.c's field splitters, shared with evgen_mparse.c. */
char *evgen_next_field(char **p);
char *evgen_rest_of_line(char **p);
char *evgen_strdup(const char *s);
int evgen_check_text(struct evgen_db *db, const char *f, int line, const char *what,
		     const char *s);

/* evgen_check.c: checks across records (duplicates, references, MIDRs); sorts the cores by id
 * and resolves every "uses" to its common event. */
void evgen_check(struct evgen_db *db);
/* Each core's MIDR aliases (events/aliases.tsv's "midr" rows) against every MIDR. */
void evgen_check_midr_aliases(struct evgen_db *db);
/* The event set of a core (its resolved common events, then its own), as pointers into db. */
size_t evgen_core_set(const struct evgen_core *c, const struct evgen_ev **set);
/* qsort comparators over struct evgen_ev pointers; ties go by file and line. */
int evgen_by_code(const void *a, const void *b);
int evgen_by_name(const void *a, const void *b);

/* One event set: n event indexes sorted by name at by_name in the by_name array, the same
 * sorted by code at by_code in the by_code array, its names' hash (nslots slots) at hash in
 * the hash array. */
/* A pool of NUL-terminated strings back to back, equal strings stored once: strtab is an
 * open-addressing hash of their offsets, each stored + 1 so that 0 marks a free slot. */
struct evgen_pool {
	char *str;
	size_t nstr, capstr;
	struct evgen_strtab {
		uint32_t *slots;
		size_t nslots, used;
	} strtab;
};

/* The offset of s in p, appending it when p does not hold it yet. */
uint32_t evgen_pool_add(struct evgen_pool *p, const char *s);
void evgen_pool_free(struct evgen_pool *p);

struct evgen_set {
	size_t by_name, by_code, n, hash, nslots;
};

/* The tables as they will be written: no pointers, only offsets and indexes, so that the
 * generated data needs no relocation when the program is loaded at any address. */
struct evgen_out {
	const struct evgen_db *db;
	char **files;			/* the inputs, named in the banner */
	int nfiles;
	struct evgen_pool pool;		/* the string pool the rows name their strings by */
	size_t nevents;			/* the common events, then each core's own */
	uint16_t *by_name;		/* every set's run by name */
	size_t nby_name, capby_name;
	uint16_t *by_code;		/* every set's run by code */
	size_t nby_code, capby_code;
	uint16_t *hash;			/* every set's hash of its names */
	size_t nhash, caphash;
	struct evgen_set *sets;		/* sets[0]: the common events; sets[1 + i]: cores[i] */
	struct evgen_midr {
		unsigned key;		/* implementer << 12 | part number */
		size_t core;
	} *midrs;			/* one per core and alias, sorted by key */
	size_t nmidrs;
	struct evgen_mset {		/* a metric set: a core and revisions, or generic */
		size_t core, first, n, gfirst, ng;
		unsigned lo, hi;
		int generic;
	} *msets;
	size_t nmsets;
	struct evgen_mrow {		/* a metric as laid out: strings as offsets */
		uint32_t name, title, unit, formula, next;
		size_t events, nevents, first;	/* first: in events, the formula's first */
		size_t code, ncode;	/* its formula compiled (mexpr.h), at mcode[code] */
		uint64_t need;		/* bit code % 64 of each event's code (a quick check) */
		size_t group;		/* 1 + the first group of its set that lists it; 0 none */
	} *metrics;
	size_t nmetrics;
	struct evgen_grec {		/* a group as laid out */
		uint32_t name, title;
		size_t members, nmembers;
		int stage;
	} *groups;
	size_t ngroups;
	uint32_t *mevents;		/* metric events: pool offsets of their names */
	size_t nmevents, capmevents;
	uint16_t *members;		/* group members: metric indexes */
	size_t nmembers, capmembers;
	unsigned char *mcode;		/* the metrics' compiled formulas */
	size_t nmcode, capmcode;
};

/* The pool offset of s, appending it when the pool does not hold it yet. */
uint32_t evgen_intern(struct evgen_out *out, const char *s);
/* evgen_mlayout.c: places the metric sets in out (after the events). */
void evgen_layout_metrics(const struct evgen_db *db, struct evgen_out *out);

/* evgen_layout.c: places a checked db (event indexes, string offsets, sorted sets) in out. */
void evgen_layout(struct evgen_db *db, char **files, int nfiles, struct evgen_out *out);
void evgen_layout_free(struct evgen_out *out);
/* evgen_emit.c: places out's rows in the generated layout (the head, the common events, a
 * chunk per core, the other strings), and writes its header and source.
 * evgen_layout_fits places them, and checks the offsets fit the generated fields (an event's
 * name 16 bits past it, its description 24) and every metric's events are its core's: 0 after
 * a message. The emitters then write what it placed; evgen_layout_regions_free frees it. */
int evgen_layout_fits(const struct evgen_out *out);
void evgen_layout_regions_free(void);
void evgen_emit_header(FILE *o, const struct evgen_out *out);
void evgen_emit_source(FILE *o, const struct evgen_out *out);

#endif
