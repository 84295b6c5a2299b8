/* workload.c: fork, go-pipe, exec, wait4: the one module that runs the measured command. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* The child a forwarded SIGINT/SIGTERM goes to; a signal handler can reach nothing else. */
static volatile sig_atomic_t fwd_pid;
static volatile sig_atomic_t fwd_seen;

static void workload_release(struct workload *w);

static void forward(int sig)
{
	fwd_seen = 1;
	if (fwd_pid > 0)
		kill((pid_t)fwd_pid, sig);
}

/* What the child needs, prepared by the parent: the child shares the parent's memory until
 * exec (CLONE_VM), so it reads this and touches nothing else. */
struct child_args {
	const char *path;
	char *const *argv;
	int go_r, go_w, err_r, err_w;
};

#define CHILD_STACK (64 * 1024)

/* Ends the child with exit_group directly: _exit is noreturn, and sanitizers treat a noreturn
 * call on a stack they do not know (ours) as a stack switch to warn about. */
static int child_exit(int code)
{
	syscall(SYS_exit_group, code);
	return code;
}

/* In the child, on its own stack: wait for the go byte, exec; on failure send errno through
 * err_w (which a successful exec closes) and exit as a shell would. Only plain system calls
 * here: the memory, and so errno, is the parent's; the parent reads none of it meanwhile. */
static int child(void *arg)
{
	const struct child_args *a = arg;
	char c;
	int e;

	/* the child has its own copy of the descriptors: drop the parent's ends, or EOF on
	 * the go-pipe (workload_abort) would never come */
	close(a->go_w);
	close(a->err_r);
	if (read(a->go_r, &c, 1) != 1)
		return child_exit(125);
	execve(a->path, a->argv, environ);
	e = errno;
	if (write(a->err_w, &e, sizeof(e)) < 0)
		return child_exit(126);
	return child_exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
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

/* Starts the child. CLONE_VM: no copy of pmuprof's page tables, as posix_spawn does, but
 * unlike vfork the parent runs on, to open counters on the child while it waits. Valgrind
 * supports no such clone, so under it the child is forked. */
static pid_t spawn(struct child_args *a, void *stack_top)
{
	pid_t pid;

	if (!RUNNING_ON_VALGRIND)
		return clone(child, stack_top, CLONE_VM | SIGCHLD, a);
	pid = fork();
	if (pid == 0)
		child(a);
	return pid;
}

pp_status workload_fork(char *const argv[], struct workload *w, int *exec_errno)
{
	int go[2], er[2];
	struct child_args *a;

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	*exec_errno = find_command(argv[0], w->path, sizeof(w->path));
	if (*exec_errno)
		return *exec_errno == ENOENT ? PP_ESRCH : PP_ENOEXEC;
	if (pipe2(go, O_CLOEXEC) < 0)
		return PP_EMFILE;
	if (pipe2(er, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return PP_EMFILE;
	}
	/* the stack holds the child's arguments at its base, the stack proper above them */
	w->stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (w->stack == MAP_FAILED) {
		w->stack = NULL;
	} else {
		a = w->stack;
		*a = (struct child_args){ .path = w->path, .argv = argv, .go_r = go[0],
					  .go_w = go[1], .err_r = er[0], .err_w = er[1] };
		w->pid = spawn(a, (char *)w->stack + CHILD_STACK);
	}
	close(go[0]);
	close(er[1]);
	if (w->pid < 0) {
		close(go[1]);
		close(er[0]);
		workload_release(w);
		return PP_ENOMEM;
	}
	w->go_fd = go[1];
	w->err_fd = er[0];
	return PP_OK;
}

/* Frees the child's stack once it no longer runs on it (exec'd or reaped). */
static void workload_release(struct workload *w)
{
	if (w->stack)
		munmap(w->stack, CHILD_STACK);
	w->stack = NULL;
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
	/* SA_RESTART: reads and waits resume after a forwarded signal instead of failing with
	 * EINTR, so nothing here depends on errno while the child may still share it */
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };
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
	if (!e) {
		workload_release(w);	/* exec'd: the old memory is no longer its */
		return PP_OK;
	}
	*exec_errno = e;
	reap(w, &status, NULL);
	workload_release(w);
	fwd_pid = 0;
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
	workload_release(w);
}
