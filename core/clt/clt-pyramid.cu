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

/* CLT pyramids on CUDA: the half-size reduction, a block per patch of
 * reduced samples of one or several frames, the prediction of a level's
 * motion from the coarser one, a thread per tile, and the tiles' shapes,
 * a block per patch of tiles. */
#include "clt-device.cuh"
#include "clt-fit-common.h"
#include "clt-pyramid-common.h"
#include "clt-private.h"
#include "launch.cuh"

namespace {

/* The frames that one launch reduces, all of one size. */
struct ReduceFrames
{
  Image src[CVCORE_CLT_MAX_VIEWS], dst[CVCORE_CLT_MAX_VIEWS];
};

/* A block reduces kReduceX x kReduceY samples of frame blockIdx.z: it
 * loads their source samples once (each serves two reduced samples each
 * way), sums them along each source row, then down each column. The sums
 * are whole numbers, so their order does not change them. */
constexpr int kReduceX = 32, kReduceY = 8;
constexpr int kReduceSourceX = 2 * kReduceX + 2;
constexpr int kReduceSourceY = 2 * kReduceY + 2;

__global__ void
__launch_bounds__ (kReduceX *kReduceY) clt_reduce (ReduceFrames frames, int c,
    int width, int height, int dst_width, int dst_height)
{
  /* odd pitches: the rows that one warp spans start on different banks */
  __shared__ unsigned source[kReduceSourceY][kReduceSourceX + 1];
  __shared__ unsigned along[kReduceSourceY][kReduceX + 1];
  const Image src = frames.src[blockIdx.z];
  const int first_x = blockIdx.x * kReduceX, first_y = blockIdx.y * kReduceY;
  const int thread = threadIdx.y * kReduceX + threadIdx.x;
  const int x = first_x + threadIdx.x, y = first_y + threadIdx.y;
  unsigned sum = 0;

  /* the reduction before writes @src */
  cv_grid_wait ();
  for (int e = thread; e < kReduceSourceY * kReduceSourceX;
       e += kReduceX * kReduceY) {
    const int r = e / kReduceSourceX, k = e % kReduceSourceX;

    source[r][k] =
        (unsigned) src.at (cv_clamp_index (2 * first_x - 1 + k, width),
            cv_clamp_index (2 * first_y - 1 + r, height), c);
  }
  __syncthreads ();
  for (int e = thread; e < kReduceSourceY * kReduceX;
       e += kReduceX * kReduceY) {
    const int r = e / kReduceX, k = e % kReduceX;
    unsigned row = 0;

#pragma unroll
    for (int i = 0; i < 4; i++)
      row += cv_clt_reduce_weight (i) * source[r][2 * k + i];
    along[r][k] = row;
  }
  __syncthreads ();
  if (x >= dst_width || y >= dst_height)
    return;
#pragma unroll
  for (int j = 0; j < 4; j++)
    sum += cv_clt_reduce_weight (j) * along[2 * threadIdx.y + j][threadIdx.x];
  frames.dst[blockIdx.z].store (x, y, 0, (float) ((sum + 32) / 64));
}

__global__ void
clt_predict (const cvcore_clt_match *coarse, int coarse_x, int coarse_y,
    int tiles_x, int tiles_y, cvcore_clt_match *matches)
{
  const int tile = blockIdx.x * blockDim.x + threadIdx.x;
  float d[2];

  if (tile >= tiles_x * tiles_y)
    return;
  cv_clt_predict_tile (coarse, coarse_x, coarse_y, tile % tiles_x,
      tile / tiles_x, d);
  matches[tile].dx = d[0];
  matches[tile].dy = d[1];
  matches[tile].confidence = 0.0f;
}

/* The tiles' shapes: a block takes kShapeTilesX x kShapeTilesY tiles,
 * whose windows overlap by half. It loads their pixels and a pixel's
 * border once, sums each pixel row's gradient terms over each tile's
 * columns, weighted by the window's column weights, then each tile's
 * rows by its row weights: the window is separable, and each pixel's
 * gradient serves the two tiles across it. Each tile of a warp per tile
 * loaded its 18 x 18 pixels alone, four times over. */
constexpr int kShapeTilesX = 32;
constexpr int kShapeTilesY = 2;
constexpr int kShapeThreads = 256;
constexpr int kShapeRows = CVCORE_CLT_STRIDE * kShapeTilesY + CVCORE_CLT_STRIDE;
constexpr int kShapeColumns =
    CVCORE_CLT_STRIDE * kShapeTilesX + CVCORE_CLT_STRIDE;
/* an odd pitch: a warp's lanes read 8 rows of 4 tiles' columns, 8
 * apart, from 32 banks */
constexpr int kShapePitch = (kShapeColumns + 2) | 1;
/* a warp's row sums: 8 rows of 4 tiles */
constexpr int kShapeSumRows = 8, kShapeSumTiles = 4;
static_assert (kShapeRows % kShapeSumRows == 0
        && kShapeTilesX % kShapeSumTiles == 0,
    "whole row-sum tasks");
/* per pixel row and tile: xx, yy, xy and the energy's moment along x,
 * then the energy; rows 4 banks apart, for the row sums' warps */
constexpr int kShapeTerms = CVCORE_CLT_SHAPE_FLOATS;
constexpr int kShapeSumPitch = kShapeTilesX + 4;

__global__ void
__launch_bounds__ (kShapeThreads) clt_shapes (Image src, int c, int width,
    int height, int tiles_x, int tiles_y, float *shapes)
{
  __shared__ float pixels[kShapeRows + 2][kShapePitch];
  __shared__ float row_sums[kShapeTerms][kShapeRows][kShapeSumPitch];
  __shared__ float weights[CVCORE_CLT_TILE];
  float window[CVCORE_CLT_TILE];
  const int first_x = blockIdx.x * kShapeTilesX;
  const int first_y = blockIdx.y * kShapeTilesY;
  /* pixel (0, 0) of the first tile's window, less the border */
  const int x0 = CVCORE_CLT_STRIDE * first_x - CVCORE_CLT_TILE / 2 - 1;
  const int y0 = CVCORE_CLT_STRIDE * first_y - CVCORE_CLT_TILE / 2 - 1;

  if (threadIdx.x < CVCORE_CLT_TILE)
    weights[threadIdx.x] = cv_clt_shape_window (threadIdx.x);
  for (int e = threadIdx.x; e < (kShapeRows + 2) * (kShapeColumns + 2);
       e += kShapeThreads) {
    const int r = e / (kShapeColumns + 2), k = e % (kShapeColumns + 2);

    pixels[r][k] = src.at (cv_mirror_index (x0 + k, width),
        cv_mirror_index (y0 + r, height), c);
  }
  __syncthreads ();
#pragma unroll
  for (int i = 0; i < CVCORE_CLT_TILE; i++)
    window[i] = weights[i];

  for (int task = threadIdx.x / 32;
       task < (kShapeRows / kShapeSumRows) * (kShapeTilesX / kShapeSumTiles);
       task += kShapeThreads / 32) {
    const int lane = threadIdx.x % 32;
    const int r = (task / (kShapeTilesX / kShapeSumTiles)) * kShapeSumRows
        + lane / kShapeSumTiles;
    const int t = (task % (kShapeTilesX / kShapeSumTiles)) * kShapeSumTiles
        + lane % kShapeSumTiles;
    float sum[kShapeTerms] = { 0.0f };

#pragma unroll
    for (int i = 0; i < CVCORE_CLT_TILE; i++) {
      const int k = CVCORE_CLT_STRIDE * t + i;
      float gx, gy, energy;

      cv_clt_shape_gradient (pixels[r + 1][k], pixels[r + 1][k + 2],
          pixels[r][k + 1], pixels[r + 2][k + 1], &gx, &gy);
      energy = window[i] * (gx * gx + gy * gy);
      sum[0] += window[i] * gx * gx;
      sum[1] += window[i] * gy * gy;
      sum[2] += window[i] * gx * gy;
      sum[3] += energy * (i - CV_CLT_SHAPE_CENTRE);
      sum[4] += energy;
    }
#pragma unroll
    for (int n = 0; n < kShapeTerms; n++)
      row_sums[n][r][t] = sum[n];
  }
  __syncthreads ();

  if (threadIdx.x < kShapeTilesX * kShapeTilesY) {
    const int t = threadIdx.x % kShapeTilesX, u = threadIdx.x / kShapeTilesX;
    const int tx = first_x + t, ty = first_y + u;
    float s[CVCORE_CLT_SHAPE_FLOATS] = { 0.0f };

    if (tx >= tiles_x || ty >= tiles_y)
      return;
#pragma unroll
    for (int j = 0; j < CVCORE_CLT_TILE; j++) {
      const int r = CVCORE_CLT_STRIDE * u + j;

#pragma unroll
      for (int n = 0; n < 4; n++)
        s[n] += window[j] * row_sums[n][r][t];
      s[4] += window[j] * (j - CV_CLT_SHAPE_CENTRE) * row_sums[4][r][t];
    }
    cv_clt_shape_normalise (s);
#pragma unroll
    for (int n = 0; n < CVCORE_CLT_SHAPE_FLOATS; n++)
      shapes[CVCORE_CLT_SHAPE_FLOATS * (ty * tiles_x + tx) + n] = s[n];
  }
}

} /* namespace */

extern "C" cvcore_status
cv_clt_reduce_cuda (cvcore_stream *stream, int count, const cvcore_image *src,
    int channel, const cvcore_image *dst, bool after_kernel)
{
  const dim3 block (kReduceX, kReduceY);
  const dim3 grid ((dst->width + kReduceX - 1) / kReduceX,
      (dst->height + kReduceY - 1) / kReduceY, count);
  ReduceFrames frames = {};

  for (int f = 0; f < count; f++) {
    frames.src[f] = device_image (&src[f]);
    frames.dst[f] = device_image (&dst[f]);
  }
  CUDA_BIND (cvcore_stream_device (stream));
  CUDA_TRY (
      cv_cuda_launch_chained (stream, after_kernel, clt_reduce, grid, block,
          frames, channel, src->width, src->height, dst->width, dst->height));
  return CVCORE_OK;
}

extern "C" cvcore_status
cv_clt_predict_cuda (cvcore_stream *stream, const cvcore_clt_match *coarse,
    int width, int height, cvcore_clt_match *matches)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_predict<<<(tiles_x * tiles_y + 127) / 128, 128, 0, cs>>> (coarse,
      cv_clt_tiles ((width + 1) / 2), cv_clt_tiles ((height + 1) / 2), tiles_x,
      tiles_y, matches);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

extern "C" cvcore_status
cv_clt_shapes_cuda (cvcore_stream *stream, const cvcore_image *src, int channel,
    float *shapes)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles_x = cv_clt_tiles (src->width);
  const int tiles_y = cv_clt_tiles (src->height);
  const dim3 grid ((tiles_x + kShapeTilesX - 1) / kShapeTilesX,
      (tiles_y + kShapeTilesY - 1) / kShapeTilesY);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_shapes<<<grid, kShapeThreads, 0, cs>>> (device_image (src), channel,
      src->width, src->height, tiles_x, tiles_y, shapes);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
