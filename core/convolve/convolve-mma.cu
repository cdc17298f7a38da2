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

/* Dense convolution of 8-bit frames on the tensor cores.
 *
 * For one tap row ky, the outputs of a row segment are a matrix product:
 * out[y][x0 + n] += sum_k in[y + ky][x0 + k] * B[k][n] with the Toeplitz
 * matrix B[k][n] = w[ky][k - n] (zero outside the kernel). A warp computes
 * 64 rows x 16 columns of outputs as 4 x 2 tiles of m16n8k16 products,
 * stepping k through the input span of its columns in blocks of 16. The
 * input tile (one channel at a time) sits in shared memory as half
 * precision, which holds 8-bit samples exactly, and feeds the A operands
 * through ldmatrix; each thread builds its B operands from a table of tap
 * pairs, so the Toeplitz matrices are never stored.
 *
 * Taps are half precision: integer taps up to 2048 are exact, others are
 * split into a high and a low half (two products, about 22 significant
 * bits). Products are exact and sums are accumulated in float, so integer
 * kernels give the exact result whenever their float sums are exact, which
 * the planner guarantees (it sends larger sums to the double path).
 */
#include "convolve-device.cuh"
#include "mma-device.cuh"
#include "launch.cuh"

namespace cv_convolve {

namespace {

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kOutRows = 64; /* per block and per warp */
constexpr int kOutCols = 16 * kWarps;
constexpr int kMTiles = kOutRows / 16;
constexpr int kNTiles = 2; /* n8 tiles: 16 columns per warp */
/* Tap index 0 sits this far into a row of the pair table, so that the
 * indices a thread forms (-15 at least) stay inside. */
constexpr int kPairOffset = 16;

/* Sizes of the shared-memory layout for a kernel of @kw x @kh taps. */
struct Layout
{
  int k_blocks; /* 16-wide steps over a warp's input span */
  int tile_rows, tile_cols, tile_pitch;
  int pair_pitch;
  size_t pairs_bytes, out_bytes, columns_bytes, tile_bytes;

  __host__ __device__
  Layout (int kw, int kh, int channels)
  {
    k_blocks = (16 + kw - 1 + 15) / 16;
    tile_rows = kOutRows + kh - 1;
    tile_cols = kOutCols - 16 + 16 * k_blocks;
    /* 8 halves of padding: ldmatrix's eight row reads fall in distinct
     * banks. */
    tile_pitch = tile_cols + 8;
    pair_pitch = 16 * k_blocks + 2 * kPairOffset;
    pairs_bytes = (size_t) kh * pair_pitch * sizeof (unsigned);
    out_bytes = (size_t) kOutRows * kOutCols * channels;
    columns_bytes = (size_t) tile_cols * sizeof (int);
    tile_bytes = (size_t) tile_rows * tile_pitch * sizeof (__half);
  }

  __host__ __device__ size_t
  total (bool split) const
  {
    return pairs_bytes * (split ? 2 : 1) + out_bytes + columns_bytes
        + tile_bytes;
  }
};

/* The pair table: entry e of row ky holds taps (e - kPairOffset) and the
 * next one of that row, zero outside the kernel, in the high (@low false)
 * or low part of their split. @staged holds the taps as floats. */
__device__ void
build_pairs (const Geometry &g, const float *staged, unsigned *pairs, int pitch,
    bool low)
{
  for (int i = threadIdx.x; i < g.kh * pitch; i += kThreads) {
    const int ky = i / pitch, kx = i - ky * pitch - kPairOffset;
    float w[2];
    unsigned high, low_part;

#pragma unroll
    for (int q = 0; q < 2; q++)
      w[q] = kx + q >= 0 && kx + q < g.kw ? staged[ky * g.kw + kx + q] : 0.0f;
    cv_mma::split_pair (w[0], w[1], &high, &low_part);
    pairs[i] = low ? low_part : high;
  }
}

/* @SPLIT: taps need a low half too. @unscale undoes the power-of-two scale
 * the host gave non-integer taps to keep them clear of half's subnormals. */
template <int C, bool SPLIT>
__global__ void
__launch_bounds__ (kThreads)
    dense_mma (Geometry g, Taps<CVCORE_CONVOLVE_MAX_TAPS> taps, float unscale)
{
  extern __shared__ uint4 shared[];
  const Layout layout (g.kw, g.kh, C);
  unsigned char *base = reinterpret_cast<unsigned char *> (shared);
  unsigned *pairs_high = reinterpret_cast<unsigned *> (base);
  unsigned *pairs_low = pairs_high + (SPLIT ? g.kh * layout.pair_pitch : 0);
  unsigned char *out = base + layout.pairs_bytes * (SPLIT ? 2 : 1);
  int *columns = reinterpret_cast<int *> (out + layout.out_bytes);
  __half *tile = reinterpret_cast<__half *> (
      reinterpret_cast<unsigned char *> (columns) + layout.columns_bytes);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int ox = blockIdx.x * kOutCols, oy = blockIdx.y * kOutRows;

  /* Taps go through the tile's space first: parameters read at divergent
   * addresses would be serialised. */
  float *staged = reinterpret_cast<float *> (tile);
  for (int i = threadIdx.x; i < g.kw * g.kh; i += kThreads)
    staged[i] = taps.w[i];
  for (int i = threadIdx.x; i < layout.tile_cols; i += kThreads) {
    const int bx = cv_border_index (ox + i - g.ax, g.width, g.border);

    columns[i] = bx < 0 ? -1 : bx * C;
  }
  __syncthreads ();
  build_pairs (g, staged, pairs_high, layout.pair_pitch, false);
  if (SPLIT)
    build_pairs (g, staged, pairs_low, layout.pair_pitch, true);

  const __half border_value = __float2half_rn (g.border_value);
  const int group = lane >> 2, pair = 2 * (lane & 3);

#pragma unroll 1
  for (int c = 0; c < C; c++) {
    if (!(g.mask & (1u << c)))
      continue;
    __syncthreads ();
    for (int ty = warp; ty < layout.tile_rows; ty += kWarps) {
      const int by = cv_border_index (oy + ty - g.ay, g.height, g.border);
      const unsigned char *row =
          by < 0 ? nullptr : g.src + by * g.src_pitch + c;

      for (int tx = lane; tx < layout.tile_cols; tx += 32) {
        const int offset = columns[tx];

        tile[ty * layout.tile_pitch + tx] = row == nullptr || offset < 0
            ? border_value
            : __ushort2half_rn (__ldg (row + offset));
      }
    }
    __syncthreads ();

    float acc[kMTiles][kNTiles][4] = {};
    /* ldmatrix: lanes 0-15 address rows 0-15 of the A block, lanes 16-31
     * the same rows 8 columns on. */
    const __half *a_base =
        tile + (lane & 15) * layout.tile_pitch + 16 * warp + (lane >> 4) * 8;

#pragma unroll 1
    for (int ky = 0; ky < g.kh; ky++) {
#pragma unroll 1
      for (int kb = 0; kb < layout.k_blocks; kb++) {
        unsigned bh[kNTiles][2], bl[kNTiles][2];

        /* B[k][n] = w[ky][16 kb + k - n]; this thread holds k = pair,
         * pair + 1 (register 0) and k + 8 (register 1) of column n. */
#pragma unroll
        for (int nt = 0; nt < kNTiles; nt++) {
          const int e = ky * layout.pair_pitch + kPairOffset + 16 * kb + pair
              - (8 * nt + group);

          bh[nt][0] = pairs_high[e];
          bh[nt][1] = pairs_high[e + 8];
          if (SPLIT) {
            bl[nt][0] = pairs_low[e];
            bl[nt][1] = pairs_low[e + 8];
          }
        }
#pragma unroll
        for (int mt = 0; mt < kMTiles; mt++) {
          unsigned a[4];

          cv_mma::load_matrices (a_base + (16 * mt + ky) * layout.tile_pitch
                  + 16 * kb,
              a);
#pragma unroll
          for (int nt = 0; nt < kNTiles; nt++) {
            cv_mma::mma (acc[mt][nt], a, bh[nt][0], bh[nt][1]);
            if (SPLIT)
              cv_mma::mma (acc[mt][nt], a, bl[nt][0], bl[nt][1]);
          }
        }
      }
    }

    /* Accumulator element q of a tile: row group (+8 for q >= 2), column
     * pair + (q & 1). */
#pragma unroll
    for (int mt = 0; mt < kMTiles; mt++)
#pragma unroll
      for (int nt = 0; nt < kNTiles; nt++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
          const int r = 16 * mt + group + (q >> 1) * 8;
          const int x = 16 * warp + 8 * nt + pair + (q & 1);

          out[(r * kOutCols + x) * C + c] =
              (unsigned char) finish (acc[mt][nt][q] * unscale, g, 255);
        }
  }
  __syncthreads ();

  for (int i = threadIdx.x; i < kOutRows * kOutCols; i += kThreads) {
    const int x = ox + i % kOutCols, y = oy + i / kOutCols;
    unsigned char v[C];

    if (x >= g.width || y >= g.height)
      continue;
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = out[i * C + c];
    store_samples<unsigned char, C> (g, x, y, v);
  }
}

bool
prepare (const cvcore_device *device, const cvcore_convolve_plan *plan,
    MmaTaps *out)
{
  const int n = plan->width * plan->height;
  const bool integer = taps_are_whole (plan);
  float largest = 0.0f;

  if (device->compute_capability < 80 || plan->use_double)
    return false;
  /* Constant borders enter the tile as half precision. */
  if (plan->border == CVCORE_BORDER_CONSTANT
      && __half2float (__float2half_rn (plan->border_value))
          != plan->border_value)
    return false;
  for (int i = 0; i < n; i++)
    largest = fmaxf (largest, fabsf (plan->taps[i]));
  if (largest == 0.0f || !isfinite (largest))
    return false;
  /* Integer taps stay as they are, so their sums stay exact; others are
   * scaled by a power of two (exactly) to put the largest near 2^13. */
  out->scale = integer ? 1.0f : ldexpf (1.0f, 13 - ilogbf (largest));
  if (largest * out->scale > 32768.0f)
    return false;
  out->split = false;
  for (int i = 0; i < n; i++) {
    const float w = plan->taps[i] * out->scale;

    out->split |= __half2float (__float2half_rn (w)) != w;
  }
  return true;
}

template <int C, bool SPLIT>
cvcore_status
launch (cudaStream_t stream, const cvcore_device *device, const Geometry &g,
    const cvcore_convolve_plan *plan, const MmaTaps &prepared)
{
  const Layout layout (g.kw, g.kh, C);
  const size_t shared = layout.total (SPLIT);
  const dim3 grid ((g.width + kOutCols - 1) / kOutCols,
      (g.height + kOutRows - 1) / kOutRows);
  auto kernel = dense_mma<C, SPLIT>;
  Taps<CVCORE_CONVOLVE_MAX_TAPS> taps = {};

  CV_TRY (cv_cuda_use_shared (device, kernel, shared, "tensor-core tile"));
  for (int i = 0; i < plan->width * plan->height; i++)
    taps.w[i] = plan->taps[i] * prepared.scale;
  kernel<<<grid, kThreads, shared, stream>>> (g, taps, 1.0f / prepared.scale);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

template <int C>
cvcore_status
launch_split (cudaStream_t stream, const cvcore_device *device,
    const Geometry &g, const cvcore_convolve_plan *plan,
    const MmaTaps &prepared)
{
  if (prepared.split)
    return launch<C, true> (stream, device, g, plan, prepared);
  return launch<C, false> (stream, device, g, plan, prepared);
}

} /* namespace */

bool
mma_prepare (const cvcore_device *device, const cvcore_convolve_plan *plan,
    MmaTaps *taps)
{
  return prepare (device, plan, taps)
      && Layout (plan->width, plan->height, 4).total (taps->split)
      <= device->shared_per_block_optin;
}

cvcore_status
launch_dense_mma (cudaStream_t stream, const cvcore_device *device,
    const Geometry &g, int channels, const cvcore_convolve_plan *plan,
    const MmaTaps &taps)
{
  return with_channels (channels, [&] (auto c) {
    return launch_split<decltype (c)::value> (stream, device, g, plan, taps);
  });
}

} /* namespace cv_convolve */
