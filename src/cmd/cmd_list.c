/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_list.c: `pmuprof list`: its options, then which cores to list (the machine's PMUs,
 * --cpu-model, --all-cores), their events filtered by PATTERN, as text or JSON. */
#include <argp.h>
#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argp_hint.h"
#include "cmd.h"
#include "cmd_list_priv.h"
#include "evsel.h"
#include "evtab.h"
#include "jsonout.h"
#include "list_generic.h"
#include "list_metrics.h"
#include "textline.h"
#include "resolve.h"
#include "sysfs.h"

enum { OPT_CPU_MODEL = 0x100 };

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "List as one JSON document", 0 },
	/* no -M: perf's -M is --metric (pmuprof stat's and report's too) */
	{ "cpu-model", OPT_CPU_MODEL, "CORE", 0,
	  "List the events of CORE (neoverse-n1, cortex-a76, a55, ...) on any host", 0 },
	{ "all-cores", 'a', NULL, 0, "List the events of every core in pmuprof's tables", 0 },
	{ "names", 'n', NULL, 0, "Print the event names alone, one a line (for scripts and shell "
	  "completion)", 0 },
	{ "cores", 'c', NULL, 0, "Print the names of the cores in pmuprof's tables, one a line "
	  "(what --cpu-model takes), each with its vendor MIDRs (--names: the names alone)", 0 },
	{ "metrics", 'm', NULL, 0, "List metrics and metric groups (formula, unit, events) "
	  "instead of events; CORE:rXpY picks a revision's", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct list_opts *o = state->input;

	switch (key) {
	case 'j':
		o->json = 1;
		break;
	case OPT_CPU_MODEL:
		o->cpu_model = arg;
		break;
	case 'a':
		o->all_cores = 1;
		break;
	case 'n':
		o->names = 1;
		break;
	case 'c':
		o->cores = 1;
		break;
	case 'm':
		o->metrics = 1;
		break;
	case ARGP_KEY_ARG:
		if (o->pattern)
			argp_error(state, "one PATTERN at most (got '%s' and '%s')", o->pattern, arg);
		o->pattern = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp list_argp = {
	options, parse_opt, "[PATTERN]",
	"List the events pmuprof knows for this machine's Arm cores: code, name, class and "
	"description, and whether the PMU advertises the event (sysfs events/); with --metrics, "
	"their metrics and metric groups.\v"
	"PATTERN picks events (metrics, groups) by name: a substring, or a glob with * ? [ ] "
	"(any case). "
	"On a host without an Arm PMU, and without --cpu-model, only perf's generic events are "
	"listed. $PMUPROF_CPU_MODEL stands for --cpu-model.",
	NULL, NULL, NULL
};

static cJSON *cpus_json(const struct sysfs_pmu *p)
{
	cJSON *a = cJSON_CreateArray();

	for (int k = 0; p && k < p->ncpus; k++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(p->cpus[k]));
	return a;
}

/* Names, descriptions and class words are static tables: referenced, not copied (keeps
 * --all-cores --json, ~5,000 events, within the 10 ms budget). */
static cJSON *event_json(const struct list_section *s, const struct evtab_event *e)
{
	cJSON *o = cJSON_CreateObject();
	int adv = list_advertised(s, evtab_event_code(e));

	cJSON_AddNumberToObject(o, "code", evtab_event_code(e));
	cJSON_AddItemToObject(o, "name", cJSON_CreateStringReference(evtab_event_name(e)));
	cJSON_AddItemToObject(o, "description", cJSON_CreateStringReference(evtab_event_desc(e)));
	cJSON_AddItemToObject(o, "class",
			      cJSON_CreateStringReference(list_class_name(evtab_event_class(e))));
	cJSON_AddItemToObject(o, "advertised", adv < 0 ? cJSON_CreateNull() : cJSON_CreateBool(adv));
	return o;
}

static cJSON *section_json(const struct list_section *s, const char *pattern)
{
	cJSON *o = cJSON_CreateObject(), *evs = cJSON_CreateArray();
	size_t n = evtab_nevents(s->core), shown = 0;
	char midr[24];

	cJSON_AddItemToObject(o, "core", s->core ? cJSON_CreateString(evtab_core_name(s->core))
						 : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "title",
				s->core ? evtab_core_title(s->core) : "PMUv3 common events");
	snprintf(midr, sizeof(midr), "0x%016llx", s->pmu ? (unsigned long long)s->pmu->midr : 0ULL);
	cJSON_AddItemToObject(o, "midr", s->pmu && s->pmu->midr ? cJSON_CreateString(midr)
								: cJSON_CreateNull());
	cJSON_AddItemToObject(o, "pmu", s->pmu ? cJSON_CreateString(s->pmu->name) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "type", s->pmu ? cJSON_CreateNumber(s->pmu->type) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "cpus", s->pmu ? cpus_json(s->pmu) : cJSON_CreateNull());
	for (size_t k = 0; k < n; k++) {
		const struct evtab_event *e = evtab_event_at(s->core, k);
		if (list_metrics_matches(pattern, evtab_event_name(e))) {
			cJSON_AddItemToArray(evs, event_json(s, e));
			shown++;
		}
	}
	/* what the PMU advertises beyond the tables (an IMPDEF event, a core not tabled) */
	for (size_t k = 0; k < sysfs_event_listed(s->pmu); k++) {
		const struct sysfs_event *e = sysfs_event_at(s->pmu, k);
		long code = e ? resolve_sysfs_event_code(e) : -1;
		cJSON *x;

		if (!e || !list_beyond_table(s, e) || !list_metrics_matches(pattern, e->name))
			continue;
		x = cJSON_CreateObject();
		cJSON_AddItemToObject(x, "code", code >= 0 ? cJSON_CreateNumber((double)code)
							   : cJSON_CreateNull());
		cJSON_AddStringToObject(x, "name", e->name);
		cJSON_AddNullToObject(x, "description");
		cJSON_AddStringToObject(x, "class", "sysfs");
		cJSON_AddBoolToObject(x, "advertised", 1);
		cJSON_AddStringToObject(x, "terms", e->terms);
		cJSON_AddItemToArray(evs, x);
		shown++;
	}
	cJSON_AddNumberToObject(o, "nevents", (double)shown);
	cJSON_AddItemToObject(o, "events", evs);
	return o;
}

struct generic_acc {
	const char *pattern;
	cJSON *arr;		/* JSON: the array to fill; text: NULL */
	FILE *fp;		/* names only */
	struct textline *l;	/* text: the lines */
	int shown;		/* text: the header is printed before the first match */
};

static void generic_cb(const char *name, uint32_t type, uint64_t config, void *arg)
{
	struct generic_acc *g = arg;
	struct perf_event_attr a = { .type = type, .config = config };
	struct textline *l = g->l;

	if (!list_metrics_matches(g->pattern, name))
		return;
	if (g->arr) {	/* the text line (list_generic_line) asks for the Arm code itself */
		int arm = resolve_generic_arm_code(a.type, a.config);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", name);
		cJSON_AddNumberToObject(o, "type", a.type);
		cJSON_AddNumberToObject(o, "config", (double)a.config);
		cJSON_AddItemToObject(o, "arm_code", arm < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(arm));
		cJSON_AddItemToArray(g->arr, o);
		return;
	}
	if (!g->shown++)
		list_generic_heading(l);
	list_generic_line(l, name, a.type, a.config);
}

static const char no_arm_note[] =
	"no Arm PMU on this machine: listing perf's generic events only (give --cpu-model CORE "
	"or --all-cores for the Arm tables)";

static int print_json(const struct list_opts *o, const struct list_section *s, size_t n,
		      int generic_only)
{
	cJSON *root = cJSON_CreateObject(), *cores = cJSON_CreateArray();
	struct generic_acc g = { .pattern = o->pattern, .arr = cJSON_CreateArray() };

	cJSON_AddStringToObject(root, "schema_version", "1.0");
	cJSON_AddItemToObject(root, "pattern", o->pattern ? cJSON_CreateString(o->pattern)
							  : cJSON_CreateNull());
	cJSON_AddItemToObject(root, "note", generic_only ? cJSON_CreateString(no_arm_note)
							 : cJSON_CreateNull());
	resolve_generic_names(generic_cb, &g);
	cJSON_AddItemToObject(root, "generic", g.arr);
	for (size_t k = 0; k < n; k++)
		cJSON_AddItemToArray(cores, section_json(&s[k], o->pattern));
	cJSON_AddItemToObject(root, "cores", cores);
	return jsonout_emit(root, stdout, JSONOUT_COMPACT);
}

/* An int in base 10 (a PMU's type, its CPUs). */
static void put_int(struct textline *l, int v)
{
	if (v < 0)
		textline_put(l, "-", 1);
	textline_num(l, v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, 1);
}

/* A section, its heading and its lines, through l. */
static void print_section(const struct list_section *s, const char *pattern,
			  struct textline *l)
{
	size_t n = evtab_nevents(s->core);
	const char *title = s->core ? evtab_core_title(s->core)
				    : "PMUv3 core not in pmuprof's tables (common events)";

	/* "%s on %s (type %d, %d cpu%s from %d): * = advertised by the PMU" */
	textline_put(l, title, strlen(title));
	if (s->pmu) {
		textline_put(l, " on ", 4);
		textline_put(l, s->pmu->name, strlen(s->pmu->name));
		textline_put(l, " (type ", 7);
		put_int(l, s->pmu->type);
		textline_put(l, ", ", 2);
		put_int(l, s->pmu->ncpus);
		textline_put(l, s->pmu->ncpus == 1 ? " cpu from " : " cpus from ",
			     s->pmu->ncpus == 1 ? 10 : 11);
		put_int(l, s->pmu->ncpus ? s->pmu->cpus[0] : 0);
		textline_put(l, "): * = advertised by the PMU", 28);
	} else {
		textline_put(l, " (no PMU of this core here)", 27);
	}
	textline_end(l);
	for (size_t k = 0; k < n; k++) {
		const struct evtab_event *e = evtab_event_at(s->core, k);
		const char *name = evtab_event_name(e);
		unsigned code = evtab_event_code(e);

		if (!list_metrics_matches(pattern, name))
			continue;
		/* "  0x%04x %c %-36s %-6s  %s" */
		textline_put(l, "  0x", 4);
		textline_num(l, code, 16, 4);
		textline_put(l, list_advertised(s, code) > 0 ? " * " : "   ", 3);
		textline_pad(l, name, 36);
		textline_put(l, " ", 1);
		textline_pad(l, list_class_short(evtab_event_class(e)), 6);
		textline_put(l, "  ", 2);
		textline_pad(l, evtab_event_desc(e), 0);
		textline_end(l);
	}
	for (size_t k = 0; k < sysfs_event_listed(s->pmu); k++) {
		const struct sysfs_event *e = sysfs_event_at(s->pmu, k);
		long code = e ? resolve_sysfs_event_code(e) : -1;

		if (!e || !list_beyond_table(s, e) || !list_metrics_matches(pattern, e->name))
			continue;
		/* "  0x%04lx * %-36s %-6s  advertised by the PMU, not in pmuprof's tables", or
		 * "  ------ * %-36s %-6s  advertised by the PMU as %s" */
		if (code >= 0) {
			textline_put(l, "  0x", 4);
			textline_num(l, (unsigned long long)code, 16, 4);
		} else {
			textline_put(l, "  ------", 8);
		}
		textline_put(l, " * ", 3);
		textline_pad(l, e->name, 36);
		textline_put(l, " sysfs   advertised by the PMU", 30);
		if (code >= 0) {
			textline_put(l, ", not in pmuprof's tables", 25);
		} else {
			textline_put(l, " as ", 4);
			textline_pad(l, e->terms, 0);
		}
		textline_end(l);
	}
	textline_end(l);
}

/* The text listing on standard output. 0, or -1 when a write failed. */
static int print_text(const struct list_opts *o, const struct list_section *s, size_t n,
		      int generic_only)
{
	char tb[4096];
	struct textline l = TEXTLINE_ON(stdout, tb);
	struct generic_acc g = { .pattern = o->pattern, .l = &l };

	if (generic_only) {
		textline_put(&l, "pmuprof: ", 9);
		textline_put(&l, no_arm_note, sizeof(no_arm_note) - 1);
		textline_end(&l);
		textline_end(&l);
	}
	resolve_generic_names(generic_cb, &g);
	if (g.shown)
		textline_end(&l);
	for (size_t k = 0; k < n; k++)
		print_section(&s[k], o->pattern, &l);
	textline_flush(&l);
	return fflush(stdout) != 0 || textline_failed(&l) ? -1 : 0;
}

static void name_cb(const char *name, void *arg)
{
	struct generic_acc *g = arg;

	if (list_metrics_matches(g->pattern, name)) {
		fputs(name, g->fp);
		putc('\n', g->fp);
	}
}

static void generic_name_cb(const char *name, uint32_t type, uint64_t config, void *arg)
{
	(void)type;
	(void)config;
	name_cb(name, arg);
}

/* --names: the names the text listing shows, in its order, nothing else (no note on a host
 * without an Arm PMU: a script asked for names). */
static void print_names(const struct list_opts *o, const struct list_section *s, size_t n)
{
	struct generic_acc g = { .pattern = o->pattern, .fp = stdout };

	resolve_generic_names(generic_name_cb, &g);
	for (size_t k = 0; k < n; k++) {
		for (size_t e = 0; e < evtab_nevents(s[k].core); e++)
			name_cb(evtab_event_name(evtab_event_at(s[k].core, e)), &g);
		for (size_t e = 0; e < sysfs_event_listed(s[k].pmu); e++) {
			const struct sysfs_event *x = sysfs_event_at(s[k].pmu, e);

			if (x && list_beyond_table(&s[k], x))
				name_cb(x->name, &g);
		}
	}
}

/* How many names a listing of PATTERN shows: the generic events' and each section's (its
 * table's and its PMU's beyond the table). */
static void count_cb(const char *name, uint32_t type, uint64_t config, void *arg)
{
	struct generic_acc *g = arg;

	(void)type;
	(void)config;
	g->shown += list_metrics_matches(g->pattern, name);
}

static size_t count_events(const char *pattern, const struct list_section *s, size_t n)
{
	struct generic_acc g = { .pattern = pattern };
	size_t got;

	resolve_generic_names(count_cb, &g);
	got = (size_t)g.shown;
	for (size_t k = 0; k < n; k++) {
		for (size_t e = 0; e < evtab_nevents(s[k].core); e++)
			got += list_metrics_matches(pattern, evtab_event_name(evtab_event_at(s[k].core, e)));
		for (size_t e = 0; e < sysfs_event_listed(s[k].pmu); e++) {
			const struct sysfs_event *x = sysfs_event_at(s[k].pmu, e);

			got += x && list_beyond_table(&s[k], x) && list_metrics_matches(pattern, x->name);
		}
	}
	return got;
}

static const char no_arm_metrics[] =
	"no Arm PMU on this machine: no metrics to list (give --cpu-model CORE[:rXpY] or "
	"--all-cores)";

/* --metrics: the cores of the sections, each at the revision the model names or the PMU's
 * MIDR gives (all of a core's revisions when neither does). */
static int print_metrics(const struct list_opts *o, const char *model,
			 const struct list_section *s, size_t n, size_t *shown)
{
	struct list_metrics_core *c = calloc(n ? n : 1, sizeof(*c));
	const char *why = no_arm_metrics;
	size_t nc = 0;
	int rc = 0;

	if (!c)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (!s[k].core)
			continue;
		c[nc].core = s[k].core;
		c[nc].rev = -1;
		if (model && !o->all_cores)
			c[nc].rev = evtab_model_revision(model);
		else if (s[k].pmu && s[k].pmu->midr)
			c[nc].rev = (int)MXTAB_MIDR_REV(s[k].pmu->midr);
		nc++;
	}
	/* an Arm PMU whose core the tables lack: the generic metrics, once */
	for (size_t k = 0; k < n; k++)
		if (s[k].pmu && !s[k].core) {
			c[nc].core = NULL;
			c[nc++].rev = -1;
			break;
		}
	*shown = nc && o->pattern ? list_metrics_count(c, nc, o->pattern) : 1;
	if (o->json)
		rc = list_metrics_json(c, nc, o->pattern, nc ? NULL : why, stdout);
	else if (!nc)
		printf("pmuprof: %s\n", why);
	else if (*shown)	/* nothing matched: no headings over nothing */
		list_metrics_text(c, nc, o->pattern, stdout);
	free(c);
	return rc;
}

/* A PATTERN that matched nothing: exit status 1, as grep's (2 stays pmuprof's own errors),
 * and a line that says so where perf list prints nothing and exits 0. */
#define LIST_EXIT_NONE 1

static void no_match(const struct list_opts *o, int generic_only)
{
	char c[80];
	const char *p = msg_clip(o->pattern, c, sizeof(c));

	if (o->metrics)
		msg_error("no metric or group matches '%s' ('pmuprof list --metrics' without a "
			  "PATTERN lists them all)", p);
	else if (generic_only)
		msg_error("no event matches '%s' among perf's generic events (no Arm PMU on this "
			  "machine: give --cpu-model CORE or --all-cores for the Arm tables)", p);
	else
		msg_error("no event matches '%s' ('pmuprof list' without a PATTERN lists them "
			  "all)", p);
}

/* The list could not be written: the one message, with errno's reason (a stream that failed
 * keeps its write's), and the status. */
static int write_failed(void)
{
	msg_error("cannot write the list: %s", strerror(errno ? errno : EIO));
	return PP_EXIT_ERROR;
}

/* --cores: one core id a line; without --names, each vendor MIDR of events/aliases.tsv
 * follows its core, indented: "  = 0x6d/0xd49 * Microsoft Azure Cobalt 100 (midr; SOURCE)". */
static void print_cores(int names_only)
{
	struct evtab_alias a;

	for (size_t k = 0; k < evtab_ncores(); k++) {
		const struct evtab_core *c = evtab_core_at(k);

		printf("%s\n", evtab_core_name(c));
		for (size_t i = 0; !names_only && evtab_alias_at(i, &a) == 0; i++) {
			if (a.core != c)
				continue;
			printf("  = 0x%02x/0x%03x ", a.implementer, a.part);
			if (a.rev_lo == 0 && a.rev_hi == 0xff)
				printf("*");
			else
				printf("r%up%u-r%up%u", a.rev_lo >> 4, a.rev_lo & 15, a.rev_hi >> 4,
				       a.rev_hi & 15);
			printf(" %s (%s; %s)\n", a.name, a.use, a.source);
		}
	}
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	struct list_section *secs = NULL;
	struct resolve_ctx ctx;
	struct suggest near;
	const char *model;
	size_t n = 0, shown;
	int rc = 0;

	argp_hint_parse(&list_argp, argc, argv, 0, &o);
	if (o.cores) {	/* the tables alone: no machine, no model to resolve */
		errno = 0;
		print_cores(o.names);
		return fflush(stdout) != 0 ? write_failed() : 0;
	}
	model = resolve_model_name(o.cpu_model);
	if (evsel_model_revision_ok(model) != 0)
		return PP_EXIT_ERROR;
	if (resolve_ctx_init(&ctx, model, &near) != PP_OK) {
		msg_error("unknown CPU model '%s'%s%s%s (see 'pmuprof list --all-cores')", model,
			  near.n ? " (did you mean '" : "", near.n ? near.best[0] : "",
			  near.n ? "'?)" : "");
		return PP_EXIT_ERROR;
	}
	if (resolve_ctx_pmus(&ctx) != PP_OK)
		msg_warn("cannot read the PMUs in /sys/bus/event_source/devices: %s",
			 pp_strstatus(ctx.pmus_status));
	if (list_pick_sections(&o, &ctx, &secs, &n) != 0) {
		msg_error("out of memory");
		resolve_ctx_free(&ctx);
		return PP_EXIT_ERROR;
	}
	/* a PATTERN that picks nothing: no headings over an empty list; JSON still gives its
	 * document (empty lists) */
	shown = !o.pattern || o.metrics ? 1 : count_events(o.pattern, secs, n);
	errno = 0;
	if (o.metrics)
		rc = print_metrics(&o, model, secs, n, &shown);
	else if (o.names)
		print_names(&o, secs, n);
	else if (o.json)
		rc = print_json(&o, secs, n, n == 0);
	else if (shown)
		rc = print_text(&o, secs, n, n == 0);
	if (rc != 0 || ((o.metrics || o.names || o.json) && fflush(stdout) != 0)) {
		rc = write_failed();
	} else if (!shown) {
		no_match(&o, n == 0);
		rc = LIST_EXIT_NONE;
	}
	list_sections_free(secs, n);
	resolve_ctx_free(&ctx);
	return rc;
}
