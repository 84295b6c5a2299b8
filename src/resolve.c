/* resolve.c: event requests -> perf_event_attr: perf's generic hardware, software and cache
 * names, raw rNNNN codes, and PMU/terms/ through the PMU's sysfs type, format/ and events/. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve.h"
#include "suggest.h"
#include "sysfs.h"

struct generic {
	const char *name;
	uint32_t type;
	uint64_t config;
};

/* perf's names for PERF_TYPE_HARDWARE and PERF_TYPE_SOFTWARE (include/uapi/linux/perf_event.h),
 * aliases after the name perf prints. */
static const struct generic generics[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

/* PERF_TYPE_HW_CACHE: config = cache | op << 8 | result << 16; names "<cache>-<op>s" for
 * accesses and "<cache>-<op>-misses" for misses, as perf spells them. */
static const char *const cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache", [PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC", [PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB", [PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};
static const char *const cache_ops[] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load", [PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};

#define NCACHE (sizeof(cache_names) / sizeof(cache_names[0]))
#define NOPS (sizeof(cache_ops) / sizeof(cache_ops[0]))

static void cache_name(char *buf, size_t len, size_t c, size_t op, int miss)
{
	snprintf(buf, len, "%s-%s%s", cache_names[c], cache_ops[op], miss ? "-misses" : "s");
}

static const char *unit_of(uint32_t type, uint64_t config)
{
	if (type == PERF_TYPE_SOFTWARE &&
	    (config == PERF_COUNT_SW_CPU_CLOCK || config == PERF_COUNT_SW_TASK_CLOCK))
		return "ns";
	return "";
}

pp_status resolve_generic(const char *name, struct perf_event_attr *attr, const char **unit)
{
	char buf[64];

	for (size_t k = 0; k < sizeof(generics) / sizeof(generics[0]); k++) {
		if (strcasecmp(name, generics[k].name) == 0) {
			attr->type = generics[k].type;
			attr->config = generics[k].config;
			*unit = unit_of(attr->type, attr->config);
			return PP_OK;
		}
	}
	for (size_t c = 0; c < NCACHE; c++)
		for (size_t op = 0; op < NOPS; op++)
			for (int miss = 0; miss < 2; miss++) {
				cache_name(buf, sizeof(buf), c, op, miss);
				if (strcasecmp(name, buf) == 0) {
					attr->type = PERF_TYPE_HW_CACHE;
					attr->config = c | op << 8 |
						       (uint64_t)(miss ? PERF_COUNT_HW_CACHE_RESULT_MISS
								       : PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
					*unit = "";
					return PP_OK;
				}
			}
	return PP_ENOENT;
}

void resolve_generic_names(void (*fn)(const char *name, void *arg), void *arg)
{
	char buf[64];

	for (size_t k = 0; k < sizeof(generics) / sizeof(generics[0]); k++)
		fn(generics[k].name, arg);
	for (size_t c = 0; c < NCACHE; c++)
		for (size_t op = 0; op < NOPS; op++)
			for (int miss = 0; miss < 2; miss++) {
				cache_name(buf, sizeof(buf), c, op, miss);
				fn(buf, arg);
			}
}

static pp_status errf(struct resolve_error *err, int column, pp_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static pp_status errf(struct resolve_error *err, int column, pp_status st, const char *fmt, ...)
{
	va_list ap;

	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->what, sizeof(err->what), fmt, ap);
	va_end(ap);
	return st;
}

/* A whole unsigned number, decimal or 0x hex. PP_EINVAL if not a number, PP_ERANGE past 64 bits. */
static pp_status parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return PP_EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return PP_EINVAL;
	if (errno == ERANGE)
		return PP_ERANGE;
	*out = v;
	return PP_OK;
}

/* rNNNN: a raw event code in hex, for the core PMU (PERF_TYPE_RAW). */
static int is_raw(const char *name)
{
	if (name[0] != 'r' && name[0] != 'R')
		return 0;
	if (!name[1])
		return 0;
	for (const char *p = name + 1; *p; p++)
		if (!strchr("0123456789abcdefABCDEF", *p))
			return 0;
	return 1;
}

static pp_status resolve_raw(const struct evspec_req *req, struct pp_event *ev,
			     struct resolve_error *err)
{
	const char *hex = req->name + 1;
	char buf[24];
	uint64_t code;

	while (*hex == '0' && hex[1])
		hex++;
	if (strlen(hex) > 16)
		return errf(err, req->column, PP_ERANGE,
			    "raw code '%s' is wider than 64 bits", req->name);
	snprintf(buf, sizeof(buf), "0x%s", hex);
	ev->attr.type = PERF_TYPE_RAW;
	if (parse_u64(buf, &code) != PP_OK)
		return errf(err, req->column, PP_EINVAL, "raw code '%s' is not hex", req->name);
	ev->attr.config = code;
	ev->pmu = strdup("raw");
	return ev->pmu ? PP_OK : PP_ENOMEM;
}

/* Applies "event=0x11,umask=2"-style terms (from an events/ file) through format/. */
static pp_status apply_term_string(const struct sysfs_pmu *pmu, const char *terms,
				   uint64_t cfg[4])
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1;
		const struct sysfs_format *f;

		if (eq) {
			*eq = '\0';
			if (parse_u64(eq + 1, &v) != PP_OK)
				return PP_EINVAL;
		}
		if (!(f = sysfs_format_find(pmu, t)) || sysfs_format_apply(f, v, cfg) != PP_OK)
			return PP_EINVAL;
	}
	return PP_OK;
}

static pp_status apply_term(const struct sysfs_pmu *pmu, const struct evspec_term *t,
			    uint64_t cfg[4], struct resolve_error *err)
{
	static const char *const raw_fields[] = { "config", "config1", "config2" };
	const struct sysfs_format *f;
	const struct sysfs_event *e;
	uint64_t v = 1;
	pp_status st;

	if (t->value && (st = parse_u64(t->value, &v)) != PP_OK)
		return errf(err, t->column, st, st == PP_ERANGE
			    ? "value '%s' of term '%s' is wider than 64 bits"
			    : "value '%s' of term '%s' is not a number", t->value, t->key);
	if ((f = sysfs_format_find(pmu, t->key))) {
		if (sysfs_format_apply(f, v, cfg) != PP_OK)
			return errf(err, t->column, PP_ERANGE,
				    "value '%s' does not fit term '%s' of PMU '%s'",
				    t->value ? t->value : "1", t->key, pmu->name);
		return PP_OK;
	}
	for (int k = 0; k < 3; k++)
		if (strcasecmp(t->key, raw_fields[k]) == 0) {
			if (!t->value)
				return errf(err, t->column, PP_EINVAL, "term '%s' needs a value",
					    t->key);
			cfg[k] = v;
			return PP_OK;
		}
	if (!t->value && (e = sysfs_event_find(pmu, t->key))) {
		if (apply_term_string(pmu, e->terms, cfg) != PP_OK)
			return errf(err, t->column, PP_EINVAL,
				    "PMU '%s' describes event '%s' as '%s', which pmuprof cannot apply",
				    pmu->name, t->key, e->terms);
		return PP_OK;
	}
	return errf(err, t->column, PP_ENOENT, "unknown term '%s' for PMU '%s'", t->key,
		    pmu->name);
}

static void offer_format(const struct sysfs_pmu *pmu, struct suggest *s)
{
	for (size_t k = 0; k < pmu->nformats; k++)
		suggest_offer(s, pmu->formats[k].name);
	for (size_t k = 0; k < pmu->nevents; k++)
		suggest_offer(s, pmu->events[k].name);
}

static pp_status resolve_pmu_terms(const struct evspec_req *req, struct pp_event *ev,
				   struct resolve_error *err)
{
	struct sysfs_pmu pmu;
	uint64_t cfg[4] = { 0 };
	pp_status st;

	st = sysfs_pmu_load(req->pmu, &pmu);
	if (st == PP_ENOENT)
		return errf(err, req->column, st, "no PMU '%s' in /sys/bus/event_source/devices",
			    req->pmu);
	if (st != PP_OK)
		return errf(err, req->column, st, "cannot read PMU '%s': %s", req->pmu,
			    pp_strstatus(st));
	ev->attr.type = (uint32_t)pmu.type;
	for (int k = 0; k < req->nterms && st == PP_OK; k++) {
		st = apply_term(&pmu, &req->terms[k], cfg, err);
		if (st == PP_ENOENT) {
			suggest_init(&err->near, req->terms[k].key);
			offer_format(&pmu, &err->near);
		}
	}
	if (st == PP_OK) {
		ev->attr.config = cfg[0];
		ev->attr.config1 = cfg[1];
		ev->attr.config2 = cfg[2];
		ev->pmu = strdup(pmu.name);
		if (!ev->pmu)
			st = PP_ENOMEM;
	}
	sysfs_pmu_free(&pmu);
	return st;
}

static void offer_cb(const char *name, void *arg)
{
	suggest_offer(arg, name);
}

/* perf's modifier letters -> exclude_* flags (tools/perf/util/parse-events.c semantics):
 * any of u/k/h counts only the levels named; H and G pick host or guest; D pins. */
static void apply_mods(unsigned mods, struct perf_event_attr *a)
{
	if (mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H)) {
		a->exclude_user = !(mods & EVSPEC_MOD_U);
		a->exclude_kernel = !(mods & EVSPEC_MOD_K);
		a->exclude_hv = !(mods & EVSPEC_MOD_H);
	}
	if ((mods & EVSPEC_MOD_HOST) && !(mods & EVSPEC_MOD_GUEST))
		a->exclude_guest = 1;
	if ((mods & EVSPEC_MOD_GUEST) && !(mods & EVSPEC_MOD_HOST))
		a->exclude_host = 1;
	if (mods & EVSPEC_MOD_PINNED)
		a->pinned = 1;
}

pp_status resolve_event(const struct evspec_req *req, struct pp_event *ev,
			struct resolve_error *err)
{
	pp_status st;

	memset(ev, 0, sizeof(*ev));
	memset(err, 0, sizeof(*err));
	ev->attr.size = sizeof(ev->attr);
	ev->group = req->group;
	ev->mods = req->mods;
	ev->column = req->column;
	ev->unit = "";
	if (!(ev->name = strdup(req->text)))
		return PP_ENOMEM;
	if (req->pmu) {
		st = resolve_pmu_terms(req, ev, err);
	} else if (resolve_generic(req->name, &ev->attr, &ev->unit) == PP_OK) {
		ev->pmu = strdup(ev->attr.type == PERF_TYPE_SOFTWARE ? "software" : "cpu");
		st = ev->pmu ? PP_OK : PP_ENOMEM;
	} else if (is_raw(req->name)) {
		st = resolve_raw(req, ev, err);
	} else {
		suggest_init(&err->near, req->name);
		resolve_generic_names(offer_cb, &err->near);
		st = errf(err, req->column, PP_ENOENT, "no such event");
	}
	if (st == PP_OK)
		apply_mods(req->mods, &ev->attr);
	else
		resolve_event_free(ev);
	return st;
}

void resolve_event_free(struct pp_event *ev)
{
	free(ev->name);
	free(ev->pmu);
	ev->name = ev->pmu = NULL;
}
