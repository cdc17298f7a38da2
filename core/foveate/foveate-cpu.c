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

/* Foveation: the CPU reference of the direct rendering, in the arithmetic
 * the kernels share (foveate-common.h), and the per-pixel definition that
 * both renderings approximate. */
#include "foveate-private.h"

#include <math.h>
#include <stdlib.h>

static int
sample_at (const cvcore_image * im, int x, int y, int c)
{
  return ((const unsigned char *) im->data)[(size_t) y * im->pitch +
      (size_t) x * im->channels + c];
}

/* Filter @f over the pixels [x0, x1) x [y0, y1) of channel @c: rows over
 * the tile into @rows (float, the fragment's width), then columns into
 * @vals (fragment-wide rows, before rounding); filter 0 copies. */
static void
cpu_blur (const cvcore_image * src, const cvcore_foveate_plan * plan, int f,
    int x0, int y0, int x1, int y1, int c, float *rows, float *vals)
{
  const int r = plan->radius[f], size = plan->fragment;
  const float *taps = plan->taps + plan->offset[f];

  if (f == 0) {
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++)
        vals[(y - y0) * size + x - x0] = (float) sample_at (src, x, y, c);
    return;
  }
  for (int y = y0 - r; y < y1 + r; y++)
    for (int x = x0; x < x1; x++) {
      const int sy = cv_clamp_index (y, src->height);
      float acc = 0.0f;

      for (int i = 0; i <= 2 * r; i++)
        acc += taps[i] * (float) sample_at (src,
            cv_clamp_index (x - r + i, src->width), sy, c);
      rows[(y - (y0 - r)) * size + (x - x0)] = acc;
    }
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      float acc = 0.0f;

      for (int j = 0; j <= 2 * r; j++)
        acc += taps[j] * rows[(y - y0 + j) * size + (x - x0)];
      vals[(y - y0) * size + x - x0] = acc;
    }
}

/* One fragment, channel @c (copied unless @blur): its filter, or in smooth
 * mode every filter its pixels blend, accumulated with their weights in
 * filter order (as on the GPU). */
static void
cpu_fragment (const cvcore_image * src, const cvcore_image * dst,
    const cvcore_foveate_plan * plan, int gx, int gy, int c, bool blur,
    float *rows, float *vals, float *acc)
{
  const int size = plan->fragment;
  const int bx = plan->origin_x + gx * size, by = plan->origin_y + gy * size;
  const int x0 = bx < 0 ? 0 : bx, y0 = by < 0 ? 0 : by;
  const int x1 = bx + size > src->width ? src->width : bx + size;
  const int y1 = by + size > src->height ? src->height : by + size;
  unsigned char *out = dst->data;
  int lo = 0, hi = 0;

  if (!blur || !plan->smooth) {
    cpu_blur (src, plan, blur ? cv_foveate_filter (plan, gx, gy) : 0, x0, y0,
        x1, y1, c, rows, vals);
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++)
        out[(size_t) y * dst->pitch + (size_t) x * dst->channels + c] =
            (unsigned char) cv_foveate_round (vals[(y - y0) * size + x - x0]);
    return;
  }
  cv_foveate_blend_range (plan, x0, y0, x1, y1, &lo, &hi);
  for (int i = 0; i < size * size; i++)
    acc[i] = 0.0f;
  for (int f = lo; f <= hi; f++) {
    cpu_blur (src, plan, f, x0, y0, x1, y1, c, rows, vals);
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++) {
        const int i = (y - y0) * size + x - x0;

        acc[i] += cv_foveate_blend_weight (plan, x, y, f) * vals[i];
      }
  }
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      out[(size_t) y * dst->pitch + (size_t) x * dst->channels + c] =
          (unsigned char) cv_foveate_round (acc[(y - y0) * size + x - x0]);
}

cvcore_status
cv_foveate_cpu (const cvcore_image * src, const cvcore_image * dst,
    unsigned mask, const cvcore_foveate_plan * plan)
{
  const size_t area = (size_t) plan->fragment * plan->fragment;
  float *rows = malloc (sizeof (float) * plan->fragment *
      (plan->fragment + 2 * plan->max_radius));
  float *vals = malloc (sizeof (float) * area);
  float *acc = malloc (sizeof (float) * area);
  cvcore_status status = CVCORE_OK;

  if (rows == NULL || vals == NULL || acc == NULL)
    status = cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "foveation rows");
  for (int gy = 0; status == CVCORE_OK && gy < plan->grid_h; gy++)
    for (int gx = 0; gx < plan->grid_w; gx++)
      for (int c = 0; c < src->channels; c++)
        cpu_fragment (src, dst, plan, gx, gy, c, (mask & (1u << c)) != 0,
            rows, vals, acc);
  free (rows);
  free (vals);
  free (acc);
  return status;
}

/* --- per-pixel reference ----------------------------------------------- */

/* The reference cuts its Gaussians at 4 sigma, where the tail left out
 * (6e-5 of the weight an axis) is below what 8-bit output shows; the
 * direct bank's 3-sigma cut leaves out 0.27 %, which moves dark pixels
 * next to bright ones by a level. */
#define REFERENCE_CUT_SIGMAS 4.0
#define REFERENCE_MAX_SIGMA (CVCORE_FOVEATE_MAX_RADIUS / 3.0)
#define REFERENCE_MAX_RADIUS \
  ((int) (REFERENCE_CUT_SIGMAS * REFERENCE_MAX_SIGMA) + 1)

/* Normalised Gaussian taps of @sigma into @taps (room for
 * 2 * REFERENCE_MAX_RADIUS + 1); returns the radius. */
static int
gaussian_taps (double sigma, double *taps)
{
  const int r = (int) ceil (REFERENCE_CUT_SIGMAS * sigma);

  cv_foveate_gaussian (sigma, 2 * r + 1, r, taps);
  return r;
}

cvcore_status
cvcore_foveate_perfect (const cvcore_foveate_model * model,
    const cvcore_image * src, const cvcore_image * dst, unsigned channel_mask,
    double fix_x, double fix_y)
{
  const double half_diagonal = 0.5 * hypot (src->width, src->height);
  const double fx = fix_x * src->width, fy = fix_y * src->height;
  double *taps;

  if (src->sample != CVCORE_SAMPLE_U8 || dst->sample != CVCORE_SAMPLE_U8
      || src->width != dst->width || src->height != dst->height
      || src->channels != dst->channels)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "per-pixel foveation of mismatched images");
  taps = malloc (sizeof (double) * (2 * REFERENCE_MAX_RADIUS + 1));
  if (taps == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "per-pixel foveation taps");
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      const double d = hypot (x + 0.5 - fx, y + 0.5 - fy);
      const double sigma = fmin (cvcore_foveate_sigma (model,
              d / half_diagonal * model->corner_eccentricity),
          REFERENCE_MAX_SIGMA);
      const int r = sigma > 0.0 ? gaussian_taps (sigma, taps) : 0;

      for (int c = 0; c < src->channels; c++) {
        double acc = 0.0;

        if (r == 0 || !(channel_mask & (1u << c))) {
          acc = sample_at (src, x, y, c);
        } else {
          for (int j = -r; j <= r; j++) {
            const int sy = cv_clamp_index (y + j, src->height);
            double row = 0.0;

            for (int i = -r; i <= r; i++)
              row += taps[i + r] * sample_at (src,
                  cv_clamp_index (x + i, src->width), sy, c);
            acc += taps[j + r] * row;
          }
        }
        ((unsigned char *) dst->data)[(size_t) y * dst->pitch +
            (size_t) x * dst->channels + c] =
            (unsigned char) fmin (floor (acc + 0.5), 255.0);
      }
    }
  free (taps);
  return CVCORE_OK;
}
