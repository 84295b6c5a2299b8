/* SPDX-License-Identifier: Apache-2.0 */
/* diff.h: `pmuprof diff`'s stages: two stat reports read back and checked (diff_read.c),
 * compared event by event (diff_cmp.c), printed as text, markdown or JSON (diff_out.c). */
#ifndef PMUPROF_DIFF_H
#define PMUPROF_DIFF_H

#include <stdio.h>

#include "report_read.h"
#include "stats.h"

/* The version of diff's own JSON (schema: man/pmuprof-diff.schema.json). */
#define DIFF_SCHEMA_VERSION "1.2"
#define DIFF_DEFAULT_THRESHOLD 2.0	/* percent */
#define DIFF_DEFAULT_ALPHA 0.05

/* One event of a report as diff needs it, or one of its metrics (IPC, MPKI, top-down shares:
 * computed from its events as `pmuprof report` computes them). */
struct diff_event {
	const char *name, *unit, *status;	/* into the saved report or the metric tables; unit
						 * "" when absent */
	const char *cgroup;	/* the cgroup it counted in (stat -G, --for-each-cgroup); NULL:
				 * every task, and every metric */
	int metric;		/* a metric, matched only with the other report's metrics */
	int has;		/* a number was measured (status "counted") */
	int infinite;		/* what it gives is not a finite number (1e999 reads as infinity,
				 * and so does a mean past the largest double): not compared */
	struct stats_summary sum;	/* from "runs", else "stats", else "value" as n = 1 */
};

struct diff_input {
	const char *path;
	struct report_saved saved;	/* the events' strings point into it */
	struct diff_event *events;	/* the events, the metrics, then each region's events */
	size_t nevents;
	char **names;			/* the regions' rows' names ("region NAME: EVENT") */
	size_t nnames;
};

enum diff_err {
	DIFF_OK = 0,
	DIFF_ERR_READ,		/* why.read_err and why.read: the report could not be read */
	DIFF_ERR_NOMEM,
	DIFF_ERR_NO_COMMON,	/* compare: no event name in both reports */
	DIFF_ERR_NO_EVENT,	/* compare: why.what, an --event name, is not in why.side */
};

struct diff_why {
	enum report_read_err read_err;
	struct report_read_why read;
	char what[96];
	const char *side;	/* the path of the report concerned */
};

/* Reads and checks the report at path ("-": standard input; in->path keeps the pointer),
 * with report_read's flags (REPORT_READ_ESCAPE for the text writers). On error in is empty
 * and why says what was wrong. */
enum diff_err diff_read(const char *path, unsigned flags, struct diff_input *in,
			struct diff_why *why);
void diff_input_free(struct diff_input *in);

/* Which way an event's change is a regression; a metric may have neither (an instruction mix,
 * a port's use): a significant change of it is "changed", never a regression. */
enum diff_dir { DIFF_HIGHER_WORSE = 0, DIFF_HIGHER_BETTER, DIFF_NO_DIRECTION };
enum diff_test { DIFF_TEST_NONE = 0, DIFF_TEST_THRESHOLD, DIFF_TEST_WELCH };
enum diff_verdict { DIFF_UNCHANGED = 0, DIFF_REGRESSION, DIFF_IMPROVEMENT, DIFF_NOT_COMPARED,
		    DIFF_CHANGED, DIFF_NVERDICTS };

struct diff_opts {
	double threshold_pct;	/* the smallest change (percent of base) that matters */
	double alpha;		/* significance level of the t-test */
	const char **events;	/* --event: only these events or metrics (all events when
				 * nevents == 0) */
	size_t nevents;
	const char **better;	/* --higher-is-better */
	size_t nbetter;
	const char **worse;	/* --lower-is-better (higher is worse) */
	size_t nworse;
	int metrics;		/* --metrics: every metric of both reports too */
};

struct diff_row {
	const char *name, *unit;
	const char *cgroup;		/* NULL: every task */
	int metric;			/* a metric's row (else an event's) */
	const struct diff_event *base, *new;	/* NULL when the event is not in that report */
	enum diff_dir dir;
	double change, change_pct;	/* new - base (means), and in percent of |base|; NAN: none */
	enum diff_test test;
	struct stats_welch welch;	/* when test == DIFF_TEST_WELCH */
	int significant;
	enum diff_verdict verdict;
	const char *note;	/* why it was not compared, or NULL */
};

struct diff_result {
	const char *base_path, *new_path;
	const struct diff_opts *opts;
	struct diff_row *rows;
	size_t nrows;
	size_t count[DIFF_NVERDICTS];
};

/* The direction an event has unless an option says otherwise: higher is better for IPC-like
 * names ("ipc", "..._per_cycle"), higher is worse for every count. */
enum diff_dir diff_default_dir(const char *name);
/* A metric's: higher is better for IPC, retiring, hit ratios and a prefetcher's accuracy,
 * coverage and timeliness; worse for MPKI, miss, walk and misprediction ratios, the top-down
 * "bound" shares, stalled cycles and latencies; neither for the rest (the mixes). */
enum diff_dir diff_metric_dir(const char *name);

/* Matches the events of a and b by name and cgroup (the k-th of a name in a cgroup with the
 * k-th: one event counted per cgroup is one row per cgroup), in a's order then b's, then their
 * metrics (all with o->metrics, else those --event names) the same way, and judges each.
 * Returns DIFF_OK, DIFF_ERR_NO_EVENT, DIFF_ERR_NO_COMMON or DIFF_ERR_NOMEM; free r with
 * diff_result_free either way. */
enum diff_err diff_compare(const struct diff_input *a, const struct diff_input *b,
			   const struct diff_opts *o, struct diff_result *r, struct diff_why *why);
void diff_result_free(struct diff_result *r);

const char *diff_verdict_str(enum diff_verdict v);
const char *diff_dir_str(enum diff_dir d);
const char *diff_test_str(enum diff_test t);

/* One writer per format; each returns 0, or -1 when the stream failed. */
int diff_text(const struct diff_result *r, FILE *out);
int diff_markdown(const struct diff_result *r, FILE *out);
int diff_json(const struct diff_result *r, FILE *out);

#endif
