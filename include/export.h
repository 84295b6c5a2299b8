/* SPDX-License-Identifier: Apache-2.0 */
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
/* The counts so far as OpenMetrics counters alone (pmuprof_events_total and the enabled and
 * running seconds), the file -I rewrites at each interval; with -I, export_openmetrics
 * begins with the same families. */
int export_openmetrics_totals(const struct report *r, FILE *out);
int export_markdown(const struct report *r, FILE *out);

/* name as the exports that key by name write it (BMF's measures, github-benchmark's
 * entries): "NAME (cgroup CGROUP)" for an event or metric of a cgroup (-G, --for-each-cgroup),
 * so that one name counted in several cgroups stays apart; the name alone otherwise. */
const char *export_cgroup_name(const char *name, const char *cgroup, char *buf, size_t len);

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
/* Adds "FORMAT:FILE" to s (path points into arg); EXPORT_ADD_TWICE when another export
 * would replace the same file (outfile_same). */
enum export_add_err export_add(struct export_set *s, const char *arg);

/* Whether s writes format f. */
int export_has(const struct export_set *s, enum export_format f);
/* Whether every file of s could be written (outfile_check), making nothing: 0, or the errno
 * of the first that could not, *failed its index. Done before the workload runs. */
int export_check(const struct export_set *s, size_t *failed);
/* Writes r to each file of s in its format (outfile.h: a regular file atomically, made only
 * now). 0, or the errno of the first that failed (*failed its index); every file is
 * written or left as it was either way. */
int export_commit(const struct export_set *s, const struct report *r, size_t *failed);
/* -I: each OpenMetrics file of s rewritten atomically with the counts so far
 * (export_openmetrics_totals), for a collector that reads it at any time (node_exporter's
 * textfile collector). As export_commit returns. */
int export_commit_totals(const struct export_set *s, const struct report *r, size_t *failed);

#endif
