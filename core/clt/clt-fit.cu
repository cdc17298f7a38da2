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

/* The motion-field fit on CUDA. A block fits a run of tiles of one row:
 * it first works out what every tile within reach brings to the fits
 * (cv_clt_fit_source) once, into shared memory, where each tile's fit
 * would otherwise work it out for each neighbour in each pass. Eight
 * lanes per tile share its neighbours, sum the normal equations across
 * the group and each solve them, so that a frame's tiles fill the
 * device. */
#include "clt-common.h"
#include "clt-fit-common.h"
#include "clt-private.h"
#include "launch.cuh"

namespace {

constexpr int kLanesPerTile = 8;
constexpr int kTilesPerBlock = 16;
constexpr int kFitThreads = kLanesPerTile * kTilesPerBlock;
constexpr int kReach = CVCORE_CLT_MAX_FIT_RADIUS;
constexpr int kPatchW = kTilesPerBlock + 2 * kReach;
constexpr int kPatchH = 2 * kReach + 1;

__device__ __forceinline__ float
group_sum (float v)
{
#pragma unroll
  for (int o = kLanesPerTile / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  return v;
}

__global__ void
__launch_bounds__ (kFitThreads)
    clt_fit (const cvcore_clt_match *matches, const float *shapes, int width,
        int height, int radius, CvCltFitViews views, cvcore_clt_match *fitted)
{
  __shared__ CvCltFitSource patch[kPatchH][kPatchW];
  const int tiles_x = cv_clt_tiles (width);
  const int first_x = blockIdx.x * kTilesPerBlock, y = blockIdx.y;
  const int member = threadIdx.x % kLanesPerTile;
  const int column = threadIdx.x / kLanesPerTile;
  /* lanes past the row's end share its last tile's work, so that every
   * lane of a warp takes part in its shuffles */
  const int x = min (first_x + column, tiles_x - 1);
  const int side = 2 * radius + 1;
  bool solving = true;
  float fit[6];

  for (int e = threadIdx.x; e < kPatchH * kPatchW; e += kFitThreads)
    patch[e / kPatchW][e % kPatchW] =
        cv_clt_fit_source (matches, shapes, width, height, &views,
            first_x - kReach + e % kPatchW, y - kReach + e / kPatchW);
  __syncthreads ();
  cv_clt_fit_start (matches, y * tiles_x + x, fit);
  for (int pass = 0; pass <= CV_CLT_FIT_REWEIGHTS; pass++) {
    CvCltFitSums sums = { { 0.0f }, { 0.0f }, { 0.0f }, { 0.0f }, 0.0f };

    for (int e = member; solving && e < side * side; e += kLanesPerTile) {
      const int i = e % side - radius, j = e / side - radius;

      cv_clt_fit_add (&patch[kReach + j][x - first_x + kReach + i], i, j, fit,
          pass, &sums);
    }
#pragma unroll
    for (int k = 0; k < CV_CLT_FIT_PRODUCTS; k++) {
      sums.xx[k] = group_sum (sums.xx[k]);
      sums.xy[k] = group_sum (sums.xy[k]);
      sums.yy[k] = group_sum (sums.yy[k]);
    }
#pragma unroll
    for (int k = 0; k < 6; k++)
      sums.b[k] = group_sum (sums.b[k]);
    sums.total = group_sum (sums.total);
    /* the group's lanes hold the same sums and stop together */
    if (solving)
      solving = cv_clt_fit_solve_pass (&sums, pass, fit);
  }
  if (member == 0 && first_x + column < tiles_x) {
    const float d[2] = { fit[0], fit[3] };

    fitted[y * tiles_x + x] = cv_clt_fit_result (matches, shapes, width, height,
        &views, y * tiles_x + x, d);
  }
}

} /* namespace */

extern "C" cvcore_status
cv_clt_fit_cuda (cvcore_stream *stream, const float *shapes,
    const cvcore_clt_match *matches, int width, int height, int radius,
    const CvCltFitViews *views, cvcore_clt_match *fitted)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_fit<<<dim3 ((tiles_x + kTilesPerBlock - 1) / kTilesPerBlock, tiles_y),
      kFitThreads, 0, cs>>> (matches, shapes, width, height, radius, *views,
      fitted);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
