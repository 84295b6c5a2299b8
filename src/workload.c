/* workload.c: fork, go-pipe, exec, wait4: the one module that runs the measured command. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/* In the child: wait for the go byte, then exec; report an exec failure's errno through
 * err_w (closed by a successful exec) and exit as a shell would: 127 not found, else 126. */
static void child(char *const argv[], int go_r, int err_w)
{
	char c;
	ssize_t n;
	int e;

	do
		n = read(go_r, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(125);
	close(go_r);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_w, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
}

pp_status workload_fork(char *const argv[], struct workload *w)
{
	int go[2], er[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		return PP_EMFILE;
	if (pipe2(er, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return PP_EMFILE;
	}
	w->pid = fork();
	if (w->pid < 0) {
		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		return PP_ENOMEM;
	}
	if (w->pid == 0) {
		close(go[1]);
		close(er[0]);
		child(argv, go[0], er[1]);
	}
	close(go[0]);
	close(er[1]);
	w->go_fd = go[1];
	w->err_fd = er[0];
	return PP_OK;
}

static void reap(struct workload *w, int *status, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(w->pid, status, 0, ru);
	while (r < 0 && errno == EINTR);
	w->pid = -1;
}

pp_status workload_go(struct workload *w, int *exec_errno)
{
	struct sigaction sa = { .sa_handler = forward };
	int e = 0, status;
	ssize_t n;

	*exec_errno = 0;
	fwd_pid = w->pid;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	n = write(w->go_fd, "g", 1);
	close(w->go_fd);
	w->go_fd = -1;
	if (n != 1) {
		/* the child is gone before exec; wait4 below tells how */
		e = ECHILD;
	} else {
		do
			n = read(w->err_fd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof(e))
			e = 0;
	}
	close(w->err_fd);
	w->err_fd = -1;
	if (!e)
		return PP_OK;
	*exec_errno = e;
	reap(w, &status, NULL);
	fwd_pid = 0;
	return e == ENOENT || e == ENOTDIR ? PP_ESRCH : PP_ENOEXEC;
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
	fwd_pid = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
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

void workload_abort(struct workload *w)
{
	int status;

	if (w->go_fd >= 0)
		close(w->go_fd);	/* the child reads EOF and exits without exec */
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0)
		reap(w, &status, NULL);
}
