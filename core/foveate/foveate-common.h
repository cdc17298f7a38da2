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

/* Arithmetic shared by the CPU reference and the CUDA kernel of the
 * foveation, so that both pick the same filters and round the same way. */
#ifndef FOVEATE_COMMON_H
#define FOVEATE_COMMON_H

#include "cvfoveate.h"
#include "hostdevice.h"

#include <math.h>

/* a * b, never fused with a following addition. */
CV_HD float
cv_mul_rn (float a, float b)
{
#ifdef __CUDA_ARCH__
  return __fmul_rn (a, b);
#else
  return a * b;
#endif
}

/* a * b + c rounded once: fmaf() on the host is the device's fused
 * multiply-add, so sums of products agree bit for bit at one instruction a
 * tap. */
CV_HD float
cv_fma (float a, float b, float c)
{
#ifdef __CUDA_ARCH__
  return __fmaf_rn (a, b, c);
#else
  return fmaf (a, b, c);
#endif
}

/* Position, in map cells, of the point @d pixels from the fixation along
 * a frame @size pixels across, for a map @map_size cells across centred on
 * the fixation: cell i covers [i, i + 1). */
CV_HD float
cv_foveate_map_position (float d, int size, int map_size)
{
  return cv_mul_rn (d / (float) size, (float) map_size) + 0.5f *
      (float) map_size;
}

/* The map's level at cell (@i, @j), clamped to the map. */
CV_HD float
cv_foveate_map_cell (const cvcore_foveate_plan * plan, int i, int j)
{
  return (float) plan->map[(size_t) cv_clamp_index (j, plan->map_h) *
      plan->map_pitch + cv_clamp_index (i, plan->map_w)];
}

/* The map's level at pixel centre (@x, @y), interpolated bilinearly
 * between cell centres. */
CV_HD float
cv_foveate_map_level (const cvcore_foveate_plan * plan, int x, int y)
{
  const float u = cv_foveate_map_position ((float) x + 0.5f - plan->fix_x,
      plan->width, plan->map_w) - 0.5f;
  const float v = cv_foveate_map_position ((float) y + 0.5f - plan->fix_y,
      plan->height, plan->map_h) - 0.5f;
  const int i = (int) floorf (u), j = (int) floorf (v);
  const float fu = u - (float) i, fv = v - (float) j;
  const float a = cv_foveate_map_cell (plan, i, j), b =
      cv_foveate_map_cell (plan, i + 1, j);
  const float c = cv_foveate_map_cell (plan, i, j + 1), d =
      cv_foveate_map_cell (plan, i + 1, j + 1);
  const float top = a + cv_mul_rn (fu, b - a);
  const float bottom = c + cv_mul_rn (fu, d - c);

  return top + cv_mul_rn (fv, bottom - top);
}

/* The last filter whose threshold @v reaches (distances from the fixation,
 * or with a map, levels), by bisection: thresholds rise with the filter. */
CV_HD int
cv_foveate_threshold_filter (const cvcore_foveate_plan * plan, float v)
{
  int low = 0, high = plan->n_filters;

  while (high - low > 1) {
    const int mid = (low + high) / 2;

    if (v >= plan->threshold[mid])
      low = mid;
    else
      high = mid;
  }
  return low;
}

/* Offset (*@dx, *@dy) of fragment (@gx, @gy)'s centre from the
 * fixation. */
CV_HD void
cv_foveate_fragment_centre (const cvcore_foveate_plan * plan, int gx, int gy,
    float *dx, float *dy)
{
  const float half = 0.5f * plan->fragment;

  *dx = (float) (plan->origin_x + gx * plan->fragment) + half - plan->fix_x;
  *dy = (float) (plan->origin_y + gy * plan->fragment) + half - plan->fix_y;
}

/* The level of the map cell under the point (@dx, @dy) from the
 * fixation. */
CV_HD float
cv_foveate_map_cell_at (const cvcore_foveate_plan * plan, float dx, float dy)
{
  return cv_foveate_map_cell (plan, (int) floorf (cv_foveate_map_position (dx,
              plan->width, plan->map_w)), (int) floorf (cv_foveate_map_position
          (dy, plan->height, plan->map_h)));
}

/* The filter of fragment (@gx, @gy): with a blur map, that of the level of
 * the cell under its centre; otherwise by the distance of its centre from
 * the fixation. */
CV_HD int
cv_foveate_filter (const cvcore_foveate_plan * plan, int gx, int gy)
{
  float dx, dy;

  cv_foveate_fragment_centre (plan, gx, gy, &dx, &dy);
  if (plan->map)
    return cv_foveate_threshold_filter (plan, cv_foveate_map_cell_at (plan, dx,
            dy));
  return cv_foveate_threshold_filter (plan, sqrtf (cv_mul_rn (dx,
              dx) + cv_mul_rn (dy, dy)));
}

/* Smooth mode: pixel (@x, @y) takes filter *@k with weight 1 - *@t and
 * filter *@k + 1 with weight *@t, by where its centre's distance (or with a
 * map, its interpolated level) lies between the two filters' thresholds.
 * Without a map the fovea (filter 0) stays sharp up to the first blur's
 * threshold, as the model's sigma is 0 there; a map's levels are in
 * proportion to sigma from level 0 on. */
CV_HD void
cv_foveate_blend (const cvcore_foveate_plan * plan, int x, int y, int *k,
    float *t)
{
  const float dx = (float) x + 0.5f - plan->fix_x;
  const float dy = (float) y + 0.5f - plan->fix_y;
  const float d = plan->map ? cv_foveate_map_level (plan, x, y) :
      sqrtf (cv_mul_rn (dx, dx) + cv_mul_rn (dy, dy));
  const int f = cv_foveate_threshold_filter (plan, d);

  *k = f;
  *t = (f > 0 || plan->map) && f + 1 < plan->n_filters ?
      fminf ((d - plan->threshold[f]) / (plan->threshold[f + 1] -
          plan->threshold[f]), 1.0f) : 0.0f;
}

/* Weight of filter @f at pixel (@x, @y) in smooth mode. */
CV_HD float
cv_foveate_blend_weight (const cvcore_foveate_plan * plan, int x, int y, int f)
{
  int k;
  float t;

  cv_foveate_blend (plan, x, y, &k, &t);
  return f == k ? 1.0f - t : f == k + 1 ? t : 0.0f;
}

/* With a map: the filters the pixels [x0, x1) x [y0, y1) blend, from the
 * lowest and highest level of the cells their interpolation reads. */
CV_HD void
cv_foveate_map_blend_range (const cvcore_foveate_plan * plan, int x0, int y0,
    int x1, int y1, int *lo, int *hi)
{
  const int i0 = (int) floorf (cv_foveate_map_position ((float) x0 + 0.5f -
          plan->fix_x, plan->width, plan->map_w) - 0.5f);
  const int i1 = (int) floorf (cv_foveate_map_position ((float) x1 - 0.5f -
          plan->fix_x, plan->width, plan->map_w) - 0.5f) + 1;
  const int j0 = (int) floorf (cv_foveate_map_position ((float) y0 + 0.5f -
          plan->fix_y, plan->height, plan->map_h) - 0.5f);
  const int j1 = (int) floorf (cv_foveate_map_position ((float) y1 - 0.5f -
          plan->fix_y, plan->height, plan->map_h) - 0.5f) + 1;
  float low = 255.0f, high = 0.0f;

  for (int j = cv_clamp_index (j0, plan->map_h);
      j <= cv_clamp_index (j1, plan->map_h); j++)
    for (int i = cv_clamp_index (i0, plan->map_w);
        i <= cv_clamp_index (i1, plan->map_w); i++) {
      const float level = cv_foveate_map_cell (plan, i, j);

      low = fminf (low, level);
      high = fmaxf (high, level);
    }
  *lo = cv_foveate_threshold_filter (plan, low);
  *hi = cv_foveate_threshold_filter (plan, high);
  if (high > plan->threshold[*hi] && *hi + 1 < plan->n_filters)
    (*hi)++;
}

/* The filters the pixels [x0, x1) x [y0, y1) blend in smooth mode: the
 * distance grows monotonically away from the fixation, so the corners and
 * the point nearest the fixation bound it. */
CV_HD void
cv_foveate_blend_range (const cvcore_foveate_plan * plan, int x0, int y0,
    int x1, int y1, int *lo, int *hi)
{
  const int nx = plan->fix_x < x0 ? x0 : plan->fix_x >= x1 ? x1 - 1 :
      (int) plan->fix_x;
  const int ny = plan->fix_y < y0 ? y0 : plan->fix_y >= y1 ? y1 - 1 :
      (int) plan->fix_y;
  const int xs[2] = { x0, x1 - 1 }, ys[2] = { y0, y1 - 1 };
  int k;
  float t;

  if (plan->map) {
    cv_foveate_map_blend_range (plan, x0, y0, x1, y1, lo, hi);
    return;
  }
  cv_foveate_blend (plan, nx, ny, &k, &t);
  *lo = k;
  *hi = k;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      cv_foveate_blend (plan, xs[i], ys[j], &k, &t);
      if (t > 0.0f)
        k++;
      if (k > *hi)
        *hi = k;
    }
  /* the pixel nearest the fixation may sit just below its threshold */
  if (*lo > 0)
    (*lo)--;
}

/* The index of rank @rank of @n when indices go by falling distance from
 * @centre (clamped to 0 .. @n - 1), @centre last: the longer side's far
 * end alone, then both sides in turn, inwards. */
CV_HD int
cv_foveate_far_first (int rank, int n, int centre)
{
  const int c = cv_clamp_index (centre, n);
  const int left = c, right = n - 1 - c;
  const int longer = left > right ? left : right;
  const int shorter = left + right - longer;
  /* ranks of the longer side's indices farther than any of the other's */
  const int alone = longer - shorter;
  int distance;
  bool rightwards;

  if (rank >= n - 1)
    return c;
  if (rank < alone) {
    distance = longer - rank;
    rightwards = right > left;
  } else {
    distance = shorter - (rank - alone) / 2;
    rightwards = (rank - alone) & 1;
  }
  return rightwards ? c + distance : c - distance;
}

/* A blurred sample, rounded half up (sums of non-negative taps are not
 * negative). */
CV_HD int
cv_foveate_round (float v)
{
  const int r = (int) (v + 0.5f);

  return r > 255 ? 255 : r;
}

#endif /* FOVEATE_COMMON_H */
