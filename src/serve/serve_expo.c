/* SPDX-License-Identifier: Apache-2.0 */
/* serve_expo.c: a scrape's series in Prometheus' text format 0.0.4 or in OpenMetrics 1.0,
 * chosen by the Accept header. Only formats: the values come from serve_scrape. */
#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"
#include "strbuf.h"

static const char om_type[] = "application/openmetrics-text; version=1.0.0; charset=utf-8";
static const char prom_type[] = "text/plain; version=0.0.4; charset=utf-8";

const char *serve_content_type(enum serve_format f)
{
	return f == SERVE_OPENMETRICS ? om_type : prom_type;
}

/* The q of one Accept element's parameters (1 when absent). */
static double q_of(const char *params, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if ((params[i] == ';' || params[i] == ' ') && tolower((unsigned char)params[i + 1]) == 'q' &&
		    params[i + 2] == '=')
			return strtod(params + i + 3, NULL);
	return 1;
}

enum serve_format serve_format_of(const char *accept)
{
	static const char om[] = "application/openmetrics-text";

	while (accept && *accept) {
		size_t n = strcspn(accept, ",");
		const char *p = accept + strspn(accept, " \t");

		if (!strncasecmp(p, om, sizeof(om) - 1) && q_of(p, n - (size_t)(p - accept)) > 0)
			return SERVE_OPENMETRICS;
		accept += n + (accept[n] == ',');
	}
	return SERVE_PROMETHEUS;
}

struct out {
	char *buf;
	size_t len, cap;
	int err;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= sizeof(line) || strbuf_put(&o->buf, &o->len, &o->cap, line))
		o->err = 1;
}

/* A family's header: its name in OpenMetrics has no _total; unit names its suffix. */
static void family(struct out *o, enum serve_format f, const char *name, const char *type,
		   const char *unit, const char *help)
{
	size_t n = strlen(name);

	if (f == SERVE_PROMETHEUS) {
		put(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		    !strcmp(type, "info") ? "gauge" : type);
		return;
	}
	if (!strcmp(type, "counter") && n > 6 && !strcmp(name + n - 6, "_total"))
		n -= 6;
	if (!strcmp(type, "info") && n > 5 && !strcmp(name + n - 5, "_info"))
		n -= 5;
	put(o, "# TYPE %.*s %s\n", (int)n, name, type);
	if (unit)
		put(o, "# UNIT %.*s %s\n", (int)n, name, unit);
	put(o, "# HELP %.*s %s\n", (int)n, name, help);
}

/* A count as an integer while it is one (scaled estimates are not), else in full. */
static void count(char *buf, size_t len, double v)
{
	if (v >= 0 && v < 9007199254740992.0 && v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.17g", v);
}

static void series(struct out *o, const struct serve_samples *s, const char *name, int what)
{
	for (size_t k = 0; k < s->n; k++) {
		const struct serve_sample *x = &s->s[k];
		uint64_t ns = what == 1 ? x->enabled : x->running;
		char v[48];

		if (!what)
			count(v, sizeof(v), x->value);
		else
			snprintf(v, sizeof(v), "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
				 ns % 1000000000u);
		put(o, "%s{%s} %s\n", name, x->labels, v);
	}
}

int serve_expo(const struct serve_samples *s, const struct serve_facts *f, enum serve_format fm,
	       char **buf, size_t *len)
{
	struct out o = { 0 };
	char ver[128];

	family(&o, fm, "pmuprof_events_total", "counter", NULL,
	       "Events counted system-wide, scaled by running time where multiplexed; never "
	       "decreasing.");
	series(&o, s, "pmuprof_events_total", 0);
	family(&o, fm, "pmuprof_event_enabled_seconds_total", "counter", "seconds",
	       "Time the counters of the series were enabled, added over them.");
	series(&o, s, "pmuprof_event_enabled_seconds_total", 1);
	family(&o, fm, "pmuprof_event_running_seconds_total", "counter", "seconds",
	       "Time the counters of the series were on a hardware counter; below enabled when "
	       "multiplexed.");
	series(&o, s, "pmuprof_event_running_seconds_total", 2);
	family(&o, fm, "pmuprof_plan_runs", "gauge", NULL,
	       "Runs an exact count of every event would need: 1 when all fit the counters at "
	       "once, more when the kernel multiplexes them.");
	put(&o, "pmuprof_plan_runs{known=\"%s\"} %zu\n", f->plan_known ? "true" : "false",
	    f->plan_runs);
	family(&o, fm, "pmuprof_counters", "gauge", NULL,
	       "Counters pmuprof serve opened, by state (open, or refused by the kernel).");
	put(&o, "pmuprof_counters{state=\"open\"} %zu\n", f->counters_open);
	put(&o, "pmuprof_counters{state=\"refused\"} %zu\n", f->counters - f->counters_open);
	family(&o, fm, "pmuprof_build_info", "info", NULL, "The pmuprof that serves.");
	serve_escape(ver, sizeof(ver), f->version);
	put(&o, "pmuprof_build_info{version=\"%s\"} 1\n", ver);
	if (fm == SERVE_OPENMETRICS)
		put(&o, "# EOF\n");
	if (o.err) {
		free(o.buf);
		return -1;
	}
	*buf = o.buf;
	*len = o.len;
	return 0;
}
