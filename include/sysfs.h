/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs.h: everything pmuprof reads from /sys and /proc, under a root that tests can point at a
 * fixture tree (PMUPROF_SYSFS_ROOT), so an x86 test can present any Arm machine. */
#ifndef PMUPROF_SYSFS_H
#define PMUPROF_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#define SYSFS_NAME_MAX 64
#define SYSFS_MAX_CPUS 1024

/* Sets the directory that stands for "/" when reading /sys and /proc ("" or NULL: the real
 * root). The string is copied. Set once by main before any other sysfs_ call. */
void sysfs_set_root(const char *root);
const char *sysfs_root(void);
/* Whether the root stands for a machine: PP_OK for the real one, or a directory holding a
 * sys/ directory; else PP_ENOENT, *why saying what the path is instead ("does not exist",
 * "is not a directory", "has no sys/ directory"). A misspelt root otherwise reads as a
 * machine without a single PMU. */
pp_status sysfs_root_check(const char **why);

/* Reads a whole small file (path absolute as on a real machine, e.g. "/proc/cpuinfo"), under the
 * root, trailing newline removed. PP_ENOENT when it does not exist; PP_ERANGE when it does not
 * fit in len (buf is then ""); PP_EINVAL when it is not a regular file or holds a NUL byte. */
pp_status sysfs_read_str(const char *path, char *buf, size_t len);
/* This boot's id (/proc/sys/kernel/random/boot_id, under the root), read once a run: the key
 * of the per-boot cache of counter probes. */
pp_status sysfs_boot_id(char *buf, size_t len);
/* Reads a file holding one integer (decimal or 0x hex). */
pp_status sysfs_read_ll(const char *path, long long *out);

/* One term of a PMU's format/ directory, e.g. "event" = config:0-15, "long" = config1:0.
 * Bits may be split over several ranges ("config:0-7,32-35"); mask is the union of them. */
struct sysfs_format {
	char name[SYSFS_NAME_MAX];
	int field;		/* 0 = config, 1 = config1, 2 = config2, 3 = config3 */
	uint64_t mask;		/* bits of that field the term occupies, in order low to high */
};

/* One named event of a PMU's events/ directory, e.g. "cpu_cycles" -> "event=0x0011". The
 * names are listed on first use, and an entry's terms on its first lookup (sysfs_event_find,
 * sysfs_event_at), so a run reads the files of the events it uses and no other. */
struct sysfs_event {
	char name[SYSFS_NAME_MAX];
	char terms[128];
	int state;	/* 0 terms read (or set by hand), 1 not read yet, -1 left out: unreadable,
			 * over-long or malformed (events/ is advisory) */
};

/* caps/ files; -1 where the file is absent. */
struct sysfs_caps {
	long long slots, bus_slots, bus_width, threshold_max, branches;
};

/* General counters an Arm PMU can have: PMCR_EL0.N is 5 bits, and 31 is PMCCNTR's index. */
#define SYSFS_MAX_GENERAL 31

/* A PMU's events/ names and caps/ values are read on first use (sysfs_event_listed and the
 * other sysfs_event_* calls, sysfs_pmu_caps): a run that takes its events from the tables and
 * computes no metric reads neither, which saves six sysfs reads a PMU. A PMU built by hand
 * (tests) has nothing unread. */
#define SYSFS_UNREAD_EVENTS 1
#define SYSFS_UNREAD_CAPS 2
/* format/ beyond "event" and "long", which recognise the PMU: read on first use
 * (sysfs_format_find of another term, sysfs_format_listed) */
#define SYSFS_UNREAD_FORMATS 4

/* What probe.c's probe of an Arm PMU found, kept for the boot in the cache of probes. */
struct sysfs_probed {
	int general;		/* 1 .. SYSFS_MAX_GENERAL */
	int cycle, icntr;	/* 1 free, 0 not, -1 unknown */
	int task;		/* probed on pmuprof itself, not on a CPU */
	long long probe_us;	/* how long the probe took */
};

struct sysfs_pmu {
	char name[SYSFS_NAME_MAX];	/* directory name under /sys/bus/event_source/devices */
	int type;			/* perf_event_attr.type */
	int is_arm;			/* an Arm PMUv3 PMU (recognised by what it exposes) */
	int ncpus;			/* CPUs it covers (from cpus or cpumask); 0 = unknown/all */
	int *cpus;			/* their numbers, ascending */
	uint64_t midr;			/* MIDR_EL1 of its first CPU, 0 when unknown */
	struct sysfs_format *formats;	/* sorted by name; through sysfs_format_find, or
					 * sysfs_format_listed before walking them */
	size_t nformats;
	pp_status format_err;		/* why format/ did not list on first use, PP_OK */
	struct sysfs_event *events;	/* sorted by name; reach them through sysfs_event_find,
					 * sysfs_event_at (which read their terms) or
					 * sysfs_event_name */
	size_t nevents;			/* names listed in events/ (sysfs_event_count: usable);
					 * read it through sysfs_event_listed */
	struct sysfs_caps caps;		/* read it through sysfs_pmu_caps */
	int unread;			/* SYSFS_UNREAD_*: what a load leaves for its first use */
	long long mux_interval_ms;	/* perf_event_mux_interval_ms, -1 when absent or not
					 * read (sysfs_arm_pmus does not): use
					 * sysfs_pmu_mux_interval */
};

/* This boot's probe of PMU p's counters from the cache (sysfs_cache.c): 0 with *out, -1 when
 * the cache has none (or is off). */
int sysfs_cache_probe(const struct sysfs_pmu *p, struct sysfs_probed *out);
/* The cache file's path into buf: PP_OK; PP_ENOTSUP when the user turned the cache off
 * (PMUPROF_CACHE=off), PP_ENOENT when it has no home (neither XDG_CACHE_HOME nor HOME is an
 * absolute path) or the path does not fit. */
pp_status sysfs_cache_path(char *buf, size_t len);
/* Adds the probe of PMU p to this boot's cache (a reader that meets the line half written
 * ignores it). Silent on failure: it is a cache. */
void sysfs_cache_add_probe(const struct sysfs_pmu *p, const struct sysfs_probed *probed);

/* Loads one PMU by directory name. PP_ENOENT when there is no such PMU. */
pp_status sysfs_pmu_load(const char *name, struct sysfs_pmu *out);
void sysfs_pmu_free(struct sysfs_pmu *pmu);
/* The PMU's perf_event_mux_interval_ms (read now when not loaded with it); -1 when absent. */
long long sysfs_pmu_mux_interval(const struct sysfs_pmu *pmu);

/* All Arm PMUs of the machine, sorted by name. *out is an array of *n; free with
 * sysfs_pmus_free. Zero PMUs is not an error. */
pp_status sysfs_arm_pmus(struct sysfs_pmu **out, size_t *n);
void sysfs_pmus_free(struct sysfs_pmu *pmus, size_t n);

/* Parses the text of one format/ file ("config:0-15", "config1:0", "config:0-7,32-35") into
 * *out named name. PP_EINVAL when malformed (bit twice, hi < lo, unknown field), PP_ERANGE
 * for a bit above 63. (Added by the sysfs module: tests and other PMU sources use it.) */
pp_status sysfs_format_parse(const char *name, const char *text, struct sysfs_format *out);
/* Whether the PMU covers cpu (ncpus == 0, unknown, counts as covering every CPU). */
int sysfs_pmu_has_cpu(const struct sysfs_pmu *pmu, int cpu);

/* How many format/ terms the PMU has (formats[0 .. n-1]), reading them on first use. */
size_t sysfs_format_listed(const struct sysfs_pmu *pmu);
/* Looks up a format term by name (case-insensitive); NULL when the PMU has none. The pointer
 * holds until the next sysfs_format_ call on the PMU, which may read the rest of format/:
 * keep a copy, not the pointer. */
const struct sysfs_format *sysfs_format_find(const struct sysfs_pmu *pmu, const char *term);
/* Places value into the term's bits of config[field]. PP_ERANGE when value does not fit. */
pp_status sysfs_format_apply(const struct sysfs_format *f, uint64_t value, uint64_t config[4]);
/* Looks up a sysfs event by name (case-insensitive), reading its terms on first use; NULL
 * when absent or left out. */
const struct sysfs_event *sysfs_event_find(const struct sysfs_pmu *pmu, const char *name);
/* The k-th event (k < nevents), its terms read; NULL when it is left out. */
const struct sysfs_event *sysfs_event_at(const struct sysfs_pmu *pmu, size_t k);
/* How many of the PMU's events are usable (reads every entry's terms). */
size_t sysfs_event_count(const struct sysfs_pmu *pmu);
/* How many names events/ lists (nevents), listing them on first use. */
size_t sysfs_event_listed(const struct sysfs_pmu *pmu);
/* The PMU's caps/ values, read on first use. */
const struct sysfs_caps *sysfs_pmu_caps(const struct sysfs_pmu *pmu);
/* The k-th event's name (k < nevents), its terms not read: for suggestions. */
const char *sysfs_event_name(const struct sysfs_pmu *pmu, size_t k);

/* MIDR_EL1 of a CPU: sysfs regs/identification/midr_el1, else /proc/cpuinfo's implementer,
 * variant, part and revision. PP_ENOENT when neither says. */
pp_status sysfs_cpu_midr(int cpu, uint64_t *midr);
/* The CPU's model name as /proc/cpuinfo gives it ("model name"), for host facts. */
pp_status sysfs_cpu_model(char *buf, size_t len);
/* Number of possible CPUs (/sys/devices/system/cpu/possible). */
int sysfs_ncpus(void);

/* The readiness check's host facts (sysfs_host.c). */
/* The core PMU of a non-Arm host: "cpu" on x86, "cpu_core"/"cpu_atom" on a hybrid part, or a
 * PMU of type PERF_TYPE_RAW; its directory name into name and its type. PP_ENOENT when the
 * machine shows none (a VM without a virtual PMU). */
pp_status sysfs_core_pmu(char *name, size_t len, int *type);
/* The effective capability set of this process (/proc/self/status CapEff). */
pp_status sysfs_cap_eff(uint64_t *caps);
/* /proc/TID/stat of the live system, whatever the root, opened for sysfs_task_running (each
 * read of it is the task's state then): a descriptor, or -1. */
int sysfs_task_open(int tid);
/* Whether the task of fd (sysfs_task_open) is running or runnable now (state R): 1, 0 when
 * it sleeps or waits, -1 when it cannot be read (it ended). */
int sysfs_task_running(int fd);
/* 1 when the host shows signs of running under a hypervisor (cpuinfo's "hypervisor" flag on
 * x86, DMI vendor or product of a VM, /sys/hypervisor, a devicetree /hypervisor node), with
 * the sign in how; 0 when none is seen (not a proof of bare metal). */
int sysfs_hypervisor(char *how, size_t len);

/* Parses a cpu list such as "0-3,8,10-11" into a sorted array without duplicates (malloc'd;
 * an empty or blank list is PP_OK with *n 0). PP_EINVAL when malformed, PP_ERANGE when a cpu
 * is SYSFS_MAX_CPUS or above (a malformed list is PP_EINVAL whatever numbers it holds). */
pp_status sysfs_parse_cpulist(const char *s, int **cpus, int *n);
/* Reads a cpu list file under the root (cpu/online, a node's cpulist...) and parses it as
 * sysfs_parse_cpulist does; the read's status when it fails (PP_ENOENT: no such file), and
 * then *cpus is NULL and *n 0. */
pp_status sysfs_read_cpulist(const char *path, int **cpus, int *n);
/* The inverse: a sorted list of n cpus as the kernel writes it ("0-3,6") into buf (cut short
 * when it does not fit). */
void sysfs_format_cpulist(const int *cpus, int n, char *buf, size_t len);
/* The same, except on PP_ERANGE: *cpus then holds the cpus below SYSFS_MAX_CPUS (free it),
 * and *over is the lowest cpu at or above (INT_MAX for one too large for an int), for a
 * message naming the lowest cpu that is not there; *over is -1 otherwise. over may be NULL. */
pp_status sysfs_parse_cpulist_over(const char *s, int **cpus, int *n, int *over);
/* A whole word as a signed decimal: an optional '-', then digits and nothing else (what the
 * cache files write). 0, or -1 when it is not one or a long long cannot hold it. */
int sysfs_parse_decimal(const char *w, long long *v);

#endif
