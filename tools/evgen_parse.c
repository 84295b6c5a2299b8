/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_parse.c: reads the events/ files line by line into the generator's records. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

char *evgen_strdup(const char *s)
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
char *evgen_next_field(char **p)
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
char *evgen_rest_of_line(char **p)
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

static int parse_code(struct evgen_db *db, const char *f, int line, const char *s, unsigned *code)
{
	char *end;
	unsigned long v;
	if (!s) {
		evgen_error(db, f, line, "missing event code");
		return -1;
	}
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2])) {
		evgen_error(db, f, line, "bad event code '%s': want hex such as 0x0008", s);
		return -1;
	}
	errno = 0;
	v = strtoul(s + 2, &end, 16);
	if (*end || errno || v > 0xFFFF) {
		evgen_error(db, f, line, "bad event code '%s': want hex from 0x0000 to 0xffff", s);
		return -1;
	}
	*code = (unsigned)v;
	return 0;
}

static int parse_int(struct evgen_db *db, const char *f, int line, const char *what, const char *s,
		     int lo, int hi)
{
	char *end;
	long v;
	if (!s) {
		evgen_error(db, f, line, "missing value for '%s'", what);
		return -1;
	}
	errno = 0;
	v = strtol(s, &end, 0);
	if (*end || errno || v < lo || v > hi) {
		evgen_error(db, f, line, "bad %s '%s': want a number from %d to %d", what, s, lo, hi);
		return -1;
	}
	return (int)v;
}

static int check_name(struct evgen_db *db, const char *f, int line, const char *s)
{
	const char *p;
	if (!s) {
		evgen_error(db, f, line, "missing event name");
		return -1;
	}
	if (strlen(s) > EVGEN_MAX_NAME || !isupper((unsigned char)s[0]))
		goto bad;
	for (p = s; *p; p++)
		if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			goto bad;
	return 0;
bad:
	evgen_error(db, f, line, "bad event name '%s': want A-Z, 0-9 and '_', starting with a "
		    "letter", s);
	return -1;
}

int evgen_check_text(struct evgen_db *db, const char *f, int line, const char *what,
		     const char *s)
{
	const char *p;
	if (!*s) {
		evgen_error(db, f, line, "empty %s", what);
		return -1;
	}
	for (p = s; *p; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || (unsigned char)*p > 0x7E) {
			evgen_error(db, f, line, "%s holds a character that is not plain printable "
				    "ASCII or is a quote or backslash", what);
			return -1;
		}
	return 0;
}

/* "CODE NAME DESCRIPTION..." -> ev; returns 0 when all fields are valid. */
static int parse_event(struct evgen_db *db, const char *f, int line, char *p, int cls,
		       struct evgen_ev *ev)
{
	char *code = evgen_next_field(&p), *name = evgen_next_field(&p), *desc;
	if (parse_code(db, f, line, code, &ev->code) || check_name(db, f, line, name))
		return -1;
	desc = evgen_rest_of_line(&p);
	if (evgen_check_text(db, f, line, "description", desc))
		return -1;
	ev->name = evgen_strdup(name);
	ev->desc = evgen_strdup(desc);
	ev->cls = cls;
	ev->file = f;
	ev->line = line;
	return 0;
}

static void add_common(struct evgen_db *db, const char *f, int line, char *p, int cls)
{
	struct evgen_ev ev = { 0 };
	if (parse_event(db, f, line, p, cls, &ev))
		return;
	if (!common_range(ev.code)) {
		evgen_error(db, f, line, "common event %s has code 0x%04x outside the common ranges "
			    "0x0000-0x003f, 0x4000-0x40ff, 0x8000-0xffff", ev.name, ev.code);
		return;
	}
	db->commons = evgen_grow(db->commons, &db->capcommons, db->ncommons, sizeof(*db->commons));
	db->commons[db->ncommons++] = ev;
}

static void add_own(struct evgen_db *db, struct evgen_core *c, const char *f, int line, char *p)
{
	struct evgen_ev ev = { 0 };
	if (parse_event(db, f, line, p, EVGEN_IMPDEF, &ev))
		return;
	c->own = evgen_grow(c->own, &c->capown, c->nown, sizeof(*c->own));
	c->own[c->nown++] = ev;
}

static void add_ref(struct evgen_db *db, struct evgen_core *c, const char *f, int line, char *p)
{
	struct evgen_ref r = { .file = f, .line = line };
	char *code = evgen_next_field(&p), *name = evgen_next_field(&p);
	if (parse_code(db, f, line, code, &r.code) || check_name(db, f, line, name))
		return;
	if (*evgen_rest_of_line(&p)) {
		evgen_error(db, f, line, "'uses' takes a code and a name only (the description is "
			    "common.ev's)");
		return;
	}
	r.name = evgen_strdup(name);
	c->refs = evgen_grow(c->refs, &c->caprefs, c->nrefs, sizeof(*c->refs));
	c->refs[c->nrefs++] = r;
}

static struct evgen_core *new_core(struct evgen_db *db, const char *f, int line, char *p)
{
	char *id = evgen_next_field(&p), *title;
	struct evgen_core *c;
	if (!id) {
		evgen_error(db, f, line, "empty core id");
		return NULL;
	}
	title = evgen_rest_of_line(&p);
	if (evgen_check_text(db, f, line, "core id", id) ||
	    evgen_check_text(db, f, line, "core title", title))
		return NULL;
	db->cores = evgen_grow(db->cores, &db->capcores, db->ncores, sizeof(*db->cores));
	c = &db->cores[db->ncores++];
	memset(c, 0, sizeof(*c));
	c->id = evgen_strdup(id);
	c->title = evgen_strdup(title);
	c->file = f;
	c->line = line;
	c->counters = -1;
	return c;
}

static void core_midr(struct evgen_db *db, struct evgen_core *c, const char *f, int line, char *p)
{
	int impl = parse_int(db, f, line, "implementer", evgen_next_field(&p), 1, 0xFF);
	int part = impl < 0 ? -1 : parse_int(db, f, line, "part number", evgen_next_field(&p), 0, 0xFFF);
	if (impl < 0 || part < 0)
		return;
	c->impl = (unsigned)impl;
	c->part = (unsigned)part;
	c->has_midr = 1;
}

/* A line of a core file (after its "core" line). */
static void core_line(struct evgen_db *db, struct evgen_core *c, const char *f, int line,
		      const char *kw, char *p)
{
	if (!strcmp(kw, "uses"))
		add_ref(db, c, f, line, p);
	else if (!strcmp(kw, "event"))
		add_own(db, c, f, line, p);
	else if (!strcmp(kw, "architecture")) {
		char *a = evgen_rest_of_line(&p);
		if (!evgen_check_text(db, f, line, "architecture", a))
			c->arch = evgen_strdup(a);
	} else if (!strcmp(kw, "midr"))
		core_midr(db, c, f, line, p);
	else if (!strcmp(kw, "counters"))
		c->counters = parse_int(db, f, line, "counters", evgen_next_field(&p), 1, 31);
	else if (!strcmp(kw, "slots"))
		c->slots = parse_int(db, f, line, "slots", evgen_next_field(&p), 1, 255);
	else if (!strcmp(kw, "arch") || !strcmp(kw, "uarch"))
		evgen_error(db, f, line, "common event in a core file: put it in a file without "
			    "'core'");
	else if (!strcmp(kw, "core"))
		evgen_error(db, f, line, "second 'core' line: one core per file");
	else
		evgen_error(db, f, line, "unknown keyword '%s'", kw);
	if (c->counters < -1)
		c->counters = -1;
	if (c->slots < 0)
		c->slots = 0;
}

int evgen_each_line(struct evgen_db *db, const char *f, evgen_line_fn fn, void *ctx)
{
	char buf[EVGEN_MAX_LINE + 2];
	int line = 0;
	FILE *fp = fopen(f, "r");
	if (!fp) {
		fprintf(stderr, "evgen: cannot open '%s': %s\n", f, strerror(errno));
		db->nerrors++;
		return -1;
	}
	while (fgets(buf, sizeof(buf), fp)) {
		char *p = buf, *kw;
		line++;
		if (!strchr(buf, '\n') && !feof(fp)) {
			evgen_error(db, f, line, "line longer than %d characters", EVGEN_MAX_LINE);
			while (fgets(buf, sizeof(buf), fp) && !strchr(buf, '\n'))
				;
			continue;
		}
		buf[strcspn(buf, "\r\n")] = '\0';
		kw = evgen_next_field(&p);
		if (kw && kw[0] != '#')
			fn(ctx, line, kw, p);
	}
	fclose(fp);
	return 0;
}

/* Where an events/ file's reading is: its core, once its "core" line is read. */
struct ev_reading {
	struct evgen_db *db;
	const char *f;
	struct evgen_core *c;
	int in_core;
};

static void ev_line(void *ctx, int line, char *kw, char *p)
{
	struct ev_reading *r = ctx;
	struct evgen_db *db = r->db;
	const char *f = r->f;

	if (!strcmp(kw, "core") && !r->in_core) {
		r->in_core = 1;
		r->c = new_core(db, f, line, p);
	} else if (r->in_core) {
		if (r->c)
			core_line(db, r->c, f, line, kw, p);
	} else if (!strcmp(kw, "arch"))
		add_common(db, f, line, p, EVGEN_ARCH);
	else if (!strcmp(kw, "uarch"))
		add_common(db, f, line, p, EVGEN_UARCH);
	else
		evgen_error(db, f, line, "'%s' outside a core: start the file with 'core ID "
			    "TITLE'", kw);
}

void evgen_read_file(struct evgen_db *db, const char *f)
{
	struct ev_reading r = { .db = db, .f = f };

	evgen_each_line(db, f, ev_line, &r);
}
