/* SPDX-License-Identifier: Apache-2.0 */
/* test_stats.c: the statistics of repeated runs against values computed independently.
 * Expected values: Python 3.11's statistics module (mean, median, stdev) and mpmath 1.3
 * (the t distribution by quadrature of its density and findroot, not through the incomplete
 * beta; betainc by mpmath's own hypergeometric series), printed to 12 or more digits. The
 * outlier scores follow the formula in stats.h, evaluated in Python. NAN: not defined. */
#include <math.h>

#include "stats.h"
#include "tap.h"

#define NA NAN
#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Within rel relative error (absolute near 0); NAN matches NAN only. */
static int near(double got, double want, double rel)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-300) || fabs(got - want) < 1e-12;
}

#define NEAR(got, want, ...) \
	(tap_ok(near((got), (want), 1e-9), __VA_ARGS__) ? 1 : \
	 (printf("#   got %.15g, want %.15g\n", (double)(got), (double)(want)), 0))

static const struct {
	int line;
	double p, df, want;
} quantiles[] = {
	{ __LINE__, 0.975, 1, 12.7062047361747 },
	{ __LINE__, 0.975, 2, 4.30265272974946 },
	{ __LINE__, 0.975, 4, 2.77644510519779 },
	{ __LINE__, 0.975, 10, 2.22813885198627 },
	{ __LINE__, 0.975, 30, 2.04227245630124 },
	{ __LINE__, 0.975, 1000, 1.96233908082641 },
	{ __LINE__, 0.995, 5, 4.03214298355523 },
	{ __LINE__, 0.025, 3, -3.18244630528371 },
	{ __LINE__, 0.9, 2.5, 1.73025092880718 },	/* Welch's df are not whole */
	{ __LINE__, 0.6, 1, 0.324919696232906 },
	{ __LINE__, 0.5, 7, 0 },
	{ __LINE__, 0, 7, NA },
	{ __LINE__, 1, 7, NA },
	{ __LINE__, 0.975, 0, NA },
};

static const struct {
	int line;
	double t, df, want;
} cdfs[] = {
	{ __LINE__, 1.0, 1, 0.75 },	/* Cauchy: 1/2 + atan(1)/pi, by hand */
	{ __LINE__, -2.0, 3, 0.0696629842794216 },
	{ __LINE__, 0.5, 7.3, 0.684103236597779 },
	{ __LINE__, 3.0, 20, 0.996462050604394 },
	{ __LINE__, 0, 5, 0.5 },
	{ __LINE__, -INFINITY, 5, 0 },
};

static const struct {
	int line;
	double a, b, x, want;
} betas[] = {
	{ __LINE__, 0.5, 0.5, 0.3, 0.369010119565545 },
	{ __LINE__, 2, 3, 0.4, 0.5248 },	/* by hand: a polynomial for whole a, b */
	{ __LINE__, 10, 0.5, 0.95, 0.317151575465545 },
	{ __LINE__, 50, 60, 0.45, 0.464235291430604 },
	{ __LINE__, 1, 1, 0.77, 0.77 },	/* uniform */
	{ __LINE__, 3.5, 0.5, 0.01, 2.92164944426019e-8 },
	{ __LINE__, 2, 3, 0, 0 },
	{ __LINE__, 2, 3, 1, 1 },
	{ __LINE__, 2, 3, 1.5, NA },
	{ __LINE__, 0, 3, 0.5, NA },
};

#define MAXN 8
static const struct {
	int line;
	const char *what;
	size_t n;
	double x[MAXN];
	double mean, median, sd, cv, lo, hi, rse, min, max;
} sums[] = {
	{ __LINE__, "n = 1", 1, { 5 }, 5, 5, NA, NA, NA, NA, NA, 5, 5 },
	{ __LINE__, "n = 2", 2, { 1, 3 }, 2, 2, 1.41421356237, 0.707106781187, -10.7062047362,
	  14.7062047362, 0.5, 1, 3 },
	{ __LINE__, "all equal", 4, { 7, 7, 7, 7 }, 7, 7, 0, 0, 7, 7, 0, 7, 7 },
	{ __LINE__, "zero mean", 5, { -2, -1, 0, 1, 2 }, 0, 0, 1.58113883008, NA, -1.96324316148,
	  1.96324316148, NA, -2, 2 },
	{ __LINE__, "counts", 8, { 1000123, 1000456, 999870, 1001002, 1000300, 999950, 1000700,
				   1000210 },
	  1000326.375, 1000255, 381.426621852, 0.000381302174354, 1000007.49436, 1000645.25564,
	  0.000134810676584, 999870, 1001002 },
	{ __LINE__, "an outlier", 6, { 10, 10.2, 9.9, 10.1, 10.0, 15.0 }, 10.8666666667, 10.05,
	  2.02747790781, 0.186577721578, 8.73895909111, 12.9943742422, 0.0761700358728, 9.9, 15 },
};

static const struct {
	int line;
	size_t n;
	double x[MAXN], score[MAXN];
	unsigned char flag[MAXN];
	long nout;
} outl[] = {
	{ __LINE__, 6, { 10, 10.2, 9.9, 10.1, 10.0, 15.0 },
	  { -0.33725, 1.01175, -1.01175, 0.33725, -0.33725, 33.38775 }, { 0, 0, 0, 0, 0, 1 }, 1 },
	/* MAD = 0: the mean absolute deviation stands in */
	{ __LINE__, 5, { 5, 5, 5, 5, 9 }, { 0, 0, 0, 0, 3.989423241 }, { 0, 0, 0, 0, 1 }, 1 },
	{ __LINE__, 7, { 1, 2, 3, 4, 100, 5, 6 }, { -1.01175, -0.6745, -0.33725, 0, 32.376, 0.33725,
						    0.6745 },
	  { 0, 0, 0, 0, 1, 0, 0 }, 1 },
	{ __LINE__, 3, { 4, 4, 4 }, { 0, 0, 0 }, { 0, 0, 0 }, 0 },
	{ __LINE__, 2, { 1, 1000 }, { -0.6745, 0.6745 }, { 0, 0 }, 0 },	/* by hand */
	{ __LINE__, 1, { 42 }, { 0 }, { 0 }, 0 },
};

static const struct {
	int line;
	size_t na, nb;
	double a[MAXN], b[MAXN];
	int rc;
	double t, df, p;
} welch[] = {
	{ __LINE__, 5, 5, { 1, 2, 3, 4, 5 }, { 2, 4, 6, 8, 10 }, 0, 1.8973665961, 5.88235294118,
	  0.107531194931 },
	{ __LINE__, 4, 6, { 20.1, 19.8, 20.3, 20.0 }, { 21.0, 21.4, 20.9, 21.3, 21.1, 21.2 }, 0,
	  8.52056336166, 6.04838709677, 0.000137123553478 },
	{ __LINE__, 4, 4, { 100, 101, 99, 100.5 }, { 100.2, 99.8, 100.9, 100.1 }, 0, 0.257058933232,
	  4.63821296769, 0.808142923071 },
	/* no variance on either side: by hand, from the definitions in stats.h */
	{ __LINE__, 2, 2, { 3, 3 }, { 3, 3 }, 0, 0, 2, 1 },
	{ __LINE__, 2, 3, { 3, 3 }, { 4, 4, 4 }, 0, INFINITY, 3, 0 },
	{ __LINE__, 3, 2, { 4, 4, 4 }, { 3, 3 }, 0, -INFINITY, 3, 0 },
	{ __LINE__, 1, 3, { 3 }, { 4, 5, 6 }, -1, 0, 0, 0 },	/* n = 1: no test */
};

static void test_distributions(void)
{
	for (size_t k = 0; k < LEN(quantiles); k++)
		NEAR(stats_t_quantile(quantiles[k].p, quantiles[k].df), quantiles[k].want,
		     "line %d: t quantile p=%g df=%g", quantiles[k].line, quantiles[k].p,
		     quantiles[k].df);
	for (size_t k = 0; k < LEN(cdfs); k++)
		NEAR(stats_t_cdf(cdfs[k].t, cdfs[k].df), cdfs[k].want, "line %d: t cdf t=%g df=%g",
		     cdfs[k].line, cdfs[k].t, cdfs[k].df);
	for (size_t k = 0; k < LEN(betas); k++)
		NEAR(stats_betainc(betas[k].a, betas[k].b, betas[k].x), betas[k].want,
		     "line %d: I_%g(%g, %g)", betas[k].line, betas[k].x, betas[k].a, betas[k].b);
	/* the quantile inverts the cdf across degrees of freedom */
	for (double df = 1; df <= 200; df *= 1.7)
		NEAR(stats_t_cdf(stats_t_quantile(0.975, df), df), 0.975,
		     "line %d: cdf(quantile(0.975, %g))", __LINE__, df);
}

static void test_summaries(void)
{
	struct stats_summary s;

	for (size_t k = 0; k < LEN(sums); k++) {
		int line = sums[k].line;
		const char *w = sums[k].what;

		TAP_EQ_INT(stats_summarize(sums[k].x, sums[k].n, &s), 0, "line %d: %s", line, w);
		TAP_EQ_INT(s.n, sums[k].n, "line %d: %s: n", line, w);
		NEAR(s.mean, sums[k].mean, "line %d: %s: mean", line, w);
		NEAR(s.median, sums[k].median, "line %d: %s: median", line, w);
		NEAR(s.stddev, sums[k].sd, "line %d: %s: stddev", line, w);
		NEAR(s.cv, sums[k].cv, "line %d: %s: cv", line, w);
		NEAR(s.ci_lo, sums[k].lo, "line %d: %s: ci low", line, w);
		NEAR(s.ci_hi, sums[k].hi, "line %d: %s: ci high", line, w);
		NEAR(s.rse, sums[k].rse, "line %d: %s: rse", line, w);
		NEAR(s.min, sums[k].min, "line %d: %s: min", line, w);
		NEAR(s.max, sums[k].max, "line %d: %s: max", line, w);
	}
	TAP_EQ_INT(stats_summarize(NULL, 0, &s), -1, "line %d: n = 0 is refused", __LINE__);
}

static void test_outliers(void)
{
	double score[MAXN];
	unsigned char flag[MAXN];

	for (size_t k = 0; k < LEN(outl); k++) {
		TAP_EQ_INT(stats_outliers(outl[k].x, outl[k].n, score, flag), outl[k].nout,
			   "line %d: outliers counted", outl[k].line);
		for (size_t j = 0; j < outl[k].n; j++) {
			NEAR(score[j], outl[k].score[j], "line %d: run %zu: modified Z", outl[k].line, j);
			TAP_EQ_INT(flag[j], outl[k].flag[j], "line %d: run %zu: flag", outl[k].line, j);
		}
	}
}

static void test_welch(void)
{
	for (size_t k = 0; k < LEN(welch); k++) {
		struct stats_summary a, b;
		struct stats_welch w = { 0, 0, 0 };
		int line = welch[k].line;

		stats_summarize(welch[k].a, welch[k].na, &a);
		stats_summarize(welch[k].b, welch[k].nb, &b);
		if (!TAP_EQ_INT(stats_welch(&a, &b, &w), welch[k].rc, "line %d: Welch", line) ||
		    welch[k].rc)
			continue;
		NEAR(w.t, welch[k].t, "line %d: Welch t", line);
		NEAR(w.df, welch[k].df, "line %d: Welch df", line);
		NEAR(w.p, welch[k].p, "line %d: Welch p", line);
	}
}

int main(void)
{
	test_distributions();
	test_summaries();
	test_outliers();
	test_welch();
	return tap_done();
}
