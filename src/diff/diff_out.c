/* SPDX-License-Identifier: Apache-2.0 */
/* diff_out.c: a comparison printed as an aligned text table, a markdown table (for
 * pull-request comments) or one JSON document (man/pmuprof-diff.schema.json). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "jsonout.h"

enum { C_BASE, C_NEW, C_CHANGE, C_TEST, C_VERDICT, NCOLS };
#define CELL 96

static const char *const heads[NCOLS + 1] = { "event", "base", "new", "change", "test",
					      "verdict" };

/* Whether any row is a metric's (they follow the events' rows). */
static int has_metrics(const struct diff_result *r)
{
	return r->nrows && r->rows[r->nrows - 1].metric;
}

/* Whether the events' table has a cgroup column: an event of either report was counted per
 * cgroup (-G, --for-each-cgroup), so one name may have several rows. */
static int has_cgroups(const struct diff_result *r)
{
	for (size_t k = 0; k < r->nrows; k++)
		if (r->rows[k].cgroup)
			return 1;
	return 0;
}

/* A row's cgroup cell: "-" for an event that counted every task. */
static const char *cgroup_cell(const struct diff_row *w)
{
	return w->cgroup ? w->cgroup : "-";
}

/* v with its integer part in groups of three digits: 1,234,567.8 */
static void fmt_num(double v, char *buf, size_t len)
{
	char tmp[64], *dot;
	size_t nint, o = 0, start;
	int dec = v == floor(v) ? 0 : fabs(v) >= 1000 ? 1 : 3;

	if (!isfinite(v) || fabs(v) >= 1e18 || (v != 0 && fabs(v) < 0.001)) {
		snprintf(buf, len, "%.4g", v);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", dec, v);
	dot = strchr(tmp, '.');
	nint = dot ? (size_t)(dot - tmp) : strlen(tmp);
	start = tmp[0] == '-';
	for (size_t k = 0; tmp[k] && o + 2 < len; k++) {
		if (k > start && k < nint && (nint - k) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[k];
	}
	buf[o] = '\0';
}

/* One side: the value (the mean of its runs), its unit, and +-rse when it had runs. */
static void fmt_side(const struct diff_event *e, char *buf, size_t len)
{
	char num[48];
	int o;

	if (!e || !e->has) {
		snprintf(buf, len, "%s", e ? e->status : "-");
		return;
	}
	fmt_num(e->sum.mean, num, sizeof(num));
	o = snprintf(buf, len, "%s%s%s", num, *e->unit ? " " : "", e->unit);
	if (e->sum.n > 1 && isfinite(e->sum.rse) && o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, " +-%.2f%%", e->sum.rse * 100);
}

static void fmt_cells(const struct diff_row *w, char cell[NCOLS][CELL])
{
	fmt_side(w->base, cell[C_BASE], CELL);
	fmt_side(w->new, cell[C_NEW], CELL);
	if (w->verdict == DIFF_NOT_COMPARED)
		snprintf(cell[C_CHANGE], CELL, "-");
	else if (isnan(w->change_pct))
		snprintf(cell[C_CHANGE], CELL, "from 0");
	else
		snprintf(cell[C_CHANGE], CELL, "%+.2f%%", w->change_pct);
	if (w->test == DIFF_TEST_WELCH)
		snprintf(cell[C_TEST], CELL, "p=%.2g", w->welch.p);
	else
		snprintf(cell[C_TEST], CELL, "%s", w->test == DIFF_TEST_THRESHOLD ? "threshold" : "-");
	if (w->note)
		snprintf(cell[C_VERDICT], CELL, "%s (%s)", diff_verdict_str(w->verdict), w->note);
	else
		snprintf(cell[C_VERDICT], CELL, "%s", diff_verdict_str(w->verdict));
}

static void summary(const struct diff_result *r, FILE *out)
{
	const size_t *c = r->count;

	fprintf(out, "%zu regression%s, %zu improvement%s, %zu unchanged, ", c[DIFF_REGRESSION],
		c[DIFF_REGRESSION] == 1 ? "" : "s", c[DIFF_IMPROVEMENT],
		c[DIFF_IMPROVEMENT] == 1 ? "" : "s", c[DIFF_UNCHANGED]);
	if (has_metrics(r))	/* a metric with no better direction that moved */
		fprintf(out, "%zu changed, ", c[DIFF_CHANGED]);
	fprintf(out, "%zu not compared (threshold %g%%; Welch's t-test at p < %g where both have "
		"2 runs or more)\n", c[DIFF_NOT_COMPARED], r->opts->threshold_pct, r->opts->alpha);
}

/* The first columns of a text line: the name, and the cgroup where the table has them. */
static void text_name(FILE *out, const char *sep, int wname, const char *name, int wcg,
		      const char *cgroup)
{
	fprintf(out, "%s%-*s  ", sep, wname, name);
	if (cgroup)
		fprintf(out, "%-*s  ", wcg, cgroup);
}

int diff_text(const struct diff_result *r, FILE *out)
{
	char cell[NCOLS][CELL];
	int wname = (int)strlen(has_metrics(r) ? "metric" : heads[0]), wc[NCOLS];
	int cg = has_cgroups(r), wcg = (int)strlen("cgroup");

	for (int c = 0; c < NCOLS; c++)
		wc[c] = (int)strlen(heads[c + 1]);
	for (size_t k = 0; k < r->nrows; k++) {
		fmt_cells(&r->rows[k], cell);
		if ((int)strlen(r->rows[k].name) > wname)
			wname = (int)strlen(r->rows[k].name);
		if (cg && (int)strlen(cgroup_cell(&r->rows[k])) > wcg)
			wcg = (int)strlen(cgroup_cell(&r->rows[k]));
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cell[c]) > wc[c])
				wc[c] = (int)strlen(cell[c]);
	}
	for (size_t k = 0; k <= r->nrows; k++) {
		const struct diff_row *w = k < r->nrows ? &r->rows[k] : NULL;
		const char *c = w && cg ? "cgroup" : NULL;

		/* the events' table, then the metrics' under a heading of their own (with no
		 * row, the heading alone) */
		if ((k == 0 && !w) || (w && (k == 0 || w->metric != r->rows[k - 1].metric))) {
			text_name(out, k ? "\n" : "", wname, w && w->metric ? "metric" : heads[0],
				  wcg, c);
			fprintf(out, "%*s  %*s  %*s  %-*s  %s\n", wc[0], heads[1], wc[1], heads[2],
				wc[2], heads[3], wc[3], heads[4], heads[5]);
		}
		if (!w)
			break;
		fmt_cells(w, cell);
		text_name(out, "", wname, w->name, wcg, c ? cgroup_cell(w) : NULL);
		fprintf(out, "%*s  %*s  %*s  %-*s  %s\n", wc[0], cell[0], wc[1], cell[1], wc[2],
			cell[2], wc[3], cell[3], cell[4]);
	}
	fputc('\n', out);
	summary(r, out);
	return ferror(out) ? -1 : 0;
}

/* A markdown table cell: '|' would end the cell, even inside a code span. */
static void md_cell(const char *s, int code, FILE *out)
{
	fputs(code ? " `" : " ", out);
	for (; *s; s++) {
		if (*s == '|' || *s == '\n')
			fputc(*s == '|' ? '\\' : ' ', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
	fputs(code ? "` |" : " |", out);
}

int diff_markdown(const struct diff_result *r, FILE *out)
{
	char cell[NCOLS][CELL];

	int cg = has_cgroups(r);

	if (!r->nrows)
		fputs("| event | base | new | change | test | verdict |\n"
		      "| :--- | ---: | ---: | ---: | :--- | :--- |\n", out);
	for (size_t k = 0; k < r->nrows; k++) {
		const struct diff_row *w = &r->rows[k];

		if (k == 0 || w->metric != r->rows[k - 1].metric)
			fprintf(out, "%s| %s |%s base | new | change | test | verdict |\n"
				"| :--- |%s ---: | ---: | ---: | :--- | :--- |\n", k ? "\n" : "",
				w->metric ? "metric" : "event", cg ? " cgroup |" : "",
				cg ? " :--- |" : "");
		fmt_cells(w, cell);
		fputc('|', out);
		md_cell(w->name, 1, out);
		if (cg)
			md_cell(cgroup_cell(w), 1, out);
		for (int c = 0; c < C_VERDICT; c++)
			md_cell(cell[c], 0, out);
		fprintf(out, w->verdict == DIFF_REGRESSION ? " **%s** |\n" : " %s |\n",
			cell[C_VERDICT]);
	}
	fputc('\n', out);
	if (r->count[DIFF_REGRESSION])
		fputs("**Regressed.** ", out);
	summary(r, out);
	return ferror(out) ? -1 : 0;
}

static cJSON *side_json(const struct diff_event *e)
{
	cJSON *o;

	if (!e)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "status", e->status);
	cJSON_AddItemToObject(o, "value", e->has ? jsonout_num(e->sum.mean) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "runs", e->has ? (double)e->sum.n : 0);
	cJSON_AddItemToObject(o, "stddev", e->has ? jsonout_num(e->sum.stddev) : cJSON_CreateNull());
	return o;
}

static cJSON *row_json(const struct diff_row *w)
{
	cJSON *o = cJSON_CreateObject();
	int welch = w->test == DIFF_TEST_WELCH;

	cJSON_AddStringToObject(o, "name", w->name);
	/* 1.2: the cgroup it counted in; null: every task */
	cJSON_AddItemToObject(o, "cgroup", w->cgroup ? cJSON_CreateString(w->cgroup)
						    : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "unit", w->unit);
	cJSON_AddStringToObject(o, "direction", diff_dir_str(w->dir));
	cJSON_AddItemToObject(o, "base", side_json(w->base));
	cJSON_AddItemToObject(o, "new", side_json(w->new));
	cJSON_AddItemToObject(o, "change", jsonout_num(w->change));
	cJSON_AddItemToObject(o, "change_pct", jsonout_num(w->change_pct));
	cJSON_AddStringToObject(o, "test", diff_test_str(w->test));
	/* t is infinite when neither side varies: null, as JSON has no infinity */
	cJSON_AddItemToObject(o, "t", welch ? jsonout_num(w->welch.t) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "df", welch ? jsonout_num(w->welch.df) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "p", welch ? jsonout_num(w->welch.p) : cJSON_CreateNull());
	cJSON_AddBoolToObject(o, "significant", w->significant);
	cJSON_AddStringToObject(o, "verdict", diff_verdict_str(w->verdict));
	cJSON_AddItemToObject(o, "note", w->note ? cJSON_CreateString(w->note) : cJSON_CreateNull());
	return o;
}

static cJSON *diff_tree(const struct diff_result *r)
{
	cJSON *root = cJSON_CreateObject(), *evs, *mts, *sum;

	cJSON_AddStringToObject(root, "schema_version", DIFF_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "pmuprof_version", PMUPROF_VERSION);
	cJSON_AddStringToObject(root, "base", r->base_path);
	cJSON_AddStringToObject(root, "new", r->new_path);
	cJSON_AddNumberToObject(root, "threshold_pct", r->opts->threshold_pct);
	cJSON_AddNumberToObject(root, "alpha", r->opts->alpha);
	evs = cJSON_AddArrayToObject(root, "events");
	mts = cJSON_AddArrayToObject(root, "metrics");	/* 1.1 */
	for (size_t k = 0; k < r->nrows; k++)
		cJSON_AddItemToArray(r->rows[k].metric ? mts : evs, row_json(&r->rows[k]));
	sum = cJSON_AddObjectToObject(root, "summary");
	cJSON_AddNumberToObject(sum, "regressions", (double)r->count[DIFF_REGRESSION]);
	cJSON_AddNumberToObject(sum, "improvements", (double)r->count[DIFF_IMPROVEMENT]);
	cJSON_AddNumberToObject(sum, "unchanged", (double)r->count[DIFF_UNCHANGED]);
	cJSON_AddNumberToObject(sum, "not_compared", (double)r->count[DIFF_NOT_COMPARED]);
	cJSON_AddNumberToObject(sum, "changed", (double)r->count[DIFF_CHANGED]);	/* 1.1 */
	cJSON_AddBoolToObject(root, "regressed", r->count[DIFF_REGRESSION] > 0);
	return root;
}

int diff_json(const struct diff_result *r, FILE *out)
{
	return jsonout_emit(diff_tree(r), out, JSONOUT_PRETTY);
}
