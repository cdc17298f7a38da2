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

/* What the CPU reference and the CUDA kernel of a rig's correlation
 * share: the rig in single precision, its pairs, and each pair's phase
 * per unit of disparity. */
#ifndef CLT_RIG_COMMON_H
#define CLT_RIG_COMMON_H

#include "clt-common.h"
#include "clt-correlate-common.h"

#include <math.h>

CVCORE_BEGIN_DECLS

#define CV_CLT_RIG_MAX_PAIRS CVCORE_CLT_RIG_MAX_PAIRS
/* Samples of the first pass's search: half-pixel steps of the longest
 * baseline, up to the largest radius each way. */
#define CV_CLT_RIG_SAMPLES (4 * CVCORE_CLT_MAX_SEARCH + 1)
/* Steps each way that a refinement's search takes: a pixel of the
 * longest baseline. */
#define CV_CLT_RIG_REFINE_STEPS 2
typedef struct
{
  int views, pairs;
  float x[CVCORE_CLT_MAX_VIEWS], y[CVCORE_CLT_MAX_VIEWS];
  /* the pairs correlated */
  unsigned char pair[CV_CLT_RIG_MAX_PAIRS][2];
  /* the search's step: half a pixel along the longest baseline */
  float step;
  /* Pairs of one baseline have the same phases, so the CUDA kernel sums
   * their spectra before it searches: the groups of equal baselines,
   * each pair's group, and each group's baseline (x, y). */
  int groups;
  unsigned char group[CV_CLT_RIG_MAX_PAIRS];
  float baseline[CV_CLT_RIG_MAX_PAIRS][2];
} cv_clt_rig;

/* Pair @p of every pair of @views views: (0, 1), (0, 2), ..., (1, 2),
 * ... */
CV_HD void
cv_clt_rig_every_pair (int p, int views, int *i, int *j)
{
  int first = 0;

  while (p >= views - 1 - first) {
    p -= views - 1 - first;
    first++;
  }
  *i = first;
  *j = first + 1 + p;
}

/* The kernels' form of @in, a valid rig whose longest baseline is
 * @longest (cvcore_clt_rig_longest). */
CV_HD void
cv_clt_rig_init (cv_clt_rig * rig, const cvcore_clt_rig * in, double longest)
{
  rig->views = in->views;
  rig->pairs = in->pairs > 0 ? in->pairs : in->views * (in->views - 1) / 2;
  for (int v = 0; v < in->views; v++) {
    rig->x[v] = (float) in->x[v];
    rig->y[v] = (float) in->y[v];
  }
  for (int p = 0; p < rig->pairs; p++) {
    int i, j;

    if (in->pairs > 0) {
      i = in->pair[p][0];
      j = in->pair[p][1];
    } else {
      cv_clt_rig_every_pair (p, rig->views, &i, &j);
    }
    rig->pair[p][0] = (unsigned char) i;
    rig->pair[p][1] = (unsigned char) j;
  }
  rig->step = (float) (0.5 / longest);
  rig->groups = 0;
  for (int p = 0; p < rig->pairs; p++) {
    const float bx = rig->x[rig->pair[p][1]] - rig->x[rig->pair[p][0]];
    const float by = rig->y[rig->pair[p][1]] - rig->y[rig->pair[p][0]];
    int g = 0;

    while (g < rig->groups && !(rig->baseline[g][0] == bx
            && rig->baseline[g][1] == by))
      g++;
    if (g == rig->groups) {
      rig->baseline[g][0] = bx;
      rig->baseline[g][1] = by;
      rig->groups++;
    }
    rig->group[p] = (unsigned char) g;
  }
}

/* The residual disparity below which a pass ends a tile's refinements:
 * @converge pixels along the longest baseline (cvcore_clt_corr_params),
 * worked out on the host once for both backends, so that they compare
 * with the same number. */
static inline float
cv_clt_rig_converged (const cv_clt_rig * rig, double converge)
{
  const float pixels = (float) converge;

  return 2.0f * pixels * rig->step;
}

/* Pair @p's views @i < @j. */
CV_HD void
cv_clt_rig_pair (const cv_clt_rig * rig, int p, int *i, int *j)
{
  *i = rig->pair[p][0];
  *j = rig->pair[p][1];
}

/* Where view @v's content of a point at disparity @d lies, relative to
 * view 0: the motion from view 0 to view @v. */
CV_HD void
cv_clt_rig_motion (const cv_clt_rig * rig, int v, float d, float m[2])
{
  m[0] = -d * (rig->x[v] - rig->x[0]);
  m[1] = -d * (rig->y[v] - rig->y[0]);
}

/* The phase, in units of pi per unit of residual disparity, of component
 * @s (0: at (wx, wy), 1: at (wx, -wy)) of frequency @f of the correlation
 * surface of a pair whose baseline is (@bx, @by): its content moves by
 * -d (bx, by). */
CV_HD float
cv_clt_rig_baseline_phase (float bx, float by, int f, int s)
{
  const float ux = ((f & 7) + 0.5f) / 8.0f;
  const float uy = (s ? -1.0f : 1.0f) * ((f >> 3) + 0.5f) / 8.0f;

  return -(ux * bx + uy * by);
}

/* Which of the @count phase magnitudes @phase is @a's: the first within
 * a millionth of it, or @count where none is. Terms whose phases are
 * equal or opposite sum into one term of the surface before it is
 * searched, a term at -k being its conjugate's at k. */
CV_HD int
cv_clt_rig_phase_bin (const float *phase, int count, float a)
{
  int b = 0;

  while (b < count && !(fabsf (phase[b] - a) <= 1e-6f * fmaxf (1.0f, a)))
    b++;
  return b;
}

/* The same across the baseline: the phase per unit of v, the baseline
 * turned a quarter clockwise (x right, y down). */
CV_HD float
cv_clt_rig_baseline_phase_across (float bx, float by, int f, int s)
{
  return cv_clt_rig_baseline_phase (-by, bx, f, s);
}

/* cv_clt_rig_baseline_phase of pair @i, @j, whose baseline is
 * c_j - c_i. */
CV_HD float
cv_clt_rig_phase (const cv_clt_rig * rig, int i, int j, int f, int s)
{
  return cv_clt_rig_baseline_phase (rig->x[j] - rig->x[i],
      rig->y[j] - rig->y[i], f, s);
}

/* cv_clt_rig_baseline_phase_across of pair @i, @j. */
CV_HD float
cv_clt_rig_phase_across (const cv_clt_rig * rig, int i, int j, int f, int s)
{
  return cv_clt_rig_baseline_phase_across (rig->x[j] - rig->x[i],
      rig->y[j] - rig->y[i], f, s);
}

/* Which tiles keep their confidence at the disparity found. */
typedef enum
{
  /* every tile (keep_left_frame) */
  CV_CLT_RIG_KEEP_EVERY,
  /* those whose content lies within half a tile of the frame in every
   * view (cv_clt_match_kept): what a tile reports */
  CV_CLT_RIG_KEEP_NEAR_FRAME,
  /* those whose whole window lies inside the frame in every view: what a
   * coarse level predicts from. Beyond the edge a view holds the frame's
   * mirror, which moves the other way and pulls the disparity towards 0;
   * predictions from such tiles started the finest level up to a pixel
   * short two to six tiles from the edges, more than its passes made up. */
  CV_CLT_RIG_KEEP_WINDOW_INSIDE
} cv_clt_rig_keep;

/* Whether tile (@tx, @ty)'s window, moved by (@dx, @dy), lies wholly
 * inside a @width x @height frame. */
CV_HD bool
cv_clt_window_inside (int tx, int ty, float dx, float dy, int width, int height)
{
  const float x = (float) cv_clt_tile_start (tx) + dx;
  const float y = (float) cv_clt_tile_start (ty) + dy;

  return x >= 0.0f && y >= 0.0f && x + CVCORE_CLT_TILE <= (float) width
      && y + CVCORE_CLT_TILE <= (float) height;
}

/* Whether a tile keeps its confidence at disparity @d under @keep. */
CV_HD bool
cv_clt_rig_kept (const cv_clt_rig * rig, int tx, int ty, float d, int width,
    int height, cv_clt_rig_keep keep)
{
  const bool whole = keep == CV_CLT_RIG_KEEP_WINDOW_INSIDE;

  if (keep == CV_CLT_RIG_KEEP_EVERY)
    return true;
  /* view 0's tile is where its content is, near the frame by its place;
   * its window may still reach beyond it */
  for (int v = whole ? 0 : 1; v < rig->views; v++) {
    float m[2];

    cv_clt_rig_motion (rig, v, d, m);
    if (whole ? !cv_clt_window_inside (tx, ty, m[0], m[1], width, height)
        : cv_clt_match_beyond_frame (tx, ty, m[0], m[1], width, height) > 0.0f)
      return false;
  }
  return true;
}

CVCORE_END_DECLS

#endif /* CLT_RIG_COMMON_H */
