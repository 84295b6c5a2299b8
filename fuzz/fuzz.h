/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.h: what the fuzz targets share: libFuzzer's entry points and an invariant check that
 * crashes (so libFuzzer and the replay runner both see it) with the broken condition named. */
#ifndef PMUPROF_FUZZ_H
#define PMUPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_CHECK(cond)                                                                    \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
				#cond);                                                     \
			abort();                                                            \
		}                                                                           \
	} while (0)

#endif
