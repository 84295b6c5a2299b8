/* sysfs_pmu.c: owns loading one PMU from /sys/bus/event_source/devices/<name>/ (type, cpus,
 * format/, events/, caps/, mux interval), recognising Arm PMUv3 PMUs and listing them. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sysfs_priv.h"

#define PMU_DIR "/sys/bus/event_source/devices"

/* Longest format/ attribute kept (the kernel's are under 32 bytes). */
#define FORMAT_TEXT_MAX 128

/* Reads <pmu dir>/<rel> into buf. */
static pp_status pmu_read(const char *pmu, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, PMU_DIR "/%s/%s", pmu, rel);

	if (n < 0 || (size_t)n >= sizeof path)
		return PP_ERANGE;
	return sysfs_read_str(path, buf, len);
}

static pp_status pmu_list(const char *pmu, const char *rel, char ***names, size_t *n)
{
	char path[PATH_MAX];
	int len = snprintf(path, sizeof path, PMU_DIR "/%s/%s", pmu, rel);

	if (len < 0 || (size_t)len >= sizeof path)
		return PP_ERANGE;
	return sysfs_list_dir(path, names, n);
}

static pp_status load_type(struct sysfs_pmu *p)
{
	char buf[32];
	long long v;
	pp_status st;

	if ((st = pmu_read(p->name, "type", buf, sizeof buf)) != PP_OK)
		return st;
	if ((st = sysfs_parse_ll(buf, &v)) != PP_OK)
		return st;
	if (v < 0 || v > INT_MAX)
		return PP_ERANGE;
	p->type = (int)v;
	return PP_OK;
}

/* What sysfs_arm_pmus' quick test already read of a PMU ("cpus" and format/event), so that the
 * full load does not read those files again: discovery reads each file once per run. */
struct preread {
	pp_status cpus_st;
	char cpus[SYSFS_FILE_MAX];
	char event_format[FORMAT_TEXT_MAX];
};

/* CPU PMUs (arm_pmu.c) give "cpus"; uncore PMUs give "cpumask", also a cpu list. Neither:
 * ncpus = 0 (software, tracepoint, x86's single "cpu" PMU). *has_cpus tells which. */
static pp_status load_cpus(struct sysfs_pmu *p, const struct preread *pre, int *has_cpus)
{
	char own[SYSFS_FILE_MAX];
	const char *buf = own;
	pp_status st;

	*has_cpus = 0;
	if (pre) {
		st = pre->cpus_st;
		buf = pre->cpus;
	} else {
		st = pmu_read(p->name, "cpus", own, sizeof own);
	}
	if (st == PP_OK)
		*has_cpus = 1;
	else if (st == PP_ENOENT) {
		st = pmu_read(p->name, "cpumask", own, sizeof own);
		buf = own;
	}
	if (st == PP_ENOENT)
		return PP_OK;
	if (st != PP_OK)
		return st;
	return sysfs_parse_cpulist(buf, &p->cpus, &p->ncpus);
}

static int cmp_format(const void *a, const void *b)
{
	return strcasecmp(((const struct sysfs_format *)a)->name,
			  ((const struct sysfs_format *)b)->name);
}

/* format/ drives how a value is encoded, so a malformed term fails the whole PMU. */
static pp_status load_formats(struct sysfs_pmu *p, const struct preread *pre)
{
	char **names, text[FORMAT_TEXT_MAX], rel[SYSFS_NAME_MAX + 8];
	pp_status st;
	size_t n, i;

	st = pmu_list(p->name, "format", &names, &n);
	if (st == PP_ENOENT)
		return PP_OK;
	if (st != PP_OK || n == 0)
		return st;
	if (!(p->formats = calloc(n, sizeof *p->formats))) {
		sysfs_names_free(names, n);
		return PP_ENOMEM;
	}
	for (i = 0; i < n && st == PP_OK; i++) {
		if (!sysfs_name_ok(names[i])) {
			st = PP_EINVAL;
			break;
		}
		snprintf(rel, sizeof rel, "format/%s", names[i]);
		if (pre && strcmp(names[i], "event") == 0)
			snprintf(text, sizeof text, "%s", pre->event_format);
		else
			st = pmu_read(p->name, rel, text, sizeof text);
		if (st == PP_OK)
			st = sysfs_format_parse(names[i], text, &p->formats[p->nformats]);
		if (st == PP_OK)
			p->nformats++;
	}
	sysfs_names_free(names, n);
	if (st == PP_OK)
		qsort(p->formats, p->nformats, sizeof *p->formats, cmp_format);
	return st;
}

/* An events/ value is "term=value" items separated by commas (a bare term means 1): printable,
 * no spaces, not empty. */
static int terms_ok(const char *s)
{
	if (!*s || *s == ',' || *s == '=')
		return 0;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return 0;
	return 1;
}

static int cmp_event(const void *a, const void *b)
{
	return strcasecmp(((const struct sysfs_event *)a)->name,
			  ((const struct sysfs_event *)b)->name);
}

/* events/ is advisory (the event tables are the main source), so an unreadable, over-long or
 * malformed entry is left out rather than failing the PMU. Names with a dot are the
 * <event>.scale/.unit/.per-pkg/.snapshot companions some PMUs (x86 RAPL, uncore) carry. */
static pp_status load_events(struct sysfs_pmu *p)
{
	char **names, rel[SYSFS_NAME_MAX + 8];
	struct sysfs_event *e;
	pp_status st;
	size_t n, i;

	st = pmu_list(p->name, "events", &names, &n);
	if (st == PP_ENOENT)
		return PP_OK;
	if (st != PP_OK || n == 0)
		return st;
	if (!(p->events = calloc(n, sizeof *p->events))) {
		sysfs_names_free(names, n);
		return PP_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!sysfs_name_ok(names[i]) || strchr(names[i], '.'))
			continue;
		e = &p->events[p->nevents];
		snprintf(rel, sizeof rel, "events/%s", names[i]);
		if (pmu_read(p->name, rel, e->terms, sizeof e->terms) != PP_OK ||
		    !terms_ok(e->terms))
			continue;
		strcpy(e->name, names[i]);
		p->nevents++;
	}
	sysfs_names_free(names, n);
	qsort(p->events, p->nevents, sizeof *p->events, cmp_event);
	return PP_OK;
}

/* caps/ files: Arm's print "0x%08x" (arm_pmuv3.c; bus_width already decoded to bytes), x86's
 * decimal. Absent or not a number: -1. */
static void load_caps(struct sysfs_pmu *p)
{
	static const struct {
		const char *rel;
		size_t off;
	} caps[] = {
		{ "caps/slots", offsetof(struct sysfs_caps, slots) },
		{ "caps/bus_slots", offsetof(struct sysfs_caps, bus_slots) },
		{ "caps/bus_width", offsetof(struct sysfs_caps, bus_width) },
		{ "caps/threshold_max", offsetof(struct sysfs_caps, threshold_max) },
		{ "caps/branches", offsetof(struct sysfs_caps, branches) },
	};
	char buf[32];
	long long v;
	size_t i;

	for (i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		if (pmu_read(p->name, caps[i].rel, buf, sizeof buf) != PP_OK ||
		    sysfs_parse_ll(buf, &v) != PP_OK)
			v = -1;
		memcpy((char *)&p->caps + caps[i].off, &v, sizeof v);
	}
}

static void load_mux(struct sysfs_pmu *p)
{
	char buf[32];

	if (pmu_read(p->name, "perf_event_mux_interval_ms", buf, sizeof buf) != PP_OK ||
	    sysfs_parse_ll(buf, &p->mux_interval_ms) != PP_OK)
		p->mux_interval_ms = -1;
}

/* The value of the "event=" term of an events/ entry, -1 when there is none. */
static long long event_code(const struct sysfs_event *e)
{
	char buf[sizeof e->terms], *tok, *save = NULL;
	long long v;

	memcpy(buf, e->terms, sizeof buf);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strncmp(tok, "event=", 6) && sysfs_parse_ll(tok + 6, &v) == PP_OK)
			return v;
	return -1;
}

/* Whether an event format is the PMUv3 event number: config:0-15 (PMUv3p1 and later,
 * every kernel since 4.x) or config:0-9 (the original PMUv3 10-bit evtCount). */
static int is_pmuv3_event_format(const struct sysfs_format *f)
{
	return f && f->field == 0 && (f->mask == 0xffff || f->mask == 0x3ff);
}

/* Linux gives every PMUv3 CPU PMU the same shape, whatever the name it took from ACPI
 * (armv8_pmuv3_0), the device tree (armv8_cortex_a53, armv9_cortex_x4) or QEMU (armv8_pmuv3),
 * and names change with every new core while the shape does not:
 *  - a "cpus" file (arm_pmu.c); uncore PMUs (arm_dsu, arm_cmn, smmuv3_pmcg) give "cpumask";
 *  - format/event covering exactly the PMUv3 event number (is_pmuv3_event_format);
 *  - and format/long = config1:0 (64-bit counters; arm_pmuv3.c since 5.x), or an events/
 *    entry with a common architectural PMUv3 code: cpu_cycles = 0x0011 or
 *    inst_retired = 0x0008 (PMCEID-advertised, present on every core, QEMU's included).
 * Apple's M1 PMU (event config:0-7), x86 hybrid cpu_core (config:0-7) and SMMUv3 PMCGs
 * (config:0-15 but cpumask, no "long") are thereby not taken for PMUv3. */
static int looks_like_pmuv3(const struct sysfs_pmu *p, int has_cpus)
{
	const struct sysfs_format *lf = sysfs_format_find(p, "long");
	const struct sysfs_event *e;

	if (!has_cpus || !is_pmuv3_event_format(sysfs_format_find(p, "event")))
		return 0;
	if (lf && lf->field == 1 && lf->mask == 1)
		return 1;
	if ((e = sysfs_event_find(p, "cpu_cycles")) && event_code(e) == 0x11)
		return 1;
	return (e = sysfs_event_find(p, "inst_retired")) && event_code(e) == 0x08;
}

/* sysfs_pmu_load, with what was already read of the PMU (pre, or NULL). */
static pp_status pmu_load(const char *name, const struct preread *pre, struct sysfs_pmu *out)
{
	pp_status st;
	int has_cpus;

	if (!out)
		return PP_EINVAL;
	memset(out, 0, sizeof *out);
	out->caps = (struct sysfs_caps){ -1, -1, -1, -1, -1 };
	out->mux_interval_ms = -1;
	if (!sysfs_name_ok(name))
		return PP_EINVAL;
	strcpy(out->name, name);
	if ((st = load_type(out)) == PP_OK && (st = load_cpus(out, pre, &has_cpus)) == PP_OK &&
	    (st = load_formats(out, pre)) == PP_OK)
		st = load_events(out);
	if (st != PP_OK) {
		sysfs_pmu_free(out);
		return st;
	}
	load_caps(out);
	load_mux(out);
	out->is_arm = looks_like_pmuv3(out, has_cpus);
	if (out->is_arm && sysfs_cpu_midr(out->ncpus ? out->cpus[0] : 0, &out->midr) != PP_OK)
		out->midr = 0;
	return PP_OK;
}

pp_status sysfs_pmu_load(const char *name, struct sysfs_pmu *out)
{
	return pmu_load(name, NULL, out);
}

void sysfs_pmu_free(struct sysfs_pmu *pmu)
{
	if (!pmu)
		return;
	free(pmu->cpus);
	free(pmu->formats);
	free(pmu->events);
	memset(pmu, 0, sizeof *pmu);
}

void sysfs_pmus_free(struct sysfs_pmu *pmus, size_t n)
{
	size_t i;

	if (!pmus)
		return;
	for (i = 0; i < n; i++)
		sysfs_pmu_free(&pmus[i]);
	free(pmus);
}

int sysfs_pmu_has_cpu(const struct sysfs_pmu *pmu, int cpu)
{
	int i;

	if (!pmu || cpu < 0)
		return 0;
	if (pmu->ncpus == 0)
		return 1;
	for (i = 0; i < pmu->ncpus; i++)
		if (pmu->cpus[i] == cpu)
			return 1;
	return 0;
}

/* Cheap test before a full load: a "cpus" file and a PMUv3-shaped format/event. Keeps
 * sysfs_arm_pmus from reading the events/ of every uncore PMU on a big server. What it read
 * goes to pre, for the load. */
static int may_be_pmuv3(const char *name, struct preread *pre)
{
	struct sysfs_format f;

	pre->cpus_st = pmu_read(name, "cpus", pre->cpus, sizeof pre->cpus);
	if (pre->cpus_st == PP_ENOENT)
		return 0;
	return pmu_read(name, "format/event", pre->event_format, sizeof pre->event_format) ==
		       PP_OK &&
	       sysfs_format_parse("event", pre->event_format, &f) == PP_OK &&
	       is_pmuv3_event_format(&f);
}

/* A PMU that looks like PMUv3 but fails to load is skipped; its status is returned only when
 * no Arm PMU loaded at all, so one broken directory does not hide a working PMU. */
pp_status sysfs_arm_pmus(struct sysfs_pmu **out, size_t *n)
{
	struct sysfs_pmu *v = NULL, *nv, p;
	struct preread pre;
	pp_status st, fail = PP_OK;
	char **names;
	size_t nn, i, nv_count = 0;

	if (!out || !n)
		return PP_EINVAL;
	*out = NULL;
	*n = 0;
	st = sysfs_list_dir(PMU_DIR, &names, &nn);
	if (st == PP_ENOENT)
		return PP_OK;	/* no perf events in this kernel: no PMU */
	if (st != PP_OK)
		return st;
	for (i = 0; i < nn; i++) {
		if (!sysfs_name_ok(names[i]) || !may_be_pmuv3(names[i], &pre))
			continue;
		if ((st = pmu_load(names[i], &pre, &p)) != PP_OK) {
			if (fail == PP_OK)
				fail = st;
			continue;
		}
		if (!p.is_arm) {
			sysfs_pmu_free(&p);
			continue;
		}
		if (!(nv = realloc(v, (nv_count + 1) * sizeof *v))) {
			sysfs_pmu_free(&p);
			sysfs_pmus_free(v, nv_count);
			sysfs_names_free(names, nn);
			return PP_ENOMEM;
		}
		v = nv;
		v[nv_count++] = p;
	}
	sysfs_names_free(names, nn);
	if (nv_count == 0 && fail != PP_OK)
		return fail;
	*out = v;
	*n = nv_count;
	return PP_OK;
}
