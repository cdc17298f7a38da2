/* gst-cuda-vision
 * Copyright (C) 2026 The gst-cuda-vision authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version. It is distributed in the hope that it
 * will be useful, but WITHOUT ANY WARRANTY; see the GNU Lesser General
 * Public License (COPYING) for more details.
 */

/* Arithmetic shared by the CPU reference and the CUDA kernels of the
 * convolution, so that both compute the same thing. */
#ifndef CONVOLVE_COMMON_H
#define CONVOLVE_COMMON_H

#include <math.h>

#include "cvconvolve.h"
#include "hostdevice.h"

/* Index of the sample that stands for position @i of a row or column of
 * @n samples, or -1 for the constant border. */
CV_HD int
cv_border_index (int i, int n, cvcore_border border)
{
  if (i >= 0 && i < n)
    return i;
  switch (border) {
    case CVCORE_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case CVCORE_BORDER_MIRROR:
      return cv_mirror_index (i, n);
    case CVCORE_BORDER_WRAP:
      i %= n;
      return i < 0 ? i + n : i;
    case CVCORE_BORDER_CONSTANT:
    default:
      return -1;
  }
}

CV_HD int
cv_sample_max (cvcore_sample sample)
{
  return sample == CVCORE_SAMPLE_U8 ? 255 : 65535;
}

/* floor(@v) for 0 <= @v < 2^23. On the GPU the float-to-integer converter
 * is a quarter-rate unit; adding 2^23 rounding toward zero leaves floor(v)
 * in the mantissa instead. */
CV_HD int
cv_floor_small (float v)
{
#ifdef __CUDA_ARCH__
  return __float_as_int (__fadd_rz (v, 8388608.0f)) - 0x4B000000;
#else
  return (int) floorf (v);
#endif
}

/* acc / divisor + bias, rounded half up and saturated, with @bias_half =
 * bias + 1/2 (rounded once, when the plan is made). The quotient comes
 * from the reciprocal (1 / divisor, rounded) and one correction step
 * (Markstein), which gives the correctly rounded quotient without a
 * division; CPU and GPU run the same steps. Unsaturated: the value before
 * its saturation and floor; unrounded: the saturated value before its
 * floor. */
CV_HD float
cv_finish_float_unsaturated (float acc, float divisor, float reciprocal,
    float bias_half)
{
#ifdef __CUDA_ARCH__
  const float q0 = __fmul_rn (acc, reciprocal);
#else
  const float q0 = acc * reciprocal;
#endif
  const float q = fmaf (fmaf (-q0, divisor, acc), reciprocal, q0);

  return q + bias_half;
}

CV_HD float
cv_finish_float_unrounded (float acc, float divisor, float reciprocal,
    float bias_half, int max_value)
{
  const float v = cv_finish_float_unsaturated (acc, divisor, reciprocal,
      bias_half);

  return fminf (fmaxf (v, 0.0f), (float) max_value);
}

CV_HD int
cv_finish_float (float acc, float divisor, float reciprocal,
    float bias_half, int max_value)
{
  return cv_floor_small (cv_finish_float_unrounded (acc, divisor, reciprocal,
          bias_half, max_value));
}

/* Rounding of whole sums by whole divisors and biases without floats:
 * for a whole sum acc, floor(acc / D + b + 1/2) = floor((acc + a) / D) with
 * a = b D + floor(D / 2) (when D is odd the dropped half never crosses a
 * multiple of D), and below 0 the result saturates to 0 anyway; so it is
 * max(acc + a, 0) / D, a shift when D is a power of two, else a
 * multiply-high by a magic number. With |acc| <= 32640 (the
 * packed 8-bit path), 1 <= D <= 1024 and |b| <= 255 cv_finish_float() is
 * exact too, so both agree. */
typedef struct
{
  int add;                      /* a */
  unsigned magic;               /* D not a power of two: mulhi by this */
  int shift;                    /* D = 2^shift */
  int divisor_is_power;
} cv_int_finish;

#define CV_INT_FINISH_MAX_DIVISOR 1024
#define CV_INT_FINISH_MAX_BIAS 255
#define CV_INT_FINISH_MAX_SUM 32640

/* The magic number that divides any n < 2^22 by @d (not a power of two,
 * at most CV_INT_FINISH_MAX_DIVISOR) as mulhi (n, magic): magic =
 * floor(2^32 / d) + 1 = (2^32 + e) / d with 0 < e < d, so the quotient is
 * over by n e / (d 2^32) < 1/d (n e < 2^22 2^10), never enough to reach
 * the next whole number. The sums met here stay under 2^22: |acc| <=
 * CV_INT_FINISH_MAX_SUM plus a <= 255 * 1024 + 512. */
CV_HD unsigned
cv_int_divider (unsigned d)
{
  return (unsigned) ((1ull << 32) / d + 1);
}

/* Fills @f for @divisor and @bias; false where they are not whole numbers
 * in the range above. */
CV_HD int
cv_int_finish_init (cv_int_finish * f, float divisor, float bias)
{
  int d;

  if (divisor != floorf (divisor) || divisor < 1.0f ||
      divisor > CV_INT_FINISH_MAX_DIVISOR || bias != floorf (bias) ||
      fabsf (bias) > CV_INT_FINISH_MAX_BIAS)
    return 0;
  d = (int) divisor;
  f->add = (int) bias *d + d / 2;
  f->divisor_is_power = (d & (d - 1)) == 0;
  f->magic = 0;
  f->shift = 0;
  if (f->divisor_is_power)
    while ((1 << f->shift) < d)
      f->shift++;
  else
    f->magic = cv_int_divider ((unsigned) d);
  return 1;
}

CV_HD unsigned
cv_mulhi (unsigned a, unsigned b)
{
#ifdef __CUDA_ARCH__
  return __umulhi (a, b);
#else
  return (unsigned) ((a * (unsigned long long) b) >> 32);
#endif
}

/* @n / D for the divisor of @f. */
CV_HD unsigned
cv_int_divide (unsigned n, const cv_int_finish * f)
{
  return f->divisor_is_power ? n >> f->shift : cv_mulhi (n, f->magic);
}

/* The factor r that gives floor (n / @d) as floor (n r), the product in
 * single precision, for every whole 0 <= n < CV_WHOLE_QUOTIENT_LIMIT and
 * 1 <= @d <= CV_INT_FINISH_MAX_DIVISOR: the float after 1 / d. As r >=
 * 1 / d, an exact quotient stays whole; as r - 1 / d < 2^-22 / d, n r
 * exceeds n / d by less than 1 / 4d, short of the next whole number by
 * far more than the product's rounding. This covers cv_int_finish's n =
 * acc + a for the integer paths' sums (|acc| <= CV_INT_FINISH_MAX_SUM). */
#define CV_WHOLE_QUOTIENT_LIMIT (1 << 20)

CV_HD float
cv_whole_quotient_factor (int d)
{
  return nextafterf (1.0f / (float) d, INFINITY);
}

/* The rounded, saturated result of the whole sum @acc. */
CV_HD int
cv_finish_int (int acc, const cv_int_finish * f, int max_value)
{
  const int n = acc + f->add;
  const int q = (int) cv_int_divide (n < 0 ? 0u : (unsigned) n, f);

  return q > max_value ? max_value : q;
}

/* cv_finish_int() for a sum with acc + a >= 0 whose result cannot
 * saturate: no clamps. */
CV_HD int
cv_finish_int_nonnegative (int acc, const cv_int_finish * f)
{
  return (int) cv_int_divide ((unsigned) (acc + f->add), f);
}

CV_HD int
cv_finish_double (double acc, float divisor, float bias, int max_value)
{
  double v = floor (acc / (double) divisor + (double) bias + 0.5);

  return v <= 0.0 ? 0 : v >= (double) max_value ? max_value : (int) v;
}

/* What a row of constant border contributes in the separable path's second
 * pass: the row taps applied to border_value, summed in this order. */
CV_HD float
cv_border_row_sum (const cvcore_convolve_plan * plan)
{
  float sum = 0.0f;

  for (int i = 0; i < plan->width; i++)
    sum += plan->row[i] * plan->border_value;
  return sum;
}

#endif /* CONVOLVE_COMMON_H */
