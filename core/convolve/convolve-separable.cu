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

/* Rank-1 kernels in one CUDA kernel: a block runs the row taps over its
 * tile plus the apron above and below (straight from global memory, where
 * neighbouring threads share cache lines) into shared memory, then each
 * thread runs the column taps down ROWS adjacent outputs of its column,
 * reusing every shared value for up to ROWS outputs. The intermediate never
 * leaves the chip. The arithmetic (row sums first, constant-border rows as
 * the row taps times the border value) is the CPU reference's. */
#include "convolve-device.cuh"
#include "launch.cuh"

namespace cv_convolve {

namespace {

constexpr int kBlockW = 32;
constexpr int kBlockH = 8;
constexpr int kRows = 8;

template <typename T, int C>
__global__ void
__launch_bounds__ (kBlockW *kBlockH)
    separable_fused (Geometry g, Taps<CVCORE_CONVOLVE_MAX_SIZE> row,
        Taps<CVCORE_CONVOLVE_MAX_SIZE> column, float border_row_sum)
{
  extern __shared__ float4 shared[];
  float *rows = reinterpret_cast<float *> (shared);
  const int tile_rows = kBlockH * kRows + g.kh - 1;
  const int ox = blockIdx.x * kBlockW, oy = blockIdx.y * kBlockH * kRows;
  const int x = ox + threadIdx.x;

  for (int t = threadIdx.y; t < tile_rows; t += kBlockH) {
    const int by = cv_border_index (oy + t - g.ay, g.height, g.border);
    float acc[C];

#pragma unroll
    for (int c = 0; c < C; c++)
      acc[c] = by < 0 ? border_row_sum : 0.0f;
    if (by >= 0) {
      for (int i = 0; i < g.kw; i++) {
        float v[C];

        load_resolved<T, C> (g,
            cv_border_index (x - g.ax + i, g.width, g.border), by, v);
#pragma unroll
        for (int c = 0; c < C; c++)
          acc[c] += row.w[i] * v[c];
      }
    }
#pragma unroll
    for (int c = 0; c < C; c++)
      rows[(t * kBlockW + threadIdx.x) * C + c] = acc[c];
  }
  __syncthreads ();

  float acc[kRows][C];
#pragma unroll
  for (int r = 0; r < kRows; r++)
#pragma unroll
    for (int c = 0; c < C; c++)
      acc[r][c] = 0.0f;

  const int r0 = threadIdx.y * kRows;
  /* Row r0 + t of the intermediate feeds output r through tap t - r. */
  for (int t = 0; t < g.kh + kRows - 1; t++) {
    const float *p = rows + ((r0 + t) * kBlockW + threadIdx.x) * C;
    float v[C];

#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = p[c];
#pragma unroll
    for (int r = 0; r < kRows; r++) {
      const int j = t - r;

      if (j >= 0 && j < g.kh) {
#pragma unroll
        for (int c = 0; c < C; c++)
          acc[r][c] += column.w[j] * v[c];
      }
    }
  }
  if (x >= g.width)
    return;
#pragma unroll
  for (int r = 0; r < kRows; r++)
    if (oy + r0 + r < g.height)
      store_pixel<T, C, float> (g, x, oy + r0 + r, acc[r]);
}

template <typename T, int C>
cvcore_status
launch (cudaStream_t stream, const cvcore_device *device, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  const size_t shared =
      (size_t) (kBlockH * kRows + g.kh - 1) * kBlockW * C * sizeof (float);
  const dim3 grid ((g.width + kBlockW - 1) / kBlockW,
      (g.height + kBlockH * kRows - 1) / (kBlockH * kRows));
  auto kernel = separable_fused<T, C>;

  CV_TRY (cv_cuda_use_shared (device, kernel, shared, "separable tile"));
  kernel<<<grid, dim3 (kBlockW, kBlockH), shared, stream>>> (g,
      make_taps<CVCORE_CONVOLVE_MAX_SIZE> (plan->row, plan->width),
      make_taps<CVCORE_CONVOLVE_MAX_SIZE> (plan->column, plan->height),
      cv_border_row_sum (plan));
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

} /* namespace */

cvcore_status
launch_separable (cudaStream_t stream, const cvcore_device *device,
    const Geometry &g, int channels, bool wide_samples,
    const cvcore_convolve_plan *plan)
{
  return with_channels (channels, [&] (auto c) {
    constexpr int C = decltype (c)::value;

    return wide_samples ? launch<unsigned short, C> (stream, device, g, plan)
                        : launch<unsigned char, C> (stream, device, g, plan);
  });
}

} /* namespace cv_convolve */
