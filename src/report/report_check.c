/* SPDX-License-Identifier: Apache-2.0 */
/* report_check.c: the fields report_load reads, checked to be of their types (those
 * man/pmuprof-json.5 gives) before they are read, and the figures an event gives twice checked
 * to agree: a string, a boolean or null where a count belongs is refused with its path, never
 * read as 0. Fields this pmuprof does not read are left alone (a newer minor version's). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_read_priv.h"

enum { T_NULL = 1, T_BOOL = 2, T_NUM = 4, T_STR = 8, T_ARR = 16, T_OBJ = 32 };

/* A field: the types it may have; an array's, the types of its items; an object's (or an
 * array of objects'), its own fields; and what the checks after the types know it as. The
 * key is held, not pointed to: a pointer is a relocation for the loader at every start. */
struct field {
	char key[18];
	unsigned char type, items;
	unsigned char fields;	/* the table of an object's fields (enum table), 0: none */
};

/* The tables of fields, by number: they hold no pointer, so that they are read-only data
 * the loader never touches; only the list of them below is relocated. */
enum table { NO_TABLE, STATS, HOST, EXCLUDE, FILTER, PART, METRIC, CELL, EVENT, EXIT, TIMES,
	     TIME_STATS, TIME, REPEAT, DELTA, INTERVAL, TOPDOWN, MUX, REGION, ROOT, NTABLES };

#define F(key, type) { key, type, 0, NO_TABLE }
#define O(key, type, sub) { key, type, 0, sub }
#define A(key, type, items, sub) { key, type, items, sub }
#define END { "", 0, 0, NO_TABLE }
/* "may be null": what the writers print for what was not measured */
#define N (T_NUM | T_NULL)
#define S (T_STR | T_NULL)
#define B (T_BOOL | T_NULL)

/* In the order report_json.c writes them, so that each is found at the first try. F: a
 * field of its own; O: an object (of table sub); A: an array of items (objects: of sub). */
static const struct field stats_f[] = {
	F("n", T_NUM), F("mean", N), F("median", N), F("stddev", N), F("min", N), F("max", N),
	F("cv", N), F("ci95_low", N), F("ci95_high", N), F("rse", N),
	A("outliers", T_ARR, T_NUM, NO_TABLE), END,
};
static const struct field host_f[] = {
	F("kernel_release", S), F("machine", S), F("cpu_model", S), F("midr", S),
	F("ncpus", T_NUM), F("kernel_el", N), F("kernel_el_source", S), END,
};
static const struct field exclude_f[] = {
	F("user", T_BOOL), F("kernel", T_BOOL), F("hv", T_BOOL), F("host", T_BOOL),
	F("guest", T_BOOL), END,
};
static const struct field filter_f[] = {
	F("terms", S), F("verdict", S), F("marked", B),
	A("not_as_asked", T_ARR | T_NULL, T_STR, NO_TABLE), END,
};
static const struct field part_f[] = {
	F("pmu", S), F("core", S), F("cpus", S), F("type", T_NUM), F("config", S),
	F("status", S), F("reason", S), F("note", S), F("raw_value", N), F("value", N),
	F("time_enabled_ns", T_NUM), F("time_running_ns", T_NUM), END,
};
static const struct field metric_f[] = {
	F("value", N), F("unit", S), END,
};
static const struct field cell_f[] = {
	F("unit", T_STR), F("cpu", N), F("socket", N), F("die", N), F("cluster", N),
	F("core", N), F("thread", N), F("node", N), F("cache_level", N), F("cache", N),
	F("ncpus", T_NUM), F("status", S),
	F("reason", S), F("value", N), F("raw_value", N), F("time_enabled_ns", T_NUM),
	F("time_running_ns", T_NUM), F("counted_pct", N), F("scaled", B), END,
};
static const struct field event_f[] = {
	F("name", T_STR), F("pmu", S), F("type", T_NUM), F("config", S), F("config1", S),
	F("config2", S), O("exclude", T_OBJ | T_NULL, EXCLUDE),
	O("filter", T_OBJ | T_NULL, FILTER), F("group", N), F("status", S), F("reason", S),
	F("note", S), F("value", N), F("raw_value", N), F("unit", S),
	F("time_enabled_ns", T_NUM), F("time_running_ns", T_NUM), F("counted_pct", N),
	F("scaled", B), F("run", N), A("split", T_ARR | T_NULL, T_OBJ, PART),
	A("only_on", T_ARR | T_NULL, T_STR, NO_TABLE), A("runs", T_ARR | T_NULL, N, NO_TABLE),
	O("stats", T_OBJ | T_NULL, STATS), O("metric", T_OBJ | T_NULL, METRIC),
	A("units", T_ARR | T_NULL, T_OBJ, CELL), END,
};
static const struct field exit_f[] = {
	F("status", N), F("signal", N), F("interrupted", B), END,
};
static const struct field times_f[] = {
	F("wall_ns", T_NUM), F("user_ns", T_NUM), F("system_ns", T_NUM), END,
};
static const struct field time_stats_f[] = {
	O("wall_ns", T_OBJ | T_NULL, STATS), O("user_ns", T_OBJ | T_NULL, STATS),
	O("system_ns", T_OBJ | T_NULL, STATS), END,
};
static const struct field time_f[] = {
	A("runs", T_ARR | T_NULL, T_OBJ, TIMES), O("stats", T_OBJ | T_NULL, TIME_STATS),
	F("wall_ns", T_NUM), F("user_ns", T_NUM), F("system_ns", T_NUM), END,
};
static const struct field repeat_f[] = {
	F("runs", T_NUM), F("requested", T_NUM), F("warmup", T_NUM), F("stopped", S), END,
};
static const struct field delta_f[] = {
	F("value", N), F("raw_value", N), F("time_enabled_ns", T_NUM),
	F("time_running_ns", T_NUM), A("units", T_ARR | T_NULL, T_OBJ, CELL), END,
};
static const struct field interval_f[] = {
	F("t_ns", T_NUM), A("events", T_ARR, T_OBJ, DELTA), END,
};
static const struct field topdown_f[] = {
	F("group", S), F("how", S), END,
};
static const struct field mux_f[] = {
	F("mode", S), F("runs", T_NUM), F("runs_for_exact", N), F("multiplexed", B), END,
};
static const struct field region_f[] = {
	F("name", T_STR), F("calls", T_NUM), F("wall_ns", T_NUM), F("unended", T_NUM),
	F("overlapped", T_BOOL), A("events", T_ARR, T_OBJ, EVENT),
	O("wall_stats", T_OBJ | T_NULL, STATS), END,
};
static const struct field root_f[] = {
	F("pmuprof_version", S), A("command", T_ARR, T_STR, NO_TABLE),
	O("host", T_OBJ | T_NULL, HOST), F("target", S), F("system_wide", B),
	F("aggregation", S), F("timeout_ms", N), F("timed_out", B),
	A("events", T_ARR, T_OBJ, EVENT), O("time", T_OBJ | T_NULL, TIME),
	O("repeat", T_OBJ | T_NULL, REPEAT), F("interval_ms", N), F("interval_stop", S),
	A("intervals", T_ARR | T_NULL, T_OBJ, INTERVAL), O("mux", T_OBJ | T_NULL, MUX),
	F("metrics_core", S), A("metric_requests", T_ARR | T_NULL, T_STR, NO_TABLE),
	O("topdown", T_OBJ | T_NULL, TOPDOWN), O("exit", T_OBJ | T_NULL, EXIT),
	A("regions", T_ARR | T_NULL, T_OBJ, REGION), F("region_stray_ends", N), END,
};

static const struct field *const tables[NTABLES] = {
	[STATS] = stats_f, [HOST] = host_f, [EXCLUDE] = exclude_f, [FILTER] = filter_f,
	[PART] = part_f, [METRIC] = metric_f, [CELL] = cell_f, [EVENT] = event_f,
	[EXIT] = exit_f, [TIMES] = times_f, [TIME_STATS] = time_stats_f, [TIME] = time_f,
	[REPEAT] = repeat_f, [DELTA] = delta_f, [INTERVAL] = interval_f, [TOPDOWN] = topdown_f,
	[MUX] = mux_f, [REGION] = region_f, [ROOT] = root_f,
};

#undef F
#undef O
#undef A
#undef END
#undef N
#undef S
#undef B

/* Where the walk is: the keys and indices down to the value being checked, spelt as a path
 * (as jq spells it) only for a message. */
#define DEPTH 16	/* the tables above nest 7 deep */
struct walk {
	struct {
		const char *key;	/* NULL: index i of an array */
		size_t i;
	} at[DEPTH];
	size_t depth;
	char *what;
	size_t wlen;
};

/* Goes down to key (NULL: index i); the depth before, to come back to. */
static size_t down(struct walk *w, const char *key, size_t i)
{
	size_t was = w->depth;

	if (w->depth < DEPTH) {
		w->at[w->depth].key = key;
		w->at[w->depth].i = i;
	}
	w->depth++;
	return was;
}

/* The path of where the walk is: ".events[3].value". */
static const char *path(const struct walk *w, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t d = 0; d < w->depth && d < DEPTH && o < len; d++) {
		int n = w->at[d].key ? snprintf(buf + o, len - o, ".%s", w->at[d].key)
				     : snprintf(buf + o, len - o, "[%zu]", w->at[d].i);

		o = n > 0 ? o + (size_t)n : o;
	}
	return buf;
}

/* From the type bits themselves: a call into libcjson for each of a big report's millions
 * of values would be most of the check's time. */
static unsigned type_of(const cJSON *v)
{
	switch (v->type & 0xff) {
	case cJSON_NULL: return T_NULL;
	case cJSON_False: case cJSON_True: return T_BOOL;
	case cJSON_Number: return T_NUM;
	case cJSON_String: return T_STR;
	case cJSON_Array: return T_ARR;
	default: return T_OBJ;	/* the parser makes no other */
	}
}

/* "a string", "null", ...: the type t (one bit) with its article. */
static const char *type_name(unsigned t)
{
	switch (t) {
	case T_NULL: return "null";
	case T_BOOL: return "a boolean";
	case T_NUM: return "a number";
	case T_STR: return "a string";
	case T_ARR: return "an array";
	default: return "an object";
	}
}

static int wrong(struct walk *w, unsigned got, unsigned want)
{
	char p[160];

	snprintf(w->what, w->wlen, "%s is %s, not %s", path(w, p, sizeof(p)), type_name(got),
		 type_name(want & ~(unsigned)T_NULL));
	return -1;
}

/* What an object of the tables' holds that its checks after the types need. */
struct seen {
	const cJSON *status, *value, *stats;
};

static int check_object(struct walk *w, const cJSON *o, enum table t, struct seen *seen);

/* v, the value of field f (where the walk is), is of its type, and so is what it holds. */
static int check_value(struct walk *w, const cJSON *v, const struct field *f)
{
	unsigned t = type_of(v);
	const cJSON *it;
	struct seen seen;
	size_t i = 0;

	if (!(t & f->type))
		return wrong(w, t, f->type);
	if (t == T_OBJ && f->fields)
		return check_object(w, v, (enum table)f->fields, &seen);
	if (t != T_ARR)
		return 0;
	cJSON_ArrayForEach(it, v) {
		size_t was = down(w, NULL, i++);
		unsigned ti = type_of(it);

		if (!(ti & f->items))
			return wrong(w, ti, f->items);
		if (ti == T_OBJ && f->fields &&
		    check_object(w, it, (enum table)f->fields, &seen) != 0)
			return -1;
		w->depth = was;
	}
	return 0;
}

/* What the writers give twice agrees: a part, a cell or an event "counted" has its value. */
static int check_counted(struct walk *w, const struct seen *s)
{
	char p[160];

	if (!s->status || !cJSON_IsString(s->status) || strcmp(s->status->valuestring, "counted") ||
	    (s->value && cJSON_IsNumber(s->value)))
		return 0;
	path(w, p, sizeof(p));
	snprintf(w->what, w->wlen, "%s.value is %s, but %s.status is \"counted\"", p,
		 s->value ? type_name(type_of(s->value)) : "missing", p);
	return -1;
}

/* With runs, an event's value is their mean: within its 95% interval of them, which stats
 * gives (BMF exports the value with that interval as its bounds). */
static int check_interval(struct walk *w, const struct seen *s)
{
	const cJSON *lo = cJSON_GetObjectItemCaseSensitive(s->stats, "ci95_low");
	const cJSON *hi = cJSON_GetObjectItemCaseSensitive(s->stats, "ci95_high");
	double slack, a, b;
	char p[160];

	if (!s->value || !cJSON_IsNumber(s->value) || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
	    !isfinite(lo->valuedouble) || !isfinite(hi->valuedouble))
		return 0;
	/* the mean and the interval are computed apart: a last digit's rounding apart (no
	 * fmax: libm is not linked, pmuprof needs only libc.so.6) */
	a = fabs(lo->valuedouble);
	b = fabs(hi->valuedouble);
	slack = 1e-9 * (a > b ? a : b);
	if (s->value->valuedouble >= lo->valuedouble - slack &&
	    s->value->valuedouble <= hi->valuedouble + slack)
		return 0;
	path(w, p, sizeof(p));
	snprintf(w->what, w->wlen, "%s.value (%g) is outside %s.stats' 95%% interval (%g to %g)",
		 p, s->value->valuedouble, p, lo->valuedouble, hi->valuedouble);
	return -1;
}

/* Each member of o that f names is of its type. The members are looked up in f from the one
 * after the last found: the writer's order is f's, so that each is found at the first try. */
static int check_object(struct walk *w, const cJSON *o, enum table t, struct seen *seen)
{
	const struct field *f = tables[t];
	const cJSON *m;
	size_t n = 0, at = 0;

	memset(seen, 0, sizeof(*seen));
	while (f[n].key[0])
		n++;
	cJSON_ArrayForEach(m, o) {
		size_t k = 0, was;

		if (!m->string)
			continue;
		while (k < n && strcmp(f[(at + k) % n].key, m->string) != 0)
			k++;
		if (k == n)
			continue;	/* a field this pmuprof does not read */
		at = (at + k) % n;
		was = down(w, f[at].key, 0);
		if (check_value(w, m, &f[at]) != 0)
			return -1;
		w->depth = was;
		if (!strcmp(f[at].key, "status"))
			seen->status = m;
		else if (!strcmp(f[at].key, "value"))
			seen->value = m;
		else if (!strcmp(f[at].key, "stats"))
			seen->stats = m;
		at = (at + 1) % n;
	}
	if (t != PART && t != CELL && t != EVENT)
		return 0;
	if (check_counted(w, seen) != 0)
		return -1;
	return t == EVENT && seen->stats ? check_interval(w, seen) : 0;
}

int report_check(const cJSON *root, char *what, size_t len)
{
	struct walk w = { .what = what, .wlen = len };
	struct seen seen;

	return check_object(&w, root, ROOT, &seen);
}
