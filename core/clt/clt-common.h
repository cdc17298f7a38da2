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

/* What the CLT's CPU reference and CUDA kernels share: the plan of a call
 * (tile grid, windows, the operation's separable factors). */
#ifndef CLT_COMMON_H
#define CLT_COMMON_H

#include "cvclt.h"
#include "hostdevice.h"

#include <math.h>

CVCORE_BEGIN_DECLS

typedef struct
{
  int width, height, tiles_x, tiles_y;
  cvcore_clt_operation operation;
  unsigned bayer;               /* the source's mosaic, or 0 */
  /* A mosaic's colours go in sparse and are filled in by the response
   * built from demosaic[] (see cvclt.h). */
  bool sparse;
  /* a mosaic's colours summed into a grey picture with these weights
   * (see cvclt.h); colours of weight 0 are not processed */
  bool grey;
  double grey_weight[3];
  double demosaic[8];
  /* Integer part of the shift: tiles sample the source this many pixels
   * left (up) of where they write. */
  int offset_x, offset_y;
  /* Forward windows w (n + f) of the shift's fraction f; the inverse
   * window is w (n). */
  double window_x[16], window_y[16], window[16];
  /* Shift: e^{i omega_k f} per frequency, as (cos, sin); lowpass: the
   * Gaussian's response per axis in [k][0]. */
  double factor_x[8][2], factor_y[8][2];
} cv_clt_plan;

/* The lapped transform's window at sample @n of a tile whose content is
 * moved by the fraction @f (0: the window itself). */
CV_HD double
cv_clt_window (int n, double f)
{
  return sin (CV_PI * (n + 0.5 + f) / 16.0);
}

/* Fills @plan for frames of @width x @height and @params. */
void cv_clt_plan_init (cv_clt_plan * plan, int width, int height,
    const cvcore_clt_params * params);

/* cvcore_clt_tiles() for device code too. */
CV_HD int
cv_clt_tiles (int pixels)
{
  return (pixels + CVCORE_CLT_STRIDE - 1) / CVCORE_CLT_STRIDE + 1;
}

/* The first pixel, along either axis, of tile @t's window. */
CV_HD int
cv_clt_tile_start (int t)
{
  return CVCORE_CLT_STRIDE * t - CVCORE_CLT_TILE / 2;
}

/* Colour (0 red, 1 green, 2 blue) of site (@x, @y) of mosaic @pattern. */
CV_HD int
cv_clt_bayer_colour (unsigned pattern, int x, int y)
{
  return (int) (pattern >> (2 * ((y & 1) * 2 + (x & 1))) & 3);
}

CV_HD float
cv_clt_mosaic_at (const unsigned char *data, size_t pitch, int wide, int w,
    int h, int x, int y)
{
  const unsigned char *row = data + (size_t) cv_mirror_index (y, h) * pitch;
  const int i = cv_mirror_index (x, w);

  return wide ? (float) ((const unsigned short *) row)[i] : (float) row[i];
}

/* Colour @c at (@x, @y) of a mosaic: the site's own sample, or the mean of
 * the nearest sites of that colour (bilinear demosaic). */
CV_HD float
cv_clt_bayer_sample (const unsigned char *data, size_t pitch, int wide,
    int w, int h, unsigned pattern, int x, int y, int c)
{
  const int own = cv_clt_bayer_colour (pattern, x, y);

#define AT(dx, dy) cv_clt_mosaic_at (data, pitch, wide, w, h, x + (dx), y + (dy))
  if (own == c)
    return AT (0, 0);
  if (c == 1)
    return 0.25f * (AT (-1, 0) + AT (1, 0) + AT (0, -1) + AT (0, 1));
  if (own == 1)
    return cv_clt_bayer_colour (pattern, x + 1, y) == c ?
        0.5f * (AT (-1, 0) + AT (1, 0)) : 0.5f * (AT (0, -1) + AT (0, 1));
  return 0.25f * (AT (-1, -1) + AT (1, -1) + AT (-1, 1) + AT (1, 1));
#undef AT
}

/* A sparse mosaic's colour @c at (@x, @y), any position: the sample of
 * the site reflected into the frame where (@x, @y) is a site of colour
 * @c, else 0. */
CV_HD float
cv_clt_sparse_sample (const unsigned char *data, size_t pitch, int wide,
    int w, int h, unsigned pattern, int x, int y, int c)
{
  return cv_clt_bayer_colour (pattern, x, y) == c ? cv_clt_mosaic_at (data,
      pitch, wide, w, h, x, y) : 0.0f;
}

/* The response that fills in colour @c of a sparse mosaic at frequency
 * (@k, @l), from plan.demosaic. */
CV_HD double
cv_clt_demosaic_response (const double *d, int c, int k, int l)
{
  return c == 1 ? 0.5 * (d[k] + d[l]) : d[k] * d[l];
}

/* Index of sample @i of a line of @n mirrored at both ends (any @i). */
CV_HD int
cv_clt_mirror (int i, int n)
{
  const int period = 2 * n;

  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - 1 - i;
}

/* A tile sampled between pixels (cv_clt_resample_weight): Lanczos-3, six
 * samples a point along each axis, from two before the pixel at or left
 * of it to three after. */
#define CV_CLT_RESAMPLE_TAPS 6
#define CV_CLT_RESAMPLE_BEFORE 2

#ifdef __CUDACC__
/* pi @x with whole turns taken out, within [-pi, pi]: there the
 * hardware's sine and cosine are within 4e-7 of the true values, and the
 * rounded sinpif's range reduction costs several times as much. */
__device__ __forceinline__ float
cv_clt_reduced_radians (float x)
{
  return 3.14159265f * (x - 2.0f * rintf (0.5f * x));
}

/* sin (pi @x) and cos (pi @x) */
__device__ __forceinline__ void
cv_clt_fast_sincospi (float x, float *sn, float *cs)
{
  __sincosf (cv_clt_reduced_radians (x), sn, cs);
}

__device__ __forceinline__ float
cv_clt_fast_sinpi (float x)
{
  return __sinf (cv_clt_reduced_radians (x));
}
#endif

/* The Lanczos-3 weight, not yet normalised, of sample @i (0 ..
 * CV_CLT_RESAMPLE_TAPS - 1) for a point @f (0 <= f < 1, a float's
 * fraction: x - floorf (x)) past the pixel before it. At f = 0 exactly
 * the pixel itself, so that both backends read whole positions alike. */
CV_HD float
cv_clt_resample_weight (float f, int i)
{
  const float t = f - (float) (i - CV_CLT_RESAMPLE_BEFORE);

  if (f == 0.0f)
    return i == CV_CLT_RESAMPLE_BEFORE ? 1.0f : 0.0f;
  /* only a caller's f of 1 lands here; its limit */
  if (t == 0.0f)
    return 1.0f;
  /* 3 sin (pi t) sin (pi t / 3) / (pi t)^2, pi^2 = 9.8696044 */
#ifdef __CUDA_ARCH__
  return __fdividef (3.0f * cv_clt_fast_sinpi (t) * cv_clt_fast_sinpi (t /
          3.0f), 9.8696044f * t * t);
#else
  return 3.0f * sinf (3.14159265f * t) * sinf (3.14159265f * t / 3.0f) /
      (9.8696044f * t * t);
#endif
}

/* The six weights of a point @f past a pixel, normalised to sum 1: a flat
 * region stays flat. */
CV_HD void
cv_clt_resample_weights (float f, float w[CV_CLT_RESAMPLE_TAPS])
{
  float sum = 0.0f;

  /* the loops' weights and sum at a whole position, without the work */
  if (f == 0.0f) {
    for (int i = 0; i < CV_CLT_RESAMPLE_TAPS; i++)
      w[i] = i == CV_CLT_RESAMPLE_BEFORE ? 1.0f : 0.0f;
    return;
  }
  for (int i = 0; i < CV_CLT_RESAMPLE_TAPS; i++) {
    w[i] = cv_clt_resample_weight (f, i);
    sum += w[i];
  }
  for (int i = 0; i < CV_CLT_RESAMPLE_TAPS; i++)
    w[i] /= sum;
}

CVCORE_END_DECLS

#endif /* CLT_COMMON_H */
