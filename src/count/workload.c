/* SPDX-License-Identifier: Apache-2.0 */
/* workload.c: the one module that runs the measured command: started at once with vfork
 * (workload_spawn), or forked and held on a socket before exec (workload_fork, workload_go);
 * exec, wait4, SIGINT/SIGTERM forwarded. The held child's socketpair carries both ways: the
 * go byte to the child, and back from it the errno of a failed exec (or, when the exec
 * succeeds, the end of file its close-on-exec end gives). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

/* The child a forwarded SIGINT/SIGTERM goes to; a signal handler can reach nothing else. */
static volatile sig_atomic_t fwd_pid;
static volatile sig_atomic_t fwd_seen;

/* The handler, installed once and left in place: with no child to forward to (between runs,
 * after the last), the signal does what it would have done uncaught. */
static void forward(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int e = errno;

	if (fwd_pid > 0) {
		fwd_seen = 1;
		kill((pid_t)fwd_pid, sig);
		errno = e;
		return;
	}
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* delivered as the handler returns */
	errno = e;
}

/* The RLIMIT_NOFILE the commands get back (workload_set_nofile); nofile_set 0: none. */
static struct rlimit nofile;
static int nofile_set;

void workload_set_nofile(const struct rlimit *rl)
{
	nofile_set = rl != NULL;
	if (rl)
		nofile = *rl;
}

/* The status a shell gives a command whose exec failed with e: 127 not found (ENOENT also
 * for a missing #! interpreter or loader), 126 not executable. */
static int exec_failed_status(int e)
{
	return e == ENOENT || e == ENOTDIR ? 127 : 126;
}

/* In the forked child: close pmuprof's end of the socket, wait for the go byte on its own
 * end (sock), exec; on failure send errno back on it (a successful exec closes it) and exit
 * as a shell would. Its signal handlers are pmuprof's at fork time: the default ones, or
 * forward() with no child to forward to (workload_go sets one only later), which gives the
 * default action: a SIGINT kills the held child. */
static _Noreturn void child(const char *path, char *const argv[], int sock, int theirs)
{
	char c;
	int e;

	close(theirs);
	if (read(sock, &c, 1) != 1)
		_exit(125);	/* pmuprof is gone, or workload_abort closed the socket */
	if (nofile_set)	/* lowered under descriptors still open: allowed, they stay */
		setrlimit(RLIMIT_NOFILE, &nofile);
	execve(path, argv, environ);
	e = errno;
	if (send(sock, &e, sizeof(e), MSG_NOSIGNAL) < 0)
		_exit(126);
	_exit(exec_failed_status(e));
}

/* The file execvp would run for name: name itself when it has a '/', else the first
 * executable match along PATH. 0, or ENOENT / EACCES as the shell would report them. For a
 * name with a '/', a file that someone may execute is taken without asking access(): the
 * exec says EACCES if it is not this user (the same message, after the counters are
 * opened). */
static int find_command(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	int err = ENOENT;

	if (strchr(name, '/')) {
		struct stat st;
		int n = snprintf(buf, len, "%s", name);

		if (n < 0 || (size_t)n >= len)	/* too long for buf: not found (cut, it could */
			buf[0] = '\0';		/* name another file) */
		if (stat(buf, &st) != 0)
			return errno == ENOENT || errno == ENOTDIR ? ENOENT : errno;
		if (S_ISDIR(st.st_mode))
			return EISDIR;
		return st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH) ? 0 : EACCES;
	}
	if (!*name)
		return ENOENT;
	for (p = path && *path ? path : "/bin:/usr/bin"; ; p = end + 1) {
		size_t dl;
		struct stat st;
		int n;

		end = strchr(p, ':');
		dl = end ? (size_t)(end - p) : strlen(p);
		/* the directory, a '/' unless it is empty, the name; a path that does not fit is
		 * skipped */
		n = dl < len ? snprintf(buf, len, "%.*s%s%s", (int)dl, p, dl ? "/" : "", name) : -1;
		if (n >= 0 && (size_t)n < len && stat(buf, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(buf, X_OK) == 0)
				return 0;
			err = EACCES;
		}
		if (!end)
			return err;
	}
}

static void reap(struct workload *w, int *status, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(w->pid, status, 0, ru);
	while (r < 0 && errno == EINTR);
	w->pid = -1;
}

pp_status workload_find(char *const argv[], struct workload *w, int *exec_errno)
{
	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = -1;
	*exec_errno = find_command(argv[0], w->path, sizeof(w->path));
	if (*exec_errno)
		return *exec_errno == ENOENT ? PP_ESRCH : PP_ENOEXEC;
	return PP_OK;
}

pp_status workload_fork(char *const argv[], struct workload *w, int *exec_errno)
{
	int go[2];
	pp_status st;

	if ((st = workload_find(argv, w, exec_errno)) != PP_OK)
		return st;
	/* a socket, not a pipe: it carries both ways (one descriptor pair, where a pipe each
	 * way took two), and send's MSG_NOSIGNAL makes the go byte to a child that is already
	 * gone (killed from outside) fail with EPIPE instead of killing pmuprof */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0)
		return PP_EMFILE;
	/* fork, as perf does: valgrind and gdb follow it, and pmuprof is small enough that
	 * copying its page tables costs little (make bench; the figures are in the commit
	 * that made this choice) */
	w->pid = fork();
	if (w->pid == 0)
		child(w->path, argv, go[0], go[1]);
	close(go[0]);
	if (w->pid < 0) {
		close(go[1]);
		return PP_ENOMEM;
	}
	w->go_fd = go[1];
	return PP_OK;
}

/* Ends the forwarding, once there is no child to forward to: forward() then gives the signal
 * its default action. */
static void unforward(void)
{
	fwd_pid = 0;
}

/* Forwards SIGINT and SIGTERM to the child from now on; the handler is installed by the first
 * call. SA_RESTART: reads and waits resume after a forwarded signal instead of failing with
 * EINTR. */
static void forward_to(const struct workload *w)
{
	static int installed;
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };

	fwd_pid = w->pid;
	if (installed)
		return;
	installed = 1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Installs the forwarding of SIGINT/SIGTERM to the child and sends it the go byte: 0, or -1
 * when no one took it (EPIPE: the child was killed from outside while held; it is reaped). */
static int let_go(struct workload *w)
{
	forward_to(w);
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	if (send(w->go_fd, "g", 1, MSG_NOSIGNAL) == 1)
		return 0;
	workload_abort(w);
	unforward();
	return -1;
}

/* What the child sent back once its exec was done or had failed: 0 (end of file: it
 * exec'd, or was killed on its way, which the wait says), else the exec's errno. Blocks
 * until then. Closes the socket. */
static int exec_result(struct workload *w)
{
	ssize_t n;
	int e = 0;

	do
		n = recv(w->go_fd, &e, sizeof(e), MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	close(w->go_fd);
	w->go_fd = -1;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

pp_status workload_go(struct workload *w, int *exec_errno)
{
	int status;

	*exec_errno = 0;
	if (let_go(w) != 0)
		return PP_ESRCH;
	if (!(*exec_errno = exec_result(w)))
		return PP_OK;	/* exec'd (or killed on its way: workload_wait says) */
	reap(w, &status, NULL);
	unforward();
	/* find_command saw the file: ENOENT now means its interpreter (#!) or its dynamic
	 * loader is missing, which a shell reports as 126, not as "not found" */
	return PP_ENOEXEC;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

pp_status workload_wait(struct workload *w, struct workload_result *r)
{
	struct rusage ru;
	struct timespec t1;
	int status = 0;

	memset(&ru, 0, sizeof(ru));
	reap(w, &status, &ru);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	unforward();
	r->wait_status = status;
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	r->interrupted = fwd_seen;
	r->wall_ns = (uint64_t)(t1.tv_sec - w->t0.tv_sec) * 1000000000u +
		     (uint64_t)(t1.tv_nsec - w->t0.tv_nsec);
	r->user_ns = tv_ns(ru.ru_utime);
	r->sys_ns = tv_ns(ru.ru_stime);
	return PP_OK;
}

/* vfork's child: the caller's RLIMIT_NOFILE back (a system call of its own process: the
 * limit is not pmuprof's), exec, else leave the errno in *err and exit as a shell would. It
 * runs on pmuprof's memory while pmuprof waits (the exec or the exit lets pmuprof go on): it
 * calls nothing but these and writes nothing but *err and errno. */
static _Noreturn void spawned(const char *path, char *const argv[], volatile int *err)
{
	if (nofile_set)
		setrlimit(RLIMIT_NOFILE, &nofile);
	execve(path, argv, environ);
	*err = errno;
	_exit(exec_failed_status(*err));
}

pp_status workload_start(struct workload *w, char *const argv[], int *exec_errno)
{
	volatile int err = 0;	/* the exec's errno, left by the child in this shared frame */
	int status;

	*exec_errno = 0;
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	if ((w->pid = vfork()) == 0)
		spawned(w->path, argv, &err);
	if (w->pid < 0)
		return PP_ENOMEM;
	if (err) {
		reap(w, &status, NULL);
		*exec_errno = err;
		return PP_ENOEXEC;	/* ENOENT here: a missing #! interpreter, as in workload_go */
	}
	/* the child has exec'd, so its handlers are the defaults again: forward from now on */
	forward_to(w);
	return PP_OK;
}

pp_status workload_spawn(struct workload *w, char *const argv[], struct workload_result *r,
			 int *exec_errno)
{
	pp_status st = workload_start(w, argv, exec_errno);

	return st == PP_OK ? workload_wait(w, r) : st;
}

int workload_abort(struct workload *w)
{
	int status = -1;

	if (w->go_fd >= 0)
		close(w->go_fd);	/* the child reads EOF and exits without exec */
	w->go_fd = -1;
	if (w->pid > 0)
		reap(w, &status, NULL);
	w->end_status = status;
	return status;
}
