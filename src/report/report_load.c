/* SPDX-License-Identifier: Apache-2.0 */
/* report_load.c: a checked report document's fields into struct report, each as report_json.c
 * writes it (man/pmuprof-json.5), so that the writers print again what stat printed. What a
 * document lacks reads as not measured; fields this pmuprof does not know are left alone. */
#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "report_read_priv.h"

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A number, or def when the field is absent, null or not a number. */
static double num(const cJSON *o, const char *key, double def)
{
	const cJSON *v = item(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* A count: 0 for what is not one (negative, beyond 64 bits, not a number). */
static uint64_t count(const cJSON *o, const char *key)
{
	double v = num(o, key, 0);

	return v > 0 && v < 0x1p64 ? (uint64_t)(v + 0.5) : 0;
}

/* A whole number within [INT_MIN, INT_MAX] (a document's garbage never overflows the
 * conversion), def when absent or out of range. */
static int whole(const cJSON *o, const char *key, int def)
{
	double v = num(o, key, def);

	return v >= INT_MIN && v <= INT_MAX ? (int)v : def;
}

static size_t size(const cJSON *o, const char *key, size_t def)
{
	int v = whole(o, key, (int)def);

	return v >= 0 ? (size_t)v : def;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = item(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int flag(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(item(o, key));
}

/* A register value written as a "0x..." string (jsonout_hex). */
static uint64_t hex(const cJSON *o, const char *key)
{
	const char *s = str(o, key);

	return s ? strtoull(s, NULL, 16) : 0;
}

static void copy(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

static enum report_status status_of(const char *s, int has_value)
{
	static const enum report_status all[] = { REPORT_COUNTED, REPORT_NOT_COUNTED,
		REPORT_NOT_SUPPORTED, REPORT_NOT_PERMITTED, REPORT_ABSENT };

	for (size_t k = 0; s && k < sizeof(all) / sizeof(all[0]); k++)
		if (!strcmp(s, report_status_str(all[k])))
			return all[k];
	return has_value ? REPORT_COUNTED : REPORT_NOT_COUNTED;
}

static void load_host(const cJSON *h, struct report_host *o)
{
	copy(o->kernel, sizeof(o->kernel), str(h, "kernel_release"));
	copy(o->machine, sizeof(o->machine), str(h, "machine"));
	copy(o->cpu_model, sizeof(o->cpu_model), str(h, "cpu_model"));
	o->midr = hex(h, "midr");
	o->ncpus = whole(h, "ncpus", 0);
	o->kernel_el = whole(h, "kernel_el", 0);
	o->kernel_el_source = str(h, "kernel_el_source");
}

static void load_filter(const cJSON *f, struct report_event *e)
{
	const cJSON *it;

	if (!cJSON_IsObject(f) || !str(f, "terms"))
		return;
	e->filter_terms = str(f, "terms");
	e->filter_verdict = str(f, "verdict") ? str(f, "verdict") : "ok";
	e->marked = flag(f, "marked");
	cJSON_ArrayForEach(it, item(f, "not_as_asked"))
		for (int l = 0; l < FILTER_NLEVELS; l++)
			if (cJSON_IsString(it) && !strcmp(it->valuestring, filter_level_key(l)))
				e->filter_differ |= 1u << l;
}

/* A summary of runs (report_json.c's stats_json); outliers, given, flag those runs. */
static int load_stats(const cJSON *st, struct stats_summary *s, unsigned char **outlier,
		      size_t nruns)
{
	const cJSON *out = item(st, "outliers"), *it;

	s->n = size(st, "n", 0);
	s->mean = num(st, "mean", NAN);
	s->median = num(st, "median", NAN);
	s->stddev = num(st, "stddev", NAN);
	s->min = num(st, "min", NAN);
	s->max = num(st, "max", NAN);
	s->cv = num(st, "cv", NAN);
	s->ci_lo = num(st, "ci95_low", NAN);
	s->ci_hi = num(st, "ci95_high", NAN);
	s->rse = num(st, "rse", NAN);
	if (!outlier || !cJSON_IsArray(out))
		return 0;
	if (!(*outlier = calloc(nruns + 1, 1)))
		return -1;
	cJSON_ArrayForEach(it, out)
		if (cJSON_IsNumber(it) && it->valuedouble >= 0 && it->valuedouble < (double)nruns)
			(*outlier)[(size_t)it->valuedouble] = 1;
	return 0;
}

/* A part's or an event's note: never opened for a reason perf's words do not cover (a
 * fixture tree's PMU). The writers give such an event no raw value and the note as reason,
 * or the note as "note" where the reason is another. */
static const char *note_of(const cJSON *o, enum report_status st)
{
	if (str(o, "note"))	/* given where the reason is another */
		return str(o, "note");
	return st == REPORT_NOT_COUNTED && !cJSON_IsNumber(item(o, "raw_value")) ? str(o, "reason")
									      : NULL;
}

static int load_split(const cJSON *a, struct report_event *e)
{
	struct report_part *parts;
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(a))
		return 0;
	if (!(parts = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*parts))))
		return -1;
	cJSON_ArrayForEach(it, a) {
		struct report_part *p;

		if (i == UINT16_MAX)	/* a part per Arm PMU: no report of pmuprof's has more */
			break;
		p = &parts[i++];
		p->pmu = str(it, "pmu") ? str(it, "pmu") : "";
		p->core = str(it, "core");
		copy(p->cpus, sizeof(p->cpus), str(it, "cpus"));
		p->type = (uint32_t)whole(it, "type", 0);
		p->config = hex(it, "config");
		p->fig.status = status_of(str(it, "status"), cJSON_IsNumber(item(it, "value")));
		p->fig.reason = str(it, "reason");
		p->note = note_of(it, p->fig.status);
		p->fig.raw = count(it, "raw_value");
		p->fig.value = num(it, "value", 0);
		p->fig.enabled_ns = count(it, "time_enabled_ns");
		p->fig.running_ns = count(it, "time_running_ns");
		p->fig.counted_pct = report_share_pct(p->fig.running_ns, p->fig.enabled_ns);
	}
	report_split_set(e, parts, i);
	return 0;
}

/* The summary of runs (a summary may come without them), and with runs each run's value
 * (NAN: none) and the runs flagged as outliers. */
static int load_runs(const cJSON *o, struct report_event *e, size_t nruns)
{
	const cJSON *it, *st = item(o, "stats");
	unsigned char *outlier = NULL;
	double *v;
	size_t i = 0;

	if (cJSON_IsObject(st) && load_stats(st, &e->stats, nruns ? &outlier : NULL, nruns) != 0)
		return -1;
	e->outlier = outlier;
	if (!nruns)
		return 0;
	if (!(v = malloc((nruns + 1) * sizeof(*v))))
		return -1;
	for (size_t k = 0; k < nruns; k++)
		v[k] = NAN;
	cJSON_ArrayForEach(it, item(o, "runs"))
		if (i < nruns)
			v[i++] = cJSON_IsNumber(it) ? it->valuedouble : NAN;
	e->runs = v;
	return 0;
}

/* The wall time task-clock's "CPUs utilized" was divided by (report_derive): that of the
 * run(s) that counted it, which the document gives only through the quotient. */
static uint64_t wall_of(const cJSON *o, const struct report_event *e)
{
	const cJSON *m = item(o, "metric");
	double v = num(m, "value", 0);
	const char *unit = str(m, "unit");

	if (e->type != 1 || e->config > 1 || !unit || strcmp(unit, "CPUs utilized") || !(v > 0) ||
	    !(e->fig.value / v < 0x1p63))
		return 0;
	return (uint64_t)(e->fig.value / v + 0.5);	/* positive: no llround (libm) */
}

/* Event e. */
int report_load_event(const cJSON *o, struct report_event *e, size_t nruns)
{
	const cJSON *ex = item(o, "exclude"), *only = item(o, "only_on");
	int has_value = cJSON_IsNumber(item(o, "value"));

	e->name = str(o, "name");
	e->pmu = str(o, "pmu") ? str(o, "pmu") : "";
	e->unit = str(o, "unit") ? str(o, "unit") : "";
	e->type = (uint32_t)whole(o, "type", 0);
	e->config = hex(o, "config");
	e->config1 = hex(o, "config1");
	e->config2 = hex(o, "config2");
	e->excl_user = flag(ex, "user");
	e->excl_kernel = flag(ex, "kernel");
	e->excl_hv = flag(ex, "hv");
	e->excl_host = flag(ex, "host");
	e->excl_guest = flag(ex, "guest");
	load_filter(item(o, "filter"), e);
	e->group = whole(o, "group", -1);
	e->cgroup = str(o, "cgroup");
	e->fig.status = status_of(str(o, "status"), has_value);
	e->fig.reason = str(o, "reason");
	e->note = note_of(o, e->fig.status);
	e->fig.raw = count(o, "raw_value");
	e->fig.enabled_ns = count(o, "time_enabled_ns");
	e->fig.running_ns = count(o, "time_running_ns");
	e->fig.value = num(o, "value", 0);
	e->fig.counted_pct = e->fig.status != REPORT_COUNTED ?
		report_share_pct(e->fig.running_ns, e->fig.enabled_ns) :
		num(o, "counted_pct", e->fig.enabled_ns ?
		    100.0 * (double)e->fig.running_ns / (double)e->fig.enabled_ns : 100.0);
	e->fig.scaled = flag(o, "scaled");
	e->run = whole(o, "run", 0);
	e->wall_ns = wall_of(o, e);
	/* a split event's only_on is derived from its parts' statuses */
	if (!cJSON_IsArray(item(o, "split")) && cJSON_GetArraySize(only) == 1 &&
	    cJSON_IsString(cJSON_GetArrayItem(only, 0)))
		e->only_pmu = cJSON_GetArrayItem(only, 0)->valuestring;
	if (load_split(item(o, "split"), e) != 0)
		return -1;
	return load_runs(o, e, nruns);
}

/* The runs recorded: "repeat"'s count, else the longest runs array of an event; never more
 * than the longest array of runs (events' or times'), whatever "repeat" says. */
static size_t nruns_of(const cJSON *root)
{
	const cJSON *it, *rep = item(root, "repeat");
	size_t n = (size_t)cJSON_GetArraySize(item(item(root, "time"), "runs"));

	cJSON_ArrayForEach(it, item(root, "events"))
		if ((size_t)cJSON_GetArraySize(item(it, "runs")) > n)
			n = (size_t)cJSON_GetArraySize(item(it, "runs"));
	if (cJSON_IsObject(rep) && size(rep, "runs", 0) < n)
		n = size(rep, "runs", 0);
	return n;
}

static int load_time(const cJSON *root, struct report *r)
{
	const cJSON *t = item(root, "time"), *rep = item(root, "repeat"), *st, *it;
	struct report_times *times;
	size_t i = 0;

	r->wall_ns = count(t, "wall_ns");
	r->user_ns = count(t, "user_ns");
	r->sys_ns = count(t, "system_ns");
	r->repeat = size(rep, "requested", 0);
	r->warmup = size(rep, "warmup", 0);
	r->stopped = str(rep, "stopped");
	if (!r->nruns)
		return 0;
	if (!(times = calloc(r->nruns + 1, sizeof(*times))))
		return -1;
	cJSON_ArrayForEach(it, item(t, "runs"))
		if (i < r->nruns)
			times[i++] = (struct report_times){ count(it, "wall_ns"), count(it, "user_ns"),
							    count(it, "system_ns") };
	r->run_times = times;
	st = item(t, "stats");
	load_stats(item(st, "wall_ns"), &r->wall_stats, NULL, 0);
	load_stats(item(st, "user_ns"), &r->user_stats, NULL, 0);
	load_stats(item(st, "system_ns"), &r->sys_stats, NULL, 0);
	return 0;
}

/* -I: each interval's end, and each event's delta in it (the k-th entry is event k's). */
static int load_intervals(const cJSON *root, struct report *r)
{
	const cJSON *a = item(root, "intervals"), *it, *d;
	size_t n = (size_t)cJSON_GetArraySize(a), i = 0;
	uint64_t *t;

	r->interval_ms = (unsigned)size(root, "interval_ms", 0);
	r->interval_stop = str(root, "interval_stop");
	if (!cJSON_IsArray(a) || !r->nevents)
		return 0;
	if (!(t = calloc(n + 1, sizeof(*t))))
		return -1;
	r->interval_t_ns = t;
	r->nintervals = n;
	for (size_t k = 0; k < r->nevents; k++) {
		if (!(r->events[k].deltas = calloc(n + 1, sizeof(struct report_delta))))
			return -1;
		for (size_t j = 0; j < n; j++)	/* those the document lacks: not counted */
			report_delta_set(&r->events[k].deltas[j], &r->events[k], 0, 0, 0, 0, 0);
	}
	cJSON_ArrayForEach(it, a) {
		size_t k = 0;

		t[i] = count(it, "t_ns");
		cJSON_ArrayForEach(d, item(it, "events")) {
			if (k >= r->nevents)
				break;
			report_delta_set(&r->events[k].deltas[i], &r->events[k],
					 cJSON_IsNumber(item(d, "value")), count(d, "raw_value"),
					 count(d, "time_enabled_ns"), count(d, "time_running_ns"),
					 num(d, "value", 0));
			k++;
		}
		i++;
	}
	return 0;
}

/* 1.4: the aggregation by its JSON name. */
static enum report_aggr aggr_of(const char *s)
{
	static const char *const names[] = {
		[REPORT_AGGR_GLOBAL] = "global", [REPORT_AGGR_CPU] = "cpu",
		[REPORT_AGGR_CORE] = "core", [REPORT_AGGR_CLUSTER] = "cluster",
		[REPORT_AGGR_SOCKET] = "socket", [REPORT_AGGR_THREAD] = "thread",
		[REPORT_AGGR_DIE] = "die", [REPORT_AGGR_NODE] = "node",
		[REPORT_AGGR_CACHE] = "cache",
	};

	for (size_t k = 0; s && k < sizeof(names) / sizeof(names[0]); k++)
		if (names[k] && !strcmp(s, names[k]))
			return (enum report_aggr)k;
	return REPORT_AGGR_GLOBAL;
}

/* The index of the unit named id among r's, -1 when none. Looked for from *from on (and
 * round), which is then the one after it: an event's cells come in the units' order, so that
 * each is found at the first try, not by a walk over thousands of threads'. */
static long unit_ix(const struct report *r, const char *id, size_t *from)
{
	for (size_t k = 0; id && k < r->nunits; k++) {
		size_t u = (*from + k) % r->nunits;

		if (!strcmp(r->units[u].id, id)) {
			*from = u + 1;
			return (long)u;
		}
	}
	return -1;
}

static void load_cell(const cJSON *o, struct report_cell *c)
{
	int has_value = cJSON_IsNumber(item(o, "value"));

	c->present = 1;
	c->fig.status = status_of(str(o, "status"), has_value);
	c->fig.reason = str(o, "reason");
	c->fig.raw = count(o, "raw_value");
	c->fig.enabled_ns = count(o, "time_enabled_ns");
	c->fig.running_ns = count(o, "time_running_ns");
	c->fig.value = num(o, "value", 0);
	c->fig.counted_pct = c->fig.status == REPORT_COUNTED ? num(o, "counted_pct", 100.0) :
			     report_share_pct(c->fig.running_ns, c->fig.enabled_ns);
	c->fig.scaled = flag(o, "scaled");
}

/* 1.4: the target, the aggregation and, per unit, each event's cells (and per interval).
 * The units are those the events name, in the order they first appear. */
static int load_units(const cJSON *root, struct report *r)
{
	const cJSON *it, *u, *iv, *ev;
	struct report_unit *units;
	size_t cap = 0, i = 0, e = 0, from = 0;

	r->target = str(root, "target");
	r->system_wide = flag(root, "system_wide");
	r->aggr = aggr_of(str(root, "aggregation"));
	r->timeout_ms = (unsigned)size(root, "timeout_ms", 0);
	r->timed_out = flag(root, "timed_out");
	if (r->aggr == REPORT_AGGR_GLOBAL)
		return 0;
	cJSON_ArrayForEach(it, item(root, "events"))
		cap += (size_t)cJSON_GetArraySize(item(it, "units"));
	if (!(units = calloc(cap + 1, sizeof(*units))))
		return -1;
	r->units = units;
	cJSON_ArrayForEach(it, item(root, "events"))
		cJSON_ArrayForEach(u, item(it, "units")) {
			struct report_unit *x = &units[r->nunits];

			if (!str(u, "unit") || unit_ix(r, str(u, "unit"), &from) >= 0)
				continue;
			copy(x->id, sizeof(x->id), str(u, "unit"));
			x->cpu = whole(u, "cpu", -1);
			x->socket = whole(u, "socket", -1);
			x->die = whole(u, "die", -1);
			x->cluster = whole(u, "cluster", -1);
			x->core = whole(u, "core", -1);
			x->node = whole(u, "node", -1);
			x->cache_level = whole(u, "cache_level", -1);
			x->cache = whole(u, "cache", -1);
			x->tid = whole(u, "thread", -1);
			x->ncpus = whole(u, "ncpus", 0);
			r->nunits++;
		}
	cJSON_ArrayForEach(ev, item(root, "events")) {
		struct report_cell *c;

		if (e >= r->nevents)
			break;
		if (!(c = calloc(r->nunits + 1, sizeof(*c))))
			return -1;
		r->events[e++].cells = c;
		cJSON_ArrayForEach(u, item(ev, "units")) {
			long x = unit_ix(r, str(u, "unit"), &from);

			if (x >= 0)
				load_cell(u, &c[x]);
		}
	}
	if (!r->nintervals)
		return 0;
	for (size_t k = 0; k < r->nevents; k++)
		if (!(r->events[k].unit_deltas = calloc(r->nintervals * r->nunits + 1,
						       sizeof(struct report_cell))))
			return -1;
	cJSON_ArrayForEach(iv, item(root, "intervals")) {
		size_t k = 0;

		if (i >= r->nintervals)
			break;
		cJSON_ArrayForEach(it, item(iv, "events")) {
			if (k >= r->nevents)
				break;
			cJSON_ArrayForEach(u, item(it, "units")) {
				long x = unit_ix(r, str(u, "unit"), &from);

				if (x >= 0)
					load_cell(u, &r->events[k].unit_deltas[i * r->nunits +
										(size_t)x]);
			}
			k++;
		}
		i++;
	}
	return 0;
}

static void load_tail(const cJSON *root, struct report *r)
{
	const cJSON *mux = item(root, "mux"), *ex = item(root, "exit");

	r->mux = str(mux, "mode");
	r->mux_runs = size(mux, "runs", 1);
	r->runs_for_exact = size(mux, "runs_for_exact", 0);
	r->multiplexed = flag(mux, "multiplexed");
	r->term_signal = whole(ex, "signal", 0);
	r->exit_code = whole(ex, "status", r->term_signal ? -1 : 0);
	r->interrupted = flag(ex, "interrupted");
}

/* 1.5: the metrics' core, and the -M names (strings of the document) */
static int load_metric_requests(const cJSON *root, struct report *r)
{
	const cJSON *a = item(root, "metric_requests"), *it;
	const char **names;
	size_t n = 0;

	r->metrics_core = str(root, "metrics_core");
	r->topdown_group = str(item(root, "topdown"), "group");
	r->topdown_how = str(item(root, "topdown"), "how");
	if (!(names = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*names))))
		return -1;
	cJSON_ArrayForEach(it, a)
		if (cJSON_IsString(it))
			names[n++] = it->valuestring;
	r->metric_requests = names;
	r->nmetric_requests = n;
	return 0;
}

static int load_command(const cJSON *root, struct report *r)
{
	const cJSON *cmd = item(root, "command"), *it;
	char **argv;
	int n = 0;

	if (!(argv = calloc((size_t)cJSON_GetArraySize(cmd) + 1, sizeof(*argv))))
		return -1;
	cJSON_ArrayForEach(it, cmd)
		if (cJSON_IsString(it))
			argv[n++] = it->valuestring;
	r->argv = argv;
	r->argc = n;
	return 0;
}

int report_load(const cJSON *root, struct report *r)
{
	const cJSON *evs = item(root, "events"), *it;
	size_t k = 0;

	memset(r, 0, sizeof(*r));
	r->tool_version = str(root, "pmuprof_version") ? str(root, "pmuprof_version")
						       : PMUPROF_VERSION;
	load_host(item(root, "host"), &r->host);
	r->nruns = nruns_of(root);
	if (load_command(root, r) != 0 ||
	    !(r->events = calloc((size_t)cJSON_GetArraySize(evs) + 1, sizeof(*r->events))))
		goto fail;
	cJSON_ArrayForEach(it, evs) {
		r->nevents++;
		if (report_load_event(it, &r->events[k], r->nruns) != 0)
			goto fail;
		r->per_cgroup |= r->events[k].cgroup != NULL;
		k++;
	}
	if (load_time(root, r) != 0 || load_intervals(root, r) != 0 ||
	    load_units(root, r) != 0 || load_metric_requests(root, r) != 0 ||
	    report_load_regions(root, r) != 0)
		goto fail;
	load_tail(root, r);
	return 0;
fail:
	report_load_free(r);
	return -1;
}

void report_load_free(struct report *r)
{
	report_free_parts(r);
	free((void *)r->argv);
	free((void *)r->interval_t_ns);
	free((void *)r->metric_requests);
	memset(r, 0, sizeof(*r));
}
