/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_info.c: `pmuprof info`: the machine's Arm PMUs (type, cpus, core, counters, caps,
 * format terms, mux interval) and its perf settings, as text or JSON. */
#include <argp.h>
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "argp_hint.h"
#include "cmd.h"
#include "evtab.h"
#include "jsonout.h"
#include "info_check.h"
#include "resolve.h"
#include "sysfs.h"

struct info_opts {
	int json, check;
};

/* The machine's perf settings; -1 where the file is absent. */
struct info_machine {
	char kernel[128];
	long long paranoid, user_access, nmi_watchdog;
	int ncpus;
	char cache[PATH_MAX];	/* the cache file's path, "" when there is none */
	const char *no_cache;	/* why there is none */
};

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Describe as one JSON document", 0 },
	{ "check", 'c', NULL, 0, "Say whether hardware counts can be trusted here: a verdict per "
	  "point (PMU, access, free counters, VM); exit 0 when they can, 1 when not", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct info_opts *o = state->input;

	(void)arg;
	switch (key) {
	case 'j':
		o->json = 1;
		break;
	case 'c':
		o->check = 1;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "no arguments expected (got '%s')", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp info_argp = {
	options, parse_opt, NULL,
	"Describe this machine's Arm PMUs and the kernel settings that decide what perf may "
	"count.\vCounter counts are unknown until probed (no sysfs file gives PMCR_EL0.N); the "
	"count in Arm's data for the core is shown beside. Caps of 0 mean the PMU does not give "
	"them (no PMMIR_EL1 before FEAT_PMUv3p4).",
	NULL, NULL, NULL
};

static long long read_ll(const char *path)
{
	long long v;

	return sysfs_read_ll(path, &v) == PP_OK ? v : -1;
}

static void machine_read(struct info_machine *m)
{
	if (sysfs_read_str("/proc/sys/kernel/osrelease", m->kernel, sizeof(m->kernel)) != PP_OK)
		m->kernel[0] = '\0';
	m->paranoid = read_ll("/proc/sys/kernel/perf_event_paranoid");
	m->user_access = read_ll("/proc/sys/kernel/perf_user_access");
	m->nmi_watchdog = read_ll("/proc/sys/kernel/nmi_watchdog");
	m->ncpus = sysfs_ncpus();
	switch (sysfs_cache_path(m->cache, sizeof(m->cache))) {
	case PP_OK:
		m->no_cache = NULL;
		break;
	case PP_ENOTSUP:
		m->no_cache = "off (PMUPROF_CACHE=off)";
		break;
	default:
		m->no_cache = "none (neither XDG_CACHE_HOME nor HOME is an absolute path)";
		break;
	}
	if (m->no_cache)
		m->cache[0] = '\0';
}

/* A cap that says something: absent (-1) and 0 ("not given", PMMIR_EL1 fields) are unknown. */
static int cap_known(long long v)
{
	return v > 0;
}

/* Width in bits of PMEVTYPER.TH: threshold_max is 2^THWIDTH - 1. */
static int threshold_width(long long max)
{
	int w = 0;

	while (max > 0) {
		w++;
		max >>= 1;
	}
	return w;
}

/* "0-15" or "0-7,32-35": the bit ranges of a format term's mask. */
static void mask_ranges(uint64_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int b = 0; b < 64 && n < len; b++) {
		int e = b;

		if (!(mask >> b & 1))
			continue;
		while (e < 63 && (mask >> (e + 1) & 1))
			e++;
		n += (size_t)snprintf(buf + n, len - n, e > b ? "%s%d-%d" : "%s%d", n ? "," : "", b, e);
		b = e;
	}
}

static const char *field_name(int field)
{
	static const char *const names[] = { "config", "config1", "config2", "config3" };
	return field >= 0 && field < 4 ? names[field] : "?";
}

static cJSON *num_or_null(long long v, int known)
{
	return known ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

static cJSON *caps_json(const struct sysfs_caps *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "slots", num_or_null(c->slots, cap_known(c->slots)));
	cJSON_AddItemToObject(o, "bus_slots", num_or_null(c->bus_slots, cap_known(c->bus_slots)));
	cJSON_AddItemToObject(o, "bus_width_bytes", num_or_null(c->bus_width, cap_known(c->bus_width)));
	cJSON_AddItemToObject(o, "threshold_max",
			      num_or_null(c->threshold_max, cap_known(c->threshold_max)));
	cJSON_AddItemToObject(o, "threshold_width", num_or_null(threshold_width(c->threshold_max),
								 cap_known(c->threshold_max)));
	cJSON_AddItemToObject(o, "branches", num_or_null(c->branches, c->branches >= 0));
	return o;
}

static cJSON *formats_json(const struct sysfs_pmu *p)
{
	cJSON *a = cJSON_CreateArray();
	char bits[160];

	for (size_t k = 0; k < sysfs_format_listed(p); k++) {
		cJSON *o = cJSON_CreateObject();
		mask_ranges(p->formats[k].mask, bits, sizeof(bits));
		cJSON_AddStringToObject(o, "name", p->formats[k].name);
		cJSON_AddStringToObject(o, "field", field_name(p->formats[k].field));
		cJSON_AddStringToObject(o, "bits", bits);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *tri_json(int v)
{
	return v < 0 ? cJSON_CreateNull() : cJSON_CreateBool(v);
}

/* counters: probed (null when unknown), status, per_arm_data, the fixed counters, how. */
static cJSON *counters_json(const struct capacity *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "probed", num_or_null(c->general, c->general > 0));
	cJSON_AddStringToObject(o, "status", c->general > 0 ? c->source : c->why);
	cJSON_AddItemToObject(o, "per_arm_data", num_or_null(c->per_arm, c->per_arm >= 0));
	cJSON_AddItemToObject(o, "differs_from_arm_data", c->general > 0 && c->per_arm > 0 ?
			      cJSON_CreateBool(c->general != c->per_arm) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "cycle_counter", tri_json(c->cycle));
	cJSON_AddItemToObject(o, "instruction_counter", tri_json(c->icntr));
	cJSON_AddItemToObject(o, "probed_on", c->general > 0 ? cJSON_CreateString(c->how)
							     : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "probe_ms", c->general > 0 ? cJSON_CreateNumber(c->probe_ms)
							    : cJSON_CreateNull());
	return o;
}

static cJSON *pmu_json(const struct sysfs_pmu *p)
{
	const struct evtab_core *core = resolve_pmu_core(p);
	cJSON *o = cJSON_CreateObject(), *cpus = cJSON_CreateArray();
	struct capacity cap;
	long long mux;
	char midr[24];

	cJSON_AddStringToObject(o, "name", p->name);
	cJSON_AddNumberToObject(o, "type", p->type);
	for (int k = 0; k < p->ncpus; k++)
		cJSON_AddItemToArray(cpus, cJSON_CreateNumber(p->cpus[k]));
	cJSON_AddItemToObject(o, "cpus", cpus);
	cJSON_AddItemToObject(o, "core", core ? cJSON_CreateString(evtab_core_name(core))
					      : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "core_title", core ? cJSON_CreateString(evtab_core_title(core))
						    : cJSON_CreateNull());
	snprintf(midr, sizeof(midr), "0x%016llx", (unsigned long long)p->midr);
	cJSON_AddItemToObject(o, "midr", p->midr ? cJSON_CreateString(midr) : cJSON_CreateNull());
	probe_get(p, &cap);
	cJSON_AddItemToObject(o, "counters", counters_json(&cap));
	cJSON_AddItemToObject(o, "caps", caps_json(sysfs_pmu_caps(p)));
	cJSON_AddItemToObject(o, "formats", formats_json(p));
	cJSON_AddNumberToObject(o, "nevents", (double)sysfs_event_count(p));
	mux = sysfs_pmu_mux_interval(p);
	cJSON_AddItemToObject(o, "mux_interval_ms", num_or_null(mux, mux >= 0));
	return o;
}

static cJSON *machine_json(const struct info_machine *m)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "kernel_release", m->kernel[0] ? cJSON_CreateString(m->kernel)
								: cJSON_CreateNull());
	cJSON_AddItemToObject(o, "perf_event_paranoid", num_or_null(m->paranoid, m->paranoid != -1));
	cJSON_AddItemToObject(o, "perf_user_access", num_or_null(m->user_access, m->user_access >= 0));
	cJSON_AddItemToObject(o, "nmi_watchdog", num_or_null(m->nmi_watchdog, m->nmi_watchdog >= 0));
	cJSON_AddNumberToObject(o, "ncpus", m->ncpus);
	return o;
}

static const char no_arm_note[] = "no Arm PMUv3 PMU on this machine";

static int print_json(const struct resolve_ctx *c, const struct info_machine *m)
{
	cJSON *root = cJSON_CreateObject(), *pmus = cJSON_CreateArray();

	cJSON_AddStringToObject(root, "schema_version", "1.0");
	for (size_t k = 0; k < c->npmus; k++)
		cJSON_AddItemToArray(pmus, pmu_json(&c->pmus[k]));
	cJSON_AddItemToObject(root, "pmus", pmus);
	cJSON_AddItemToObject(root, "note", c->npmus ? cJSON_CreateNull()
						     : cJSON_CreateString(no_arm_note));
	cJSON_AddItemToObject(root, "machine", machine_json(m));
	cJSON_AddItemToObject(root, "cache_file", m->cache[0] ? cJSON_CreateString(m->cache)
							      : cJSON_CreateNull());
	return jsonout_emit(root, stdout, JSONOUT_PRETTY);
}

static void print_cap(const char *what, long long v, const char *unit)
{
	if (cap_known(v))
		printf("    %-16s %lld%s\n", what, v, unit);
	else
		printf("    %-16s not given\n", what);
}

/* The counters line: probed (or why not), Arm's data beside, then the fixed counters. */
static void print_counters(const struct sysfs_pmu *p)
{
	struct capacity c;
	char arm[48] = "";

	probe_get(p, &c);
	if (c.per_arm >= 0)
		snprintf(arm, sizeof(arm), " (%d per Arm's data)", c.per_arm);
	if (c.general <= 0) {
		printf("  counters         unknown, %s%s\n", c.why, arm);
		return;
	}
	printf("  counters         %d general, %s on %s in %.1f ms%s\n", c.general, c.source,
	       c.how, c.probe_ms, arm);
	if (c.per_arm > 0 && c.per_arm != c.general)
		printf("                   (fewer than the core has: a hypervisor's MDCR_EL2.HPMN "
		       "or counters held by others)\n");
	printf("  cycle counter    %s\n", c.cycle == 1 ? "yes (CPU_CYCLES without threshold)"
	       : c.cycle == 0 ? "not free (the NMI watchdog holds it when enabled)" : "unknown");
	printf("  instr. counter   %s\n", c.icntr == 1 ? "yes (FEAT_PMUv3_ICNTR)"
	       : "unknown (not shown by the probe)");
}

static void print_pmu(const struct sysfs_pmu *p)
{
	const struct evtab_core *core = resolve_pmu_core(p);
	const struct sysfs_caps *caps = sysfs_pmu_caps(p);
	char bits[160];
	long long mux;

	printf("%s (type %d)\n", p->name, p->type);
	printf("  cpus             %d, from %d to %d\n", p->ncpus, p->ncpus ? p->cpus[0] : 0,
	       p->ncpus ? p->cpus[p->ncpus - 1] : 0);
	printf("  core             %s, MIDR 0x%08llx\n",
	       core ? evtab_core_title(core) : "not in pmuprof's tables", (unsigned long long)p->midr);
	print_counters(p);
	printf("  caps\n");
	print_cap("slots", caps->slots, "");
	print_cap("bus_slots", caps->bus_slots, "");
	print_cap("bus width", caps->bus_width, " bytes");
	if (cap_known(caps->threshold_max))
		printf("    %-16s %d bits (max %lld)\n", "threshold", threshold_width(caps->threshold_max),
		       caps->threshold_max);
	else
		printf("    %-16s not given\n", "threshold");
	printf("  format terms    ");
	for (size_t k = 0; k < sysfs_format_listed(p); k++) {
		mask_ranges(p->formats[k].mask, bits, sizeof(bits));
		printf(" %s=%s:%s", p->formats[k].name, field_name(p->formats[k].field), bits);
	}
	printf("\n  events/          %zu advertised\n", sysfs_event_count(p));
	if ((mux = sysfs_pmu_mux_interval(p)) >= 0)
		printf("  mux interval     %lld ms\n", mux);
	putchar('\n');
}

static void print_setting(const char *name, long long v)
{
	if (v == -1)
		printf("  %-20s unknown\n", name);
	else
		printf("  %-20s %lld\n", name, v);
}

static void print_text(const struct resolve_ctx *c, const struct info_machine *m)
{
	if (!c->npmus)
		printf("%s\n\n", no_arm_note);
	for (size_t k = 0; k < c->npmus; k++)
		print_pmu(&c->pmus[k]);
	printf("machine\n  %-20s %s\n", "kernel", m->kernel[0] ? m->kernel : "unknown");
	print_setting("perf_event_paranoid", m->paranoid);
	print_setting("perf_user_access", m->user_access);
	print_setting("nmi_watchdog", m->nmi_watchdog);
	if (m->nmi_watchdog > 0)
		printf("  (the NMI watchdog holds a counter on every CPU: one fewer for you)\n");
	printf("\npmuprof\n  %-20s %s\n", "cache", m->cache[0] ? m->cache : m->no_cache);
}

/* --check: a line per point, then the verdict; JSON: the same as data. Returns 0 when the
 * counts can be trusted, 1 when not, PP_EXIT_ERROR when the answer cannot be written. */
static int check(struct resolve_ctx *ctx, int json)
{
	struct info_check_line l[INFO_CHECK_NPOINTS];
	struct info_check_facts f;
	int ok, rc = 0;

	info_check_gather(ctx, &f);
	ok = info_check_judge(&f, l);
	if (json) {
		cJSON *root = cJSON_CreateObject(), *a = cJSON_CreateArray();

		cJSON_AddStringToObject(root, "schema_version", "1.0");
		cJSON_AddBoolToObject(root, "trusted", ok);
		for (int k = 0; k < INFO_CHECK_NPOINTS; k++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "point", l[k].name);
			cJSON_AddStringToObject(o, "verdict", info_check_verdict_name(l[k].verdict));
			cJSON_AddStringToObject(o, "detail", l[k].text);
			cJSON_AddItemToArray(a, o);
		}
		cJSON_AddItemToObject(root, "checks", a);
		rc = jsonout_emit(root, stdout, JSONOUT_PRETTY);
	} else {
		for (int k = 0; k < INFO_CHECK_NPOINTS; k++)
			printf("%-9s %-8s %s\n", l[k].name, info_check_verdict_name(l[k].verdict), l[k].text);
		printf("%s\n", ok ? "counts of hardware events can be trusted here"
				  : "counts of hardware events cannot be trusted here");
	}
	if (rc != 0 || fflush(stdout) != 0) {
		msg_error("cannot write the verdict");
		return PP_EXIT_ERROR;
	}
	return !ok;
}

int cmd_info(int argc, char **argv)
{
	struct info_opts o = { 0 };
	struct info_machine m;
	struct resolve_ctx ctx;
	int rc = 0;

	argp_hint_parse(&info_argp, argc, argv, 0, &o);
	resolve_ctx_init(&ctx, NULL, NULL);
	if (resolve_ctx_pmus(&ctx) != PP_OK)
		msg_warn("cannot read the PMUs in /sys/bus/event_source/devices: %s",
			 pp_strstatus(ctx.pmus_status));
	if (o.check) {
		rc = check(&ctx, o.json);
		resolve_ctx_free(&ctx);
		return rc;
	}
	machine_read(&m);
	if (o.json)
		rc = print_json(&ctx, &m);
	else
		print_text(&ctx, &m);
	if (rc != 0 || fflush(stdout) != 0) {
		msg_error("cannot write the description");
		rc = PP_EXIT_ERROR;
	}
	resolve_ctx_free(&ctx);
	return rc;
}
