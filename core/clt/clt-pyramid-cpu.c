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

/* CLT phase correlation from coarse to fine: the CPU reference of the
 * reductions and the predictions, in the arithmetic the kernels share
 * (clt-pyramid-common.h). */
#include "clt-fit-common.h"
#include "clt-private.h"

#include <stdint.h>

static void
reduce_frame (const cvcore_image * src, int channel, const cvcore_image * dst)
{
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++) {
      unsigned sum = 0;
      uint8_t *row = (uint8_t *) dst->data + (size_t) y * dst->pitch;

      for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
          sum += cv_clt_reduce_weight (i) * cv_clt_reduce_weight (j) *
              cv_clt_sample_at (src, cv_clamp_index (2 * x - 1 + i, src->width),
              cv_clamp_index (2 * y - 1 + j, src->height), channel);
      if (dst->sample == CVCORE_SAMPLE_U16)
        ((uint16_t *) row)[x] = (uint16_t) ((sum + 32) / 64);
      else
        row[x] = (uint8_t) ((sum + 32) / 64);
    }
}

cvcore_status
cv_clt_reduce_cpu (int count, const cvcore_image * src, int channel,
    const cvcore_image * dst)
{
  for (int f = 0; f < count; f++)
    reduce_frame (&src[f], channel, &dst[f]);
  return CVCORE_OK;
}

cvcore_status
cv_clt_predict_cpu (const cvcore_clt_match * coarse, int width, int height,
    cvcore_clt_match * matches)
{
  const int tiles_x = cvcore_clt_tiles (width);
  const int tiles_y = cvcore_clt_tiles (height);

  for (int ty = 0; ty < tiles_y; ty++)
    for (int tx = 0; tx < tiles_x; tx++) {
      cvcore_clt_match *m = &matches[ty * tiles_x + tx];
      float d[2];

      cv_clt_predict_tile (coarse, cvcore_clt_tiles ((width + 1) / 2),
          cvcore_clt_tiles ((height + 1) / 2), tx, ty, d);
      m->dx = d[0];
      m->dy = d[1];
      m->confidence = 0.0f;
    }
  return CVCORE_OK;
}

/* Sample (@x, @y) of channel @c, the frame mirrored beyond its edges. */
static float
mirrored_at (const cvcore_image * image, int x, int y, int c)
{
  return (float) cv_clt_sample_at (image, cv_mirror_index (x, image->width),
      cv_mirror_index (y, image->height), c);
}

cvcore_status
cv_clt_shapes_cpu (const cvcore_image * src, int channel, float *shapes)
{
  const int tiles_x = cvcore_clt_tiles (src->width);
  const int tiles_y = cvcore_clt_tiles (src->height);
  float window[CVCORE_CLT_TILE];

  for (int i = 0; i < CVCORE_CLT_TILE; i++)
    window[i] = cv_clt_shape_window (i);
  for (int t = 0; t < tiles_x * tiles_y; t++) {
    const int x0 = CVCORE_CLT_STRIDE * (t % tiles_x) - CVCORE_CLT_TILE / 2;
    const int y0 = CVCORE_CLT_STRIDE * (t / tiles_x) - CVCORE_CLT_TILE / 2;
    float *s = &shapes[CVCORE_CLT_SHAPE_FLOATS * t];

    for (int k = 0; k < CVCORE_CLT_SHAPE_FLOATS; k++)
      s[k] = 0.0f;
    for (int j = 0; j < CVCORE_CLT_TILE; j++)
      for (int i = 0; i < CVCORE_CLT_TILE; i++) {
        const int x = x0 + i, y = y0 + j;

        cv_clt_shape_add (mirrored_at (src, x - 1, y, channel),
            mirrored_at (src, x + 1, y, channel),
            mirrored_at (src, x, y - 1, channel),
            mirrored_at (src, x, y + 1, channel), i, j,
            window[i] * window[j], s);
      }
    cv_clt_shape_normalise (s);
  }
  return CVCORE_OK;
}
