/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <math.h>

/* Pearson's chi-square statistic of @observed against @expected counts. */
static inline double
mg_test_chi_square(const guint64 *observed, const double *expected, guint n)
{
	double chi2 = 0;
	for (guint i = 0; i < n; i++) {
		double d = (double)observed[i] - expected[i];
		chi2 += d * d / expected[i];
	}
	return chi2;
}

/* The chi-square value a fair source exceeds with probability 0.001 (z =
 * 3.09), by the Wilson-Hilferty approximation, good from a few degrees of
 * freedom on. The draws are seeded, so a pass is reproducible; a biased
 * generator lands far beyond it. */
static inline double
mg_test_chi_square_limit(guint dof)
{
	double k = dof;
	double t = 1.0 - 2.0 / (9.0 * k) + 3.09 * sqrt(2.0 / (9.0 * k));
	return k * t * t * t;
}
