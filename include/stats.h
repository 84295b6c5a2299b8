/* SPDX-License-Identifier: Apache-2.0 */
/* stats.h: statistics of repeated runs (summary, confidence interval, outliers, Welch's
 * t-test) and the Student's t distribution they need. Pure: no I/O, no globals. */
#ifndef PMUPROF_STATS_H
#define PMUPROF_STATS_H

#include <stddef.h>

/* The confidence level of stats_summary's interval. */
#define STATS_CI_LEVEL 0.95
/* A run is an outlier when its modified Z-score's magnitude exceeds this (Iglewicz and
 * Hoaglin's recommendation). */
#define STATS_OUTLIER_Z 3.5

/* One series of per-run values. What the data cannot define is NAN (JSON writers print
 * null): the standard deviation and all that derives from it when n < 2, and the ratios to
 * the mean (cv, rse) when the mean is 0. */
struct stats_summary {
	size_t n;
	double mean, median, min, max;
	double stddev;		/* sample standard deviation (n - 1 in the denominator) */
	double cv;		/* stddev / |mean| */
	double ci_lo, ci_hi;	/* mean -/+ t(0.975, n - 1) * stddev / sqrt(n) */
	double rse;		/* relative standard error: stddev / sqrt(n) / |mean| */
};

/* Welch's unequal-variances t-test of two means. */
struct stats_welch {
	double t;		/* (mean_b - mean_a) / sqrt(var_a / n_a + var_b / n_b) */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
};

/* Summarizes x[0..n-1]. Returns 0, or -1 when n == 0 or memory ran out (s is then zeroed). */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);
/* stats_summarize but the median and the confidence interval (NAN here), which cost a copy,
 * a sort and the t distribution's inverse: what a reader of many series that needs only n,
 * mean, stddev and the ratios to the mean asks for (diff, over a report's every event).
 * Returns 0, or -1 when n == 0 (s is then zeroed). */
int stats_moments(const double *x, size_t n, struct stats_summary *s);

/* Flags the outliers of x[0..n-1] by the modified Z-score M = 0.6745 (x - median) / MAD,
 * MAD the median absolute deviation; flag[k] = 1 when |M| > STATS_OUTLIER_Z, else 0. When
 * more than half the runs are equal (MAD = 0), the mean absolute deviation scaled by
 * 1.253314 stands in for MAD / 0.6745; when that is 0 too, all runs are equal and none is
 * flagged. score (may be NULL) receives each M (0 when all are equal). Returns the number
 * flagged, or -1 when memory ran out. */
long stats_outliers(const double *x, size_t n, double *score, unsigned char *flag);

/* Welch's t-test of b's mean against a's, from their n, mean and stddev only (so a summary
 * read back from a report will do). Returns 0, or -1 when either n < 2 or a stddev is NAN.
 * When both variances are 0: t = 0 and p = 1 for equal means, else t = +-INFINITY, p = 0,
 * and df = n_a + n_b - 2. */
int stats_welch(const struct stats_summary *a, const struct stats_summary *b,
		struct stats_welch *w);

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1; NAN outside. */
double stats_betainc(double a, double b, double x);
/* The Student's t distribution with df > 0 (not necessarily whole) degrees of freedom:
 * P(T <= t), and its inverse for 0 < p < 1 (NAN outside). */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* P(|T| >= |t|): the two-sided p-value of t. */
double stats_t_p2(double t, double df);

#endif
