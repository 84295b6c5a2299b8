/* SPDX-License-Identifier: Apache-2.0 */
/* loop.c: the reference for pmuprof stat -r's cost per run: runs a command N times in a row
 * (fork, exec, wait; no counters), as the bare loop a shell script would make.
 *   loop N CMD [ARGS...]   exits 1 when a run fails. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n, status;

	if (argc < 3 || (n = atoi(argv[1])) <= 0)
		return 2;
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			return 1;
	}
	return 0;
}
