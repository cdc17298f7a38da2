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

/* What the CPU reference and the CUDA kernel of the CLT phase
 * correlation share. */
#ifndef CLT_CORRELATE_COMMON_H
#define CLT_CORRELATE_COMMON_H

#include "cvclt.h"
#include "hostdevice.h"

#include <math.h>

CVCORE_BEGIN_DECLS

/* Newton steps after the whole-pixel search. */
#define CV_CLT_NEWTON_STEPS 3
/* Weight of frequency (k, l) under the Gaussian lowpass of the
 * correlation, exp (-@spread (wk^2 + wl^2)) with @spread = sigma^2 / 2,
 * divided by its mean so that a perfect match still peaks at 1. The
 * lowest frequency (0, 0) does not count: a flat tile's window alone
 * fills it, and it would make flat tiles match. */
CV_HD float
cv_clt_lowpass_weight (int f, float spread)
{
  const float pi = 3.14159265358979f;
  float axis[8], mean = 0.0f;

  if (f == 0)
    return 0.0f;
  for (int k = 0; k < 8; k++) {
    axis[k] = expf (-spread * (pi * (k + 0.5f) / 8.0f) * (pi * (k + 0.5f) /
            8.0f));
    mean += axis[k];
  }
  mean = (mean * mean - axis[0] * axis[0]) / 64.0f;
  return axis[f & 7] * axis[f >> 3] / mean;
}

/* What a cross-power term (@re, @im) is multiplied by: @weight over its
 * magnitude plus @fat_zero; 0 where that sum is not positive, which only
 * a negative fat zero, refused at the API, could make. A power under
 * 1e-30 counts as 1e-30, whose root is far below any fat zero.
 * The device takes the hardware's approximate root and quotient (each
 * within 2 units in the last place): the correctly rounded ones that the
 * host takes branch around a slow path on every call, which made them
 * most of the cost of a pair's term. */
CV_HD float
cv_clt_cross_gain (float re, float im, float fat_zero, float weight)
{
  const float power = fmaxf (re * re + im * im, 1e-30f);
#ifdef __CUDA_ARCH__
  const float m = power * rsqrtf (power) + fat_zero;

  return m > 0.0f ? __fdividef (weight, m) : 0.0f;
#else
  const float m = sqrtf (power) + fat_zero;

  return m > 0.0f ? weight * (1.0f / m) : 0.0f;
#endif
}

/* The cross-power spectrum's two components at frequency (k, l) of a
 * tile's coefficients @a and @b (each [layer][l][k], divided by @scale),
 * normalised with @fat_zero and weighted by @weight (the lowpass's): R1
 * at (wx, wy), R2 at (wx, -wy), as (re, im) pairs. */
CV_HD void
cv_clt_cross_power (const float *a, const float *b, int f, float scale,
    float fat_zero, float weight, float r1[2], float r2[2])
{
  const float a0 = a[f] * scale, a1 = a[64 + f] * scale;
  const float a2 = a[128 + f] * scale, a3 = a[192 + f] * scale;
  const float b0 = b[f] * scale, b1 = b[64 + f] * scale;
  const float b2 = b[128 + f] * scale, b3 = b[192 + f] * scale;
  /* z1 = (T0 - T3) + i (T1 + T2), z2 = (T0 + T3) + i (T1 - T2) */
  const float ar1 = a0 - a3, ai1 = a1 + a2, ar2 = a0 + a3, ai2 = a1 - a2;
  const float br1 = b0 - b3, bi1 = b1 + b2, br2 = b0 + b3, bi2 = b1 - b2;
  float re, im, g;

  re = ar1 * br1 + ai1 * bi1;
  im = ai1 * br1 - ar1 * bi1;
  g = cv_clt_cross_gain (re, im, fat_zero, weight);
  r1[0] = re * g;
  r1[1] = im * g;
  re = ar2 * br2 + ai2 * bi2;
  im = ai2 * br2 - ar2 * bi2;
  g = cv_clt_cross_gain (re, im, fat_zero, weight);
  r2[0] = re * g;
  r2[1] = im * g;
}

/* How far (pixels) tile (@tx, @ty) of a @width x @height frame, moved
 * by (@dx, @dy), has its centre beyond half a tile outside the frame's
 * edge; 0 or less when it has not. */
CV_HD float
cv_clt_match_beyond_frame (int tx, int ty, float dx, float dy, int width,
    int height)
{
  const float half = 0.5f * CVCORE_CLT_TILE;
  const float x = (float) (CVCORE_CLT_STRIDE * tx) + dx;
  const float y = (float) (CVCORE_CLT_STRIDE * ty) + dy;

  return fmaxf (fmaxf (-half - x, -half - y),
      fmaxf (x - (float) (width - 1) - half, y - (float) (height - 1) - half));
}

/* Whether tile (@tx, @ty)'s match (@dx, @dy) may keep its confidence:
 * not where it takes the tile's centre more than half a tile beyond the
 * frame (unless @keep_left_frame), since its content left the frame and
 * what the transform finds there is the mirror of the frame's edge,
 * whatever its peak; nor where it moves the tile further up or down than
 * @max_dy, when that is not negative (cvcore_clt_corr_params). */
CV_HD bool
cv_clt_match_kept (int tx, int ty, float dx, float dy, int width, int height,
    bool keep_left_frame, float max_dy)
{
  return (keep_left_frame
      || !(cv_clt_match_beyond_frame (tx, ty, dx, dy, width, height) > 0.0f))
      && !(max_dy >= 0.0f && fabsf (dy) > max_dy);
}

/* Whether a pass that moved a tile by (@dx, @dy) leaves it settled: by
 * less than @converge pixels each way (cvcore_clt_corr_params, in single
 * precision on every backend). */
CV_HD bool
cv_clt_match_settled (float dx, float dy, float converge)
{
  return fabsf (dx) < converge && fabsf (dy) < converge;
}

/* Drawing: the line of a tile's match from its centre, one point per
 * pixel of its longer side (at least the centre). */
CV_HD int
cv_clt_line_points (const cvcore_clt_match * m, float scale)
{
  const float lx = fabsf (m->dx * scale), ly = fabsf (m->dy * scale);

  return 1 + (int) fminf (64.0f, fmaxf (lx, ly));
}

/* Point @i of @n of the line of tile (@tx, @ty). */
CV_HD void
cv_clt_line_point (const cvcore_clt_match * m, float scale, int tx, int ty,
    int i, int n, int *x, int *y)
{
  const float t = n > 1 ? (float) i / (n - 1) : 0.0f;
  const float length = fminf (64.0f, fmaxf (fabsf (m->dx * scale),
          fabsf (m->dy * scale)));
  /* the line is clipped to 64 pixels, its direction kept */
  const float k = length > 0.0f ? length / fmaxf (fabsf (m->dx * scale),
      fabsf (m->dy * scale)) : 0.0f;

  *x = 8 * tx + (int) floorf (t * m->dx * scale * k + 0.5f);
  *y = 8 * ty + (int) floorf (t * m->dy * scale * k + 0.5f);
}

CVCORE_END_DECLS

#endif /* CLT_CORRELATE_COMMON_H */
