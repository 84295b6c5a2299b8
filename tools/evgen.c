/* SPDX-License-Identifier: Apache-2.0 */
/* tools/evgen.c: the event-table generator's driver: read, check, lay out, write the tables.
 *
 * usage: evgen -o OUT.c -H OUT.h FILE.ev... [FILE.metrics...]
 *
 * Runs on the build machine (HOSTCC). The format of the input is documented in events/README.md.
 * Every problem is reported as "FILE:LINE: message" on stderr and all of them are reported
 * before exiting with status 1; nothing is written unless the input is clean. The output is
 * reproducible: input files are read in sorted order, tables are sorted, and the banner names
 * the inputs but carries no date or path of the build directory.
 *
 * The stages: evgen_parse.c and evgen_mparse.c (lines -> records), evgen_check.c and
 * evgen_mcheck.c (checks across records; formulas through src/metrics/mexpr.c), evgen_layout.c and
 * evgen_mlayout.c (records -> offsets and indexes), evgen_emit.c (-> C).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen.h"

void evgen_error(struct evgen_db *db, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "evgen: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	db->nerrors++;
}

void *evgen_grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(p, *cap * size);
	if (!p) {
		perror("evgen");
		exit(2);
	}
	return p;
}

void *evgen_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p) {
		perror("evgen");
		exit(2);
	}
	return p;
}

/* Writes through a temporary file and renames it, so a failed run leaves no half table. */
static int write_file(const char *path, void (*emit)(FILE *, const struct evgen_out *),
		      const struct evgen_out *out)
{
	char tmp[4096];
	FILE *o;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	o = fopen(tmp, "w");
	if (!o) {
		fprintf(stderr, "evgen: cannot write '%s': %s\n", tmp, strerror(errno));
		return -1;
	}
	emit(o, out);
	if (ferror(o) | fclose(o) || rename(tmp, path)) {
		fprintf(stderr, "evgen: cannot write '%s': %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int too_many_events(const struct evgen_db *db)
{
	size_t i, n = db->ncommons;
	for (i = 0; i < db->ncores; i++)
		n += db->cores[i].nown + db->cores[i].nrefs;
	return n > 0xFFFF;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int usage(void)
{
	fputs("usage: evgen -o OUT.c -H OUT.h FILE.ev... [FILE.metrics...]\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *out_c = NULL, *out_h = NULL;
	struct evgen_db db = { 0 };
	struct evgen_out out;
	int i = 1, nfiles, rc;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out_c = argv[i + 1];
		else if (!strcmp(argv[i], "-H"))
			out_h = argv[i + 1];
		else
			return usage();
	}
	if (!out_c || !out_h || i >= argc)
		return usage();
	nfiles = argc - i;
	qsort(argv + i, (size_t)nfiles, sizeof(*argv), str_cmp);
	for (int k = i; k < argc; k++) {
		size_t len = strlen(argv[k]);

		if (len > 8 && !strcmp(argv[k] + len - 8, ".metrics"))
			evgen_read_metrics(&db, argv[k]);
		else if (len > 4 && !strcmp(argv[k] + len - 4, ".tsv"))
			evgen_read_aliases(&db, argv[k]);
		else
			evgen_read_file(&db, argv[k]);
	}
	evgen_check(&db);
	evgen_check_aliases(&db);
	evgen_check_metrics(&db);
	if (too_many_events(&db))
		fputs("evgen: more than 65535 events: the tables index them with 16 bits\n", stderr);
	if (too_many_events(&db) || db.nerrors) {
		fprintf(stderr, "evgen: %d error%s, no tables written\n", db.nerrors,
			db.nerrors == 1 ? "" : "s");
		return 1;
	}
	evgen_layout(&db, argv + i, nfiles, &out);
	if (!evgen_layout_fits(&out)) {
		evgen_layout_regions_free();
		evgen_layout_free(&out);
		return 1;
	}
	rc = write_file(out_h, evgen_emit_header, &out) || write_file(out_c, evgen_emit_source, &out);
	evgen_layout_regions_free();
	evgen_layout_free(&out);
	return rc ? 1 : 0;
}
