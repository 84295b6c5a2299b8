/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_serve_exec.c: `pmuprof serve` runs pmuprof-serve (src/main_serve.c says why it is a
 * program of its own), found beside pmuprof itself (a build tree), else in ../libexec/pmuprof
 * from pmuprof's directory (make install, the Debian package). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

size_t cmd_serve_paths(char path[CMD_SERVE_NPATHS][CMD_SERVE_PATH_MAX])
{
	static const char *const rel[CMD_SERVE_NPATHS] = { "", "/../libexec/pmuprof" };
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t k;

	if (n <= 0 || !(slash = memrchr(self, '/', (size_t)n)))
		return 0;
	*slash = '\0';
	for (k = 0; k < CMD_SERVE_NPATHS; k++) {
		int w = snprintf(path[k], CMD_SERVE_PATH_MAX, "%s%s/pmuprof-serve", self, rel[k]);

		if (w < 0 || w >= CMD_SERVE_PATH_MAX)
			return 0;	/* (PATH_MAX and the suffix always fit) */
	}
	return k;
}

int cmd_serve_exec(int argc, char **argv)
{
	char path[CMD_SERVE_NPATHS][CMD_SERVE_PATH_MAX];
	size_t n = cmd_serve_paths(path);
	int e = ENOENT;

	(void)argc;
	if (!n) {
		msg_error("cannot find pmuprof-serve, which pmuprof serve runs: /proc/self/exe is "
			  "unreadable (mount /proc)");
		return PP_EXIT_ERROR;
	}
	for (size_t k = 0; k < n; k++) {
		execv(path[k], argv);
		if (errno != ENOENT)
			e = errno;	/* there, but it cannot be run: say why */
	}
	msg_error("cannot run pmuprof-serve, which pmuprof serve runs: %s (it is built beside "
		  "pmuprof by make and installed as %s)", strerror(e), path[n - 1]);
	return PP_EXIT_ERROR;
}
