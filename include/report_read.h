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
	REPORT_READ_NOT_REPORT,	/* why.what: the field missing or of the wrong type */
	REPORT_READ_VERSION,	/* why.what: the schema_version found */
	REPORT_READ_NOMEM,
};

struct report_read_why {
	int err, line, col;
	char what[96];
	const char *path;	/* the report concerned */
};

/* A report read back: r's strings point into the parsed document, root. */
struct report_saved {
	struct report r;
	struct cJSON *root;
};

/* Reads and checks the report at path. Only "schema_version" (1.x), "events" and each event's
 * "name" are required; what is absent reads as not measured (status "not counted" when no
 * value is given). r.metrics is left empty: the metrics are recomputed from the counts
 * (metrics_compute; an array the caller sets there is freed with s). With runs, every event
 * has r.nruns values in runs (NAN where a run has none; a report whose events give runs but
 * no "repeat" object has the longest of them as nruns) and stats.n == 0 when it gave no
 * "stats". On error s is empty and why says what was wrong. */
enum report_read_err report_read(const char *path, struct report_saved *s,
				 struct report_read_why *why);
void report_saved_free(struct report_saved *s);

#endif
