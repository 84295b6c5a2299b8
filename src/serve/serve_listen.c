/* SPDX-License-Identifier: Apache-2.0 */
/* serve_listen.c: --listen ADDR:PORT into a listening socket, made by pmuprof rather than by
 * libmicrohttpd so that a reload of the web config keeps the port bound. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve.h"

/* Splits spec into host (NULL: every address) and port; -1 when it has no port. */
static int split(const char *spec, char *host, size_t hlen, const char **port)
{
	const char *colon;

	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (!end || end[1] != ':' || (size_t)(end - spec) > hlen)
			return -1;
		snprintf(host, hlen, "%.*s", (int)(end - spec - 1), spec + 1);
		*port = end + 2;
		return **port ? 0 : -1;
	}
	if (!(colon = strrchr(spec, ':')) || !colon[1] || (size_t)(colon - spec) >= hlen ||
	    memchr(spec, ':', (size_t)(colon - spec)))
		return -1;
	snprintf(host, hlen, "%.*s", (int)(colon - spec), spec);
	*port = colon + 1;
	return 0;
}

/* The address fd is bound to, as ADDR:PORT. */
static void bound_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[INET6_ADDRSTRLEN], port[8];

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

int serve_listen(const char *spec, char *bound, size_t blen, char *why, size_t len)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
				  .ai_socktype = SOCK_STREAM }, *ai = NULL;
	char host[INET6_ADDRSTRLEN + 1];
	const char *port;
	int fd = -1, one = 1, e;

	if (split(spec, host, sizeof(host), &port) != 0) {
		snprintf(why, len, "cannot use listen address '%s': expected ADDR:PORT, "
			 "[ADDR6]:PORT or :PORT (every address)", spec);
		return -1;
	}
	if ((e = getaddrinfo(*host ? host : NULL, port, &hints, &ai)) != 0) {
		snprintf(why, len, "cannot use listen address '%s': %s (give a numeric address "
			 "and port)", spec, gai_strerror(e));
		return -1;
	}
	if ((fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
		e = errno;
		snprintf(why, len, "cannot listen on '%s': %s%s", spec, strerror(e),
			 e == EADDRINUSE ? " (another server has the port: choose another with "
			 "--listen)" : "");
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	bound_name(fd, bound, blen);
	return fd;
}
