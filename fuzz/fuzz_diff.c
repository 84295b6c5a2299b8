/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_diff.c: libFuzzer target for the reader of saved reports behind `pmuprof diff` and
 * `pmuprof report`: the input is written to a file read by diff_read (report_read); a report
 * that reads is printed again by stat's writers, compared with itself and printed in every
 * diff format, so what the reader accepts is checked to be usable downstream. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff.h"
#include "fuzz.h"

static char path[64];
static FILE *sink;

static void remove_file(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/ppfuzz-diff.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (strlen(path) > 40 || (fd = mkstemp(path)) < 0 || !(sink = fopen("/dev/null", "w"))) {
		fprintf(stderr, "fuzz_diff: cannot make a temporary file\n");
		exit(1);
	}
	close(fd);
	atexit(remove_file);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diff_input in;
	struct diff_why why;
	struct diff_result r;
	struct diff_opts o = { .threshold_pct = DIFF_DEFAULT_THRESHOLD,
			       .alpha = DIFF_DEFAULT_ALPHA };
	enum diff_err rc;
	FILE *f;

	if (!path[0])
		LLVMFuzzerInitialize(NULL, NULL);
	if (!(f = fopen(path, "wb")))
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	rc = diff_read(path, REPORT_READ_ESCAPE, &in, &why);
	if (rc != DIFF_OK) {
		/* on error the input is empty (diff.h) */
		FUZZ_CHECK(in.saved.root == NULL && in.events == NULL && in.nevents == 0);
		FUZZ_CHECK(rc == DIFF_ERR_READ || rc == DIFF_ERR_NOMEM);
		return 0;
	}
	/* what the reader accepts, pmuprof report prints with stat's writers */
	report_text(&in.saved.r, sink);
	report_csv(&in.saved.r, sink, ",");
	report_json(&in.saved.r, sink);
	for (size_t k = 0; k < in.nevents; k++) {
		FUZZ_CHECK(in.events[k].name && in.events[k].unit && in.events[k].status);
		FUZZ_CHECK(!in.events[k].has || in.events[k].sum.n >= 1);
	}
	rc = diff_compare(&in, &in, &o, &r, &why);
	FUZZ_CHECK(rc == DIFF_OK || rc == DIFF_ERR_NO_COMMON || rc == DIFF_ERR_NOMEM);
	if (rc == DIFF_OK) {
		/* a report compared with itself has no regression and no improvement */
		FUZZ_CHECK(r.count[DIFF_REGRESSION] == 0 && r.count[DIFF_IMPROVEMENT] == 0);
		diff_text(&r, sink);
		diff_markdown(&r, sink);
		diff_json(&r, sink);
	}
	diff_result_free(&r);
	diff_input_free(&in);
	return 0;
}
