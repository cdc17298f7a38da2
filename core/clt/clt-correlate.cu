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
 * a launch for a level's first pass and one for its refinements.
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

/* The warp's sums of @v's five values, into every lane's @v: halves,
 * quarters and eighths of the warp trade the values the other keeps, then
 * each sum is read from a lane that holds it; 14 shuffles instead of
 * warp_sum()'s 25. */
__device__ __forceinline__ void
warp_sum5 (float v[5], int lane)
{
  const bool upper = lane & 16, second = lane & 8, fourth = lane & 4;
  float half[4], quarter[2], eighth;

  /* the values as eight, the last three 0: halves keep four each */
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const float high = q == 0 ? v[4] : 0.0f;

    half[q] = (upper ? high : v[q])
        + __shfl_xor_sync (0xffffffffu, upper ? v[q] : high, 16);
  }
#pragma unroll
  for (int q = 0; q < 2; q++)
    quarter[q] = (second ? half[2 + q] : half[q])
        + __shfl_xor_sync (0xffffffffu, second ? half[q] : half[2 + q], 8);
  eighth = (fourth ? quarter[1] : quarter[0])
      + __shfl_xor_sync (0xffffffffu, fourth ? quarter[0] : quarter[1], 4);
  /* value 4 u + 2 s + f of lanes (upper, second, fourth) = (u, s, f) */
  eighth += __shfl_xor_sync (0xffffffffu, eighth, 2);
  eighth += __shfl_xor_sync (0xffffffffu, eighth, 1);
#pragma unroll
  for (int q = 0; q < 5; q++)
    v[q] = __shfl_sync (0xffffffffu, eighth, 4 * q);
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

/* The warp's maximum of @best, the first in scan order (@index) among
 * equals, over lanes that differ from this one in the bits of @lanes. */
__device__ __forceinline__ void
warp_first_maximum (float &best, int &index, int lanes)
{
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    if (!(lanes & o))
      continue;
    const float ob = __shfl_xor_sync (0xffffffffu, best, o);
    const int oi = __shfl_xor_sync (0xffffffffu, index, o);

    if (ob > best || (ob == best && oi < index)) {
      best = ob;
      index = oi;
    }
  }
}

/* The whole-pixel shift of the surface's maximum within @radius, from the
 * cross-power terms R1 + R2 and R1 - R2 in @terms, into @d. The phase
 * factors of a shift and of its opposite differ in the sine's sign only,
 * so each product serves both: lane (n, g) = (lane & 7, lane >> 3) takes
 * the shifts n and -n, for two of the horizontal frequencies k in the
 * first sum and for a quarter of the rows in the second. */
__device__ __forceinline__ void
whole_pixel_peak (const float2 (*terms)[64], float2 (*partial)[kShifts + 1],
    const float2 (*twiddle)[kShifts + 1], int radius, int lane, float d[2])
{
  const int n = lane & 7, g = lane >> 3, span = 2 * radius + 1;
  const int first_shift = CVCORE_CLT_MAX_SEARCH - radius;
  const int rows = (span + 3) / 4;
  float best = -1e30f;
  int best_index = 0;

  /* per (k, dy = +-n): sum over l of R1 e^{i wl dy} + R2 e^{-i wl dy} */
  if (n <= radius) {
    float2 t[8];

#pragma unroll
    for (int l = 0; l < 8; l++)
      t[l] = twiddle[l][CVCORE_CLT_MAX_SEARCH + n];
#pragma unroll
    for (int k = 2 * g; k < 2 * g + 2; k++) {
      float pc = 0.0f, ms = 0.0f, qc = 0.0f, ns = 0.0f;

#pragma unroll
      for (int l = 0; l < 8; l++) {
        const float2 p = terms[0][l * 8 + k], m = terms[1][l * 8 + k];

        pc += p.x * t[l].x;
        ms += m.y * t[l].y;
        qc += p.y * t[l].x;
        ns += m.x * t[l].y;
      }
      partial[k][CVCORE_CLT_MAX_SEARCH + n] = make_float2 (pc - ms, qc + ns);
      partial[k][CVCORE_CLT_MAX_SEARCH - n] = make_float2 (pc + ms, qc - ns);
    }
  }
  __syncwarp ();
  /* per (dx = +-n, dy) within the radius: Re sum over k of the partial
   * e^{i wk dx}, scanned in order: -n before +n, row by row */
  if (n <= radius) {
    float2 t[8];

#pragma unroll
    for (int k = 0; k < 8; k++)
      t[k] = twiddle[k][CVCORE_CLT_MAX_SEARCH + n];
    for (int j = rows * g; j < min (span, rows * (g + 1)); j++) {
      const int dyi = first_shift + j;
      float gc = 0.0f, hs = 0.0f;

#pragma unroll
      for (int k = 0; k < 8; k++) {
        const float2 p = partial[k][dyi];

        gc += p.x * t[k].x;
        hs += p.y * t[k].y;
      }
      if (gc + hs > best) {
        best = gc + hs;
        best_index = dyi * kShifts + CVCORE_CLT_MAX_SEARCH - n;
      }
      if (gc - hs > best) {
        best = gc - hs;
        best_index = dyi * kShifts + CVCORE_CLT_MAX_SEARCH + n;
      }
    }
  }
  warp_first_maximum (best, best_index, 31);
  d[0] = (float) (best_index % kShifts - CVCORE_CLT_MAX_SEARCH);
  d[1] = (float) (best_index / kShifts - CVCORE_CLT_MAX_SEARCH);
}

/* whole_pixel_peak() at radius 1, in registers: lane (k, g) = (lane & 7,
 * lane >> 3) holds the terms of frequencies (k, g) and (k, g + 4) in @r.
 * The lanes of one k sum the vertical frequencies for dy = -1, 0, 1 so
 * that lane g ends with dy = g - 1 (g = 3 has none); each then sums over
 * k its row's three horizontal shifts, and the warp takes the maximum.
 * whole_pixel_peak() spent 245 instructions a tile on this search, most of
 * them on its shared memory and its loops' indices; this takes 87. */
__device__ __forceinline__ void
whole_pixel_peak_near (const float (*r)[2][2],
    const float2 (*twiddle)[kShifts + 1], int lane, float d[2])
{
  const int k = lane & 7, g = lane >> 3;
  const bool upper = g >> 1, odd = g & 1;
  /* per dy = -1, 0, 1 (and none): sum over this lane's l of R1
   * e^{i wl dy} + R2 e^{-i wl dy}, as (re, im) */
  float2 v[4] = {};
  float2 kept[2], row;
  float c[3], best = -1e30f;
  int best_index = 0;

#pragma unroll
  for (int j = 0; j < 2; j++) {
    const float2 t = twiddle[g + 4 * j][CVCORE_CLT_MAX_SEARCH + 1];
    const float px = r[j][0][0] + r[j][1][0], py = r[j][0][1] + r[j][1][1];
    const float mx = r[j][0][0] - r[j][1][0], my = r[j][0][1] - r[j][1][1];
    const float pc = px * t.x, qc = py * t.x, ms = my * t.y, ns = mx * t.y;

    v[0].x += pc + ms;
    v[0].y += qc - ns;
    v[1].x += px;
    v[1].y += py;
    v[2].x += pc - ms;
    v[2].y += qc + ns;
  }
  /* the four lanes of k: halves swap dy pairs, then pairs swap one */
#pragma unroll
  for (int q = 0; q < 2; q++) {
    const float2 mine = upper ? v[2 + q] : v[q];
    const float2 theirs = upper ? v[q] : v[2 + q];

    kept[q].x = mine.x + __shfl_xor_sync (0xffffffffu, theirs.x, 16);
    kept[q].y = mine.y + __shfl_xor_sync (0xffffffffu, theirs.y, 16);
  }
  row = odd ? kept[1] : kept[0];
  row.x += __shfl_xor_sync (0xffffffffu, odd ? kept[0].x : kept[1].x, 8);
  row.y += __shfl_xor_sync (0xffffffffu, odd ? kept[0].y : kept[1].y, 8);
  /* this row's dx = -1, 0, 1: Re sum over k of row e^{i wk dx} */
  {
    const float2 t = twiddle[k][CVCORE_CLT_MAX_SEARCH + 1];
    const float a = row.x * t.x, b = row.y * t.y;

    c[0] = a + b;
    c[1] = row.x;
    c[2] = a - b;
  }
#pragma unroll
  for (int o = 1; o < 8; o <<= 1)
#pragma unroll
    for (int i = 0; i < 3; i++)
      c[i] += __shfl_xor_sync (0xffffffffu, c[i], o);
  if (g < 3) {
#pragma unroll
    for (int i = 0; i < 3; i++)
      if (c[i] > best) {
        best = c[i];
        best_index = (CVCORE_CLT_MAX_SEARCH - 1 + g) * kShifts
            + CVCORE_CLT_MAX_SEARCH - 1 + i;
      }
  }
  warp_first_maximum (best, best_index, 8 | 16);
  d[0] = (float) (best_index % kShifts - CVCORE_CLT_MAX_SEARCH);
  d[1] = (float) (best_index / kShifts - CVCORE_CLT_MAX_SEARCH);
}

/* This lane's share of the surface at @d, from its terms @r (frequencies
 * lane and lane + 32): with Derivatives its gradient and Hessian (gx, gy,
 * hxx, hyy, hxy) into @g, else its height into @c. */
template <bool Derivatives>
__device__ __forceinline__ void
surface_terms (const float (*r)[2][2], int lane, const float d[2], float &c,
    float g[5])
{
  const int k = lane & 7;
  float own_sn, own_cs;

  /* both terms' phases, ux d0 + uy d1 and ux d0 - uy d1, from the sines
   * of their parts, which d being the warp's own, lane n < 8 works out
   * for ux = (n + 1/2) / 8 and lane 8 + n for uy */
  sincospif ((k + 0.5f) / 8.0f * (lane & 8 ? d[1] : d[0]), &own_sn, &own_cs);
  c = 0.0f;
#pragma unroll
  for (int i = 0; i < 5; i++)
    g[i] = 0.0f;
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
      const float v = r[j][s][0] * cs - r[j][s][1] * sn;

      if (Derivatives) {
        const float w = r[j][s][0] * sn + r[j][s][1] * cs;

        g[0] -= w * wx;
        g[1] -= w * ty;
        g[2] -= v * wx * wx;
        g[3] -= v * ty * ty;
        g[4] -= v * wx * ty;
      } else {
        c += v;
      }
    }
  }
}

/* Newton's steps from @d towards the surface's maximum, from this lane's
 * terms @r (frequencies lane and lane + 32); the peak's height. */
__device__ __forceinline__ float
subpixel_peak (const float (*r)[2][2], int lane, float d[2])
{
  float c, g[5];

  for (int it = 0; it < CV_CLT_NEWTON_STEPS; it++) {
    float det, inverse;

    surface_terms<true> (r, lane, d, c, g);
    warp_sum5 (g, lane);
    det = g[2] * g[3] - g[4] * g[4];
    /* not near a maximum: stay, and measure the peak there */
    if (!(g[2] < 0.0f && det > 0.0f))
      break;
    /* one reciprocal: the steps' divisions took the device's slow path
     * in every warp */
    inverse = 1.0f / det;
    d[0] += fmaxf (-0.5f, fminf (0.5f, -(g[3] * g[0] - g[4] * g[1]) * inverse));
    d[1] += fmaxf (-0.5f, fminf (0.5f, -(g[2] * g[1] - g[4] * g[0]) * inverse));
  }
  surface_terms<false> (r, lane, d, c, g);
  return warp_sum (c) / 128.0f;
}

/* cv_clt_predict_tile() by the warp: lane i < 9 takes the i-th of the
 * coarse tiles in reach, and each lane sums the terms in the same order
 * (a lane alone spent 280 instructions on the nine). */
__device__ __forceinline__ void
predict_tile (const cvcore_clt_match *coarse, int coarse_x, int coarse_y,
    int tx, int ty, int lane, float d[2])
{
  float mine[6], t[6] = {};

  /* lanes from 9 on lie beyond reach: their terms are 0 */
  cv_clt_predict_term (coarse, coarse_x, coarse_y, tx, ty,
      ((tx - 1) >> 1) + lane % 3, ((ty - 1) >> 1) + lane / 3, mine);
#pragma unroll
  for (int i = 0; i < 9; i++)
#pragma unroll
    for (int k = 0; k < 6; k++)
      t[k] += __shfl_sync (0xffffffffu, mine[k], i);
  cv_clt_predict_from_terms (t, d);
}

/* One pass of tile @tile: the second frame's tile transformed where
 * @moved says its content came from, the motion found there added to
 * @moved; the peak's height, and in *@settled whether that motion was
 * less than @converge (cv_clt_match_settled()). */
__device__ __forceinline__ float
match_pass (const float *a, const Image &src, int c, int width, int height,
    int tile, float scale, float fat_zero, int radius, CorrShared &s,
    float converge, float moved[2], bool *settled)
{
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tiles_x = cv_clt_tiles (width);
  float r[2][2][2], d[2], best;

  transform_moved (src, c, width, height, tile % tiles_x, tile / tiles_x, moved,
      s.warp[warp].tile, s.b[warp], lane);
#pragma unroll
  for (int j = 0; j < 2; j++)
    cv_clt_cross_power (a + (size_t) tile * CVCORE_CLT_COEFFICIENTS, s.b[warp],
        lane + 32 * j, scale, fat_zero, s.tables.weight[lane + 32 * j], r[j][0],
        r[j][1]);
  if (radius == 1) {
    whole_pixel_peak_near (r, s.tables.twiddle, lane, d);
  } else {
#pragma unroll
    for (int j = 0; j < 2; j++) {
      const int f = lane + 32 * j;

      s.warp[warp].sums.terms[0][f] =
          make_float2 (r[j][0][0] + r[j][1][0], r[j][0][1] + r[j][1][1]);
      s.warp[warp].sums.terms[1][f] =
          make_float2 (r[j][0][0] - r[j][1][0], r[j][0][1] - r[j][1][1]);
    }
    __syncwarp ();
    whole_pixel_peak (s.warp[warp].sums.terms, s.warp[warp].sums.partial,
        s.tables.twiddle, radius, lane, d);
  }
  best = subpixel_peak (r, lane, d);
  moved[0] += d[0];
  moved[1] += d[1];
  *settled = cv_clt_match_settled (d[0], d[1], converge);
  return best;
}

/* With Refining, @passes passes over every tile at radius 1, each from
 * the motion that the one before found, until a pass leaves the tile
 * settled; else the first pass, from the prediction or the initial
 * motion. The first pass marks in @settled (a byte a tile, where not
 * NULL) the tiles that it left settled, and the refinements pass those
 * by. Registers for as many blocks as sm_90 holds in shared memory
 * (ten). A tile's refinements read nothing of
 * other tiles, so a level's take one launch: on the coarse levels the
 * launches between them cost more than their work. The first pass keeps
 * its own: with its wide search and the prediction in the same loop, the
 * kernel spills. */
template <bool Refining>
__global__ void __launch_bounds__ (32 * kTilesPerBlock, 10)
    clt_correlate (const float *a, Image src, int c, int width, int height,
        float scale, float fat_zero, CorrTables tables, int radius, int passes,
        float initial_x, float initial_y, bool from_initial,
        const cvcore_clt_match *coarse, int coarse_x, int coarse_y,
        bool keep_left_frame, float max_dy, float converge,
        unsigned char *settled, cvcore_clt_match *matches)
{
  __shared__ CorrShared s;
  const int tiles_x = cv_clt_tiles (width);
  const int tile = blockIdx.x * kTilesPerBlock + (threadIdx.x >> 5);
  float moved[2], best = 0.0f;
  bool done = false;

  for (int i = threadIdx.x; i < (int) (sizeof (CorrTables) / sizeof (float));
       i += blockDim.x)
    reinterpret_cast<float *> (&s.tables)[i] =
        reinterpret_cast<const float *> (&tables)[i];
  __syncthreads ();
  /* the launch before writes the matches this one reads and rewrites */
  cv_grid_wait ();
  if (tile >= tiles_x * cv_clt_tiles (height))
    return;
  if (Refining) {
    moved[0] = matches[tile].dx;
    moved[1] = matches[tile].dy;
    /* a settled tile's match and peak are the first pass's (kept or not,
     * its confidence is written again below by the same rule). The lanes
     * agree on both tests; their votes say so to the compiler, which
     * spilled 476 bytes a thread around branches it took to diverge. */
    if (__all_sync (0xffffffffu, settled && settled[tile]))
      best = matches[tile].confidence;
    else
      for (int pass = 0; pass < passes; pass++) {
        /* the warp's lanes are done with the last pass's shared memory */
        __syncwarp ();
        best = match_pass (a, src, c, width, height, tile, scale, fat_zero, 1,
            s, converge, moved, &done);
        if (__all_sync (0xffffffffu, done))
          break;
      }
  } else {
    if (coarse) {
      predict_tile (coarse, coarse_x, coarse_y, tile % tiles_x, tile / tiles_x,
          threadIdx.x & 31, moved);
    } else {
      moved[0] = from_initial ? initial_x : matches[tile].dx;
      moved[1] = from_initial ? initial_y : matches[tile].dy;
    }
    best = match_pass (a, src, c, width, height, tile, scale, fat_zero, radius,
        s, converge, moved, &done);
    if (settled && (threadIdx.x & 31) == 0)
      settled[tile] = done;
  }
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
make_corr_tables (double lowpass)
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

/* The tables of the last call on this thread: a frame's levels and
 * passes, and the frames that follow, use the same (about 750 sines,
 * cosines and exponentials, some microseconds of the host's time per call). */
static const CorrTables &
corr_tables (double lowpass)
{
  static thread_local double made_for = -1.0;
  static thread_local CorrTables tables;

  if (lowpass != made_for) {
    tables = make_corr_tables (lowpass);
    made_for = lowpass;
  }
  return tables;
}

extern "C" cvcore_status
cv_clt_correlate_cuda (cvcore_stream *stream, const float *a,
    const cvcore_image *b, int channel, const cvcore_clt_corr_params *params,
    const cvcore_clt_match *coarse, cvcore_clt_match *matches)
{
  const int tiles = cv_clt_tiles (b->width) * cv_clt_tiles (b->height);
  const CorrTables &tables = corr_tables (params->lowpass);
  const float scale = (float) (1.0 / params->full_scale);
  const float fat_zero = (float) params->fat_zero;
  const float initial_x = (float) params->initial_x;
  const float initial_y = (float) params->initial_y;
  const bool keep_left_frame = params->keep_left_frame;
  const float max_dy = (float) params->max_dy;
  const float converge = (float) params->converge;
  unsigned char *settled = NULL;

  CUDA_BIND (cvcore_stream_device (stream));
  /* the first pass tells the refinements which tiles it left settled */
  if (params->refinements > 0 && converge > 0.0f) {
    bool kept;

    CV_TRY (cv_stream_scratch (stream, tiles, NULL, 0,
        reinterpret_cast<void **> (&settled), &kept));
  }
  /* the first pass, then the refinements in one launch */
  for (int launch = 0; launch < (params->refinements > 0 ? 2 : 1); launch++) {
    const dim3 grid ((tiles + kTilesPerBlock - 1) / kTilesPerBlock);
    const dim3 block (32 * kTilesPerBlock);
    const int radius = launch ? 1 : params->search_radius;
    const int passes = launch ? params->refinements : 1;
    const bool from_initial = launch == 0 && !params->guided;
    const cvcore_clt_match *predicted = launch == 0 ? coarse : NULL;
    const int coarse_x = cv_clt_tiles ((b->width + 1) / 2);
    const int coarse_y = cv_clt_tiles ((b->height + 1) / 2);

    /* a launch follows the one before, or the coarser level's last, on
     * the stream; the first of a call without @coarse may follow
     * anything */
    CUDA_TRY (cv_cuda_launch_chained (stream, launch > 0 || coarse != NULL,
        launch ? clt_correlate<true> : clt_correlate<false>, grid, block, a,
        device_image (b), channel, b->width, b->height, scale, fat_zero, tables,
        radius, passes, initial_x, initial_y, from_initial, predicted, coarse_x,
        coarse_y, keep_left_frame, max_dy, converge, settled, matches));
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
