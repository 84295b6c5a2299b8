/* SPDX-License-Identifier: Apache-2.0 */
/* main_serve.c: pmuprof-serve, the program `pmuprof serve` runs (src/cmd/cmd_serve_exec.c).
 * serve alone needs libmicrohttpd (and through it gnutls) and libcrypt; linked into pmuprof,
 * those libraries would be loaded at the start of every command, stat's included. pmuprof
 * has checked PMUPROF_SYSFS_ROOT and the arguments before the subcommand; argv[0] is
 * "pmuprof serve", the name help and errors give. */
#include <argp.h>
#include <stdlib.h>

#include "cmd.h"
#include "sysfs.h"

const char *argp_program_version = "pmuprof " PMUPROF_VERSION;
const char *argp_program_bug_address = NULL;

int main(int argc, char **argv)
{
	const char *root = getenv("PMUPROF_SYSFS_ROOT");

	argp_err_exit_status = PP_EXIT_ERROR;
	if (root && *root)
		sysfs_set_root(root);
	return cmd_serve(argc, argv);
}
