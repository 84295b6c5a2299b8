/* SPDX-License-Identifier: Apache-2.0 */
/* serve.h: pmuprof serve, stat's pipeline read again at every scrape: the counters opened once
 * system-wide (cmd/serve_setup.c), each scrape's readings aggregated into labelled series
 * (serve_scrape.c), formatted for Prometheus (serve_expo.c), served over HTTP
 * (serve_http.c) under an exporter-toolkit web config (serve_webcfg.c). */
#ifndef PMUPROF_SERVE_H
#define PMUPROF_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include <time.h>

#include "aggregate.h"
#include "cgroup.h"
#include "metrics.h"
#include "resolve.h"
#include "stat.h"
#include "topo.h"

/* How finely series are split: one per core type, or per CPU, core or cluster. */
enum serve_by { SERVE_BY_TYPE = 0, SERVE_BY_CPU, SERVE_BY_CORE, SERVE_BY_CLUSTER };

/* One series: a label set and what the counters under it counted so far. The label set is
 * its key, made of "name=\"value\"" pairs (escaped), so that another label (a cgroup) only
 * makes more keys. */
struct serve_sample {
	char labels[512];
	double value;		/* scaled count, never less than the last scrape's */
	uint64_t enabled;	/* ns, added over its counters */
	uint64_t running;
};

struct serve_samples {
	struct serve_sample *s;
	size_t n, cap;
};

/* What a scrape formats besides the series. */
struct serve_facts {
	const char *version;
	size_t plan_runs;	/* runs an exact count would need (1: every event on a counter) */
	int plan_known;		/* the PMUs' capacities are known */
	size_t counters, counters_open;
	double scrape_seconds;	/* the previous scrape's cost */
};

/* The counters opened and what the scrapes keep between them. */
struct serve_count {
	struct stat_event *rows;
	size_t nrows;
	struct stat_counters cs;
	enum serve_by by;
	struct agg_topology at;		/* where CPUs sit; by core type: cluster = type */
	int *type_of;			/* per CPU: its Arm PMU (index in cs.pmus), -1 */
	int *type_ids;			/* the same as an id array for at */
	size_t ncpus;
	const char **type_name;		/* per Arm PMU: its core's name; [npmus]: others' */
	struct counter_reading *carry;	/* per counter: what its earlier opens counted */
	unsigned char *dup;		/* per row: an earlier row has its name and PMU (-e and
					 * metric groups share events): no series of its own */
	struct serve_samples last;	/* the previous scrape's series */
	unsigned char *online;		/* per CPU: 0 no counters on it, 1 online, 2 offline
					 * since (serve_hotplug) */
};

/* serve_scrape.c. Reads every counter and makes the series of this scrape into out (its
 * previous content dropped): each counter's reading plus its carry, recorded, aggregated
 * by sc->by with the one scaling function, a value never below the previous scrape's.
 * -1 when memory ran out. */
int serve_scrape(struct serve_count *sc, struct serve_samples *out);
/* Sets up the per-CPU core types and topology of sc from its counters and t (may have
 * ncpus 0 when not needed); machine names the cores of no Arm PMU. -1: out of memory. */
int serve_count_types(struct serve_count *sc, const struct topo *t, const char *machine);
void serve_count_free(struct serve_count *sc);
void serve_samples_free(struct serve_samples *s);
/* Appends name="value" (value escaped) at *at in buf, moving *at past it. */
void serve_label_add(char *buf, size_t len, size_t *at, const char *name, const char *value);
/* The labels event, pmu, core (and cpu, core_id or cluster) of one series, escaped. */
void serve_labels(char *buf, size_t len, const char *event, const char *pmu,
		  const char *core, const char *unit_name, long unit);

/* serve_default.c. The events serve counts without -e and -M: on Arm (arm: an Arm PMU, or
 * --cpu-model) cycles and instructions, and the core's top-down stage-1 group of mc where its
 * data has one (*group; else NULL); elsewhere the kernel's software events. */
const char *serve_default_events(int arm, const struct metrics_core *mc, const char **group);

/* serve_hotplug.c: CPUs going offline and online. */
/* The online CPUs (sysfs' cpu/online) as on[cpu] = 1, n long; -1 when unreadable. */
int serve_online_read(unsigned char *on, size_t n);
/* Widens t's online CPUs to the present ones (sysfs' cpu/present, ascending), so that a CPU
 * offline at the start has counters to open once it is online. t is left as it was when the
 * list cannot be read. */
void serve_hotplug_cpus(struct stat_target *t);
/* sc->online from its counters and on (the online CPUs, n long; NULL: unknown, every CPU
 * with counters taken as online): a CPU with counters is online (1) or offline (2), to be
 * opened when it comes online. After serve_count_types. -1 when out of memory. */
int serve_hotplug_init(struct serve_count *sc, const unsigned char *on, size_t n);
/* serve_hotplug_init with the online CPUs read from sysfs now. */
int serve_hotplug_start(struct serve_count *sc);
/* The CPUs with counters that were offline and are online in on (n long) now, as back[cpu]
 * = 1 (sc->ncpus long); sc->online updated. How many came back. */
size_t serve_hotplug_back(struct serve_count *sc, const unsigned char *on, size_t n,
			  unsigned char *back);
/* Reopens the counters of every CPU that came back online (on: the online CPUs, n long;
 * NULL: nothing known), each adding what its previous open counted to its carry. -1 when
 * out of memory. */
int serve_hotplug(struct serve_count *sc, const unsigned char *on, size_t n);

/* --for-each-cgroup (serve_cgroup.c): one cgroup's copy of serve's counting. */
struct serve_cg {
	char *path;			/* below the mount ("/": the root cgroup), the label */
	struct stat_event *rows;	/* serve's rows, confined to the cgroup */
	struct serve_count count;	/* counters: serve's, copied */
	struct serve_samples out;	/* its series of the current scrape */
};

/* The cgroups a --for-each-cgroup list picks, each with its counting. */
struct serve_cgroups {
	const char *list;		/* the list, as stat's --for-each-cgroup */
	char root[4096];		/* the hierarchy's mount */
	unsigned rescan_s;		/* a scrape rescans when the last scan is this old */
	const struct topo *topo;	/* for serve_count_types */
	const char *machine;
	struct cgroup_set set;
	struct serve_cg **cg;		/* per entry of set */
	struct timespec scanned;	/* CLOCK_MONOTONIC of the last scan */
	unsigned long scans;		/* the scans that succeeded */
};

/* Matches the list again: the cgroups still there keep their counters, new ones get theirs
 * opened, gone ones (named ones too) have theirs closed. A pp_status: PP_EINVAL, or
 * PP_ENOENT (a name that is no cgroup, at the first scan only), with the culprit in bad
 * (cgroup_rescan's); after PP_ENOMEM no cgroup is counted. */
int serve_cgroups_scan(struct serve_cgroups *sg, const struct serve_count *main, char *bad,
		       size_t badlen);
/* Rescans when due, reopens the counters of CPUs back online (on, non: as serve_hotplug's),
 * then appends every cgroup's series to out, labelled cgroup. -1 when out of memory. */
int serve_cgroups_scrape(struct serve_cgroups *sg, const struct serve_count *main,
			 struct serve_samples *out, const unsigned char *on, size_t non);
/* Closes every cgroup's counters and directory. */
void serve_cgroups_free(struct serve_cgroups *sg);

/* serve_expo.c: the exposition formats. */
enum serve_format { SERVE_PROMETHEUS = 0, SERVE_OPENMETRICS };
/* The format an Accept header asks for (NULL: none): OpenMetrics when it names
 * application/openmetrics-text with a q above 0, else Prometheus' text format 0.0.4. */
enum serve_format serve_format_of(const char *accept);
const char *serve_content_type(enum serve_format f);
/* The whole exposition into *buf (malloc'd, *len bytes); -1 when out of memory. */
int serve_expo(const struct serve_samples *s, const struct serve_facts *f, enum serve_format fm,
	       char **buf, size_t *len);
/* Appends s to buf escaped as a label value (backslash, quote, newline); the length. */
size_t serve_escape(char *buf, size_t len, const char *s);

/* serve_webcfg.c: the subset of Prometheus exporter-toolkit's web config pmuprof reads. */
struct serve_user {
	char *name, *hash;	/* hash: bcrypt ("$2b$", "$2y$", "$2a$") */
};
struct serve_webcfg {
	char *cert_file, *key_file;	/* both or neither; paths made absolute from the file's
					 * directory */
	char *cert, *key;		/* their contents (PEM), read by serve_webcfg_load */
	struct serve_user *users;
	size_t nusers;
};
/* Parses text (the YAML subset: tls_server_config.cert_file/key_file, basic_auth_users).
 * dir makes relative paths absolute. -1 with why (a line number and the way out). */
int serve_webcfg_parse(const char *text, const char *dir, struct serve_webcfg *w, char *why,
		       size_t len);
/* Reads the file, parses it and reads the certificate and key: -1 with why. */
int serve_webcfg_load(const char *path, struct serve_webcfg *w, char *why, size_t len);
/* Whether user and password match an entry (crypt(3) of the bcrypt hash). */
int serve_webcfg_check(const struct serve_webcfg *w, const char *user, const char *password);
void serve_webcfg_free(struct serve_webcfg *w);

/* serve_http.c: the HTTP server (libmicrohttpd) on a listening socket made by the caller.
 * SERVE_CONNS_MAX bounds max_conns: each connection's clock has a slot. */
#define SERVE_CONNS_MAX 1024
typedef int (*serve_scrape_fn)(void *arg, enum serve_format f, char **body, size_t *len);
typedef void (*serve_log_fn)(const char *line);

struct serve_http_cfg {
	int listen_fd;
	const struct serve_webcfg *web;		/* NULL: plain HTTP, no authentication */
	unsigned max_conns;
	unsigned timeout_s;			/* idle time, and a request's whole time */
	size_t mem_limit;			/* bytes per connection: the header's bound */
	serve_scrape_fn scrape;
	void *arg;
	serve_log_fn log;
};

struct serve_http;
/* Starts the server in a thread of its own: NULL with why when it cannot. */
struct serve_http *serve_http_start(const struct serve_http_cfg *c, char *why, size_t len);
/* Ends connections past the request time (called about once a second). */
void serve_http_reap(struct serve_http *h);
/* Stops it; the listening socket stays open (a reload starts another on it). */
void serve_http_stop(struct serve_http *h);
/* ADDR:PORT, [ADDR6]:PORT or :PORT (every address) into a listening socket: the fd, or -1
 * with why. bound gets the address it is bound to ("127.0.0.1:9475"). */
int serve_listen(const char *spec, char *bound, size_t blen, char *why, size_t len);

#endif
