/* SPDX-License-Identifier: Apache-2.0 */
/* stat_series.c: the runs of pmuprof stat: K warm-ups without counters, then N recorded
 * runs (1 without -r), --prepare and --cleanup around each; with --mux=runs each recorded
 * run is one run of the command per planned run, each counting its own events. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"
#include "stat_ctl.h"

/* Runs --prepare or --cleanup (what) before or after run i; 0, or -1 after a message. As
 * in hyperfine, a failing one is pmuprof's failure: the series ends with pmuprof's own
 * error status (the runs recorded so far are still reported). */
static int hook(const char *what, const char *cmd, unsigned i, char *why, size_t len)
{
	int st;

	if (!cmd || (st = stat_shell(cmd)) == 0)
		return 0;
	if (st < 0)
		snprintf(why, len, "the %s command could not be started", what);
	else
		snprintf(why, len, "the %s command '%s' failed (status %d) at run %u", what, cmd,
			 st, i + 1);
	msg_error("%s: stopping (append ' || true' to it if its status does not matter)", why);
	return -1;
}

/* A cgroup of the counters removed before the recorded run after nruns: the series stops
 * there, with the runs recorded (0: a run that does not count what the others did is no
 * run of the series); without one it is pmuprof's error. */
static int cgroup_gone(const char *path, size_t nruns, char *why, size_t len)
{
	char c[80];

	if (!nruns) {
		msg_error("cannot count in cgroup '%s': it was removed before its counters were "
			  "opened (count in a cgroup that lives as long as the command)",
			  msg_clip(path, c, sizeof(c)));
		return PP_EXIT_ERROR;
	}
	snprintf(why, len, "cgroup '%s' was removed after recorded run %zu",
		 msg_clip(path, c, sizeof(c)), nruns);
	msg_error("%s: stopping after %zu recorded run%s", why, nruns, nruns == 1 ? "" : "s");
	return 0;
}

static int failed(const struct workload_result *res)
{
	return res->exit_code || res->term_signal || res->interrupted;
}

/* One recorded run (the series' next): every planned run of the command in turn (one with
 * --mux=kernel), each recorded as readings; a planned run that fails ends it, and the events
 * of the runs after it have no readings. The result is the last one made. */
static int counted(const struct stat_series_cfg *sc, struct stat_event *rows,
		   struct stat_counters *cs, struct stat_series *s, struct workload_result *res,
		   struct stat_ticks *ticks, int *count_stop, const char **gone)
{
	struct stat_run_cfg c = { .cmd = sc->cmd, .tgt = sc->tgt, .timeout_ms = sc->timeout_ms,
				  .delay_ms = sc->delay_ms, .interval_ms = sc->interval_ms,
				  .interval_count = sc->interval_count, .only_run = -1,
				  .quiet = sc->quiet, .no_inherit = sc->no_inherit,
				  .on_tick = sc->on_tick, .tick_arg = sc->tick_arg,
				  .ctl = sc->ctl, .gone = gone };
	size_t runs = sc->mux == STAT_MUX_RUNS ? sc->plan_runs : 1;
	int rc = 0;

	for (size_t r = 0; r < runs && !rc; r++) {
		struct workload_result prev = *res;

		*res = (struct workload_result){ 0 };
		c.only_run = sc->mux == STAT_MUX_RUNS ? (int)r : -1;
		rc = stat_run_counted(&c, rows, cs, res, ticks, count_stop, &s->timed_out);
		if (rc == STAT_RUN_GONE && r > 0) {
			/* as a planned run that failed: this recorded run keeps the runs before */
			msg_error("planned run %zu of %zu cannot count in cgroup '%s', which was "
				  "removed: the counts of the later runs are missing", r + 1, runs,
				  *gone);
			*res = prev;	/* the command did not run */
			rc = 0;
			break;
		}
		if (rc)
			break;
		if (sc->verbose)
			stat_verbose_counts(rows, cs);
		if (stat_record(&s->rd, rows, cs, (uint32_t)s->nruns, (uint32_t)r, c.only_run, res,
				sc->interval_ms ? ticks : NULL) != 0 ||
		    (sc->ctl && stat_regions_record(&sc->ctl->regs, rows, cs, (uint32_t)s->nruns,
						    (uint32_t)r, c.only_run, res) != 0)) {
			msg_error("out of memory");
			return PP_EXIT_ERROR;
		}
		if (failed(res) && r + 1 < runs) {
			msg_error("planned run %zu of %zu %s %d: the counts of the later runs are "
				  "missing", r + 1, runs, res->term_signal ? "was killed by signal"
				  : "exited with status", res->term_signal ? res->term_signal
				  : res->exit_code);
			break;
		}
	}
	return rc;
}

void stat_series_free(struct stat_series *s)
{
	readings_free(&s->rd);
	s->nruns = 0;
}

int stat_series_run(const struct stat_series_cfg *o, struct stat_event *rows,
		    struct stat_counters *cs, struct stat_series *s, struct stat_ticks *ticks,
		    struct workload_result *last, int *count_stop, char *why, size_t len)
{
	unsigned runs = o->repeat ? o->repeat : 1;
	const char *gone = NULL;

	for (unsigned i = 0; i < o->warmup + runs; i++) {
		struct workload_result res = { 0 };
		int warm = i < o->warmup, rc;

		if (hook("prepare", o->prepare, i, why, len) != 0)
			return PP_EXIT_ERROR;
		rc = warm ? stat_run_plain(o->cmd, &res)
			  : counted(o, rows, cs, s, &res, ticks, count_stop, &gone);
		if (rc == STAT_RUN_GONE)
			return cgroup_gone(gone, s->nruns, why, len);
		if (rc)
			return rc;
		if (!warm) {
			s->nruns++;
			*last = res;
		}
		if (hook("cleanup", o->cleanup, i, why, len) != 0)
			return PP_EXIT_ERROR;
		if (failed(&res) && !*count_stop && (o->repeat || warm) &&
		    i + 1 < o->warmup + runs) {
			snprintf(why, len, "%s run %u %s %d", warm ? "warm-up" : "recorded",
				 warm ? i + 1 : i + 1 - o->warmup,
				 res.term_signal ? "was killed by signal" : res.interrupted ?
				 "was interrupted, status" : "exited with status",
				 res.term_signal ? res.term_signal : res.exit_code);
			msg_error("%s: stopping after %zu recorded run%s", why, s->nruns,
				  s->nruns == 1 ? "" : "s");
			if (warm)
				return res.term_signal ? 128 + res.term_signal : res.exit_code;
			break;
		}
	}
	return 0;
}
