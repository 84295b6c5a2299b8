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
 * array of objects'), its own fields. */
struct field {
	const char *key;
	unsigned char type, items;
	const struct field *fields;
};

#define END { NULL, 0, 0, NULL }
/* "may be null": what the writers print for what was not measured */
#define N (T_NUM | T_NULL)
#define S (T_STR | T_NULL)
#define B (T_BOOL | T_NULL)

/* In the order report_json.c writes them, so that each is found at the first try. */
static const struct field stats_f[] = {
	{ "n", T_NUM, 0, NULL }, { "mean", N, 0, NULL }, { "median", N, 0, NULL },
	{ "stddev", N, 0, NULL }, { "min", N, 0, NULL }, { "max", N, 0, NULL },
	{ "cv", N, 0, NULL }, { "ci95_low", N, 0, NULL }, { "ci95_high", N, 0, NULL },
	{ "rse", N, 0, NULL }, { "outliers", T_ARR, T_NUM, NULL }, END
};
static const struct field host_f[] = {
	{ "kernel_release", S, 0, NULL }, { "machine", S, 0, NULL }, { "cpu_model", S, 0, NULL },
	{ "midr", S, 0, NULL }, { "ncpus", T_NUM, 0, NULL }, { "kernel_el", N, 0, NULL },
	{ "kernel_el_source", S, 0, NULL }, END
};
static const struct field exclude_f[] = {
	{ "user", T_BOOL, 0, NULL }, { "kernel", T_BOOL, 0, NULL }, { "hv", T_BOOL, 0, NULL },
	{ "host", T_BOOL, 0, NULL }, { "guest", T_BOOL, 0, NULL }, END
};
static const struct field filter_f[] = {
	{ "terms", S, 0, NULL }, { "verdict", S, 0, NULL }, { "marked", B, 0, NULL },
	{ "not_as_asked", T_ARR | T_NULL, T_STR, NULL }, END
};
static const struct field part_f[] = {
	{ "pmu", S, 0, NULL }, { "core", S, 0, NULL }, { "cpus", S, 0, NULL },
	{ "type", T_NUM, 0, NULL }, { "config", S, 0, NULL }, { "status", S, 0, NULL },
	{ "reason", S, 0, NULL }, { "note", S, 0, NULL }, { "raw_value", N, 0, NULL },
	{ "value", N, 0, NULL }, { "time_enabled_ns", T_NUM, 0, NULL },
	{ "time_running_ns", T_NUM, 0, NULL }, END
};
static const struct field metric_f[] = {
	{ "value", N, 0, NULL }, { "unit", S, 0, NULL }, END
};
static const struct field cell_f[] = {
	{ "unit", T_STR, 0, NULL }, { "cpu", N, 0, NULL }, { "socket", N, 0, NULL },
	{ "die", N, 0, NULL }, { "cluster", N, 0, NULL }, { "core", N, 0, NULL },
	{ "thread", N, 0, NULL }, { "node", N, 0, NULL }, { "ncpus", T_NUM, 0, NULL },
	{ "status", S, 0, NULL }, { "reason", S, 0, NULL }, { "value", N, 0, NULL },
	{ "raw_value", N, 0, NULL }, { "time_enabled_ns", T_NUM, 0, NULL },
	{ "time_running_ns", T_NUM, 0, NULL }, { "counted_pct", N, 0, NULL },
	{ "scaled", B, 0, NULL }, END
};
static const struct field event_f[] = {
	{ "name", T_STR, 0, NULL }, { "pmu", S, 0, NULL }, { "type", T_NUM, 0, NULL },
	{ "config", S, 0, NULL }, { "config1", S, 0, NULL }, { "config2", S, 0, NULL },
	{ "exclude", T_OBJ | T_NULL, 0, exclude_f }, { "filter", T_OBJ | T_NULL, 0, filter_f },
	{ "group", N, 0, NULL }, { "status", S, 0, NULL }, { "reason", S, 0, NULL },
	{ "note", S, 0, NULL }, { "value", N, 0, NULL }, { "raw_value", N, 0, NULL },
	{ "unit", S, 0, NULL }, { "time_enabled_ns", T_NUM, 0, NULL },
	{ "time_running_ns", T_NUM, 0, NULL }, { "counted_pct", N, 0, NULL },
	{ "scaled", B, 0, NULL }, { "run", N, 0, NULL },
	{ "split", T_ARR | T_NULL, T_OBJ, part_f }, { "only_on", T_ARR | T_NULL, T_STR, NULL },
	{ "runs", T_ARR | T_NULL, N, NULL }, { "stats", T_OBJ | T_NULL, 0, stats_f },
	{ "metric", T_OBJ | T_NULL, 0, metric_f }, { "units", T_ARR | T_NULL, T_OBJ, cell_f },
	END
};
static const struct field exit_f[] = {
	{ "status", N, 0, NULL }, { "signal", N, 0, NULL }, { "interrupted", B, 0, NULL }, END
};
static const struct field times_f[] = {
	{ "wall_ns", T_NUM, 0, NULL }, { "user_ns", T_NUM, 0, NULL },
	{ "system_ns", T_NUM, 0, NULL }, END
};
static const struct field time_stats_f[] = {
	{ "wall_ns", T_OBJ | T_NULL, 0, stats_f }, { "user_ns", T_OBJ | T_NULL, 0, stats_f },
	{ "system_ns", T_OBJ | T_NULL, 0, stats_f }, END
};
static const struct field time_f[] = {
	{ "runs", T_ARR | T_NULL, T_OBJ, times_f }, { "stats", T_OBJ | T_NULL, 0, time_stats_f },
	{ "wall_ns", T_NUM, 0, NULL }, { "user_ns", T_NUM, 0, NULL },
	{ "system_ns", T_NUM, 0, NULL }, END
};
static const struct field repeat_f[] = {
	{ "runs", T_NUM, 0, NULL }, { "requested", T_NUM, 0, NULL },
	{ "warmup", T_NUM, 0, NULL }, { "stopped", S, 0, NULL }, END
};
static const struct field delta_f[] = {
	{ "value", N, 0, NULL }, { "raw_value", N, 0, NULL },
	{ "time_enabled_ns", T_NUM, 0, NULL }, { "time_running_ns", T_NUM, 0, NULL },
	{ "units", T_ARR | T_NULL, T_OBJ, cell_f }, END
};
static const struct field interval_f[] = {
	{ "t_ns", T_NUM, 0, NULL }, { "events", T_ARR, T_OBJ, delta_f }, END
};
static const struct field topdown_f[] = {
	{ "group", S, 0, NULL }, { "how", S, 0, NULL }, END
};
static const struct field mux_f[] = {
	{ "mode", S, 0, NULL }, { "runs", T_NUM, 0, NULL }, { "runs_for_exact", N, 0, NULL },
	{ "multiplexed", B, 0, NULL }, END
};
static const struct field root_f[] = {
	{ "pmuprof_version", S, 0, NULL }, { "command", T_ARR, T_STR, NULL },
	{ "host", T_OBJ | T_NULL, 0, host_f }, { "target", S, 0, NULL },
	{ "system_wide", B, 0, NULL }, { "aggregation", S, 0, NULL },
	{ "timeout_ms", N, 0, NULL }, { "timed_out", B, 0, NULL },
	{ "events", T_ARR, T_OBJ, event_f }, { "time", T_OBJ | T_NULL, 0, time_f },
	{ "repeat", T_OBJ | T_NULL, 0, repeat_f }, { "interval_ms", N, 0, NULL },
	{ "interval_stop", S, 0, NULL }, { "intervals", T_ARR | T_NULL, T_OBJ, interval_f },
	{ "mux", T_OBJ | T_NULL, 0, mux_f }, { "metrics_core", S, 0, NULL },
	{ "metric_requests", T_ARR | T_NULL, T_STR, NULL },
	{ "topdown", T_OBJ | T_NULL, 0, topdown_f }, { "exit", T_OBJ | T_NULL, 0, exit_f }, END
};

#undef N
#undef S
#undef B

/* Where the walk is: the path of the value being checked, as jq spells it. */
struct walk {
	char path[200];
	size_t len;
	char *what;
	size_t wlen;
};

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

/* Appends ".key" or "[i]" to the path; the length before, to cut it back to. A path too long
 * for the room ends in "...". */
static size_t push(struct walk *w, const char *key, size_t i)
{
	size_t was = w->len, room = sizeof(w->path) - w->len;
	int n = key ? snprintf(w->path + w->len, room, ".%s", key)
		    : snprintf(w->path + w->len, room, "[%zu]", i);

	w->len = n > 0 && (size_t)n < room ? w->len + (size_t)n : sizeof(w->path) - 1;
	if ((size_t)n >= room)
		memcpy(w->path + sizeof(w->path) - 4, "...", 4);
	return was;
}

static int wrong(struct walk *w, unsigned got, unsigned want)
{
	snprintf(w->what, w->wlen, "%s is %s, not %s", w->path, type_name(got),
		 type_name(want & ~(unsigned)T_NULL));
	return -1;
}

static int check_object(struct walk *w, const cJSON *o, const struct field *f);

/* v, the value of field f (at w's path), is of its type, and so is what it holds. */
static int check_value(struct walk *w, const cJSON *v, const struct field *f)
{
	unsigned t = type_of(v);
	const cJSON *it;
	size_t i = 0;

	if (!(t & f->type))
		return wrong(w, t, f->type);
	if (t == T_OBJ && f->fields)
		return check_object(w, v, f->fields);
	if (t != T_ARR)
		return 0;
	cJSON_ArrayForEach(it, v) {
		size_t was = push(w, NULL, i++);
		unsigned ti = type_of(it);

		if (!(ti & f->items))
			return wrong(w, ti, f->items);
		if (ti == T_OBJ && f->fields && check_object(w, it, f->fields) != 0)
			return -1;
		w->path[w->len = was] = '\0';
	}
	return 0;
}

/* What the writers give twice agrees: a part, a cell or an event "counted" has its value. */
static int check_counted(struct walk *w, const cJSON *o)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "value");

	if (!cJSON_IsString(st) || strcmp(st->valuestring, "counted") || cJSON_IsNumber(v))
		return 0;
	snprintf(w->what, w->wlen, "%s.value is %s, but %s.status is \"counted\"", w->path,
		 v ? type_name(type_of(v)) : "missing", w->path);
	return -1;
}

/* Each member of o that f names is of its type. The members are looked up in f from the one
 * after the last found: the writer's order is f's, so that each is found at the first try. */
static int check_object(struct walk *w, const cJSON *o, const struct field *f)
{
	const cJSON *m;
	size_t n = 0, at = 0;

	while (f[n].key)
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
		was = push(w, m->string, 0);
		if (check_value(w, m, &f[at]) != 0)
			return -1;
		w->path[w->len = was] = '\0';
		at = (at + 1) % n;
	}
	return f == part_f || f == cell_f || f == event_f ? check_counted(w, o) : 0;
}

/* With runs, an event's value is their mean: within its 95% interval of them, which stats
 * gives (BMF exports the value with that interval as its bounds). */
static int check_interval(struct walk *w, const cJSON *ev)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, "value");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(ev, "stats");
	const cJSON *lo = cJSON_GetObjectItemCaseSensitive(st, "ci95_low");
	const cJSON *hi = cJSON_GetObjectItemCaseSensitive(st, "ci95_high");
	double slack;

	if (!cJSON_IsNumber(v) || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
	    !isfinite(lo->valuedouble) || !isfinite(hi->valuedouble))
		return 0;
	/* the mean and the interval are computed apart: a last digit's rounding apart */
	slack = 1e-9 * fmax(fabs(lo->valuedouble), fabs(hi->valuedouble));
	if (v->valuedouble >= lo->valuedouble - slack && v->valuedouble <= hi->valuedouble + slack)
		return 0;
	snprintf(w->what, w->wlen, "%s.value (%g) is outside %s.stats' 95%% interval (%g to %g)",
		 w->path, v->valuedouble, w->path, lo->valuedouble, hi->valuedouble);
	return -1;
}

int report_check(const cJSON *root, char *what, size_t len)
{
	struct walk w = { .what = what, .wlen = len };
	const cJSON *ev;
	size_t k = 0;

	if (check_object(&w, root, root_f) != 0)
		return -1;
	cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(root, "events")) {
		size_t was = push(&w, "events", 0);

		push(&w, NULL, k++);
		if (check_interval(&w, ev) != 0)
			return -1;
		w.path[w.len = was] = '\0';
	}
	return 0;
}
