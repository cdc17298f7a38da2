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

/* The motion-field fit on CUDA. A block fits a patch of tiles: it first
 * works out what every tile within reach brings to the fits
 * (cv_clt_fit_source) once, into shared memory, where each tile's fit
 * would otherwise work it out for each neighbour in each pass. Then one
 * thread fits each tile, or on frames too small to fill the device two
 * share it: each sums every other column of neighbours, they add their
 * sums, and each solves. */
#include "clt-common.h"
#include "clt-fit-common.h"
#include "clt-private.h"
#include "cvcore-private.h"
#include "launch.cuh"

namespace {

constexpr int kWarp = 32;
constexpr int kBlockRows = 4;
constexpr int kReach = CVCORE_CLT_MAX_FIT_RADIUS;
constexpr int kSide = 2 * kReach + 1;
/* below this many warps of one-thread tiles per scheduler (4 per
 * multiprocessor), a tile's neighbours are shared out between two threads */
constexpr int kShareBelowWarps = 3;

/* The sources of a block's @Columns x kBlockRows tiles and their reach, a
 * field each, so that a warp's loads of a row fall in separate banks. */
template <int Columns>
struct Patch
{
  static constexpr int kW = Columns + 2 * kReach, kH = kBlockRows + 2 * kReach;
  float dx[kH][kW], dy[kH][kW], weight[kH][kW];
  float mxx[kH][kW], myy[kH][kW], mxy[kH][kW], cx[kH][kW], cy[kH][kW];
  float nearness[kSide][kSide];

  __device__ void
  store (int r, int c, const CvCltFitSource &s)
  {
    dx[r][c] = s.dx;
    dy[r][c] = s.dy;
    weight[r][c] = s.weight;
    mxx[r][c] = s.mxx;
    myy[r][c] = s.myy;
    mxy[r][c] = s.mxy;
    cx[r][c] = s.cx;
    cy[r][c] = s.cy;
  }

  __device__ CvCltFitSource
  load (int r, int c) const
  {
    return CvCltFitSource{ dx[r][c], dy[r][c], weight[r][c], mxx[r][c],
      myy[r][c], mxy[r][c], cx[r][c], cy[r][c] };
  }
};

template <int Lanes>
__device__ __forceinline__ float
lanes_sum (float v)
{
#pragma unroll
  for (int o = Lanes / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  return v;
}

/* One pass of the fit of the tile at (@tx, @ty) of @patch, whose
 * neighbours' columns @lane, @lane + @Lanes, ... this thread sums; false
 * once a pass has not solved (@solving). A row of them unrolls: their
 * loads and weights overlap. Every lane of a warp takes part in its
 * shuffles, even where its tile's fit has ended. */
template <int Radius, int Lanes, int Columns>
__device__ __forceinline__ bool
fit_pass (const Patch<Columns> &patch, int tx, int ty, int lane, int pass,
    bool solving, float fit[6])
{
  CvCltFitSums sums = { { 0.0f }, { 0.0f }, { 0.0f }, { 0.0f }, 0.0f };

#pragma unroll 1
  for (int j = -Radius; solving && j <= Radius; j++)
#pragma unroll
    for (int k = 0; k < 2 * Radius + 1; k += Lanes) {
      const int i = k + lane - Radius;

      if (Lanes == 1 || i <= Radius) {
        const CvCltFitSource src =
            patch.load (ty + kReach + j, tx + kReach + i);

        cv_clt_fit_add_near (&src, i, j, patch.nearness[kReach + j][kReach + i],
            fit, pass, &sums);
      }
    }
  if (Lanes > 1) {
#pragma unroll
    for (int k = 0; k < CV_CLT_FIT_PRODUCTS; k++) {
      sums.xx[k] = lanes_sum<Lanes> (sums.xx[k]);
      sums.xy[k] = lanes_sum<Lanes> (sums.xy[k]);
      sums.yy[k] = lanes_sum<Lanes> (sums.yy[k]);
    }
#pragma unroll
    for (int k = 0; k < 6; k++)
      sums.b[k] = lanes_sum<Lanes> (sums.b[k]);
    sums.total = lanes_sum<Lanes> (sums.total);
  }
  /* a tile's lanes hold the same sums and stop together */
  return solving && cv_clt_fit_solve_pass (&sums, pass, fit);
}

/* A block of kWarp x kBlockRows threads fits kWarp / @Lanes x kBlockRows
 * tiles. */
template <int Radius, int Lanes>
__global__ void
__launch_bounds__ (kWarp *kBlockRows)
    clt_fit (const cvcore_clt_match *matches, const float *shapes, int width,
        int height, CvCltFitViews views, cvcore_clt_match *fitted)
{
  constexpr int kColumns = kWarp / Lanes;
  constexpr int kW = Patch<kColumns>::kW, kH = Patch<kColumns>::kH;
  __shared__ Patch<kColumns> patch;
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);
  const int first_x = blockIdx.x * kColumns, first_y = blockIdx.y * kBlockRows;
  const int thread = threadIdx.y * kWarp + threadIdx.x;
  const int lane = threadIdx.x % Lanes, column = threadIdx.x / Lanes;
  /* lanes past the frame's last column repeat its fit where they share
   * tiles: each warp is one row of threads */
  const int x =
      Lanes > 1 ? min (first_x + column, tiles_x - 1) : first_x + column;
  const int y = first_y + threadIdx.y;
  bool solving = true;
  float fit[6];

  if (thread < kSide * kSide)
    patch.nearness[thread / kSide][thread % kSide] =
        cv_clt_fit_nearness (thread % kSide - kReach, thread / kSide - kReach);
  /* the correlation before writes the matches */
  cv_grid_wait ();
  for (int e = thread; e < kH * kW; e += kWarp * kBlockRows)
    patch.store (e / kW, e % kW,
        cv_clt_fit_source (matches, shapes, width, height, &views,
            first_x - kReach + e % kW, first_y - kReach + e / kW));
  __syncthreads ();
  if (x >= tiles_x || y >= tiles_y)
    return;

  cv_clt_fit_start (matches, y * tiles_x + x, fit);
  for (int pass = 0; pass <= CV_CLT_FIT_REWEIGHTS; pass++) {
    if (Lanes == 1 && !solving)
      break;
    solving = fit_pass<Radius, Lanes> (patch, x - first_x, threadIdx.y, lane,
        pass, solving, fit);
  }
  if (lane == 0 && first_x + column < tiles_x) {
    const float d[2] = { fit[0], fit[3] };

    fitted[y * tiles_x + x] = cv_clt_fit_result (matches, shapes, width, height,
        &views, y * tiles_x + x, d);
  }
}

template <int Lanes>
cudaError_t
launch_fit (const cvcore_stream *stream, bool after_kernel, const float *shapes,
    const cvcore_clt_match *matches, int width, int height, int radius,
    const CvCltFitViews *views, cvcore_clt_match *fitted)
{
  const int columns = kWarp / Lanes;
  const dim3 grid ((cv_clt_tiles (width) + columns - 1) / columns,
      (cv_clt_tiles (height) + kBlockRows - 1) / kBlockRows);
  const dim3 block (kWarp, kBlockRows);
  auto kernel = clt_fit<3, Lanes>;

  static_assert (CVCORE_CLT_MAX_FIT_RADIUS == 3, "a kernel per radius");
  if (radius == 1)
    kernel = clt_fit<1, Lanes>;
  else if (radius == 2)
    kernel = clt_fit<2, Lanes>;
  return cv_cuda_launch_chained (stream, after_kernel, kernel, grid, block,
      matches, shapes, width, height, *views, fitted);
}

} /* namespace */

extern "C" cvcore_status
cv_clt_fit_cuda (cvcore_stream *stream, const float *shapes,
    const cvcore_clt_match *matches, int width, int height, int radius,
    const CvCltFitViews *views, bool after_kernel, cvcore_clt_match *fitted)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  const long tiles = (long) cv_clt_tiles (width) * cv_clt_tiles (height);
  /* two threads a tile where one a tile would not fill the device */
  const auto launch =
      tiles < (long) kShareBelowWarps * 4 * kWarp * device->multiprocessors
      ? launch_fit<2>
      : launch_fit<1>;

  CUDA_BIND (device);
  CUDA_TRY (launch (stream, after_kernel, shapes, matches, width, height,
      radius, views, fitted));
  return CVCORE_OK;
}
