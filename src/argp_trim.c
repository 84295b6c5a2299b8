/* argp_trim.c: argp_parse over only the options argv can name (include/argp_trim.h says why
 * and why the result is the same as with the whole table). */
#include <stddef.h>
#include <string.h>

#include "argp_hint.h"
#include "argp_trim.h"
#include "ascii.h"

/* room for the trimmed tables, on the stack (about 3 KiB): a command line names a few
 * options; one that names more than this falls back to the whole table */
#define TRIM_OPTIONS 48
#define TRIM_LONGS 24
#define TRIM_ARGPS 4
#define TRIM_CHILDREN 8

struct trim {
	/* what argv names: the characters of its short tokens, the names of its long ones */
	unsigned char shorts[256];
	const char *longs[TRIM_LONGS];
	size_t longlen[TRIM_LONGS], nlongs;
	int full;		/* help, usage, version, or more long tokens than longs holds */
	struct argp_option opts[TRIM_OPTIONS];
	struct argp argps[TRIM_ARGPS];
	struct argp_child children[TRIM_CHILDREN];
	size_t nopts, nargps, nchildren;
};

static int is_end(const struct argp_option *o)
{
	return !o->key && !o->name && !o->doc && !o->group;
}

/* argp's own options: with one of them named, argp gets the whole table to print */
static const char *const own[] = { "help", "usage", "version", "program-name", "HANG" };

static void scan(struct trim *t, int argc, char **argv)
{
	for (int i = 1; i < argc && !t->full; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] != '-') {
			for (const char *c = a + 1; *c; c++)
				t->shorts[(unsigned char)*c] = 1;
			t->full = t->shorts['?'] || t->shorts['V'];
			continue;
		}
		if (!a[2])
			continue;	/* "--", which may also be an option's argument: the
					 * words after it are read as well */
		if (t->nlongs == sizeof(t->longs) / sizeof(t->longs[0])) {
			t->full = 1;
			break;
		}
		t->longs[t->nlongs] = a + 2;
		t->longlen[t->nlongs] = strcspn(a + 2, "=");
		for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
			if (str_eqn(own[k], a + 2, t->longlen[t->nlongs]))
				t->full = 1;
		t->nlongs++;
	}
}

/* Whether argv can name option o: its long name starts with a long token's name, or its
 * key is one of the short tokens' characters (a short option: printable, as argp has it). */
static int named(const struct trim *t, const struct argp_option *o)
{
	if (o->flags & OPTION_DOC)
		return 0;
	if (o->key > 0 && o->key <= 0xff && ascii_isprint(o->key) && t->shorts[o->key])
		return 1;
	for (size_t k = 0; o->name && k < t->nlongs; k++)
		if (t->longlen[k] && str_eqn(o->name, t->longs[k], t->longlen[k]))
			return 1;
	return 0;
}

/* a copy of a's options that argv can name, each with its aliases; NULL when out of room */
static const struct argp_option *trim_options(struct trim *t, const struct argp_option *o)
{
	struct argp_option *out = &t->opts[t->nopts];
	size_t n = 0;

	while (o && !is_end(o)) {
		size_t len = 1;
		int keep = named(t, o);

		while (!is_end(&o[len]) && (o[len].flags & OPTION_ALIAS))
			keep |= named(t, &o[len++]);
		if (keep) {
			if (t->nopts + n + len >= TRIM_OPTIONS)
				return NULL;
			memcpy(&out[n], o, len * sizeof(*o));
			n += len;
		}
		o += len;
	}
	if (t->nopts + n + 1 > TRIM_OPTIONS)
		return NULL;
	memset(&out[n], 0, sizeof(*out));
	t->nopts += n + 1;
	return out;
}

/* a copy of a with its options and its children's trimmed; NULL when out of room */
static const struct argp *trim_argp(struct trim *t, const struct argp *a)
{
	struct argp *out;
	size_t nkids = 0;

	if (t->nargps == TRIM_ARGPS)
		return NULL;
	out = &t->argps[t->nargps++];
	*out = *a;
	if (a->options && !(out->options = trim_options(t, a->options)))
		return NULL;
	if (!a->children)
		return out;
	while (a->children[nkids].argp)
		nkids++;
	if (t->nchildren + nkids + 1 > TRIM_CHILDREN)
		return NULL;
	struct argp_child *kids = &t->children[t->nchildren];

	t->nchildren += nkids + 1;
	for (size_t k = 0; k <= nkids; k++) {
		kids[k] = a->children[k];
		if (k < nkids && !(kids[k].argp = trim_argp(t, a->children[k].argp)))
			return NULL;
	}
	out->children = kids;
	return out;
}

/* The parser above the command's: it hands the command its input and has argp write usage
 * errors through argp_hint_stream. */
static error_t outer_parse(int key, char *arg, struct argp_state *state)
{
	FILE *err;

	(void)arg;
	if (key != ARGP_KEY_INIT)
		return ARGP_ERR_UNKNOWN;
	state->child_inputs[0] = state->input;
	if (!(state->flags & ARGP_NO_ERRS) && (err = argp_hint_stream()))
		state->err_stream = err;
	return 0;
}

error_t argp_trim_parse(const struct argp *argp, int argc, char **argv, unsigned flags,
			void *input)
{
	struct trim t;
	const struct argp *use = NULL;
	struct argp_child child[2] = { { .argp = NULL } };
	const struct argp outer = { .parser = outer_parse, .children = child };

	/* a table of no options (the top level's) has nothing to trim */
	if (argp->options || argp->children) {
		memset(&t, 0, offsetof(struct trim, opts));
		t.nopts = t.nargps = t.nchildren = 0;
		scan(&t, argc, argv);
		if (!t.full)
			use = trim_argp(&t, argp);
	}
	child[0].argp = use ? use : argp;
	return argp_parse(&outer, argc, argv, flags, NULL, input);
}
