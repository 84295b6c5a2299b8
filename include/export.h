/* export.h: the report in the formats CI dashboards read: Bencher Metric Format,
 * github-action-benchmark's JSON, the OpenMetrics text exposition, a markdown table, besides
 * stat's own text, JSON and CSV; written by `pmuprof stat --export FORMAT:FILE` (one run, as
 * many files as wanted) and `pmuprof report --format FORMAT`. Each writer takes the same
 * report struct. */
#ifndef PMUPROF_EXPORT_H
#define PMUPROF_EXPORT_H

#include <stdio.h>

#include "outfile.h"
#include "report.h"

enum export_format {
	EXPORT_TEXT = 0,	/* stat's own three: report_text, report_json, report_csv (",") */
	EXPORT_JSON,
	EXPORT_CSV,
	EXPORT_BMF,
	EXPORT_GITHUB_BENCHMARK,
	EXPORT_OPENMETRICS,
	EXPORT_MARKDOWN,
	EXPORT_NFORMATS
};

/* The names, as the options spell them, for messages. */
#define EXPORT_FORMAT_NAMES "text, json, csv, bmf, github-benchmark, openmetrics, markdown"

/* The format called name (its first len characters); -1 when there is none. */
int export_format_find(const char *name, size_t len);
const char *export_format_name(enum export_format f);
/* Writes r in format f; 0, or -1 when the stream failed. */
int export_write(enum export_format f, const struct report *r, FILE *out);

/* One writer per format (export_json.c, export_text.c). */
int export_bmf(const struct report *r, FILE *out);
int export_github_benchmark(const struct report *r, FILE *out);
int export_openmetrics(const struct report *r, FILE *out);
int export_markdown(const struct report *r, FILE *out);

/* --export FORMAT:FILE, repeatable. */
#define EXPORT_MAX 16
struct export_spec {
	enum export_format format;
	const char *path;	/* the argument's FILE part */
};
struct export_set {
	struct export_spec spec[EXPORT_MAX];
	size_t n;
};

enum export_add_err { EXPORT_ADD_OK = 0, EXPORT_ADD_FORMAT, EXPORT_ADD_NO_FILE,
		      EXPORT_ADD_TOO_MANY, EXPORT_ADD_TWICE };
/* Adds "FORMAT:FILE" to s (path points into arg). */
enum export_add_err export_add(struct export_set *s, const char *arg);

/* Whether s writes format f. */
int export_has(const struct export_set *s, enum export_format f);
/* Opens s's files (outfile.h: each a temporary file beside its target) into of[0..s->n-1].
 * 0, or an errno with *failed the index of the file that could not be opened (those opened
 * before it are discarded). Done before the workload runs. */
int export_open(const struct export_set *s, struct outfile *of, size_t *failed);
/* Writes r to each open file in its format and renames it over its target. 0, or the errno of
 * the first that failed (*failed its index); every file is committed or discarded either way. */
int export_commit(const struct export_set *s, struct outfile *of, const struct report *r,
		  size_t *failed);
/* Removes the temporary files of a run that produced no report. */
void export_discard(const struct export_set *s, struct outfile *of);

#endif
