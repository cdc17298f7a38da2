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

/* The complex lapped transform: the CPU reference, in double precision
 * with the plan the kernels share (clt-common.h). */
#include "clt-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Orthonormal 8-point DCT-IV (DST-IV when @sine); both are their own
 * inverses. */
static void
dct4 (const double *in, double *out, bool sine)
{
  static double basis[2][8][8];
  static bool made;

  if (!made) {
    for (int k = 0; k < 8; k++)
      for (int i = 0; i < 8; i++) {
        basis[0][k][i] = 0.5 * cos (CV_PI / 8.0 * (k + 0.5) * (i + 0.5));
        basis[1][k][i] = 0.5 * sin (CV_PI / 8.0 * (k + 0.5) * (i + 0.5));
      }
    made = true;
  }
  for (int k = 0; k < 8; k++) {
    double s = 0.0;

    for (int i = 0; i < 8; i++)
      s += basis[sine][k][i] * in[i];
    out[k] = s;
  }
}

/* 16 windowed samples to the 8 that the DCT-IV (DST-IV) of the MDCT
 * (MDST) takes. */
static void
fold (const double *u, double *f, bool sine)
{
  for (int i = 0; i < 4; i++)
    f[i] = (sine ? u[11 - i] : -u[11 - i]) - u[12 + i];
  for (int i = 4; i < 8; i++)
    f[i] = u[i - 4] + (sine ? u[11 - i] : -u[11 - i]);
}

/* The transpose of fold(), added into @u. */
static void
unfold_add (const double *g, double *u, bool sine)
{
  for (int i = 0; i < 4; i++) {
    u[11 - i] += sine ? g[i] : -g[i];
    u[12 + i] -= g[i];
  }
  for (int i = 4; i < 8; i++) {
    u[i - 4] += g[i];
    u[11 - i] += sine ? g[i] : -g[i];
  }
}

/* The forward transform of a windowed tile @u into @coef [layer][l][k]. */
static void
cpu_block_forward (const double u[16][16], double coef[4][8][8])
{
  double h[2][16][8], f[8], col[16], out[8];

  for (int m = 0; m < 16; m++)
    for (int s = 0; s < 2; s++) {
      fold (u[m], f, s);
      dct4 (f, h[s][m], s);
    }
  for (int layer = 0; layer < 4; layer++) {
    const int hk = layer & 1, vk = layer >> 1;

    for (int k = 0; k < 8; k++) {
      for (int m = 0; m < 16; m++)
        col[m] = h[hk][m][k];
      fold (col, f, vk);
      dct4 (f, out, vk);
      for (int l = 0; l < 8; l++)
        coef[layer][l][k] = out[l];
    }
  }
}

/* Forward transform of tile (@tx, @ty) of channel @c into @coef
 * [layer][l][k]. */
static void
cpu_tile_forward (const cvcore_image * src, int c, int tx, int ty,
    const cv_clt_plan * plan, double coef[4][8][8])
{
  double u[16][16];

  for (int m = 0; m < 16; m++) {
    const int sy = cv_clt_tile_start (ty) + m - plan->offset_y;
    const int y = cv_clt_mirror (sy, src->height);

    for (int n = 0; n < 16; n++) {
      const int sx = cv_clt_tile_start (tx) + n - plan->offset_x;
      const int x = cv_clt_mirror (sx, src->width);

      const int wide = src->sample == CVCORE_SAMPLE_U16;
      double v;

      if (plan->sparse)
        v = cv_clt_sparse_sample (src->data, src->pitch, wide, src->width,
            src->height, plan->bayer, sx, sy, c);
      else if (plan->bayer)     /* interpolated to the sample's precision */
        v = floor (cv_clt_bayer_sample (src->data, src->pitch, wide,
                src->width, src->height, plan->bayer, x, y, c) + 0.5);
      else
        v = cv_clt_sample_at (src, x, y, c);

      u[m][n] = v * plan->window_x[n] * plan->window_y[m];
    }
  }
  cpu_block_forward (u, coef);
}

/* T <- T H, tessarines (re, i, j, ij) with i^2 = j^2 = -1, ij = ji. */
static void
tessarine_multiply (double t[4], const double h[4])
{
  const double a = t[0], b = t[1], c = t[2], d = t[3];

  t[0] = a * h[0] - b * h[1] - c * h[2] + d * h[3];
  t[1] = a * h[1] + b * h[0] - c * h[3] - d * h[2];
  t[2] = a * h[2] + c * h[0] - b * h[3] - d * h[1];
  t[3] = a * h[3] + d * h[0] + b * h[2] + c * h[1];
}

/* The deconvolution response of tile (@tx, @ty) at (@l, @k): the four
 * nearest nodes' responses, bilinearly. */
static void
kernel_response (const cvcore_clt_kernel_set * set, const float *kernels,
    int channel, int tx, int ty, int l, int k, double h[4])
{
  const double px = (double) tx / set->stride, py = (double) ty / set->stride;
  const int x0 = (int) fmin (floor (px), set->nodes_x - 1);
  const int y0 = (int) fmin (floor (py), set->nodes_y - 1);
  const int x1 = x0 + 1 < set->nodes_x ? x0 + 1 : x0;
  const int y1 = y0 + 1 < set->nodes_y ? y0 + 1 : y0;
  const double ax = fmin (px - x0, 1.0), ay = fmin (py - y0, 1.0);
  const size_t node = CVCORE_CLT_COEFFICIENTS;
  const float *base = kernels + (size_t) channel * set->nodes_y *
      set->nodes_x * node;

  for (int layer = 0; layer < 4; layer++) {
    const size_t i = layer * 64 + l * 8 + k;
    const double v00 = base[((size_t) y0 * set->nodes_x + x0) * node + i];
    const double v01 = base[((size_t) y0 * set->nodes_x + x1) * node + i];
    const double v10 = base[((size_t) y1 * set->nodes_x + x0) * node + i];
    const double v11 = base[((size_t) y1 * set->nodes_x + x1) * node + i];

    h[layer] = (1.0 - ay) * ((1.0 - ax) * v00 + ax * v01) +
        ay * ((1.0 - ax) * v10 + ax * v11);
  }
}

/* The operation on tile (@tx, @ty) of colour (or channel) @c, after a
 * sparse mosaic's colour is filled in. */
static void
cpu_tile_operate (const cvcore_clt_scratch * clt, const cv_clt_plan * plan,
    int c, int kernel_channel, int tx, int ty, double coef[4][8][8])
{
  for (int l = 0; l < 8 && plan->sparse; l++)
    for (int k = 0; k < 8; k++)
      for (int layer = 0; layer < 4; layer++)
        coef[layer][l][k] *= cv_clt_demosaic_response (plan->demosaic, c, k, l);
  if (plan->operation == CVCORE_CLT_NONE)
    return;
  for (int l = 0; l < 8; l++)
    for (int k = 0; k < 8; k++) {
      double t[4], h[4];

      for (int layer = 0; layer < 4; layer++)
        t[layer] = coef[layer][l][k];
      if (plan->operation == CVCORE_CLT_DECONVOLVE) {
        kernel_response (&clt->set, clt->kernels, kernel_channel, tx, ty, l,
            k, h);
      } else {
        const double *fx = plan->factor_x[k], *fy = plan->factor_y[l];

        h[0] = fx[0] * fy[0];
        h[1] = fx[1] * fy[0];
        h[2] = fx[0] * fy[1];
        h[3] = fx[1] * fy[1];
      }
      tessarine_multiply (t, h);
      for (int layer = 0; layer < 4; layer++)
        coef[layer][l][k] = t[layer];
    }
}

/* Inverse of one tile, the average of the four layers' inverses, added
 * into the frame-sized @acc. */
static void
cpu_tile_inverse (double coef[4][8][8], int tx, int ty,
    const cv_clt_plan * plan, double *acc)
{
  double v[2][16][8], out[16][16], col[8], g[8], u[16];

  memset (v, 0, sizeof (v));
  memset (out, 0, sizeof (out));
  for (int layer = 0; layer < 4; layer++) {
    const int hk = layer & 1, vk = layer >> 1;

    for (int k = 0; k < 8; k++) {
      for (int l = 0; l < 8; l++)
        col[l] = coef[layer][l][k];
      dct4 (col, g, vk);
      memset (u, 0, sizeof (u));
      unfold_add (g, u, vk);
      for (int m = 0; m < 16; m++)
        v[hk][m][k] += u[m];
    }
  }
  for (int hk = 0; hk < 2; hk++)
    for (int m = 0; m < 16; m++) {
      dct4 (v[hk][m], g, hk);
      unfold_add (g, out[m], hk);
    }
  for (int m = 0; m < 16; m++) {
    const int y = cv_clt_tile_start (ty) + m;

    if (y < 0 || y >= plan->height)
      continue;
    for (int n = 0; n < 16; n++) {
      const int x = cv_clt_tile_start (tx) + n;

      if (x >= 0 && x < plan->width)
        acc[(size_t) y * plan->width + x] += 0.25 * plan->window[m] *
            plan->window[n] * out[m][n];
    }
  }
}

static void
store_sample (const cvcore_image * dst, int x, int y, int c, double v)
{
  uint8_t *row = (uint8_t *) dst->data + (size_t) y * dst->pitch;
  const double full = dst->sample == CVCORE_SAMPLE_U16 ? 65535.0 : 255.0;
  const double r = fmin (fmax (floor (v + 0.5), 0.0), full);

  if (dst->sample == CVCORE_SAMPLE_U16)
    ((uint16_t *) row)[x * dst->channels + c] = (uint16_t) r;
  else
    row[x * dst->channels + c] = (uint8_t) r;
}

/* Where colour (or channel) @c's result goes: the sites of that colour of
 * a mosaic, channel @c of RGBA from a mosaic, or channel @c; a grey
 * picture of a mosaic, every pixel of channel 0. */
static void
cpu_store_channel (const cvcore_image * dst, const cv_clt_plan * plan,
    int c, const double *acc)
{
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++) {
      const double v = acc[(size_t) y * plan->width + x];

      if (!plan->bayer || dst->channels == 4)
        store_sample (dst, x, y, c, v);
      else if (plan->grey || cv_clt_bayer_colour (plan->bayer, x, y) == c)
        store_sample (dst, x, y, 0, v);
    }
}

/* Every tile of colour (or channel) @c processed, @weight times its
 * inverse added into @acc. */
static void
cpu_channel_add (const cvcore_clt_scratch * clt, const cvcore_image * src,
    const cvcore_clt_params * params, const cv_clt_plan * plan, int c,
    double weight, double *acc)
{
  for (int ty = 0; ty < plan->tiles_y; ty++)
    for (int tx = 0; tx < plan->tiles_x; tx++) {
      double coef[4][8][8];

      cpu_tile_forward (src, c, tx, ty, plan, coef);
      cpu_tile_operate (clt, plan, c, clt->set.channels != 3 ? 0 :
          plan->bayer ? c : params->kernel_channel[c], tx, ty, coef);
      for (int i = 0; i < CVCORE_CLT_COEFFICIENTS; i++)
        ((double *) coef)[i] *= weight;
      cpu_tile_inverse (coef, tx, ty, plan, acc);
    }
}

cvcore_status
cv_clt_cpu (cvcore_clt_scratch * clt, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_clt_params * params,
    const cv_clt_plan * plan)
{
  double *acc = clt->planes;
  const size_t n = (size_t) plan->width * plan->height;
  const int planes = plan->bayer ? 3 : src->channels;

  if (plan->grey) {
    /* the colours' weighted inverses, summed */
    memset (acc, 0, n * sizeof (double));
    for (int c = 0; c < 3; c++)
      if (plan->grey_weight[c] != 0.0)
        cpu_channel_add (clt, src, params, plan, c, plan->grey_weight[c], acc);
    cpu_store_channel (dst, plan, 0, acc);
    return CVCORE_OK;
  }
  for (int c = 0; c < planes; c++) {
    if (!plan->bayer && !(params->channel_mask & (1u << c))) {
      for (int y = 0; y < src->height; y++)
        for (int x = 0; x < src->width; x++)
          store_sample (dst, x, y, c, cv_clt_sample_at (src, x, y, c));
      continue;
    }
    memset (acc, 0, n * sizeof (double));
    cpu_channel_add (clt, src, params, plan, c, 1.0, acc);
    cpu_store_channel (dst, plan, c, acc);
  }
  /* RGBA from a mosaic is opaque */
  if (plan->bayer && dst->channels == 4)
    for (int y = 0; y < dst->height; y++)
      for (int x = 0; x < dst->width; x++)
        store_sample (dst, x, y, 3, 65535.0);
  return CVCORE_OK;
}

void
cv_clt_cpu_tile_transform (const cvcore_image * src, int c, int tx, int ty,
    const cv_clt_plan * plan, double coef[4][8][8])
{
  cpu_tile_forward (src, c, tx, ty, plan, coef);
  if (plan->operation == CVCORE_CLT_SHIFT)
    cpu_tile_operate (NULL, plan, c, 0, tx, ty, coef);
}

void
cv_clt_cpu_resampled_transform (const cvcore_image * src, int c, float x,
    float y, double coef[4][8][8])
{
  const int rows = 16 + CV_CLT_RESAMPLE_TAPS - 1;
  const float x0 = floorf (x), y0 = floorf (y);
  float wx[CV_CLT_RESAMPLE_TAPS], wy[CV_CLT_RESAMPLE_TAPS];
  double along[16 + CV_CLT_RESAMPLE_TAPS - 1][16], u[16][16], window[16];

  for (int n = 0; n < 16; n++)
    window[n] = cv_clt_window (n, 0.0);
  cv_clt_resample_weights (x - x0, wx);
  cv_clt_resample_weights (y - y0, wy);
  for (int r = 0; r < rows; r++) {
    const int sy = cv_clt_mirror ((int) y0 + r - CV_CLT_RESAMPLE_BEFORE,
        src->height);

    for (int n = 0; n < 16; n++) {
      double v = 0.0;

      for (int i = 0; i < CV_CLT_RESAMPLE_TAPS; i++)
        v += wx[i] * cv_clt_sample_at (src, cv_clt_mirror ((int) x0 + n + i -
                CV_CLT_RESAMPLE_BEFORE, src->width), sy, c);
      along[r][n] = v;
    }
  }
  for (int m = 0; m < 16; m++)
    for (int n = 0; n < 16; n++) {
      double v = 0.0;

      for (int i = 0; i < CV_CLT_RESAMPLE_TAPS; i++)
        v += wy[i] * along[m + i][n];
      u[m][n] = v * window[n] * window[m];
    }
  cpu_block_forward (u, coef);
}

cvcore_status
cv_clt_forward_cpu (const cvcore_image * src, int channel,
    const cv_clt_plan * plan, float *coefficients)
{
  for (int ty = 0; ty < plan->tiles_y; ty++)
    for (int tx = 0; tx < plan->tiles_x; tx++) {
      double coef[4][8][8];
      float *out = coefficients + ((size_t) ty * plan->tiles_x + tx) *
          CVCORE_CLT_COEFFICIENTS;

      cpu_tile_forward (src, channel, tx, ty, plan, coef);
      for (int i = 0; i < CVCORE_CLT_COEFFICIENTS; i++)
        out[i] = (float) ((const double *) coef)[i];
    }
  return CVCORE_OK;
}
