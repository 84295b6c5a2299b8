/* SPDX-License-Identifier: Apache-2.0 */
/* stat_control.c: the control channel of pmuprof stat: perf's --control (a descriptor pair
 * or two FIFOs) or --regions' inherited pipes. Lines are read as they come while pmuprof
 * waits for the command (stat_interval.c polls stat_ctl_fd), each acted on and answered at
 * once: the program waiting for its "ack" is stopped at the boundary while the counters are
 * read. A channel that goes silent, is closed, or carries garbage is warned about once and
 * never holds pmuprof up: reads happen only when poll says there is something, answers are
 * written without blocking and without SIGPIPE. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "sysfs.h"
#include "stat_ctl.h"

enum { WARN_GARBAGE = 1, WARN_LONG = 2, WARN_ACK = 4, WARN_STRAY = 8, WARN_NAME = 16 };

/* A descriptor number of fd:CTL,ACK; -1 when it is none. */
static int fd_number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return !*s || *end || errno || v < 0 || v > 1 << 20 ? -1 : (int)v;
}

int stat_ctl_parse(struct stat_ctl *c, const char *arg, const char **why)
{
	char *comma, *a;

	*why = "it takes fd:CTL[,ACK] or fifo:CTL[,ACK]";
	c->user_ctl = c->user_ack = -1;
	if (strncmp(arg, "fd:", 3) && strncmp(arg, "fifo:", 5))
		return -1;
	free(c->spec);
	if (!(c->spec = strdup(arg)))
		return -1;
	a = strchr(c->spec, ':') + 1;
	if ((comma = strchr(a, ',')))
		*comma++ = '\0';
	c->mode = c->spec[1] == 'd' ? STAT_CTL_FD : STAT_CTL_FIFO;
	if (c->mode == STAT_CTL_FIFO) {
		c->ctl_path = a;
		c->ack_path = comma && *comma ? comma : NULL;
		*why = "the FIFO's path is empty";
		return *a ? 0 : -1;
	}
	c->user_ctl = fd_number(a);
	c->user_ack = comma ? fd_number(comma) : -2;
	*why = "CTL and ACK are descriptor numbers (fd:10,11)";
	if (c->user_ctl < 0 || c->user_ack == -1)
		return -1;
	if (c->user_ack == -2)
		c->user_ack = -1;
	return 0;
}

/* Opens FIFO path read and write: the open never waits for the other side, and pmuprof's
 * own writer keeps it from ending at a writer's close (perf opens them so too). */
static int open_fifo(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		msg_error("cannot open control FIFO '%s': %s (make it with 'mkfifo %s')", path,
			  strerror(errno), path);
	return fd;
}

/* The command's pipes for --regions, their numbers in its environment. */
static int make_pipes(struct stat_ctl *c)
{
	int ctl[2], ack[2];
	char num[16];

	if (pipe2(ctl, O_CLOEXEC) != 0)
		goto fail;
	if (pipe2(ack, O_CLOEXEC) != 0) {
		close(ctl[0]);
		close(ctl[1]);
		goto fail;
	}
	/* the command's ends are inherited; pmuprof's answers never block */
	fcntl(ctl[1], F_SETFD, 0);
	fcntl(ack[0], F_SETFD, 0);
	fcntl(ack[1], F_SETFL, O_NONBLOCK);
	c->rfd = ctl[0];
	c->afd = ack[1];
	c->child_ctl = ctl[1];
	c->child_ack = ack[0];
	snprintf(num, sizeof(num), "%d", ctl[1]);
	setenv("PMUPROF_CTL_FD", num, 1);
	snprintf(num, sizeof(num), "%d", ack[0]);
	setenv("PMUPROF_ACK_FD", num, 1);
	return 0;
fail:
	msg_error("cannot make the regions' channel: %s (raise 'ulimit -n')", strerror(errno));
	return -1;
}

int stat_ctl_run_begin(struct stat_ctl *c, size_t ncounters, int enabled)
{
	c->rfd = c->afd = c->child_ctl = c->child_ack = c->tid_fd = -1;
	c->tid = 0;
	c->len = 0;
	c->overlong = c->stopped = 0;
	c->enabled = enabled;
	c->regs.ncounters = ncounters;
	switch (c->mode) {
	case STAT_CTL_REGIONS:
		return make_pipes(c);
	case STAT_CTL_FIFO:
		if (c->user_ctl < 0 && (c->user_ctl = open_fifo(c->ctl_path)) < 0)
			return -1;
		if (c->ack_path && c->user_ack < 0 && (c->user_ack = open_fifo(c->ack_path)) < 0)
			return -1;
		break;
	case STAT_CTL_FD:
		if (fcntl(c->user_ctl, F_GETFD) < 0 ||
		    (c->user_ack >= 0 && fcntl(c->user_ack, F_GETFD) < 0)) {
			msg_error("cannot use --control fd:%d%s: descriptor %d is not open (open it "
				  "in the shell that runs pmuprof, e.g. 10<ctl-pipe)", c->user_ctl,
				  c->user_ack >= 0 ? ",ACK" : "",
				  fcntl(c->user_ctl, F_GETFD) < 0 ? c->user_ctl : c->user_ack);
			return -1;
		}
		if (c->user_ack >= 0)
			fcntl(c->user_ack, F_SETFL, fcntl(c->user_ack, F_GETFL) | O_NONBLOCK);
		break;
	case STAT_CTL_NONE:
		return 0;
	}
	c->rfd = c->user_ctl;
	c->afd = c->user_ack;
	return 0;
}

void stat_ctl_started(struct stat_ctl *c)
{
	if (c->child_ctl >= 0)
		close(c->child_ctl);
	if (c->child_ack >= 0)
		close(c->child_ack);
	c->child_ctl = c->child_ack = -1;
}

int stat_ctl_fd(const struct stat_ctl *c)
{
	return c && c->mode != STAT_CTL_NONE && !c->stopped ? c->rfd : -1;
}

void stat_ctl_run_end(struct stat_ctl *c)
{
	stat_ctl_started(c);
	if (c->mode == STAT_CTL_REGIONS) {
		if (c->rfd >= 0)
			close(c->rfd);
		if (c->afd >= 0)
			close(c->afd);
		unsetenv("PMUPROF_CTL_FD");
		unsetenv("PMUPROF_ACK_FD");
	}
	c->rfd = c->afd = -1;
	if (c->tid_fd >= 0)
		close(c->tid_fd);
	c->tid_fd = -1;
	stat_regions_run_end(&c->regs);
}

void stat_ctl_free(struct stat_ctl *c)
{
	if (c->mode == STAT_CTL_FIFO) {
		if (c->user_ctl >= 0)
			close(c->user_ctl);
		if (c->user_ack >= 0)
			close(c->user_ack);
	}
	stat_regions_free(&c->regs);
	free(c->spec);
	c->spec = NULL;
}

/* Says what once (bit): a channel's misuse is told once per command, not per line. */
static void warn_once(struct stat_ctl *c, unsigned bit, const char *fmt, const char *arg)
{
	if (c->warned & bit)
		return;
	c->warned |= bit;
	msg_warn(fmt, arg);
}

/* Writes answer (a line) without blocking and without SIGPIPE: a program that does not read
 * its answers, or closed them, is warned about once and answered no more. */
static void answer(struct stat_ctl *c, const char *line)
{
	sigset_t pipe, old, pending;
	/* perf writes "ack\n" with its string's NUL: its --control gets the same bytes */
	size_t len = strlen(line) + (c->mode != STAT_CTL_REGIONS);
	ssize_t n;

	if (c->afd < 0)
		return;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, &old);
	do
		n = write(c->afd, line, len);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = { 0, 0 };

		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE))
			sigtimedwait(&pipe, NULL, &zero);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (n == (ssize_t)len)
		return;
	warn_once(c, WARN_ACK, "the command's answer channel is %s: pmuprof stops answering "
		  "(read each 'ack' after a command, or give --control without ACK)",
		  n < 0 && errno == EPIPE ? "closed" : "full, never read");
	c->afd = -1;
}

/* Waits until thread tid (the writer of a boundary, which its line names) is no longer
 * running: it is then blocked waiting for its answer, so the counters hold every instruction
 * it ran before its wait and none after, whichever of the two ran first after its write (on
 * one CPU, whether the kernel switched to pmuprof at the write or at the wait). Bounded:
 * 20 ms, then the counters are read as they are. */
static void wait_blocked(struct stat_ctl *c, int tid)
{
	struct timespec t0, t;

	if (tid != c->tid) {	/* the stat file of the last writer stays open: one read */
		if (c->tid_fd >= 0)
			close(c->tid_fd);
		c->tid_fd = sysfs_task_open(tid);
		c->tid = tid;
	}
	if (c->tid_fd < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (sysfs_task_running(c->tid_fd) == 1) {
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 20000000L)
			break;
	}
}

/* A region's name as the line gives it: 1 to STAT_REGION_NAME_MAX bytes, no space or
 * control byte, then optionally a space and the writer's thread id (*tid; 0 when not
 * given); NULL otherwise. */
static const char *region_name(char *arg, int *tid)
{
	char *sp = strchr(arg, ' ');
	size_t n;

	*tid = 0;
	if (sp) {
		char *end;
		long v = strtol(sp + 1, &end, 10);

		if (*end || end == sp + 1 || v <= 0 || v > 1 << 30)
			return NULL;
		*tid = (int)v;
		*sp = '\0';
	}
	n = strlen(arg);

	if (!n || n > STAT_REGION_NAME_MAX)
		return NULL;
	for (size_t k = 0; k < n; k++)
		if ((unsigned char)arg[k] <= ' ' || arg[k] == 0x7f)
			return NULL;
	return arg;
}

/* "begin NAME" or "end NAME": the counters read while the program waits, the region's
 * boundary taken, answered. -1 when memory ran out. */
static int region_line(struct stat_ctl *c, struct stat_counters *cs, int begin, char *arg,
		       uint64_t now_ns)
{
	char clip[48];
	int rc, tid;
	const char *name = region_name(arg, &tid);

	if (!name) {
		warn_once(c, WARN_NAME, "ignoring region '%s' on the control channel: a name is 1 "
			  "to 255 bytes without spaces", msg_clip(arg, clip, sizeof(clip)));
		answer(c, "err bad region name\n");
		return 0;
	}
	if (tid)
		wait_blocked(c, tid);
	stat_counters_read(cs);
	rc = begin ? stat_region_begin(&c->regs, name, cs, now_ns)
		   : stat_region_end(&c->regs, name, cs, now_ns);
	if (rc < 0)
		return -1;
	if (rc > 0)
		warn_once(c, WARN_STRAY, "region '%s' ended without a begin: the end is ignored "
			  "(check that each end follows its begin)", name);
	answer(c, "ack\n");
	return 0;
}

/* One line: perf's commands (enable, disable, ping, stop) and the regions' (begin NAME, end
 * NAME), each answered; anything else is warned about once and not answered, as perf does
 * not. 1 after "stop", -1 when memory ran out. */
static int line(struct stat_ctl *c, struct stat_counters *cs, char *l, uint64_t now_ns)
{
	char clip[48];

	if (!strcmp(l, "enable") || !strcmp(l, "disable")) {
		int on = l[0] == 'e';

		if (on != c->enabled)
			stat_counters_enable(cs, on);
		c->enabled = on;
		answer(c, "ack\n");
		return 0;
	}
	if (!strcmp(l, "ping") || !strcmp(l, "stop")) {
		answer(c, "ack\n");
		return l[0] == 's';
	}
	if (!strncmp(l, "begin ", 6) || !strncmp(l, "end ", 4))
		return region_line(c, cs, l[0] == 'b', strchr(l, ' ') + 1, now_ns);
	warn_once(c, WARN_GARBAGE, "ignoring '%s' on the control channel: the commands are "
		  "enable, disable, ping, stop, begin NAME and end NAME (see pmuprof-regions(7))",
		  msg_clip(l, clip, sizeof(clip)));
	return 0;
}

int stat_ctl_input(struct stat_ctl *c, struct stat_counters *cs, uint64_t now_ns)
{
	char buf[4096];
	ssize_t n;
	int rc = 0;

	do
		n = read(c->rfd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n <= 0) {	/* every writer closed it: nothing more will come */
		c->stopped = 1;
		return 1;
	}
	for (ssize_t k = 0; k < n && rc == 0; k++) {
		if (buf[k] != '\n') {
			if (c->len < sizeof(c->line) - 1)
				c->line[c->len++] = buf[k];
			else
				c->overlong = 1;
			continue;
		}
		c->line[c->len] = '\0';
		if (c->overlong) {
			warn_once(c, WARN_LONG, "ignoring a line of more than %s bytes on the control "
				  "channel (a region name is at most 255 bytes)", "4095");
			answer(c, "err line too long\n");
		} else {
			rc = line(c, cs, c->line, now_ns);
		}
		c->len = 0;
		c->overlong = 0;
	}
	if (rc > 0)
		c->stopped = 1;
	return rc;
}
