/* SPDX-License-Identifier: Apache-2.0 */
/* report_read.c: a saved stat report read back: the file, its JSON, its schema version, its
 * fields' types (report_check.c), then the document's fields into struct report
 * (report_load.c). Fields this pmuprof does not know (a newer minor version's) are left
 * alone. */
#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlesc.h"
#include "report_read_priv.h"
#include "report_read.h"

/* The whole file ("-": standard input), NUL-terminated; NULL with errno set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL, *p;
	size_t cap = 0, n = 0, got;
	int e;

	if (!f)
		return NULL;
	errno = 0;
	do {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 16384;
			if (!(p = realloc(buf, cap))) {
				e = ENOMEM;
				goto fail;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		e = errno ? errno : EIO;	/* EISDIR for a directory */
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	if (f != stdin)
		fclose(f);
	errno = e;
	return NULL;
}

/* Line and column (from 1) of position pos in text. */
static void locate(const char *text, const char *pos, struct report_read_why *why)
{
	why->line = 1;
	why->col = 1;
	for (const char *p = text; p < pos && *p; p++) {
		if (*p == '\n') {
			why->line++;
			why->col = 1;
		} else {
			why->col++;
		}
	}
}

/* Parses text; a failure where only blanks follow means the text ends early. */
static enum report_read_err parse(const char *text, size_t len, cJSON **root,
				  struct report_read_why *why)
{
	const char *err, *p;

	if (len == 0 || strspn(text, " \t\r\n") == len)
		return REPORT_READ_EMPTY;
	/* a NUL byte is not JSON text; there is the error (cJSON's error pointer would be left
	 * from an earlier parse, another report's) */
	if (strlen(text) != len) {
		locate(text, text + strlen(text), why);
		return REPORT_READ_JSON;
	}
	/* len + 1: cJSON checks that the terminating NUL follows the value, within the length */
	if ((*root = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1)))
		return REPORT_READ_OK;
	err = cJSON_GetErrorPtr();
	if (!err || err < text || err > text + len)
		err = text + len;
	locate(text, err, why);
	for (p = err; p < text + len && strchr(" \t\r\n", *p); p++)
		;
	return p == text + len ? REPORT_READ_TRUNCATED : REPORT_READ_JSON;
}

static enum report_read_err not_report(struct report_read_why *why, const char *what)
{
	snprintf(why->what, sizeof(why->what), "%s", what);
	return REPORT_READ_NOT_REPORT;
}

/* schema_version "MAJOR.MINOR" with MAJOR == REPORT_READ_MAJOR. */
static enum report_read_err check_version(const cJSON *root, struct report_read_why *why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
	char *end;
	long major;

	if (!cJSON_IsString(v))
		return not_report(why, "no \"schema_version\" string");
	major = strtol(v->valuestring, &end, 10);
	if (end == v->valuestring || *end != '.' || major != REPORT_READ_MAJOR) {
		/* quoted in a message on the terminal, whatever the output */
		char *shown = ctlesc_dup(v->valuestring);

		snprintf(why->what, sizeof(why->what), "%s", shown ? shown : "?");
		free(shown);
		return REPORT_READ_VERSION;
	}
	return REPORT_READ_OK;
}

/* Whether o's "value", when a number, can be a count: from 0 to 2^64 (the writers print it
 * as a 64-bit count). */
static int count_ok(const cJSON *o)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "value");

	return !cJSON_IsNumber(v) || (v->valuedouble >= 0 && v->valuedouble < 0x1p64);
}

/* The values of the events, their parts, and each interval's events. */
static int counts_ok(const cJSON *root)
{
	const cJSON *it, *d;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(root, "events")) {
		if (!count_ok(it))
			return 0;
		cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(it, "split"))
			if (!count_ok(d))
				return 0;
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(root, "intervals"))
		cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(it, "events"))
			if (!count_ok(d))
				return 0;
	return 1;
}

/* pmuprof diff's own report (man/pmuprof-diff.5) has no command: its paths and verdict. */
static int is_diff(const cJSON *root)
{
	return cJSON_GetObjectItemCaseSensitive(root, "base") &&
	       cJSON_GetObjectItemCaseSensitive(root, "regressed") &&
	       !cJSON_GetObjectItemCaseSensitive(root, "command");
}

/* The events array, each event's name, and counts that can be counts: what makes a document
 * a report, with the command it counted. */
static enum report_read_err check_events(const cJSON *root, struct report_read_why *why)
{
	const cJSON *evs = cJSON_GetObjectItemCaseSensitive(root, "events"), *it;

	if (!cJSON_IsArray(evs))
		return not_report(why, "no \"events\" array");
	cJSON_ArrayForEach(it, evs)
		if (!cJSON_IsObject(it) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it,
											    "name")))
			return not_report(why, "an event without a \"name\" string");
	if (!counts_ok(root))
		return not_report(why, "a value that is not a count (below 0 or past 2^64)");
	/* one of another type is report_check's to name */
	if (!cJSON_GetObjectItemCaseSensitive(root, "command"))
		return not_report(why, "no \"command\" array");
	return REPORT_READ_OK;
}

/* Every string of the document (below node) that holds a control character, escaped in its
 * place; the document's own kept in s->swapped. -1 when memory ran out. */
static int escape(cJSON *node, struct report_saved *s, size_t *cap)
{
	for (cJSON *it = node; it; it = it->next) {
		char *esc;

		if (it->child && escape(it->child, s, cap) != 0)
			return -1;
		if (!cJSON_IsString(it) || !ctlesc_needed(it->valuestring))
			continue;
		if (s->nswapped == *cap) {
			size_t n = *cap ? 2 * *cap : 16;
			struct report_saved_swap *p = realloc(s->swapped, n * sizeof(*p));

			if (!p)
				return -1;
			s->swapped = p;
			*cap = n;
		}
		if (!(esc = ctlesc_dup(it->valuestring)))
			return -1;
		s->swapped[s->nswapped++] = (struct report_saved_swap){ it, it->valuestring };
		it->valuestring = esc;
	}
	return 0;
}

enum report_read_err report_read(const char *path, unsigned flags, struct report_saved *s,
				 struct report_read_why *why)
{
	size_t len = 0, cap = 0;
	char *text;
	enum report_read_err rc;

	memset(s, 0, sizeof(*s));
	memset(why, 0, sizeof(*why));
	why->path = path;
	if (!(text = slurp(path, &len))) {
		why->err = errno;
		return errno == ENOMEM ? REPORT_READ_NOMEM : REPORT_READ_IO;
	}
	rc = parse(text, len, &s->root, why);
	free(text);
	if (rc == REPORT_READ_OK && !cJSON_IsObject(s->root))
		rc = not_report(why, "not a JSON object");
	if (rc == REPORT_READ_OK && is_diff(s->root))
		rc = REPORT_READ_DIFF;
	if (rc == REPORT_READ_OK)
		rc = check_version(s->root, why);
	if (rc == REPORT_READ_OK)
		rc = check_events(s->root, why);
	if (rc == REPORT_READ_OK && report_check(s->root, why->what, sizeof(why->what)) != 0)
		rc = REPORT_READ_FIELD;
	if (rc == REPORT_READ_OK && (flags & REPORT_READ_ESCAPE) && escape(s->root, s, &cap) != 0)
		rc = REPORT_READ_NOMEM;
	if (rc == REPORT_READ_OK && report_load(s->root, &s->r) != 0)
		rc = REPORT_READ_NOMEM;
	if (rc != REPORT_READ_OK)
		report_saved_free(s);
	return rc;
}

void report_saved_free(struct report_saved *s)
{
	report_load_free(&s->r);
	for (size_t k = 0; k < s->nswapped; k++) {
		free(s->swapped[k].node->valuestring);
		s->swapped[k].node->valuestring = s->swapped[k].doc;
	}
	free(s->swapped);
	s->swapped = NULL;
	s->nswapped = 0;
	cJSON_Delete(s->root);
	s->root = NULL;
}
