/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs_pmu.c: owns loading one PMU from /sys/bus/event_source/devices/<name>/ (type, cpus,
 * format/, events/, caps/, mux interval), recognising Arm PMUv3 PMUs and listing them. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "sysfs_priv.h"

#define PMU_DIR "/sys/bus/event_source/devices"

/* <PMU_DIR>/pmu/dir[/name] into buf. PP_ERANGE when it does not fit. */
static pp_status pmu_path(char *buf, size_t len, const char *pmu, const char *dir,
			  const char *name)
{
	const char *parts[] = { PMU_DIR "/", pmu, "/", dir, name ? "/" : "", name ? name : "" };
	size_t n = 0, l;

	for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
		l = strlen(parts[k]);
		if (n + l >= len)
			return PP_ERANGE;
		memcpy(buf + n, parts[k], l);
		n += l;
	}
	buf[n] = '\0';
	return PP_OK;
}

pp_status sysfs_pmu_read(const char *pmu, const char *dir, const char *name, char *buf,
			  size_t len)
{
	char path[PATH_MAX];
	pp_status st = pmu_path(path, sizeof path, pmu, dir, name);

	return st == PP_OK ? sysfs_read_str(path, buf, len) : st;
}

pp_status sysfs_pmu_list(const char *pmu, const char *rel, char ***names, size_t *n)
{
	char path[PATH_MAX];
	pp_status st = pmu_path(path, sizeof path, pmu, rel, NULL);

	return st == PP_OK ? sysfs_list_dir(path, names, n) : st;
}

static pp_status load_type(struct sysfs_pmu *p)
{
	char buf[32];
	long long v;
	pp_status st;

	if ((st = sysfs_pmu_read(p->name, "type", NULL, buf, sizeof buf)) != PP_OK)
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
	char event_format[SYSFS_FORMAT_TEXT_MAX];
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
		st = sysfs_pmu_read(p->name, "cpus", NULL, own, sizeof own);
	}
	if (st == PP_OK)
		*has_cpus = 1;
	else if (st == PP_ENOENT) {
		st = sysfs_pmu_read(p->name, "cpumask", NULL, own, sizeof own);
		buf = own;
	}
	if (st == PP_ENOENT)
		return PP_OK;
	if (st != PP_OK)
		return st;
	return sysfs_parse_cpulist(buf, &p->cpus, &p->ncpus);
}

/* An events/ value is "term=value" items separated by commas (a bare term means 1): printable,
 * no spaces, not empty. */
static int terms_ok(const char *s)
{
	if (!*s || *s == ',' || *s == '=')
		return 0;
	for (; *s; s++)
		if (!ascii_isgraph((unsigned char)*s))
			return 0;
	return 1;
}

static int cmp_event(const void *a, const void *b)
{
	return ascii_strcasecmp(((const struct sysfs_event *)a)->name,
			  ((const struct sysfs_event *)b)->name);
}

/* events/ is advisory (the event tables are the main source), so an unreadable, over-long or
 * malformed entry is left out rather than failing the PMU. Names with a dot are the
 * <event>.scale/.unit/.per-pkg/.snapshot companions some PMUs (x86 RAPL, uncore) carry. Only
 * the names are listed here; each entry is read on its first lookup (event_ready): a PMU on a
 * 6.1 kernel advertises 50 to 100 events, and a run names a few, mostly from the tables. */
static pp_status load_events(struct sysfs_pmu *p)
{
	char **names;
	struct sysfs_event *e;
	pp_status st;
	size_t n, i;

	st = sysfs_pmu_list(p->name, "events", &names, &n);
	if (st == PP_ENOENT)
		return PP_OK;
	if (st != PP_OK || n == 0)
		return st;
	if (!(p->events = calloc(n, sizeof *p->events))) {
		sysfs_names_free(names);
		return PP_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!sysfs_name_ok(names[i]) || strchr(names[i], '.'))
			continue;
		e = &p->events[p->nevents++];
		strcpy(e->name, names[i]);
		e->state = 1;
	}
	sysfs_names_free(names);
	qsort(p->events, p->nevents, sizeof *p->events, cmp_event);
	return PP_OK;
}

/* Lists events/ if that is still to do. The PMU is const to its users: what is read on first
 * use is a cache of the directory, and a listing that fails leaves no events (events/ is
 * advisory). */
static void events_listed(const struct sysfs_pmu *pmu)
{
	struct sysfs_pmu *p = (struct sysfs_pmu *)pmu;

	if (!p || !(p->unread & SYSFS_UNREAD_EVENTS))
		return;
	p->unread &= ~SYSFS_UNREAD_EVENTS;
	if (load_events(p) != PP_OK) {
		free(p->events);
		p->events = NULL;
		p->nevents = 0;
	}
}

size_t sysfs_event_listed(const struct sysfs_pmu *pmu)
{
	events_listed(pmu);
	return pmu ? pmu->nevents : 0;
}

/* Reads an entry's terms if that is still to do. Whether the entry is usable. The PMU is const
 * to its users; its events' terms are a cache filled on demand. */
static int event_ready(const struct sysfs_pmu *p, struct sysfs_event *e)
{
	if (e->state == 1)
		e->state = sysfs_pmu_read(p->name, "events", e->name, e->terms, sizeof e->terms) ==
					   PP_OK && terms_ok(e->terms) ? 0 : -1;
	return e->state == 0;
}

static int cmp_event_key(const void *key, const void *elem)
{
	return ascii_strcasecmp(key, ((const struct sysfs_event *)elem)->name);
}

const struct sysfs_event *sysfs_event_find(const struct sysfs_pmu *pmu, const char *name)
{
	struct sysfs_event *e, *lo, *hi, *end;

	if (!pmu || !name || !sysfs_event_listed(pmu))
		return NULL;
	if (!(e = bsearch(name, pmu->events, pmu->nevents, sizeof *pmu->events, cmp_event_key)))
		return NULL;
	/* entries whose names differ only in case sit together, and bsearch lands on any of
	 * them: the one spelled as asked if it is usable, else the first usable one (an
	 * unreadable entry beside a good one hid it: fuzz_sysfs) */
	end = pmu->events + pmu->nevents;
	for (lo = e; lo > pmu->events && !ascii_strcasecmp(lo[-1].name, name); lo--)
		;
	for (hi = e + 1; hi < end && !ascii_strcasecmp(hi->name, name); hi++)
		;
	for (e = lo; e < hi; e++)
		if (!strcmp(e->name, name) && event_ready(pmu, e))
			return e;
	for (e = lo; e < hi; e++)
		if (event_ready(pmu, e))
			return e;
	return NULL;
}

const struct sysfs_event *sysfs_event_at(const struct sysfs_pmu *pmu, size_t k)
{
	return k < sysfs_event_listed(pmu) && event_ready(pmu, &pmu->events[k]) ? &pmu->events[k]
										 : NULL;
}

const char *sysfs_event_name(const struct sysfs_pmu *pmu, size_t k)
{
	return k < sysfs_event_listed(pmu) ? pmu->events[k].name : NULL;
}

size_t sysfs_event_count(const struct sysfs_pmu *pmu)
{
	size_t n = 0;

	for (size_t k = 0; k < sysfs_event_listed(pmu); k++)
		n += sysfs_event_at(pmu, k) != NULL;
	return n;
}

/* caps/ files: Arm's print "0x%08x" (arm_pmuv3.c; bus_width already decoded to bytes), x86's
 * decimal. Absent or not a number: -1. */
static void load_caps(struct sysfs_pmu *p)
{
	static const struct {
		const char *name;
		size_t off;
	} caps[] = {
		{ "slots", offsetof(struct sysfs_caps, slots) },
		{ "bus_slots", offsetof(struct sysfs_caps, bus_slots) },
		{ "bus_width", offsetof(struct sysfs_caps, bus_width) },
		{ "threshold_max", offsetof(struct sysfs_caps, threshold_max) },
		{ "branches", offsetof(struct sysfs_caps, branches) },
	};
	char buf[32];
	long long v;
	size_t i;

	for (i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		if (sysfs_pmu_read(p->name, "caps", caps[i].name, buf, sizeof buf) != PP_OK ||
		    sysfs_parse_ll(buf, &v) != PP_OK)
			v = -1;
		memcpy((char *)&p->caps + caps[i].off, &v, sizeof v);
	}
}

const struct sysfs_caps *sysfs_pmu_caps(const struct sysfs_pmu *pmu)
{
	struct sysfs_pmu *p = (struct sysfs_pmu *)pmu;	/* a cache: see events_listed */

	if (p->unread & SYSFS_UNREAD_CAPS) {
		p->unread &= ~SYSFS_UNREAD_CAPS;
		load_caps(p);
	}
	return &p->caps;
}

static void load_mux(struct sysfs_pmu *p)
{
	char buf[32];

	if (sysfs_pmu_read(p->name, "perf_event_mux_interval_ms", NULL, buf, sizeof buf) != PP_OK ||
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
		if (str_starts(tok, "event=") && sysfs_parse_ll(tok + 6, &v) == PP_OK)
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
	out->unread = SYSFS_UNREAD_EVENTS | SYSFS_UNREAD_CAPS;
	if ((st = load_type(out)) == PP_OK && (st = load_cpus(out, pre, &has_cpus)) == PP_OK)
		st = pre ? sysfs_formats_known(out, pre->event_format) : sysfs_formats_load(out);
	if (st != PP_OK) {
		sysfs_pmu_free(out);
		return st;
	}
	if (!pre)	/* one PMU asked for by name; the Arm PMUs' is read when asked for */
		load_mux(out);
	out->is_arm = looks_like_pmuv3(out, has_cpus);
	if (out->is_arm && sysfs_cpu_midr(out->ncpus ? out->cpus[0] : 0, &out->midr) != PP_OK)
		out->midr = 0;
	return PP_OK;
}

long long sysfs_pmu_mux_interval(const struct sysfs_pmu *pmu)
{
	struct sysfs_pmu p = { .mux_interval_ms = -1 };

	if (!pmu || pmu->mux_interval_ms >= 0)
		return pmu ? pmu->mux_interval_ms : -1;
	strcpy(p.name, pmu->name);
	load_mux(&p);
	return p.mux_interval_ms;
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

	pre->cpus_st = sysfs_pmu_read(name, "cpus", NULL, pre->cpus, sizeof pre->cpus);
	if (pre->cpus_st == PP_ENOENT)
		return 0;
	return sysfs_pmu_read(name, "format", "event", pre->event_format, sizeof pre->event_format) ==
		       PP_OK &&
	       sysfs_format_parse("event", pre->event_format, &f) == PP_OK &&
	       is_pmuv3_event_format(&f);
}

/* The PMUs the kernel registers itself on every architecture, under names fixed in
 * kernel/events/core.c and hw_breakpoint.c: never a CPU's PMU, so discovery opens none of
 * their files (a failed open of one's "cpus" costs the A57 guest's kernel 14,000
 * instructions, five a run). A kernel that renamed one would only have it looked at. */
static int kernel_own_pmu(const char *name)
{
	static const char *const own[] = { "breakpoint", "kprobe", "software", "tracepoint",
					   "uprobe" };

	for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
		if (!strcmp(name, own[k]))
			return 1;
	return 0;
}

/* Reads every PMU of names that may be PMUv3 and keeps the Arm ones (*v, *nv). A PMU that looks
 * like PMUv3 but fails to load is skipped; its status is returned in *fail. */
static pp_status discover(char **names, size_t nn, struct sysfs_pmu **out, size_t *n,
			  pp_status *fail)
{
	struct sysfs_pmu *v = NULL, *nv, p;
	struct preread pre;
	size_t nv_count = 0;
	pp_status st;

	*fail = PP_OK;
	for (size_t i = 0; i < nn; i++) {
		if (!sysfs_name_ok(names[i]) || kernel_own_pmu(names[i]) ||
		    !may_be_pmuv3(names[i], &pre))
			continue;
		if ((st = pmu_load(names[i], &pre, &p)) != PP_OK) {
			if (*fail == PP_OK)
				*fail = st;
			continue;
		}
		if (!p.is_arm) {
			sysfs_pmu_free(&p);
			continue;
		}
		if (!(nv = realloc(v, (nv_count + 1) * sizeof *v))) {
			sysfs_pmu_free(&p);
			sysfs_pmus_free(v, nv_count);
			return PP_ENOMEM;
		}
		v = nv;
		v[nv_count++] = p;
	}
	*out = v;
	*n = nv_count;
	return PP_OK;
}

/* Its status is returned only when no Arm PMU loaded at all, so one broken directory does
 * not hide a working PMU. */
pp_status sysfs_arm_pmus(struct sysfs_pmu **out, size_t *n)
{
	pp_status st, fail;
	char **names;
	size_t nn;

	if (!out || !n)
		return PP_EINVAL;
	*out = NULL;
	*n = 0;
	st = sysfs_list_dir(PMU_DIR, &names, &nn);
	if (st == PP_ENOENT)
		return PP_OK;	/* no perf events in this kernel: no PMU */
	if (st != PP_OK)
		return st;
	st = discover(names, nn, out, n, &fail);
	sysfs_names_free(names);
	if (st == PP_OK && *n == 0 && fail != PP_OK)
		return fail;
	return st;
}
