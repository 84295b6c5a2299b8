/* test_argp_trim.c: argp_trim_parse must parse every command line exactly as argp_parse does
 * with the whole table: the same calls of the parsers (key and argument, parent and child), in
 * the same order, and the same result. Held on hand-picked lines (abbreviations unique and
 * ambiguous, aliases, optional arguments, clusters, a child parser, "--", errors) and on
 * 20,000 random ones built from the same words. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "argp_trim.h"
#include "tap.h"

static char log_buf[4096];

static void logf_(const char *who, int key, const char *arg)
{
	size_t n = strlen(log_buf);

	snprintf(log_buf + n, sizeof(log_buf) - n, "%s:%d:%s;", who, key, arg ? arg : "-");
}

static error_t child_parse(int key, char *arg, struct argp_state *state)
{
	(void)state;
	if (key == 'c' || key == 0x401 || key == ARGP_KEY_INIT || key == ARGP_KEY_END ||
	    key == ARGP_KEY_SUCCESS || key == ARGP_KEY_FINI) {
		logf_("child", key, arg);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static error_t parent_parse(int key, char *arg, struct argp_state *state)
{
	logf_("parent", key, arg);
	switch (key) {
	case 'e': case 'x': case 'j': case 'A': case 'I': case 0x300: case 0x301: case 0x302:
	case 0x303: case 0x304:
		return 0;
	case ARGP_KEY_ARG:
		state->next = state->argc;	/* the command: the rest is its own */
		return 0;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = NULL;
		return 0;
	case ARGP_KEY_END: case ARGP_KEY_SUCCESS: case ARGP_KEY_FINI: case ARGP_KEY_NO_ARGS:
	case ARGP_KEY_ARGS: case ARGP_KEY_ERROR:
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_option child_options[] = {
	{ "child-opt", 'c', "V", 0, "a child's option", 0 },
	{ "child-long", 0x401, NULL, 0, "a child's long option", 0 },
	{ 0 }
};
static const struct argp child_argp = { child_options, child_parse, NULL, NULL, NULL, NULL,
					NULL };
static const struct argp_child children[] = { { &child_argp, 0, NULL, 0 }, { 0 } };

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "A group's heading:", 1 },
	{ "event", 'e', "LIST", 0, "events", 1 },
	{ "field-separator", 'x', "SEP", 0, "separator", 1 },
	{ "json", 'j', NULL, 0, "json", 1 },
	{ "no-aggr", 'A', NULL, 0, "per cpu", 2 },
	{ "no-merge", 0, NULL, OPTION_ALIAS, NULL, 2 },
	{ "interval", 'I', "MS", 0, "interval", 2 },
	{ "interval-count", 0x300, "N", 0, "count", 2 },
	{ "mux", 0x301, "MODE", OPTION_ARG_OPTIONAL, "mux", 3 },
	{ "metric-only", 0x302, NULL, 0, "metric only", 3 },
	{ "per-core", 0x303, NULL, 0, "per core", 3 },
	{ "per-socket", 0x304, NULL, 0, "per socket", 3 },
	{ "a-doc-line", 0, NULL, OPTION_DOC, "documentation only", 4 },
	{ 0 }
};
static const struct argp test_argp = { options, parent_parse, "COMMAND", NULL, children, NULL,
				       NULL };

/* both parses of argv (n words, argv[0] the program): 1 when the logs and results agree */
static int same(char **words, int n, int show)
{
	char *a[40], *b[40], whole[4096];
	error_t rw, rt;

	memcpy(a, words, n * sizeof(*a));
	memcpy(b, words, n * sizeof(*b));
	a[n] = b[n] = NULL;
	log_buf[0] = '\0';
	rw = argp_parse(&test_argp, n, a, ARGP_NO_EXIT | ARGP_NO_ERRS | ARGP_IN_ORDER, NULL, NULL);
	memcpy(whole, log_buf, sizeof(whole));
	log_buf[0] = '\0';
	rt = argp_trim_parse(&test_argp, n, b, ARGP_NO_EXIT | ARGP_NO_ERRS | ARGP_IN_ORDER, NULL);
	if (rw == rt && !strcmp(whole, log_buf))
		return 1;
	if (show) {
		printf("# argv:");
		for (int k = 1; k < n; k++)
			printf(" '%s'", words[k]);
		printf("\n#   whole table: %d %s\n#   trimmed:     %d %s\n", rw, whole, rt, log_buf);
	}
	return 0;
}

static const char *const cases[][8] = {
	{ "-e", "x", "--", "cmd" },
	{ "-e", "x", "cmd", "-j", "--json" },
	{ "--event=x", "--json", "cmd" },
	{ "--ev", "x", "--js", "cmd" },			/* unique abbreviations */
	{ "--inter", "5", "cmd" },			/* interval or interval-count: ambiguous */
	{ "--interval", "5", "cmd" },			/* exact, though a prefix of another */
	{ "--interval-c", "3", "-I", "5", "cmd" },
	{ "--per", "cmd" },				/* per-core or per-socket */
	{ "--per-s", "cmd" },
	{ "--no-merge", "cmd" },			/* an alias by its own name */
	{ "--no", "cmd" },				/* no-aggr or its alias: one option */
	{ "-A", "cmd" },
	{ "--mux", "cmd" },				/* optional argument: none */
	{ "--mux=runs", "cmd" },
	{ "-jAe", "x", "cmd" },				/* a cluster */
	{ "-jex", "cmd" },				/* the cluster's rest is -e's argument */
	{ "-e" },					/* missing argument */
	{ "--event" },
	{ "--bogus", "cmd" },				/* unknown */
	{ "-q", "cmd" },
	{ "--child-opt", "v", "cmd" },			/* the child's options */
	{ "-c", "v", "--child-l", "cmd" },
	{ "--child", "cmd" },				/* child-opt or child-long */
	{ "--a-doc-line", "cmd" },			/* a documentation entry is no option */
	{ "--", "--json", "cmd" },
	{ "cmd", "--json" },
	{ "-x,", "-e", "-I", "cmd" },
	{ "--json=1", "cmd" },				/* an argument to an option without one */
};

static const char *const vocab[] = {
	"-e", "x", "-j", "-A", "-I", "5", "-x", ",", "-jA", "-Ie", "-c", "--event", "--event=y",
	"--ev", "--e", "--json", "--j", "--no-aggr", "--no-merge", "--no", "--n", "--interval",
	"--inter", "--interval-count", "--interval-c", "--i", "--mux", "--mux=runs", "--mu",
	"--m", "--metric-only", "--met", "--per-core", "--per", "--per-socket", "--p", "--pe",
	"--child-opt", "--child-long", "--child", "--c", "--bogus", "-z", "--", "cmd", "-",
	"--a-doc-line", "--a", "--field-separator", "--f", "-x;", "--json=2",
};

int main(void)
{
	char *words[40];
	unsigned long long seed = 0x2545f4914f6cdd1dULL;
	int bad = 0, total = 20000;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = 1;

		words[0] = (char *)"pmuprof test";
		for (int k = 0; k < 8 && cases[i][k]; k++)
			words[n++] = (char *)cases[i][k];
		tap_ok(same(words, n, 1), "case %zu (%s ...) parses as with the whole table", i,
		       cases[i][0]);
	}
	for (int r = 0; r < total; r++) {
		int n = 1;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		words[0] = (char *)"pmuprof test";
		for (int k = 0, len = (int)(seed % 7) + 1; k < len; k++)
			words[n++] = (char *)vocab[(seed >> (8 + 5 * k)) %
						   (sizeof(vocab) / sizeof(vocab[0]))];
		bad += !same(words, n, bad < 5);
	}
	tap_ok(bad == 0, "%d random command lines parse as with the whole table (%d differ)",
	       total, bad);
	return tap_done();
}
