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

/* What the CPU reference and the CUDA kernels of the motion-field fit
 * share (cvcore_clt_fit). */
#ifndef CLT_FIT_COMMON_H
#define CLT_FIT_COMMON_H

#include "clt-common.h"
#include "clt-correlate-common.h"

#include <math.h>

CVCORE_BEGIN_DECLS

/* A tile's trust in its match along its least certain direction, over and
 * above its shape's: an edge still tells a little about motion along it,
 * and the fit stays solvable where every neighbour is an edge. */
#define CV_CLT_FIT_FLOOR 0.02f
/* Neighbours count from this confidence on, fully from twice it: flat
 * tiles and tiles whose content left the frame match nothing. */
#define CV_CLT_FIT_MIN_CONFIDENCE 0.05f
/* A neighbour whose match misses the fit by this much (pixels, measured
 * across its own edges) counts half in the next pass: matches beyond a
 * motion boundary do not pull. The first pass measures from the tile's
 * own match, more leniently, since that may be the one that is off. */
#define CV_CLT_FIT_SPREAD 0.5f
#define CV_CLT_FIT_FIRST_SPREAD 1.0f
#define CV_CLT_FIT_REWEIGHTS 2
/* In the later passes a neighbour counts less, by (1 - miss / reject^2)^2,
 * and from this many spreads on not at all. */
#define CV_CLT_FIT_REJECT 3.0f
/* Below this elongation of its texture (the smaller over the larger
 * eigenvalue of its shape), a tile's confidence falls in proportion: its
 * correlation peak is a ridge along its edges, as high as a peak. */
#define CV_CLT_FIT_ELONGATION 0.12f
/* Ridge on the fit's slopes, relative to its mean weight: a tile with one
 * usable neighbour gets that neighbour's motion. */
#define CV_CLT_FIT_RIDGE 1e-3f
/* The first pass fits a constant motion: a slope would take up part of a
 * step at a motion boundary, and the later passes would keep it. */
#define CV_CLT_FIT_FIRST_RIDGE 1e3f
/* Neighbours count less with distance, by a Gaussian of this many tiles:
 * far ones, nearer the frame's edge, carry its errors inwards. */
#define CV_CLT_FIT_REACH 2.5f
/* The weight of a tile's row or column @i (0..15) in its shape: the
 * lapped transform's window, squared. */
CV_HD float
cv_clt_shape_window (int i)
{
  const float w = sinf (3.14159265f * (i + 0.5f) / CVCORE_CLT_TILE);

  return w * w;
}

/* The centre of a tile's pixels, 0..15 each way. */
#define CV_CLT_SHAPE_CENTRE (0.5f * (CVCORE_CLT_TILE - 1))

/* The gradient (@gx, @gy) at a pixel whose neighbours left, right, above
 * and below hold @left .. @below: half their differences. */
CV_HD void
cv_clt_shape_gradient (float left, float right, float above, float below,
    float *gx, float *gy)
{
  *gx = 0.5f * (right - left);
  *gy = 0.5f * (below - above);
}

/* Adds pixel (@i, @j) of a tile (0..15 each way, of weight @w: the
 * windows of its column and row multiplied), whose neighbours left,
 * right, above and below hold @left .. @below, to the tile's shape @s
 * (xx, yy, xy, cx, cy): its gradient structure tensor, and its gradient
 * energy's moments about the tile's centre. */
CV_HD void
cv_clt_shape_add (float left, float right, float above, float below, int i,
    int j, float w, float s[CVCORE_CLT_SHAPE_FLOATS])
{
  float gx, gy, energy;

  cv_clt_shape_gradient (left, right, above, below, &gx, &gy);
  energy = w * (gx * gx + gy * gy);
  s[0] += w * gx * gx;
  s[1] += w * gy * gy;
  s[2] += w * gx * gy;
  s[3] += energy * (i - CV_CLT_SHAPE_CENTRE);
  s[4] += energy * (j - CV_CLT_SHAPE_CENTRE);
}

/* The shape @s divided by its trace, the gradient energy: orientation
 * and elongation alone, so that contrast counts once, through the
 * confidence, and the energy's centre in strides. 0 when flat. */
CV_HD void
cv_clt_shape_normalise (float s[CVCORE_CLT_SHAPE_FLOATS])
{
  const float trace = s[0] + s[1];

  for (int k = 0; k < CVCORE_CLT_SHAPE_FLOATS; k++)
    s[k] = trace > 0.0f ? s[k] / trace : 0.0f;
  s[3] /= CVCORE_CLT_STRIDE;
  s[4] /= CVCORE_CLT_STRIDE;
}

/* The share of its confidence a tile of shape @s (normalised) keeps. */
CV_HD float
cv_clt_shape_trust (const float s[3])
{
  const float spread = sqrtf ((s[0] - s[1]) * (s[0] - s[1]) + 4.0f * s[2]
      * s[2]);
  const float larger = 0.5f * (s[0] + s[1] + spread);
  const float smaller = 0.5f * (s[0] + s[1] - spread);

  if (!(larger > 0.0f))
    return 0.0f;
  return fminf (1.0f, fmaxf (0.0f, smaller / larger) / CV_CLT_FIT_ELONGATION);
}

/* How far (pixels) tile (@x, @y)'s window reaches beyond a @width x
 * @height frame, where it lies in any of the frames matched: at its place
 * moved by (@lo_x .. @hi_x, @lo_y .. @hi_y); 0 inside. Beyond, it matched
 * partly the transform's mirror of the edge, which moves the other way,
 * or content that came from beyond the edge. */
CV_HD float
cv_clt_fit_overhang (int x, int y, float lo_x, float hi_x, float lo_y,
    float hi_y, int width, int height)
{
  const float half = 0.5f * CVCORE_CLT_TILE;
  const float cx = (float) (CVCORE_CLT_STRIDE * x);
  const float cy = (float) (CVCORE_CLT_STRIDE * y);

  return fmaxf (fmaxf (fmaxf (0.0f, half - cx - lo_x), half - cy - lo_y),
      fmaxf (cx + half + hi_x - (float) width,
          cy + half + hi_y - (float) height));
}

/* What the fit knows of the frames matched: two frames and a motion
 * (flow, stereo), or (@isotropic) a rig's views and a disparity D, which
 * sees across a tile's edges whatever their orientation, so that every
 * tile's metric is the identity and its trust whole. A rig tile's window
 * lies in view v at its place moved by D (ox_v, oy_v); these span
 * @min_x .. @max_x and @min_y .. @max_y, view 0's (0, 0) among them. */
typedef struct CvCltFitViews
{
  bool isotropic;
  float min_x, max_x, min_y, max_y;
} CvCltFitViews;

/* How far tile (@x, @y)'s window, of match @n, reaches beyond the frame
 * in the frames that @views matched (cv_clt_fit_overhang). */
CV_HD float
cv_clt_fit_views_overhang (const CvCltFitViews * views, int x, int y,
    const cvcore_clt_match * n, int width, int height)
{
  if (!views->isotropic)
    return cv_clt_fit_overhang (x, y, fminf (0.0f, n->dx), fmaxf (0.0f,
            n->dx), fminf (0.0f, n->dy), fmaxf (0.0f, n->dy), width, height);
  return cv_clt_fit_overhang (x, y, fminf (n->dx * views->min_x,
          n->dx * views->max_x), fmaxf (n->dx * views->min_x,
          n->dx * views->max_x), fminf (n->dx * views->min_y,
          n->dx * views->max_y), fmaxf (n->dx * views->min_y,
          n->dx * views->max_y), width, height);
}

/* A weight that falls from 1 to 0 as @v goes from @from to @to, smoothly
 * so that both backends' rounding cannot make it jump. */
CV_HD float
cv_clt_fit_ramp (float v, float from, float to)
{
  /* no division at or below @from, where the weight is 1 anyway: the
   * device's division checks for a numerator of 0 */
  const float over = v - from;
  float t = 0.0f;

  if (over > 0.0f)
    t = fminf (1.0f, cv_divide_normal (over, to - from));
  return (1.0f - t) * (1.0f - t);
}

/* Solves the symmetric positive definite @a x = @b (6 x 6, Cholesky in
 * place); false when @a is not. */
CV_HD bool
cv_clt_fit_solve (float a[6][6], float b[6])
{
  for (int j = 0; j < 6; j++) {
    float d = a[j][j];

    for (int k = 0; k < j; k++)
      d -= a[j][k] * a[j][k];
    if (!(d > 0.0f))
      return false;
    a[j][j] = sqrtf (d);
    for (int i = j + 1; i < 6; i++) {
      float v = a[i][j];

      for (int k = 0; k < j; k++)
        v -= a[i][k] * a[j][k];
      a[i][j] = v / a[j][j];
    }
  }
  for (int i = 0; i < 6; i++) {
    for (int k = 0; k < i; k++)
      b[i] -= a[i][k] * b[k];
    b[i] /= a[i][i];
  }
  for (int i = 5; i >= 0; i--) {
    for (int k = i + 1; k < 6; k++)
      b[i] -= a[k][i] * b[k];
    b[i] /= a[i][i];
  }
  return true;
}

/* The fit's normal equations, summed over a tile's neighbours: the
 * matrix is M kron (u u^T) summed, held as the sums of weight times u u^T
 * (its upper triangle, 6 entries) for each of M's xx, xy and yy, which
 * is all that threads sharing a tile need to add up. */
#define CV_CLT_FIT_PRODUCTS 6
typedef struct
{
  float xx[CV_CLT_FIT_PRODUCTS];
  float xy[CV_CLT_FIT_PRODUCTS];
  float yy[CV_CLT_FIT_PRODUCTS];
  float b[6];
  float total;
} CvCltFitSums;

/* Where u_p u_q (p <= q) lies in the sums' triangles. */
CV_HD int
cv_clt_fit_product (int p, int q)
{
  return p <= q ? p * 3 - p * (p - 1) / 2 + (q - p) :
      q * 3 - q * (q - 1) / 2 + (p - q);
}

/* What a tile brings to each neighbour's fit, whichever neighbour and
 * pass: its match, its weight before distance and residual (confidence
 * times trust, ramped in from the minimum, times a ramp over the first
 * pixel its window overhangs the frame in any frame matched; 0: it does
 * not count), its metric M = shape + floor I (the identity for a rig's
 * disparities) and its texture's centre, where its match is the motion. */
typedef struct
{
  float dx, dy, weight, mxx, myy, mxy, cx, cy;
} CvCltFitSource;

/* Tile (@x, @y)'s source, of matches @m and shapes @shape of a @width x
 * @height frame, the frames matched @views; weight 0 beyond the frame's
 * tiles. */
CV_HD CvCltFitSource
cv_clt_fit_source (const cvcore_clt_match * m, const float *shape, int width,
    int height, const CvCltFitViews * views, int x, int y)
{
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);
  const bool isotropic = views->isotropic;
  CvCltFitSource src = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  const cvcore_clt_match *n;
  const float *s;
  float w;

  if (x < 0 || y < 0 || x >= tiles_x || y >= tiles_y)
    return src;
  n = &m[y * tiles_x + x];
  s = &shape[CVCORE_CLT_SHAPE_FLOATS * (y * tiles_x + x)];
  w = n->confidence * (isotropic ? 1.0f : cv_clt_shape_trust (s));
  /* each cut is a ramp: the backends' rounding must not flip it */
  w *= 1.0f - cv_clt_fit_ramp (w, CV_CLT_FIT_MIN_CONFIDENCE,
      2.0f * CV_CLT_FIT_MIN_CONFIDENCE);
  w *= cv_clt_fit_ramp (cv_clt_fit_views_overhang (views, x, y, n, width,
          height), 0.0f, 1.0f);
  src.dx = n->dx;
  src.dy = n->dy;
  src.weight = w > 0.0f ? w : 0.0f;
  src.mxx = (isotropic ? 0.5f : s[0]) + CV_CLT_FIT_FLOOR;
  src.myy = (isotropic ? 0.5f : s[1]) + CV_CLT_FIT_FLOOR;
  src.mxy = isotropic ? 0.0f : s[2];
  src.cx = s[3];
  src.cy = s[4];
  return src;
}

/* The weight of the neighbour at offset (@i, @j) tiles for its distance. */
CV_HD float
cv_clt_fit_nearness (int i, int j)
{
  return expf (-(float) (i * i + j * j) /
      (2.0f * CV_CLT_FIT_REACH * CV_CLT_FIT_REACH));
}

/* Adds @src, the neighbour at offset (@i, @j) tiles, of nearness
 * @nearness (cv_clt_fit_nearness), to @sums for pass @pass of the fit
 * @fit so far: unknowns (ax, gxx, gxy, ay, gyx, gyy), motion a + g (i, j)
 * at offset (i, j). The neighbour weighs its weight times its nearness,
 * times its metric, divided by 1 + r^T M r / spread^2 for its residual r
 * from the fit so far (at first the tile's own match, and a constant
 * motion), and in the later passes tapered to 0 at reject^2. */
CV_HD void
cv_clt_fit_add_near (const CvCltFitSource * src, int i, int j,
    float nearness, const float fit[6], int pass, CvCltFitSums * sums)
{
  /* a product, not a division, whose slow path a miss of 0 would take:
   * the same where the spreads are powers of 2 */
  const float per_spread2 = pass ? 1.0f / (CV_CLT_FIT_SPREAD *
      CV_CLT_FIT_SPREAD) : 1.0f / (CV_CLT_FIT_FIRST_SPREAD *
      CV_CLT_FIT_FIRST_SPREAD);
  float u[3], w, rx, ry, miss;

  if (!(src->weight > 0.0f))
    return;
  u[0] = 1.0f;
  u[1] = i + src->cx;
  u[2] = j + src->cy;
  w = src->weight * nearness;
  rx = src->dx - (fit[0] + fit[1] * u[1] + fit[2] * u[2]);
  ry = src->dy - (fit[3] + fit[4] * u[1] + fit[5] * u[2]);
  miss = (src->mxx * rx * rx + 2.0f * src->mxy * rx * ry + src->myy * ry * ry)
      * per_spread2;
  w = cv_divide_normal (w, 1.0f + miss);
  /* beyond a boundary: even a small weight would tilt the slope */
  if (pass > 0)
    w *= cv_clt_fit_ramp (miss, 0.0f, CV_CLT_FIT_REJECT * CV_CLT_FIT_REJECT);
  if (!(w > 0.0f))
    return;
  sums->total += w;
  /* A += w (M kron u u^T), b += w (M n) kron u */
  for (int p = 0; p < 3; p++) {
    for (int q = p; q < 3; q++) {
      const float uu = w * u[p] * u[q];
      const int k = cv_clt_fit_product (p, q);

      sums->xx[k] += src->mxx * uu;
      sums->xy[k] += src->mxy * uu;
      sums->yy[k] += src->myy * uu;
    }
    sums->b[p] += w * u[p] * (src->mxx * src->dx + src->mxy * src->dy);
    sums->b[3 + p] += w * u[p] * (src->mxy * src->dx + src->myy * src->dy);
  }
}

/* cv_clt_fit_add_near at the nearness of offset (@i, @j). */
CV_HD void
cv_clt_fit_add (const CvCltFitSource * src, int i, int j, const float fit[6],
    int pass, CvCltFitSums * sums)
{
  cv_clt_fit_add_near (src, i, j, cv_clt_fit_nearness (i, j), fit, pass, sums);
}

/* Pass @pass's new fit from @sums into @fit; false, leaving @fit as it
 * was, when the pass had no neighbours of weight or its system will not
 * solve. */
CV_HD bool
cv_clt_fit_solve_pass (CvCltFitSums * sums, int pass, float fit[6])
{
  float a[6][6];

  if (!(sums->total > 0.0f))
    return false;
  for (int p = 0; p < 3; p++)
    for (int q = 0; q < 3; q++) {
      const int k = cv_clt_fit_product (p, q);

      a[p][q] = sums->xx[k];
      a[p][3 + q] = a[3 + p][q] = sums->xy[k];
      a[3 + p][3 + q] = sums->yy[k];
    }
  for (int k = 1; k < 6; k++)
    if (k != 3)
      a[k][k] += (pass ? CV_CLT_FIT_RIDGE : CV_CLT_FIT_FIRST_RIDGE)
          * sums->total;
  if (!cv_clt_fit_solve (a, sums->b))
    return false;
  for (int k = 0; k < 6; k++)
    fit[k] = sums->b[k];
  return true;
}

/* The fit's first guess at tile @t: its own match, a constant motion. */
CV_HD void
cv_clt_fit_start (const cvcore_clt_match * m, int t, float fit[6])
{
  fit[0] = m[t].dx;
  fit[3] = m[t].dy;
  fit[1] = fit[2] = fit[4] = fit[5] = 0.0f;
}

/* The motion at tile (@tx, @ty)'s centre of the affine motion that best
 * explains the matches of the tiles within @radius (cv_clt_fit_source,
 * cv_clt_fit_add), reweighted over the passes. A pass that
 * cannot solve ends the fit: a tile without neighbours keeps its match. */
CV_HD void
cv_clt_fit_tile (const cvcore_clt_match * m, const float *shape,
    int width, int height, int tx, int ty, int radius,
    const CvCltFitViews * views, float d[2])
{
  float fit[6];

  cv_clt_fit_start (m, ty * cv_clt_tiles (width) + tx, fit);
  for (int pass = 0; pass <= CV_CLT_FIT_REWEIGHTS; pass++) {
    CvCltFitSums sums = { {0.0f}, {0.0f}, {0.0f}, {0.0f}, 0.0f };

    for (int j = -radius; j <= radius; j++)
      for (int i = -radius; i <= radius; i++) {
        const CvCltFitSource src = cv_clt_fit_source (m, shape, width, height,
            views, tx + i, ty + j);

        cv_clt_fit_add (&src, i, j, fit, pass, &sums);
      }
    if (!cv_clt_fit_solve_pass (&sums, pass, fit))
      break;
  }
  d[0] = fit[0];
  d[1] = fit[3];
}

/* Tile @t's fitted match from its fitted motion @d: its own confidence
 * times its trust, fading out over the first pixel by which the fitted
 * motion takes its centre more than half a tile beyond the frame. There
 * its neighbours say that its content left the frame, and its own match,
 * inside, was of something else. */
CV_HD cvcore_clt_match
cv_clt_fit_result (const cvcore_clt_match * m, const float *shape, int width,
    int height, const CvCltFitViews * views, int t, const float d[2])
{
  const int tiles_x = cv_clt_tiles (width);
  cvcore_clt_match out;

  out.dx = d[0];
  out.dy = d[1];
  if (views->isotropic) {
    out.confidence = m[t].confidence;
    return out;
  }
  out.confidence = m[t].confidence *
      cv_clt_shape_trust (&shape[CVCORE_CLT_SHAPE_FLOATS * t]) *
      cv_clt_fit_ramp (cv_clt_match_beyond_frame (t % tiles_x, t / tiles_x,
          d[0], d[1], width, height), 0.0f, 1.0f);
  return out;
}

/* Tile @t's fitted match (cv_clt_fit_tile, cv_clt_fit_result). */
CV_HD cvcore_clt_match
cv_clt_fit_match (const cvcore_clt_match * m, const float *shape, int width,
    int height, int radius, const CvCltFitViews * views, int t)
{
  const int tiles_x = cv_clt_tiles (width);
  float d[2];

  cv_clt_fit_tile (m, shape, width, height, t % tiles_x, t / tiles_x, radius,
      views, d);
  return cv_clt_fit_result (m, shape, width, height, views, t, d);
}

CVCORE_END_DECLS

#endif /* CLT_FIT_COMMON_H */
