/* SPDX-License-Identifier: Apache-2.0 */
/* serve_cmd.h: pmuprof serve's command: its options (cmd_serve.c) and the counting it opens
 * once (serve_setup.c), which may address the user. */
#ifndef PMUPROF_SERVE_CMD_H
#define PMUPROF_SERVE_CMD_H

#include "evsel.h"
#include "msg.h"
#include "serve.h"

struct serve_opts {
	struct evsel_opts ev;		/* -e, --cpu-model, ... */
	const char **metrics;		/* -M names (and the default's stage-1 group) */
	size_t nmetrics;
	enum serve_by by;		/* --per-cpu, --per-core, --per-cluster */
	const char *by_opt;		/* the option that set it */
	const char *listen;		/* --listen ADDR:PORT */
	const char *web_config;		/* --web-config FILE */
	unsigned max_conns;		/* --max-connections */
	unsigned timeout_s;		/* --timeout */
	const char *bad_metrics;	/* the first -M list that does not parse */
	const char *for_each_cgroup;	/* --for-each-cgroup LIST */
	unsigned cgroup_rescan_s;	/* --cgroup-rescan (0: the default) */
};

/* What serve opened, and what its close frees. */
struct serve_setup {
	struct resolve_ctx ctx;
	int have_ctx;
	struct metrics_core core;
	char **owned;			/* -M's specs */
	int defaulted;			/* the default set was chosen */
	struct stat_event *rows;
	size_t nrows;
	struct stat_target tgt;
	struct stat_planned planned;
	struct topo topo;
	char machine[65];		/* uname's: the core type where no Arm PMU counts */
	struct serve_count count;
	struct serve_cgroups cgroups;	/* --for-each-cgroup: list NULL without */
};

/* How often the cgroups are matched again by default, in seconds. */
#define SERVE_CGROUP_RESCAN_DEFAULT 10

/* Selects the events, makes, plans and opens the counters on every online CPU; -1 after a
 * message. */
int serve_setup_open(struct serve_setup *s, struct serve_opts *o);
/* The facts a scrape reports beside the series (the plan, the counters open, the cgroups'
 * included). Only the thread that scrapes may call it once the server runs. */
void serve_setup_facts(const struct serve_setup *s, struct serve_facts *f);
/* Closes the counters and frees everything (also after a failed open). */
void serve_setup_close(struct serve_setup *s, struct serve_opts *o);

#endif
