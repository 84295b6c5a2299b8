/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_report.c: `pmuprof report FILE.json`: its options, then the pipeline: a saved stat report
 * read back (report_read.c) -> its metrics recomputed from the counts -> text | JSON | CSV (the
 * writers stat prints with) | an export format (export.h). */
#include <argp.h>
#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argp_hint.h"
#include "cmd.h"
#include "ctlesc.h"
#include "evtab.h"
#include "export.h"
#include "metrics.h"
#include "outfile.h"
#include "report_read.h"
#include "resolve.h"
#include "stat.h"

struct report_opts {
	enum export_format format;
	int formats_given;	/* -x, -j and --format together: one too many */
	const char *sep;
	int no_csv_summary;
	const char *output;
	const char *cpu_model;
	const char *file;
	const char **metrics;	/* -M, each name cut from its comma list */
	size_t nmetrics;
};

enum { OPT_FORMAT = 0x400, OPT_NO_CSV_SUMMARY, OPT_CPU_MODEL };

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Print the report as JSON, as 'pmuprof stat -j' does", 0 },
	{ "field-separator", 'x', "SEP", 0,
	  "Print the report as separated values, as 'pmuprof stat -x SEP' does", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0,
	  "text (default), json, csv (-x ','), or a CI dashboard's: bmf, github-benchmark, "
	  "openmetrics, markdown", 0 },
	{ "no-csv-summary", OPT_NO_CSV_SUMMARY, NULL, 0,
	  "With -x and intervals: no 'summary' time field on the totals (perf's option)", 0 },
	{ "output", 'o', "FILE", 0, "Write to FILE (atomically) instead of standard output", 0 },
	{ "cpu-model", OPT_CPU_MODEL, "CORE[:rXpY]", 0,
	  "Recompute the metrics for core CORE at revision rXpY (default: the core the report's "
	  "metrics were for, else the one its MIDR names)", 0 },
	{ "metric", 'M', "NAME", 0,
	  "Also compute metric or group NAME of the core (see 'pmuprof list --metrics'); "
	  "repeatable, or NAME,NAME", 0 },
	{ 0 }
};

static void set_format(struct argp_state *state, struct report_opts *o, const char *arg)
{
	int f = export_format_find(arg, strlen(arg));

	if (f < 0)
		argp_error(state, "--format takes %s, not '%s'", EXPORT_FORMAT_NAMES, arg);
	o->format = (enum export_format)f;
	o->formats_given++;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;

	switch (key) {
	case 'j':
		set_format(state, o, "json");
		break;
	case 'x':
		if (!*arg)
			argp_error(state, "the separator given to -x is empty");
		set_format(state, o, "csv");
		o->sep = arg;
		break;
	case OPT_FORMAT:
		set_format(state, o, arg);
		break;
	case OPT_NO_CSV_SUMMARY:
		o->no_csv_summary = 1;
		break;
	case 'o':
		o->output = arg;
		break;
	case OPT_CPU_MODEL:
		o->cpu_model = arg;
		break;
	case 'M':
		if (metrics_names_add(arg, &o->metrics, &o->nmetrics) != 0)
			argp_failure(state, PP_EXIT_ERROR, 0, "out of memory");
		break;
	case ARGP_KEY_ARG:
		if (o->file)
			argp_error(state, "unexpected argument '%s' (give one report)", arg);
		o->file = arg;
		break;
	case ARGP_KEY_END:
		if (!o->file)
			argp_error(state, "give the report to print (e.g. 'pmuprof report stat.json', "
				   "written by 'pmuprof stat --json -o stat.json')");
		if (o->formats_given > 1)
			argp_error(state, "-x, -j and --format each choose the format: give one");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp report_argp = {
	options, parse_opt, "FILE.json",
	"Print a report saved with 'pmuprof stat --json -o FILE.json' again: as stat printed it "
	"(text, -x SEP, -j), or in a format for CI dashboards (--format). The metrics are "
	"computed again from the saved counts. Exit status: 0, or 2 when the report cannot be "
	"read or the output written.",
	NULL, NULL, NULL
};

/* The core the metrics are for: --cpu-model CORE[:rXpY] (or $PMUPROF_CPU_MODEL), else the one
 * the report's metrics were for ("metrics_core"), else the one its MIDR names. -1 after a
 * message when a model names no core. */
static int metrics_core_of(const struct report_opts *o, const struct report *r,
			   struct metrics_core *mc)
{
	const char *model = resolve_model_name(o->cpu_model);

	if (!model && r->metrics_core)
		model = r->metrics_core;
	if (!model) {
		metrics_core_from_midr(mc, r->host.midr);
		return 0;
	}
	if (metrics_core_named(mc, model) != 0) {
		/* one of the report's is escaped, on the terminal whatever the output */
		char *shown = model == r->metrics_core ? ctlesc_dup(model) : NULL;

		if (model == r->metrics_core)
			msg_error("unknown CPU model '%s' in the report's \"metrics_core\" (give "
				  "--cpu-model CORE: see 'pmuprof list --all-cores')",
				  shown ? shown : "?");
		else
			msg_error("unknown CPU model '%s' (see 'pmuprof list --all-cores')", model);
		free(shown);
		return -1;
	}
	return 0;
}

/* The saved -M names and those given now, each once, into *names (malloc'd). -1 after a
 * message when a name the core's set lacks is given now. */
static int metric_names(const struct report_opts *o, const struct report *r,
			const struct metrics_core *mc, const char ***names, size_t *n)
{
	const char **v = NULL;

	*n = 0;
	for (size_t k = 0; k < r->nmetric_requests + o->nmetrics; k++) {
		const char *name = k < r->nmetric_requests ? r->metric_requests[k]
							    : o->metrics[k - r->nmetric_requests];
		const struct mxtab_group *g;
		const struct mxtab_metric *m;

		/* perf 6.19's names of figures beside an event: those events' figures answer */
		if (k >= r->nmetric_requests && metrics_lookup(mc, name, &g, &m) != 0 &&
		    !metrics_perf_events(name)) {
			stat_metrics_unknown(mc, name);
			free(v);
			return -1;
		}
		if (metrics_names_add_once(&v, n, name) != 0) {
			msg_error("out of memory");
			free(v);
			return -1;
		}
	}
	*names = v;
	return 0;
}

static int write_as(const struct report_opts *o, const struct report *r, FILE *fp)
{
	if (o->sep)	/* -x SEP: the separator given */
		return report_csv(r, fp, o->sep);
	return export_write(o->format, r, fp);
}

/* Prints r to -o's file (atomically) or standard output; 0, or -1 after a message. */
static int print(const struct report_opts *o, const struct report *r)
{
	struct outfile of = { 0 };
	int e;

	if (o->output && (e = outfile_open(&of, o->output)) != 0) {
		msg_error("cannot write report file '%s': %s (choose a writable path for -o)",
			  o->output, e == EISDIR ? "it names a directory" : strerror(e));
		return -1;
	}
	if (write_as(o, r, of.fp ? of.fp : stdout) != 0 || fflush(stdout) != 0) {
		e = errno ? errno : EIO;
		if (of.fp)
			outfile_discard(&of);
		msg_error("cannot write the report: %s", strerror(e));
		return -1;
	}
	if (of.fp && (e = outfile_commit(&of)) != 0) {
		msg_error("cannot write report file '%s': %s", o->output, strerror(e));
		return -1;
	}
	return 0;
}

/* Whether the format is printed as text, whose writers copy the report's strings as they
 * are: then a control character in them (an ESC in an event's name) would reach the terminal
 * raw, and report_read escapes them. The JSON formats' writer escapes them itself. */
static int escapes(enum export_format f)
{
	return f != EXPORT_JSON && f != EXPORT_BMF && f != EXPORT_GITHUB_BENCHMARK;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .format = EXPORT_TEXT };
	struct report_saved s;
	struct report_read_why why;
	struct metrics_core core;
	const char **names = NULL, *const *saved;
	const cJSON *name;
	size_t nnames = 0;
	char mcore[80];
	enum report_read_err rc;
	int status = PP_EXIT_ERROR;

	argp_hint_parse(&report_argp, argc, argv, 0, &o);
	if ((rc = report_read(o.file, escapes(o.format) ? REPORT_READ_ESCAPE : 0, &s, &why)) !=
	    REPORT_READ_OK) {
		msg_report_unread(rc, &why);
		return PP_EXIT_ERROR;
	}
	s.r.csv_no_summary = o.no_csv_summary;
	/* schema 1.6: the run's --name, so that its exports name the benchmark as stat's did */
	if (cJSON_IsString(name = cJSON_GetObjectItemCaseSensitive(s.root, "name")))
		s.r.name = name->valuestring;
	if (metrics_core_of(&o, &s.r, &core) != 0 ||
	    metric_names(&o, &s.r, &core, &names, &nnames) != 0)
		goto out;
	if (report_derive(&s.r, &core, names, nnames) != 0) {
		msg_error("out of memory");
		goto out;
	}
	s.r.metrics_core = metrics_core_id(&core, mcore, sizeof(mcore));
	if (s.r.topdown_group)	/* the tree of the saved --topdown, from its core's set */
		s.r.topdown_set = core.set;
	saved = s.r.metric_requests;
	s.r.metric_requests = names;
	s.r.nmetric_requests = nnames;
	if (print(&o, &s.r) == 0)
		status = 0;
	s.r.metric_requests = saved;
out:
	free(names);
	free(o.metrics);
	report_saved_free(&s);
	return status;
}
