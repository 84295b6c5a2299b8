/* test_textline.c: the copying formatters that keep printf out of a run (issue 16) held to
 * printf itself: textline_fixed to "%.*f" on edge cases and on a million random doubles of
 * every magnitude a report shows, strjoin to snprintf's "%s%s%s" with every cut. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"
#include "tap.h"
#include "textline.h"

static uint64_t seed = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* 1 when textline_fixed gives what printf gives, or declines; *declined counts the latter */
static int fixed_agrees(double v, int prec, int *declined)
{
	char buf[TEXTLINE_FIXED_LEN], want[400];
	const char *got = textline_fixed(v, prec, buf);

	snprintf(want, sizeof(want), "%.*f", prec, v);
	if (!got) {
		(*declined)++;
		return 1;
	}
	if (!strcmp(got, want))
		return 1;
	printf("# %.17g with %d decimals: '%s', printf '%s'\n", v, prec, got, want);
	return 0;
}

static void test_fixed(void)
{
	static const double edge[] = {
		0, -0.0, 1, -1, 0.5, 1.5, 2.5, 0.125, 0.375, 1.0005, 0.0005, 0.00049999999999999,
		999.9995, 1e-300, -1e-300, 123456789.123456789, 4503599627370495.0, 1e15, 1e16,
		0.1, 0.2, 0.3, 2.675, 1.005, 1e-9, 5e-10, 4.9999999999e-10, 99.995, 99.994999,
		NAN, INFINITY, -INFINITY, 1.7976931348623157e308,
	};
	int bad = 0, declined = 0, n = 0;

	for (size_t k = 0; k < sizeof(edge) / sizeof(edge[0]); k++)
		for (int prec = 0; prec <= 9; prec++, n++)
			bad += !fixed_agrees(edge[k], prec, &declined);
	for (int r = 0; r < 1000000; r++, n++) {
		uint64_t x = rnd();
		/* magnitudes 1e-12 to 1e17, a random mantissa, either sign */
		double v = ldexp((double)(x >> 11) / 9007199254740992.0, (int)(x % 100) - 40);

		if (x & 1024)
			v = -v;
		if (r % 4 == 0)	/* values with few decimals, as counts' ratios often are */
			v = (double)(int64_t)(x % 2000000 - 1000000) / 1000.0 + (r % 8 ? 0 : 0.0005);
		bad += !fixed_agrees(v, (int)(rnd() % 10), &declined);
	}
	tap_ok(bad == 0, "textline_fixed prints what printf's %%.*f prints (%d values, %d differ)",
	       n, bad);
	/* a report's metrics (0 to a million, 2 or 3 decimals): printf is left almost nothing */
	declined = 0;
	for (int r = 0; r < 100000; r++)
		bad += !fixed_agrees(ldexp((double)(rnd() >> 11), -53) * 1e6, 2 + (int)(rnd() & 1),
				     &declined);
	tap_ok(bad == 0 && declined < 10, "a report's values: printf asked for %d of 100000",
	       declined);
}

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
	test_fixed();
	test_join();
	return tap_done();
}
