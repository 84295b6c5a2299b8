/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_serve.c: `pmuprof serve`, a Prometheus exporter: its options, then the counters opened
 * once (serve_setup.c), the HTTP server started (serve_http.c) and signals waited for:
 * SIGTERM and SIGINT end it, SIGHUP reloads the web config. Every scrape reads the counters
 * again in the server's thread (serve_scrape.c); this thread only waits. */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "argp_hint.h"
#include "cmd.h"
#include "cmd_opts.h"
#include "metrics.h"
#include "serve_cmd.h"

enum {
	OPT_LISTEN = 0x100, OPT_WEB_CONFIG, OPT_PER_CPU, OPT_PER_CORE, OPT_PER_CLUSTER,
	OPT_MAX_CONNS, OPT_TIMEOUT, OPT_FOR_EACH_CGROUP, OPT_CGROUP_RESCAN,
};

#define SERVE_LISTEN_DEFAULT "127.0.0.1:9475"

static const struct argp_option options[] = {
	{ "metric", 'M', "NAME[,NAME]", 0,
	  "Count the events of metric or group NAME of the core (ipc, Topdown_L1, ...); "
	  "repeatable", 0 },
	{ "per-cpu", OPT_PER_CPU, NULL, 0, "One series per CPU (label cpu)", 1 },
	{ "per-core", OPT_PER_CORE, NULL, 0, "One series per core (label core_id)", 1 },
	{ "per-cluster", OPT_PER_CLUSTER, NULL, 0, "One series per cluster (label cluster)", 1 },
	{ "for-each-cgroup", OPT_FOR_EACH_CGROUP, "REGEX[,REGEX]", 0,
	  "Also count every event per cgroup whose path matches (or, without a pattern, per "
	  "cgroup named), labelled cgroup", 1 },
	{ "cgroup-rescan", OPT_CGROUP_RESCAN, "SECONDS", 0,
	  "Match the cgroups again when the last match is SECONDS old, at a scrape (default "
	  "10)", 1 },
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0,
	  "Listen there (default " SERVE_LISTEN_DEFAULT "; :PORT is every address; port 0 "
	  "picks a free one, logged)", 2 },
	{ "web-config", OPT_WEB_CONFIG, "FILE", 0,
	  "TLS and basic auth from FILE, in Prometheus exporter-toolkit's format; SIGHUP "
	  "reads it again", 2 },
	{ "max-connections", OPT_MAX_CONNS, "N", 0, "Serve at most N connections at once "
	  "(default 64)", 2 },
	{ "timeout", OPT_TIMEOUT, "SECONDS", 0, "Close a connection idle, or a request not "
	  "answered, after SECONDS (default 10)", 2 },
	{ 0 }
};

static void per(struct argp_state *state, struct serve_opts *o, enum serve_by by,
		const char *opt)
{
	if (o->by_opt && strcmp(o->by_opt, opt))
		argp_error(state, "%s and %s both choose the series: give one", o->by_opt, opt);
	o->by = by;
	o->by_opt = opt;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct serve_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->ev;
		return 0;
	case ARGP_KEY_END:
		if (o->cgroup_rescan_s && !o->for_each_cgroup)
			argp_error(state, "--cgroup-rescan says how often the cgroups of "
				   "--for-each-cgroup are matched again: give --for-each-cgroup too");
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "serve takes no command: it counts every CPU until it is "
			   "stopped (remove '%s')", arg);
		return 0;
	case 'M':
		if (!o->bad_metrics && metrics_names_check(arg, &(int){ 0 }))
			o->bad_metrics = arg;
		else if (metrics_names_add(arg, &o->metrics, &o->nmetrics) != 0)
			argp_failure(state, PP_EXIT_ERROR, 0, "out of memory");
		return 0;
	case OPT_PER_CPU: per(state, o, SERVE_BY_CPU, "--per-cpu"); return 0;
	case OPT_PER_CORE: per(state, o, SERVE_BY_CORE, "--per-core"); return 0;
	case OPT_PER_CLUSTER: per(state, o, SERVE_BY_CLUSTER, "--per-cluster"); return 0;
	case OPT_LISTEN: o->listen = arg; return 0;
	case OPT_WEB_CONFIG: o->web_config = arg; return 0;
	case OPT_MAX_CONNS:
		o->max_conns = cmd_number(state, arg, "--max-connections", 1, SERVE_CONNS_MAX);
		return 0;
	case OPT_TIMEOUT: o->timeout_s = cmd_number(state, arg, "--timeout", 1, 3600); return 0;
	case OPT_FOR_EACH_CGROUP: o->for_each_cgroup = arg; return 0;
	case OPT_CGROUP_RESCAN:
		o->cgroup_rescan_s = cmd_number(state, arg, "--cgroup-rescan", 1, 86400);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_child children[] = { { &evsel_argp_long, 0, NULL, 0 }, { 0 } };

static const struct argp serve_argp = {
	options, parse_opt, "",
	"Count events on every online CPU and serve them to Prometheus on /metrics.\v"
	"Without -e and -M: cycles, instructions and Arm's top-down stage 1 where the core has "
	"them; on a machine with no Arm PMU, task-clock, context-switches and page-faults. "
	"SIGTERM ends it; SIGHUP reads --web-config again. See pmuprof-serve(1).",
	children, NULL, NULL
};

/* One line on standard error per event worth a log. */
static void slog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void slog(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "pmuprof serve: %s\n", line);
}

static void log_line(const char *line)
{
	slog("libmicrohttpd: %s", line);
}

/* What the server's thread scrapes with. */
struct served {
	struct serve_setup *s;
	struct serve_samples samples;
	unsigned char *on;	/* the online CPUs, read at each scrape (NULL: out of memory) */
};

static int scrape(void *arg, enum serve_format f, char **body, size_t *len)
{
	struct served *sv = arg;
	struct serve_count *sc = &sv->s->count;
	struct serve_facts facts;
	/* a CPU back online has its counters reopened: the kernel left the old ones off */
	const unsigned char *on = sv->on && serve_online_read(sv->on, sc->ncpus) == 0 ? sv->on
										   : NULL;

	if (serve_hotplug(sc, on, sc->ncpus) != 0 || serve_scrape(sc, &sv->samples) != 0 ||
	    (sv->s->cgroups.list &&
	     serve_cgroups_scrape(&sv->s->cgroups, sc, &sv->samples, on, sc->ncpus) != 0))
		return -1;
	serve_setup_facts(sv->s, &facts);
	return serve_expo(&sv->samples, &facts, f, body, len);
}

/* The web config of --web-config into *w (empty without one): 0, or -1 after a log line. */
static int load(const struct serve_opts *o, struct serve_webcfg *w)
{
	char why[512];

	*w = (struct serve_webcfg){ 0 };
	if (o->web_config && serve_webcfg_load(o->web_config, w, why, sizeof(why)) != 0) {
		slog("cannot use web config '%s': %s", o->web_config, why);
		return -1;
	}
	return 0;
}

/* The server started on fd under web config w; NULL after a log line. */
static struct serve_http *start(const struct serve_opts *o, int fd, struct served *sv,
				const struct serve_webcfg *w)
{
	struct serve_http_cfg c = { fd, o->web_config ? w : NULL,
				    o->max_conns ? o->max_conns : 64,
				    o->timeout_s ? o->timeout_s : 10, 32 * 1024, scrape, sv,
				    log_line };
	struct serve_http *h;
	char why[256];

	if (!(h = serve_http_start(&c, why, sizeof(why))))
		slog("cannot serve: %s", why);
	return h;
}

/* SIGHUP: the web config read again and the server restarted under it on the same socket;
 * the previous one goes on when the new cannot be used. -1 when neither can serve. */
static int reload(const struct serve_opts *o, int fd, struct served *sv,
		  struct serve_http **h, struct serve_webcfg *w)
{
	struct serve_webcfg nw, old;
	struct serve_http *nh;

	if (load(o, &nw) != 0) {
		slog("keeping the previous web config");
		return 0;
	}
	serve_http_stop(*h);
	/* the server reads the config it is started with for as long as it runs: it is *w, the
	 * caller's, never a copy on this stack */
	old = *w;
	*w = nw;
	if ((nh = start(o, fd, sv, w))) {
		serve_webcfg_free(&old);
		*h = nh;
		slog("reloaded%s", o->web_config ? " the web config" : " (no web config)");
		return 0;
	}
	serve_webcfg_free(w);
	*w = old;
	slog("keeping the previous web config");
	return (*h = start(o, fd, sv, w)) ? 0 : -1;
}

/* Waits for SIGTERM or SIGINT (the exit status), reloading on SIGHUP, reaping requests past
 * their time every second. */
static int wait_signals(const struct serve_opts *o, int fd, struct served *sv,
			struct serve_http **h, struct serve_webcfg *w, const sigset_t *set)
{
	struct timespec tick = { 1, 0 };
	int sig;

	for (;;) {
		sig = sigtimedwait(set, NULL, &tick);
		if (sig == SIGHUP && reload(o, fd, sv, h, w) != 0)
			return PP_EXIT_ERROR;
		if (sig == SIGTERM || sig == SIGINT) {
			slog("stopping on SIG%s", sigabbrev_np(sig));
			return 0;
		}
		if (sig < 0)
			serve_http_reap(*h);
	}
}

/* Serves until a signal ends it; the exit status. */
static int serve(const struct serve_opts *o, struct serve_setup *s, const sigset_t *set)
{
	struct served sv = { s, { 0 }, calloc(s->count.ncpus + 1, 1) };
	struct serve_webcfg w = { 0 };
	struct serve_http *h;
	char bound[80], why[256];
	struct serve_facts f;
	int fd, rc;

	if ((fd = serve_listen(o->listen ? o->listen : SERVE_LISTEN_DEFAULT, bound,
			       sizeof(bound), why, sizeof(why))) < 0) {
		msg_error("%s", why);
		free(sv.on);
		return PP_EXIT_ERROR;
	}
	serve_setup_facts(s, &f);	/* before the server's thread can rescan the cgroups */
	if (load(o, &w) != 0 || !(h = start(o, fd, &sv, &w))) {
		serve_webcfg_free(&w);
		close(fd);
		free(sv.on);
		return PP_EXIT_ERROR;
	}
	slog("listening on %s://%s/metrics: %zu events, %zu of %zu counters open, %d CPUs",
	     w.cert ? "https" : "http", bound, s->nrows, f.counters_open, f.counters,
	     s->tgt.ncpus);
	rc = wait_signals(o, fd, &sv, &h, &w, set);
	serve_http_stop(h);
	close(fd);
	serve_webcfg_free(&w);
	serve_samples_free(&sv.samples);
	free(sv.on);
	return rc;
}

int cmd_serve(int argc, char **argv)
{
	struct serve_opts o = { 0 };
	struct serve_setup s = { 0 };
	sigset_t set, old;
	int rc = PP_EXIT_ERROR;

	argp_hint_parse(&serve_argp, argc, argv, 0, &o);
	/* the server's thread inherits the mask: the signals come to sigtimedwait only */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	signal(SIGPIPE, SIG_IGN);
	if (o.bad_metrics)
		msg_error("cannot parse metric list '%s' (names separated by commas)",
			  o.bad_metrics);
	else if (serve_setup_open(&s, &o) == 0)
		rc = serve(&o, &s, &set);
	serve_setup_close(&s, &o);
	evsel_opts_free(&o.ev);
	free(o.metrics);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
