/* diff_cmp.c: two reports' events matched by name and judged: the change, whether it is
 * significant (Welch's t-test and the threshold), and whether it is a regression. Pure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "diff.h"

const char *diff_verdict_str(enum diff_verdict v)
{
	switch (v) {
	case DIFF_UNCHANGED: return "unchanged";
	case DIFF_REGRESSION: return "regression";
	case DIFF_IMPROVEMENT: return "improvement";
	case DIFF_NOT_COMPARED: return "not compared";
	case DIFF_CHANGED: return "changed";
	case DIFF_NVERDICTS: break;
	}
	return "unknown";
}

const char *diff_dir_str(enum diff_dir d)
{
	return d == DIFF_HIGHER_BETTER ? "higher-is-better" :
	       d == DIFF_NO_DIRECTION ? "none" : "lower-is-better";
}

const char *diff_test_str(enum diff_test t)
{
	switch (t) {
	case DIFF_TEST_WELCH: return "welch";
	case DIFF_TEST_THRESHOLD: return "threshold";
	case DIFF_TEST_NONE: break;
	}
	return "none";
}

static int ends_with(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && ascii_strncasecmp(s + n - t, tail, t) == 0;
}

enum diff_dir diff_default_dir(const char *name)
{
	/* the name without its modifiers ("ipc:u") */
	size_t n = strcspn(name, ":");

	if ((n == 3 && ascii_strncasecmp(name, "ipc", 3) == 0) || ends_with(name, n, "_ipc") ||
	    ends_with(name, n, "_per_cycle") || ends_with(name, n, "-per-cycle"))
		return DIFF_HIGHER_BETTER;
	return DIFF_HIGHER_WORSE;
}

static int has(const char *name, const char *part)
{
	return strstr(name, part) != NULL;
}

enum diff_dir diff_metric_dir(const char *name)
{
	size_t n = strlen(name);

	if (diff_default_dir(name) == DIFF_HIGHER_BETTER || strcmp(name, "retiring") == 0 ||
	    ends_with(name, n, "_retiring") || ends_with(name, n, "_hit_ratio") ||
	    has(name, "prefetcher_accuracy") || has(name, "prefetcher_coverage") ||
	    has(name, "prefetcher_timeliness"))
		return DIFF_HIGHER_BETTER;
	if (ends_with(name, n, "_mpki") || ends_with(name, n, "_miss_ratio") ||
	    ends_with(name, n, "_misprediction_ratio") || ends_with(name, n, "_walk_ratio") ||
	    ends_with(name, n, "_bound") || ends_with(name, n, "_stalled_cycles") ||
	    has(name, "latency") || strcmp(name, "bad_speculation") == 0)
		return DIFF_HIGHER_WORSE;
	return DIFF_NO_DIRECTION;
}

static int listed(const char *name, const char **list, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(list[k], name) == 0)
			return 1;
	return 0;
}

/* The occurrence-th event (metric: metric) called name in in (from 0), or NULL. */
static const struct diff_event *nth(const struct diff_input *in, const char *name, int metric,
				    size_t occ)
{
	for (size_t k = 0; k < in->nevents; k++)
		if (in->events[k].metric == metric && strcmp(in->events[k].name, name) == 0 &&
		    occ-- == 0)
			return &in->events[k];
	return NULL;
}

/* An event or a metric called name in in. */
static int named(const struct diff_input *in, const char *name)
{
	return nth(in, name, 0, 0) || nth(in, name, 1, 0);
}

/* How many events (or metrics) before e in its report share its name. */
static size_t occurrence(const struct diff_input *in, const struct diff_event *e)
{
	size_t occ = 0;

	for (const struct diff_event *p = in->events; p < e; p++)
		occ += p->metric == e->metric && strcmp(p->name, e->name) == 0;
	return occ;
}

static const char *missing_note(const struct diff_row *w)
{
	if (!w->base)
		return "only in NEW";
	if (!w->new)
		return "only in BASE";
	if (w->base->infinite || w->new->infinite)
		return w->base->infinite ? "not a finite number in BASE" : "not a finite number in NEW";
	if (!w->base->has && !w->new->has)
		return "not counted in either";
	return !w->base->has ? "not counted in BASE" : "not counted in NEW";
}

/* The change, the test that decides its significance, and the verdict. */
static void judge(struct diff_row *w, const struct diff_opts *o)
{
	double b, big;
	int worse;

	w->change = w->change_pct = NAN;
	if (!w->base || !w->new || !w->base->has || !w->new->has) {
		w->verdict = DIFF_NOT_COMPARED;
		w->note = missing_note(w);
		return;
	}
	b = w->base->sum.mean;
	w->change = w->new->sum.mean - b;
	if (b != 0)
		w->change_pct = w->change / fabs(b) * 100;
	else if (w->change == 0)
		w->change_pct = 0;
	/* from 0 to anything else is a change past any threshold (change_pct stays NAN) */
	big = isnan(w->change_pct) ? 1 : fabs(w->change_pct) > o->threshold_pct;
	if (stats_welch(&w->base->sum, &w->new->sum, &w->welch) == 0) {
		w->test = DIFF_TEST_WELCH;
		w->significant = big && w->welch.p < o->alpha;
	} else {
		w->test = DIFF_TEST_THRESHOLD;
		w->significant = big;
	}
	worse = w->dir == DIFF_HIGHER_WORSE ? w->change > 0 : w->change < 0;
	w->verdict = !w->significant ? DIFF_UNCHANGED : w->dir == DIFF_NO_DIRECTION ? DIFF_CHANGED
		     : worse ? DIFF_REGRESSION : DIFF_IMPROVEMENT;
}

/* Events: all, or those --event names; metrics: all with --metrics, else those it names. */
static int wanted(const struct diff_opts *o, const struct diff_event *e)
{
	if (o->nevents && listed(e->name, o->events, o->nevents))
		return 1;
	return e->metric ? o->metrics : !o->nevents;
}

static void add_row(struct diff_result *r, const struct diff_opts *o, const char *name,
		    const struct diff_event *base, const struct diff_event *new)
{
	struct diff_row *w = &r->rows[r->nrows++];

	memset(w, 0, sizeof(*w));
	w->name = name;
	w->base = base;
	w->new = new;
	w->unit = base ? base->unit : new->unit;
	w->metric = base ? base->metric : new->metric;
	w->dir = listed(name, o->better, o->nbetter)  ? DIFF_HIGHER_BETTER
		 : listed(name, o->worse, o->nworse) ? DIFF_HIGHER_WORSE
		 : w->metric ? diff_metric_dir(name) : diff_default_dir(name);
	judge(w, o);
	r->count[w->verdict]++;
}

/* Each --event name must be in both reports. */
static enum diff_err check_events(const struct diff_input *a, const struct diff_input *b,
				  const struct diff_opts *o, struct diff_why *why)
{
	for (size_t k = 0; k < o->nevents; k++) {
		const struct diff_input *in = !named(a, o->events[k]) ? a
					      : !named(b, o->events[k]) ? b : NULL;

		if (in) {
			snprintf(why->what, sizeof(why->what), "%s", o->events[k]);
			why->side = in->path;
			return DIFF_ERR_NO_EVENT;
		}
	}
	return DIFF_OK;
}

enum diff_err diff_compare(const struct diff_input *a, const struct diff_input *b,
			   const struct diff_opts *o, struct diff_result *r, struct diff_why *why)
{
	size_t both = 0;
	enum diff_err rc;

	memset(r, 0, sizeof(*r));
	r->base_path = a->path;
	r->new_path = b->path;
	r->opts = o;
	if ((rc = check_events(a, b, o, why)) != DIFF_OK)
		return rc;
	if (a->nevents + b->nevents &&
	    !(r->rows = calloc(a->nevents + b->nevents, sizeof(*r->rows))))
		return DIFF_ERR_NOMEM;
	/* the events, then the metrics: a's in order, then b's own */
	for (int metric = 0; metric < 2; metric++) {
		for (size_t k = 0; k < a->nevents; k++) {
			const struct diff_event *e = &a->events[k];
			const struct diff_event *m;

			if (e->metric != metric)
				continue;
			m = nth(b, e->name, metric, occurrence(a, e));
			if (wanted(o, e))
				add_row(r, o, e->name, e, m);
			both += m != NULL && !metric;
		}
		for (size_t k = 0; k < b->nevents; k++) {
			const struct diff_event *e = &b->events[k];

			if (e->metric == metric && !nth(a, e->name, metric, occurrence(b, e)) &&
			    wanted(o, e))
				add_row(r, o, e->name, NULL, e);
		}
	}
	return both ? DIFF_OK : DIFF_ERR_NO_COMMON;
}

void diff_result_free(struct diff_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
