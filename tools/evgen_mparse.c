/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen_mparse.c: reads one events/metrics file (its format: events/README.md) into the
 * generator's records: the core and revisions, then "group" and "metric" records, each followed
 * by its attribute lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

/* "rXpY" -> variant << 4 | revision; -1 when it is not one (X and Y from 0 to 15). */
static int parse_rev(const char *s)
{
	char *end;
	long v, r;

	if (!s || s[0] != 'r' || s[1] < '0' || s[1] > '9')
		return -1;
	v = strtol(s + 1, &end, 10);
	if (*end != 'p' || end[1] < '0' || end[1] > '9' || v > 15)
		return -1;
	r = strtol(end + 1, &end, 10);
	return *end || r > 15 ? -1 : (int)(v << 4 | r);
}

static void file_head(struct evgen_db *db, struct evgen_mfile *m, const char *f, int line,
		      const char *kw, char *p)
{
	if (!strcmp(kw, "core")) {
		char *id = evgen_next_field(&p);

		if (m->core || !id || *evgen_rest_of_line(&p))
			evgen_error(db, f, line, m->core ? "second 'core' line: one core per file" :
				    "'core' takes one core id");
		else
			m->core = evgen_strdup(id);
		m->line = line;
	} else {
		int lo = parse_rev(evgen_next_field(&p)), hi = parse_rev(evgen_next_field(&p));

		if (lo < 0 || hi < lo || *evgen_rest_of_line(&p))
			evgen_error(db, f, line, "'revisions' takes two revisions such as r0p0 r0p2, "
				    "the first not after the second");
		else {
			m->lo = (unsigned)lo;
			m->hi = (unsigned)hi;
		}
	}
}

/* A name of a metric or a group: letters, digits and '_', starting with a letter. */
static char *record_name(struct evgen_db *db, const char *f, int line, const char *kw, char *p)
{
	char *n = evgen_next_field(&p);

	if (!n || *evgen_rest_of_line(&p)) {
		evgen_error(db, f, line, "'%s' takes one name", kw);
		return NULL;
	}
	for (const char *c = n; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') && *c != '_' &&
		    !(c > n && *c >= '0' && *c <= '9')) {
			evgen_error(db, f, line, "bad %s name '%s': want letters, digits and '_', "
				    "starting with a letter", kw, n);
			return NULL;
		}
	for (const char *c = n; kw[0] == 'm' && *c; c++)
		if (*c >= 'A' && *c <= 'Z') {
			/* src/metrics/mxtab.c finds metrics by a case-insensitive binary search */
			evgen_error(db, f, line, "metric name '%s' is not lower case", n);
			return NULL;
		}
	if (strlen(n) > EVGEN_MAX_NAME) {
		evgen_error(db, f, line, "%s name '%s' is longer than %d", kw, n, EVGEN_MAX_NAME);
		return NULL;
	}
	return evgen_strdup(n);
}

/* An attribute's text: once per record, plain printable ASCII, not empty. */
static void set_text(struct evgen_db *db, const char *f, int line, const char *kw, char **dst,
		     char *p)
{
	char *v = evgen_rest_of_line(&p);

	if (*dst)
		evgen_error(db, f, line, "second '%s' line in one record", kw);
	else if (!evgen_check_text(db, f, line, kw, v))
		*dst = evgen_strdup(v);
}

static void metric_attr(struct evgen_db *db, struct evgen_metric *m, const char *f, int line,
			const char *kw, char *p)
{
	if (!strcmp(kw, "title"))
		set_text(db, f, line, kw, &m->title, p);
	else if (!strcmp(kw, "unit"))
		set_text(db, f, line, kw, &m->unit, p);
	else if (!strcmp(kw, "formula")) {
		set_text(db, f, line, kw, &m->formula, p);
		m->formula_line = line;
	} else if (!strcmp(kw, "next")) {
		set_text(db, f, line, kw, &m->next, p);
		m->next_line = line;
	} else
		evgen_error(db, f, line, "unknown keyword '%s' in metric %s (title, unit, formula, "
			    "next)", kw, m->name);
}

static void group_attr(struct evgen_db *db, struct evgen_group *g, const char *f, int line,
		       const char *kw, char *p)
{
	if (!strcmp(kw, "title"))
		set_text(db, f, line, kw, &g->title, p);
	else if (!strcmp(kw, "metrics")) {
		set_text(db, f, line, kw, &g->members, p);
		g->members_line = line;
	} else if (!strcmp(kw, "stage")) {
		char *v = evgen_next_field(&p);

		if (!v || (strcmp(v, "1") && strcmp(v, "2")) || *evgen_rest_of_line(&p))
			evgen_error(db, f, line, "'stage' is 1 or 2 (top-down stage)");
		else
			g->stage = *v - '0';
	} else
		evgen_error(db, f, line, "unknown keyword '%s' in group %s (title, stage, "
			    "metrics)", kw, g->name);
}

/* Starts a metric or group record; 0 when its name is refused (its attributes are skipped). */
static int new_record(struct evgen_db *db, struct evgen_mfile *m, const char *f, int line,
		      const char *kw, char *p)
{
	char *n = record_name(db, f, line, kw, p);

	if (!n)
		return 0;
	if (!strcmp(kw, "metric")) {
		m->metrics = evgen_grow(m->metrics, &m->capmetrics, m->nmetrics, sizeof(*m->metrics));
		m->metrics[m->nmetrics++] = (struct evgen_metric){ .name = n, .file = f, .line = line };
	} else {
		m->groups = evgen_grow(m->groups, &m->capgroups, m->ngroups, sizeof(*m->groups));
		m->groups[m->ngroups++] = (struct evgen_group){ .name = n, .file = f, .line = line };
	}
	return 1;
}

/* Where a metrics file's reading is: which record its attribute lines belong to. */
struct m_reading {
	struct evgen_db *db;
	size_t m;	/* db->mfiles index (the array may move as files are added) */
	int in;		/* 0 before any record, 1 in a metric, 2 in a group, 3 skip */
};

static void m_line(void *ctx, int line, char *kw, char *p)
{
	struct m_reading *r = ctx;
	struct evgen_db *db = r->db;
	struct evgen_mfile *m = &db->mfiles[r->m];
	const char *f = m->file;

	if (!strcmp(kw, "metric") || !strcmp(kw, "group"))
		r->in = new_record(db, m, f, line, kw, p) ? kw[0] == 'm' ? 1 : 2 : 3;
	else if (!r->in && (!strcmp(kw, "core") || !strcmp(kw, "revisions")))
		file_head(db, m, f, line, kw, p);
	else if (r->in == 1)
		metric_attr(db, &m->metrics[m->nmetrics - 1], f, line, kw, p);
	else if (r->in == 2)
		group_attr(db, &m->groups[m->ngroups - 1], f, line, kw, p);
	else if (!r->in)
		evgen_error(db, f, line, "'%s' before any 'metric' or 'group' record", kw);
}

void evgen_read_metrics(struct evgen_db *db, const char *f)
{
	struct m_reading r = { .db = db, .m = db->nmfiles };

	db->mfiles = evgen_grow(db->mfiles, &db->capmfiles, db->nmfiles, sizeof(*db->mfiles));
	db->mfiles[db->nmfiles++] = (struct evgen_mfile){ .file = f, .line = 1, .hi = 0xff };
	if (evgen_each_line(db, f, m_line, &r))
		db->nmfiles--;
}
