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

/* What the CPU reference and the CUDA kernels of the CLT pyramids share. */
#ifndef CLT_PYRAMID_COMMON_H
#define CLT_PYRAMID_COMMON_H

#include "cvclt.h"
#include "hostdevice.h"

#include <math.h>

CVCORE_BEGIN_DECLS

/* Weights of the half-size reduction: the binomial [1 3 3 1] / 8 along
 * each axis over samples 2 x - 1 .. 2 x + 2, centred where the reduced
 * sample lies; it passes little of what would alias at half the rate. */
CV_HD unsigned
cv_clt_reduce_weight (int i)
{
  return i == 0 || i == 3 ? 1u : 3u;
}

/* What coarse tile (@x, @y) of @coarse (@coarse_x x @coarse_y tiles)
 * brings to cv_clt_predict_tile() of tile (@tx, @ty), into @t: its tent
 * weight w and w dx, w dy, then w c^2 and w c^2 dx, w c^2 dy, c its
 * confidence; all 0 where it brings nothing. */
CV_HD void
cv_clt_predict_term (const cvcore_clt_match * coarse, int coarse_x,
    int coarse_y, int tx, int ty, int x, int y, float t[6])
{
  const float ex = fabsf (x - 0.5f * tx), ey = fabsf (y - 0.5f * ty);
  cvcore_clt_match m;
  float w, c;

  for (int i = 0; i < 6; i++)
    t[i] = 0.0f;
  if (x < 0 || y < 0 || x >= coarse_x || y >= coarse_y || ex > 1.0f
      || ey > 1.0f)
    return;
  m = coarse[y * coarse_x + x];
  w = (1.0f - 0.5f * ex) * (1.0f - 0.5f * ey);
  t[0] = w;
  t[1] = w * m.dx;
  t[2] = w * m.dy;
  c = fmaxf (m.confidence, 0.0f);
  w *= c * c;
  t[3] = w;
  t[4] = w * m.dx;
  t[5] = w * m.dy;
}

/* The prediction @d from the sums @t of the terms of
 * cv_clt_predict_term(). */
CV_HD void
cv_clt_predict_from_terms (const float t[6], float d[2])
{
  if (t[3] > 1e-12f) {
    d[0] = 2.0f * t[4] / t[3];
    d[1] = 2.0f * t[5] / t[3];
  } else if (t[0] > 0.0f) {
    d[0] = 2.0f * t[1] / t[0];
    d[1] = 2.0f * t[2] / t[0];
  } else {
    d[0] = d[1] = 0.0f;
  }
}

/* The expected motion @d of tile (@tx, @ty) from the matches @coarse of
 * the frames reduced once (@coarse_x x @coarse_y tiles). The tile's
 * centre, 8 tx - 1/2 in pixels, lies at (8 tx - 1) / 2 in the reduced
 * frame, on the coarse grid at tx / 2: the coarse tiles within one of
 * that position count, by the tent 1 - distance / 2 along each axis times
 * their squared confidence. They lie among the 3 x 3 from
 * ((tx - 1) >> 1, (ty - 1) >> 1), summed row by row. */
CV_HD void
cv_clt_predict_tile (const cvcore_clt_match * coarse, int coarse_x,
    int coarse_y, int tx, int ty, float d[2])
{
  float t[6] = { 0.0f }, u[6];

  for (int i = 0; i < 9; i++) {
    cv_clt_predict_term (coarse, coarse_x, coarse_y, tx, ty,
        ((tx - 1) >> 1) + i % 3, ((ty - 1) >> 1) + i / 3, u);
    for (int k = 0; k < 6; k++)
      t[k] += u[k];
  }
  cv_clt_predict_from_terms (t, d);
}

CVCORE_END_DECLS

#endif /* CLT_PYRAMID_COMMON_H */
