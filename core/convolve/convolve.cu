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

/* CUDA kernels of the convolution and the choice between its paths.
 *
 * Square kernels of 1, 3 or 5 taps a side go to convolve-small.cu, larger
 * dense kernels on 8-bit frames to the tensor cores (convolve-mma.cu),
 * rank-1 ones to a fused two-pass kernel (convolve-separable.cu). The rest (16-bit samples, taps the tensor cores
 * cannot hold exactly) use dense_tiled: a block loads its tile plus apron
 * into shared memory as float, cooperatively, then each thread computes
 * ROWS vertically adjacent outputs. Taps travel as kernel parameters, which
 * live in the constant bank and are broadcast to the warp. When a tile does
 * not fit in shared memory, dense_direct reads global memory through the
 * cache.
 */
#include "convolve-device.cuh"
#include "convolve-private.h"
#include "launch.cuh"

using namespace cv_convolve;

namespace {

constexpr int kBlockW = 32;
constexpr int kBlockH = 8;

/* Rank-1 kernels up to this many taps run dense: two passes cost more than
 * the taps they save. */
constexpr int kSeparableMinTaps = 26;

/* Dense kernels on 8-bit frames from this many taps up use the tensor
 * cores. */
constexpr int kMmaMinTaps = 26;

/* On 8-bit frames the tensor cores also beat the two-pass kernel on
 * rank-1 kernels, except on four-channel frames below this many taps
 * (measured on an H100: 15x15 RGBA runs faster in two passes, 31x31 and
 * every GRAY8 size faster dense). */
constexpr int kMmaRankOneMinTaps4 = 400;

/* Whether a rank-1 kernel of @taps taps on 8-bit frames of @channels
 * channels should still run dense on the tensor cores (when they suit). */
bool
rank_one_prefers_mma (int channels, int taps)
{
  return channels < 4 || taps >= kMmaRankOneMinTaps4;
}

template <int C>
__device__ __forceinline__ void
load_tile_value (const float *p, float v[C])
{
  if constexpr (C == 4) {
    const float4 q = *reinterpret_cast<const float4 *> (p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (C == 2) {
    const float2 q = *reinterpret_cast<const float2 *> (p);
    v[0] = q.x, v[1] = q.y;
  } else {
    v[0] = p[0];
  }
}

template <typename T, int C, typename Acc, int ROWS, int N>
__global__ void
__launch_bounds__ (kBlockW *kBlockH) dense_tiled (Geometry g, Taps<N> taps)
{
  extern __shared__ float4 shared[];
  float *tile = reinterpret_cast<float *> (shared);
  const int kw = g.kw, kh = g.kh;
  const int tw = kBlockW + kw - 1, th = kBlockH * ROWS + kh - 1;
  const int ox = blockIdx.x * kBlockW, oy = blockIdx.y * kBlockH * ROWS;
  const int tid = threadIdx.y * kBlockW + threadIdx.x;

  for (int i = tid; i < tw * th; i += kBlockW * kBlockH) {
    const int ty = i / tw, tx = i - ty * tw;
    float v[C];

    load_pixel<T, C> (g, ox + tx - g.ax, oy + ty - g.ay, v);
#pragma unroll
    for (int c = 0; c < C; c++)
      tile[i * C + c] = v[c];
  }
  __syncthreads ();

  Acc acc[ROWS][C];
#pragma unroll
  for (int r = 0; r < ROWS; r++)
#pragma unroll
    for (int c = 0; c < C; c++)
      acc[r][c] = 0;

  const int r0 = threadIdx.y * ROWS;
  /* Tile row r0 + t feeds output row r through tap row t - r. */
  for (int t = 0; t < kh + ROWS - 1; t++) {
    const float *row = tile + ((r0 + t) * tw + threadIdx.x) * C;

    for (int i = 0; i < kw; i++) {
      float v[C];

      load_tile_value<C> (row + i * C, v);
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const int j = t - r;

        if (j >= 0 && j < kh) {
          const Acc w = taps.w[j * kw + i];
#pragma unroll
          for (int c = 0; c < C; c++)
            acc[r][c] += w * (Acc) v[c];
        }
      }
    }
  }

  const int x = ox + threadIdx.x;
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    const int y = oy + r0 + r;

    if (x < g.width && y < g.height)
      store_pixel<T, C, Acc> (g, x, y, acc[r]);
  }
}

/* One output per thread, straight from global memory. */
template <typename T, int C, typename Acc, int N>
__global__ void
__launch_bounds__ (kBlockW *kBlockH) dense_direct (Geometry g, Taps<N> taps)
{
  const int x = blockIdx.x * kBlockW + threadIdx.x;
  const int y = blockIdx.y * kBlockH + threadIdx.y;
  Acc acc[C];

  if (x >= g.width || y >= g.height)
    return;
#pragma unroll
  for (int c = 0; c < C; c++)
    acc[c] = 0;
  for (int j = 0; j < g.kh; j++)
    for (int i = 0; i < g.kw; i++) {
      const Acc w = taps.w[j * g.kw + i];
      float v[C];

      load_pixel<T, C> (g, x - g.ax + i, y - g.ay + j, v);
#pragma unroll
      for (int c = 0; c < C; c++)
        acc[c] += w * (Acc) v[c];
    }
  store_pixel<T, C, Acc> (g, x, y, acc);
}

dim3
grid_for (const Geometry &g, int rows_per_block)
{
  return dim3 ((g.width + kBlockW - 1) / kBlockW,
      (g.height + rows_per_block - 1) / rows_per_block);
}

template <typename T, int C, typename Acc>
cvcore_status
launch_dense (cudaStream_t stream, const cvcore_device *device,
    const Geometry &g, const cvcore_convolve_plan *plan)
{
  constexpr int rows = C == 4 ? 4 : 8;
  constexpr int n = CVCORE_CONVOLVE_MAX_TAPS;
  const Taps<n> taps = make_taps<n> (plan->taps, plan->width * plan->height);
  const size_t shared = (size_t) (kBlockW + g.kw - 1)
      * (kBlockH * rows + g.kh - 1) * C * sizeof (float);
  auto kernel = dense_tiled<T, C, Acc, rows, n>;

  if (shared > device->shared_per_block_optin) {
    dense_direct<T, C, Acc, n>
        <<<grid_for (g, kBlockH), dim3 (kBlockW, kBlockH), 0, stream>>> (g,
            taps);
    CV_CUDA_LAUNCHED ();
    return CVCORE_OK;
  }
  CV_TRY (cv_cuda_use_shared (device, kernel, shared, "convolution tile"));
  kernel<<<grid_for (g, kBlockH * rows), dim3 (kBlockW, kBlockH), shared,
      stream>>> (g, taps);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

template <typename T, int C>
cvcore_status
launch (cudaStream_t stream, const cvcore_device *device, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  const int taps = plan->width * plan->height;
  MmaTaps mma;
  const bool mma_ok = sizeof (T) == 1 && taps >= kMmaMinTaps
      && mma_prepare (device, plan, &mma);

  if (plan->separable && taps >= kSeparableMinTaps
      && !(mma_ok && rank_one_prefers_mma (C, taps)))
    return launch_separable (stream, device, g, C, sizeof (T) == 2, plan);
  if (plan->width == plan->height && plan->width <= 5 && plan->width % 2)
    return launch_small (stream, g, C, sizeof (T) == 2, plan);
  if (mma_ok)
    return launch_dense_mma (stream, device, g, C, plan, mma);
  if (plan->use_double)
    return launch_dense<T, C, double> (stream, device, g, plan);
  return launch_dense<T, C, float> (stream, device, g, plan);
}

} /* namespace */

extern "C" cvcore_status
cv_convolve_cuda (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned channel_mask,
    const cvcore_convolve_plan *plan)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t handle = cv_cuda_stream (stream);
  Geometry g;

  g.src = static_cast<const unsigned char *> (src->data);
  g.dst = static_cast<unsigned char *> (dst->data);
  g.src_pitch = src->pitch;
  g.dst_pitch = dst->pitch;
  g.width = src->width;
  g.height = src->height;
  g.kw = plan->width;
  g.kh = plan->height;
  g.ax = plan->anchor_x;
  g.ay = plan->anchor_y;
  g.mask = channel_mask;
  g.divisor = plan->divisor;
  g.reciprocal = plan->reciprocal;
  g.bias = plan->bias;
  g.bias_half = plan->bias_half;
  g.border_value = plan->border_value;
  g.border = plan->border;
  g.multiprocessors = device->multiprocessors;

  CUDA_BIND (device);
  return with_channels (src->channels, [&] (auto c) {
    constexpr int C = decltype (c)::value;

    return src->sample == CVCORE_SAMPLE_U8
        ? launch<unsigned char, C> (handle, device, g, plan)
        : launch<unsigned short, C> (handle, device, g, plan);
  });
}
