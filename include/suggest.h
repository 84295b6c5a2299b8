/* SPDX-License-Identifier: Apache-2.0 */
/* suggest.h: the closest known names to a misspelt one (edit distance), for "did you mean". */
#ifndef PMUPROF_SUGGEST_H
#define PMUPROF_SUGGEST_H

#include <stddef.h>

#define SUGGEST_MAX 3
#define SUGGEST_LEN 64

struct suggest {
	const char *word;		/* what the user typed */
	char best[SUGGEST_MAX][SUGGEST_LEN];	/* copies of the candidates, closest first */
	int dist[SUGGEST_MAX];
	int n;
};

void suggest_init(struct suggest *s, const char *word);
/* Offers a candidate; kept if it is among the closest and close enough to be a likely typo. */
void suggest_offer(struct suggest *s, const char *candidate);
/* Case-insensitive optimal string alignment distance, capped at cap+1 for speed. */
int suggest_distance(const char *a, const char *b, int cap);

#endif
