/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_diff.c: `pmuprof diff BASE NEW`: its options, then the pipeline: two stat reports read
 * and checked -> events matched and judged -> text | markdown | JSON; exit 1 on a regression. */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argp_hint.h"
#include "cmd.h"
#include "diff.h"

/* Exit status when an event regressed (0: none did; PP_EXIT_ERROR: diff could not tell). */
#define DIFF_EXIT_REGRESSED 1

enum diff_format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON };

struct cmd_diff_opts {
	struct diff_opts d;
	enum diff_format format;
	const char *files[2];
	int nfiles;
	int allow_empty;	/* --allow-empty: comparing nothing is no error */
};

enum { OPT_BETTER = 0x100, OPT_WORSE, OPT_ALPHA, OPT_METRICS, OPT_THRESHOLD, OPT_ALLOW_EMPTY };

static const struct argp_option options[] = {
	/* no -t: perf's -t is --tid (pmuprof stat's too) */
	{ "threshold", OPT_THRESHOLD, "PCT", 0,
	  "The smallest change that counts, in percent of BASE (default: 2; '2%' works too)", 0 },
	{ "event", 'e', "NAME", 0,
	  "Compare only this event or metric; repeatable (default: every event)", 0 },
	{ "metrics", OPT_METRICS, NULL, 0,
	  "Compare the reports' metrics too (IPC, MPKI, miss ratios, top-down shares), each "
	  "computed from its events as 'pmuprof report' does, per run with -r", 0 },
	{ "format", 'f', "FMT", 0, "text (default), markdown (a table for pull requests) or json",
	  0 },
	{ "higher-is-better", OPT_BETTER, "NAME", 0,
	  "A drop of event or metric NAME is the regression (default for IPC-like names, "
	  "retiring and hit ratios); repeatable", 0 },
	{ "lower-is-better", OPT_WORSE, "NAME", 0,
	  "A rise of event or metric NAME is the regression (default for counts, MPKI, miss "
	  "ratios and bound shares); repeatable", 0 },
	{ "alpha", OPT_ALPHA, "P", 0,
	  "Significance level of Welch's t-test on per-run values (default: 0.05)", 0 },
	{ "allow-empty", OPT_ALLOW_EMPTY, NULL, 0,
	  "Exit 0 when nothing could be compared (each event was not counted in a report) "
	  "instead of 2", 0 },
	{ 0 }
};

static void push(struct argp_state *state, const char ***list, size_t *n, const char *arg)
{
	const char **p = realloc(*list, (*n + 1) * sizeof(*p));

	if (!p)
		argp_failure(state, PP_EXIT_ERROR, ENOMEM, "cannot parse options");
	*list = p;
	p[(*n)++] = arg;
}

/* A non-negative number, with an optional '%' after it; -1 when it is not one. */
static double parse_pct(const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || !isfinite(v) || v < 0)
		return -1;
	if (*end == '%')
		end++;
	return *end ? -1 : v;
}

static void parse_format(struct argp_state *state, struct cmd_diff_opts *o, const char *arg)
{
	static const char *const names[] = { [FMT_TEXT] = "text", [FMT_MARKDOWN] = "markdown",
					     [FMT_JSON] = "json" };

	for (int k = 0; k < 3; k++)
		if (strcmp(arg, names[k]) == 0) {
			o->format = (enum diff_format)k;
			return;
		}
	argp_error(state, "--format takes text, markdown or json, not '%s'", arg);
}

static void check_dirs(struct argp_state *state, const struct diff_opts *d)
{
	for (size_t k = 0; k < d->nbetter; k++)
		for (size_t j = 0; j < d->nworse; j++)
			if (strcmp(d->better[k], d->worse[j]) == 0)
				argp_error(state, "'%s' is given both --higher-is-better and "
					   "--lower-is-better: give one", d->better[k]);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cmd_diff_opts *o = state->input;

	switch (key) {
	case OPT_THRESHOLD:
		if ((o->d.threshold_pct = parse_pct(arg)) < 0)
			argp_error(state, "--threshold takes a percentage such as 2 or 0.5%%, not '%s'",
				   arg);
		break;
	case OPT_ALPHA:
		o->d.alpha = parse_pct(arg);
		if (!(o->d.alpha > 0 && o->d.alpha < 1) || strchr(arg, '%'))
			argp_error(state, "--alpha takes a probability between 0 and 1 such as 0.01, "
				   "not '%s'", arg);
		break;
	case 'e':
		push(state, &o->d.events, &o->d.nevents, arg);
		break;
	case 'f':
		parse_format(state, o, arg);
		break;
	case OPT_BETTER:
		push(state, &o->d.better, &o->d.nbetter, arg);
		break;
	case OPT_WORSE:
		push(state, &o->d.worse, &o->d.nworse, arg);
		break;
	case OPT_METRICS:
		o->d.metrics = 1;
		break;
	case OPT_ALLOW_EMPTY:
		o->allow_empty = 1;
		break;
	case ARGP_KEY_ARG:
		if (o->nfiles == 2)
			argp_error(state, "unexpected argument '%s' (give two reports: BASE NEW)", arg);
		if (o->nfiles == 1 && !strcmp(arg, "-") && !strcmp(o->files[0], "-"))
			argp_error(state, "standard input (-) can be BASE or NEW, not both");
		o->files[o->nfiles++] = arg;
		break;
	case ARGP_KEY_END:
		if (o->nfiles < 2)
			argp_error(state, "give two reports to compare (e.g. 'pmuprof diff base.json "
				   "new.json', each written by 'pmuprof stat --json -o FILE')");
		check_dirs(state, &o->d);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp diff_argp = {
	options, parse_opt, "BASE.json NEW.json",
	"Compare two reports of 'pmuprof stat --json': per event the change from BASE to NEW and "
	"whether it is significant (Welch's t-test where both have per-run values from -r, and the "
	"threshold). Exit status: 0 when nothing regressed, 1 when something did, 2 on error or "
	"when nothing could be compared (without --allow-empty).",
	NULL, NULL, NULL
};

/* The one line that says why a report could not be read or compared, and the way out. */
static void explain(enum diff_err rc, const struct diff_why *w, const char *a, const char *b)
{
	switch (rc) {
	case DIFF_ERR_READ:
		msg_report_unread(w->read_err, &w->read);
		break;
	case DIFF_ERR_NO_COMMON:
		msg_error("cannot compare '%s' and '%s': no event in common (count the same events "
			  "in both, with the same -e list)", a, b);
		break;
	case DIFF_ERR_NO_EVENT:
		msg_error("cannot compare event '%s': it is not in '%s' (its names: jq -r "
			  "'.events[].name' %s; its metrics: pmuprof report %s)", w->what, w->side,
			  w->side, w->side);
		break;
	case DIFF_ERR_NOMEM:
		msg_error("cannot compare '%s' and '%s': %s", a, b, strerror(ENOMEM));
		break;
	case DIFF_OK:
		break;
	}
}

/* A direction option naming no event is likely a typo: say so, but compare anyway. */
static void warn_unused(const struct diff_result *r, const char **names, size_t n,
			const char *opt)
{
	for (size_t k = 0; k < n; k++) {
		size_t j = 0;

		while (j < r->nrows && strcmp(r->rows[j].name, names[k]) != 0)
			j++;
		if (j == r->nrows)
			msg_warn("%s '%s' names no event compared", opt, names[k]);
	}
}

static int print(const struct diff_result *r, enum diff_format f)
{
	int rc = f == FMT_JSON ? diff_json(r, stdout)
		 : f == FMT_MARKDOWN ? diff_markdown(r, stdout) : diff_text(r, stdout);

	if (fflush(stdout) != 0 || rc) {
		msg_error("cannot write the comparison: %s", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

/* The exit status of a comparison printed: 1 when something regressed, else 0, but 2 when
 * nothing could be compared: a gate on hardware events run where there is no PMU (most cloud
 * machines) would otherwise pass every time, saying so only in the summary line. */
static int verdict(const struct cmd_diff_opts *o, const struct diff_result *r)
{
	if (r->count[DIFF_NOT_COMPARED] == r->nrows && !o->allow_empty) {
		msg_error("compared nothing: no event of '%s' and '%s' was counted in both (run them "
			  "where the PMU counts these events, or give --allow-empty to accept it)",
			  o->files[0], o->files[1]);
		return PP_EXIT_ERROR;
	}
	return r->count[DIFF_REGRESSION] ? DIFF_EXIT_REGRESSED : 0;
}

int cmd_diff(int argc, char **argv)
{
	struct cmd_diff_opts o = { .d = { .threshold_pct = DIFF_DEFAULT_THRESHOLD,
					  .alpha = DIFF_DEFAULT_ALPHA } };
	struct diff_input in[2] = { { 0 }, { 0 } };
	struct diff_result r = { 0 };
	struct diff_why why;
	enum diff_err rc;
	int status = PP_EXIT_ERROR;
	unsigned flags;

	argp_hint_parse(&diff_argp, argc, argv, 0, &o);
	/* names go to text and markdown escaped; JSON escapes them itself */
	flags = o.format == FMT_JSON ? 0 : REPORT_READ_ESCAPE;
	rc = diff_read(o.files[0], flags, &in[0], &why);
	if (rc == DIFF_OK)
		rc = diff_read(o.files[1], flags, &in[1], &why);
	if (rc == DIFF_OK)
		rc = diff_compare(&in[0], &in[1], &o.d, &r, &why);
	if (rc != DIFF_OK) {
		explain(rc, &why, o.files[0], o.files[1]);
	} else {
		warn_unused(&r, o.d.better, o.d.nbetter, "--higher-is-better");
		warn_unused(&r, o.d.worse, o.d.nworse, "--lower-is-better");
		if (print(&r, o.format) == 0)
			status = verdict(&o, &r);
	}
	diff_result_free(&r);
	diff_input_free(&in[0]);
	diff_input_free(&in[1]);
	free(o.d.events);
	free(o.d.better);
	free(o.d.worse);
	return status;
}
