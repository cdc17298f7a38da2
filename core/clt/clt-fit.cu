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

/* The motion-field fit on CUDA: eight lanes per tile share its
 * neighbours, sum their normal equations across the group and each solve
 * them, so that a frame's tiles fill the device. */
#include "clt-common.h"
#include "clt-fit-common.h"
#include "clt-private.h"
#include "launch.cuh"

namespace {

constexpr int kLanesPerTile = 8;
constexpr int kFitThreads = 128;

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
        int height, int radius, bool isotropic, cvcore_clt_match *fitted)
{
  const int tiles_x = cv_clt_tiles (width);
  const int tiles = tiles_x * cv_clt_tiles (height);
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int member = thread % kLanesPerTile;
  /* the last group's lanes past the end share a real tile's work, so that
   * every lane of a warp takes part in its shuffles */
  const int tile = min (thread / kLanesPerTile, tiles - 1);
  bool solving = true;
  float fit[6];

  cv_clt_fit_start (matches, tile, fit);
  for (int pass = 0; pass <= CV_CLT_FIT_REWEIGHTS; pass++) {
    CvCltFitSums sums = { { 0.0f }, { 0.0f }, { 0.0f }, { 0.0f }, 0.0f };

    if (solving)
      cv_clt_fit_accumulate (matches, shapes, width, height, tile % tiles_x,
          tile / tiles_x, radius, isotropic, fit, pass, member, kLanesPerTile,
          &sums);
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
  if (member == 0 && thread / kLanesPerTile < tiles) {
    const float d[2] = { fit[0], fit[3] };

    fitted[tile] =
        cv_clt_fit_result (matches, shapes, width, height, isotropic, tile, d);
  }
}

} /* namespace */

extern "C" cvcore_status
cv_clt_fit_cuda (cvcore_stream *stream, const float *shapes,
    const cvcore_clt_match *matches, int width, int height, int radius,
    bool isotropic, cvcore_clt_match *fitted)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_fit<<<(tiles_x * tiles_y * kLanesPerTile + kFitThreads - 1) / kFitThreads,
      kFitThreads, 0, cs>>> (matches, shapes, width, height, radius, isotropic,
      fitted);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
