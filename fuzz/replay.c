/* SPDX-License-Identifier: Apache-2.0 */
/* replay.c: a main() for the fuzz targets without libFuzzer, so any compiler (gcc in
 * `make check`) runs a target once over each file named: the corpus and every crash ever
 * found (fuzz/replay.sh prints the TAP). A broken invariant or a crash ends the process. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

/* Targets that need no set-up do not define it; the weak default does nothing. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *p;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			if (!(p = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	int failed = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int k = 1; k < argc; k++) {
		size_t len = 0;
		unsigned char *data = slurp(argv[k], &len);

		if (!data) {
			fprintf(stderr, "replay: cannot read '%s'\n", argv[k]);
			failed = 1;
			continue;
		}
		LLVMFuzzerTestOneInput(data, len);
		free(data);
	}
	return failed;
}
