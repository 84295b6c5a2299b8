/* SPDX-License-Identifier: Apache-2.0 */
/* pmuprof/region.h: named regions for pmuprof stat --regions, header only, no library.
 *
 *	pmuprof_region_begin("parse");  ...  pmuprof_region_end("parse");
 *
 * Under `pmuprof stat --regions` each call tells pmuprof (through the inherited descriptors
 * PMUPROF_CTL_FD and PMUPROF_ACK_FD) and waits for its "ack": pmuprof reads the counters
 * while the program waits, so each boundary is exact. Under `perf stat -D -1 --control
 * fifo:CTL,ACK` with PERF_CTL_FIFO and PERF_ACK_FIFO set, the outermost begin enables
 * perf's counters and its end disables them (perf has no names). Otherwise a call costs one
 * branch once the first has looked at the environment, and does nothing.
 *
 * Each call returns 0 or a negative errno and never aborts: -EINVAL for a name that is
 * empty, has a space or a control character, or is refused by pmuprof; -ENAMETOOLONG past
 * PMUPROF_REGION_NAME_MAX bytes; -EPIPE when pmuprof is gone; -ETIMEDOUT when it did not
 * answer within PMUPROF_REGION_TIMEOUT_MS (environment, default 5000): the calls after a
 * lost channel do nothing. The wire protocol is pmuprof-regions(7). */
#ifndef PMUPROF_REGION_H
#define PMUPROF_REGION_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(_DEFAULT_SOURCE) || defined(_GNU_SOURCE)
#include <sys/syscall.h>
#endif

#define PMUPROF_REGION_NAME_MAX 255

/* The channel, one per process: a weak definition in every file that includes this header,
 * which the linker merges into one. state: 0 not looked at yet, -1 off, 1 pmuprof, 2 perf. */
struct pmuprof_region_chan_ {
	int state, ctl, ack, depth, wait_ms;
	char lock;
};
extern struct pmuprof_region_chan_ pmuprof_region_chan_;
__attribute__((weak)) struct pmuprof_region_chan_ pmuprof_region_chan_;

/* A descriptor number from the environment; -1 when unset or not open. */
static inline int pmuprof_region_envfd_(const char *var)
{
	const char *s = getenv(var);
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 1 << 20 || fcntl((int)v, F_GETFD) < 0)
		return -1;
	return (int)v;
}

/* Looks at the environment once: pmuprof's descriptors, else perf's FIFOs, else off. */
static inline void pmuprof_region_init_(struct pmuprof_region_chan_ *c)
{
	const char *cf = getenv("PERF_CTL_FIFO"), *af = getenv("PERF_ACK_FIFO");
	const char *w = getenv("PMUPROF_REGION_TIMEOUT_MS");

	c->wait_ms = w && atoi(w) > 0 ? atoi(w) : 5000;
	c->ctl = pmuprof_region_envfd_("PMUPROF_CTL_FD");
	c->ack = pmuprof_region_envfd_("PMUPROF_ACK_FD");
	if (c->ctl >= 0 && c->ack >= 0) {
		c->state = 1;
		return;
	}
	c->state = -1;
	if (!cf || !af || !*cf || !*af)
		return;
	/* non-blocking opens: a FIFO nobody reads (no perf) fails at once instead of waiting */
	c->ctl = open(cf, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	c->ack = open(af, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->ctl >= 0 && c->ack >= 0) {
		fcntl(c->ctl, F_SETFL, 0);
		c->state = 2;
		return;
	}
	if (c->ctl >= 0)
		close(c->ctl);
	if (c->ack >= 0)
		close(c->ack);
}

/* Writes the line with SIGPIPE held back: a reader gone is -EPIPE, not the program's end. */
static inline int pmuprof_region_write_(int fd, const char *buf, size_t len)
{
	sigset_t pipe, old, pending;
	int rc = 0;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, &old);
	while (len && !rc) {
		ssize_t n = write(fd, buf, len);

		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n < 0 && errno != EINTR) {
			rc = -errno;
		}
	}
	sigpending(&pending);
	if (rc == -EPIPE && !sigismember(&old, SIGPIPE) && sigismember(&pending, SIGPIPE)) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&pipe, NULL, &zero);	/* the SIGPIPE this write raised */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Waits (bounded) for the answer line: 0 for "ack", -EINVAL for "err ...", -EPIPE at end of
 * file, -ETIMEDOUT, -EPROTO for anything else. Reads no byte past the line's end (perf's
 * NUL after it is skipped before the next answer). */
static inline int pmuprof_region_answer_(struct pmuprof_region_chan_ *c)
{
	char got[8];
	size_t n = 0;
	int first = 1;

	for (;;) {
		struct pollfd p = { c->ack, POLLIN, 0 };
		int r = poll(&p, 1, c->wait_ms);
		char ch;
		ssize_t k;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? -ETIMEDOUT : -errno;
		k = read(c->ack, &ch, 1);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0)
			return k == 0 ? -EPIPE : -errno;
		if (ch == '\0')
			continue;	/* perf ends each "ack\n" with the string's NUL */
		if (ch == '\n')
			return first && n == 3 && !memcmp(got, "ack", 3) ? 0 :
			       n >= 3 && !memcmp(got, "err", 3) ? -EINVAL : -EPROTO;
		if (n < sizeof(got))
			got[n++] = ch;
		else
			first = 0;
	}
}

/* A name pmuprof takes: 1 to PMUPROF_REGION_NAME_MAX bytes, no space, no control byte. */
static inline int pmuprof_region_name_(const char *name, size_t *len)
{
	size_t n = 0;

	if (!name || !*name)
		return -EINVAL;
	for (; name[n]; n++) {
		if ((unsigned char)name[n] <= ' ' || name[n] == 0x7f)
			return -EINVAL;
		if (n >= PMUPROF_REGION_NAME_MAX)
			return -ENAMETOOLONG;
	}
	*len = n;
	return 0;
}

/* " TID" after the name: pmuprof waits until this thread is blocked on its answer before it
 * reads the counters, so that none of the thread's instructions after its write is counted
 * on one side of the boundary and not the other. Where syscall() is not declared (a strict
 * C mode without _DEFAULT_SOURCE), nothing: the boundary may then move by the few
 * instructions between the write and the wait. */
static inline size_t pmuprof_region_tid_(char *buf)
{
#if (defined(_DEFAULT_SOURCE) || defined(_GNU_SOURCE)) && defined(SYS_gettid)
	char digits[16];
	long t = syscall(SYS_gettid);
	size_t n = 0, k = 0;

	while (t > 0 && n < sizeof(digits)) {
		digits[n++] = (char)('0' + t % 10);
		t /= 10;
	}
	buf[k++] = ' ';
	while (n)
		buf[k++] = digits[--n];
	return k;
#else
	(void)buf;
	return 0;
#endif
}

/* One request and its answer, the channel held by this thread; a lost channel is off. */
static inline int pmuprof_region_call_(const char *verb, const char *name, int begin)
{
	struct pmuprof_region_chan_ *c = &pmuprof_region_chan_;
	char line[PMUPROF_REGION_NAME_MAX + 32];
	size_t vl = strlen(verb), nl = 0, len;
	int rc = pmuprof_region_name_(name, &nl);

	if (rc)
		return rc;
	while (__atomic_test_and_set(&c->lock, __ATOMIC_ACQUIRE))
		sched_yield();
	if (c->state == 0)
		pmuprof_region_init_(c);
	if (c->state == 2) {	/* perf: the outermost region is its one window */
		c->depth += begin ? 1 : -1;
		if ((begin && c->depth != 1) || (!begin && c->depth != 0)) {
			__atomic_clear(&c->lock, __ATOMIC_RELEASE);
			return 0;
		}
		verb = begin ? "enable" : "disable";
		vl = strlen(verb);
		nl = 0;
	}
	if (c->state > 0) {
		memcpy(line, verb, vl);
		len = vl;
		if (nl) {
			line[len++] = ' ';
			memcpy(line + len, name, nl);
			len += nl;
			len += pmuprof_region_tid_(line + len);
		}
		line[len++] = '\n';
		rc = pmuprof_region_write_(c->ctl, line, len);
		if (!rc)
			rc = pmuprof_region_answer_(c);
		if (rc && rc != -EINVAL)
			c->state = -1;	/* gone or silent: the calls after it do nothing */
	}
	__atomic_clear(&c->lock, __ATOMIC_RELEASE);
	return rc;
}

/* Marks the start of an execution of region name. */
static inline int pmuprof_region_begin(const char *name)
{
	if (__builtin_expect(pmuprof_region_chan_.state < 0, 1))
		return 0;
	return pmuprof_region_call_("begin", name, 1);
}

/* Marks the end of the innermost execution of region name begun before. */
static inline int pmuprof_region_end(const char *name)
{
	if (__builtin_expect(pmuprof_region_chan_.state < 0, 1))
		return 0;
	return pmuprof_region_call_("end", name, 0);
}

#endif
