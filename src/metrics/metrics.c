/* SPDX-License-Identifier: Apache-2.0 */
/* metrics.c: which metrics a run asks for, from the generated tables (mxtab.h; the data is
 * events/metrics, Arm's formulas): the core whose set they come from, what -M NAME names and
 * the events it adds to the run, and the metrics of a report found by name (--topdown's
 * tree). Binding them to a report's events is metrics_bind.c's, evaluating metrics_eval.c's. */
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "metrics.h"
#include "resolve.h"
#include "strbuf.h"

void metrics_core_set(struct metrics_core *mc, const struct evtab_core *c, unsigned rev)
{
	mc->core = c;
	mc->rev = rev;
	mc->set = c ? mxtab_set_for(c, rev) : mxtab_generic_set();
}

int metrics_core_named(struct metrics_core *mc, const char *model)
{
	const struct evtab_core *c = evtab_core_by_name(model);
	int rev = evtab_model_revision(model);

	if (!c)
		return -1;
	metrics_core_set(mc, c, rev >= 0 ? (unsigned)rev : 0);
	return 0;
}

const char *metrics_core_id(const struct metrics_core *mc, char *buf, size_t len)
{
	if (!mc->core)
		return NULL;
	snprintf(buf, len, "%s:r%up%u", evtab_core_name(mc->core), mc->rev >> 4, mc->rev & 0xf);
	return buf;
}

void metrics_core_from_midr(struct metrics_core *mc, uint64_t midr)
{
	metrics_core_set(mc, midr ? evtab_core_by_midr(midr) : NULL, MXTAB_MIDR_REV(midr));
}

const char *metrics_core_title(const struct metrics_core *mc, char *buf, size_t len)
{
	if (!mc->core)
		snprintf(buf, len, "an unknown core");
	else if (mc->set && mxtab_set_rev_lo(mc->set) == 0 && mxtab_set_rev_hi(mc->set) == 0xff)
		snprintf(buf, len, "%s", evtab_core_name(mc->core));
	else
		snprintf(buf, len, "%s r%up%u", evtab_core_name(mc->core), mc->rev >> 4,
			 mc->rev & 0xf);
	return buf;
}

const char *metrics_names_check(const char *arg, int *column)
{
	size_t len = strlen(arg);

	if (!len) {
		*column = 1;
		return "empty metric list";
	}
	for (size_t i = 0; i <= len; i++) {
		if (arg[i] != ',' && arg[i])
			continue;
		/* a name ends here: it is empty when it starts here too */
		if (i == 0 || arg[i - 1] == ',') {
			if (!arg[i]) {
				*column = (int)i;
				return "trailing ',' with no metric after it";
			}
			*column = (int)i + 1;
			return "empty metric name";
		}
	}
	return NULL;
}

int metrics_names_add(char *arg, const char ***names, size_t *n)
{
	for (char *name = arg, *comma; name; name = comma) {
		const char **p;

		if ((comma = strchr(name, ',')))
			*comma++ = '\0';
		if (!*name)
			continue;
		if (!(p = realloc(*names, (*n + 1) * sizeof(*p))))
			return -1;
		*names = p;
		(*names)[(*n)++] = metrics_perf_name(name);
	}
	return 0;
}

int metrics_names_add_once(const char ***names, size_t *n, const char *name)
{
	const char **p;

	for (size_t k = 0; k < *n; k++)
		if (!ascii_strcasecmp((*names)[k], name))
			return 0;
	if (!(p = realloc(*names, (*n + 1) * sizeof(*p))))
		return -1;
	*names = p;
	p[(*n)++] = name;
	return 0;
}

int metrics_lookup(const struct metrics_core *mc, const char *name,
		   const struct mxtab_group **g, const struct mxtab_metric **m)
{
	*g = mc->set ? mxtab_find_group(mc->set, name) : NULL;
	*m = mc->set && !*g ? mxtab_find_metric(mc->set, name) : NULL;
	return *g || *m ? 0 : -1;
}

/* perf's generic hardware events, by config (perf_event.h's PERF_COUNT_HW_*), as perf spells
 * them. */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
};

/* For a core pmuprof does not know: the generic event the kernel maps to Arm event ev (of the
 * generic metrics' core), so that it opens on any PMU; name is left as it is when none. */
static void generic_name(const struct evtab_core *core, const char *ev, char *name, size_t len)
{
	const struct evtab_event *e = evtab_find_name(core, ev);

	for (uint64_t c = 0; e && c < sizeof(hw_names) / sizeof(hw_names[0]); c++)
		if (resolve_generic_arm_code(PERF_TYPE_HARDWARE, c) == (int)evtab_event_code(e)) {
			snprintf(name, len, "%s", hw_names[c]);
			return;
		}
}

/* Appends the events named (Arm's upper-case names), lower case and comma-separated, as one
 * perf group when braces; generic (the unknown core's): perf's generic names where the kernel
 * maps one to the event. */
static int put_events(char **buf, size_t *len, size_t *cap, const char *const *ev, size_t n,
		      int braces, const struct evtab_core *generic)
{
	char name[MEXPR_MAX_NAME + 1];

	if ((*len && strbuf_put(buf, len, cap, ",")) || (braces && strbuf_put(buf, len, cap, "{")))
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; ev[i][k] && k < MEXPR_MAX_NAME; k++)
			name[k] = (char)ascii_tolower((unsigned char)ev[i][k]);
		name[k] = '\0';
		if (generic)
			generic_name(generic, ev[i], name, sizeof(name));
		if ((i && strbuf_put(buf, len, cap, ",")) || strbuf_put(buf, len, cap, name))
			return -1;
	}
	return braces ? strbuf_put(buf, len, cap, "}") : 0;
}

#define MAX_GROUP_EVENTS 128

/* The distinct events of m (g NULL) or of g's metrics, into ev; how many. */
static size_t events_of(const struct mxtab_group *g, const struct mxtab_metric *m,
			const char **ev)
{
	size_t n = 0, nm = g ? mxtab_group_nmetrics(g) : 1;

	for (size_t i = 0; i < nm; i++) {
		const struct mxtab_metric *x = g ? mxtab_group_metric(g, i) : m;

		for (size_t e = 0; e < mxtab_metric_nevents(x); e++) {
			size_t k;

			for (k = 0; k < n && strcmp(ev[k], mxtab_metric_event(x, e)); k++)
				;
			if (k == n && n < MAX_GROUP_EVENTS)
				ev[n++] = mxtab_metric_event(x, e);
		}
	}
	return n;
}

char *metrics_spec(const struct metrics_core *mc, const char *name, int counters, int *unknown)
{
	const struct mxtab_group *g;
	const struct mxtab_metric *m;
	const char *ev[MAX_GROUP_EVENTS];
	const struct evtab_core *generic = mc->core || !mc->set ? NULL : mxtab_set_core(mc->set);
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc = 0;

	*unknown = metrics_lookup(mc, name, &g, &m) != 0;
	if (*unknown)
		return NULL;
	n = events_of(g, m, ev);
	if (m || (counters > 0 && n <= (size_t)counters)) {
		/* one window for the metric, or for the whole group: its ratios agree */
		rc = put_events(&buf, &len, &cap, ev, n, counters <= 0 || n <= (size_t)counters,
				generic);
	} else {
		for (size_t i = 0; !rc && i < mxtab_group_nmetrics(g); i++) {
			n = events_of(NULL, mxtab_group_metric(g, i), ev);
			rc = put_events(&buf, &len, &cap, ev, n, counters <= 0 ||
					n <= (size_t)counters, generic);
		}
	}
	if (rc || !buf) {
		free(buf);
		return NULL;
	}
	return buf;
}


const struct report_metric_value *metrics_find(const struct report *r, const char *name)
{
	for (size_t k = 0; k < r->nmetrics; k++)
		if (!r->metrics[k].pmu && !strcmp(mxtab_metric_name(r->metrics[k].def), name))
			return &r->metrics[k];
	return NULL;
}

size_t metrics_topdown_nodes(const struct report *r, const struct report_metric_value **node,
			     int *dominant, size_t max)
{
	const struct mxtab_group *g = r->topdown_set && r->topdown_group ?
		mxtab_find_group(r->topdown_set, r->topdown_group) : NULL;
	double top = 0;
	size_t n = 0;

	for (size_t i = 0; g && i < mxtab_group_nmetrics(g) && n < max; i++)
		if ((node[n] = metrics_find(r, mxtab_metric_name(mxtab_group_metric(g, i))))) {
			if (isfinite(node[n]->value) && node[n]->value > top)
				top = node[n]->value;
			n++;
		}
	/* the largest share, and any other within a quarter of it */
	for (size_t i = 0; i < n; i++)
		dominant[i] = top > 0 && isfinite(node[i]->value) && node[i]->value >= 0.75 * top;
	return n;
}

int metrics_topdown_next(const struct report *r, const char ***names, size_t *n,
			 size_t *ndominant)
{
	const struct report_metric_value *node[16];
	int dominant[16];
	size_t nn = metrics_topdown_nodes(r, node, dominant, 16);

	*ndominant = 0;
	for (size_t i = 0; i < nn; i++) {
		if (!dominant[i])
			continue;
		++*ndominant;
		if (metrics_next_groups_add(r->topdown_set, node[i]->def, names, n) != 0)
			return -1;
	}
	return 0;
}

int metrics_next_groups_add(const struct mxtab_set *s, const struct mxtab_metric *node,
			    const char ***names, size_t *n)
{
	const char *next = mxtab_metric_next(node);
	const struct mxtab_group *g;

	while ((g = metrics_next_group(s, &next)))
		if (metrics_names_add_once(names, n, mxtab_group_name(g)) != 0)
			return -1;
	return 0;
}

const struct mxtab_group *metrics_next_group(const struct mxtab_set *s, const char **next)
{
	const struct mxtab_group *g = NULL;

	while (**next && !g) {
		size_t len = strcspn(*next, " ");
		char name[MEXPR_MAX_NAME + 1];

		snprintf(name, sizeof(name), "%.*s", (int)len, *next);
		g = s ? mxtab_find_group(s, name) : NULL;
		*next += len;
		*next += strspn(*next, " ");
	}
	return g;
}
