/* SPDX-License-Identifier: Apache-2.0 */
/* serve_setup.c: what pmuprof serve counts, opened once: the events of -e and -M (or a
 * default set chosen from what the machine has), selected, split over the core types,
 * planned, copied onto every online CPU and opened (stat's stages for -a), with the user's
 * messages on failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "counter.h"
#include "serve_cmd.h"
#include "sysfs.h"

/* No -e and no -M: the default set, asked of the machine (its Arm PMUs, or --cpu-model). */
static int defaults(struct serve_setup *s, struct serve_opts *o)
{
	const char *g;
	int arm = o->ev.cpu_model || (resolve_ctx_pmus(&s->ctx) == PP_OK && s->ctx.npmus);

	if (!(o->ev.specs = malloc(sizeof(*o->ev.specs))))
		return -1;
	o->ev.specs[0] = serve_default_events(arm, &s->core, &g);
	o->ev.nspecs = 1;
	s->defaulted = 1;
	if (g && metrics_names_add_once(&o->metrics, &o->nmetrics, g))
		return -1;
	return 0;
}

/* -e, -M and the defaults into s->rows; -1 after a message. */
static int select_rows(struct serve_setup *s, struct serve_opts *o)
{
	struct filter_kernel_el kel;
	struct evsel_event *sel;
	size_t n;

	stat_metrics_core(o->ev.cpu_model, NULL, &s->ctx, &s->core);
	if ((!o->ev.nspecs && !o->nmetrics && defaults(s, o) != 0) ||
	    (o->nmetrics && !(s->owned = calloc(o->nmetrics, sizeof(char *))))) {
		msg_error("out of memory");
		return -1;
	}
	if (stat_metrics_add_specs(&o->ev, o->metrics, o->nmetrics, &s->core, s->owned) != 0 ||
	    evsel_select(&o->ev, &s->ctx, 0, "count", &sel, &n, &kel) != 0)
		return -1;
	if (!(s->rows = calloc(n + 1, sizeof(*s->rows)))) {
		evsel_free(sel, n);
		msg_error("out of memory");
		return -1;
	}
	s->nrows = n;
	for (size_t k = 0; k < n; k++)
		s->rows[k].sel = sel[k];
	free(sel);
	for (size_t k = 0; k < n; k++)
		if (!strcmp(s->rows[k].sel.ev.pmu, "tool")) {
			msg_error("cannot serve event '%s': it is one of pmuprof's own times, with "
				  "no counter to read at a scrape (drop it from -e)",
				  s->rows[k].sel.ev.name);
			return -1;
		}
	return 0;
}

/* The counters made, planned and copied onto every online CPU; -1 after a message. */
static int make_counters(struct serve_setup *s)
{
	struct stat_plan_cfg pc = { STAT_MUX_KERNEL, 0 };
	struct stat_counters *cs = &s->count.cs;
	struct counter_fds f;

	if (stat_target_cpus(&s->tgt, NULL) != 0)
		return -1;
	serve_hotplug_cpus(&s->tgt);
	if (stat_split(cs, s->rows, s->nrows, &s->ctx, &s->tgt) != 0) {
		msg_error("out of memory");
		return -1;
	}
	if (stat_plan(cs, s->rows, &s->ctx, &pc, &s->planned) != 0)
		return -1;
	/* a fixture tree's CPUs are another machine's: nothing is opened on them */
	for (size_t k = 0; *sysfs_root() && k < cs->n; k++)
		if (!cs->c[k].fixture)
			cs->c[k].fixture = "fixture";
	if (stat_target_expand(cs, s->rows, &s->tgt,
			       s->planned.known && s->planned.nruns == 1) != 0) {
		msg_error("out of memory");
		return -1;
	}
	if (counter_reserve_fds(cs->n, &f) != PP_OK) {
		msg_error("cannot open %zu counters: the hard limit on open files is %llu (raise "
			  "it with LimitNOFILE= or 'ulimit -Hn', or count fewer events)", cs->n,
			  f.hard);
		return -1;
	}
	return 0;
}

/* --for-each-cgroup: the hierarchy found and scanned once, each cgroup's counters opened;
 * -1 after a message. No cgroup matching yet is no error: containers come later. */
static int open_cgroups(struct serve_setup *s, const struct serve_opts *o)
{
	struct serve_cgroups *g = &s->cgroups;
	char bad[128] = "", c[80];
	pp_status st;

	g->list = o->for_each_cgroup;
	g->rescan_s = o->cgroup_rescan_s ? o->cgroup_rescan_s : SERVE_CGROUP_RESCAN_DEFAULT;
	g->topo = &s->topo;
	g->machine = s->machine;
	if ((st = cgroup_root(g->root, sizeof(g->root))) != PP_OK) {
		msg_error("cannot count per cgroup: %s (as root, 'mount -t cgroup2 none "
			  "/sys/fs/cgroup')", st == PP_ENOENT ? "no cgroup v2 hierarchy is "
			  "mounted" : "cannot read the cgroup v2 mount from /proc/self/mountinfo");
		return -1;
	}
	st = serve_cgroups_scan(g, &s->count, bad, sizeof(bad));
	if (st == PP_EINVAL)
		msg_error("cannot use --for-each-cgroup pattern '%s': not an extended regular "
			  "expression (see regex(7))", msg_clip(bad, c, sizeof(c)));
	else if (st == PP_ENOENT)
		msg_error("cannot count in cgroup '%s': no such cgroup under %s (give its path "
			  "below that mount, or a pattern such as 'docker-.*')",
			  msg_clip(bad, c, sizeof(c)), g->root);
	else if (st != PP_OK)
		msg_error("cannot open the cgroups of '%s' under %s: %s",
			  msg_clip(g->list, c, sizeof(c)), g->root, pp_strstatus(st));
	return st == PP_OK ? 0 : -1;
}

int serve_setup_open(struct serve_setup *s, struct serve_opts *o)
{
	struct utsname u;
	struct topo t = { 0 };
	pp_status st;
	int rc;

	s->count.by = o->by;
	if (evsel_ctx_init(&o->ev, &s->ctx) != 0)
		return -1;
	s->have_ctx = 1;
	if (select_rows(s, o) != 0 || make_counters(s) != 0)
		return -1;
	s->count.rows = s->rows;
	s->count.nrows = s->nrows;
	if ((o->by == SERVE_BY_CORE || o->by == SERVE_BY_CLUSTER) && (st = topo_read(&t)) != PP_OK) {
		msg_error("%s needs the CPU topology, which cannot be read from "
			  "/sys/devices/system/cpu (%s): --per-cpu needs none", o->by_opt,
			  pp_strstatus(st));
		return -1;
	}
	snprintf(s->machine, sizeof(s->machine), "%s", uname(&u) == 0 ? u.machine : "unknown");
	rc = serve_count_types(&s->count, &t, s->machine) || serve_hotplug_start(&s->count);
	s->topo = t;
	if (rc != 0) {
		msg_error("out of memory");
		return -1;
	}
	if (stat_open_wide(s->rows, &s->count.cs) < 0)
		return -1;
	return o->for_each_cgroup ? open_cgroups(s, o) : 0;
}

/* Adds the counters of cs to f's: each opened, or refused by the kernel. */
static void count_open(const struct stat_counters *cs, struct serve_facts *f)
{
	for (size_t k = 0; k < cs->n; k++) {
		if (!stat_counter_opens(cs, &cs->c[k]) || cs->c[k].presence)
			continue;
		f->counters++;
		f->counters_open += cs->c[k].fd >= 0;
	}
}

void serve_setup_facts(const struct serve_setup *s, struct serve_facts *f)
{
	*f = (struct serve_facts){ .version = PMUPROF_VERSION, .plan_runs = s->planned.nruns,
				   .plan_known = s->planned.known };
	count_open(&s->count.cs, f);
	for (size_t g = 0; s->cgroups.cg && g < s->cgroups.set.n; g++)
		count_open(&s->cgroups.cg[g]->count.cs, f);
}

void serve_setup_close(struct serve_setup *s, struct serve_opts *o)
{
	serve_cgroups_free(&s->cgroups);
	stat_counters_close(&s->count.cs);
	serve_count_free(&s->count);
	stat_counters_free(&s->count.cs);
	for (size_t k = 0; s->rows && k < s->nrows; k++)
		resolve_event_free(&s->rows[k].sel.ev);
	free(s->rows);
	for (size_t k = 0; s->owned && k < o->nmetrics; k++)
		free(s->owned[k]);
	free(s->owned);
	stat_target_free(&s->tgt);
	stat_planned_free(&s->planned);
	topo_free(&s->topo);
	if (s->have_ctx)
		resolve_ctx_free(&s->ctx);
}
