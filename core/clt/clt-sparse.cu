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

/* The CLT of a mosaic's sparse colours on CUDA (cvclt.h, SPARSE).
 *
 * One warp per tile does all three colours, with the lanes of one
 * colour's transform in clt.cu:
 *
 *  - the horizontal MDCT of every row that holds sites of a colour: 16
 *    green rows and 8 red plus 8 blue, one lane each. Each row's MDST is
 *    its MDCT reversed (S_k = +-C_{7-k}) and is not computed.
 *  - the vertical MDCT of red's and blue's 8 columns (their other three
 *    layers follow from the same symmetry along y), and the vertical MDCT
 *    and MDST of green's 8 columns (green's rows alternate lattices, so
 *    its horizontal-MDST layers are the vertical-MDST and MDCT layers
 *    reversed in both frequencies: SC (k, l) = +-CS (7 - k, 7 - l), SS (k,
 *    l) = +-CC (7 - k, 7 - l)).
 *
 * That is 4 of the 12 colour layers; the lanes write all 12 to shared
 * memory, each lane then takes its column of each colour, fills the colour
 * in (the demosaic response), runs the operation and the inverse of
 * clt.cu into that colour's quadrant planes, or sums the colours' grey
 * picture and runs one inverse into the first colour's. */
#include "clt-device.cuh"
#include "clt-private.h"
#include "launch.cuh"

namespace {

constexpr int kTilesPerBlock = 4;
constexpr int kThreads = 32 * kTilesPerBlock;

/* A warp's shared memory, each part's space taken again once the step
 * that reads it is done: more blocks fit on a multiprocessor. */
struct __align__ (16) SparseShared
{
  union
  {
    /* the windowed tile, read by the horizontal step */
    float pix[16][20];
    /* the colours' coefficients, [colour][layer][k][l]; rows padded so
     * that eight lanes' 128-bit accesses fall on distinct banks */
    float coef[3][4][8][12];
  };
  union
  {
    /* each colour's horizontal MDCTs, [colour][k][m], read by the
     * vertical step */
    float h[3][8][20];
    /* the inverse's vertical pass */
    float rows[2 * 176];
  };
  float wx[16], wy[16];
};

/* @v, or @v reversed, negated when @negate, into a row of 8. */
__device__ __forceinline__ void
put_row (float *row, const float v[8], bool reversed, bool negate)
{
  float o[8];

#pragma unroll
  for (int l = 0; l < 8; l++)
    o[l] = negate ? -v[reversed ? 7 - l : l] : v[reversed ? 7 - l : l];
  reinterpret_cast<float4 *> (row)[0] = make_float4 (o[0], o[1], o[2], o[3]);
  reinterpret_cast<float4 *> (row)[1] = make_float4 (o[4], o[5], o[6], o[7]);
}

/* Whether row @y of a mosaic holds sites of colour @c. */
__device__ __forceinline__ bool
row_has (unsigned pattern, int y, int c)
{
  return cv_clt_bayer_colour (pattern, 0, y) == c
      || cv_clt_bayer_colour (pattern, 1, y) == c;
}

__global__ void
__launch_bounds__ (kThreads) clt_process_sparse (Image src, Plan p,
    Kernels kernels, bool kernel_colours, float *planes, size_t pitch)
{
  __shared__ SparseShared shared[kTilesPerBlock];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tile = blockIdx.x * kTilesPerBlock + warp;
  const int tx = tile % p.tiles_x, ty = tile / p.tiles_x;
  const int x0 = cv_clt_tile_start (tx) - p.offset_x;
  const int y0 = cv_clt_tile_start (ty) - p.offset_y;
  SparseShared &s = shared[warp];
  const bool green = lane < 16;
  float coef[3][8];

  if (ty >= p.tiles_y)
    return;
  plan_windows (p, s.wx, s.wy, lane);
  /* the windowed tile of the mosaic, every colour */
  {
    const int m = lane >> 1, n0 = (lane & 1) * 8;
    const int x = x0 + n0, y = y0 + m;
    const float wy = s.wy[m];
    float v[8];

    if (x >= 0 && x + 8 <= p.width && y >= 0 && y < p.height) {
      load_run (src, x, y, 0, v);
    } else {
#pragma unroll
      for (int j = 0; j < 8; j++)
        v[j] = cv_clt_mosaic_at (src.data, src.pitch, src.wide, p.width,
            p.height, x + j, y);
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
  /* horizontal: lanes 0..15 green of row m, 16..31 red or blue of row m */
  {
    const int m = lane & 15;
    const int c0 = cv_clt_bayer_colour (p.bayer, x0, y0 + m);
    const int c1 = cv_clt_bayer_colour (p.bayer, x0 + 1, y0 + m);
    const int colour = green ? 1 : c0 == 1 ? c1 : c0;
    /* tile columns of this colour's sites: even or odd */
    const int parity = (c0 == colour) ? 0 : 1;
    float u[16], f[8], o[8];

    load_row16 (s.pix[m], u);
#pragma unroll
    for (int n = 0; n < 16; n++)
      u[n] = (n & 1) == parity ? u[n] : 0.0f;
    fold (u, f, false);
    dct4 (f, o, false);
#pragma unroll
    for (int k = 0; k < 8; k++)
      s.h[colour][k][m] = o[k];
  }
  __syncwarp ();
  /* vertical: lanes 0..15 green column k (MDCT, then MDST), 16..23 red,
   * 24..31 blue column k */
  {
    const int k = lane & 7;
    const bool vk = green && (lane >> 3 & 1);
    const int colour = green ? 1 : lane < 24 ? 0 : 2;
    /* tile rows (qy) and columns (px) of the colour's sites; for green,
     * its columns in row 0 */
    const int qy = row_has (p.bayer, y0, colour) ? 0 : 1;
    const int px = cv_clt_bayer_colour (p.bayer, x0, y0 + qy) == colour ? 0 : 1;
    float u[16], f[8], v[8];

    load_row16 (s.h[colour][k], u);
    /* red and blue rows were written only where they hold sites */
#pragma unroll
    for (int m = 0; m < 16; m++)
      u[m] = green || (m & 1) == qy ? u[m] : 0.0f;
    fold (u, f, vk);
    dct4 (f, v, vk);
    if (green) {
      /* vk 0: CC, and SS (7 - k, l) = +-CC (k, 7 - l); vk 1: CS, and
       * SC (7 - k, l) = +-CS (k, 7 - l); sign (-1)^px (green's columns
       * in row 0) */
      put_row (s.coef[1][vk ? 2 : 0][k], v, false, false);
      put_row (s.coef[1][vk ? 1 : 3][7 - k], v, true, px);
    } else {
      put_row (s.coef[colour][0][k], v, false, false);
      put_row (s.coef[colour][1][7 - k], v, false, px);
      put_row (s.coef[colour][2][k], v, true, qy);
      put_row (s.coef[colour][3][7 - k], v, true, px ^ qy);
    }
  }
  __syncwarp ();
  {
    const int k = lane & 7, layer = lane >> 3;
    const float dk = p.demosaic[k];
    const size_t plane_bytes = (size_t) 4 * p.tiles_y * 8 * pitch;

#pragma unroll
    for (int c = 0; c < 3; c++)
#pragma unroll
      for (int j = 0; j < 2; j++) {
        const float4 q =
            reinterpret_cast<const float4 *> (s.coef[c][layer][k])[j];

        coef[c][4 * j] = q.x;
        coef[c][4 * j + 1] = q.y;
        coef[c][4 * j + 2] = q.z;
        coef[c][4 * j + 3] = q.w;
      }
    float grey[8] = {};

#pragma unroll
    for (int c = 0; c < 3; c++) {
      if (p.grey && p.grey_weight[c] == 0.0f)
        continue;
#pragma unroll
      for (int l = 0; l < 8; l++)
        coef[c][l] *= c == 1 ? 0.5f * (dk + p.demosaic[l]) : dk * p.demosaic[l];
      operate (p, kernels, kernel_colours ? c : 0, tx, ty, lane, coef[c]);
      if (p.grey) {
        /* the inverse is linear: one for the colours' weighted sum */
#pragma unroll
        for (int l = 0; l < 8; l++)
          grey[l] += p.grey_weight[c] * coef[c][l];
        continue;
      }
      inverse (p,
          reinterpret_cast<float *> (
              reinterpret_cast<char *> (planes) + c * plane_bytes),
          pitch, tx, ty, s.rows, lane, coef[c]);
      /* the next colour's inverse reuses the shared rows */
      __syncwarp ();
    }
    if (p.grey)
      inverse (p, planes, pitch, tx, ty, s.rows, lane, grey);
  }
}

} /* namespace */

extern "C" cvcore_status
cv_clt_sparse_cuda (cvcore_stream *stream, const cvcore_image *src,
    const cv_clt_plan *plan, float *planes, size_t plane_pitch,
    const float *kernel_data, const cvcore_clt_kernel_set *set)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles = plan->tiles_x * plan->tiles_y;
  Kernels kernels = { kernel_data, set->stride, set->nodes_x, set->nodes_y };

  CUDA_BIND (cvcore_stream_device (stream));
  clt_process_sparse<<<(tiles + kTilesPerBlock - 1) / kTilesPerBlock, kThreads,
      0, cs>>> (device_image (src), device_plan (plan), kernels,
      set->channels == 3, planes, plane_pitch);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
