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

/* CLT phase correlation: the CPU reference, in the arithmetic the kernels
 * share (clt-correlate-common.h). */
#include "clt-private.h"

#include <math.h>
#include <string.h>

#define SHIFTS (2 * CVCORE_CLT_MAX_SEARCH + 1)

/* c (d) and, when @g and @h are given, its gradient and Hessian (xx, yy,
 * xy) at @d, from the 128 terms of @r ([f][component][re, im]). Each
 * term's phase, wx d0 + wy d1 or wx d0 - wy d1, is formed from the sines
 * of its two parts: 16 sines instead of 128. */
static double
surface (const float r[64][2][2], const double d[2], double g[2], double h[3])
{
  double c = 0.0, sx[8], cx[8], sy[8], cy[8];

  if (g) {
    g[0] = g[1] = 0.0;
    h[0] = h[1] = h[2] = 0.0;
  }
  for (int k = 0; k < 8; k++) {
    sx[k] = sin (CV_PI * (k + 0.5) / 8.0 * d[0]);
    cx[k] = cos (CV_PI * (k + 0.5) / 8.0 * d[0]);
    sy[k] = sin (CV_PI * (k + 0.5) / 8.0 * d[1]);
    cy[k] = cos (CV_PI * (k + 0.5) / 8.0 * d[1]);
  }
  for (int f = 0; f < 64; f++)
    for (int s = 0; s < 2; s++) {
      const int k = f & 7, l = f >> 3;
      const double wx = CV_PI * (k + 0.5) / 8.0;
      const double wy = (s ? -1.0 : 1.0) * CV_PI * (l + 0.5) / 8.0;
      const double cs = s ? cx[k] * cy[l] + sx[k] * sy[l] :
          cx[k] * cy[l] - sx[k] * sy[l];
      const double sn = s ? sx[k] * cy[l] - cx[k] * sy[l] :
          sx[k] * cy[l] + cx[k] * sy[l];
      const double v = r[f][s][0] * cs - r[f][s][1] * sn;
      const double w = r[f][s][0] * sn + r[f][s][1] * cs;

      c += v;
      if (g) {
        g[0] -= w * wx;
        g[1] -= w * wy;
        h[0] -= v * wx * wx;
        h[1] -= v * wy * wy;
        h[2] -= v * wx * wy;
      }
    }
  if (g) {
    g[0] /= 128.0;
    g[1] /= 128.0;
    h[0] /= 128.0;
    h[1] /= 128.0;
    h[2] /= 128.0;
  }
  return c / 128.0;
}

/* The whole-pixel shift within @rad where c is largest, the first in scan
 * order (rows, then columns) among equals, into @d. The sum over the 128
 * terms is split as the kernel splits it: over the vertical frequencies
 * for each (k, dy) first, then over k for each (dx, dy). */
static void
search_whole_pixels (const float r[64][2][2], int rad, double d[2])
{
  double phase[8][SHIFTS][2], partial[8][SHIFTS][2], best = -INFINITY;

  for (int k = 0; k < 8; k++)
    for (int j = 0; j <= 2 * rad; j++) {
      const double th = CV_PI * (k + 0.5) / 8.0 * (j - rad);

      phase[k][j][0] = cos (th);
      phase[k][j][1] = sin (th);
    }
  /* R1 e^{i wy dy} + R2 e^{-i wy dy} summed over the vertical frequencies */
  for (int k = 0; k < 8; k++)
    for (int j = 0; j <= 2 * rad; j++) {
      double re = 0.0, im = 0.0;

      for (int l = 0; l < 8; l++) {
        const float *r1 = r[l * 8 + k][0], *r2 = r[l * 8 + k][1];
        const double cs = phase[l][j][0], sn = phase[l][j][1];

        re += (r1[0] + r2[0]) * cs - (r1[1] - r2[1]) * sn;
        im += (r1[1] + r2[1]) * cs + (r1[0] - r2[0]) * sn;
      }
      partial[k][j][0] = re;
      partial[k][j][1] = im;
    }
  for (int j = 0; j <= 2 * rad; j++)
    for (int i = 0; i <= 2 * rad; i++) {
      double c = 0.0;

      for (int k = 0; k < 8; k++)
        c += partial[k][j][0] * phase[k][i][0] -
            partial[k][j][1] * phase[k][i][1];
      if (c > best) {
        best = c;
        d[0] = i - rad;
        d[1] = j - rad;
      }
    }
}

/* One pass: the motion between the tiles @a and @b, within @rad. */
static void
cpu_correlate_tile (const float *a, const float *b,
    const cvcore_clt_corr_params * params, int rad, cvcore_clt_match * match)
{
  float r[64][2][2];
  double d[2] = { 0.0, 0.0 };

  for (int f = 0; f < 64; f++)
    cv_clt_cross_power (a, b, f, (float) (1.0 / params->full_scale),
        (float) params->fat_zero, cv_clt_lowpass_weight (f,
            (float) (0.5 * params->lowpass * params->lowpass)), r[f][0],
        r[f][1]);
  search_whole_pixels (r, rad, d);
  for (int i = 0; i < CV_CLT_NEWTON_STEPS; i++) {
    double g[2], h[3], det, sx, sy;

    surface (r, d, g, h);
    det = h[0] * h[1] - h[2] * h[2];
    /* only towards a maximum */
    if (!(h[0] < 0.0 && det > 0.0))
      break;
    sx = -(h[1] * g[0] - h[2] * g[1]) / det;
    sy = -(h[0] * g[1] - h[2] * g[0]) / det;
    d[0] += fmax (-0.5, fmin (0.5, sx));
    d[1] += fmax (-0.5, fmin (0.5, sy));
  }
  match->dx = (float) d[0];
  match->dy = (float) d[1];
  match->confidence = (float) surface (r, d, NULL, NULL);
}

/* Every pass of one tile: the second frame's tile transformed where its
 * content came from, by the motion found so far. */
static void
cpu_match_tile (const float *a, const cvcore_image * b, int channel, int tx,
    int ty, const cvcore_clt_corr_params * params, cvcore_clt_match * match)
{
  float d[2] = { (float) params->initial_x, (float) params->initial_y };

  if (params->guided) {
    d[0] = match->dx;
    d[1] = match->dy;
  }

  for (int pass = 0; pass <= params->refinements; pass++) {
    cvcore_clt_params shift;
    cv_clt_plan plan;
    double coef[4][8][8];
    float bf[CVCORE_CLT_COEFFICIENTS];
    cvcore_clt_match m;

    cvcore_clt_params_init (&shift);
    shift.operation = CVCORE_CLT_SHIFT;
    shift.shift_x = -d[0];
    shift.shift_y = -d[1];
    cv_clt_plan_init (&plan, b->width, b->height, &shift);
    cv_clt_cpu_tile_transform (b, channel, tx, ty, &plan, coef);
    for (int i = 0; i < CVCORE_CLT_COEFFICIENTS; i++)
      bf[i] = (float) ((const double *) coef)[i];
    cpu_correlate_tile (a, bf, params, pass ? 1 : params->search_radius, &m);
    d[0] += m.dx;
    d[1] += m.dy;
    match->confidence = m.confidence;
    if (cv_clt_match_settled (m.dx, m.dy, (float) params->converge))
      break;
  }
  match->dx = d[0];
  match->dy = d[1];
  if (!cv_clt_match_kept (tx, ty, d[0], d[1], b->width, b->height,
          params->keep_left_frame, (float) params->max_dy))
    match->confidence = 0.0f;
}

cvcore_status
cv_clt_correlate_cpu (const float *a, const cvcore_image * b, int channel,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches)
{
  const int tiles_x = cvcore_clt_tiles (b->width);
  const int tiles_y = cvcore_clt_tiles (b->height);

  for (int ty = 0; ty < tiles_y; ty++)
    for (int tx = 0; tx < tiles_x; tx++) {
      const size_t t = (size_t) ty * tiles_x + tx;

      cpu_match_tile (a + t * CVCORE_CLT_COEFFICIENTS, b, channel, tx, ty,
          params, &matches[t]);
    }
  return CVCORE_OK;
}

static void
put_pixel (const cvcore_image * dst, int x, int y, const unsigned colour[4])
{
  uint8_t *row;

  if (x < 0 || y < 0 || x >= dst->width || y >= dst->height)
    return;
  row = (uint8_t *) dst->data + (size_t) y *dst->pitch;
  for (int c = 0; c < dst->channels; c++) {
    if (dst->sample == CVCORE_SAMPLE_U16)
      ((uint16_t *) row)[x * dst->channels + c] = (uint16_t) colour[c];
    else
      row[x * dst->channels + c] = (uint8_t) colour[c];
  }
}

cvcore_status
cv_clt_draw_matches_cpu (const cvcore_image * dst,
    const cvcore_clt_match * matches, double scale, double min_confidence,
    const unsigned colour[4])
{
  const int tiles_x = cvcore_clt_tiles (dst->width);
  const int tiles_y = cvcore_clt_tiles (dst->height);

  for (int ty = 0; ty < tiles_y; ty++)
    for (int tx = 0; tx < tiles_x; tx++) {
      const cvcore_clt_match *m = &matches[ty * tiles_x + tx];
      const int n = cv_clt_line_points (m, (float) scale);

      if (!(m->confidence >= min_confidence))
        continue;
      for (int i = 0; i < n; i++) {
        int x, y;

        cv_clt_line_point (m, (float) scale, tx, ty, i, n, &x, &y);
        put_pixel (dst, x, y, colour);
      }
    }
  return CVCORE_OK;
}
