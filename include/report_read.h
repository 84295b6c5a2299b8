/* SPDX-License-Identifier: Apache-2.0 */
/* report_read.h: a saved `pmuprof stat --json` report read back into struct report, the one
 * reader of saved reports (pmuprof report prints it again, pmuprof diff compares two). */
#ifndef PMUPROF_REPORT_READ_H
#define PMUPROF_REPORT_READ_H

#include "report.h"

/* The major version of the report schema this pmuprof reads (man/pmuprof-json.5); any minor
 * version of it is read, fields it does not know being left alone. */
#define REPORT_READ_MAJOR 1

enum report_read_err {
	REPORT_READ_OK = 0,
	REPORT_READ_IO,		/* why.err: the errno */
	REPORT_READ_EMPTY,
	REPORT_READ_JSON,	/* why.line, why.col: where parsing failed */
	REPORT_READ_TRUNCATED,	/* why.line: where the text ends */
	REPORT_READ_NOT_REPORT,	/* why.what: the field missing, or the events' */
	REPORT_READ_VERSION,	/* why.what: the schema_version found (escaped) */
	REPORT_READ_NOMEM,
	REPORT_READ_DIFF,	/* a report of pmuprof diff's, not of stat's */
	REPORT_READ_FIELD,	/* why.what: a field of the wrong type, by its path (jq's
				 * spelling), or two that disagree */
};

struct report_read_why {
	int err, line, col;
	char what[200];
	const char *path;	/* the report concerned */
};

/* A report read back: r's strings point into the parsed document, root. */
struct report_saved {
	struct report r;
	struct cJSON *root;
	/* REPORT_READ_ESCAPE: the document's strings that were escaped, each in its node's
	 * place until report_saved_free puts it back (cJSON frees what it allocated) */
	struct report_saved_swap *swapped;
	size_t nswapped;
};

/* How to read. */
enum report_read_flags {
	/* every string of the document with its control characters escaped (ctlesc.h), for
	 * the writers that print text; JSON's writers escape them themselves */
	REPORT_READ_ESCAPE = 1 << 0,
};

/* Reads and checks the report at path ("-": standard input). "schema_version" (1.x), a
 * "command" array, "events" and each event's "name" are required; what is absent reads as
 * not measured (status "not counted" when no value is given), and a field of a type the
 * schema does not give it is refused (REPORT_READ_FIELD). r.metrics is left empty: the
 * metrics are recomputed from the counts (metrics_compute; an array the caller sets there is
 * freed with s). With runs, every event has r.nruns values in runs (NAN where a run has none;
 * a report whose events give runs but no "repeat" object has the longest of them as nruns)
 * and stats.n == 0 when it gave no "stats". flags: enum report_read_flags. On error s is
 * empty and why says what was wrong. */
enum report_read_err report_read(const char *path, unsigned flags, struct report_saved *s,
				 struct report_read_why *why);
void report_saved_free(struct report_saved *s);

#endif
