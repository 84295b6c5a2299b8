/* SPDX-License-Identifier: Apache-2.0 */
/* status.c: owns pp_strstatus, the short lower-case phrase for each pp_status code. */
#include "status.h"

/* Phrases complete a git-style message: "cannot open 'x': <phrase>". */
static const char *const status_phrase[] = {
	[PP_OK] = "success",
	[PP_ENOMEM] = "out of memory",
	[PP_ENOENT] = "not found",
	[PP_EINVAL] = "malformed input",
	[PP_ERANGE] = "value out of range",
	[PP_EIO] = "input/output error",
	[PP_EACCES] = "permission denied",
	[PP_ENOTSUP] = "not supported",
	[PP_EBUSY] = "resource busy",
	[PP_EMFILE] = "too many open files",
	[PP_ENOEXEC] = "cannot execute",
	[PP_ESRCH] = "command not found",
};

const char *pp_strstatus(pp_status s)
{
	if ((unsigned)s >= sizeof status_phrase / sizeof status_phrase[0] || !status_phrase[s])
		return "unknown error";
	return status_phrase[s];
}
