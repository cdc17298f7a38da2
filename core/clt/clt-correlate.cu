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

/* CLT phase correlation on CUDA: one warp per tile, four tiles per block,
 * one launch per pass.
 *
 * The warp transforms the second frame's tile where its content came from
 * (the motion found so far: whole pixels by position, the fraction by
 * window and phase rotation) and keeps its coefficients in shared memory.
 * Each lane forms the cross-power spectrum at two of the tile's 64
 * frequencies (both components). The correlation surface at the 15 x 15
 * whole-pixel shifts is separable in its phase factors: the lanes first
 * sum over the vertical frequencies for each (k, dy), then over k for each
 * (dx, dy), and the warp picks the maximum within the search radius. The
 * Newton steps that follow need the surface's gradient and Hessian at one
 * point: each lane adds its four terms and the warp sums them. */
#include "clt-correlate-common.h"
#include "clt-pyramid-common.h"
#include "clt-device.cuh"
#include "clt-private.h"
#include "launch.cuh"

#include <math_constants.h>

namespace {

constexpr int kTilesPerBlock = 4;
constexpr int kShifts = 2 * CVCORE_CLT_MAX_SEARCH + 1;

__device__ __forceinline__ float
warp_sum (float v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  return v;
}

/* What every tile of a call uses, made once on the host: e^{i w_l d}, d
 * = -7..7 (the horizontal and vertical grids are the same), and the
 * lowpass's weight per frequency. */
struct CorrTables
{
  float2 twiddle[8][kShifts + 1];
  float weight[64];
};

/* Per block the tables, and per warp the second tile's coefficients, the
 * cross-power spectrum and the partial sums of the surface. */
struct CorrShared
{
  CorrTables tables;
  float b[kTilesPerBlock][CVCORE_CLT_COEFFICIENTS];
  /* the transform's space is free once b holds its result */
  union
  {
    TileShared tile;
    struct
    {
      /* R1 + R2 and R1 - R2 per frequency */
      float2 terms[2][64];
      float2 partial[8][kShifts + 1];
    } sums;
  } warp[kTilesPerBlock];
};

/* The whole-pixel shift of the surface's maximum within @radius, from the
 * cross-power terms R1 + R2 and R1 - R2 in @terms, into @d. Wide searches
 * keep a shift's phase factors in a lane's registers. */
__device__ __forceinline__ void
whole_pixel_peak (const float2 (*terms)[64], float2 (*partial)[kShifts + 1],
    const float2 (*twiddle)[kShifts + 1], int radius, int lane, float d[2])
{
  const int span = 2 * radius + 1, first_shift = CVCORE_CLT_MAX_SEARCH - radius;
  const bool wide = span > 8;
  float best = -1e30f;
  int best_index = 0;

  /* per (k, dy): sum over l of R1 e^{i wl dy} + R2 e^{-i wl dy}, for the
   * dy within the radius; wide, lane (dy, half) takes four k */
  if (wide && lane < 2 * span) {
    const int dyi = first_shift + lane % span, k0 = 4 * (lane / span);
    float2 t[8];

#pragma unroll
    for (int l = 0; l < 8; l++)
      t[l] = twiddle[l][dyi];
#pragma unroll
    for (int k = k0; k < k0 + 4; k++) {
      float re = 0.0f, im = 0.0f;

#pragma unroll
      for (int l = 0; l < 8; l++) {
        const float2 p = terms[0][l * 8 + k], m = terms[1][l * 8 + k];

        re += p.x * t[l].x - m.y * t[l].y;
        im += p.y * t[l].x + m.x * t[l].y;
      }
      partial[k][dyi] = make_float2 (re, im);
    }
  }
  for (int e = wide ? 8 * span : lane; e < 8 * span; e += 32) {
    const int k = e / span, dyi = first_shift + e % span;
    float re = 0.0f, im = 0.0f;

#pragma unroll
    for (int l = 0; l < 8; l++) {
      const float2 p = terms[0][l * 8 + k], m = terms[1][l * 8 + k];
      const float2 t = twiddle[l][dyi];

      re += p.x * t.x - m.y * t.y;
      im += p.y * t.x + m.x * t.y;
    }
    partial[k][dyi] = make_float2 (re, im);
  }
  __syncwarp ();
  /* per (dx, dy) within the radius: Re sum over k of the partial
   * e^{i wk dx}; wide, lane (dx, half) takes half the rows */
  if (wide && lane < 2 * span) {
    const int dxi = first_shift + lane % span, rows = (span + 1) / 2;
    const int j0 = rows * (lane / span), j1 = min (span, j0 + rows);
    float2 t[8];

#pragma unroll
    for (int k = 0; k < 8; k++)
      t[k] = twiddle[k][dxi];
    for (int j = j0; j < j1; j++) {
      const int dyi = first_shift + j;
      float c = 0.0f;

#pragma unroll
      for (int k = 0; k < 8; k++) {
        const float2 g = partial[k][dyi];

        c += g.x * t[k].x - g.y * t[k].y;
      }
      if (c > best) {
        best = c;
        best_index = dyi * kShifts + dxi;
      }
    }
  }
  for (int q = wide ? span * span : lane; q < span * span; q += 32) {
    const int dxi = first_shift + q % span, dyi = first_shift + q / span;
    float c = 0.0f;

#pragma unroll
    for (int k = 0; k < 8; k++) {
      const float2 g = partial[k][dyi], t = twiddle[k][dxi];

      c += g.x * t.x - g.y * t.y;
    }
    if (c > best) {
      best = c;
      best_index = dyi * kShifts + dxi;
    }
  }
  /* the maximum, the first in scan order among equals */
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const float ob = __shfl_xor_sync (0xffffffffu, best, o);
    const int oi = __shfl_xor_sync (0xffffffffu, best_index, o);

    if (ob > best || (ob == best && oi < best_index)) {
      best = ob;
      best_index = oi;
    }
  }
  d[0] = (float) (best_index % kShifts - CVCORE_CLT_MAX_SEARCH);
  d[1] = (float) (best_index / kShifts - CVCORE_CLT_MAX_SEARCH);
}

/* Newton's steps from @d towards the surface's maximum, from this lane's
 * terms @r (frequencies lane and lane + 32); the peak's height. */
__device__ __forceinline__ float
subpixel_peak (const float (*r)[2][2], int lane, float d[2])
{
  const int k = lane & 7;

  for (int it = 0;; it++) {
    float c = 0.0f, gx = 0.0f, gy = 0.0f, hxx = 0.0f, hyy = 0.0f, hxy = 0.0f,
          det, own_sn, own_cs;

    /* both terms' phases, ux d0 + uy d1 and ux d0 - uy d1, from the sines
     * of their parts, which d being the warp's own, lane n < 8 works out
     * for ux = (n + 1/2) / 8 and lane 8 + n for uy */
    sincospif ((k + 0.5f) / 8.0f * (lane & 8 ? d[1] : d[0]), &own_sn, &own_cs);
#pragma unroll
    for (int j = 0; j < 2; j++) {
      const int l = (lane >> 3) + 4 * j;
      const float ux = (k + 0.5f) / 8.0f, uy = (l + 0.5f) / 8.0f;
      const float sx = __shfl_sync (0xffffffffu, own_sn, k);
      const float cx = __shfl_sync (0xffffffffu, own_cs, k);
      const float sy = __shfl_sync (0xffffffffu, own_sn, 8 + l);
      const float cy = __shfl_sync (0xffffffffu, own_cs, 8 + l);

#pragma unroll
      for (int s = 0; s < 2; s++) {
        const float wx = CUDART_PI_F * ux;
        const float ty = CUDART_PI_F * (s ? -uy : uy);
        const float cs = s ? cx * cy + sx * sy : cx * cy - sx * sy;
        const float sn = s ? sx * cy - cx * sy : sx * cy + cx * sy;
        float v, w;

        v = r[j][s][0] * cs - r[j][s][1] * sn;
        w = r[j][s][0] * sn + r[j][s][1] * cs;
        c += v;
        gx -= w * wx;
        gy -= w * ty;
        hxx -= v * wx * wx;
        hyy -= v * ty * ty;
        hxy -= v * wx * ty;
      }
    }
    if (it == CV_CLT_NEWTON_STEPS)
      return warp_sum (c) / 128.0f;
    gx = warp_sum (gx);
    gy = warp_sum (gy);
    hxx = warp_sum (hxx);
    hyy = warp_sum (hyy);
    hxy = warp_sum (hxy);
    det = hxx * hyy - hxy * hxy;
    if (!(hxx < 0.0f && det > 0.0f)) {
      /* not near a maximum: stay, and still measure the peak */
      it = CV_CLT_NEWTON_STEPS - 1;
      continue;
    }
    d[0] += fmaxf (-0.5f, fminf (0.5f, -(hyy * gx - hxy * gy) / det));
    d[1] += fmaxf (-0.5f, fminf (0.5f, -(hxx * gy - hxy * gx) / det));
  }
}

/* One pass of tile @tile: the second frame's tile transformed where
 * @moved says its content came from, the motion found there added to
 * @moved; the peak's height. */
__device__ __forceinline__ float
match_pass (const float *a, const Image &src, int c, int width, int height,
    int tile, float scale, float fat_zero, int radius, CorrShared &s,
    float moved[2])
{
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tiles_x = cv_clt_tiles (width);
  float r[2][2][2], d[2], best;

  transform_moved (src, c, width, height, tile % tiles_x, tile / tiles_x, moved,
      s.warp[warp].tile, s.b[warp], lane);
#pragma unroll
  for (int j = 0; j < 2; j++) {
    const int f = lane + 32 * j;

    cv_clt_cross_power (a + (size_t) tile * CVCORE_CLT_COEFFICIENTS, s.b[warp],
        f, scale, fat_zero, s.tables.weight[f], r[j][0], r[j][1]);
    s.warp[warp].sums.terms[0][f] =
        make_float2 (r[j][0][0] + r[j][1][0], r[j][0][1] + r[j][1][1]);
    s.warp[warp].sums.terms[1][f] =
        make_float2 (r[j][0][0] - r[j][1][0], r[j][0][1] - r[j][1][1]);
  }
  __syncwarp ();
  whole_pixel_peak (s.warp[warp].sums.terms, s.warp[warp].sums.partial,
      s.tables.twiddle, radius, lane, d);
  best = subpixel_peak (r, lane, d);
  moved[0] += d[0];
  moved[1] += d[1];
  return best;
}

/* One pass over every tile; registers for as many blocks as sm_90 holds
 * in shared memory (ten). A loop over the passes in one launch spills. */
__global__ void __launch_bounds__ (32 * kTilesPerBlock, 10)
    clt_correlate (const float *a, Image src, int c, int width, int height,
        float scale, float fat_zero, CorrTables tables, int radius,
        float initial_x, float initial_y, bool from_initial,
        const cvcore_clt_match *coarse, int coarse_x, int coarse_y,
        bool keep_left_frame, float max_dy, cvcore_clt_match *matches)
{
  __shared__ CorrShared s;
  const int tiles_x = cv_clt_tiles (width);
  const int tile = blockIdx.x * kTilesPerBlock + (threadIdx.x >> 5);
  float moved[2], best;

  for (int i = threadIdx.x; i < (int) (sizeof (CorrTables) / sizeof (float));
       i += blockDim.x)
    reinterpret_cast<float *> (&s.tables)[i] =
        reinterpret_cast<const float *> (&tables)[i];
  __syncthreads ();
  if (tile >= tiles_x * cv_clt_tiles (height))
    return;
  if (coarse) {
    cv_clt_predict_tile (coarse, coarse_x, coarse_y, tile % tiles_x,
        tile / tiles_x, moved);
  } else {
    moved[0] = from_initial ? initial_x : matches[tile].dx;
    moved[1] = from_initial ? initial_y : matches[tile].dy;
  }
  best = match_pass (a, src, c, width, height, tile, scale, fat_zero, radius, s,
      moved);
  if ((threadIdx.x & 31) == 0) {
    matches[tile].dx = moved[0];
    matches[tile].dy = moved[1];
    matches[tile].confidence =
        cv_clt_match_kept (tile % tiles_x, tile / tiles_x, moved[0], moved[1],
            width, height, keep_left_frame, max_dy)
        ? best
        : 0.0f;
  }
}

/* One thread per tile; lines that cross write the same colour. */
__global__ void
clt_draw (Image dst, int width, int height, const cvcore_clt_match *matches,
    float scale, float min_confidence, uint4 colour)
{
  const int tiles_x = cv_clt_tiles (width);
  const int tile = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned c4[4] = { colour.x, colour.y, colour.z, colour.w };
  cvcore_clt_match m;
  int n;

  if (tile >= tiles_x * cv_clt_tiles (height))
    return;
  m = matches[tile];
  if (!(m.confidence >= min_confidence))
    return;
  n = cv_clt_line_points (&m, scale);
  for (int i = 0; i < n; i++) {
    int x, y;

    cv_clt_line_point (&m, scale, tile % tiles_x, tile / tiles_x, i, n, &x, &y);
    if (x < 0 || y < 0 || x >= width || y >= height)
      continue;
    for (int c = 0; c < dst.channels; c++) {
      unsigned char *row = dst.data + y * dst.pitch;

      if (dst.wide)
        reinterpret_cast<unsigned short *> (row)[x * dst.channels + c] =
            (unsigned short) c4[c];
      else
        row[x * dst.channels + c] = (unsigned char) c4[c];
    }
  }
}

} /* namespace */

static CorrTables
corr_tables (double lowpass)
{
  CorrTables t;

  for (int l = 0; l < 8; l++) {
    for (int i = 0; i < kShifts; i++) {
      const double phase = M_PI * (l + 0.5) / 8.0 * (i - CVCORE_CLT_MAX_SEARCH);

      t.twiddle[l][i] = make_float2 ((float) cos (phase), (float) sin (phase));
    }
    t.twiddle[l][kShifts] = make_float2 (0.0f, 0.0f);
  }
  for (int f = 0; f < 64; f++)
    t.weight[f] = cv_clt_lowpass_weight (f, (float) (0.5 * lowpass * lowpass));
  return t;
}

extern "C" cvcore_status
cv_clt_correlate_cuda (cvcore_stream *stream, const float *a,
    const cvcore_image *b, int channel, const cvcore_clt_corr_params *params,
    const cvcore_clt_match *coarse, cvcore_clt_match *matches)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles = cv_clt_tiles (b->width) * cv_clt_tiles (b->height);
  const CorrTables tables = corr_tables (params->lowpass);

  CUDA_BIND (cvcore_stream_device (stream));
  for (int pass = 0; pass <= params->refinements; pass++) {
    clt_correlate<<<(tiles + kTilesPerBlock - 1) / kTilesPerBlock,
        32 * kTilesPerBlock, 0, cs>>> (a, device_image (b), channel, b->width,
        b->height, (float) (1.0 / params->full_scale), (float) params->fat_zero,
        tables, pass ? 1 : params->search_radius, (float) params->initial_x,
        (float) params->initial_y, pass == 0 && !params->guided,
        pass == 0 ? coarse : NULL, cv_clt_tiles ((b->width + 1) / 2),
        cv_clt_tiles ((b->height + 1) / 2), params->keep_left_frame,
        (float) params->max_dy, matches);
    CV_CUDA_LAUNCHED ();
  }
  return CVCORE_OK;
}

extern "C" cvcore_status
cv_clt_draw_matches_cuda (cvcore_stream *stream, const cvcore_image *dst,
    const cvcore_clt_match *matches, float scale, float min_confidence,
    const unsigned colour[4])
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles = cv_clt_tiles (dst->width) * cv_clt_tiles (dst->height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_draw<<<(tiles + 127) / 128, 128, 0, cs>>> (device_image (dst), dst->width,
      dst->height, matches, scale, min_confidence,
      make_uint4 (colour[0], colour[1], colour[2], colour[3]));
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
