/* SPDX-License-Identifier: Apache-2.0 */
/* workload.h: runs the command being measured: vfork and exec at once, or fork, held on a
 * go-socket, exec; wait4. */
#ifndef PMUPROF_WORKLOAD_H
#define PMUPROF_WORKLOAD_H

#include <limits.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "status.h"

struct workload {
	pid_t pid;		/* the child, held before exec until workload_go */
	int go_fd;		/* pmuprof's end of the socket: the go byte out, the exec's
				 * errno or end of file back */
	struct timespec t0;	/* when it was let go */
	int end_status;		/* wait status of a child that ended while held */
	char path[PATH_MAX];	/* the file it executes */
};

struct workload_result {
	int wait_status;	/* as from wait4 */
	int exit_code;		/* WEXITSTATUS, or -1 when killed */
	int term_signal;	/* signal that ended it, 0 when it exited */
	int interrupted;	/* SIGINT or SIGTERM reached pmuprof during the run */
	uint64_t wall_ns, user_ns, sys_ns;
};

/* Every command started from now on gets rl as its RLIMIT_NOFILE, set in the child before
 * its exec: the caller's limit, where pmuprof raised its own soft limit for its counters, so
 * that the command runs under the limits it was given. NULL: the limit pmuprof has. */
void workload_set_nofile(const struct rlimit *rl);
/* Finds the command along PATH (into w->path): PP_ESRCH when it is not there, PP_ENOEXEC
 * when it is not executable (*exec_errno says why). */
pp_status workload_find(char *const argv[], struct workload *w, int *exec_errno);
/* Starts the command workload_find found at once, forwarding SIGINT and SIGTERM to it from
 * its exec on; workload_wait waits for it. A vfork: pmuprof's pages are not copied, so
 * neither process pays the copy-on-write faults a fork's pages cost until the exec. For a
 * caller that has nothing to do between the fork and the exec: counters that follow
 * pmuprof itself, inherited by the child and enabled at its exec, or none.
 * PP_ENOEXEC when the exec failed (*exec_errno says why, as for workload_go; the child is
 * reaped), else PP_OK. Under valgrind, whose vfork is a fork, pmuprof does not see a failed
 * exec's errno: the command's status says it (valgrind ends such a child with 101, as it did
 * the held child's). */
pp_status workload_start(struct workload *w, char *const argv[], int *exec_errno);
/* workload_start, then workload_wait when it started. */
pp_status workload_spawn(struct workload *w, char *const argv[], struct workload_result *r,
			 int *exec_errno);
/* Finds the command along PATH and starts the child; it waits until workload_go, then execs.
 * The parent may open counters on w->pid in between. PP_ESRCH when the command is not found,
 * PP_ENOEXEC when it is not executable (*exec_errno says why); no child then. */
pp_status workload_fork(char *const argv[], struct workload *w, int *exec_errno);
/* Lets the child exec. PP_ENOEXEC when the exec failed (*exec_errno says why: EACCES,
 * ENOEXEC, or ENOENT for a missing #! interpreter or loader); PP_ESRCH when the child had
 * already ended (killed from outside while held; w->end_status says how). The child is
 * reaped then. Never raises SIGPIPE. */
pp_status workload_go(struct workload *w, int *exec_errno);
/* Waits for the child (forwarding SIGINT/SIGTERM to it) and fills r. */
pp_status workload_wait(struct workload *w, struct workload_result *r);
/* Ends a child that was never let go, and reaps it. Returns its wait status: WIFSIGNALED
 * when something killed it while it was held (a counter open on it then fails with ESRCH),
 * else an exit status of its own; -1 when there was no child. */
int workload_abort(struct workload *w);

#endif
