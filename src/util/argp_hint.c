/* SPDX-License-Identifier: Apache-2.0 */
/* argp_hint.c: the stream argp writes usage errors to, which gives its hint as coreutils'
 * one line (include/argp_hint.h says why). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argp_hint.h"

/* What argp has written of the line it is on; argp writes one error at a time, and pmuprof
 * parses one command line at a time, so one is enough. */
static struct hint {
	char line[512];
	size_t n;
	int passing;	/* a line too long to be the hint: written through as it comes */
	int skipping;	/* what is left of argp's wrapped hint, already replaced */
} hint;

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* nowhere to say it */
		s += w;
		n -= (size_t)w;
	}
}

static int ends_with(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && memcmp(s + n - t, tail, t) == 0;
}

/* A whole line of argp's (without its newline): argp's hint, "Try `NAME --help' or `NAME
 * --usage' for more information." (cut where argp wraps it), becomes "Try 'NAME --help' for
 * more information."; any other line is written as it is. */
static void end_line(struct hint *h)
{
	static const char try[] = "Try `", tail[] = "information.";
	const char *name = h->line + sizeof(try) - 1, *q;

	if (h->skipping) {
		h->skipping = !ends_with(h->line, h->n, tail);
		return;
	}
	if (h->n > sizeof(try) - 1 && memcmp(h->line, try, sizeof(try) - 1) == 0 &&
	    (q = memchr(name, '\'', h->n - (size_t)(name - h->line)))) {
		put("Try '", 5);
		put(name, (size_t)(q - name));
		put("' for more information.\n", 24);
		h->skipping = !ends_with(h->line, h->n, tail);
		return;
	}
	put(h->line, h->n);
	put("\n", 1);
}

static ssize_t hint_write(void *cookie, const char *buf, size_t size)
{
	struct hint *h = cookie;
	const char *p = buf, *end = buf + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);

		if (h->passing) {
			put(p, len);
		} else if (h->n + len <= sizeof(h->line)) {
			memcpy(h->line + h->n, p, len);
			h->n += len;
		} else {
			put(h->line, h->n);
			put(p, len);
			h->passing = 1;
		}
		if (!nl)
			break;
		if (h->passing)
			put("\n", 1);
		else
			end_line(h);
		h->n = 0;
		h->passing = 0;
		p = nl + 1;
	}
	return (ssize_t)size;
}

/* A line argp left unended is written as it is. */
static int hint_close(void *cookie)
{
	struct hint *h = cookie;

	if (!h->passing)
		put(h->line, h->n);
	h->n = 0;
	return 0;
}

/* The stream, made on the first parse and kept for the next (main's, then its command's):
 * one stream a run, closed at exit, also when argp exits on a usage error (valgrind counts a
 * stream left open as a leak). What argp writes waits in its buffer until then, after
 * getopt's own line on stderr: a run without a usage error writes nothing, and allocates
 * no buffer. */
static FILE *stream;

static void hint_done(void)
{
	if (stream)
		fclose(stream);
	stream = NULL;
}

static FILE *argp_hint_stream(void)
{
	static const cookie_io_functions_t io = { .write = hint_write, .close = hint_close };

	memset(&hint, 0, sizeof(hint));
	if (stream || !(stream = fopencookie(&hint, "w", io)))
		return stream;
	atexit(hint_done);
	return stream;
}

/* The parser above the command's: it hands the command its input and has argp write usage
 * errors through argp_hint_stream. */
static error_t outer_parse(int key, char *arg, struct argp_state *state)
{
	FILE *err;

	(void)arg;
	if (key != ARGP_KEY_INIT)
		return ARGP_ERR_UNKNOWN;
	state->child_inputs[0] = state->input;
	if (!(state->flags & ARGP_NO_ERRS) && (err = argp_hint_stream()))
		state->err_stream = err;
	return 0;
}

error_t argp_hint_parse(const struct argp *argp, int argc, char **argv, unsigned flags,
			void *input)
{
	struct argp_child child[2] = { { .argp = argp } };
	const struct argp outer = { .parser = outer_parse, .children = child };

	return argp_parse(&outer, argc, argv, flags, NULL, input);
}
