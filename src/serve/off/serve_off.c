/* SPDX-License-Identifier: Apache-2.0 */
/* serve_off.c: pmuprof serve's HTTP server and web config in a build without libmicrohttpd
 * and libcrypt (make SERVE_HTTP=no, as cross builds whose sysroot lacks them): serve still
 * parses its options and opens its counters, then says why it cannot serve. */
#include <stdio.h>

#include "serve.h"

static const char off[] = "this pmuprof was built without libmicrohttpd (make SERVE_HTTP=no): "
			  "build it with libmicrohttpd-dev and libcrypt-dev installed";

struct serve_http *serve_http_start(const struct serve_http_cfg *c, char *why, size_t len)
{
	(void)c;
	snprintf(why, len, "%s", off);
	return NULL;
}

void serve_http_reap(struct serve_http *h)
{
	(void)h;
}

void serve_http_stop(struct serve_http *h)
{
	(void)h;
}

int serve_webcfg_parse(const char *text, const char *dir, struct serve_webcfg *w, char *why,
		       size_t len)
{
	(void)text;
	(void)dir;
	*w = (struct serve_webcfg){ 0 };
	snprintf(why, len, "%s", off);
	return -1;
}

int serve_webcfg_load(const char *path, struct serve_webcfg *w, char *why, size_t len)
{
	return serve_webcfg_parse(path, NULL, w, why, len);
}

int serve_webcfg_check(const struct serve_webcfg *w, const char *user, const char *password)
{
	(void)w;
	(void)user;
	(void)password;
	return 0;
}

void serve_webcfg_free(struct serve_webcfg *w)
{
	*w = (struct serve_webcfg){ 0 };
}
