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

/* 3x3 and 5x5 kernels on 8-bit gray frames, through a float tile in
 * shared memory.
 *
 * Read straight from global memory, one sample a tap, such kernels spend
 * more instructions loading and converting bytes than summing them. Here a
 * block first turns its tile's samples into floats once, four at a time
 * (two aligned words, a funnel shift, four exponent tricks, one 16-byte
 * store), then each thread sums four adjacent outputs of ROWS rows from
 * 16-byte reads of the tile: a tap costs little more than its multiply-add.
 * Whole taps give exact sums, rounded as the reference rounds them, so the
 * results are the other kernels' bit for bit; fractional taps are divided
 * by the divisor beforehand (GrayFinish), within a unit of the reference as
 * every float path is.
 *
 * Two output rows a thread (H200, 2026-11-27): 5x5 at 4K in 0.021 ms where
 * one sample a tap took 0.033, at 1080p 0.009 instead of 0.012; 3x3 with
 * fractional taps at 4K 0.016 instead of 0.018. Four rows a thread took
 * 0.023 at 4K 5x5, eight 0.025.
 *
 * Blocks of 32x4 threads (H100, three runs each): 1080p 3x3 in 0.0070 ms
 * where 32x8 took 0.0071 to 0.0073, 5x5 0.0083 to 0.0084 instead of
 * 0.0085 to 0.0087, 4K alike; 32x2 took 0.0069 to 0.0070 at 1080p 3x3 but
 * 0.0092 to 0.0093 for 5x5 and 0.0222 at 4K 5x5. For 3x3 at 1080p, one
 * row a thread took 0.0076 and four 0.0079 (32x8).
 *
 * At 4K, 3x3 with fractional taps the integer kernels' way (four pixels
 * and four rows a thread, three words a row, six conversions a row; H100)
 * took 0.0155 ms where this tile took 0.0152 to 0.0153.
 *
 * 3x3 takes three rows a thread (H100, twice each): 4K with fractional
 * taps in 0.0144 to 0.0145 ms where two took 0.0152 to 0.0153 and four
 * 0.0151 to 0.0152; 1080p alike (0.0070 to 0.0071). After the finish
 * below (H200, 2026-11-29, three runs each), 1080p, whose 1,350 blocks at
 * three rows leave the 2,112 places of the device's first wave part
 * empty, took 0.0064 to 0.0066 ms with two rows against 0.0067 to 0.0069
 * with three; 4K took 0.0133 to 0.0134 with two against 0.0128 with
 * three: launch_gray_tile() picks by the count of blocks.
 *
 * Blocks that loop over tiles, loading the next one's words while they
 * sum the last, took 0.0194 to 0.0288 at 4K (10, 12 and 16 blocks a
 * multiprocessor): a wave of blocks that each load once keeps the device
 * busier.
 *
 * The finish (H200, 2026-11-29, three runs each): the reference's five
 * steps a result cost as much as half the taps of a 3x3 sum. Whole sums
 * rounded by one product and fractional taps by one conversion took 1080p
 * 3x3 from 0.0071 to 0.0066 to 0.0068 ms and 4K 3x3 with fractional taps
 * from 0.0146 to 0.0131; rows' pointers stepped and whole words stored
 * without a test a row (32 registers instead of 40) then 4K to 0.0128 to
 * 0.0129 and 4K 5x5 from 0.0200 to 0.0193. Tried with them: four rows a
 * thread for 3x3 (48 registers; 1080p 0.0076, 4K fractional 0.0137), 16
 * blocks a multiprocessor forced on the earlier 40 (12 bytes spilled;
 * 0.0068 to 0.0074, 0.0135), and edge tiles reading whole words where a
 * group's lie inside its row (1080p 0.0071 to 0.0073, 4K 0.0133).
 */
#include "convolve-device.cuh"
#include "launch.cuh"

namespace cv_convolve {

namespace {

constexpr int kThreadsX = 32, kThreadsY = 4;
constexpr int kQuad = 4; /* adjacent outputs a thread sums */
constexpr int kTileW = kThreadsX * kQuad;
/* tile columns: the outputs' and up to four more, in whole 16-byte groups */
constexpr int kStride = kTileW + 4;
constexpr int kGroups = kStride / 4;

template <int K, int ROWS>
struct GrayTile
{
  static constexpr int kOutRows = kThreadsY * ROWS;
  static constexpr int kRows = kOutRows + K - 1;
};

/* Four samples from byte @shift / 8 of @left on, as floats at @p. */
__device__ __forceinline__ void
store_group (float *p, unsigned left, unsigned right, int shift)
{
  const unsigned bits = __funnelshift_r (left, right, shift);

  *reinterpret_cast<float4 *> (p) =
      make_float4 (byte_to_float (bits, 0), byte_to_float (bits, 1),
          byte_to_float (bits, 2), byte_to_float (bits, 3));
}

/* Tile column c, row t holds sample (@x0 + c, @y0 + t). Inside the frame,
 * with aligned rows: whole words, cut to the tile's alignment, a warp a row
 * (its lanes the first 32 groups, the last group of the warp's rows after),
 * every load of a thread issued before it converts any. */
template <int ROWS_IN>
__device__ __forceinline__ void
fill_inside (const Geometry &g, int x0, int y0, float (*tile)[kStride])
{
  constexpr int kPerWarp = (ROWS_IN + kThreadsY - 1) / kThreadsY;
  static_assert (kGroups == kThreadsX + 1 && kPerWarp <= kThreadsX,
      "a warp's lanes and one more group make a row");
  const int shift = 8 * (x0 & 3);
  const size_t step = (size_t) kThreadsY * g.src_pitch;
  const unsigned char *row = g.src + (size_t) (y0 + threadIdx.y) * g.src_pitch
      + (x0 & ~3) + 4 * threadIdx.x;
  unsigned left[kPerWarp + 1], right[kPerWarp + 1];

#pragma unroll
  for (int k = 0; k < kPerWarp; k++, row += step) {
    if (threadIdx.y + k * kThreadsY < ROWS_IN) {
      const unsigned *w = reinterpret_cast<const unsigned *> (row);

      left[k] = __ldg (w);
      right[k] = __ldg (w + 1);
    }
  }
  /* lane k: the last group of the warp's row k */
  const int last_row = threadIdx.y + threadIdx.x * kThreadsY;
  const bool last = threadIdx.x < kPerWarp && last_row < ROWS_IN;

  if (last) {
    const unsigned *w = reinterpret_cast<const unsigned *> (g.src
        + (size_t) (y0 + last_row) * g.src_pitch + (x0 & ~3) + 4 * kThreadsX);

    left[kPerWarp] = __ldg (w);
    right[kPerWarp] = __ldg (w + 1);
  }
#pragma unroll
  for (int k = 0; k < kPerWarp; k++)
    if (threadIdx.y + k * kThreadsY < ROWS_IN)
      store_group (&tile[threadIdx.y + k * kThreadsY][4 * threadIdx.x], left[k],
          right[k], shift);
  if (last)
    store_group (&tile[last_row][4 * kThreadsX], left[kPerWarp],
        right[kPerWarp], shift);
}

/* Four samples from (@x, @y) on, with the border rules, as floats at @p:
 * straight from the row where all four lie inside the frame. */
__device__ __forceinline__ void
store_edge_group (const Geometry &g, int x, int y, float *p)
{
  const int by = cv_border_index (y, g.height, g.border);
  const bool inside = x >= 0 && x + 4 <= g.width;
  float v[4];

#pragma unroll
  for (int k = 0; k < 4; k++)
    load_resolved<unsigned char, 1> (g,
        inside ? x + k : cv_border_index (x + k, g.width, g.border), by, &v[k]);
  *reinterpret_cast<float4 *> (p) = make_float4 (v[0], v[1], v[2], v[3]);
}

/* The same as fill_inside() where the tile meets the frame's edges, with
 * the border rules. */
template <int ROWS_IN>
__device__ __forceinline__ void
fill_edge (const Geometry &g, int x0, int y0, float (*tile)[kStride])
{
  constexpr int kPerWarp = (ROWS_IN + kThreadsY - 1) / kThreadsY;
  const int last_row = threadIdx.y + threadIdx.x * kThreadsY;

#pragma unroll
  for (int k = 0; k < kPerWarp; k++) {
    const int t = threadIdx.y + k * kThreadsY;

    if (t < ROWS_IN)
      store_edge_group (g, x0 + 4 * threadIdx.x, y0 + t,
          &tile[t][4 * threadIdx.x]);
  }
  if (threadIdx.x < kPerWarp && last_row < ROWS_IN)
    store_edge_group (g, x0 + 4 * kThreadsX, y0 + last_row,
        &tile[last_row][4 * kThreadsX]);
}

/* How the tile's sums become bytes, the cheapest way that keeps the
 * reference's results (gray_finish()). */
enum GrayFinish
{
  /* cv_finish_float()'s steps */
  kGrayFinishReference,
  /* Whole sums (packed_suits()) that start at cv_int_finish's a: floor
   * ((acc + a) / D), the reference's result, as floor ((acc + a) r)
   * (cv_whole_quotient_factor()). */
  kGrayFinishWhole,
  /* Fractional taps, divided by D on the host, summed from bias + 1/2:
   * one conversion. Their float sums round in another order than the
   * reference's anyway, which allows results within a unit of it. */
  kGrayFinishScaled,
};

/* Where a thread's sums start, and kGrayFinishWhole's factor r. */
struct GrayRounding
{
  float start, scale;
};

template <int FINISH>
__device__ __forceinline__ unsigned
gray_finish_byte (const Geometry &g, const GrayRounding &rounding, float acc)
{
  if constexpr (FINISH == kGrayFinishWhole)
    return floor_to_byte (__fmul_rn (acc, rounding.scale));
  else if constexpr (FINISH == kGrayFinishScaled)
    return floor_to_byte (acc);
  else
    return floor_to_byte (cv_finish_float_unsaturated (acc, g.divisor,
        g.reciprocal, g.bias_half));
}

/* The bytes of four adjacent outputs, the first lowest, in a word. */
template <int FINISH>
__device__ __forceinline__ unsigned
four_bytes (const Geometry &g, const GrayRounding &rounding,
    const float acc[kQuad])
{
  unsigned bits[kQuad];

#pragma unroll
  for (int q = 0; q < kQuad; q++)
    bits[q] = gray_finish_byte<FINISH> (g, rounding, acc[q]);
  return __byte_perm (__byte_perm (bits[0], bits[1], 0x0040),
      __byte_perm (bits[2], bits[3], 0x0040), 0x5410);
}

template <int K, int ROWS, int FINISH>
__global__ void
__launch_bounds__ (kThreadsX *kThreadsY) gray_tile (Geometry g,
    Taps<K * K> taps, GrayRounding rounding, bool aligned)
{
  using Tile = GrayTile<K, ROWS>;
  __shared__ __align__ (16) float tile[Tile::kRows][kStride];
  /* the block's shape, which spares the rows' bounds tests their
   * branches where the block's rows always lie within the tile */
  __builtin_assume (threadIdx.x < kThreadsX && threadIdx.y < kThreadsY);
  const int x0 = blockIdx.x * kTileW - g.ax;
  const int y0 = blockIdx.y * Tile::kOutRows - g.ay;
  /* words read: from x0's down to the one after the last group's */
  const bool inside = aligned && x0 >= 0 && y0 >= 0
      && (x0 & ~3) + 4 * (kGroups + 1) <= g.width
      && y0 + Tile::kRows <= g.height;

  if (inside)
    fill_inside<Tile::kRows> (g, x0, y0, tile);
  else
    fill_edge<Tile::kRows> (g, x0, y0, tile);
  __syncthreads ();

  const int x = blockIdx.x * kTileW + kQuad * threadIdx.x;
  const int y = blockIdx.y * Tile::kOutRows + ROWS * threadIdx.y;
  float acc[ROWS][kQuad];

  if (x >= g.width || y >= g.height)
    return;
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
#pragma unroll
    for (int q = 0; q < kQuad; q++)
      acc[r][q] = rounding.start;
  }
  /* tile row t feeds output row r through tap row t - r */
#pragma unroll
  for (int t = 0; t < ROWS + K - 1; t++) {
    const float *row = &tile[ROWS * threadIdx.y + t][kQuad * threadIdx.x];
    const float4 a = *reinterpret_cast<const float4 *> (row);
    const float4 b = *reinterpret_cast<const float4 *> (row + 4);
    const float v[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };

#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const int j = t - r;

      if (j >= 0 && j < K) {
#pragma unroll
        for (int i = 0; i < K; i++)
#pragma unroll
          for (int q = 0; q < kQuad; q++)
            acc[r][q] += taps.w[j * K + i] * v[q + i];
      }
    }
  }
  unsigned char *out = g.dst + (size_t) y * g.dst_pitch + x;
  const bool whole = aligned && x + kQuad <= g.width && y + ROWS <= g.height;

#pragma unroll
  for (int r = 0; r < ROWS; r++, out += g.dst_pitch) {
    const unsigned word = four_bytes<FINISH> (g, rounding, acc[r]);

    if (whole)
      *reinterpret_cast<unsigned *> (out) = word;
    else if (y + r < g.height)
      for (int q = 0; q < kQuad && x + q < g.width; q++)
        out[q] = (unsigned char) (word >> 8 * q);
  }
}

/* The finish for @plan (GrayFinish), the taps it sums with in @taps and
 * its sums' start and factor in @rounding. */
template <int K>
GrayFinish
gray_finish (const cvcore_convolve_plan *plan, Taps<K * K> *taps,
    GrayRounding *rounding)
{
  cv_int_finish whole;

  *taps = make_taps<K * K> (plan->taps, K * K);
  *rounding = GrayRounding{ 0.0f, 1.0f };
  if (packed_suits (plan)
      && cv_int_finish_init (&whole, plan->divisor, plan->bias)) {
    rounding->start = (float) whole.add;
    rounding->scale = cv_whole_quotient_factor ((int) plan->divisor);
    return kGrayFinishWhole;
  }
  if (taps_are_whole (plan))
    return kGrayFinishReference;
  for (int i = 0; i < K * K; i++)
    taps->w[i] = plan->taps[i] / plan->divisor;
  rounding->start = plan->bias_half;
  return kGrayFinishScaled;
}

template <int K, int rows>
cvcore_status
launch_tile (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  const bool aligned =
      ((uintptr_t) g.src | (uintptr_t) g.dst | g.src_pitch | g.dst_pitch) % 4
      == 0;
  const dim3 grid ((g.width + kTileW - 1) / kTileW,
      (g.height + GrayTile<K, rows>::kOutRows - 1)
          / GrayTile<K, rows>::kOutRows);
  const dim3 block (kThreadsX, kThreadsY);
  Taps<K * K> taps;
  GrayRounding rounding;

  switch (gray_finish<K> (plan, &taps, &rounding)) {
    case kGrayFinishWhole:
      gray_tile<K, rows, kGrayFinishWhole>
          <<<grid, block, 0, stream>>> (g, taps, rounding, aligned);
      break;
    case kGrayFinishScaled:
      gray_tile<K, rows, kGrayFinishScaled>
          <<<grid, block, 0, stream>>> (g, taps, rounding, aligned);
      break;
    default:
      gray_tile<K, rows, kGrayFinishReference>
          <<<grid, block, 0, stream>>> (g, taps, rounding, aligned);
      break;
  }
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

} /* namespace */

bool
gray_tile_suits (const Geometry &g, const cvcore_convolve_plan *plan)
{
  return !plan->use_double && (g.mask & 1);
}

/* 3x3 sums three rows a thread where the blocks of that still fill every
 * multiprocessor once (16 blocks where it holds 2048 threads, as sm_80
 * and sm_90 do; sm_86 to sm_89 hold 12, and so keep two rows on frames
 * a little larger than they need); on fewer pixels two rows a thread make
 * half as many blocks again, of less work each. */
cvcore_status
launch_gray_tile (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  constexpr int kBlocksPerSm = 2048 / (kThreadsX * kThreadsY);
  const long three_row_blocks = (long) ((g.width + kTileW - 1) / kTileW)
      * ((g.height + GrayTile<3, 3>::kOutRows - 1) / GrayTile<3, 3>::kOutRows);

  if (plan->width == 5)
    return launch_tile<5, 2> (stream, g, plan);
  if (three_row_blocks >= (long) kBlocksPerSm * g.multiprocessors)
    return launch_tile<3, 3> (stream, g, plan);
  return launch_tile<3, 2> (stream, g, plan);
}

} /* namespace cv_convolve */
