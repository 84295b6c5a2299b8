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
	uint32_t id_at, title_at, arch_at;	/* offsets in the string pool */
};

/* Everything read from the events/ files, and how many problems were reported on the way. */
struct evgen_db {
	struct evgen_ev *commons;
	size_t ncommons, capcommons;
	struct evgen_core *cores;
	size_t ncores, capcores;
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

/* evgen_check.c: checks across records (duplicates, references, MIDRs); sorts the cores by id
 * and resolves every "uses" to its common event. */
void evgen_check(struct evgen_db *db);
/* The event set of a core (its resolved common events, then its own), as pointers into db. */
size_t evgen_core_set(const struct evgen_core *c, const struct evgen_ev **set);
/* qsort comparators over struct evgen_ev pointers; ties go by file and line. */
int evgen_by_code(const void *a, const void *b);
int evgen_by_name(const void *a, const void *b);

/* One event set in the generated index array: n event indexes sorted by name at by_name,
 * the same sorted by code at by_code. */
struct evgen_set {
	size_t by_name, by_code, n;
};

/* The tables as they will be written: no pointers, only offsets and indexes, so that the
 * generated data needs no relocation when the program is loaded at any address. */
struct evgen_out {
	const struct evgen_db *db;
	char **files;			/* the inputs, named in the banner */
	int nfiles;
	char *str;			/* the string pool: NUL-terminated strings back to back */
	size_t nstr, capstr;
	size_t nevents;			/* the common events, then each core's own */
	uint16_t *index;		/* every set's by_name and by_code runs */
	size_t nindex, capindex;
	struct evgen_set *sets;		/* sets[0]: the common events; sets[1 + i]: cores[i] */
	struct evgen_midr {
		unsigned key;		/* implementer << 12 | part number */
		size_t core;
	} *midrs;			/* one per core, sorted by key */
};

/* evgen_layout.c: places a checked db (event indexes, string offsets, sorted sets) in out. */
void evgen_layout(struct evgen_db *db, char **files, int nfiles, struct evgen_out *out);
void evgen_layout_free(struct evgen_out *out);

/* evgen_emit.c: writes the header (the tables' layout) and the source (the tables). */
void evgen_emit_header(FILE *o, const struct evgen_out *out);
void evgen_emit_source(FILE *o, const struct evgen_out *out);

#endif
