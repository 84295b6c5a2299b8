/* SPDX-License-Identifier: Apache-2.0 */
/* suggest.c: ranks known names by edit distance to a misspelt one. */
#include <string.h>

#include "ascii.h"
#include "suggest.h"

#define SUGGEST_LEN_MAX 128

void suggest_init(struct suggest *s, const char *word)
{
	memset(s, 0, sizeof(*s));
	s->word = word;
}

/* Optimal string alignment (Levenshtein plus adjacent swaps), ignoring case; rows of three. */
int suggest_distance(const char *a, const char *b, int cap)
{
	size_t la = strlen(a), lb = strlen(b);
	int rows[3][SUGGEST_LEN_MAX + 1];
	int *pp = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > SUGGEST_LEN_MAX || lb > SUGGEST_LEN_MAX)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > (size_t)cap)
		return cap + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int rowmin;
		cur[0] = rowmin = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = ascii_tolower((unsigned char)a[i - 1]), cb = ascii_tolower((unsigned char)b[j - 1]);
			int d = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == ascii_tolower((unsigned char)b[j - 2]) &&
			    ascii_tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			cur[j] = d;
			if (d < rowmin)
				rowmin = d;
		}
		if (rowmin > cap)
			return cap + 1;
		int *t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void suggest_offer(struct suggest *s, const char *cand)
{
	size_t len = strlen(s->word);
	/* a typo: about one edit in three characters, at least two edits */
	int cap = len / 3 > 2 ? (int)(len / 3) : 2;
	int d, k;

	if (s->n == SUGGEST_MAX && s->dist[SUGGEST_MAX - 1] < cap)
		cap = s->dist[SUGGEST_MAX - 1];
	d = suggest_distance(s->word, cand, cap);
	if (d > cap || d == 0 || strlen(cand) >= SUGGEST_LEN)
		return;
	for (k = 0; k < s->n; k++)
		if (ascii_strcasecmp(s->best[k], cand) == 0)
			return;
	for (k = s->n; k > 0 && s->dist[k - 1] > d; k--)
		;
	if (k == SUGGEST_MAX)
		return;
	int last = s->n < SUGGEST_MAX ? s->n : SUGGEST_MAX - 1;
	memmove(&s->best[k + 1], &s->best[k], (size_t)(last - k) * sizeof(s->best[0]));
	memmove(&s->dist[k + 1], &s->dist[k], (size_t)(last - k) * sizeof(s->dist[0]));
	memcpy(s->best[k], cand, strlen(cand) + 1);
	s->dist[k] = d;
	if (s->n < SUGGEST_MAX)
		s->n++;
}
