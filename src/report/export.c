/* SPDX-License-Identifier: Apache-2.0 */
/* export.c: the export formats by name, the --export FORMAT:FILE list, and its files written
 * after the run (outfile.c). The writers are in export_json.c and export_text.c. */
#include <errno.h>
#include <string.h>

#include "ascii.h"
#include "export.h"

static int csv(const struct report *r, FILE *out)
{
	return report_csv(r, out, ",");
}

static const struct {
	const char *name;
	int (*write)(const struct report *r, FILE *out);
} formats[EXPORT_NFORMATS] = {
	[EXPORT_TEXT] = { "text", report_text },
	[EXPORT_JSON] = { "json", report_json },
	[EXPORT_CSV] = { "csv", csv },
	[EXPORT_BMF] = { "bmf", export_bmf },
	[EXPORT_GITHUB_BENCHMARK] = { "github-benchmark", export_github_benchmark },
	[EXPORT_OPENMETRICS] = { "openmetrics", export_openmetrics },
	[EXPORT_MARKDOWN] = { "markdown", export_markdown },
};

int export_format_find(const char *name, size_t len)
{
	for (int f = 0; f < EXPORT_NFORMATS; f++)
		if (strlen(formats[f].name) == len && strncmp(formats[f].name, name, len) == 0)
			return f;
	return -1;
}

const char *export_cgroup_name(const char *name, const char *cgroup, char *buf, size_t len)
{
	if (!cgroup)
		return name;
	snprintf(buf, len, "%s (cgroup %s)", name, cgroup);
	return buf;
}

const char *export_format_name(enum export_format f)
{
	return formats[f].name;
}

int export_write(enum export_format f, const struct report *r, FILE *out)
{
	return formats[f].write(r, out);
}

enum export_add_err export_add(struct export_set *s, const char *arg)
{
	const char *colon = strchr(arg, ':');
	int f = colon ? export_format_find(arg, (size_t)(colon - arg)) : -1;

	if (f < 0)
		return EXPORT_ADD_FORMAT;
	if (!colon[1])
		return EXPORT_ADD_NO_FILE;
	if (s->n == EXPORT_MAX)
		return EXPORT_ADD_TOO_MANY;
	/* two writers renaming over one file, however spelled: the second would silently win */
	for (size_t k = 0; k < s->n; k++)
		if (outfile_same(s->spec[k].path, colon + 1))
			return EXPORT_ADD_TWICE;
	s->spec[s->n++] = (struct export_spec){ .format = (enum export_format)f,
						.path = colon + 1 };
	return EXPORT_ADD_OK;
}

int export_has(const struct export_set *s, enum export_format f)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->spec[k].format == f)
			return 1;
	return 0;
}

int export_check(const struct export_set *s, size_t *failed)
{
	int e;

	for (size_t k = 0; k < s->n; k++)
		if ((e = outfile_check(s->spec[k].path)) != 0) {
			*failed = k;
			return e;
		}
	return 0;
}

/* One file written atomically, in its format or (totals) as the counts so far: 0 or an
 * errno. */
static int commit_one(const struct export_spec *sp, const struct report *r, int totals)
{
	struct outfile of;
	int e, w;

	if ((e = outfile_open(&of, sp->path)) != 0)
		return e;
	w = totals ? export_openmetrics_totals(r, of.fp) : export_write(sp->format, r, of.fp);
	if (w != 0) {
		e = errno ? errno : EIO;
		outfile_discard(&of);
		return e;
	}
	return outfile_commit(&of);
}

/* The files of s (totals: the OpenMetrics ones only, with the counts so far). */
static int commit_all(const struct export_set *s, const struct report *r, size_t *failed,
		      int totals)
{
	int first = 0, e;

	for (size_t k = 0; k < s->n; k++) {
		if (totals && s->spec[k].format != EXPORT_OPENMETRICS)
			continue;
		if ((e = commit_one(&s->spec[k], r, totals)) && !first) {
			first = e;
			*failed = k;
		}
	}
	return first;
}

int export_commit(const struct export_set *s, const struct report *r, size_t *failed)
{
	return commit_all(s, r, failed, 0);
}

int export_commit_totals(const struct export_set *s, const struct report *r, size_t *failed)
{
	return commit_all(s, r, failed, 1);
}
