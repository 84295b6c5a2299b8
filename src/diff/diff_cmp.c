/* SPDX-License-Identifier: Apache-2.0 */
/* diff_cmp.c: two reports' events matched by name and cgroup and judged: the change, whether it is
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

/* Names looked up once per event (--event, the directions): sorted, for bsearch. A report
 * holds up to some 100,000 events, so that nothing is looked up by a walk over a list. */
struct names {
	const char **v;
	size_t n;
};

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int names_sort(const char **list, size_t n, struct names *s)
{
	s->n = n;
	if (!(s->v = malloc((n + 1) * sizeof(*s->v))))
		return -1;
	if (n)
		memcpy(s->v, list, n * sizeof(*s->v));
	qsort(s->v, n, sizeof(*s->v), cmp_str);
	return 0;
}

static int listed(const char *name, const struct names *s)
{
	return s->n && bsearch(&name, s->v, s->n, sizeof(*s->v), cmp_str) != NULL;
}

/* Events are matched by kind (event or metric), name and cgroup, the k-th of these in one
 * report with the k-th in the other: each report's events sorted by kind, name, cgroup (none
 * first), then place, and the two walked together. */
static int cmp_name(const struct diff_event *a, const struct diff_event *b)
{
	return a->metric != b->metric ? a->metric - b->metric : strcmp(a->name, b->name);
}

static int cmp_key(const struct diff_event *a, const struct diff_event *b)
{
	int c = cmp_name(a, b);

	if (c || a->cgroup == b->cgroup)
		return c;
	return !a->cgroup ? -1 : !b->cgroup ? 1 : strcmp(a->cgroup, b->cgroup);
}

static int cmp_event(const void *x, const void *y)
{
	const struct diff_event *a = *(const struct diff_event *const *)x;
	const struct diff_event *b = *(const struct diff_event *const *)y;
	int c = cmp_key(a, b);

	return c ? c : (a > b) - (a < b);
}

/* (bsearch on the sorted events for a name: the cgroups of a name are together) */
static int cmp_event_name(const void *x, const void *y)
{
	return cmp_name(*(const struct diff_event *const *)x, *(const struct diff_event *const *)y);
}

/* in's events, sorted by cmp_event (malloc'd); NULL when out of memory. */
static const struct diff_event **by_name(const struct diff_input *in)
{
	const struct diff_event **v = malloc((in->nevents + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t k = 0; k < in->nevents; k++)
		v[k] = &in->events[k];
	qsort(v, in->nevents, sizeof(*v), cmp_event);
	return v;
}

/* An event or a metric called name among the n sorted events s. */
static int named(const struct diff_event **s, size_t n, const char *name)
{
	struct diff_event key = { .name = name };
	const struct diff_event *k = &key;

	for (key.metric = 0; key.metric < 2; key.metric++)
		if (n && bsearch(&k, s, n, sizeof(*s), cmp_event_name))
			return 1;
	return 0;
}

/* For a's k-th event, the event of b it is matched with (NULL: none) in partner[k]; taken[j]
 * set for b's j-th when it is matched. sa and sb: a's and b's events sorted (by_name). */
static void pair(const struct diff_input *a, const struct diff_event **sa,
		 const struct diff_input *b, const struct diff_event **sb,
		 const struct diff_event **partner, unsigned char *taken)
{
	size_t i = 0, j = 0;

	while (i < a->nevents && j < b->nevents) {
		int c = cmp_key(sa[i], sb[j]);

		if (c == 0) {
			partner[sa[i] - a->events] = sb[j];
			taken[sb[j] - b->events] = 1;
		}
		i += c <= 0;
		j += c >= 0;
	}
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

/* The options' names, sorted. */
struct lists {
	struct names events, better, worse;
};

/* Events: all, or those --event names; metrics: all with --metrics, else those it names. */
static int wanted(const struct diff_opts *o, const struct lists *l, const struct diff_event *e)
{
	if (listed(e->name, &l->events))
		return 1;
	return e->metric ? o->metrics : !o->nevents;
}

static void add_row(struct diff_result *r, const struct diff_opts *o, const struct lists *l,
		    const char *name, const struct diff_event *base, const struct diff_event *new)
{
	struct diff_row *w = &r->rows[r->nrows++];

	memset(w, 0, sizeof(*w));
	w->name = name;
	w->base = base;
	w->new = new;
	w->cgroup = base ? base->cgroup : new->cgroup;
	w->unit = base ? base->unit : new->unit;
	w->metric = base ? base->metric : new->metric;
	w->dir = listed(name, &l->better) ? DIFF_HIGHER_BETTER
		 : listed(name, &l->worse) ? DIFF_HIGHER_WORSE
		 : w->metric ? diff_metric_dir(name) : diff_default_dir(name);
	judge(w, o);
	r->count[w->verdict]++;
}

/* Each --event name must be in both reports. */
static enum diff_err check_events(const struct diff_input *a, const struct diff_event **sa,
				  const struct diff_input *b, const struct diff_event **sb,
				  const struct diff_opts *o, struct diff_why *why)
{
	for (size_t k = 0; k < o->nevents; k++) {
		const struct diff_input *in = !named(sa, a->nevents, o->events[k]) ? a
					      : !named(sb, b->nevents, o->events[k]) ? b : NULL;

		if (in) {
			snprintf(why->what, sizeof(why->what), "%s", o->events[k]);
			why->side = in->path;
			return DIFF_ERR_NO_EVENT;
		}
	}
	return DIFF_OK;
}

/* The rows, once a's and b's events are paired. */
static size_t add_rows(struct diff_result *r, const struct diff_opts *o, const struct lists *l,
		       const struct diff_input *a, const struct diff_input *b,
		       const struct diff_event **partner, const unsigned char *taken)
{
	size_t both = 0;

	/* the events, then the metrics: a's in order, then b's own */
	for (int metric = 0; metric < 2; metric++) {
		for (size_t k = 0; k < a->nevents; k++) {
			const struct diff_event *e = &a->events[k];

			if (e->metric != metric)
				continue;
			if (wanted(o, l, e))
				add_row(r, o, l, e->name, e, partner[k]);
			both += partner[k] != NULL && !metric;
		}
		for (size_t k = 0; k < b->nevents; k++) {
			const struct diff_event *e = &b->events[k];

			if (e->metric == metric && !taken[k] && wanted(o, l, e))
				add_row(r, o, l, e->name, NULL, e);
		}
	}
	return both;
}

enum diff_err diff_compare(const struct diff_input *a, const struct diff_input *b,
			   const struct diff_opts *o, struct diff_result *r, struct diff_why *why)
{
	const struct diff_event **sa = by_name(a), **sb = by_name(b);
	const struct diff_event **partner = calloc(a->nevents + 1, sizeof(*partner));
	unsigned char *taken = calloc(b->nevents + 1, 1);
	struct lists l = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	enum diff_err rc = DIFF_ERR_NOMEM;

	memset(r, 0, sizeof(*r));
	r->base_path = a->path;
	r->new_path = b->path;
	r->opts = o;
	if (!sa || !sb || !partner || !taken || names_sort(o->events, o->nevents, &l.events) ||
	    names_sort(o->better, o->nbetter, &l.better) ||
	    names_sort(o->worse, o->nworse, &l.worse))
		goto out;
	if ((rc = check_events(a, sa, b, sb, o, why)) != DIFF_OK)
		goto out;
	rc = DIFF_ERR_NOMEM;
	if (a->nevents + b->nevents &&
	    !(r->rows = calloc(a->nevents + b->nevents, sizeof(*r->rows))))
		goto out;
	pair(a, sa, b, sb, partner, taken);
	rc = add_rows(r, o, &l, a, b, partner, taken) ? DIFF_OK : DIFF_ERR_NO_COMMON;
out:
	free(sa);
	free(sb);
	free(partner);
	free(taken);
	free(l.events.v);
	free(l.better.v);
	free(l.worse.v);
	return rc;
}

void diff_result_free(struct diff_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
