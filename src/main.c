/* SPDX-License-Identifier: Apache-2.0 */
/* main.c: the top-level options, the table of subcommands, and the only place that exits. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argp_hint.h"
#include "cmd.h"
#include "sysfs.h"

const char *argp_program_version = "pmuprof " PMUPROF_VERSION;
const char *argp_program_bug_address = NULL;

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ .name = "stat", .run = cmd_stat, .summary = "run a command and count events" },
	{ .name = "list", .run = cmd_list, .summary = "list the events of this machine's cores" },
	{ .name = "info", .run = cmd_info, .summary = "describe this machine's PMUs" },
	{ .name = "explain", .run = cmd_explain,
	  .summary = "show the PMU registers Linux programs for events" },
	{ .name = "diff", .run = cmd_diff,
	  .summary = "compare two stat reports; exit 1 on a regression" },
	{ .name = "report", .run = cmd_report,
	  .summary = "print a saved stat report again, or export it" },
	{ .name = "serve", .run = cmd_serve_exec,
	  .summary = "count every CPU and serve the counts to Prometheus" },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static char doc[] =
	"Count Arm PMUv3 events of a command through perf_event_open.\v"
	"Commands:\n"
	"  stat     run a command and count events\n"
	"  list     list the events of this machine's cores (or of any core)\n"
	"  info     describe this machine's Arm PMUs and perf settings\n"
	"  explain  show where events count and the PMU register values Linux programs\n"
	"  diff     compare two JSON reports of stat; exit 1 when something regressed\n"
	"  report   print a saved stat report again, or in a CI dashboard's format\n"
	"  serve    count every CPU all the time and serve the counts to Prometheus\n"
	"\n"
	"'pmuprof COMMAND --help' describes each; man pmuprof has the whole story.";

struct main_opts {
	int sub_index;		/* argv index of the subcommand, 0 when none */
};

static error_t parse_main(int key, char *arg, struct argp_state *state)
{
	struct main_opts *o = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_ARG:
		o->sub_index = state->next - 1;
		state->next = state->argc;	/* the rest is the subcommand's */
		break;
	case ARGP_KEY_END:
		if (!o->sub_index)
			argp_error(state, "no command given (try 'pmuprof stat -- COMMAND')");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp main_argp = { NULL, parse_main, "COMMAND [ARGS...]", doc,
				       NULL, NULL, NULL };

/* Set when the subcommand returns: from then on what it wrote is its own to check (list,
 * info, report and diff say so themselves). */
static int returned;

/* argp prints --help, --usage and --version to standard output and exits 0 from inside
 * argp_parse: without this check a closed or full standard output (--help >&-, >/dev/full)
 * would pass for success, where coreutils exits 1 with a message. */
static void check_stdout(void)
{
	int e = errno;

	if (returned)
		return;
	if (fflush(stdout) != 0)
		e = errno;
	else if (!ferror(stdout))
		return;
	msg_error("cannot write to standard output: %s", strerror(e ? e : EIO));
	_exit(PP_EXIT_ERROR);
}

int main(int argc, char **argv)
{
	static char prog[] = "pmuprof";
	struct main_opts o = { 0 };
	const char *root = getenv("PMUPROF_SYSFS_ROOT");
	char name[64];
	const char *why;
	pp_status st;
	int rc;

	argp_err_exit_status = PP_EXIT_ERROR;
	atexit(check_stdout);
	if (root && *root)
		sysfs_set_root(root);
	/* getopt names the program by argv[0] in its errors: "pmuprof", not the path it was
	 * run by ("./pmuprof: invalid option") */
	argv[0] = prog;
	argp_hint_parse(&main_argp, argc, argv, ARGP_IN_ORDER, &o);
	/* a misspelt root would read as a machine without PMUs, CPUs or kernel */
	if (root && *root && (st = sysfs_root_check(&why)) != PP_OK) {
		msg_error("PMUPROF_SYSFS_ROOT names '%s', which %s (unset it to read this machine's "
			  "/sys and /proc, or point it at a fixture tree such as tests/fixtures/"
			  "n1-server)", root, why ? why : pp_strstatus(st));
		return PP_EXIT_ERROR;
	}
	for (size_t k = 0; k < NSUB; k++) {
		if (strcmp(argv[o.sub_index], subcommands[k].name) != 0)
			continue;
		/* argv[0] becomes "pmuprof stat", so help and errors name the subcommand */
		snprintf(name, sizeof(name), "pmuprof %s", subcommands[k].name);
		argv[o.sub_index] = name;
		rc = subcommands[k].run(argc - o.sub_index, argv + o.sub_index);
		returned = 1;
		return rc;
	}
	returned = 1;
	msg_error("'%s' is not a pmuprof command (commands: stat, list, info, explain, diff, "
		  "report, serve; see 'pmuprof --help')", argv[o.sub_index]);
	return PP_EXIT_ERROR;
}
