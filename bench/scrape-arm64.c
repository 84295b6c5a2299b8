/* SPDX-License-Identifier: Apache-2.0 */
/* scrape-arm64.c: the scraper of serve's benchmark in the arm64 guest (bench/arm64-smp,
 * tests/arm64/guest/cases-bench-smp). Sends N GETs of /metrics to 127.0.0.1:PORT over one
 * keep-alive connection, as Prometheus does (a new one when an answer says "Connection:
 * close", or when serve closed the connection while it idled past its --timeout), each after
 * the previous answer was read whole (by its Content-Length), GAP_MS apart, and prints
 * "N NS BYTES": the guest nanoseconds the
 * N took (CLOCK_MONOTONIC: under -icount shift=0 a nanosecond per instruction the machine
 * executed) and the size of the last body. Static, no libc name lookup: busybox's wget costs
 * a fork and an exec a scrape. Exits 1 with a line on stderr when a scrape fails.
 * Usage: scrape-arm64 PORT N [GAP_MS] */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 20];

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct sockaddr_in addr = { .sin_family = AF_INET };

/* A connection to addr: its descriptor, or -1. */
static int dial(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One GET on *fd (-1: connect first): the body's length, or -1 when the answer is not a 200
 * with a length. *fd is -1 after it when the server closes the connection. */
static long get(int *fd)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
	size_t have = 0, head, body;
	char *end, *cl;
	ssize_t n;

	if (*fd < 0 && (*fd = dial()) < 0)
		return -1;
	if (write(*fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1)
		return -1;
	for (;;) {	/* the header */
		n = read(*fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			return -1;
		have += (size_t)n;
		buf[have] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")))
			break;
	}
	head = (size_t)(end - buf) + 4;
	if (strncmp(buf, "HTTP/1.1 200", 12) || !(cl = strcasestr(buf, "\r\ncontent-length:")) ||
	    cl > end)
		return -1;
	body = strtoul(cl + 17, NULL, 10);
	if (head + body >= sizeof(buf))
		return -1;
	while (have < head + body) {
		n = read(*fd, buf + have, head + body - have);
		if (n <= 0)
			return -1;
		have += (size_t)n;
	}
	cl = strcasestr(buf, "\r\nconnection: close\r\n");
	if (cl && cl < end) {
		close(*fd);
		*fd = -1;
	}
	return have == head + body ? (long)body : -1;
}

int main(int argc, char **argv)
{
	struct timespec gap;
	long n, ms, len = 0;
	long long t0;
	int fd = -1;

	if (argc < 3) {
		fprintf(stderr, "usage: scrape-arm64 PORT N [GAP_MS]\n");
		return 2;
	}
	addr.sin_port = htons((unsigned short)atoi(argv[1]));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	n = atol(argv[2]);
	ms = argc > 3 ? atol(argv[3]) : 0;
	gap = (struct timespec){ ms / 1000, ms % 1000 * 1000000 };
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (i && ms)
			nanosleep(&gap, NULL);
		int kept = fd >= 0;

		errno = 0;
		if ((len = get(&fd)) < 0 && kept) {
			/* serve closed the idle connection: a new one, as an HTTP client retries an
			 * idempotent GET */
			close(fd);
			fd = -1;
			errno = 0;
			len = get(&fd);
		}
		if (len < 0) {
			fprintf(stderr, "scrape-arm64: scrape %ld of %ld from 127.0.0.1:%s failed%s%s\n",
				i + 1, n, argv[1], errno ? ": " : "", errno ? strerror(errno) : "");
			return 1;
		}
	}
	printf("%ld %lld %ld\n", n, now_ns() - t0, len);
	if (fd >= 0)
		close(fd);
	return 0;
}
