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

/* CUDA kernels of the blur-stack foveation: the passes that make the
 * octaves' bases and the levels, several to a launch (each halving in a
 * launch after the one before it, each level after its octave's base), a
 * block per tile of a pass's output and channel, for the tiles that some
 * pixel reads; then the rendering, a thread per four pixels. The
 * arithmetic is the CPU reference's (foveate-stack-common.h). The passes'
 * launches list their tiles in their parameters, up to 32 KB (CUDA 12.1
 * and newer); the rendering's stay under the classic 4 KB. */
#include "foveate-device.cuh"
#include "foveate-private.h"
#include "launch.cuh"

namespace {

using cv_foveate::ParamFields;

constexpr int kThreads = 256;
/* a block's output tile, kTile by kTile; a thread sums kGroup outputs at
 * once, so that each sample it reads serves up to kGroup of them */
constexpr int kTile = 32, kGroup = 8;
/* Taps of the passes' kernels here: levels' padded with zeros to the
 * next of 7, 11, 15, 19 or the widest, 25 (radius 12), halvings' to 16;
 * zero taps add nothing to a sum, so the sums are the CPU reference's. */
constexpr int kLevelTaps7 = 7, kLevelTaps11 = 11, kLevelTaps15 = 15,
              kLevelTaps19 = 19, kLevelTaps = 25;
constexpr int kBaseTaps = 16;
constexpr int kMaxTaps = kLevelTaps;
/* source samples a tile reads across and down, at most */
constexpr int kSourceSide = 2 * (kTile - 1) + kBaseTaps;
/* Shared rows are an odd number of floats apart, so that the threads of a
 * warp, which take consecutive rows, read and write distinct banks. */
__host__ __device__ constexpr int
odd_stride (int n)
{
  return n | 1;
}
constexpr int kRowsStride = odd_stride (kTile);

constexpr int kPassesPerLaunch = 8;
/* A listed tile: its pass in the launch above its row above its column,
 * kTileBits each. */
constexpr int kTileBits = 14;
constexpr unsigned kTileMask = (1u << kTileBits) - 1;
constexpr int kListedTiles = 6144;

/* The passes of a launch, their taps (each pass's taps offset indexes
 * these) and the tiles it makes, a block each (and channel). */
struct Passes
{
  int n_tiles;
  /* the blurred channels, the others' blocks not launched */
  int n_channels;
  unsigned char channel[4];
  cv_foveate_stack_pass pass[kPassesPerLaunch];
  float taps[kPassesPerLaunch * kMaxTaps];
  unsigned tile[kListedTiles];
};

/* What rendering reads of the stack. */
struct alignas (alignof (cvcore_foveate_stack)) StackFields
{
  unsigned char bytes[offsetof (cvcore_foveate_stack, pixels)];

  __host__ void
  set (const cvcore_foveate_stack *stack)
  {
    memcpy (bytes, stack, sizeof (bytes));
  }

  __device__ const cvcore_foveate_stack &
  stack () const
  {
    return *reinterpret_cast<const cvcore_foveate_stack *> (bytes);
  }
};

/* acc[j] = the sum over k of tap[k] p[(STEP j + k) stride], j < kGroup,
 * each in tap order: every sample read serves up to kGroup sums. */
template <int STEP, int TAPS>
__device__ __forceinline__ void
group_sums (const float *p, int stride, const float tap[TAPS],
    float acc[kGroup])
{
#pragma unroll
  for (int j = 0; j < kGroup; j++)
    acc[j] = 0.0f;
#pragma unroll
  for (int m = 0; m < STEP * (kGroup - 1) + TAPS; m++) {
    const float v = p[m * stride];

#pragma unroll
    for (int j = 0; j < kGroup; j++)
      if (m - STEP * j >= 0 && m - STEP * j < TAPS)
        acc[j] = cv_fma (tap[m - STEP * j], v, acc[j]);
  }
}

/* Source samples [@col0, @col0 + COLS) x [@row0, @row0 + ROWS) of
 * channel @c into @source, rows @SIDE floats apart (what
 * cv_foveate_stack_load reads): a warp a row, so that its reads are
 * consecutive, with each row's and column's clamped offset worked out
 * once, in 32 bits (a plane is far below 4 GB). */
template <typename Sample, int SIDE, int ROWS, int COLS>
__device__ __forceinline__ void
load_source (const cv_foveate_stack_pass &pass, int col0, int row0, int c,
    int channels, float *source)
{
  constexpr int kWarps = kThreads / 32, kColsPerLane = (COLS + 31) / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const Sample *src = static_cast<const Sample *> (pass.src);
  const unsigned pitch = (unsigned) pass.src_pitch;
  unsigned offset[kColsPerLane];

#pragma unroll
  for (int k = 0; k < kColsPerLane; k++)
    offset[k] = (unsigned) (cv_clamp_index (col0 + lane + 32 * k - pass.src_x0,
                                pass.src_w)
            * channels
        + c);
#pragma unroll 2
  for (int r = warp; r < ROWS; r += kWarps) {
    const unsigned row =
        (unsigned) cv_clamp_index (row0 + r - pass.src_y0, pass.src_h) * pitch;

#pragma unroll
    for (int k = 0; k < kColsPerLane; k++)
      if (lane + 32 * k < COLS)
        source[r * SIDE + lane + 32 * k] = (float) src[row + offset[k]];
  }
}

/* Pass @pass over channel @c of its tile of tw x th outputs from (X0, Y0):
 * the source samples into shared memory, row sums into @rows, then column
 * sums, a group of kGroup outputs per thread. A tile at the pass's edge
 * loads and sums a whole tile's rows all the same, clamped like the rest:
 * the counts stay constants. */
template <int STEP, int TAPS>
__device__ __forceinline__ void
pass_tile (const cv_foveate_stack_pass &pass, const float *taps, int X0, int Y0,
    int tw, int th, int c, int channels, float *source, float *rows)
{
  /* source rows and columns of a whole tile */
  constexpr int kSpan = STEP * (kTile - 1) + TAPS;
  constexpr int kSide = odd_stride (kSpan);
  constexpr int kGroups = kTile / kGroup;
  float tap[TAPS];

#pragma unroll
  for (int k = 0; k < TAPS; k++)
    tap[k] = taps[k];
  if (pass.src_bytes)
    load_source<unsigned char, kSide, kSpan, kSpan> (pass,
        STEP * X0 + pass.first, STEP * Y0 + pass.first, c, channels, source);
  else
    load_source<uint16_t, kSide, kSpan, kSpan> (pass, STEP * X0 + pass.first,
        STEP * Y0 + pass.first, c, channels, source);
  __syncthreads ();
  for (int i = threadIdx.x; i < kSpan * kGroups; i += kThreads) {
    const int g = i / kSpan, r = i - g * kSpan, x = g * kGroup;
    float acc[kGroup];

    group_sums<STEP, TAPS> (source + r * kSide + STEP * x, 1, tap, acc);
#pragma unroll
    for (int j = 0; j < kGroup; j++)
      rows[r * kRowsStride + x + j] = acc[j];
  }
  __syncthreads ();
  for (int i = threadIdx.x; i < kTile * kGroups; i += kThreads) {
    const int x = i % kTile, y = i / kTile * kGroup;
    float acc[kGroup];

    if (x >= tw || y >= th)
      continue;
    group_sums<STEP, TAPS> (rows + STEP * y * kRowsStride + x, kRowsStride, tap,
        acc);

    uint16_t *out = pass.dst
        + (unsigned) (Y0 + y - pass.y0) * (unsigned) pass.dst_pitch
        + (unsigned) ((X0 + x - pass.x0) * channels + c);

#pragma unroll
    for (int j = 0; j < kGroup; j++)
      if (y + j < th)
        out[(unsigned) j * (unsigned) pass.dst_pitch] =
            cv_foveate_stack_store (&pass, acc[j]);
  }
}

/* Five blocks an SM, at 48 registers a thread without spilling: the
 * passes ran 7 % faster than with four and 12 % faster than with the
 * three that the 72 registers they would take leave room for. */
__global__ void
__launch_bounds__ (kThreads, 5)
    stack_passes (const __grid_constant__ Passes passes, int channels)
{
  __shared__ float source[kSourceSide * odd_stride (kSourceSide)];
  __shared__ float rows[kSourceSide * kRowsStride];
  /* a block per tile and channel (blockIdx.y): more, shorter blocks fill
   * the device better than a block per tile where a pass has few tiles */
  const unsigned code = passes.tile[blockIdx.x];
  const cv_foveate_stack_pass &pass = passes.pass[code >> 2 * kTileBits];
  const int X0 = pass.x0 + (int) (code & kTileMask) * kTile;
  const int Y0 = pass.y0 + (int) (code >> kTileBits & kTileMask) * kTile;
  const int tw = min (kTile, pass.x1 - X0), th = min (kTile, pass.y1 - Y0);
  const int c = passes.channel[blockIdx.y];
  const float *taps = passes.taps + pass.taps;

  /* the tap counts a pass can have, each with its sums unrolled */
#define PASS_TILE(STEP, TAPS)                                                  \
  pass_tile<STEP, TAPS> (pass, taps, X0, Y0, tw, th, c, channels, source, rows)
  if (pass.step == 2)
    PASS_TILE (2, kBaseTaps);
  else if (pass.n_taps == kLevelTaps7)
    PASS_TILE (1, kLevelTaps7);
  else if (pass.n_taps == kLevelTaps11)
    PASS_TILE (1, kLevelTaps11);
  else if (pass.n_taps == kLevelTaps15)
    PASS_TILE (1, kLevelTaps15);
  else if (pass.n_taps == kLevelTaps19)
    PASS_TILE (1, kLevelTaps19);
  else
    PASS_TILE (1, kLevelTaps);
#undef PASS_TILE
}

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  unsigned mask;
  const uint16_t *memory;
};

/* @NC samples of a level from @p: one load for four. */
template <int NC>
__device__ __forceinline__ void
load_samples (const uint16_t *p, float v[NC])
{
  if (NC == 4) {
    const ushort4 q = *reinterpret_cast<const ushort4 *> (p);

    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[NC - 1] = q.w;
  } else {
#pragma unroll
    for (int c = 0; c < NC; c++)
      v[c] = p[c];
  }
}

/* The first @NB of @NC channels of a level at a pixel
 * (cv_foveate_stack_reading). */
template <int NC, int NB>
__device__ __forceinline__ void
read_level (const cv_foveate_stack_taps &t, float v[NC])
{
  float a[NC], b[NC], d[NC], e[NC];

  load_samples<NC> (t.p + t.a, a);
  load_samples<NC> (t.p + t.b, b);
  load_samples<NC> (t.p + t.d, d);
  load_samples<NC> (t.p + t.e, e);
#pragma unroll
  for (int c = 0; c < NB; c++)
    v[c] = cv_foveate_stack_bilinear (&t, a[c], b[c], d[c], e[c]);
}

/* Pixel (@x, @y) of @NC channels: copied, or its two levels mixed in the
 * first @NB channels that @frame's mask blurs. */
template <int NC, int NB>
__device__ __forceinline__ void
render_pixel (const Frame &frame, const cvcore_foveate_plan &plan,
    const cvcore_foveate_stack &stack, int x, int y)
{
  const unsigned char *in = frame.src + y * frame.src_pitch + (size_t) x * NC;
  unsigned char *out = frame.dst + y * frame.dst_pitch + (size_t) x * NC;
  unsigned char result[NC];
  float low[NC], high[NC], weight;
  int k;

#pragma unroll
  for (int c = 0; c < NC; c++)
    result[c] = in[c];
  if (cv_foveate_stack_mixing (&stack,
          cv_foveate_stack_sigma (&plan, &stack, x, y), &k, &weight)) {
    cv_foveate_stack_taps t;

    if (k >= 0) {
      cv_foveate_stack_reading (&stack, frame.memory, NC, k, x, y, &t);
      read_level<NC, NB> (t, low);
    } else {
#pragma unroll
      for (int c = 0; c < NB; c++)
        low[c] = cv_foveate_stack_fixed (in[c]);
    }
    if (weight > 0.0f) {
      cv_foveate_stack_reading (&stack, frame.memory, NC, k + 1, x, y, &t);
      read_level<NC, NB> (t, high);
    }
#pragma unroll
    for (int c = 0; c < NB; c++)
      if (frame.mask >> c & 1)
        result[c] = (unsigned char) cv_foveate_stack_mix (low[c],
            weight > 0.0f ? high[c] : low[c], weight);
  }
#pragma unroll
  for (int c = 0; c < NC; c++)
    out[c] = result[c];
}

/* kRenderRows pixels a thread, a column of them: a block copies the level
 * table once for kRenderRows times the pixels. */
constexpr int kRenderRows = 4;

template <int NC, int NB>
__global__ void
__launch_bounds__ (kThreads)
    stack_render (Frame frame, const __grid_constant__ ParamFields param,
        const __grid_constant__ StackFields fields)
{
  /* the levels in shared memory: pixels of a warp look up different
   * ones, which parameters would serialise */
  __shared__ StackFields local;
  const cvcore_foveate_plan &plan = param.plan ();
  const int thread = threadIdx.y * blockDim.x + threadIdx.x;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;

  for (int i = thread; i < (int) (sizeof (local.bytes) / 4);
       i += blockDim.x * blockDim.y)
    reinterpret_cast<unsigned *> (local.bytes)[i] =
        reinterpret_cast<const unsigned *> (fields.bytes)[i];
  __syncthreads ();
  if (x >= plan.width)
    return;
  for (int r = 0; r < kRenderRows; r++) {
    const int y = (blockIdx.y * kRenderRows + r) * blockDim.y + threadIdx.y;

    if (y < plan.height)
      render_pixel<NC, NB> (frame, plan, local.stack (), x, y);
  }
}

/* Distance from @fix to the nearest and the farthest of the centres of
 * octave pixels [lo, hi] along one axis, in full-frame pixels. */
void
axis_reach (int lo, int hi, int octave, double fix, double *near, double *far)
{
  const double a = cv_foveate_octave_centre (lo, octave) - fix;
  const double b = cv_foveate_octave_centre (hi, octave) - fix;

  *near = a > 0.0 ? a : b < 0.0 ? -b : 0.0;
  *far = fmax (fabs (a), fabs (b));
}

/* Octave pixels whose centres lie within [@a, @b] full-frame pixels, and
 * one more each side: [*lo, *hi]. */
void
centre_span (double a, double b, int octave, int *lo, int *hi)
{
  const double scale = ldexp (1.0, -octave);

  *lo = (int) ceil ((a + 0.5) * scale - 0.5) - 1;
  *hi = (int) floor ((b + 0.5) * scale - 0.5) + 1;
}

/* Along one axis, the fragments whose pixels read octave pixels [@lo,
 * @hi) of a pass that keeps [@first, @end) of them: the distances from
 * @fix of the nearest and the farthest of their centres; false when no
 * pixel of the frame's @n reads them. A pixel reads the two octave pixels
 * around its centre, and one beyond the pass's edge reads its edge. */
bool
reading_fragment_centres (int lo, int hi, int first, int end, int octave, int n,
    int origin, int fragment, int grid, double fix, double *near, double *far)
{
  const double scale = ldexp (1.0, octave);
  const int x0 =
      lo == first ? 0 : max (0, (int) ceil ((lo - 0.5) * scale - 0.5));
  const int x1 = hi == end
      ? n - 1
      : min (n - 1, (int) ceil ((hi + 0.5) * scale - 0.5) - 1);
  double a, b;

  if (x0 > x1)
    return false;
  a = origin + (min (grid - 1, (x0 - origin) / fragment) + 0.5) * fragment
      - fix;
  b = origin + (min (grid - 1, (x1 - origin) / fragment) + 0.5) * fragment
      - fix;
  *near = a > 0.0 ? a : b < 0.0 ? -b : 0.0;
  *far = fmax (fabs (a), fabs (b));
  return true;
}

/* Queues the tiles listed in @passes and empties the list. */
cudaError_t
launch_listed (cudaStream_t cs, Passes &passes, int channels)
{
  if (passes.n_tiles > 0)
    stack_passes<<<dim3 (passes.n_tiles, passes.n_channels), kThreads, 0,
        cs>>> (passes, channels);
  passes.n_tiles = 0;
  return cudaGetLastError ();
}

/* Lists pass @i's tiles that some pixel reads, queuing a launch whenever
 * the list fills. Row by row: the columns that reach the disc of reach_hi
 * around the fixation, less those wholly inside the disc of reach_lo;
 * both spans are widened a pixel, so that rounding never leaves out a
 * tile that a pixel reads. Block-wise, of those, the tiles that pixels of
 * fragments with centres in the pass's band read. */
cudaError_t
list_tiles (cudaStream_t cs, Passes &passes, int i, int channels,
    const cvcore_foveate_plan *plan)
{
  const cv_foveate_stack_pass &p = passes.pass[i];
  const bool by_fragment =
      p.centre_lo > -CV_FOVEATE_STACK_FAR || p.centre_hi < CV_FOVEATE_STACK_FAR;
  const int tiles_x = (p.x1 - p.x0 + kTile - 1) / kTile;
  const int tiles_y = (p.y1 - p.y0 + kTile - 1) / kTile;
  const double hi = p.reach_hi * 1.001, lo = p.reach_lo * 0.999;

  if (tiles_x > (int) kTileMask || tiles_y > (int) kTileMask)
    return cudaErrorInvalidValue;
  for (int ty = 0; ty < tiles_y; ty++) {
    const int Y0 = p.y0 + ty * kTile;
    int first = 0, last = tiles_x - 1, hole_first = 0, hole_last = -1, lo_px,
        hi_px;
    double near_y, far_y;

    axis_reach (Y0, min (Y0 + kTile, p.y1) - 1, p.octave, p.fix_y, &near_y,
        &far_y);
    if (near_y > hi)
      continue;
    if (hi * hi < 1e40) {
      const double w = sqrt (hi * hi - near_y * near_y);

      centre_span (p.fix_x - w, p.fix_x + w, p.octave, &lo_px, &hi_px);
      first = max (first, (int) floor ((lo_px - p.x0) / (double) kTile));
      last = min (last, (int) floor ((hi_px - p.x0) / (double) kTile));
    }
    if (lo > 0.0 && far_y < lo) {
      const double w = sqrt (lo * lo - far_y * far_y);

      /* the span's own pixels less one more each side lie inside */
      centre_span (p.fix_x - w, p.fix_x + w, p.octave, &lo_px, &hi_px);
      hole_first = (int) ceil ((lo_px + 2 - p.x0) / (double) kTile);
      hole_last = (int) floor ((hi_px - 1 - p.x0) / (double) kTile) - 1;
    }
    double near_fy = 0.0, far_fy = 0.0;

    if (by_fragment
        && !reading_fragment_centres (Y0, min (Y0 + kTile, p.y1), p.y0, p.y1,
            p.octave, plan->height, plan->origin_y, plan->fragment,
            plan->grid_h, p.fix_y, &near_fy, &far_fy))
      continue;
    for (int tx = first; tx <= last; tx++) {
      const int X0 = p.x0 + tx * kTile;
      double near_fx, far_fx;

      if (tx >= hole_first && tx <= hole_last)
        continue;
      if (by_fragment
          && (!reading_fragment_centres (X0, min (X0 + kTile, p.x1), p.x0, p.x1,
                  p.octave, plan->width, plan->origin_x, plan->fragment,
                  plan->grid_w, p.fix_x, &near_fx, &far_fx)
              || hypot (far_fx, far_fy) < p.centre_lo
              || hypot (near_fx, near_fy) > p.centre_hi))
        continue;
      passes.tile[passes.n_tiles++] = (unsigned) i << 2 * kTileBits
          | (unsigned) ty << kTileBits | (unsigned) tx;
      if (passes.n_tiles == kListedTiles) {
        const cudaError_t err = launch_listed (cs, passes, channels);

        if (err != cudaSuccess)
          return err;
      }
    }
  }
  return cudaSuccess;
}

/* Queues passes [@first, @first + @n) of @all, @n at most
 * kPassesPerLaunch, over the channels of @mask, with their taps from
 * @taps padded to the kernel's count: one launch, or more where their
 * tiles overflow a launch's list. */
cudaError_t
launch_passes (cudaStream_t cs, const cv_foveate_stack_pass *all, int first,
    int n, const cvcore_foveate_plan *plan, int channels, unsigned mask)
{
  Passes passes;
  int n_taps = 0;

  passes.n_tiles = 0;
  passes.n_channels = 0;
  for (int c = 0; c < channels; c++)
    if (mask >> c & 1)
      passes.channel[passes.n_channels++] = (unsigned char) c;
  if (passes.n_channels == 0)
    return cudaSuccess;
  for (int i = 0; i < n; i++) {
    const cv_foveate_stack_pass &p = all[first + i];
    const int padded = p.step == 2 ? kBaseTaps
        : p.n_taps <= kLevelTaps7  ? kLevelTaps7
        : p.n_taps <= kLevelTaps11 ? kLevelTaps11
        : p.n_taps <= kLevelTaps15 ? kLevelTaps15
        : p.n_taps <= kLevelTaps19 ? kLevelTaps19
                                   : kLevelTaps;
    /* halvings' taps are even, levels' odd: centred either way */
    const int front = (padded - p.n_taps) / 2;

    if (p.n_taps > padded)
      return cudaErrorInvalidValue;
    passes.pass[i] = p;
    passes.pass[i].taps = n_taps;
    passes.pass[i].first = p.first - front;
    passes.pass[i].n_taps = padded;
    for (int k = 0; k < padded; k++)
      passes.taps[n_taps + k] = k >= front && k < front + p.n_taps
          ? plan->stack.taps[p.taps + k - front]
          : 0.0f;
    n_taps += padded;
  }
  for (int i = 0; i < n; i++) {
    const cudaError_t err = list_tiles (cs, passes, i, channels, plan);

    if (err != cudaSuccess)
      return err;
  }
  return launch_listed (cs, passes, channels);
}

/* The passes in launch order, into @ordered, and each launch's count into
 * @counts; returns the number of launches. A launch holds up to
 * kPassesPerLaunch passes whose sources earlier launches made, the next
 * halving first, as every coarser octave waits for it: the small octaves'
 * halvings so share launches with levels instead of leaving most of the
 * device idle. */
int
schedule_passes (const cv_foveate_stack_pass *passes, int n, int n_bases,
    cv_foveate_stack_pass *ordered, int *counts)
{
  bool placed[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS] = {};
  int halvings = 0, n_placed = 0, launches = 0;

  while (n_placed < n) {
    /* bases 0 .. made exist */
    const int made = halvings;
    int count = 0;

    if (halvings < n_bases) {
      ordered[n_placed + count++] = passes[halvings];
      placed[halvings++] = true;
    }
    for (int i = n_bases; i < n && count < kPassesPerLaunch; i++)
      if (!placed[i] && passes[i].octave <= made) {
        ordered[n_placed + count++] = passes[i];
        placed[i] = true;
      }
    counts[launches++] = count;
    n_placed += count;
  }
  return launches;
}

} /* namespace */

extern "C" cvcore_status
cv_foveate_stack_cuda (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned mask, const cvcore_foveate_plan *plan,
    uint16_t *memory)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  cv_foveate_stack_pass
      passes[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS],
      ordered[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS];
  int counts[CVCORE_FOVEATE_MAX_OCTAVES + CVCORE_FOVEATE_MAX_LEVELS];
  int n_bases;
  const int n = cv_foveate_stack_passes (plan, src, memory, passes, &n_bases);
  ParamFields param;
  StackFields fields;
  Frame frame;

  static_assert (sizeof (Passes) <= 32764
          && sizeof (ParamFields) + sizeof (StackFields) + sizeof (Frame)
              < 4096,
      "parameters within the limits");
  param.set (plan, 0);
  fields.set (&plan->stack);
  frame.src = static_cast<const unsigned char *> (src->data);
  frame.dst = static_cast<unsigned char *> (dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.mask = mask;
  frame.memory = memory;

  CUDA_BIND (cvcore_stream_device (stream));
  /* a block takes 35 KB of shared memory: five fit an SM only when it
   * keeps most of its memory as shared memory */
  CV_TRY (cv_cuda_prefer_shared (cvcore_stream_device (stream), stack_passes));
  const int launches = schedule_passes (passes, n, n_bases, ordered, counts);

  for (int k = 0, first = 0; k < launches; first += counts[k++])
    CUDA_TRY (launch_passes (cs, ordered, first, counts[k], plan, src->channels,
        mask));
  {
    const dim3 block (32, kThreads / 32);
    const int rows = kRenderRows * block.y;
    const dim3 grid ((plan->width + 31) / 32, (plan->height + rows - 1) / rows);

    /* RGBA's alpha, where it is only copied, is left out of the sums */
    void (*kernel) (Frame, const ParamFields, const StackFields) =
        src->channels == 4
        ? (mask & 0x8 ? stack_render<4, 4> : stack_render<4, 3>)
        : src->channels == 2 ? stack_render<2, 2>
                             : stack_render<1, 1>;

    kernel<<<grid, block, 0, cs>>> (frame, param, fields);
    CV_CUDA_LAUNCHED ();
  }
  return CVCORE_OK;
}
