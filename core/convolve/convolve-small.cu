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

/* Square kernels of 1, 3 or 5 taps a side, compiled with their size known.
 *
 * Each thread computes ROWS vertically adjacent outputs of one column
 * straight from global memory: every input row it reads (through the
 * read-only cache, where its neighbours' reads hit too) feeds up to ROWS
 * outputs per tap, and the column indices after the border rule are worked
 * out once per thread. Blocks whose reads all fall inside the frame skip
 * the border rules altogether.
 *
 * Such kernels are bound by instruction issue, not memory, so on 8-bit
 * frames of two or four channels with small integer taps (the usual
 * blurs, sharpening and edge kernels) the sums are kept as integers two
 * channels to a 32-bit word: one integer multiply-add then serves two
 * channels, with no conversion to float per sample. The packed 16-bit lanes
 * hold any partial sum when the taps' absolute values add up to at most 128
 * (128 * 255 < 2^15). Whole divisors and biases are rounded in integers
 * too (convolve-common.h), for sums that cannot be negative or saturate on
 * both lanes of a word at once.
 */
#include "convolve-device.cuh"
#include "launch.cuh"

namespace cv_convolve {

static_assert (kPackedMaxAbsSum * 255 <= CV_INT_FINISH_MAX_SUM,
    "packed sums outside the integer rounding's range");

bool
taps_are_whole (const cvcore_convolve_plan *plan)
{
  for (int i = 0; i < plan->width * plan->height; i++)
    if (plan->taps[i] != truncf (plan->taps[i]))
      return false;
  return true;
}

bool
packed_suits (const cvcore_convolve_plan *plan)
{
  float abs_sum = 0.0f;

  if (plan->use_double || !taps_are_whole (plan)
      || (plan->border == CVCORE_BORDER_CONSTANT
          && plan->border_value != truncf (plan->border_value)))
    return false;
  for (int i = 0; i < plan->width * plan->height; i++)
    abs_sum += fabsf (plan->taps[i]);
  return abs_sum <= kPackedMaxAbsSum;
}

namespace {

constexpr int kBlockW = 32;
constexpr int kBlockH = 8;
constexpr int kRows = 8;

template <int N>
struct IntTaps
{
  int w[N];
};

/* Samples as floats, one value per channel. */
template <typename T, int C>
struct FloatPixels
{
  using Value = float;
  using Raw = RawPixel<T, C>;
  static constexpr int kValues = C;
  static constexpr int kBytes = sizeof (T) * C;

  static __device__ __forceinline__ Raw
  load (const unsigned char *p)
  {
    return load_raw<T, C> (reinterpret_cast<const T *> (p));
  }

  static __device__ __forceinline__ void
  unpack (Raw bits, float v[C])
  {
    cv_convolve::unpack<T, C> (bits, v);
  }
};

/* 8-bit samples, two channels to an int: channels 0 and 2 (or 0 and 1 for
 * two-channel pixels) in the first, 1 and 3 in the second, each in 16 bits.
 * The permutations take zero bytes from the second operand (bytes 4-7). */
template <int C>
struct PackedPixels
{
  using Value = int;
  using Raw = RawPixel<unsigned char, C>;
  static constexpr int kValues = C / 2;
  static constexpr int kBytes = C;

  static __device__ __forceinline__ Raw
  load (const unsigned char *p)
  {
    return load_raw<unsigned char, C> (p);
  }

  static __device__ __forceinline__ void
  unpack (Raw bits, int v[C / 2])
  {
    if constexpr (C == 4) {
      v[0] = __byte_perm (bits, 0, 0x4240);
      v[1] = __byte_perm (bits, 0, 0x4341);
    } else {
      v[0] = __byte_perm (bits, 0, 0x4140);
    }
  }
};

/* Accumulates ROWS outputs of column @x from row @y0 on. EDGE: some of the
 * samples read lie outside the frame, so the border rules apply (with
 * @border standing for a constant-border sample); otherwise the reads go
 * straight to the frame. */
template <typename Pixels, typename Acc, int KW, int KH, int ROWS, bool EDGE,
    typename TapArray>
__device__ __forceinline__ void
accumulate (const Geometry &g, const TapArray &taps,
    typename Pixels::Value border, int x, int y0,
    Acc acc[ROWS][Pixels::kValues])
{
  constexpr int n = Pixels::kValues;
  int columns[KW];
  unsigned outside = 0; /* bit i: column i is constant border */

  /* Loads always go to a valid address, so that they can all be in flight
   * at once; constant-border samples are swapped in after. */
#pragma unroll
  for (int i = 0; EDGE && i < KW; i++) {
    const int bx = cv_border_index (x - g.ax + i, g.width, g.border);

    outside |= (bx < 0) << i;
    columns[i] = max (bx, 0) * Pixels::kBytes;
  }
  /* All loads first, so that they are in flight together; a thread has no
   * other way to hide their latency. */
  typename Pixels::Raw raw[KH + ROWS - 1][KW];
  unsigned outside_rows = 0; /* bit t: row t is constant border */

  if constexpr (EDGE) {
#pragma unroll
    for (int t = 0; t < KH + ROWS - 1; t++) {
      const int by = cv_border_index (y0 - g.ay + t, g.height, g.border);
      const unsigned char *row = g.src + max (by, 0) * g.src_pitch;

      outside_rows |= (by < 0) << t;
#pragma unroll
      for (int i = 0; i < KW; i++)
        raw[t][i] = Pixels::load (row + columns[i]);
    }
  } else {
    /* One pointer stepped by rows, the columns as constant offsets. */
    const unsigned char *row = g.src + (size_t) (y0 - g.ay) * g.src_pitch
        + (x - g.ax) * Pixels::kBytes;

#pragma unroll
    for (int t = 0; t < KH + ROWS - 1; t++, row += g.src_pitch) {
#pragma unroll
      for (int i = 0; i < KW; i++)
        raw[t][i] = Pixels::load (row + i * Pixels::kBytes);
    }
  }
  /* Input row t feeds output row r through tap row t - r. */
#pragma unroll
  for (int t = 0; t < KH + ROWS - 1; t++) {
#pragma unroll
    for (int i = 0; i < KW; i++) {
      typename Pixels::Value v[n];

      Pixels::unpack (raw[t][i], v);
      if (EDGE && ((outside_rows >> t & 1) || (outside >> i & 1))) {
#pragma unroll
        for (int c = 0; c < n; c++)
          v[c] = border;
      }
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const int j = t - r;

        if (j >= 0 && j < KH) {
          const Acc w = taps.w[j * KW + i];
#pragma unroll
          for (int c = 0; c < n; c++)
            acc[r][c] += w * (Acc) v[c];
        }
      }
    }
  }
}

/* Whether the reads of this block stay inside the frame (the same answer
 * for all its threads, so branching on it does not diverge). */
template <int KW, int KH>
__device__ __forceinline__ bool
block_inside (const Geometry &g)
{
  const int x0 = blockIdx.x * kBlockW - g.ax;
  const int y0 = blockIdx.y * kBlockH * kRows - g.ay;

  return x0 >= 0 && y0 >= 0 && x0 + kBlockW + KW - 1 <= g.width
      && y0 + kBlockH * kRows + KH - 1 <= g.height;
}

template <typename T, int C, typename Acc, int K>
__global__ void
__launch_bounds__ (kBlockW *kBlockH) dense_small (Geometry g, Taps<K * K> taps)
{
  using Pixels = FloatPixels<T, C>;
  const int x = blockIdx.x * kBlockW + threadIdx.x;
  const int y0 = (blockIdx.y * kBlockH + threadIdx.y) * kRows;
  Acc acc[kRows][C] = {};

  if (x >= g.width || y0 >= g.height)
    return;
  if (block_inside<K, K> (g))
    accumulate<Pixels, Acc, K, K, kRows, false> (g, taps, g.border_value, x, y0,
        acc);
  else
    accumulate<Pixels, Acc, K, K, kRows, true> (g, taps, g.border_value, x, y0,
        acc);
#pragma unroll
  for (int r = 0; r < kRows; r++)
    if (y0 + r < g.height)
      store_pixel<T, C, Acc> (g, x, y0 + r, acc[r]);
}

/* A sum of at most 22 bits as a float, without the conversion unit: in the
 * mantissa of 1.5 * 2^23 it is exact. */
__device__ __forceinline__ float
int_to_float (int v)
{
  return __int_as_float (0x4B400000 + v) - 12582912.0f;
}

/* How the packed kernel turns its integer sums into samples. */
enum PackedFinish
{
  kFinishFloat, /* cv_finish_float(), any divisor and bias */
  kFinishInt, /* cv_finish_int() on each lane */
  /* Sums >= 0 that cannot saturate: a is added to both lanes at once, then
   * each lane is divided by D (not a power of two) ... */
  kFinishDivide,
  /* ... or, for D = 2^k <= 256, both lanes are shifted at once and the two
   * results are the word's bytes 0 and 2. */
  kFinishShift,
  /* kFinishDivide's sums, one to a word (the gray quads): the low word of
   * n m holds n / D in its top byte (top_byte_divider()). */
  kFinishDivideTop,
};

/* The result of one whole sum @sum by a finish that clamps (kFinishInt,
 * kFinishFloat). */
template <int FINISH>
__device__ __forceinline__ int
clamped_finish (int sum, const Geometry &g, const cv_int_finish &rounding)
{
  return FINISH == kFinishInt ? cv_finish_int (sum, &rounding, 255)
                              : finish (int_to_float (sum), g, 255);
}

/* The C results of one output pixel's packed sums @acc, as bytes 0 to C - 1
 * of a word. */
template <int C, int FINISH>
__device__ __forceinline__ unsigned
packed_word (const int acc[C / 2], const Geometry &g,
    const cv_int_finish &rounding)
{
  constexpr int n = C / 2;

  if constexpr (FINISH >= kFinishDivide) {
    const unsigned add = (unsigned) rounding.add * 0x10001u;
    unsigned bytes[n]; /* results in bytes 0 and 2 */

#pragma unroll
    for (int p = 0; p < n; p++) {
      const unsigned w = (unsigned) acc[p] + add;

      if constexpr (FINISH == kFinishShift)
        bytes[p] = (w >> rounding.shift) & 0x00ff00ffu;
      else
        bytes[p] = cv_mulhi (w & 0xffffu, rounding.magic)
            | cv_mulhi (w >> 16, rounding.magic) << 16;
    }
    if constexpr (C == 4)
      return bytes[0] | bytes[1] << 8;
    else
      return __byte_perm (bytes[0], 0, 0x0020) & 0xffffu;
  } else {
    int lanes[C];
    unsigned word = 0;

    /* Each word is low + high * 2^16 with both lanes signed 16-bit. */
#pragma unroll
    for (int p = 0; p < n; p++) {
      lanes[p] = (short) acc[p];
      lanes[p + n] = (acc[p] - lanes[p]) >> 16;
    }
#pragma unroll
    for (int c = 0; c < C; c++) {
      const int v = clamped_finish<FINISH> (lanes[c], g, rounding);

      word |= (unsigned) v << 8 * c;
    }
    return word;
  }
}

template <int C, int K, int FINISH>
__global__ void
__launch_bounds__ (kBlockW *kBlockH) dense_small_packed (Geometry g,
    IntTaps<K * K> taps, int border_pair, cv_int_finish rounding)
{
  using Pixels = PackedPixels<C>;
  constexpr int n = Pixels::kValues;
  const int x = blockIdx.x * kBlockW + threadIdx.x;
  const int y0 = (blockIdx.y * kBlockH + threadIdx.y) * kRows;
  int acc[kRows][n] = {};

  if (x >= g.width || y0 >= g.height)
    return;
  if (block_inside<K, K> (g))
    accumulate<Pixels, int, K, K, kRows, false> (g, taps, border_pair, x, y0,
        acc);
  else
    accumulate<Pixels, int, K, K, kRows, true> (g, taps, border_pair, x, y0,
        acc);

  const unsigned char *in = g.src + (size_t) y0 * g.src_pitch + x * C;
  unsigned char *out_row = g.dst + (size_t) y0 * g.dst_pitch + x * C;
  constexpr unsigned all = (1u << C) - 1;
  const bool whole_pixels = (g.mask & all) == all;

#pragma unroll
  for (int r = 0; r < kRows; r++, in += g.src_pitch, out_row += g.dst_pitch) {
    unsigned char out[C];

    if (y0 + r >= g.height)
      break;
    const unsigned word = packed_word<C, FINISH> (acc[r], g, rounding);

    if (whole_pixels) {
      if constexpr (C == 4)
        *reinterpret_cast<unsigned *> (out_row) = word;
      else
        *reinterpret_cast<unsigned short *> (out_row) = (unsigned short) word;
      continue;
    }
#pragma unroll
    for (int c = 0; c < C; c++)
      out[c] = (unsigned char) (word >> 8 * c);
    store_samples_at<unsigned char, C> (g, in, out_row, out);
  }
}

/* --- 8-bit gray frames, four pixels to a thread ----------------------- *
 *
 * A thread sums four adjacent pixels of ROWS rows. It reads each input
 * row as the aligned words left of, at and right of its own (three 32-bit
 * loads a row instead of one byte load a tap), cuts each output's window
 * of K samples from them with funnel shifts, and sums a tap row in one
 * four-byte dot product (dp4a): the taps travel as signed bytes, so this
 * takes integer kernels whose taps fit one. The sums finish as the packed
 * path's do, but per output, with a (the rounding's offset) added by the
 * first dot product where no clamp follows.
 *
 * H100, 4K (NPP 0.0143 ms): 3x3 integer kernels take 0.0118 ms with
 * divisor 64 and 0.0122 with divisor 36 by the multiply's high word
 * (0.0118 by its low word, kFinishDivideTop), where summing two pixels to
 * a word by integer multiply-adds took 0.0138 and 0.0150. At 1080p this
 * kernel took 0.0075 to 0.0083 against the float tile's 0.0069 to 0.0073
 * (one and two rows a thread there: 0.0077 to 0.0079 and 0.0075 to 0.0076,
 * the float tile 0.0072 to 0.0073 in the same run),
 * so only 3x3 kernels on frames of kQuadMinPixels or more go this way;
 * other gray 3x3 and 5x5 kernels take the float tile of convolve-gray.cu.
 * Two rows a thread instead of four: 0.0129 at 4K; eight pixels a thread
 * instead of four (80 registers): 0.0139 and 0.0134, with two rows 0.0130
 * and 0.0135. */
constexpr int kQuadRows = 4;
constexpr long kQuadMinPixels = 3840L * 2160;

/* One input row as a quad sees it: the aligned words before, at and after
 * its own. */
struct QuadRow
{
  unsigned left, mid, right;
};

/* The windows of the quad's four outputs: window q holds the four samples
 * from byte q - @ax (@ax 0 to 4) of the quad on. */
__device__ __forceinline__ void
quad_windows (const QuadRow &row, int ax, unsigned windows[4])
{
  /* a funnel shift by 32 or more gives its high word */
  const unsigned low = __funnelshift_rc (row.left, row.mid, 32 - 8 * ax);
  const unsigned high = __funnelshift_rc (row.mid, row.right, 32 - 8 * ax);

  windows[0] = low;
#pragma unroll
  for (int q = 1; q < 4; q++)
    windows[q] = __funnelshift_r (low, high, 8 * q);
}

/* Whether every word the quad at word @xq loads for its rows from @y0 on
 * lies inside the frame. */
template <int K, int ROWS>
__device__ __forceinline__ bool
quad_inside (const Geometry &g, int xq, int y0)
{
  const int top = y0 - g.ay;

  return xq > 0 && xq * 4 + 8 <= g.width && top >= 0
      && top + K + ROWS - 1 <= g.height;
}

/* The input rows the quad at word @xq reads for ROWS outputs from row @y0
 * on. EDGE: some samples lie outside the frame, so the border rules apply,
 * @border_byte standing for a constant-border sample. */
template <int K, int ROWS, bool EDGE>
__device__ __forceinline__ void
load_quad_rows (const Geometry &g, unsigned border_byte, int xq, int y0,
    QuadRow rows[K + ROWS - 1])
{
  if constexpr (EDGE) {
    /* each column's index worked out once; -1 stands for the constant
     * border */
    int columns[12];

#pragma unroll
    for (int k = 0; k < 12; k++)
      columns[k] = cv_border_index (xq * 4 - 4 + k, g.width, g.border);
#pragma unroll
    for (int t = 0; t < K + ROWS - 1; t++) {
      const int by = cv_border_index (y0 - g.ay + t, g.height, g.border);
      const unsigned char *row = g.src + (size_t) max (by, 0) * g.src_pitch;
      unsigned words[3] = { 0, 0, 0 };

#pragma unroll
      for (int k = 0; k < 12; k++) {
        const unsigned v =
            by < 0 || columns[k] < 0 ? border_byte : row[columns[k]];

        words[k / 4] |= v << 8 * (k % 4);
      }
      rows[t] = QuadRow{ words[0], words[1], words[2] };
    }
  } else {
    const unsigned char *row = g.src + (size_t) (y0 - g.ay) * g.src_pitch;

#pragma unroll
    for (int t = 0; t < K + ROWS - 1; t++, row += g.src_pitch) {
      const unsigned *words = reinterpret_cast<const unsigned *> (row) + xq;

      rows[t] = QuadRow{ __ldg (words - 1), __ldg (words), __ldg (words + 1) };
    }
  }
}

/* @acc plus the dot product of four unsigned samples and four signed taps,
 * a byte each: one instruction. */
__device__ __forceinline__ int
dot_bytes (unsigned samples, unsigned taps, int acc)
{
  int sum;

  asm("dp4a.u32.s32 %0, %1, %2, %3;"
      : "=r"(sum)
      : "r"(samples), "r"(taps), "r"(acc));
  return sum;
}

/* Sums ROWS outputs of the quad at word @xq from row @y0 on into @sums,
 * which start at @start: output q of a row takes the window of its K
 * samples, a byte each, and one dot product per tap row (@taps: row j's
 * taps as signed bytes, the fourth byte zero). */
template <int K, int ROWS>
__device__ __forceinline__ void
sum_quads (const Geometry &g, const unsigned taps[K],
    const QuadRow rows[K + ROWS - 1], int start, int sums[ROWS][4])
{
  static_assert (K <= 4, "a tap row fits in one word");

#pragma unroll
  for (int r = 0; r < ROWS; r++)
#pragma unroll
    for (int q = 0; q < 4; q++)
      sums[r][q] = start;
#pragma unroll
  for (int t = 0; t < K + ROWS - 1; t++) {
    unsigned windows[4];

    quad_windows (rows[t], g.ax, windows);
#pragma unroll
    for (int q = 0; q < 4; q++) {
#pragma unroll
      for (int r = 0; r < ROWS; r++) {
        const int j = t - r;

        if (j >= 0 && j < K)
          sums[r][q] = dot_bytes (windows[q], taps[j], sums[r][q]);
      }
    }
  }
}

/* The results of one row's four sums as the bytes of a word. The finishes
 * that need no clamp (kFinishShift, kFinishDivide) take sums that started
 * at a (cv_int_finish.add), the others sums that started at 0. */
template <int FINISH>
__device__ __forceinline__ unsigned
quad_word (const int sums[4], const Geometry &g, const cv_int_finish &rounding)
{
  unsigned bytes[4];

#pragma unroll
  for (int q = 0; q < 4; q++) {
    if constexpr (FINISH == kFinishShift)
      bytes[q] = (unsigned) sums[q] >> rounding.shift;
    else if constexpr (FINISH == kFinishDivide)
      bytes[q] = cv_mulhi ((unsigned) sums[q], rounding.magic);
    else if constexpr (FINISH == kFinishDivideTop)
      bytes[q] = (unsigned) sums[q] * rounding.magic;
    else
      bytes[q] = clamped_finish<FINISH> (sums[q], g, rounding);
  }
  if constexpr (FINISH == kFinishDivideTop)
    return __byte_perm (__byte_perm (bytes[0], bytes[1], 0x0073),
        __byte_perm (bytes[2], bytes[3], 0x0073), 0x5410);
  return __byte_perm (__byte_perm (bytes[0], bytes[1], 0x0040),
      __byte_perm (bytes[2], bytes[3], 0x0040), 0x5410);
}

/* Writes the four results in @word to the quad at word @xq of row @y, those
 * that lie inside the frame. */
__device__ __forceinline__ void
store_quad (const Geometry &g, int xq, int y, unsigned word)
{
  unsigned char *p = g.dst + (size_t) y * g.dst_pitch + xq * 4;
  const int left = g.width - xq * 4;

  if (left >= 4) {
    *reinterpret_cast<unsigned *> (p) = word;
    return;
  }
  for (int k = 0; k < left; k++)
    p[k] = (unsigned char) (word >> 8 * k);
}

/* Tap rows of a K x K kernel as signed bytes, for sum_quads(). */
template <int K>
struct ByteTaps
{
  unsigned rows[K];
};

template <int K, int ROWS, int FINISH>
__global__ void
__launch_bounds__ (kBlockW *kBlockH) gray_quads (Geometry g, ByteTaps<K> taps,
    unsigned border_byte, cv_int_finish rounding)
{
  const int xq = blockIdx.x * kBlockW + threadIdx.x;
  const int y0 = (blockIdx.y * kBlockH + threadIdx.y) * ROWS;
  QuadRow rows[K + ROWS - 1];
  int sums[ROWS][4];

  if (xq * 4 >= g.width || y0 >= g.height)
    return;
  if (quad_inside<K, ROWS> (g, xq, y0))
    load_quad_rows<K, ROWS, false> (g, border_byte, xq, y0, rows);
  else
    load_quad_rows<K, ROWS, true> (g, border_byte, xq, y0, rows);
  sum_quads<K, ROWS> (g, taps.rows, rows,
      FINISH >= kFinishDivide ? rounding.add : 0, sums);
#pragma unroll
  for (int r = 0; r < ROWS && y0 + r < g.height; r++)
    store_quad (g, xq, y0 + r, quad_word<FINISH> (sums[r], g, rounding));
}

dim3
grid_for (const Geometry &g)
{
  return dim3 ((g.width + kBlockW - 1) / kBlockW,
      (g.height + kBlockH * kRows - 1) / (kBlockH * kRows));
}

/* The cheapest finish that gives cv_finish_float()'s results for @plan,
 * whose taps are whole numbers (packed_suits()). */
PackedFinish
packed_finish (const cvcore_convolve_plan *plan, cv_int_finish *rounding)
{
  int positive_sum = 0;
  bool negative = plan->bias < 0.0f
      || (plan->border == CVCORE_BORDER_CONSTANT && plan->border_value < 0.0f);

  if (!cv_int_finish_init (rounding, plan->divisor, plan->bias))
    return kFinishFloat;
  for (int i = 0; i < plan->width * plan->height; i++) {
    negative |= plan->taps[i] < 0.0f;
    positive_sum += plan->taps[i] > 0.0f ? (int) plan->taps[i] : 0;
  }
  /* The largest lane, before division: below 2^16 so that adding a to the
   * word leaves the high lane alone, and giving at most 255. */
  const int largest = 255 * positive_sum + rounding->add;
  if (negative || largest >= 65536 || largest >= 256 * (int) plan->divisor)
    return kFinishInt;
  if (!rounding->divisor_is_power)
    return kFinishDivide;
  /* a power of two: both lanes shifted at once while the results stay
   * clear of the other lane */
  return rounding->shift <= 8 ? kFinishShift : kFinishInt;
}

template <int K>
IntTaps<K * K>
int_taps (const cvcore_convolve_plan *plan)
{
  IntTaps<K * K> taps;

  for (int i = 0; i < K * K; i++)
    taps.w[i] = (int) plan->taps[i];
  return taps;
}

/* @launch (std::integral_constant<int, F> ()) for the finish F that suits
 * @plan, with @rounding filled for it. */
template <typename Launch>
void
with_packed_finish (const cvcore_convolve_plan *plan, cv_int_finish *rounding,
    Launch launch)
{
  switch (packed_finish (plan, rounding)) {
    case kFinishShift:
      launch (std::integral_constant<int, kFinishShift> ());
      break;
    case kFinishDivide:
      launch (std::integral_constant<int, kFinishDivide> ());
      break;
    case kFinishInt:
      launch (std::integral_constant<int, kFinishInt> ());
      break;
    default:
      launch (std::integral_constant<int, kFinishFloat> ());
      break;
  }
}

template <int C, int K>
cvcore_status
launch_packed (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  const IntTaps<K *K> taps = int_taps<K> (plan);
  const int border = (int) plan->border_value;
  const int border_pair = border | border << 16;
  const dim3 grid = grid_for (g), block (kBlockW, kBlockH);
  cv_int_finish rounding = {};

  with_packed_finish (plan, &rounding, [&] (auto finish) {
    dense_small_packed<C, K, decltype (finish)::value>
        <<<grid, block, 0, stream>>> (g, taps, border_pair, rounding);
  });
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

/* Whether an 8-bit gray frame goes four pixels to a thread (see above):
 * integer taps whose sums the packed path's finishes take (packed_suits()),
 * each a signed byte (of which packed_suits() leaves out only 128), whole
 * aligned words, every sample written, a constant border that is itself a
 * sample. */
bool
gray_quads_suit (const Geometry &g, const cvcore_convolve_plan *plan)
{
  const float b = plan->border_value;
  bool byte_taps = true;

  for (int i = 0; i < plan->width * plan->height; i++)
    byte_taps &= plan->taps[i] <= 127.0f;
  return (long) g.width * g.height >= kQuadMinPixels && packed_suits (plan)
      && byte_taps && (g.mask & 1)
      && ((uintptr_t) g.src | (uintptr_t) g.dst | g.src_pitch | g.dst_pitch) % 4
      == 0
      && (plan->border != CVCORE_BORDER_CONSTANT || (b >= 0.0f && b <= 255.0f));
}

/* For kFinishDivide's sums n (under 256 D and under 2^16, see
 * packed_finish()): whether the low word of n m, m = floor(2^24 / D) + 1,
 * holds floor(n / D) in its top byte for every such n, and if so m in
 * @rounding. With D m = 2^24 + e, n m / 2^24 exceeds n / D by n e / (D
 * 2^24), under 1 / D where n e < 2^24, which holds for every D up to 256
 * and some above. A multiply's low word costs less than its high word. */
static bool
top_byte_divider (const cvcore_convolve_plan *plan, cv_int_finish *rounding)
{
  const unsigned long long d = (unsigned long long) plan->divisor;
  const unsigned long long m = (1ull << 24) / d + 1;
  const unsigned long long most = (d * 256 < 65536 ? d * 256 : 65536) - 1;

  if (most * (d * m - (1ull << 24)) >= (1ull << 24))
    return false;
  rounding->magic = (unsigned) m;
  return true;
}

template <int K>
cvcore_status
launch_gray_quads (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  const dim3 grid ((g.width + 4 * kBlockW - 1) / (4 * kBlockW),
      (g.height + kBlockH * kQuadRows - 1) / (kBlockH * kQuadRows));
  const dim3 block (kBlockW, kBlockH);
  const unsigned border_byte = plan->border == CVCORE_BORDER_CONSTANT
      ? (unsigned) plan->border_value
      : 0;
  ByteTaps<K> taps = {};
  cv_int_finish rounding = {};

  for (int j = 0; j < K; j++)
    for (int i = 0; i < K; i++)
      taps.rows[j] |= ((unsigned) (int) plan->taps[j * K + i] & 0xffu) << 8 * i;
  with_packed_finish (plan, &rounding, [&] (auto finish) {
    if (decltype (finish)::value == kFinishDivide
        && top_byte_divider (plan, &rounding))
      gray_quads<K, kQuadRows, kFinishDivideTop>
          <<<grid, block, 0, stream>>> (g, taps, border_byte, rounding);
    else
      gray_quads<K, kQuadRows, decltype (finish)::value>
          <<<grid, block, 0, stream>>> (g, taps, border_byte, rounding);
  });
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

template <typename T, int C, typename Acc, int K>
cvcore_status
launch_float (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  dense_small<T, C, Acc, K>
      <<<grid_for (g), dim3 (kBlockW, kBlockH), 0, stream>>> (g,
          make_taps<K * K> (plan->taps, K * K));
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

template <typename T, int C, int K>
cvcore_status
launch_size (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  if constexpr (sizeof (T) == 1 && C >= 2) {
    if (packed_suits (plan))
      return launch_packed<C, K> (stream, g, plan);
  }
  if constexpr (sizeof (T) == 1 && C == 1 && K == 3) {
    if (gray_quads_suit (g, plan))
      return launch_gray_quads<K> (stream, g, plan);
  }
  if constexpr (sizeof (T) == 1 && C == 1 && K > 1) {
    if (gray_tile_suits (g, plan))
      return launch_gray_tile (stream, g, plan);
  }
  if (plan->use_double)
    return launch_float<T, C, double, K> (stream, g, plan);
  return launch_float<T, C, float, K> (stream, g, plan);
}

template <typename T, int C>
cvcore_status
launch_channels (cudaStream_t stream, const Geometry &g,
    const cvcore_convolve_plan *plan)
{
  switch (plan->width) {
    case 1:
      return launch_size<T, C, 1> (stream, g, plan);
    case 3:
      return launch_size<T, C, 3> (stream, g, plan);
    default:
      return launch_size<T, C, 5> (stream, g, plan);
  }
}

template <typename T>
cvcore_status
launch_sample (cudaStream_t stream, const Geometry &g, int channels,
    const cvcore_convolve_plan *plan)
{
  return with_channels (channels, [&] (auto c) {
    return launch_channels<T, decltype (c)::value> (stream, g, plan);
  });
}

} /* namespace */

cvcore_status
launch_small (cudaStream_t stream, const Geometry &g, int channels,
    bool wide_samples, const cvcore_convolve_plan *plan)
{
  if (wide_samples)
    return launch_sample<unsigned short> (stream, g, channels, plan);
  return launch_sample<unsigned char> (stream, g, channels, plan);
}

} /* namespace cv_convolve */
