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

/* Device code that the CLT's kernels share: the transform of one tile by
 * one warp (see clt.cu). */
#ifndef CLT_DEVICE_CUH
#define CLT_DEVICE_CUH

#include "clt-common.h"

#include <cuda_runtime.h>

namespace {

/* 0.5 cos (pi / 8 (k + 1/2) (i + 1/2)): the orthonormal DCT-IV, symmetric
 * and its own inverse. */
__constant__ float kBasis[64] = {
  0.497592363f,
  0.478470168f,
  0.440960632f,
  0.386505227f,
  0.317196642f,
  0.235698368f,
  0.145142339f,
  0.049008570f,
  0.478470168f,
  0.317196642f,
  0.049008570f,
  -0.235698368f,
  -0.440960632f,
  -0.497592363f,
  -0.386505227f,
  -0.145142339f,
  0.440960632f,
  0.049008570f,
  -0.386505227f,
  -0.478470168f,
  -0.145142339f,
  0.317196642f,
  0.497592363f,
  0.235698368f,
  0.386505227f,
  -0.235698368f,
  -0.478470168f,
  0.049008570f,
  0.497592363f,
  0.145142339f,
  -0.440960632f,
  -0.317196642f,
  0.317196642f,
  -0.440960632f,
  -0.145142339f,
  0.497592363f,
  -0.049008570f,
  -0.478470168f,
  0.235698368f,
  0.386505227f,
  0.235698368f,
  -0.497592363f,
  0.317196642f,
  0.145142339f,
  -0.478470168f,
  0.386505227f,
  0.049008570f,
  -0.440960632f,
  0.145142339f,
  -0.386505227f,
  0.497592363f,
  -0.440960632f,
  0.235698368f,
  0.049008570f,
  -0.317196642f,
  0.478470168f,
  0.049008570f,
  -0.145142339f,
  0.235698368f,
  -0.317196642f,
  0.386505227f,
  -0.440960632f,
  0.478470168f,
  -0.497592363f,
};

struct Plan
{
  int width, height, tiles_x, tiles_y;
  int operation;
  unsigned bayer;
  /* a mosaic's grey picture (its colours weighted; sparse: summed before
   * the inverse, into the first plane) */
  bool grey, sparse;
  float grey_weight[3];
  float demosaic[8];
  int offset_x, offset_y;
  float window_x[16], window_y[16], window[16];
  float factor_x[8][2], factor_y[8][2];
};

struct Image
{
  unsigned char *data;
  size_t pitch;
  int channels;
  bool wide;

  __device__ __forceinline__ float
  at (int x, int y, int c) const
  {
    const unsigned char *row = data + y * pitch;

    return wide ? (float) reinterpret_cast<const unsigned short *> (
               row)[x * channels + c]
                : (float) row[x * channels + c];
  }

  /* @v rounded to the nearest sample value and clamped to the range */
  __device__ __forceinline__ unsigned
  quantise (float v) const
  {
    return (unsigned) fminf (fmaxf (floorf (v + 0.5f), 0.0f),
        wide ? 65535.0f : 255.0f);
  }

  __device__ __forceinline__ void
  store (int x, int y, int c, float v) const
  {
    unsigned char *row = data + y * pitch;
    const unsigned r = quantise (v);

    if (wide)
      reinterpret_cast<unsigned short *> (row)[x * channels + c] =
          (unsigned short) r;
    else
      row[x * channels + c] = (unsigned char) r;
  }
};

/* Per warp: the windowed tile, the horizontal pass (transposed: each
 * lane of the vertical pass reads its column as a row) and the inverse's
 * vertical pass. Rows are padded so that the 128-bit accesses of eight
 * lanes fall on distinct banks. */
struct __align__ (16) TileShared
{
  float pix[16][20];
  /* the tile's forward windows along x and y */
  float wx[16], wy[16];
  /* [kind][k][m], the kinds 176 floats apart (16 banks) */
  float h[2 * 176];
  union
  {
    float v[2 * 176];
    /* transform_moved()'s phase factors, which the forward pass leaves
     * alone: (cos, sin) for k = 0..7, then for l = 0..7 */
    float2 rotation[16];
  };

  __device__ __forceinline__ float *h_row (int kind, int k)
  {
    return h + kind * 176 + k * 20;
  }
};

/* Row @k of kind @kind of a pass's 2 x 176 floats (TileShared's layout). */
__device__ __forceinline__ float *
pass_row (float *rows, int kind, int k)
{
  return rows + kind * 176 + k * 20;
}

__device__ __forceinline__ void
dct4 (const float *in, float *out, bool sine)
{
  float v[8];

#pragma unroll
  for (int i = 0; i < 8; i++)
    v[i] = sine ? in[7 - i] : in[i];
#pragma unroll
  for (int k = 0; k < 8; k++) {
    float s = 0.0f;

#pragma unroll
    for (int i = 0; i < 8; i++)
      s = fmaf (kBasis[k * 8 + i], v[i], s);
    out[k] = sine && (k & 1) ? -s : s;
  }
}

__device__ __forceinline__ void
fold (const float *u, float *f, bool sine)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    f[i] = (sine ? u[11 - i] : -u[11 - i]) - u[12 + i];
#pragma unroll
  for (int i = 4; i < 8; i++)
    f[i] = u[i - 4] + (sine ? u[11 - i] : -u[11 - i]);
}

__device__ __forceinline__ void
unfold (const float *g, float *u, bool sine)
{
#pragma unroll
  for (int i = 0; i < 4; i++) {
    u[11 - i] = sine ? g[i] : -g[i];
    u[12 + i] = -g[i];
  }
#pragma unroll
  for (int i = 4; i < 8; i++) {
    u[i - 4] = g[i];
    u[11 - i] = sine ? g[i] : -g[i];
  }
}

/* 16 floats of a 16-byte aligned shared row into @u, four at a time. */
__device__ __forceinline__ void
load_row16 (const float *row, float u[16])
{
#pragma unroll
  for (int j = 0; j < 4; j++) {
    const float4 q = reinterpret_cast<const float4 *> (row)[j];

    u[4 * j] = q.x;
    u[4 * j + 1] = q.y;
    u[4 * j + 2] = q.z;
    u[4 * j + 3] = q.w;
  }
}

/* Samples x .. x + 7 of row y (all inside the frame) into @out: wide
 * loads where the layout allows, else one by one. */
__device__ __forceinline__ void
load_run (const Image &src, int x, int y, int c, float *out)
{
  const unsigned char *p =
      src.data + y * src.pitch + (size_t) x * src.channels * (src.wide ? 2 : 1);
  const uintptr_t misalignment = reinterpret_cast<uintptr_t> (p) & 15;
  const bool aligned = misalignment == 0;

  /* eight bytes need only their own alignment: every other tile of a grey
   * frame starts 8 bytes past 16 */
  if ((misalignment & 7) == 0 && !src.wide && src.channels == 1) {
    const uint2 v = *reinterpret_cast<const uint2 *> (p);

#pragma unroll
    for (int j = 0; j < 4; j++) {
      out[j] = (float) (v.x >> (8 * j) & 0xff);
      out[j + 4] = (float) (v.y >> (8 * j) & 0xff);
    }
  } else if (aligned && !src.wide && src.channels == 4) {
    const uint4 a = reinterpret_cast<const uint4 *> (p)[0];
    const uint4 b = reinterpret_cast<const uint4 *> (p)[1];
    const unsigned words[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };

#pragma unroll
    for (int j = 0; j < 8; j++)
      out[j] = (float) (words[j] >> (8 * c) & 0xff);
  } else if (aligned && src.wide && src.channels == 1) {
    const uint4 a = *reinterpret_cast<const uint4 *> (p);
    const unsigned words[4] = { a.x, a.y, a.z, a.w };

#pragma unroll
    for (int j = 0; j < 4; j++) {
      out[2 * j] = (float) (words[j] & 0xffff);
      out[2 * j + 1] = (float) (words[j] >> 16);
    }
  } else {
#pragma unroll
    for (int j = 0; j < 8; j++)
      out[j] = src.at (x + j, y, c);
  }
}

/* The forward transform of the windowed tile in s.pix (written before a
 * __syncwarp), the lanes' coefficients as forward() leaves them. */
__device__ __forceinline__ void
forward_windowed (TileShared &s, int lane, float coef[8])
{
  {
    const int m = lane & 15;
    const bool sine = lane >> 4;
    float u[16], f[8], o[8];

    load_row16 (s.pix[m], u);
    fold (u, f, sine);
    dct4 (f, o, sine);
#pragma unroll
    for (int k = 0; k < 8; k++)
      s.h_row (sine, k)[m] = o[k];
  }
  __syncwarp ();
  {
    const int k = lane & 7, hk = lane >> 3 & 1;
    const bool vk = lane >> 4;
    float u[16], f[8];

    load_row16 (s.h_row (hk, k), u);
    fold (u, f, vk);
    dct4 (f, coef, vk);
  }
}

/* Loads the tile of channel c whose pixels start at (x0, y0) (mirrored
 * into the frame), weighted by the windows in s.wx and s.wy (written
 * before a __syncwarp), and runs the forward transform: lane (k, hk, vk) =
 * (lane & 7, lane >> 3 & 1, lane >> 4) ends with the coefficients l =
 * 0..7 of column k of layer hk + 2 vk. */
__device__ __forceinline__ void
forward (const Image &src, int c, int width, int height, int x0, int y0,
    TileShared &s, int lane, float coef[8])
{
  {
    const int m = lane >> 1, n0 = (lane & 1) * 8;
    /* most rows lie inside the frame: no division to mirror them */
    const int y = (unsigned) (y0 + m) < (unsigned) height
        ? y0 + m
        : cv_clt_mirror (y0 + m, height);
    const int x = x0 + n0;
    const float wy = s.wy[m];
    float v[8];

    /* most tiles lie inside the frame: no mirroring along x */
    if (x >= 0 && x + 8 <= width) {
      load_run (src, x, y, c, v);
    } else {
#pragma unroll
      for (int j = 0; j < 8; j++)
        v[j] = src.at (cv_clt_mirror (x + j, width), y, c);
    }
#pragma unroll
    for (int j = 0; j < 8; j++)
      v[j] *= s.wx[n0 + j] * wy;
    reinterpret_cast<float4 *> (&s.pix[m][n0])[0] =
        make_float4 (v[0], v[1], v[2], v[3]);
    reinterpret_cast<float4 *> (&s.pix[m][n0])[1] =
        make_float4 (v[4], v[5], v[6], v[7]);
  }
  __syncwarp ();
  forward_windowed (s, lane, coef);
}

/* coef <- coef H at this lane's frequencies, H = (e, f, g, h) as the
 * tessarine's components. Lane layer L = hk + 2 vk holds one component of
 * T; the others are one shuffle away, and the product's component L is
 * v e + T[L^1] f s8 + T[L^2] g s16 + T[L^3] h s24 with the signs below. */
__device__ __forceinline__ float
tessarine_component (float v, float e, float f, float g, float h, int lane)
{
  const bool hk = lane >> 3 & 1, vk = lane >> 4;
  const float p8 = __shfl_xor_sync (0xffffffffu, v, 8);
  const float p16 = __shfl_xor_sync (0xffffffffu, v, 16);
  const float p24 = __shfl_xor_sync (0xffffffffu, v, 24);

  return v * e + p8 * (hk ? f : -f) + p16 * (vk ? g : -g)
      + p24 * (hk == vk ? h : -h);
}

/* The plan's windows into the warp's shared memory. */
__device__ __forceinline__ void
plan_windows (const Plan &p, float *wx, float *wy, int lane)
{
  if (lane < 16)
    wx[lane] = p.window_x[lane];
  else
    wy[lane - 16] = p.window_y[lane - 16];
  __syncwarp ();
}

/* A deconvolution's kernel set on the device. */
struct Kernels
{
  const float *data; /* [channel][ny][nx][4][8][8] */
  int stride, nodes_x, nodes_y;
};

__device__ __forceinline__ void
operate (const Plan &p, const Kernels &kernels, int kernel_channel, int tx,
    int ty, int lane, float coef[8])
{
  const int k = lane & 7, layer = lane >> 3;

  if (p.operation == CVCORE_CLT_DECONVOLVE) {
    const float px = (float) tx / kernels.stride;
    const float py = (float) ty / kernels.stride;
    const int x0 = min ((int) px, kernels.nodes_x - 1);
    const int y0 = min ((int) py, kernels.nodes_y - 1);
    const int x1 = min (x0 + 1, kernels.nodes_x - 1);
    const int y1 = min (y0 + 1, kernels.nodes_y - 1);
    const float ax = fminf (px - x0, 1.0f), ay = fminf (py - y0, 1.0f);
    /* on the device each response is [layer][k][l]: a lane's 8 values
     * are two float4 */
    const float *base = kernels.data
        + (size_t) kernel_channel * kernels.nodes_y * kernels.nodes_x
            * CVCORE_CLT_COEFFICIENTS
        + layer * 64 + k * 8;
    const float4 *n00 = reinterpret_cast<const float4 *> (
        base + (y0 * kernels.nodes_x + x0) * 256);
    const float4 *n01 = reinterpret_cast<const float4 *> (
        base + (y0 * kernels.nodes_x + x1) * 256);
    const float4 *n10 = reinterpret_cast<const float4 *> (
        base + (y1 * kernels.nodes_x + x0) * 256);
    const float4 *n11 = reinterpret_cast<const float4 *> (
        base + (y1 * kernels.nodes_x + x1) * 256);
    float mine[8];

#pragma unroll
    for (int j = 0; j < 2; j++) {
      const float4 a = __ldg (n00 + j), b = __ldg (n01 + j);
      const float4 c = __ldg (n10 + j), d = __ldg (n11 + j);
      const float wa = (1.0f - ax) * (1.0f - ay), wb = ax * (1.0f - ay);
      const float wc = (1.0f - ax) * ay, wd = ax * ay;

      mine[4 * j] = wa * a.x + wb * b.x + wc * c.x + wd * d.x;
      mine[4 * j + 1] = wa * a.y + wb * b.y + wc * c.y + wd * d.y;
      mine[4 * j + 2] = wa * a.z + wb * b.z + wc * c.z + wd * d.z;
      mine[4 * j + 3] = wa * a.w + wb * b.w + wc * c.w + wd * d.w;
    }
#pragma unroll
    for (int l = 0; l < 8; l++)
      coef[l] =
          tessarine_component (coef[l], __shfl_sync (0xffffffffu, mine[l], k),
              __shfl_sync (0xffffffffu, mine[l], k + 8),
              __shfl_sync (0xffffffffu, mine[l], k + 16),
              __shfl_sync (0xffffffffu, mine[l], k + 24), lane);
  } else if (p.operation != CVCORE_CLT_NONE) {
    const float cx = p.factor_x[k][0], sx = p.factor_x[k][1];

#pragma unroll
    for (int l = 0; l < 8; l++) {
      const float cy = p.factor_y[l][0], sy = p.factor_y[l][1];

      coef[l] = tessarine_component (coef[l], cx * cy, sx * cy, cx * sy,
          sx * sy, lane);
    }
  }
}

/* Inverse of the tile whose coefficients the lanes hold, as in forward()
 * backwards, its vertical pass through @rows (2 x 176 floats of shared
 * memory, 16-byte aligned); writes its four quadrants. */
__device__ __forceinline__ void
inverse (const Plan &p, float *planes, size_t pitch, int tx, int ty,
    float *rows, int lane, const float coef[8])
{
  const size_t plane_rows = (size_t) p.tiles_y * 8;

  {
    const int k = lane & 7, hk = lane >> 3 & 1;
    const bool vk = lane >> 4;
    float g[8], u[16], sum[8];

    dct4 (coef, g, vk);
    unfold (g, u, vk);
    /* the two vertical kinds add up: lane vk = 0 keeps rows 0..7, its
     * partner rows 8..15 */
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const float other =
          __shfl_xor_sync (0xffffffffu, vk ? u[i] : u[i + 8], 16);

      sum[i] = (vk ? u[i + 8] : u[i]) + other;
    }
    reinterpret_cast<float4 *> (pass_row (rows, hk, k) + 8 * vk)[0] =
        make_float4 (sum[0], sum[1], sum[2], sum[3]);
    reinterpret_cast<float4 *> (pass_row (rows, hk, k) + 8 * vk)[1] =
        make_float4 (sum[4], sum[5], sum[6], sum[7]);
  }
  __syncwarp ();
  {
    const int m = lane & 15;
    const bool hk = lane >> 4;
    const float wm = 0.25f * p.window[m];
    float r[8], g[8], u[16];
    float *out;

#pragma unroll
    for (int k = 0; k < 8; k++)
      r[k] = pass_row (rows, hk, k)[m];
    dct4 (r, g, hk);
    unfold (g, u, hk);
    /* lane hk = 0 finishes columns 0..7, its partner 8..15 */
    out = reinterpret_cast<float *> (reinterpret_cast<char *> (planes)
              + ((((m >> 3) * 2 + hk) * plane_rows) + ty * 8 + (m & 7)) * pitch)
        + tx * 8;
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const float other =
          __shfl_xor_sync (0xffffffffu, hk ? u[i] : u[i + 8], 16);

      r[i] = wm * p.window[8 * hk + i] * ((hk ? u[i + 8] : u[i]) + other);
    }
    reinterpret_cast<float4 *> (out)[0] = make_float4 (r[0], r[1], r[2], r[3]);
    reinterpret_cast<float4 *> (out)[1] = make_float4 (r[4], r[5], r[6], r[7]);
  }
}

Plan
device_plan (const cv_clt_plan *plan)
{
  Plan p;

  p.width = plan->width;
  p.height = plan->height;
  p.tiles_x = plan->tiles_x;
  p.tiles_y = plan->tiles_y;
  p.operation = plan->operation;
  p.bayer = plan->bayer;
  p.grey = plan->grey;
  p.sparse = plan->sparse;
  for (int c = 0; c < 3; c++)
    p.grey_weight[c] = (float) plan->grey_weight[c];
  p.offset_x = plan->offset_x;
  p.offset_y = plan->offset_y;
  for (int n = 0; n < 16; n++) {
    p.window_x[n] = (float) plan->window_x[n];
    p.window_y[n] = (float) plan->window_y[n];
    p.window[n] = (float) plan->window[n];
  }
  for (int k = 0; k < 8; k++)
    p.demosaic[k] = (float) plan->demosaic[k];
  for (int k = 0; k < 8; k++)
    for (int i = 0; i < 2; i++) {
      p.factor_x[k][i] = (float) plan->factor_x[k][i];
      p.factor_y[k][i] = (float) plan->factor_y[k][i];
    }
  return p;
}

Image
device_image (const cvcore_image *im)
{
  Image d;

  d.data = static_cast<unsigned char *> (im->data);
  d.pitch = im->pitch;
  d.channels = im->channels;
  d.wide = im->sample == CVCORE_SAMPLE_U16;
  return d;
}

/* Tile (@tx, @ty) of channel @c of @src sampled where its content came
 * from, @d back (whole pixels by position, the fraction by window and
 * phase rotation, as the shift operation does), into @out ([layer][l][k],
 * shared memory), with @t as the transform's space. */
__device__ __forceinline__ void
transform_moved (const Image &src, int c, int width, int height, int tx, int ty,
    const float d[2], TileShared &t, float *out, int lane)
{
  const float shift_x = -d[0], shift_y = -d[1];
  const float ox = roundf (shift_x), oy = roundf (shift_y);
  const float fx = shift_x - ox, fy = shift_y - oy;
  const int k = lane & 7;
  float coef[8];

  /* one sine a lane: both halves of the warp on one path */
  (lane < 16 ? t.wx : t.wy)[lane & 15] =
      sinpif (((lane & 15) + 0.5f + (lane < 16 ? fx : fy)) / 16.0f);
  /* the 16 phase factors once per warp rather than nine per lane */
  if (lane < 16) {
    float sn, cs;

    sincospif ((k + 0.5f) / 8.0f * (lane < 8 ? fx : fy), &sn, &cs);
    t.rotation[lane] = make_float2 (cs, sn);
  }
  __syncwarp ();
  forward (src, c, width, height, cv_clt_tile_start (tx) - (int) ox,
      cv_clt_tile_start (ty) - (int) oy, t, lane, coef);
  {
    const float2 x = t.rotation[k];

#pragma unroll
    for (int l = 0; l < 8; l++) {
      const float2 y = t.rotation[8 + l];

      out[(lane >> 3) * 64 + l * 8 + k] = tessarine_component (coef[l],
          x.x * y.x, x.y * y.x, x.x * y.y, x.y * y.y, lane);
    }
  }
  __syncwarp ();
}

/* Column @sx of channel @c of @src (samples of type T), ROWS rows from
 * @top on, into @v, every load in flight at once: straight down where the
 * rows lie inside the frame, as tiles away from its edges find them, else
 * through the mirror rule. */
template <typename T, int ROWS>
__device__ __forceinline__ void
load_source_column (const Image &src, int c, int height, int sx, int top,
    float v[ROWS])
{
  const unsigned char *column = src.data + (sx * src.channels + c) * sizeof (T);

  if (top >= 0 && top <= height - ROWS) {
    column += (size_t) top * src.pitch;
#pragma unroll
    for (int r = 0; r < ROWS; r++, column += src.pitch)
      v[r] = (float) *reinterpret_cast<const T *> (column);
    return;
  }
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    const int sy = (unsigned) (top + r) < (unsigned) height
        ? top + r
        : cv_clt_mirror (top + r, height);

    v[r] =
        (float) *reinterpret_cast<const T *> (column + (size_t) sy * src.pitch);
  }
}

/* cv_clt_resample_weights() of @fx into @wx and of @fy into @wy, with
 * each weight evaluated by one lane (lane i < 6 weight i of x, lane 8 + i
 * weight i of y) and each quotient likewise, instead of all 24 by every
 * lane; the quotients are the hardware's (within 2 ulp). */
__device__ __forceinline__ void
resample_weights_shared (float fx, float fy, int lane,
    float wx[CV_CLT_RESAMPLE_TAPS], float wy[CV_CLT_RESAMPLE_TAPS])
{
  constexpr int taps = CV_CLT_RESAMPLE_TAPS;
  const float own =
      cv_clt_resample_weight ((lane & 8) ? fy : fx, min (lane & 7, taps - 1));
  float sum_x = 0.0f, sum_y = 0.0f;

#pragma unroll
  for (int i = 0; i < taps; i++) {
    sum_x += __shfl_sync (0xffffffffu, own, i);
    sum_y += __shfl_sync (0xffffffffu, own, 8 + i);
  }
  const float quotient = __fdividef (own, (lane & 8) ? sum_y : sum_x);

#pragma unroll
  for (int i = 0; i < taps; i++) {
    wx[i] = __shfl_sync (0xffffffffu, quotient, i);
    wy[i] = __shfl_sync (0xffffffffu, quotient, 8 + i);
  }
}

/* Tile (@tx, @ty) of channel @c of @src sampled where its content came
 * from, @d back, between pixels where that is not whole
 * (cv_clt_resample_weights) and windowed in place, into @out
 * ([layer][l][k], shared memory), with @t as the transform's space. Along
 * x, lane i loads column i of each source row, one coalesced load a row,
 * and the first 16 lanes take their six samples from their neighbours;
 * those rows go through t.h, which the transform writes only later.
 * Along an axis where the position is whole (one of a square rig's axes
 * for every view but the diagonal one) the weights are 0 but one 1, so
 * the samples are taken as they are: what the sums would give, as the
 * samples are finite and not negative. */
__device__ __forceinline__ void
transform_resampled (const Image &src, int c, int width, int height, int tx,
    int ty, const float d[2], TileShared &t, float *out, int lane)
{
  constexpr int taps = CV_CLT_RESAMPLE_TAPS;
  constexpr int rows = 16 + taps - 1;
  const float x = (float) cv_clt_tile_start (tx) + d[0];
  const float y = (float) cv_clt_tile_start (ty) + d[1];
  const float x0 = floorf (x), y0 = floorf (y);
  const int top = (int) y0 - CV_CLT_RESAMPLE_BEFORE;
  /* lanes past the rows' 21 samples read the last one, unused */
  const int column = (int) x0 - CV_CLT_RESAMPLE_BEFORE + min (lane, rows - 1);
  const int sx = (unsigned) column < (unsigned) width
      ? column
      : cv_clt_mirror (column, width);
  float *along = t.h;
  float coef[8], wx[taps], wy[taps];

  (lane < 16 ? t.wx : t.wy)[lane & 15] = sinpif (((lane & 15) + 0.5f) / 16.0f);
  float v[rows];

  if (src.wide)
    load_source_column<unsigned short, rows> (src, c, height, sx, top, v);
  else
    load_source_column<unsigned char, rows> (src, c, height, sx, top, v);
  resample_weights_shared (x - x0, y - y0, lane, wx, wy);
  if (x == x0) {
#pragma unroll
    for (int r = 0; r < rows; r++) {
      const float o =
          __shfl_sync (0xffffffffu, v[r], (lane & 15) + CV_CLT_RESAMPLE_BEFORE);

      if (lane < 16)
        along[r * 16 + lane] = o;
    }
  } else {
#pragma unroll
    for (int r = 0; r < rows; r++) {
      float o = 0.0f;

#pragma unroll
      for (int i = 0; i < taps; i++)
        o = fmaf (wx[i], __shfl_sync (0xffffffffu, v[r], (lane & 15) + i), o);
      if (lane < 16)
        along[r * 16 + lane] = o;
    }
  }
  __syncwarp ();
  {
    /* lane (n, half): column n, rows 8 half .. 8 half + 7 */
    const int n = lane & 15, m0 = (lane >> 4) * 8;
    const float window_x = t.wx[n];
    const bool whole_y = y == y0;
    float column_samples[8 + taps - 1];

#pragma unroll
    for (int k = 0; k < 8 + taps - 1; k++)
      column_samples[k] = along[(m0 + k) * 16 + n];
#pragma unroll
    for (int j = 0; j < 8; j++) {
      float v = column_samples[j + CV_CLT_RESAMPLE_BEFORE];

      if (!whole_y) {
        v = 0.0f;
#pragma unroll
        for (int i = 0; i < taps; i++)
          v = fmaf (wy[i], column_samples[j + i], v);
      }
      t.pix[m0 + j][n] = v * window_x * t.wy[m0 + j];
    }
  }
  __syncwarp ();
  forward_windowed (t, lane, coef);
#pragma unroll
  for (int l = 0; l < 8; l++)
    out[(lane >> 3) * 64 + l * 8 + (lane & 7)] = coef[l];
  __syncwarp ();
}

} /* namespace */

#endif /* CLT_DEVICE_CUH */
