/* SPDX-License-Identifier: Apache-2.0 */
/* stats.c: statistics of repeated runs (summary, confidence interval, modified Z-score
 * outliers, Welch's t-test) and the Student's t distribution through the incomplete beta. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1], n > 0, which it sorts. */
static double median_sorting(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Continued fraction of I_x(a, b) (DLMF 8.17.22), evaluated by the modified Lentz method;
 * it converges fast for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 1000; m++) {
		/* the even step d_2m, then the odd step d_2m+1 */
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			double step;

			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			step = c * d;
			h *= step;
			if (odd && fabs(step - 1) < 4 * DBL_EPSILON)
				return h;
		}
	}
	return h;
}

double stats_betainc(double a, double b, double x)
{
	double lfront;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1 - x)^b / B(a, b), in logarithms so that large a and b do not overflow */
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * beta_fraction(a, b, x) / a;
	/* I_x(a, b) = 1 - I_1-x(b, a), where the fraction converges */
	return 1 - exp(lfront) * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= t) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return stats_betainc(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail = stats_t_p2(t, df) / 2;

	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double q = p > 0.5 ? 1 - p : p, lo = 0, hi = 1, x, t;

	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	/* Solve I_x(df / 2, 1 / 2) = 2q for x by bisection (I_x rises with x), then
	 * t = sqrt(df (1 - x) / x); relative precision, as x is small for small df. */
	for (int k = 0; k < 2000; k++) {
		x = lo / 2 + hi / 2;
		if (x <= lo || x >= hi || hi - lo <= lo * 4 * DBL_EPSILON)
			break;
		if (stats_betainc(df / 2, 0.5, x) < 2 * q)
			lo = x;
		else
			hi = x;
	}
	x = lo / 2 + hi / 2;
	t = sqrt(df * (1 - x) / x);
	return p > 0.5 ? t : -t;
}

/* Mean, min, max and sample stddev of x[0..n-1], n > 0 (two passes, for precision). */
static void moments(const double *x, size_t n, struct stats_summary *s)
{
	double sum = 0, ss = 0;

	s->min = s->max = x[0];
	for (size_t k = 0; k < n; k++) {
		sum += x[k];
		s->min = fmin(s->min, x[k]);
		s->max = fmax(s->max, x[k]);
	}
	s->mean = sum / (double)n;
	for (size_t k = 0; k < n; k++)
		ss += (x[k] - s->mean) * (x[k] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	double *v, half;

	memset(s, 0, sizeof(*s));
	if (!n || !(v = malloc(n * sizeof(*v))))
		return -1;
	memcpy(v, x, n * sizeof(*v));
	s->n = n;
	moments(x, n, s);
	s->median = median_sorting(v, n);
	free(v);
	half = n > 1 ? stats_t_quantile(0.5 + STATS_CI_LEVEL / 2, (double)(n - 1)) * s->stddev /
			       sqrt((double)n)
		     : NAN;
	s->ci_lo = s->mean - half;
	s->ci_hi = s->mean + half;
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
	s->rse = s->mean != 0 ? s->stddev / sqrt((double)n) / fabs(s->mean) : NAN;
	return 0;
}

int stats_moments(const double *x, size_t n, struct stats_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!n)
		return -1;
	s->n = n;
	moments(x, n, s);
	s->median = s->ci_lo = s->ci_hi = NAN;
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
	s->rse = s->mean != 0 ? s->stddev / sqrt((double)n) / fabs(s->mean) : NAN;
	return 0;
}

/* The scale that turns x - median into a modified Z-score: MAD / 0.6745, or, when MAD is
 * 0, 1.253314 * the mean absolute deviation from the median (IBM's convention); 0 when all
 * values are equal. dev is scratch of n doubles. */
static double robust_scale(const double *x, size_t n, double med, double *dev)
{
	double mad, sum = 0;

	for (size_t k = 0; k < n; k++) {
		dev[k] = fabs(x[k] - med);
		sum += dev[k];
	}
	mad = median_sorting(dev, n);
	if (mad > 0)
		return mad / 0.6745;
	return 1.253314 * sum / (double)n;
}

long stats_outliers(const double *x, size_t n, double *score, unsigned char *flag)
{
	double *tmp, med, scale;
	long nout = 0;

	if (!n)
		return 0;
	if (!(tmp = malloc(n * sizeof(*tmp))))
		return -1;
	memcpy(tmp, x, n * sizeof(*tmp));
	med = median_sorting(tmp, n);
	scale = robust_scale(x, n, med, tmp);
	free(tmp);
	for (size_t k = 0; k < n; k++) {
		double m = scale > 0 ? (x[k] - med) / scale : 0;

		if (score)
			score[k] = m;
		flag[k] = fabs(m) > STATS_OUTLIER_Z;
		nout += flag[k];
	}
	return nout;
}

int stats_welch(const struct stats_summary *a, const struct stats_summary *b,
		struct stats_welch *w)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2 || isnan(a->stddev) || isnan(b->stddev))
		return -1;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	if (se2 == 0) {
		double d = b->mean - a->mean;

		w->t = d == 0 ? 0 : copysign(INFINITY, d);
		w->df = (double)(a->n + b->n - 2);
		w->p = d == 0 ? 1 : 0;
		return 0;
	}
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->p = stats_t_p2(w->t, w->df);
	return 0;
}
