/* SPDX-License-Identifier: Apache-2.0 */
/* serve_webcfg.c: the part of Prometheus exporter-toolkit's web config file that pmuprof
 * serve reads: tls_server_config's cert_file and key_file, and basic_auth_users with their
 * bcrypt hashes. A YAML subset, read line by line: a key pmuprof does not know is refused,
 * as exporter-toolkit refuses one (a setting silently ignored would be a hole). */
#include <crypt.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

void serve_webcfg_free(struct serve_webcfg *w)
{
	free(w->cert_file);
	free(w->key_file);
	free(w->cert);
	free(w->key);
	for (size_t k = 0; k < w->nusers; k++) {
		free(w->users[k].name);
		free(w->users[k].hash);
	}
	free(w->users);
	*w = (struct serve_webcfg){ 0 };
}

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A scalar in place: unquoted (its trailing blanks cut), '...' ('' is a quote) or "..."
 * (\\ and \" escaped). NULL when a quote is not closed or text follows it. */
static char *scalar(char *v)
{
	char q = *v, *r, *w;

	if (q != '\'' && q != '"') {
		size_t n = strlen(v);

		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			v[--n] = '\0';
		return v;
	}
	for (r = w = v + 1; *r; r++) {
		if (q == '\'' && r[0] == '\'' && r[1] == '\'')
			r++;
		else if (q == '"' && r[0] == '\\' && (r[1] == '\\' || r[1] == '"'))
			r++;
		else if (*r == q)
			break;
		*w++ = *r;
	}
	if (*r != q || r[1 + strspn(r + 1, " \t")])
		return NULL;
	*w = '\0';
	return v + 1;
}

/* A comment's start (a # at the line's start or after a blank, outside quotes) cut off. */
static void uncomment(char *s)
{
	char q = 0;

	for (char *p = s; *p; p++) {
		if (q) {
			q = *p == q ? 0 : q;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
	}
}

static char *path_in(const char *dir, const char *v)
{
	char *p;

	if (v[0] == '/' || !dir)
		return strdup(v);
	return asprintf(&p, "%s/%s", dir, v) < 0 ? NULL : p;
}

enum section { SEC_NONE, SEC_TLS, SEC_USERS };

/* One key: value line inside a section; -1 with why. */
static int entry(struct serve_webcfg *w, enum section sec, const char *key, const char *v,
		 const char *dir, int line, char *why, size_t len)
{
	char **to = NULL;
	struct serve_user *u;

	if (sec == SEC_TLS && !strcmp(key, "cert_file"))
		to = &w->cert_file;
	else if (sec == SEC_TLS && !strcmp(key, "key_file"))
		to = &w->key_file;
	else if (sec == SEC_TLS)
		return fail(why, len, "line %d: tls_server_config.%s is not supported by pmuprof "
			    "serve (only cert_file and key_file)", line, key);
	if (!*v)
		return fail(why, len, "line %d: '%s' has no value", line, key);
	if (to) {
		free(*to);
		return (*to = path_in(dir, v)) ? 0 : fail(why, len, "out of memory");
	}
	if (strncmp(v, "$2a$", 4) && strncmp(v, "$2b$", 4) && strncmp(v, "$2y$", 4))
		return fail(why, len, "line %d: the password of user '%s' is not a bcrypt hash "
			    "(make one with 'htpasswd -nBC 10 USER')", line, key);
	if (!(u = realloc(w->users, (w->nusers + 1) * sizeof(*u))))
		return fail(why, len, "out of memory");
	w->users = u;
	u = &u[w->nusers];
	u->name = strdup(key);
	u->hash = strdup(v);
	w->nusers++;
	return u->name && u->hash ? 0 : fail(why, len, "out of memory");
}

/* A top-level key: the section it opens; -1 with why. */
static int section_of(const char *key, const char *v, int line, enum section *sec, char *why,
		      size_t len)
{
	if (*v && strcmp(v, "{}") && strcmp(v, "null"))
		return fail(why, len, "line %d: '%s' takes indented entries, not a value", line,
			    key);
	if (!strcmp(key, "tls_server_config"))
		*sec = SEC_TLS;
	else if (!strcmp(key, "basic_auth_users"))
		*sec = SEC_USERS;
	else
		return fail(why, len, "line %d: '%s' is not supported by pmuprof serve (only "
			    "tls_server_config and basic_auth_users)", line, key);
	return 0;
}

/* One line (its number: line), comments cut; -1 with why. */
static int parse_line(struct serve_webcfg *w, char *s, int line, const char *dir,
		      enum section *sec, char *why, size_t len)
{
	size_t ind = strspn(s, " ");
	char *key = s + ind, *colon, *v;

	uncomment(s);
	if (!key[strspn(key, " \t\r")])
		return 0;
	if (key[0] == '\t' || strchr(s, '\r'))
		return fail(why, len, "line %d: tabs and carriage returns are not YAML "
			    "indentation (indent with spaces)", line);
	if (!strcmp(key, "---") && !ind)
		return 0;
	if (!(colon = strchr(key, ':')) || (colon[1] && colon[1] != ' '))
		return fail(why, len, "line %d: expected 'key: value'", line);
	*colon = '\0';
	v = colon + 1 + strspn(colon + 1, " ");
	if (!(key = scalar(key)) || !(v = scalar(v)))
		return fail(why, len, "line %d: a quote is not closed", line);
	if (!ind)
		return section_of(key, v, line, sec, why, len);
	if (*sec == SEC_NONE)
		return fail(why, len, "line %d: an indented entry outside a section", line);
	return entry(w, *sec, key, v, dir, line, why, len);
}

int serve_webcfg_parse(const char *text, const char *dir, struct serve_webcfg *w, char *why,
		       size_t len)
{
	char *copy = strdup(text), *s, *next;
	enum section sec = SEC_NONE;
	int line = 0, rc = 0;

	*w = (struct serve_webcfg){ 0 };
	if (!copy)
		return fail(why, len, "out of memory");
	for (s = copy; s && rc == 0; s = next) {
		if ((next = strchr(s, '\n')))
			*next++ = '\0';
		rc = parse_line(w, s, ++line, dir, &sec, why, len);
	}
	free(copy);
	if (rc == 0 && !w->cert_file != !w->key_file)
		rc = fail(why, len, "tls_server_config needs both cert_file and key_file");
	if (rc)
		serve_webcfg_free(w);
	return rc;
}

/* A whole file into *out (NUL-terminated); errno's value or 0. A web config or a key is
 * small: 1 MiB bounds it. */
static int slurp(const char *path, char **out)
{
	FILE *f = fopen(path, "re");
	size_t n = 0, cap = 1 << 20;
	char *b;
	int e = 0;

	if (!f)
		return errno;
	if (!(b = malloc(cap + 1)))
		e = ENOMEM;
	else if ((n = fread(b, 1, cap + 1, f)) > cap)
		e = EFBIG;
	else if (ferror(f))
		e = EIO;
	fclose(f);
	if (e) {
		free(b);
		return e;
	}
	b[n] = '\0';
	*out = b;
	return 0;
}

int serve_webcfg_load(const char *path, struct serve_webcfg *w, char *why, size_t len)
{
	char *text = NULL, *dir = strdup(path), *slash;
	int e, rc = -1;

	*w = (struct serve_webcfg){ 0 };
	if (!dir)
		return fail(why, len, "out of memory");
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	if ((e = slurp(path, &text)))
		fail(why, len, "cannot read web config '%s': %s", path, strerror(e));
	else if (serve_webcfg_parse(text, slash ? dir : ".", w, why, len) == 0)
		rc = 0;
	if (rc == 0 && w->cert_file && (e = slurp(w->cert_file, &w->cert)))
		rc = fail(why, len, "cannot read cert_file '%s': %s", w->cert_file, strerror(e));
	if (rc == 0 && w->key_file && (e = slurp(w->key_file, &w->key)))
		rc = fail(why, len, "cannot read key_file '%s': %s", w->key_file, strerror(e));
	if (rc)
		serve_webcfg_free(w);
	free(text);
	free(dir);
	return rc;
}

int serve_webcfg_check(const struct serve_webcfg *w, const char *user, const char *password)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	int ok = 0;

	for (size_t k = 0; cd && k < w->nusers; k++) {
		const char *h;
		size_t n = strlen(w->users[k].hash);
		unsigned char diff = 0;

		if (strcmp(w->users[k].name, user) && k + 1 < w->nusers)
			continue;
		h = crypt_r(password, w->users[k].hash, cd);
		/* an unknown user costs a hash too: the time does not tell who exists */
		if (strcmp(w->users[k].name, user))
			break;
		if (!h || strlen(h) != n)
			break;
		for (size_t i = 0; i < n; i++)	/* in a time that does not depend on the match */
			diff |= (unsigned char)(h[i] ^ w->users[k].hash[i]);
		ok = !diff;
		break;
	}
	free(cd);
	return ok;
}
