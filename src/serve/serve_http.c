/* SPDX-License-Identifier: Apache-2.0 */
/* serve_http.c: pmuprof serve's HTTP server, libmicrohttpd in one thread of its own polling
 * every connection (a slow client holds a slot, never the thread): GET and HEAD on /metrics
 * and a landing page on /, 405 for other methods, 404 for other paths; basic auth and TLS
 * from the web config. Bounded: connections, bytes per connection (the request header must
 * fit), idle time, and each request's whole time (serve_http_reap). */
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "serve.h"


/* A connection's clock: when it began waiting for a request, or when its request came. */
struct slot {
	int fd;
	time_t since;
};

struct serve_http {
	struct MHD_Daemon *d;
	struct serve_http_cfg c;
	pthread_mutex_t lock;	/* slots: the server's thread and the reaper's */
	struct slot *slots;
	size_t nslots;
};

static const char landing[] =
	"<!DOCTYPE html>\n<html><head><title>pmuprof serve</title></head><body>\n"
	"<h1>pmuprof serve</h1>\n<p>Arm PMU counters for Prometheus: "
	"<a href=\"/metrics\">/metrics</a>.</p>\n</body></html>\n";

static time_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Sets the clock of the connection on fd (adds it when new, drops it when gone). */
static void clock_set(struct serve_http *h, int fd, int gone)
{
	size_t k;

	pthread_mutex_lock(&h->lock);
	for (k = 0; k < h->nslots && h->slots[k].fd != fd; k++)
		;
	if (gone && k < h->nslots)
		h->slots[k] = h->slots[--h->nslots];
	else if (!gone && k < h->nslots)
		h->slots[k].since = now();
	else if (!gone && h->nslots < SERVE_CONNS_MAX)
		h->slots[h->nslots++] = (struct slot){ fd, now() };
	pthread_mutex_unlock(&h->lock);
}

static int fd_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

	return i ? (int)i->connect_fd : -1;
}

static void notify(void *cls, struct MHD_Connection *conn, void **ctx,
		   enum MHD_ConnectionNotificationCode toe)
{
	(void)ctx;
	clock_set(cls, fd_of(conn), toe == MHD_CONNECTION_NOTIFY_CLOSED);
}

/* A request answered: the connection waits for the next one from now. */
static void completed(void *cls, struct MHD_Connection *conn, void **ctx,
		      enum MHD_RequestTerminationCode toe)
{
	(void)ctx;
	(void)toe;
	clock_set(cls, fd_of(conn), 0);
}

void serve_http_reap(struct serve_http *h)
{
	time_t t = now();

	pthread_mutex_lock(&h->lock);
	for (size_t k = 0; k < h->nslots; k++)
		if (t - h->slots[k].since > (time_t)h->c.timeout_s) {
			/* the server's thread sees the end and closes it */
			shutdown(h->slots[k].fd, SHUT_RDWR);
			h->slots[k].since = t;
		}
	pthread_mutex_unlock(&h->lock);
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned code, void *body,
			     size_t len, enum MHD_ResponseMemoryMode mode, const char *type,
			     const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *conn, unsigned code, const char *msg,
			    const char *allow)
{
	return reply(conn, code, (void *)msg, strlen(msg), MHD_RESPMEM_PERSISTENT,
		     "text/plain; charset=utf-8", allow);
}

/* Basic auth against the web config's users: 1 when it passes (or none is asked for). */
static int authorized(const struct serve_http *h, struct MHD_Connection *conn)
{
	char *pass = NULL, *user;
	int ok;

	if (!h->c.web || !h->c.web->nusers)
		return 1;
	user = MHD_basic_auth_get_username_password(conn, &pass);
	ok = user && pass && serve_webcfg_check(h->c.web, user, pass);
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static enum MHD_Result metrics(struct serve_http *h, struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	enum serve_format f = serve_format_of(accept);
	char *body = NULL;
	size_t len = 0;

	if (h->c.scrape(h->c.arg, f, &body, &len) != 0)
		return text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "scrape failed: out of memory\n",
			    NULL);
	return reply(conn, MHD_HTTP_OK, body, len, MHD_RESPMEM_MUST_FREE, serve_content_type(f),
		     NULL);
}

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *conn, const char *url,
				 const char *method, const char *version,
				 const char *upload, size_t *upload_size, void **ctx)
{
	struct serve_http *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	int get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);

	(void)version;
	(void)upload;
	/* GET and HEAD are answered once the request is whole (libmicrohttpd's second call): an
	 * answer queued on the first call, with only the headers read, closes the connection,
	 * and Prometheus keeps its connection from one scrape to the next. Another method is
	 * refused at once, its body never read. */
	if (get && !*ctx) {
		*ctx = h;
		return MHD_YES;
	}
	if (get && *upload_size) {	/* a body a GET should not have: dropped */
		*upload_size = 0;
		return MHD_YES;
	}
	clock_set(h, fd_of(conn), 0);	/* the answer has the request's time again */
	if (!authorized(h, conn)) {
		if (!(r = MHD_create_response_from_buffer(13, (void *)"unauthorized\n",
							  MHD_RESPMEM_PERSISTENT)))
			return MHD_NO;
		ret = MHD_queue_basic_auth_fail_response(conn, "pmuprof", r);
		MHD_destroy_response(r);
		return ret;
	}
	if (strcmp(url, "/metrics") && strcmp(url, "/"))
		return text(conn, MHD_HTTP_NOT_FOUND, "not found: pmuprof serves /metrics\n",
			    NULL);
	if (!get)
		return text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "method not allowed: only GET and HEAD\n", "GET, HEAD");
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK, (void *)landing, sizeof(landing) - 1,
			     MHD_RESPMEM_PERSISTENT, "text/html; charset=utf-8", NULL);
	return metrics(h, conn);
}

/* libmicrohttpd's own messages, one line each. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	const struct serve_http *h = cls;
	char line[256];
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strcspn(line, "\n");
	line[n] = '\0';
	if (h->c.log && n)
		h->c.log(line);
}

struct serve_http *serve_http_start(const struct serve_http_cfg *c, char *why, size_t len)
{
	struct serve_http *h = calloc(1, sizeof(*h));
	const struct serve_webcfg *w = c->web;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_AUTO |
			 MHD_USE_ERROR_LOG;

	if (!h || !(h->slots = calloc(SERVE_CONNS_MAX, sizeof(*h->slots)))) {
		free(h);
		snprintf(why, len, "out of memory");
		return NULL;
	}
	h->c = *c;
	pthread_mutex_init(&h->lock, NULL);
	if (w && w->cert)
		flags |= MHD_USE_TLS;
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, access_cb, h,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
				MHD_OPTION_LISTEN_SOCKET, (MHD_socket)c->listen_fd,
				MHD_OPTION_CONNECTION_LIMIT, c->max_conns,
				MHD_OPTION_CONNECTION_TIMEOUT, c->timeout_s,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, c->mem_limit,
				MHD_OPTION_NOTIFY_CONNECTION, notify, h,
				MHD_OPTION_NOTIFY_COMPLETED, completed, h,
				w && w->cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END,
				w ? w->cert : NULL, MHD_OPTION_HTTPS_MEM_KEY, w ? w->key : NULL,
				MHD_OPTION_END);
	if (!h->d) {
		snprintf(why, len, "libmicrohttpd could not start%s", w && w->cert ?
			 " (is the key the certificate's, both in PEM?)" : "");
		pthread_mutex_destroy(&h->lock);
		free(h->slots);
		free(h);
		return NULL;
	}
	return h;
}

void serve_http_stop(struct serve_http *h)
{
	if (!h)
		return;
	MHD_quiesce_daemon(h->d);	/* the listening socket stays the caller's */
	MHD_stop_daemon(h->d);
	pthread_mutex_destroy(&h->lock);
	free(h->slots);
	free(h);
}
