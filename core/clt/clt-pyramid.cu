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

/* CLT pyramids on CUDA: the half-size reduction, a thread per reduced
 * sample, the prediction of a level's motion from the coarser one, a
 * thread per tile, and the tiles' shapes, a warp per tile. */
#include "clt-device.cuh"
#include "clt-fit-common.h"
#include "clt-pyramid-common.h"
#include "clt-private.h"
#include "launch.cuh"

namespace {

__global__ void
clt_reduce (Image src, int c, int width, int height, Image dst, int dst_width,
    int dst_height)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned sum = 0;

  if (x >= dst_width || y >= dst_height)
    return;
#pragma unroll
  for (int j = 0; j < 4; j++) {
    const int sy = cv_clamp_index (2 * y - 1 + j, height);

#pragma unroll
    for (int i = 0; i < 4; i++)
      sum += cv_clt_reduce_weight (i) * cv_clt_reduce_weight (j)
          * (unsigned) src.at (cv_clamp_index (2 * x - 1 + i, width), sy, c);
  }
  dst.store (x, y, 0, (float) ((sum + 32) / 64));
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

constexpr int kShapeWarps = 4;

/* A warp per tile: the warp loads the tile and a pixel's border into
 * shared memory once, then lane l takes column l % 16 of every other
 * row. The window's weights come from a table: a sine per pixel, and four
 * reads of the frame per pixel, made the kernel bound by issue. */
constexpr int kShapeSide = CVCORE_CLT_TILE + 2;

__global__ void
clt_shapes (Image src, int c, int width, int height, int tiles_x, int tiles,
    float *shapes)
{
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tile = blockIdx.x * kShapeWarps + warp;
  const int i = lane % CVCORE_CLT_TILE;
  __shared__ float window[CVCORE_CLT_TILE];
  __shared__ float region[kShapeWarps][kShapeSide][kShapeSide + 1];
  float (*r)[kShapeSide + 1] = region[warp];
  float s[CVCORE_CLT_SHAPE_FLOATS] = { 0.0f };

  if (threadIdx.x < CVCORE_CLT_TILE)
    window[threadIdx.x] = cv_clt_shape_window (threadIdx.x);
  __syncthreads ();
  if (tile >= tiles)
    return;
  const int x0 = CVCORE_CLT_STRIDE * (tile % tiles_x) - CVCORE_CLT_TILE / 2;
  const int y0 = CVCORE_CLT_STRIDE * (tile / tiles_x) - CVCORE_CLT_TILE / 2;

  for (int e = lane; e < kShapeSide * kShapeSide; e += 32)
    r[e / kShapeSide][e % kShapeSide] =
        src.at (cv_mirror_index (x0 - 1 + e % kShapeSide, width),
            cv_mirror_index (y0 - 1 + e / kShapeSide, height), c);
  __syncwarp ();
  for (int j = lane / CVCORE_CLT_TILE; j < CVCORE_CLT_TILE; j += 2)
    cv_clt_shape_add (r[j + 1][i], r[j + 1][i + 2], r[j][i + 1],
        r[j + 2][i + 1], i, j, window[i] * window[j], s);
#pragma unroll
  for (int k = 0; k < CVCORE_CLT_SHAPE_FLOATS; k++)
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      s[k] += __shfl_xor_sync (0xffffffffu, s[k], o);
  if (lane == 0) {
    cv_clt_shape_normalise (s);
    for (int k = 0; k < CVCORE_CLT_SHAPE_FLOATS; k++)
      shapes[CVCORE_CLT_SHAPE_FLOATS * tile + k] = s[k];
  }
}

} /* namespace */

extern "C" cvcore_status
cv_clt_reduce_cuda (cvcore_stream *stream, const cvcore_image *src, int channel,
    const cvcore_image *dst)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const dim3 block (32, 8);
  const dim3 grid ((dst->width + 31) / 32, (dst->height + 7) / 8);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_reduce<<<grid, block, 0, cs>>> (device_image (src), channel, src->width,
      src->height, device_image (dst), dst->width, dst->height);
  CV_CUDA_LAUNCHED ();
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
  const int tiles = tiles_x * cv_clt_tiles (src->height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_shapes<<<(tiles + kShapeWarps - 1) / kShapeWarps, 32 * kShapeWarps, 0,
      cs>>> (device_image (src), channel, src->width, src->height, tiles_x,
      tiles, shapes);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
