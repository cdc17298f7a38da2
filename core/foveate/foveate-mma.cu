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

/* Block-wise foveation on the tensor cores, in 8-bit integers.
 *
 * A fragment's separable blur is two products with Toeplitz matrices of its
 * filter's taps. One block per fragment loads the padded tile of its
 * blurred channels into shared memory as 8-bit planes. Then, a channel at
 * a time:
 *  - rows: the transposed sums, rows[x][i] = sum over j of tap[j - x]
 *    tile[i][j], a product of the Toeplitz matrix (M: the fragment's
 *    columns) with the tile's rows (N), so that a warp takes 16 tile rows;
 *  - columns: out[y][x] = sum over i of tap[i - y] rows[x][i], a warp a
 *    16 x 8 block of outputs.
 * The products are m16n8k32 over unsigned bytes with exact integer sums.
 * Taps are quantised to 16 bits (the centre, a Gaussian's largest, to
 * 65535) and split into a high and a low byte; the tile's samples are
 * operands as they are. The rows' sums, normalised by the quantised taps'
 * sum, are kept with 8 fractional bits as a high and a low byte plane; the
 * columns' products of the parts but low times low are summed. A flat
 * tile stays exactly flat, and the result is within one unit of the CPU
 * reference (worst case some 0.02 units off the exact blur). Neither
 * Toeplitz matrix is stored: each thread forms its operands from tables of
 * tap quads. A kernel before the frame's makes them once per filter, in
 * the stream's scratch memory, where they stay for the frames after with
 * the same bank; each block copies its filter's in. On sm_90 the frame's
 * kernel may start while they are made (a programmatic dependent launch):
 * its blocks load their source pixels and look up their filters first.
 */
#include <climits>
#include <cstring>

#include "foveate-device.cuh"
#include "mma-device.cuh"
#include "launch.cuh"

namespace cv_foveate {

namespace {

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
/* blocks on an SM at once at the default plan's radii (shared memory) */
constexpr int kBlocksPerSm = 4;
/* Grids of fewer waves than this take their fragments far from the
 * fixation first: the fovea's copies, which take the least time, then
 * fill the last wave, where a grid of few waves leaves SMs idle. Over
 * more waves (4K) the natural order measured faster. */
constexpr int kFarFirstWaves = 8;
/* Tap 0's entry in the tables: a thread's operands start at most 38
 * entries below it and reach 19 past the last tap. */
constexpr int kTapOffset = 48;

__host__ __device__ constexpr size_t
round16 (size_t n)
{
  return (n + 15) & ~(size_t) 15;
}

/* The smallest odd multiple of 16 from @n: rows that far apart put a
 * warp's 4-byte loads from eight rows, four lanes a row, and its ldmatrix
 * rows in distinct banks. */
__host__ __device__ constexpr int
odd_sixteens (int n)
{
  return (n + 15) / 32 * 32 + 16;
}

/* Shared memory of a launch: for fragments of @fragment pixels, filters up
 * to @radius and @planes blurred channels, the Toeplitz operand tables,
 * the rows' sums of one channel (a high and a low byte plane), the padded
 * tile and the fragment's output (8-bit planes, one per blurred
 * channel). */
struct Layout
{
  int tile_pitch; /* bytes */
  int rows_pitch; /* bytes */
  int out_pitch; /* bytes */
  size_t rows_part, tile_plane; /* bytes */
  size_t rows_offset, tile_offset, out_offset, total;

  __host__ __device__
  Layout (int fragment, int radius, int planes)
  {
    const int span = fragment + 2 * radius;
    /* the tile starts up to 3 columns early, on a whole 4 pixels */
    const int columns = (span + 3 + 3) & ~3;
    const int bands = (span + 15) / 16;
    /* the columns' products read rows[x][16 mc .. 16 mc + 32 blocks) */
    const int reach =
        16 * ((fragment + 15) / 16 - 1) + 32 * column_blocks (radius);
    const size_t tables = 2 * (size_t) entries_for (radius) * sizeof (uint4);

    tile_pitch = odd_sixteens (columns);
    rows_pitch = odd_sixteens (max (16 * bands, reach));
    out_pitch = fragment + 4;
    rows_part = (size_t) fragment * rows_pitch;
    tile_plane = (size_t) span * tile_pitch;
    rows_offset = round16 (tables);
    tile_offset = rows_offset + 2 * rows_part;
    /* The rows' products read 16 bands of rows, each to the next multiple
     * of 32 bytes: past a row's end into the next row, past the last
     * plane into these spare bytes and the output's space. Any bytes do,
     * where the taps are zero. */
    out_offset = tile_offset
        + round16 (planes * tile_plane
            + (size_t) (16 * bands - span) * tile_pitch
            + (columns + 31) / 32 * 32);
    total = out_offset + (size_t) planes * fragment * out_pitch;
  }

  Layout () = default;

  /* entries of each operand table */
  __host__ __device__ static int
  entries_for (int radius)
  {
    return 2 * radius + 1 + 2 * kTapOffset;
  }
  /* bytes of each quantised-tap byte array, whole words past the last
   * entry */
  __host__ __device__ static size_t
  quad_bytes (int radius)
  {
    return round16 ((size_t) entries_for (radius) + 8);
  }
  /* 32-row blocks of the columns' products of 16 outputs */
  __host__ __device__ static int
  column_blocks (int radius)
  {
    return (2 * radius + 16 + 31) / 32;
  }
};

/* What a filter's quantised taps sum to, as the kernel scales by it. */
struct FilterScale
{
  unsigned to_fixed; /* 2^40 over the sum */
  int half_unit; /* the sum over 512 */
  float to_unit; /* one over 256 times the sum */
  int unused;
};

/* The operands of a plan's filters in device memory: filter f's scale at
 * scale[f], its high then its low operand table (Layout::entries_for its
 * radius each) from tables + f * stride. */
struct Operands
{
  FilterScale *scale;
  uint4 *tables;
  int stride;
};

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  bool vector; /* four pixels load as one */
  /* The launch's grid is (grid_h, grid_w): a column of fragments after
   * another, columns and rows by cv_foveate_far_first () from the fixation's
   * fragment (centre_x, centre_y). Otherwise (grid_w, grid_h) in order. */
  bool far_first;
  int centre_x, centre_y;
  Layout layout;
  Operands operands;
};

/* A pixel of @NC 8-bit channels, channel c in bits 8 c. */
template <int NC>
__device__ __forceinline__ unsigned
load_pixel (const unsigned char *p)
{
  if (NC == 4)
    return *reinterpret_cast<const unsigned *> (p);
  if (NC == 2)
    return *reinterpret_cast<const unsigned short *> (p);
  return *p;
}

template <int NC>
__device__ __forceinline__ void
store_pixel (unsigned char *p, unsigned v)
{
  if (NC == 4)
    *reinterpret_cast<unsigned *> (p) = v;
  else if (NC == 2)
    *reinterpret_cast<unsigned short *> (p) = (unsigned short) v;
  else
    *p = (unsigned char) v;
}

/* Four neighbouring pixels from column @x of @row, clamped to @width, as
 * they lie in memory: four words (4 channels), two (2) or one (1). One
 * load where all four are inside and aligned (@whole). */
template <int NC>
__device__ __forceinline__ uint4
load_quad (const unsigned char *row, int x, int width, bool whole)
{
  uint4 q = { 0, 0, 0, 0 };

  if (whole) {
    const unsigned char *p = row + (size_t) x * NC;

    if (NC == 4)
      return *reinterpret_cast<const uint4 *> (p);
    if (NC == 2) {
      const uint2 v = *reinterpret_cast<const uint2 *> (p);

      q.x = v.x;
      q.y = v.y;
      return q;
    }
    q.x = *reinterpret_cast<const unsigned *> (p);
    return q;
  }
  unsigned v[4];

#pragma unroll
  for (int i = 0; i < 4; i++)
    v[i] = load_pixel<NC> (row + (size_t) cv_clamp_index (x + i, width) * NC);
  if (NC == 4)
    return make_uint4 (v[0], v[1], v[2], v[3]);
  if (NC == 2) {
    q.x = v[0] | v[1] << 16;
    q.y = v[2] | v[3] << 16;
    return q;
  }
  q.x = v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24;
  return q;
}

/* The blurred channels of a quad's four pixels into @plane-spaced tile
 * planes from @at, a word of four samples each, the first in the lowest
 * byte. Four channels transpose as a 4 x 4 byte matrix: pairs of
 * channels of pixel pairs first, then the channels. */
template <int NC, unsigned MASK>
__device__ __forceinline__ void
store_channels (unsigned char *at, int plane, const uint4 &q)
{
  unsigned word[NC];

  if (NC == 4) {
    const unsigned front = __byte_perm (q.x, q.y, 0x5140);
    const unsigned front_next = __byte_perm (q.z, q.w, 0x5140);
    const unsigned back = __byte_perm (q.x, q.y, 0x7362);
    const unsigned back_next = __byte_perm (q.z, q.w, 0x7362);

    word[0] = __byte_perm (front, front_next, 0x5410);
    word[1 % NC] = __byte_perm (front, front_next, 0x7632);
    word[2 % NC] = __byte_perm (back, back_next, 0x5410);
    word[3 % NC] = __byte_perm (back, back_next, 0x7632);
  } else if (NC == 2) {
    word[0] = __byte_perm (q.x, q.y, 0x6420);
    word[1 % NC] = __byte_perm (q.x, q.y, 0x7531);
  } else {
    word[0] = q.x;
  }
#pragma unroll
  for (int c = 0; c < NC; c++)
    if (MASK >> c & 1) {
      *reinterpret_cast<unsigned *> (at) = word[c];
      at += plane;
    }
}

/* The padded tile of the fragment: rows from @top, columns from @left (a
 * multiple of 4), edges clamped, one 8-bit plane per blurred channel. A
 * warp takes a row at a time, a lane four neighbouring pixels. */
template <int NC, unsigned MASK>
__device__ void
load_tile (const Frame &frame, const cvcore_foveate_plan &plan,
    unsigned char *tile, int left, int top, int columns, int rows)
{
  const Layout &layout = frame.layout;
  const int warp = threadIdx.x >> 5;
  const int plane = (int) layout.tile_plane;

  /* rows of loads a warp has in flight: eight take a 32-pixel fragment's
   * tile at the default radii in two rounds */
  constexpr int kInFlight = 8;

  for (int tx = 4 * (threadIdx.x & 31); tx < columns; tx += 128) {
    const int x = left + tx;
    const bool whole = frame.vector && x >= 0 && x + 3 < plan.width;

    for (int first = warp; first < rows; first += kInFlight * kWarps) {
      uint4 quad[kInFlight];

      /* all the rows' loads first: the compiler cannot tell the shared
       * stores from the frame */
#pragma unroll
      for (int u = 0; u < kInFlight; u++)
        if (first + u * kWarps < rows)
          quad[u] = load_quad<NC> (frame.src
                  + cv_clamp_index (top + first + u * kWarps, plan.height)
                      * (int) frame.src_pitch,
              x, plan.width, whole);
#pragma unroll
      for (int u = 0; u < kInFlight; u++) {
        if (first + u * kWarps >= rows)
          break;
        store_channels<NC, MASK> (tile
                + (first + u * kWarps) * layout.tile_pitch + tx,
            plane, quad[u]);
      }
    }
  }
}

/* The sum of @v over the warp, in one instruction; the kernel runs on
 * sm_80 and later only, older targets just compile it. */
__device__ __forceinline__ unsigned
lanes_sum (unsigned v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync (0xffffffffu, v);
#else
  __trap ();
  return v;
#endif
}

/* Lets the frame's kernel launch before this one is done (it waits for
 * the operands before reading them). */
__device__ __forceinline__ void
allow_dependent_launch ()
{
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Waits until the kernel before (the operands') is done and its writes are
 * seen; at once where it is. */
__device__ __forceinline__ void
wait_for_prior_kernel ()
{
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Starts copying @count 16-byte words from @from to shared @to, a word a
 * thread at a time; wait_copies () waits for them. */
__device__ __forceinline__ void
copy_async (uint4 *to, const uint4 *from, int count)
{
#if __CUDA_ARCH__ >= 800
  for (int i = threadIdx.x; i < count; i += kThreads)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                     (unsigned) __cvta_generic_to_shared (to + i)),
                 "l"(from + i)
                 : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
#else
  __trap ();
#endif
}

__device__ __forceinline__ void
wait_copies ()
{
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/* The Toeplitz operand tables and the scale of filter blockIdx.x + 1 of
 * the plan (its centre tap the largest), into @operands. A Toeplitz
 * operand A[m][k] = tap[k - m + a] of m16n8k32 needs four registers per
 * thread, the tap quads from entries e, e - 8, e + 16 and e + 8 of the
 * taps (rows 8 apart are 8 taps apart), with e = kTapOffset + a +
 * 4 (lane % 4) - lane / 4. Entry e of the operand tables holds them in
 * register order, of the high and of the low bytes of the quantised taps;
 * entries no thread reads are zero. Dynamic shared memory: two
 * Layout::quad_bytes (the plan's largest radius). */
__global__ void
__launch_bounds__ (kThreads)
    make_operands (const __grid_constant__ ParamPlan param, Operands operands)
{
  extern __shared__ uint4 shared[];
  __shared__ unsigned sum;
  const cvcore_foveate_plan &plan = param.plan ();
  const int f = blockIdx.x + 1;
  const int taps = 2 * plan.radius[f] + 1;
  const int entries = Layout::entries_for (plan.radius[f]);
  const float *tap = plan.taps + plan.offset[f];
  const float to_16_bits = 65535.0f / tap[taps / 2];
  unsigned char *high_bytes = reinterpret_cast<unsigned char *> (shared);
  unsigned char *low_bytes = high_bytes + Layout::quad_bytes (plan.max_radius);
  uint4 *high = operands.tables + (size_t) f * operands.stride;
  uint4 *low = high + entries;

  allow_dependent_launch ();
  if (threadIdx.x == 0)
    sum = 0;
  __syncthreads ();
  for (int first = 0; first < entries; first += kThreads) {
    const int e = first + threadIdx.x, k = e - kTapOffset;
    const unsigned q = k >= 0 && k < taps
        ? min (__float2uint_rn (tap[k] * to_16_bits), 65535u)
        : 0u;
    const unsigned warp_sum = lanes_sum (q);

    if (e < entries) {
      high_bytes[e] = (unsigned char) (q >> 8);
      low_bytes[e] = (unsigned char) q;
    }
    if ((threadIdx.x & 31) == 0 && warp_sum)
      atomicAdd (&sum, warp_sum);
  }
  __syncthreads ();
  /* the quad of taps i .. i + 3 */
  auto quad = [] (const unsigned char *bytes, int i) {
    const unsigned *word = reinterpret_cast<const unsigned *> (bytes);

    return __byte_perm (word[i >> 2], word[(i >> 2) + 1],
        0x3210 + 0x1111 * (i & 3));
  };
  for (int e = threadIdx.x; e < entries; e += kThreads) {
    const bool read = e >= 8 && e < entries - 19;

    high[e] = read ? make_uint4 (quad (high_bytes, e), quad (high_bytes, e - 8),
                  quad (high_bytes, e + 16), quad (high_bytes, e + 8))
                   : make_uint4 (0, 0, 0, 0);
    low[e] = read ? make_uint4 (quad (low_bytes, e), quad (low_bytes, e - 8),
                 quad (low_bytes, e + 16), quad (low_bytes, e + 8))
                  : make_uint4 (0, 0, 0, 0);
  }
  if (threadIdx.x == 0) {
    FilterScale scale;

    scale.to_fixed = (unsigned) rint (1099511627776.0 / (double) sum);
    scale.half_unit = (int) (sum / 512);
    scale.to_unit = 1.0f / (256.0f * (float) sum);
    scale.unused = 0;
    operands.scale[f] = scale;
  }
}

__device__ __forceinline__ void
load_operand (const uint4 *table, int e, unsigned a[4])
{
  const uint4 v = table[e];

  a[0] = v.x;
  a[1] = v.y;
  a[2] = v.z;
  a[3] = v.w;
}

/* Rows 16 @band.. of a tile plane, columns 16 @mt.. of the fragment: for
 * every column x and row i, the sum of tap[j - x - @shift] plane[i][j]
 * over j (@k_blocks blocks of 32 columns), plus @half_unit, times
 * @to_fixed / 2^32 (@to_fixed is 2^40 over the quantised taps' sum,
 * @half_unit that sum over 512: the sum rounded to 8 fractional bits of
 * the normalised one), into rows[x][i] of the @high and @low byte
 * planes. */
template <int F>
__device__ __forceinline__ void
rows_band (const Layout &layout, const unsigned char *plane, int band, int mt,
    int k_blocks, int shift, int taps, const uint4 *op_high,
    const uint4 *op_low, unsigned to_fixed, int half_unit, unsigned char *high,
    unsigned char *low)
{
  const int lane = threadIdx.x & 31;
  const int group = lane >> 2, quad = 4 * (lane & 3);
  /* The block of A at column k holds taps k - lead - 15 .. k - lead + 31:
   * the blocks from k_first to k_end meet the filter. */
  const int lead = 16 * mt + shift;
  const int k_first = lead / 32 * 32;
  const int k_end = min (32 * k_blocks, taps + 15 + lead);
  /* B[k][n] = plane[16 band + n][k]: two n8 blocks, 8 rows apart */
  const unsigned char *b0 =
      plane + (16 * band + group) * layout.tile_pitch + quad + k_first;
  const unsigned char *b1 = b0 + 8 * layout.tile_pitch;
  const int entry = kTapOffset + k_first - lead + quad - group;
  const uint4 *a_high = op_high + entry, *a_low = op_low + entry;

  /* [n block][high, low taps] */
  int acc[2][2][4] = { { { 0, 0, 0, 0 },
                           { half_unit, half_unit, half_unit, half_unit } },
    { { 0, 0, 0, 0 }, { half_unit, half_unit, half_unit, half_unit } } };

#pragma unroll 1
  for (int k = k_first; k < k_end; k += 32) {
    const unsigned b[2][2] = { { *reinterpret_cast<const unsigned *> (b0),
                                   *reinterpret_cast<const unsigned *> (
                                       b0 + 16) },
      { *reinterpret_cast<const unsigned *> (b1),
          *reinterpret_cast<const unsigned *> (b1 + 16) } };
    unsigned ah[4], al[4];

    load_operand (a_high, 0, ah);
    load_operand (a_low, 0, al);
#pragma unroll
    for (int nt = 0; nt < 2; nt++) {
      cv_mma::mma_u8 (acc[nt][0], ah, b[nt][0], b[nt][1]);
      cv_mma::mma_u8 (acc[nt][1], al, b[nt][0], b[nt][1]);
    }
    b0 += 32;
    b1 += 32;
    a_high += 32;
    a_low += 32;
  }
#pragma unroll
  for (int nt = 0; nt < 2; nt++)
#pragma unroll
    for (int half = 0; half < 2; half++) {
      const int x = 16 * mt + group + 8 * half;
      const int at = x * layout.rows_pitch + 16 * band + 8 * nt + quad / 2;
      unsigned v[2];

      /* at most 255 * 256, a full-scale sample's */
#pragma unroll
      for (int q = 0; q < 2; q++)
        v[q] = __umulhi ((unsigned) acc[nt][0][2 * half + q] * 256u
                + (unsigned) acc[nt][1][2 * half + q],
            to_fixed);
      if (x < F) {
        *reinterpret_cast<unsigned short *> (high + at) =
            (unsigned short) __byte_perm (v[0], v[1], 0x0051);
        *reinterpret_cast<unsigned short *> (low + at) =
            (unsigned short) __byte_perm (v[0], v[1], 0x0040);
      }
    }
}

/* Outputs of rows 16 @mc.., columns 8 @nt.. of the fragment: sums of
 * tap[i - y] rows[x][i] over i (@blocks blocks of 32), times @to_unit (one
 * over 256 times the quantised taps' sum), rounded into the output plane
 * @out. */
template <int F>
__device__ __forceinline__ void
columns_block (const Layout &layout, const unsigned char *high, int mc, int nt,
    int blocks, const uint4 *op_high, const uint4 *op_low, float to_unit,
    unsigned char *out)
{
  const int lane = threadIdx.x & 31;
  const int group = lane >> 2, quad = 4 * (lane & 3);
  /* ldmatrix, 16-byte rows: B[k][n] = rows[8 nt + n][16 mc + k]; lanes
   * 0-7 address k 0-15 of the high plane, lanes 8-15 k 16-31, lanes 16-31
   * the low plane's */
  const unsigned char *b_row = high + (lane >> 4) * layout.rows_part
      + (8 * nt + (lane & 7)) * layout.rows_pitch + (lane >> 3 & 1) * 16
      + 16 * mc;
  /* high times high, and the two high times low */
  int top[4] = {}, middle[4] = {};

#pragma unroll 1
  for (int kb = 0; kb < blocks; kb++) {
    const int e = kTapOffset + 32 * kb + quad - group;
    unsigned ah[4], al[4], b[4];

    load_operand (op_high, e, ah);
    load_operand (op_low, e, al);
    cv_mma::load_matrices (b_row + 32 * kb, b);
    cv_mma::mma_u8 (top, ah, b[0], b[1]);
    cv_mma::mma_u8 (middle, ah, b[2], b[3]);
    cv_mma::mma_u8 (middle, al, b[0], b[1]);
  }
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const int y = 16 * mc + group + 8 * (q >> 1);
    const int x = 8 * nt + quad / 2 + (q & 1);

    if (y < F)
      out[y * layout.out_pitch + x] = (unsigned char) cv_foveate_round (
          ((float) top[q] * 65536.0f + (float) middle[q] * 256.0f) * to_unit);
  }
}

/* The fragment of launch ranks (@rank_x, @rank_y): a block's work. */
template <int NC, unsigned MASK, int F>
__device__ __forceinline__ void
foveate_fragment (const Frame &frame, const ParamFields &param, int rank_x,
    int rank_y)
{
  /* units of work: a warp's rows products take 16 tile rows by 16
   * fragment columns, its columns products 16 output rows by 8 */
  constexpr int kRowBlocks = (F + 15) / 16;
  constexpr int kOwnRows = F / kWarps;
  constexpr int kPlanes = __builtin_popcount (MASK);
  static_assert (F % kWarps == 0 && F <= 32, "a lane a column, whole rows");
  constexpr int kColumnBands = (F + 15) / 16;
  constexpr int kColumnBlocks = F / 8;
  extern __shared__ uint4 shared[];
  __shared__ int block_filter;
  /* the fragment's pixels in the frame: x0, y0, width, height */
  __shared__ int4 block_area;
  const cvcore_foveate_plan &plan = param.plan ();
  const Layout &layout = frame.layout;
  unsigned char *base = reinterpret_cast<unsigned char *> (shared);
  uint4 *op_high = shared;
  unsigned char *rows = base + layout.rows_offset;
  unsigned char *tile = base + layout.tile_offset;
  unsigned char *out = base + layout.out_offset;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int gx = frame.far_first
      ? cv_foveate_far_first (rank_y, plan.grid_w, frame.centre_x)
      : rank_x;
  const int gy = frame.far_first
      ? cv_foveate_far_first (rank_x, plan.grid_h, frame.centre_y)
      : rank_y;
  const int bx = plan.origin_x + gx * F;
  const int by = plan.origin_y + gy * F;
  int x0 = max (bx, 0), y0 = max (by, 0);
  int w = min (bx + F, plan.width) - x0;
  int h = min (by + F, plan.height) - y0;

  /* The source pixels of this thread's outputs (a lane a column, a warp
   * every kWarps-th row), loaded first: their latency passes behind the
   * lookup and the blur, and they keep the channels it leaves. */
  const unsigned char *s = frame.src + (size_t) (y0 + warp) * frame.src_pitch
      + (size_t) (x0 + lane) * NC;
  unsigned source[kOwnRows];

#pragma unroll
  for (int i = 0; i < kOwnRows; i++)
    if (lane < w && warp + i * kWarps < h)
      source[i] = load_pixel<NC> (s + (size_t) i * kWarps * frame.src_pitch);

  /* One lookup for the block, by a whole warp: every lane loads the same
   * thresholds, and the warp never splits. */
  if (warp == 0) {
    const int filter = cv_foveate_filter (&plan, gx, gy);

    if (lane == 0) {
      block_filter = filter;
      block_area = make_int4 (x0, y0, w, h);
    }
  }
  __syncthreads ();
  /* read back rather than kept in registers through the blur */
  const int4 area = block_area;

  x0 = area.x;
  y0 = area.y;
  w = area.z;
  h = area.w;

  const int f = block_filter;
  /* filter 0 copies */
  const bool blur = f > 0;

  if (blur) {
    const int r = plan.radius[f], taps = 2 * r + 1, span = F + 2 * r;
    const int bands = (span + 15) / 16;
    /* the tile's first column on a whole 4 pixels, @shift before the
     * first the filter needs */
    const int left = (x0 - r) & ~3, shift = x0 - r - left;
    const int k_blocks = (span + shift + 31) / 32;
    const int entries = Layout::entries_for (r);
    uint4 *op_low = op_high + entries;

    wait_for_prior_kernel ();
    copy_async (op_high,
        frame.operands.tables + (size_t) f * frame.operands.stride,
        2 * entries);
    const FilterScale scale = frame.operands.scale[f];

    load_tile<NC, MASK> (frame, plan, tile, left, y0 - r, span + shift, span);
    wait_copies ();
    for (int p = 0; p < kPlanes; p++) {
      /* the operands and the tile are in; the previous channel's columns
       * are done with the rows */
      __syncthreads ();
      for (int u = warp; u < bands * kRowBlocks; u += kWarps)
        rows_band<F> (layout, tile + p * layout.tile_plane, u / kRowBlocks,
            u % kRowBlocks, k_blocks, shift, taps, op_high, op_low,
            scale.to_fixed, scale.half_unit, rows, rows + layout.rows_part);
      __syncthreads ();
      for (int u = warp; u < kColumnBands * kColumnBlocks; u += kWarps)
        columns_block<F> (layout, rows, u / kColumnBlocks, u % kColumnBlocks,
            Layout::column_blocks (r), op_high, op_low, scale.to_unit,
            out + p * F * layout.out_pitch);
    }
    __syncthreads ();
  }

  unsigned char *d = frame.dst + (size_t) (y0 + warp) * frame.dst_pitch
      + (size_t) (x0 + lane) * NC;
  const unsigned char *blurred = out + warp * layout.out_pitch + lane;

#pragma unroll
  for (int i = 0; i < kOwnRows; i++) {
    const unsigned char *sample = blurred + i * kWarps * layout.out_pitch;
    unsigned v = source[i];

    if (lane >= w || warp + i * kWarps >= h)
      break;
      /* byte c of v from the plane's sample */
#pragma unroll
    for (int c = 0; c < NC; c++)
      if (blur && (MASK >> c & 1)) {
        v = __byte_perm (v, *sample, (0x3210 & ~(0xf << 4 * c)) | 4 << 4 * c);
        sample += F * layout.out_pitch;
      }
    store_pixel<NC> (d + (size_t) i * kWarps * frame.dst_pitch, v);
  }
}

/* registers are budgeted for kBlocksPerSm blocks on an SM */
template <int NC, unsigned MASK, int F>
__global__ void
__launch_bounds__ (kThreads, kBlocksPerSm)
    foveate_mma (Frame frame, const __grid_constant__ ParamFields param)
{
  foveate_fragment<NC, MASK, F> (frame, param, blockIdx.x, blockIdx.y);
}

/* the first dimension of a plane's grid of launch ranks */
__device__ __forceinline__ int
grid_columns (const Frame &frame, const cvcore_foveate_plan &plan)
{
  return frame.far_first ? plan.grid_h : plan.grid_w;
}

/* A luma plane (one channel) and its interleaved chroma plane (two), as
 * NV12 has them, in one launch: the luma's @luma_blocks fragments first,
 * then the chroma's, each plane's in the order of its own grid. A launch
 * costs the host more than the kernel's blocks of a small plane cost the
 * device. */
template <int FL, int FC>
__global__ void
__launch_bounds__ (kThreads, kBlocksPerSm) foveate_mma_luma_chroma (Frame luma,
    const __grid_constant__ ParamFields luma_param, Frame chroma,
    const __grid_constant__ ParamFields chroma_param, int luma_blocks)
{
  const int block = blockIdx.x;

  if (block < luma_blocks) {
    const int columns = grid_columns (luma, luma_param.plan ());

    foveate_fragment<1, 0x1, FL> (luma, luma_param, block % columns,
        block / columns);
  } else {
    const int columns = grid_columns (chroma, chroma_param.plan ());
    const int rank = block - luma_blocks;

    foveate_fragment<2, 0x3, FC> (chroma, chroma_param, rank % columns,
        rank / columns);
  }
}

/* A launch of kThreads-thread blocks; @dependent: it may start before the
 * kernel before it ends (sm_90). Not to be copied: the configuration
 * points at the attribute. */
struct FrameLaunch
{
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute early;

  FrameLaunch (cudaStream_t stream, dim3 grid, size_t shared, bool dependent)
  {
    config.gridDim = grid;
    config.blockDim = dim3 (kThreads);
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &early;
    config.numAttrs = dependent ? 1 : 0;
  }
  FrameLaunch (const FrameLaunch &) = delete;
};

template <int NC, unsigned MASK>
cvcore_status
launch_channels (const cvcore_device *device, cudaStream_t stream,
    const Frame &frame, const ParamFields &param, size_t shared, bool dependent)
{
  const cvcore_foveate_plan &plan = param.plan ();
  void (*kernel) (Frame, const ParamFields) = plan.fragment == 8
      ? foveate_mma<NC, MASK, 8>
      : plan.fragment == 16 ? foveate_mma<NC, MASK, 16>
                            : foveate_mma<NC, MASK, 32>;
  const FrameLaunch launch (stream,
      frame.far_first ? dim3 (plan.grid_h, plan.grid_w)
                      : dim3 (plan.grid_w, plan.grid_h),
      shared, dependent);

  CV_TRY (cv_cuda_opt_in (device, kernel, shared));
  CUDA_TRY (cudaLaunchKernelEx (&launch.config, kernel, frame, param));
  return CVCORE_OK;
}

/* The fragment at @offset pixels from the grid's first, unbounded (as
 * cv_foveate_far_first () clamps it) but within int. */
int
fixation_fragment (float offset, int fragment)
{
  const float index = floorf (offset / fragment);

  return index < -1.0f ? -1 : index > 65536.0f ? 65536 : (int) index;
}

/* The kernel's channel sets: the formats' (all of gray, both of a chroma
 * pair, colour without alpha), and all four. */
bool
kernel_channels (int channels, unsigned mask)
{
  switch (channels) {
    case 1:
      return mask == 0x1;
    case 2:
      return mask == 0x3;
    case 4:
      return mask == 0x7 || mask == 0xf;
    default:
      return false;
  }
}

} /* namespace */

size_t
mma_shared_bytes (const cvcore_device *device, const cvcore_foveate_plan *plan,
    const cvcore_image *src, const cvcore_image *dst, unsigned mask)
{
  const int channels = src->channels;
  const unsigned blurred = mask & ((1u << channels) - 1);
  const uintptr_t alignment =
      (uintptr_t) src->data | (uintptr_t) dst->data | src->pitch | dst->pitch;

  /* rows addressed by 32-bit offsets */
  if (device->compute_capability < 80 || plan->smooth
      || plan->n_taps > CVCORE_FOVEATE_PARAM_TAPS
      || !kernel_channels (channels, blurred) || alignment % channels != 0
      || src->pitch * (size_t) src->height > INT_MAX)
    return 0;
  /* A row's sum of samples times quantised taps, up to 255 times the
   * taps' sum (65535 over the centre tap's weight), fits 32 bits. */
  for (int f = 1; f < plan->n_filters; f++)
    if (65535.0f / plan->taps[plan->offset[f] + plan->radius[f]] > 1.6e7f)
      return 0;

  const Layout layout (plan->fragment, plan->max_radius,
      __builtin_popcount (blurred));

  return layout.total <= device->shared_per_block_optin ? layout.total : 0;
}

namespace {

/* What a plane's launch takes; @dependent: it may start before the kernel
 * before it (its operands') ends. */
struct PlaneLaunch
{
  Frame frame;
  ParamFields param;
  bool dependent;
};

/* A plane's launch, its filters' operands made first where the stream's
 * scratch does not keep them. */
cvcore_status
prepare_plane (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned blurred, const cvcore_foveate_plan *plan,
    PlaneLaunch *launch)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = cv_cuda_stream (stream);
  /* filter 0 copies and needs no operands */
  const int blurs = plan->n_filters - 1;
  const int stride = 2 * Layout::entries_for (plan->max_radius);
  const size_t scales = round16 (plan->n_filters * sizeof (FilterScale));
  Frame &frame = launch->frame;
  void *scratch;

  frame.src = static_cast<const unsigned char *> (src->data);
  frame.dst = static_cast<unsigned char *> (dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.layout =
      Layout (plan->fragment, plan->max_radius, __builtin_popcount (blurred));
  /* four pixels in one load: aligned to their size */
  frame.vector =
      ((uintptr_t) src->data | src->pitch) % (4 * src->channels) == 0;
  frame.far_first = (long) plan->grid_w * plan->grid_h
      < (long) kFarFirstWaves * kBlocksPerSm * device->multiprocessors;
  frame.centre_x =
      fixation_fragment (plan->fix_x - plan->origin_x, plan->fragment);
  frame.centre_y =
      fixation_fragment (plan->fix_y - plan->origin_y, plan->fragment);

  /* The operands stay in the stream's scratch for the next frames with
   * the same bank: it is the key, of which the first @key_ints count. */
  int key[2 + 2 * CVCORE_FOVEATE_MAX_FILTERS + CVCORE_FOVEATE_PARAM_TAPS];
  const size_t key_ints = 2 + 2 * plan->n_filters + plan->n_taps;

  static_assert (sizeof (float) == sizeof (int), "taps as key words");
  key[0] = plan->n_filters;
  key[1] = plan->max_radius;
  memcpy (&key[2], plan->radius, plan->n_filters * sizeof (int));
  memcpy (&key[2 + plan->n_filters], plan->offset,
      plan->n_filters * sizeof (int));
  memcpy (&key[2 + 2 * plan->n_filters], plan->taps,
      plan->n_taps * sizeof (float));

  bool kept;
  const cvcore_status status = cv_stream_scratch (stream,
      scales + (size_t) plan->n_filters * stride * sizeof (uint4), key,
      key_ints * sizeof (int), &scratch, &kept);

  if (status != CVCORE_OK)
    return status;
  frame.operands.scale = static_cast<FilterScale *> (scratch);
  frame.operands.tables = reinterpret_cast<uint4 *> (
      static_cast<unsigned char *> (scratch) + scales);
  frame.operands.stride = stride;

  const bool make = !kept && blurs > 0;

  if (make) {
    /* mma_shared_bytes () took banks that fit */
    ParamPlan with_taps;

    with_taps.set (plan, plan->n_taps);
    make_operands<<<blurs, kThreads, 2 * Layout::quad_bytes (plan->max_radius),
        cs>>> (with_taps, frame.operands);
    if (cudaPeekAtLastError () != cudaSuccess)
      cv_stream_scratch_forget (stream, scratch);
    CV_CUDA_LAUNCHED ();
  }

  launch->dependent = make && device->compute_capability >= 90;
  launch->param.set (plan, 0);
  return CVCORE_OK;
}

typedef void (*LumaChromaKernel) (Frame, const ParamFields, Frame,
    const ParamFields, int);

/* The two-plane kernel for these fragments: those of a frame whose chroma
 * has half the luma's fragment, or 8 pixels; else NULL. */
LumaChromaKernel
luma_chroma_kernel (int luma_fragment, int chroma_fragment)
{
  if (luma_fragment == 32 && chroma_fragment == 16)
    return foveate_mma_luma_chroma<32, 16>;
  if (luma_fragment == 16 && chroma_fragment == 8)
    return foveate_mma_luma_chroma<16, 8>;
  if (luma_fragment == 8 && chroma_fragment == 8)
    return foveate_mma_luma_chroma<8, 8>;
  return nullptr;
}

} /* namespace */

cvcore_status
launch_mma (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned mask, const cvcore_foveate_plan *plan,
    size_t shared)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = cv_cuda_stream (stream);
  const unsigned blurred = mask & ((1u << src->channels) - 1);
  PlaneLaunch launch;

  CUDA_BIND (device);
  CV_TRY (prepare_plane (stream, src, dst, blurred, plan, &launch));
  /* the sets kernel_channels () allows */
  switch (src->channels) {
    case 1:
      return launch_channels<1, 0x1> (device, cs, launch.frame, launch.param,
          shared, launch.dependent);
    case 2:
      return launch_channels<2, 0x3> (device, cs, launch.frame, launch.param,
          shared, launch.dependent);
    default:
      return blurred == 0x7 ? launch_channels<4, 0x7> (device, cs, launch.frame,
                 launch.param, shared, launch.dependent)
                            : launch_channels<4, 0xf> (device, cs, launch.frame,
                                launch.param, shared, launch.dependent);
  }
}

bool
mma_luma_chroma_fits (const cvcore_image *src,
    const cvcore_foveate_plan *const *plans, const size_t *shared)
{
  /* mma_shared_bytes () takes one channel and two only all blurred */
  return shared[0] > 0 && shared[1] > 0 && src[0].channels == 1
      && src[1].channels == 2
      && luma_chroma_kernel (plans[0]->fragment, plans[1]->fragment);
}

cvcore_status
launch_mma_luma_chroma (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, const cvcore_foveate_plan *const *plans,
    const size_t *shared)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  const LumaChromaKernel kernel =
      luma_chroma_kernel (plans[0]->fragment, plans[1]->fragment);
  const size_t bytes = shared[0] > shared[1] ? shared[0] : shared[1];
  const int luma_blocks = plans[0]->grid_w * plans[0]->grid_h;
  const int chroma_blocks = plans[1]->grid_w * plans[1]->grid_h;
  PlaneLaunch luma, chroma;

  CUDA_BIND (device);
  CV_TRY (prepare_plane (stream, &src[0], &dst[0], 0x1, plans[0], &luma));
  CV_TRY (prepare_plane (stream, &src[1], &dst[1], 0x3, plans[1], &chroma));
  CV_TRY (cv_cuda_opt_in (device, kernel, bytes));

  const FrameLaunch launch (cv_cuda_stream (stream),
      dim3 (luma_blocks + chroma_blocks), bytes,
      luma.dependent || chroma.dependent);

  CUDA_TRY (cudaLaunchKernelEx (&launch.config, kernel, luma.frame, luma.param,
      chroma.frame, chroma.param, luma_blocks));
  return CVCORE_OK;
}

} /* namespace cv_foveate */
