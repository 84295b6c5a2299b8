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

/* dir/rel/pmuprof-serve into buf; 0, or -1 when it does not fit. */
static int serve_path(char *buf, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(buf, len, "%s%s/pmuprof-serve", dir, rel);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cmd_serve_exec(int argc, char **argv)
{
	static const char *const rel[] = { "", "/../libexec/pmuprof" };
	char self[PATH_MAX], path[PATH_MAX + 64], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int e = ENOENT;

	(void)argc;
	if (n <= 0 || !(slash = memrchr(self, '/', (size_t)n))) {
		msg_error("cannot find pmuprof-serve, which pmuprof serve runs: /proc/self/exe is "
			  "unreadable (mount /proc)");
		return PP_EXIT_ERROR;
	}
	*slash = '\0';
	for (size_t k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
		if (serve_path(path, sizeof(path), self, rel[k]) != 0)
			continue;
		execv(path, argv);
		if (errno != ENOENT)
			e = errno;	/* there, but it cannot be run: say why */
	}
	serve_path(path, sizeof(path), self, rel[1]);
	msg_error("cannot run pmuprof-serve, which pmuprof serve runs: %s (it is built beside "
		  "pmuprof by make and installed as %s)", strerror(e), path);
	return PP_EXIT_ERROR;
}
