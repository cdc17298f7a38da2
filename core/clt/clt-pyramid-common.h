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

/* The expected motion @d of tile (@tx, @ty) from the matches @coarse of
 * the frames reduced once (@coarse_x x @coarse_y tiles). The tile's
 * centre, 8 tx - 1/2 in pixels, lies at (8 tx - 1) / 2 in the reduced
 * frame, on the coarse grid at tx / 2: the coarse tiles within one of
 * that position count, by the tent 1 - distance / 2 along each axis times
 * their squared confidence. */
CV_HD void
cv_clt_predict_tile (const cvcore_clt_match * coarse, int coarse_x,
    int coarse_y, int tx, int ty, float d[2])
{
  float sum = 0.0f, sx = 0.0f, sy = 0.0f;
  float plain = 0.0f, px = 0.0f, py = 0.0f;

  for (int y = (ty - 1) >> 1; y <= (ty + 2) >> 1; y++)
    for (int x = (tx - 1) >> 1; x <= (tx + 2) >> 1; x++) {
      const float ex = fabsf (x - 0.5f * tx), ey = fabsf (y - 0.5f * ty);
      float w, c;
      cvcore_clt_match m;

      if (x < 0 || y < 0 || x >= coarse_x || y >= coarse_y || ex > 1.0f
          || ey > 1.0f)
        continue;
      m = coarse[y * coarse_x + x];
      w = (1.0f - 0.5f * ex) * (1.0f - 0.5f * ey);
      plain += w;
      px += w * m.dx;
      py += w * m.dy;
      c = fmaxf (m.confidence, 0.0f);
      w *= c * c;
      sum += w;
      sx += w * m.dx;
      sy += w * m.dy;
    }
  if (sum > 1e-12f) {
    d[0] = 2.0f * sx / sum;
    d[1] = 2.0f * sy / sum;
  } else if (plain > 0.0f) {
    d[0] = 2.0f * px / plain;
    d[1] = 2.0f * py / plain;
  } else {
    d[0] = d[1] = 0.0f;
  }
}

CVCORE_END_DECLS

#endif /* CLT_PYRAMID_COMMON_H */
