/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_export.c: `--export FORMAT:FILE` where the user is addressed: usage errors, and the
 * messages of files that cannot be written (export.c does the work). */
#include <errno.h>
#include <string.h>

#include "msg.h"
#include "cmd_export.h"

void cmd_export_opt(struct argp_state *state, struct export_set *s, const char *arg)
{
	switch (export_add(s, arg)) {
	case EXPORT_ADD_OK:
		break;
	case EXPORT_ADD_FORMAT:
		argp_error(state, "--export takes FORMAT:FILE with FORMAT one of %s, not '%s'",
			   EXPORT_FORMAT_NAMES, arg);
		break;
	case EXPORT_ADD_NO_FILE:
		argp_error(state, "--export '%s' names no file (give FORMAT:FILE, e.g. bmf:bmf.json)",
			   arg);
		break;
	case EXPORT_ADD_TOO_MANY:
		argp_error(state, "--export is given more than %d times", EXPORT_MAX);
		break;
	case EXPORT_ADD_TWICE:
		argp_error(state, "--export '%s' names a file another --export writes (give each "
			   "format its own file)", arg);
		break;
	}
}

void cmd_export_output(struct argp_state *state, const struct export_set *s, const char *output)
{
	for (size_t k = 0; output && k < s->n; k++)
		if (outfile_same(output, s->spec[k].path))
			argp_error(state, "-o '%s' and --export '%s:%s' name the same file (give each "
				   "its own file)", output, export_format_name(s->spec[k].format),
				   s->spec[k].path);
}

static void cannot(const struct export_set *s, size_t k, int e, const char *hint)
{
	msg_error("cannot write %s export '%s': %s%s", export_format_name(s->spec[k].format),
		  s->spec[k].path, e == EISDIR ? "it names a directory" : strerror(e), hint);
}

int cmd_export_check(const struct export_set *s)
{
	size_t k = 0;
	int e = export_check(s, &k);

	if (!e)
		return 0;
	cannot(s, k, e, e == EISDIR ? " (give --export the path of a file)"
				    : " (choose a writable path for --export)");
	return -1;
}

int cmd_export_commit(const struct export_set *s, const struct report *r)
{
	size_t k = 0;
	int e = export_commit(s, r, &k);

	if (!e)
		return 0;
	cannot(s, k, e, "");
	return -1;
}
