/* diff_read.c: a stat report read back for `pmuprof diff`: the file, its JSON, the fields diff
 * relies on (man/pmuprof-json.5), and each event's per-run values or single value. */
#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* The whole file, NUL-terminated; NULL with errno set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
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
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	errno = e;
	return NULL;
}

/* Line and column (from 1) of position pos in text. */
static void locate(const char *text, const char *pos, struct diff_why *why)
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
static enum diff_err parse(const char *text, size_t len, cJSON **root, struct diff_why *why)
{
	const char *err, *p;

	if (len == 0 || strspn(text, " \t\r\n") == len)
		return DIFF_ERR_EMPTY;
	/* a NUL byte is not JSON text; there is the error (cJSON's error pointer would be left
	 * from an earlier parse, the other report's) */
	if (strlen(text) != len) {
		locate(text, text + strlen(text), why);
		return DIFF_ERR_JSON;
	}
	/* len + 1: cJSON checks that the terminating NUL follows the value, within the length */
	if ((*root = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1)))
		return DIFF_OK;
	err = cJSON_GetErrorPtr();
	if (!err || err < text || err > text + len)
		err = text + len;
	locate(text, err, why);
	for (p = err; p < text + len && strchr(" \t\r\n", *p); p++)
		;
	return p == text + len ? DIFF_ERR_TRUNCATED : DIFF_ERR_JSON;
}

static enum diff_err not_report(struct diff_why *why, const char *what)
{
	snprintf(why->what, sizeof(why->what), "%s", what);
	return DIFF_ERR_NOT_REPORT;
}

/* schema_version "MAJOR.MINOR" with MAJOR == DIFF_REPORT_MAJOR. */
static enum diff_err check_version(const cJSON *root, struct diff_why *why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
	char *end;
	long major;

	if (!cJSON_IsString(v))
		return not_report(why, "no \"schema_version\" string");
	major = strtol(v->valuestring, &end, 10);
	if (end == v->valuestring || *end != '.' || major != DIFF_REPORT_MAJOR) {
		snprintf(why->what, sizeof(why->what), "%s", v->valuestring);
		return DIFF_ERR_VERSION;
	}
	return DIFF_OK;
}

/* The numbers of a "runs" array (nulls, runs that measured nothing, are left out) summarized;
 * -1 when there is none, -2 when memory ran out. */
static int runs_summary(const cJSON *runs, struct stats_summary *s)
{
	int n = cJSON_GetArraySize(runs), k = 0, rc;
	double *v;
	const cJSON *it;

	if (n <= 0)
		return -1;
	if (!(v = malloc((size_t)n * sizeof(*v))))
		return -2;
	cJSON_ArrayForEach(it, runs)
		if (cJSON_IsNumber(it))
			v[k++] = it->valuedouble;
	rc = k ? stats_summarize(v, (size_t)k, s) : -1;
	free(v);
	return rc ? (k ? -2 : -1) : 0;
}

/* A "stats" object's n, mean and stddev (the rest is recomputed when needed); -1 if unusable. */
static int stats_object(const cJSON *st, struct stats_summary *s)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(st, "n");
	const cJSON *mean = cJSON_GetObjectItemCaseSensitive(st, "mean");
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(st, "stddev");

	if (!cJSON_IsNumber(n) || n->valuedouble < 1 || !cJSON_IsNumber(mean))
		return -1;
	memset(s, 0, sizeof(*s));
	s->n = (size_t)n->valuedouble;
	s->mean = s->median = s->min = s->max = mean->valuedouble;
	s->stddev = cJSON_IsNumber(sd) && s->n > 1 ? sd->valuedouble : NAN;
	s->cv = s->rse = s->ci_lo = s->ci_hi = NAN;
	return 0;
}

/* One event: its name, and what it measured, by preference per-run values (pmuprof stat -r),
 * a summary of them, else the single value. */
static enum diff_err read_event(const cJSON *o, struct diff_event *e, struct diff_why *why)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(o, "unit");
	const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
	const cJSON *value = cJSON_GetObjectItemCaseSensitive(o, "value");
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(o, "runs");
	int rc = -1;

	if (!cJSON_IsObject(o) || !cJSON_IsString(name))
		return not_report(why, "an event without a \"name\" string");
	e->name = name->valuestring;
	e->unit = cJSON_IsString(unit) ? unit->valuestring : "";
	e->status = cJSON_IsString(status) ? status->valuestring : "unknown";
	if (cJSON_IsArray(runs) && (rc = runs_summary(runs, &e->sum)) == -2)
		return DIFF_ERR_NOMEM;
	if (rc)
		rc = stats_object(cJSON_GetObjectItemCaseSensitive(o, "stats"), &e->sum);
	if (rc && cJSON_IsNumber(value))
		rc = stats_summarize(&value->valuedouble, 1, &e->sum) ? -2 : 0;
	if (rc == -2)
		return DIFF_ERR_NOMEM;
	e->has = rc == 0;
	return DIFF_OK;
}

static enum diff_err read_events(const cJSON *root, struct diff_input *in, struct diff_why *why)
{
	const cJSON *evs = cJSON_GetObjectItemCaseSensitive(root, "events"), *it;
	enum diff_err rc;
	int n;

	if (!cJSON_IsArray(evs))
		return not_report(why, "no \"events\" array");
	n = cJSON_GetArraySize(evs);
	if (n && !(in->events = calloc((size_t)n, sizeof(*in->events))))
		return DIFF_ERR_NOMEM;
	cJSON_ArrayForEach(it, evs) {
		if ((rc = read_event(it, &in->events[in->nevents], why)) != DIFF_OK)
			return rc;
		in->nevents++;
	}
	return DIFF_OK;
}

enum diff_err diff_read(const char *path, struct diff_input *in, struct diff_why *why)
{
	size_t len = 0;
	char *text;
	enum diff_err rc;

	memset(in, 0, sizeof(*in));
	memset(why, 0, sizeof(*why));
	why->side = path;
	if (!(text = slurp(path, &len))) {
		why->err = errno;
		return errno == ENOMEM ? DIFF_ERR_NOMEM : DIFF_ERR_IO;
	}
	rc = parse(text, len, &in->root, why);
	free(text);
	if (rc == DIFF_OK && !cJSON_IsObject(in->root))
		rc = not_report(why, "not a JSON object");
	if (rc == DIFF_OK)
		rc = check_version(in->root, why);
	if (rc == DIFF_OK)
		rc = read_events(in->root, in, why);
	if (rc != DIFF_OK)
		diff_input_free(in);
	in->path = path;
	return rc;
}

void diff_input_free(struct diff_input *in)
{
	cJSON_Delete(in->root);
	free(in->events);
	in->root = NULL;
	in->events = NULL;
	in->nevents = 0;
}
