/* workload.c: the one module that runs the measured command: fork, held on a go-socket
 * before exec, exec, wait4, SIGINT/SIGTERM forwarded. */
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

static void forward(int sig)
{
	fwd_seen = 1;
	if (fwd_pid > 0)
		kill((pid_t)fwd_pid, sig);
}

/* In the forked child: wait for the go byte, exec; on failure send errno through err_w
 * (which a successful exec closes) and exit as a shell would. Its signal handlers are
 * pmuprof's at fork time, the default ones (workload_go installs its own only later): a
 * SIGINT kills the held child. */
static _Noreturn void child(const char *path, char *const argv[], int go_r, int err_w)
{
	char c;
	int e;

	if (read(go_r, &c, 1) != 1)
		_exit(125);	/* pmuprof is gone, or workload_abort closed the socket */
	execve(path, argv, environ);
	e = errno;
	if (write(err_w, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
}

/* The file execvp would run for name: name itself when it has a '/', else the first
 * executable match along PATH. 0, or ENOENT / EACCES as the shell would report them. */
static int find_command(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	int err = ENOENT;

	if (strchr(name, '/')) {
		struct stat st;

		snprintf(buf, len, "%s", name);
		if (stat(buf, &st) != 0)
			return errno == ENOENT || errno == ENOTDIR ? ENOENT : errno;
		if (S_ISDIR(st.st_mode))
			return EISDIR;
		return access(buf, X_OK) == 0 ? 0 : EACCES;
	}
	if (!*name)
		return ENOENT;
	for (p = path && *path ? path : "/bin:/usr/bin"; ; p = end + 1) {
		size_t dl;
		struct stat st;

		end = strchr(p, ':');
		dl = end ? (size_t)(end - p) : strlen(p);
		if (snprintf(buf, len, "%.*s%s%s", (int)dl, p, dl ? "/" : "", name) < (int)len &&
		    stat(buf, &st) == 0 && S_ISREG(st.st_mode)) {
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

pp_status workload_fork(char *const argv[], struct workload *w, int *exec_errno)
{
	int go[2], er[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	*exec_errno = find_command(argv[0], w->path, sizeof(w->path));
	if (*exec_errno)
		return *exec_errno == ENOENT ? PP_ESRCH : PP_ENOEXEC;
	/* a socket, not a pipe: send's MSG_NOSIGNAL makes the go byte to a child that is
	 * already gone (killed from outside) fail with EPIPE instead of killing pmuprof */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0)
		return PP_EMFILE;
	if (pipe2(er, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return PP_EMFILE;
	}
	/* fork, as perf does: valgrind and gdb follow it, and pmuprof is small enough that
	 * copying its page tables costs little (make bench; the figures are in the commit
	 * that made this choice) */
	w->pid = fork();
	if (w->pid == 0) {
		close(go[1]);
		close(er[0]);
		child(w->path, argv, go[0], er[1]);
	}
	close(go[0]);
	close(er[1]);
	if (w->pid < 0) {
		close(go[1]);
		close(er[0]);
		return PP_ENOMEM;
	}
	w->go_fd = go[1];
	w->err_fd = er[0];
	return PP_OK;
}

/* Undoes workload_go's forwarding, once there is no child to forward to. */
static void unforward(void)
{
	fwd_pid = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

pp_status workload_go(struct workload *w, int *exec_errno)
{
	/* SA_RESTART: reads and waits resume after a forwarded signal instead of failing with
	 * EINTR */
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };
	int e = 0, status;
	ssize_t n;

	*exec_errno = 0;
	fwd_pid = w->pid;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	n = send(w->go_fd, "g", 1, MSG_NOSIGNAL);
	close(w->go_fd);
	w->go_fd = -1;
	if (n != 1) {
		/* no one took it (EPIPE): the child was killed from outside while held */
		workload_abort(w);
		unforward();
		return PP_ESRCH;
	}
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n != (ssize_t)sizeof(e))
		return PP_OK;	/* exec'd (or killed on its way: workload_wait says) */
	*exec_errno = e;
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

int workload_abort(struct workload *w)
{
	int status = -1;

	if (w->go_fd >= 0)
		close(w->go_fd);	/* the child reads EOF and exits without exec */
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0)
		reap(w, &status, NULL);
	w->end_status = status;
	return status;
}
