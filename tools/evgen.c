/* tools/evgen.c: the event-table generator: reads the events/ files, validates them, writes C tables.
 *
 * usage: evgen -o OUT.c -H OUT.h FILE.ev...
 *
 * Runs on the build machine (HOSTCC). The format of the input is documented in events/README.md.
 * Every problem is reported as "FILE:LINE: message" on stderr and all of them are reported
 * before exiting with status 1; nothing is written unless the input is clean. The output is
 * reproducible: input files are read in sorted order, tables are sorted, and the banner names
 * the inputs but carries no date or path of the build directory.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME 63
#define MAX_LINE 1024

enum cls { CLS_ARCH = 1, CLS_UARCH = 2, CLS_IMPDEF = 3 };

struct ev {
	char *name, *desc;
	unsigned code;
	int cls;
	const char *file;
	int line;
	int index;		/* position in the generated event pool */
};

struct ref {
	unsigned code;
	const struct ev *ev;	/* the common event, once resolved */
	const char *file;
	int line;
	char *name;
};

struct core {
	char *id, *title, *arch;
	unsigned impl, part;
	int counters, slots, has_midr;
	const char *file;
	int line;
	struct ref *refs;
	size_t nrefs, caprefs;
	struct ev *own;
	size_t nown, capown;
};

static struct ev *commons;
static size_t ncommons, capcommons;
static struct core *cores;
static size_t ncores, capcores;
static int nerrors;

__attribute__((format(printf, 3, 4)))
static void error_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "evgen: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nerrors++;
}

static void *xgrow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(p, *cap * size);
	if (!p) {
		perror("evgen");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		perror("evgen");
		exit(2);
	}
	return d;
}

/* Common events live at 0x0000-0x003F, 0x4000-0x40FF and 0x8000 up (Arm ARM, PMEVTYPER). */
static int common_range(unsigned code)
{
	return code <= 0x3F || (code >= 0x4000 && code <= 0x40FF) || code >= 0x8000;
}

/* Splits off the next whitespace-separated field; returns NULL at the end of the line. */
static char *next_field(char **p)
{
	char *s = *p, *start;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

/* The rest of the line, trimmed; "" when there is none. */
static char *rest_of_line(char **p)
{
	char *s = *p, *e;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	*p = e;
	return s;
}

static int parse_code(const char *f, int line, const char *s, unsigned *code)
{
	char *end;
	unsigned long v;
	if (!s) {
		error_at(f, line, "missing event code");
		return -1;
	}
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2])) {
		error_at(f, line, "bad event code '%s': want hex such as 0x0008", s);
		return -1;
	}
	errno = 0;
	v = strtoul(s + 2, &end, 16);
	if (*end || errno || v > 0xFFFF) {
		error_at(f, line, "bad event code '%s': want hex from 0x0000 to 0xffff", s);
		return -1;
	}
	*code = (unsigned)v;
	return 0;
}

static int parse_int(const char *f, int line, const char *what, const char *s, int lo, int hi)
{
	char *end;
	long v;
	if (!s) {
		error_at(f, line, "missing value for '%s'", what);
		return -1;
	}
	errno = 0;
	v = strtol(s, &end, 0);
	if (*end || errno || v < lo || v > hi) {
		error_at(f, line, "bad %s '%s': want a number from %d to %d", what, s, lo, hi);
		return -1;
	}
	return (int)v;
}

static int check_name(const char *f, int line, const char *s)
{
	const char *p;
	if (!s) {
		error_at(f, line, "missing event name");
		return -1;
	}
	if (strlen(s) > MAX_NAME || !isupper((unsigned char)s[0]))
		goto bad;
	for (p = s; *p; p++)
		if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			goto bad;
	return 0;
bad:
	error_at(f, line, "bad event name '%s': want A-Z, 0-9 and '_', starting with a letter", s);
	return -1;
}

static int check_text(const char *f, int line, const char *what, const char *s)
{
	const char *p;
	if (!*s) {
		error_at(f, line, "empty %s", what);
		return -1;
	}
	for (p = s; *p; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || (unsigned char)*p > 0x7E) {
			error_at(f, line, "%s holds a character that is not plain printable ASCII or is "
				 "a quote or backslash", what);
			return -1;
		}
	return 0;
}

/* "CODE NAME DESCRIPTION..." -> ev; returns 0 when all fields are valid. */
static int parse_event(const char *f, int line, char *p, int cls, struct ev *ev)
{
	char *code = next_field(&p), *name = next_field(&p), *desc;
	if (parse_code(f, line, code, &ev->code) || check_name(f, line, name))
		return -1;
	desc = rest_of_line(&p);
	if (check_text(f, line, "description", desc))
		return -1;
	ev->name = xstrdup(name);
	ev->desc = xstrdup(desc);
	ev->cls = cls;
	ev->file = f;
	ev->line = line;
	return 0;
}

static void add_common(const char *f, int line, char *p, int cls)
{
	struct ev ev = { 0 };
	if (parse_event(f, line, p, cls, &ev))
		return;
	if (!common_range(ev.code)) {
		error_at(f, line, "common event %s has code 0x%04x outside the common ranges "
			 "0x0000-0x003f, 0x4000-0x40ff, 0x8000-0xffff", ev.name, ev.code);
		return;
	}
	commons = xgrow(commons, &capcommons, ncommons, sizeof(*commons));
	commons[ncommons++] = ev;
}

static void add_own(struct core *c, const char *f, int line, char *p)
{
	struct ev ev = { 0 };
	if (parse_event(f, line, p, CLS_IMPDEF, &ev))
		return;
	c->own = xgrow(c->own, &c->capown, c->nown, sizeof(*c->own));
	c->own[c->nown++] = ev;
}

static void add_ref(struct core *c, const char *f, int line, char *p)
{
	struct ref r = { .file = f, .line = line };
	char *code = next_field(&p), *name = next_field(&p);
	if (parse_code(f, line, code, &r.code) || check_name(f, line, name))
		return;
	if (*rest_of_line(&p)) {
		error_at(f, line, "'uses' takes a code and a name only (the description is common.ev's)");
		return;
	}
	r.name = xstrdup(name);
	c->refs = xgrow(c->refs, &c->caprefs, c->nrefs, sizeof(*c->refs));
	c->refs[c->nrefs++] = r;
}

static struct core *new_core(const char *f, int line, char *p)
{
	char *id = next_field(&p), *title;
	struct core *c;
	if (!id) {
		error_at(f, line, "empty core id");
		return NULL;
	}
	title = rest_of_line(&p);
	if (check_text(f, line, "core id", id) || check_text(f, line, "core title", title))
		return NULL;
	cores = xgrow(cores, &capcores, ncores, sizeof(*cores));
	c = &cores[ncores++];
	memset(c, 0, sizeof(*c));
	c->id = xstrdup(id);
	c->title = xstrdup(title);
	c->file = f;
	c->line = line;
	c->counters = -1;
	return c;
}

static void core_midr(struct core *c, const char *f, int line, char *p)
{
	int impl = parse_int(f, line, "implementer", next_field(&p), 1, 0xFF);
	int part = impl < 0 ? -1 : parse_int(f, line, "part number", next_field(&p), 0, 0xFFF);
	if (impl < 0 || part < 0)
		return;
	c->impl = (unsigned)impl;
	c->part = (unsigned)part;
	c->has_midr = 1;
}

/* A line of a core file (after its "core" line). */
static void core_line(struct core *c, const char *f, int line, const char *kw, char *p)
{
	if (!strcmp(kw, "uses"))
		add_ref(c, f, line, p);
	else if (!strcmp(kw, "event"))
		add_own(c, f, line, p);
	else if (!strcmp(kw, "architecture")) {
		char *a = rest_of_line(&p);
		if (!check_text(f, line, "architecture", a))
			c->arch = xstrdup(a);
	} else if (!strcmp(kw, "midr"))
		core_midr(c, f, line, p);
	else if (!strcmp(kw, "counters"))
		c->counters = parse_int(f, line, "counters", next_field(&p), 1, 31);
	else if (!strcmp(kw, "slots"))
		c->slots = parse_int(f, line, "slots", next_field(&p), 1, 255);
	else if (!strcmp(kw, "arch") || !strcmp(kw, "uarch"))
		error_at(f, line, "common event in a core file: put it in a file without 'core'");
	else if (!strcmp(kw, "core"))
		error_at(f, line, "second 'core' line: one core per file");
	else
		error_at(f, line, "unknown keyword '%s'", kw);
	if (c->counters < -1)
		c->counters = -1;
	if (c->slots < 0)
		c->slots = 0;
}

static void read_file(const char *f)
{
	char buf[MAX_LINE + 2];
	struct core *c = NULL;
	int line = 0, in_core = 0;
	FILE *fp = fopen(f, "r");
	if (!fp) {
		fprintf(stderr, "evgen: cannot open '%s': %s\n", f, strerror(errno));
		nerrors++;
		return;
	}
	while (fgets(buf, sizeof(buf), fp)) {
		char *p = buf, *kw;
		line++;
		if (!strchr(buf, '\n') && !feof(fp)) {
			error_at(f, line, "line longer than %d characters", MAX_LINE);
			while (fgets(buf, sizeof(buf), fp) && !strchr(buf, '\n'))
				;
			continue;
		}
		buf[strcspn(buf, "\r\n")] = '\0';
		kw = next_field(&p);
		if (!kw || kw[0] == '#')
			continue;
		if (!strcmp(kw, "core") && !in_core) {
			in_core = 1;
			c = new_core(f, line, p);
			continue;
		}
		if (in_core) {
			if (c)
				core_line(c, f, line, kw, p);
		} else if (!strcmp(kw, "arch"))
			add_common(f, line, p, CLS_ARCH);
		else if (!strcmp(kw, "uarch"))
			add_common(f, line, p, CLS_UARCH);
		else
			error_at(f, line, "'%s' outside a core: start the file with 'core ID TITLE'", kw);
	}
	fclose(fp);
}

/* ---- validation across records ---- */

/* Ties (duplicates) are broken by place in the input, so messages name the later line. */
static int by_place(const struct ev *x, const struct ev *y)
{
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int by_code(const void *a, const void *b)
{
	const struct ev *x = *(const struct ev *const *)a, *y = *(const struct ev *const *)b;
	int c = (x->code > y->code) - (x->code < y->code);
	return c ? c : by_place(x, y);
}

static int by_name(const void *a, const void *b)
{
	const struct ev *x = *(const struct ev *const *)a, *y = *(const struct ev *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : by_place(x, y);
}

/* Reports duplicate codes and names in a set of events (pointers, order is changed). */
static void check_dups(const struct ev **set, size_t n, const char *where)
{
	size_t i;
	qsort(set, n, sizeof(*set), by_code);
	for (i = 1; i < n; i++)
		if (set[i]->code == set[i - 1]->code)
			error_at(set[i]->file, set[i]->line, "duplicate code 0x%04x in %s: %s here, "
				 "%s at %s:%d", set[i]->code, where, set[i]->name, set[i - 1]->name,
				 set[i - 1]->file, set[i - 1]->line);
	qsort(set, n, sizeof(*set), by_name);
	for (i = 1; i < n; i++)
		if (!strcmp(set[i]->name, set[i - 1]->name))
			error_at(set[i]->file, set[i]->line, "duplicate name %s in %s (also at %s:%d)",
				 set[i]->name, where, set[i - 1]->file, set[i - 1]->line);
}

static const struct ev *common_by_code(unsigned code)
{
	size_t i;
	for (i = 0; i < ncommons; i++)
		if (commons[i].code == code)
			return &commons[i];
	return NULL;
}

static void resolve_refs(struct core *c)
{
	size_t i;
	for (i = 0; i < c->nrefs; i++) {
		struct ref *r = &c->refs[i];
		r->ev = common_by_code(r->code);
		if (!r->ev)
			error_at(r->file, r->line, "unknown common event 0x%04x (%s): not in any "
				 "common event file", r->code, r->name);
		else if (strcmp(r->ev->name, r->name))
			error_at(r->file, r->line, "common event 0x%04x is %s (%s:%d), not %s",
				 r->code, r->ev->name, r->ev->file, r->ev->line, r->name);
	}
	for (i = 0; i < c->nown; i++) {
		const struct ev *e = common_by_code(c->own[i].code);
		if (e)
			error_at(c->own[i].file, c->own[i].line, "code 0x%04x is the common event %s: "
				 "write 'uses 0x%04x %s'", e->code, e->name, e->code, e->name);
	}
}

static size_t core_set(const struct core *c, const struct ev **set)
{
	size_t i, n = 0;
	for (i = 0; i < c->nrefs; i++)
		if (c->refs[i].ev)
			set[n++] = c->refs[i].ev;
	for (i = 0; i < c->nown; i++)
		set[n++] = &c->own[i];
	return n;
}

static void check_core(struct core *c)
{
	const struct ev **set;
	if (!c->arch)
		error_at(c->file, c->line, "core %s has no 'architecture' line", c->id);
	if (!c->has_midr)
		error_at(c->file, c->line, "core %s has no 'midr' line", c->id);
	resolve_refs(c);
	set = calloc(c->nrefs + c->nown + 1, sizeof(*set));
	if (!set)
		exit(2);
	check_dups(set, core_set(c, set), c->id);
	free(set);
}

static int core_cmp(const void *a, const void *b)
{
	return strcmp(((const struct core *)a)->id, ((const struct core *)b)->id);
}

static void check_all(void)
{
	const struct ev **set = calloc(ncommons + 1, sizeof(*set));
	size_t i, j;
	if (!set)
		exit(2);
	for (i = 0; i < ncommons; i++)
		set[i] = &commons[i];
	check_dups(set, ncommons, "the common events");
	free(set);
	if (ncores)
		qsort(cores, ncores, sizeof(*cores), core_cmp);
	for (i = 0; i < ncores; i++) {
		check_core(&cores[i]);
		for (j = 0; j < i; j++) {
			if (!strcmp(cores[i].id, cores[j].id))
				error_at(cores[i].file, cores[i].line, "duplicate core id %s (also %s)",
					 cores[i].id, cores[j].file);
			if (cores[i].has_midr && cores[j].has_midr && cores[i].impl == cores[j].impl &&
			    cores[i].part == cores[j].part)
				error_at(cores[i].file, cores[i].line, "MIDR 0x%02x/0x%03x also belongs "
					 "to %s", cores[i].impl, cores[i].part, cores[j].id);
		}
	}
}

/* ---- output ---- */

static void emit_banner(FILE *o, char **files, int nfiles)
{
	int i;
	fprintf(o, "/* Generated by tools/evgen: do not edit; edit events/ and rebuild.\n"
		   " * From:\n");
	for (i = 0; i < nfiles; i++)
		fprintf(o, " *   %s\n", files[i]);
	fprintf(o, " */\n");
}

static void emit_header(FILE *o, char **files, int nfiles)
{
	emit_banner(o, files, nfiles);
	fputs("/* evtab_data.h: the layout of the generated tables, for src/evtab.c only. */\n"
	      "#ifndef PMUPROF_EVTAB_DATA_H\n#define PMUPROF_EVTAB_DATA_H\n\n"
	      "#include <stdint.h>\n#include \"evtab.h\"\n\n"
	      "/* One event set: indices into the pool, sorted by name and by code. */\n"
	      "struct evtab_gen_set {\n\tconst uint16_t *by_name;\n\tconst uint16_t *by_code;\n"
	      "\tuint16_t n;\n};\n\n"
	      "/* MIDR key (implementer << 12 | part) -> core index, sorted by key. */\n"
	      "struct evtab_gen_midr {\n\tuint32_t key;\n\tuint16_t core;\n};\n\n"
	      "#define EVTAB_GEN_MIDR_KEY(impl, part) (((uint32_t)(impl) << 12) | (uint32_t)(part))\n\n"
	      "/* sets[0] is the common events; sets[1 + i] is cores[i]. */\n"
	      "struct evtab_gen {\n\tconst struct evtab_event *events;\n"
	      "\tconst struct evtab_core *cores;\n\tconst struct evtab_gen_set *sets;\n"
	      "\tconst struct evtab_gen_midr *midrs;\n\tuint16_t nevents, ncores;\n};\n\n"
	      "extern const struct evtab_gen evtab_gen;\n\n#endif\n", o);
}

static const char *cls_name(int cls)
{
	return cls == CLS_ARCH ? "EVTAB_ARCH" : cls == CLS_UARCH ? "EVTAB_UARCH" : "EVTAB_IMPDEF";
}

static int pool_index;

static void emit_event(FILE *o, struct ev *e)
{
	e->index = pool_index++;
	fprintf(o, "\t{ \"%s\", \"%s\", 0x%04x, %s },\n", e->name, e->desc, e->code, cls_name(e->cls));
}

static void emit_pool(FILE *o)
{
	size_t i, j;
	fputs("static const struct evtab_event events[] = {\n", o);
	for (i = 0; i < ncommons; i++)
		emit_event(o, &commons[i]);
	for (i = 0; i < ncores; i++)
		for (j = 0; j < cores[i].nown; j++)
			emit_event(o, &cores[i].own[j]);
	fputs("};\n\n", o);
}

static void emit_index(FILE *o, const char *label, const struct ev **set, size_t n)
{
	size_t i;
	fprintf(o, "static const uint16_t %s[] = {", label);
	for (i = 0; i < n; i++)
		fprintf(o, "%s%d,", i % 12 ? " " : "\n\t", set[i]->index);
	fputs(n ? "\n};\n" : " 0 };\n", o);
}

static void emit_set(FILE *o, const char *tag, const struct ev **set, size_t n)
{
	char label[96];
	qsort(set, n, sizeof(*set), by_name);
	snprintf(label, sizeof(label), "%s_by_name", tag);
	emit_index(o, label, set, n);
	qsort(set, n, sizeof(*set), by_code);
	snprintf(label, sizeof(label), "%s_by_code", tag);
	emit_index(o, label, set, n);
}

static void emit_sets(FILE *o)
{
	const struct ev **set;
	size_t i, most = ncommons;
	char tag[32];
	for (i = 0; i < ncores; i++)
		if (cores[i].nrefs + cores[i].nown > most)
			most = cores[i].nrefs + cores[i].nown;
	set = calloc(most + 1, sizeof(*set));
	if (!set)
		exit(2);
	for (i = 0; i < ncommons; i++)
		set[i] = &commons[i];
	emit_set(o, "common", set, ncommons);
	for (i = 0; i < ncores; i++) {
		snprintf(tag, sizeof(tag), "core%zu", i);
		emit_set(o, tag, set, core_set(&cores[i], set));
	}
	free(set);
	fputs("\nstatic const struct evtab_gen_set sets[] = {\n"
	      "\t{ common_by_name, common_by_code, ", o);
	fprintf(o, "%zu },\n", ncommons);
	for (i = 0; i < ncores; i++)
		fprintf(o, "\t{ core%zu_by_name, core%zu_by_code, %zu },\n", i, i,
			cores[i].nrefs + cores[i].nown);
	fputs("};\n\n", o);
}

static void emit_cores(FILE *o)
{
	size_t i;
	fputs("static const struct evtab_core cores[] = {\n", o);
	for (i = 0; i < ncores; i++) {
		const struct core *c = &cores[i];
		fprintf(o, "\t{ .name = \"%s\", .title = \"%s\", .arch = \"%s\", .implementer = 0x%02x,"
			" .part = 0x%03x, .counters = %d, .slots = %d },\n", c->id, c->title, c->arch,
			c->impl, c->part, c->counters, c->slots);
	}
	fputs("};\n\n", o);
}

static int midr_cmp(const void *a, const void *b)
{
	const struct core *x = *(const struct core *const *)a, *y = *(const struct core *const *)b;
	unsigned kx = x->impl << 12 | x->part, ky = y->impl << 12 | y->part;
	return (kx > ky) - (kx < ky);
}

static void emit_midrs(FILE *o)
{
	const struct core **byk = calloc(ncores + 1, sizeof(*byk));
	size_t i;
	if (!byk)
		exit(2);
	for (i = 0; i < ncores; i++)
		byk[i] = &cores[i];
	qsort(byk, ncores, sizeof(*byk), midr_cmp);
	fputs("static const struct evtab_gen_midr midrs[] = {\n", o);
	for (i = 0; i < ncores; i++)
		fprintf(o, "\t{ EVTAB_GEN_MIDR_KEY(0x%02x, 0x%03x), %td },\n", byk[i]->impl,
			byk[i]->part, byk[i] - cores);
	fputs(ncores ? "};\n\n" : "\t{ 0, 0 }\n};\n\n", o);
	free(byk);
}

static void emit_source(FILE *o, char **files, int nfiles)
{
	emit_banner(o, files, nfiles);
	fputs("/* evtab_data.c: the event tables; reached only through src/evtab.c. */\n"
	      "#include \"evtab_data.h\"\n\n", o);
	pool_index = 0;
	emit_pool(o);
	emit_sets(o);
	emit_cores(o);
	emit_midrs(o);
	fprintf(o, "const struct evtab_gen evtab_gen = {\n\t.events = events,\n\t.cores = cores,\n"
		"\t.sets = sets,\n\t.midrs = midrs,\n\t.nevents = %d,\n\t.ncores = %zu,\n};\n",
		pool_index, ncores);
}

/* Writes through a temporary file and renames it, so a failed run leaves no half table. */
static int write_file(const char *path, void (*emit)(FILE *, char **, int), char **files, int n)
{
	char tmp[4096];
	FILE *o;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	o = fopen(tmp, "w");
	if (!o) {
		fprintf(stderr, "evgen: cannot write '%s': %s\n", tmp, strerror(errno));
		return -1;
	}
	emit(o, files, n);
	if (ferror(o) | fclose(o) || rename(tmp, path)) {
		fprintf(stderr, "evgen: cannot write '%s': %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int too_many_events(void)
{
	size_t i, n = ncommons;
	for (i = 0; i < ncores; i++)
		n += cores[i].nown + cores[i].nrefs;
	return n > 0xFFFF;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int usage(void)
{
	fputs("usage: evgen -o OUT.c -H OUT.h FILE.ev...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *out_c = NULL, *out_h = NULL;
	int i = 1, nfiles;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out_c = argv[i + 1];
		else if (!strcmp(argv[i], "-H"))
			out_h = argv[i + 1];
		else
			return usage();
	}
	if (!out_c || !out_h || i >= argc)
		return usage();
	nfiles = argc - i;
	qsort(argv + i, (size_t)nfiles, sizeof(*argv), str_cmp);
	for (int k = i; k < argc; k++)
		read_file(argv[k]);
	check_all();
	if (too_many_events())
		fputs("evgen: more than 65535 events: the tables index them with 16 bits\n", stderr);
	if (too_many_events() || nerrors) {
		fprintf(stderr, "evgen: %d error%s, no tables written\n", nerrors, nerrors == 1 ? "" : "s");
		return 1;
	}
	if (write_file(out_h, emit_header, argv + i, nfiles) ||
	    write_file(out_c, emit_source, argv + i, nfiles))
		return 1;
	return 0;
}
