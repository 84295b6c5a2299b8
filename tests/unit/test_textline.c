/* test_textline.c: strjoin held to snprintf's "%s%s%s" with every cut. */
#include <stdio.h>
#include <string.h>

#include "strbuf.h"
#include "tap.h"

static void test_join(void)
{
	const char *const parts[] = { "neoverse-n1", ":r", "", "3p1", " and more" };
	char want[64], got[64];
	int bad = 0;

	for (size_t n = 0; n <= 5; n++)
		for (size_t len = 0; len <= 40; len++) {
			int w = 0;
			size_t g;

			memset(want, 'x', sizeof(want));
			memset(got, 'x', sizeof(got));
			switch (n) {	/* snprintf with as many %s as parts */
			case 0: w = snprintf(want, len, "%s", ""); break;
			case 1: w = snprintf(want, len, "%s", parts[0]); break;
			case 2: w = snprintf(want, len, "%s%s", parts[0], parts[1]); break;
			case 3: w = snprintf(want, len, "%s%s%s", parts[0], parts[1], parts[2]); break;
			case 4: w = snprintf(want, len, "%s%s%s%s", parts[0], parts[1], parts[2],
					     parts[3]); break;
			default: w = snprintf(want, len, "%s%s%s%s%s", parts[0], parts[1], parts[2],
					      parts[3], parts[4]); break;
			}
			g = strjoin(got, len, parts, n);
			if (g != (size_t)w || memcmp(got, want, sizeof(got)) != 0) {
				printf("# %zu parts into %zu bytes: %zu '%.*s', snprintf %d '%.*s'\n", n,
				       len, g, (int)len, got, w, (int)len, want);
				bad++;
			}
		}
	tap_ok(bad == 0, "strjoin writes and returns what snprintf does, cut at every length "
	       "(%d differ)", bad);
}

int main(void)
{
	test_join();
	return tap_done();
}
