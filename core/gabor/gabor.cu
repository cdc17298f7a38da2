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

/* CUDA kernels of the Gabor filtering (the CPU reference's arithmetic in
 * single precision). Every filter of the bank has its own complex plane,
 * the Gaussian that removes their DC response a real one.
 *
 * The recursion runs down columns, neighbouring threads on neighbouring
 * columns so that every step is a coalesced access (rows are filtered as
 * the columns of transposed planes), each column split into segments run
 * in parallel and chained by their end states. So,
 * recursive: `recursive_lines` filters the source's rows (its luminance,
 * neighbouring threads on neighbouring rows, see RowReader) causally into
 * each filter's transposed plane, then anticausally into the planes in
 * the frame's own layout (and, conjugated, into a mirrored orientation's,
 * see cv_gabor_plan), then filters the planes' columns in place;
 * `combine` writes the output. FIR: `fir_taps` samples the filters,
 * `fir_rows` and `fir_cols` convolve (one thread per output sample),
 * `combine` as above. */
#include <cuda_runtime.h>

#include "gabor-private.h"
#include "launch.cuh"

namespace {

constexpr int kThreads = 128;
constexpr float kPi = 3.14159265358979f;

struct Source
{
  const unsigned char *data;
  size_t pitch;
  int channels;
  bool wide;
  bool whole_pixels; /* 8-bit, 4 channels, rows 4-byte aligned */
  bool packed; /* 8-bit, 1 channel, rows 4-byte aligned */
  float weight[4]; /* per channel, divided by the full scale */

  __device__ __forceinline__ float
  luma (int x, int y) const
  {
    const unsigned char *row = data + y * pitch;

    if (whole_pixels) {
      /* one load per pixel */
      const uchar4 p = reinterpret_cast<const uchar4 *> (row)[x];

      return weight[0] * (float) p.x + weight[1] * (float) p.y
          + weight[2] * (float) p.z + weight[3] * (float) p.w;
    }
    float v = 0.0f;

    /* unrolled, so that weight[] stays in the parameter space */
#pragma unroll
    for (int c = 0; c < 4; c++)
      if (c < channels)
        v += weight[c]
            * (float) (wide ? reinterpret_cast<const unsigned short *> (
                           row)[x * channels + c]
                            : row[x * channels + c]);
    return v;
  }

  /* luma (x + k, y) for k < @N, @x a multiple of 4: packed rows give
   * four samples per load */
  template <int N>
  __device__ __forceinline__ void
  batch (int x, int y, float (&v)[N]) const
  {
    static_assert (N % 4 == 0, "whole words");
    if (packed) {
      const unsigned *word =
          reinterpret_cast<const unsigned *> (data + y * pitch + x);

#pragma unroll
      for (int w = 0; w < N / 4; w++) {
        const unsigned bytes = word[w];

#pragma unroll
        for (int k = 0; k < 4; k++)
          v[4 * w + k] = weight[0] * (float) ((bytes >> (8 * k)) & 0xffu);
      }
    } else {
#pragma unroll
      for (int k = 0; k < N; k++)
        v[k] = luma (x + k, y);
    }
  }
};

/* A pass's cascade (see cv_gabor_pass): poles and constant-line states
 * of the three sections, [0] causal, [1] anticausal. */
struct Coeffs
{
  float2 pole[2][3], init[2][3];
  float b;
};

__device__ __forceinline__ float2
cmul (float2 a, float2 b)
{
  return make_float2 (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__device__ __forceinline__ float2
cadd (float2 a, float2 b)
{
  return make_float2 (a.x + b.x, a.y + b.y);
}

__device__ __forceinline__ float2
cscale (float s, float2 a)
{
  return make_float2 (s * a.x, s * a.y);
}

__device__ __forceinline__ Coeffs
coeffs (const cv_gabor_pass &p, double b)
{
  Coeffs k;

  for (int dir = 0; dir < 2; dir++)
    for (int i = 0; i < 3; i++) {
      k.pole[dir][i] =
          make_float2 ((float) p.pole[dir][i][0], (float) p.pole[dir][i][1]);
      k.init[dir][i] =
          make_float2 ((float) p.init[dir][i][0], (float) p.init[dir][i][1]);
    }
  k.b = (float) b;
  return k;
}

/* Samples per batch: a thread loads the next batch before it works
 * through the current one, so memory latency is paid once per batch
 * rather than once per sample. */
constexpr int kBatch = 8;
constexpr int kLinesPerBlock = 16;
/* Lines (times filters) from which a pass runs many segments per line: with
 * fewer, blocks of many segments would not fill the GPU. */
constexpr int kManySegmentLines = 4000;

struct State
{
  float2 y0, y1, y2; /* the sections' outputs; y2 the pass's */
};

__device__ __forceinline__ float2
as_complex (float v)
{
  return make_float2 (v, 0.0f);
}

__device__ __forceinline__ float2
as_complex (float2 v)
{
  return v;
}

/* A sample of a plane of T read as complex, and a complex value stored as
 * T: the Gaussian's plane holds real samples (its response to a real
 * image is real), halving its traffic. */
template <typename T>
__device__ __forceinline__ float2
get (const char *p)
{
  return as_complex (*reinterpret_cast<const T *> (p));
}

template <typename T>
__device__ __forceinline__ void put (char *p, float2 v);

template <>
__device__ __forceinline__ void
put<float2> (char *p, float2 v)
{
  *reinterpret_cast<float2 *> (p) = v;
}

template <>
__device__ __forceinline__ void
put<float> (char *p, float2 v)
{
  *reinterpret_cast<float *> (p) = v.x;
}

/* One step through the sections of poles @p: y0 = b in + p0 y0,
 * y1 = y0 + p1 y1, y2 = y1 + p2 y2. */
__device__ __forceinline__ float2
step (float b, const float2 p[3], State &st, float2 in)
{
  st.y0 = cadd (cscale (b, in), cmul (p[0], st.y0));
  st.y1 = cadd (st.y0, cmul (p[1], st.y1));
  st.y2 = cadd (st.y1, cmul (p[2], st.y2));
  return st.y2;
}

/* Where a run reads its samples: @in + i @step for its i-th (of TI). */
template <typename TI>
struct StridedReader
{
  const char *in;
  ptrdiff_t step;

  __device__ __forceinline__ void
  batch (float2 (&v)[kBatch])
  {
#pragma unroll
    for (int k = 0; k < kBatch; k++)
      v[k] = get<TI> (in + k * step);
    in += kBatch * step;
  }
  __device__ __forceinline__ float2
  one (int j) const
  {
    return get<TI> (in + j * step);
  }
};

/* A line of a plane of TI: sample i at @in + i @step. */
template <typename TI>
struct PlaneLine
{
  const char *in;
  ptrdiff_t step;

  __device__ __forceinline__ StridedReader<TI>
  from (int first, bool causal) const
  {
    return StridedReader<TI>{ in + first * step, causal ? step : -step };
  }
  __device__ __forceinline__ float2
  at (int i) const
  {
    return get<TI> (in + i * step);
  }
};

/* The source's luminance along row @y, forwards from sample @x (a
 * multiple of 4 at every batch, see cv_gabor_segment_length). Threads on
 * neighbouring rows: a batch of a packed row is two loads, each of a
 * memory sector's word, rather than a transposed copy's eight. */
struct RowReader
{
  Source src;
  int x, y;

  __device__ __forceinline__ void
  batch (float2 (&v)[kBatch])
  {
    float l[kBatch];

    src.batch (x, y, l);
#pragma unroll
    for (int k = 0; k < kBatch; k++)
      v[k] = as_complex (l[k]);
    x += kBatch;
  }
  __device__ __forceinline__ float2
  one (int j) const
  {
    return as_complex (src.luma (x + j, y));
  }
};

/* Row @y of the source, read causally only. */
struct SourceRow
{
  Source src;
  int y;

  __device__ __forceinline__ RowReader
  from (int first, bool) const
  {
    return RowReader{ src, first, y };
  }
  __device__ __forceinline__ float2
  at (int i) const
  {
    return as_complex (src.luma (i, y));
  }
};

/* Where a storing run leaves its outputs: @out + i @step for its i-th
 * sample (of T); nothing when not @ok (a thread past the last line). */
template <typename T>
struct StridedSink
{
  char *out;
  ptrdiff_t step;
  bool ok;

  /* the sink of a run from sample @first, forwards when @causal */
  __device__ __forceinline__ StridedSink
  from (int first, bool causal) const
  {
    return StridedSink{ out + first * step, causal ? step : -step, ok };
  }
  __device__ __forceinline__ void
  batch (const float2 (&v)[kBatch])
  {
    if (ok) {
#pragma unroll
      for (int k = 0; k < kBatch; k++)
        put<T> (out + k * step, v[k]);
    }
    out += kBatch * step;
  }
  __device__ __forceinline__ void
  one (int j, float2 v) const
  {
    if (ok)
      put<T> (out + j * step, v);
  }
};

/* Where the rows' last run leaves its outputs: row @line of @rows
 * (filter f's plane, of T, from the block's first row, in the frame's own
 * layout), and conjugated of @mirror (its mirror's plane) when not null.
 * A thread alone would touch a memory sector per sample; the 16 threads of
 * a half-warp (neighbouring rows, one segment) pass each batch through
 * shared memory @stage and store it as runs of kBatch neighbouring samples
 * of a row. The block's first @lines rows exist. */
static_assert (2 * kLinesPerBlock == 32,
    "a half-warp holds the block's lines of one segment");

template <typename T>
struct PlaneRowSink
{
  char *rows, *mirror;
  size_t pitch;
  float2 (*stage)[kBatch + 1];
  int lines;
  int x, dir; /* the next output's sample, the walk */

  __device__ __forceinline__ PlaneRowSink
  from (int first, bool causal) const
  {
    PlaneRowSink s = *this;

    s.x = first;
    s.dir = causal ? 1 : -1;
    return s;
  }
  __device__ __forceinline__ void
  store (int line, int at, float2 v) const
  {
    put<T> (rows + line * pitch + at * sizeof (T), v);
    if (mirror)
      put<float2> (mirror + line * pitch + at * sizeof (float2),
          make_float2 (v.x, -v.y));
  }
  __device__ __forceinline__ void
  batch (const float2 (&v)[kBatch])
  {
    const unsigned half = 0xffffu << (threadIdx.y % 2 * kLinesPerBlock);

#pragma unroll
    for (int k = 0; k < kBatch; k++)
      stage[threadIdx.x][k] = v[k];
    __syncwarp (half);
#pragma unroll
    for (int r = 0; r < kBatch; r++) {
      const int e = r * kLinesPerBlock + threadIdx.x;

      if (e / kBatch < lines)
        store (e / kBatch, x + dir * (e % kBatch),
            stage[e / kBatch][e % kBatch]);
    }
    __syncwarp (half);
    x += dir * kBatch;
  }
  __device__ __forceinline__ void
  one (int j, float2 v) const
  {
    if ((int) threadIdx.x < lines)
      store (threadIdx.x, x + dir * j, v);
  }
};

/* @count steps along a line read by @in, updating @st; outputs left in
 * @sink when @Store. Whole batches first, with the next batch loaded
 * ahead and addresses walked rather than multiplied, then the rest. Every
 * thread of a half-warp runs the same count (see PlaneRowSink). */
template <bool Store, typename Reader, typename Sink>
__device__ __forceinline__ void
recursion (Reader in, Sink sink, int count, float b, const float2 f[3],
    State &st)
{
  const int batches = count / kBatch;
  float2 cur[kBatch];

  if (batches > 0)
    in.batch (cur);
  for (int n = 0; n < batches; n++) {
    const bool more = n + 1 < batches;
    float2 next[kBatch];

    if (more)
      in.batch (next);
#pragma unroll
    for (int j = 0; j < kBatch; j++)
      cur[j] = step (b, f, st, cur[j]);
    if (Store)
      sink.batch (cur);
    if (more) {
#pragma unroll
      for (int j = 0; j < kBatch; j++)
        cur[j] = next[j];
    }
  }
  for (int j = 0; j < count - batches * kBatch; j++) {
    const float2 o = step (b, f, st, in.one (j));

    if (Store)
      sink.one (j, o);
  }
}

/* One direction of a line split into SEGMENTS segments, one per
 * threadIdx.y: each segment runs from a zero state to find where it ends
 * (the line's first from its steady state); thread y = 0 chains the true
 * states through the segments (end = own end + jump x previous end); each
 * segment then runs again from its true start, storing into @out. @in
 * reads the line (see PlaneLine), a row of the frame when ROW. Threads
 * past the last line (not @line_ok) run too, on the first line, storing
 * nothing. */
template <int SEGMENTS, bool ROW, typename Line, typename Sink>
__device__ __forceinline__ void
segmented_pass (int n, bool causal, const Coeffs &k, const double jump[3][3][2],
    float2 (*carry)[kLinesPerBlock][3], bool line_ok, const Line &in,
    const Sink &out)
{
  const int seg = threadIdx.y, lane = threadIdx.x;
  const int len = cv_gabor_segment_length (n, SEGMENTS, ROW);
  const int first = causal ? seg * len : n - 1 - seg * len;
  const int count = max (0, min (len, n - seg * len));
  const auto seg_in = in.from (first, causal);
  const Sink seg_out = out.from (first, causal);
  /* the poles in registers: picking the array would leave it in local
   * memory, a load on every step's critical path */
  const float2 f[3] = { causal ? k.pole[0][0] : k.pole[1][0],
    causal ? k.pole[0][1] : k.pole[1][1],
    causal ? k.pole[0][2] : k.pole[1][2] };
  /* the line's steady state before its end sample */
  const float2 edge =
      line_ok ? in.at (causal ? 0 : n - 1) : make_float2 (0.0f, 0.0f);
  const State start = { cmul (causal ? k.init[0][0] : k.init[1][0], edge),
    cmul (causal ? k.init[0][1] : k.init[1][1], edge),
    cmul (causal ? k.init[0][2] : k.init[1][2], edge) };
  State st;

  if (seg == 0) {
    st = start;
  } else {
    st.y0 = st.y1 = st.y2 = make_float2 (0.0f, 0.0f);
  }
  recursion<false> (seg_in, seg_out, count, k.b, f, st);
  carry[seg][lane][0] = st.y0;
  carry[seg][lane][1] = st.y1;
  carry[seg][lane][2] = st.y2;
  __syncthreads ();
  if (seg == 0 && line_ok) {
    /* section i takes sections 0..i's states: the jump is lower
     * triangular */
    float2 to[3][3], prev[3];

    for (int i = 0; i < 3; i++) {
      for (int j = 0; j <= i; j++)
        to[i][j] = make_float2 ((float) jump[i][j][0], (float) jump[i][j][1]);
      prev[i] = carry[0][lane][i];
    }
    for (int s = 1; s < SEGMENTS; s++) {
      float2 v[3];

      for (int i = 0; i < 3; i++) {
        v[i] = carry[s][lane][i];
        for (int j = 0; j <= i; j++)
          v[i] = cadd (v[i], cmul (to[i][j], prev[j]));
      }
      for (int i = 0; i < 3; i++)
        carry[s][lane][i] = prev[i] = v[i];
    }
  }
  __syncthreads ();
  if (seg == 0) {
    st = start;
  } else {
    st.y0 = carry[seg - 1][lane][0];
    st.y1 = carry[seg - 1][lane][1];
    st.y2 = carry[seg - 1][lane][2];
  }
  recursion<true> (seg_in, seg_out, count, k.b, f, st);
  __syncthreads ();
}

/* A stack of planes (one per filter) of @rows x @cols complex samples. */
struct Stack
{
  float2 *data;
  size_t pitch; /* bytes between rows */
  int rows, cols;

  __device__ __forceinline__ float2 *
  row (int f, int y) const
  {
    return reinterpret_cast<float2 *> (
        reinterpret_cast<char *> (data) + ((size_t) f * rows + y) * pitch);
  }
};

/* Recursive filtering of filter @f's line @j, planes of T. With ROWS,
 * row j of the frame: from the source @src (see RowReader) into the
 * transposed plane of @aux (the causal run, each step a coalesced store
 * of neighbouring threads on neighbouring rows), then from there into
 * @planes in the frame's own layout (the anticausal run, see
 * PlaneRowSink). Else column j of @planes, in place. */
template <int SEGMENTS, int M, typename T, bool ROWS>
__device__ __forceinline__ void
filter_line (const Stack &aux, const Source &src, const Stack &planes,
    const cv_gabor_plan &plan, int f, int j, float2 (*carry)[kLinesPerBlock][3],
    float2 (*stage)[kBatch + 1])
{
  const Stack &lines = ROWS ? aux : planes; /* lines down columns */
  const bool line_ok = j < lines.cols;
  const cv_gabor_pass &pass = ROWS ? plan.rows[f] : plan.cols[f];
  const Coeffs k = coeffs (pass, plan.b);
  char *top = reinterpret_cast<char *> (lines.row (f, 0))
      + (line_ok ? j : 0) * sizeof (T);
  const ptrdiff_t step = (ptrdiff_t) lines.pitch;
  const StridedSink<T> column = { top, step, line_ok };
  const PlaneLine<T> own = { top, step };

  if (ROWS) {
    const int y0 = blockIdx.x * kLinesPerBlock, mirror = plan.row_mirror[f];
    const PlaneRowSink<T> frame = { reinterpret_cast<char *> (
                                        planes.row (f, y0)),
      mirror >= 0 ? reinterpret_cast<char *> (planes.row (mirror, y0))
                  : nullptr,
      planes.pitch, stage, min (kLinesPerBlock, planes.rows - y0), 0, 1 };

    const SourceRow row = { src, line_ok ? j : 0 };

    segmented_pass<SEGMENTS, ROWS> (lines.rows, true, k, pass.jump[M][0], carry,
        line_ok, row, column);
    segmented_pass<SEGMENTS, ROWS> (lines.rows, false, k, pass.jump[M][1],
        carry, line_ok, own, frame);
  } else {
    segmented_pass<SEGMENTS, ROWS> (lines.rows, true, k, pass.jump[M][0], carry,
        line_ok, own, column);
    segmented_pass<SEGMENTS, ROWS> (lines.rows, false, k, pass.jump[M][1],
        carry, line_ok, own, column);
  }
}

/* filter_line for filter blockIdx.y (of the plan's row passes with ROWS):
 * a block takes kLinesPerBlock neighbouring lines, SEGMENTS threads each
 * (M: the plan's jumps for that many). The Gaussian's plane is real. */
template <int SEGMENTS, int M, bool ROWS>
__global__ void
__launch_bounds__ (kLinesPerBlock *SEGMENTS) recursive_lines (Stack aux,
    const Source src, Stack planes, const __grid_constant__ cv_gabor_plan plan)
{
  __shared__ float2 carry[SEGMENTS][kLinesPerBlock][3];
  __shared__ float2 stage[ROWS ? SEGMENTS : 1][kLinesPerBlock][kBatch + 1];
  const int j = blockIdx.x * kLinesPerBlock + threadIdx.x;
  const int f = ROWS ? plan.row_passes[blockIdx.y] : blockIdx.y;
  float2 (*half_warp)[kBatch + 1] = stage[ROWS ? threadIdx.y : 0];

  if (f == plan.orientations)
    filter_line<SEGMENTS, M, float, ROWS> (aux, src, planes, plan, f, j, carry,
        half_warp);
  else
    filter_line<SEGMENTS, M, float2, ROWS> (aux, src, planes, plan, f, j, carry,
        half_warp);
}

/* Filters the rows (into @planes through @aux, from @src) or the columns
 * of @planes (see recursive_lines), with many segments per line when
 * there are enough lines. */
template <bool ROWS>
cvcore_status
launch_lines (cudaStream_t stream, const Stack &aux, const Source &src,
    const Stack &planes, const cv_gabor_plan *plan)
{
  const int lines = ROWS ? aux.cols : planes.cols;
  const int filters = ROWS ? plan->n_row_passes : plan->n_filters;
  const dim3 grid ((lines + kLinesPerBlock - 1) / kLinesPerBlock, filters);

  if (lines * filters >= kManySegmentLines)
    recursive_lines<CV_GABOR_SEGMENTS_MANY, 1, ROWS>
        <<<grid, dim3 (kLinesPerBlock, CV_GABOR_SEGMENTS_MANY), 0, stream>>> (
            aux, src, planes, *plan);
  else
    recursive_lines<CV_GABOR_SEGMENTS_FEW, 0, ROWS>
        <<<grid, dim3 (kLinesPerBlock, CV_GABOR_SEGMENTS_FEW), 0, stream>>> (
            aux, src, planes, *plan);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

/* Output of pixel (x, y) from each orientation's response @at (o) and the
 * Gaussian's @gauss. */
template <typename At>
__device__ __forceinline__ void
combine_pixel (const cvcore_image &dst, const cvcore_gabor_params &params,
    const cv_gabor_plan &plan, int x, int y, float gauss, At at)
{
  const float full = dst.sample == CVCORE_SAMPLE_U16 ? 65535.0f : 255.0f;
  const int n = plan.orientations;
  const float gain = (float) params.gain;
  float out[4] = { 0.0f, 0.0f, 0.0f, 0.0f }, energy = 0.0f, best = -1.0f;
  float2 strongest = make_float2 (0.0f, 0.0f);
  int arg = 0;
  auto scale = [full] (float v) {
    return fminf (fmaxf (floorf (v * full + 0.5f), 0.0f), full);
  };

  for (int o = 0; o < n; o++) {
    const float2 a = at (o);
    const float2 r = make_float2 (a.x - (float) plan.dc[o] * gauss, a.y);
    const float m = sqrtf (r.x * r.x + r.y * r.y);

    /* unrolled, so that out[] stays in registers */
#pragma unroll
    for (int c = 0; c < 4; c++)
      if (o == c)
        out[c] = scale (gain * m);
    energy += m * m;
    if (m > best) {
      best = m;
      strongest = r;
      arg = o;
    }
  }
  if (dst.channels == 1) {
    switch (params.output) {
      case CVCORE_GABOR_MAGNITUDE:
        out[0] = scale (gain * sqrtf (energy));
        break;
      case CVCORE_GABOR_REAL:
        out[0] = scale (0.5f + gain * strongest.x);
        break;
      case CVCORE_GABOR_IMAGINARY:
        out[0] = scale (0.5f + gain * strongest.y);
        break;
      case CVCORE_GABOR_PHASE:
        out[0] =
            scale ((atan2f (strongest.y, strongest.x) + kPi) / (2.0f * kPi));
        break;
      default:
        out[0] = floorf ((float) arg * full / n + 0.5f);
        break;
    }
  }
  unsigned char *row = static_cast<unsigned char *> (dst.data) + y * dst.pitch;
  if (dst.channels == 4) {
    reinterpret_cast<uchar4 *> (row)[x] = make_uchar4 ((unsigned char) out[0],
        (unsigned char) out[1], (unsigned char) out[2], (unsigned char) out[3]);
  } else if (dst.sample == CVCORE_SAMPLE_U16) {
    reinterpret_cast<unsigned short *> (row)[x] = (unsigned short) out[0];
  } else {
    row[x] = (unsigned char) out[0];
  }
}

__global__ void
__launch_bounds__ (kThreads) combine (Stack planes, cvcore_image dst,
    cvcore_gabor_params params, const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;

  if (x >= planes.cols)
    return;
  combine_pixel (dst, params, plan, x, y,
      reinterpret_cast<const float *> (planes.row (plan.orientations, y))[x],
      [&planes, x, y] (int o) { return planes.row (o, y)[x]; });
}

/* taps[(f * 2 + d) * (2 r + 1) + r + k] = G (k) e^{j omega k}, G
 * normalised over -r..r; d 0 rows, 1 columns. */
__global__ void
fir_taps (float2 *taps, const __grid_constant__ cv_gabor_plan plan)
{
  const int r = plan.radius, n = 2 * r + 1;
  const int f = blockIdx.x, d = blockIdx.y;
  const float inv2s2 = 0.5f / (float) (plan.sigma * plan.sigma);
  const float omega = (float) (d ? plan.cols[f].omega : plan.rows[f].omega);
  float norm = 0.0f;

  for (int k = -r; k <= r; k++)
    norm += expf (-(float) (k * k) * inv2s2);
  for (int k = threadIdx.x - r; k <= r; k += blockDim.x) {
    float s, c;

    sincosf (omega * k, &s, &c);
    taps[(f * 2 + d) * n + r + k] =
        cscale (expf (-(float) (k * k) * inv2s2) / norm, make_float2 (c, s));
  }
}

__global__ void
__launch_bounds__ (kThreads) fir_rows (Source src, Stack out,
    const float2 *taps, const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  const int f = blockIdx.z, r = plan.radius;
  const float2 *tap = taps + (f * 2) * (2 * r + 1) + r;
  float2 acc = make_float2 (0.0f, 0.0f);

  if (x >= out.cols)
    return;
  for (int k = -r; k <= r; k++)
    acc = cadd (acc,
        cscale (src.luma (min (max (x - k, 0), out.cols - 1), y), tap[k]));
  out.row (f, y)[x] = acc;
}

__global__ void
__launch_bounds__ (kThreads) fir_cols (Stack in, Stack out, const float2 *taps,
    const __grid_constant__ cv_gabor_plan plan)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  const int f = blockIdx.z, r = plan.radius;
  const float2 *tap = taps + (f * 2 + 1) * (2 * r + 1) + r;
  float2 acc = make_float2 (0.0f, 0.0f);

  if (x >= out.cols)
    return;
  for (int k = -r; k <= r; k++)
    acc = cadd (acc,
        cmul (tap[k], in.row (f, min (max (y - k, 0), out.rows - 1))[x]));
  if (f == plan.orientations)
    put<float> (reinterpret_cast<char *> (out.row (f, y)) + x * sizeof (float),
        acc);
  else
    out.row (f, y)[x] = acc;
}

} /* namespace */

extern "C" cvcore_status
cv_gabor_cuda (cvcore_stream *stream, const cv_gabor_device_scratch *scratch,
    const cvcore_image *src, const cvcore_image *dst,
    const cvcore_gabor_params *params, const cv_gabor_plan *plan)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = cv_cuda_stream (stream);
  const int w = src->width, h = src->height, nf = plan->n_filters;
  float2 *taps = reinterpret_cast<float2 *> (scratch->taps);
  cvcore_status status;
  Source s;
  Stack planes, aux;

  s.data = static_cast<const unsigned char *> (src->data);
  s.pitch = src->pitch;
  s.channels = src->channels;
  s.wide = src->sample == CVCORE_SAMPLE_U16;
  s.whole_pixels = !s.wide && src->channels == 4 && src->pitch % 4 == 0
      && reinterpret_cast<uintptr_t> (src->data) % 4 == 0;
  s.packed = !s.wide && src->channels == 1 && src->pitch % 4 == 0
      && reinterpret_cast<uintptr_t> (src->data) % 4 == 0;
  for (int c = 0; c < 4; c++)
    s.weight[c] = (float) (params->weight[c] / (s.wide ? 65535.0 : 255.0));
  planes.data = static_cast<float2 *> (scratch->planes);
  planes.pitch = scratch->plane_pitch;
  planes.rows = h;
  planes.cols = w;
  aux.data = static_cast<float2 *> (scratch->aux);

  CUDA_BIND (device);
  if (plan->method == CVCORE_GABOR_FIR) {
    /* rows into aux (laid out as the planes), columns into the planes */
    aux.pitch = scratch->plane_pitch;
    aux.rows = h;
    aux.cols = w;
    fir_taps<<<dim3 (nf, 2), 256, 0, cs>>> (taps, *plan);
    CV_CUDA_LAUNCHED ();
    fir_rows<<<dim3 ((w + kThreads - 1) / kThreads, h, nf), kThreads, 0, cs>>> (
        s, aux, taps, *plan);
    CV_CUDA_LAUNCHED ();
    fir_cols<<<dim3 ((w + kThreads - 1) / kThreads, h, nf), kThreads, 0, cs>>> (
        aux, planes, taps, *plan);
    CV_CUDA_LAUNCHED ();
  } else {
    /* rows through transposed planes in aux, then columns */
    aux.pitch = scratch->aux_pitch;
    aux.rows = w;
    aux.cols = h;
    status = launch_lines<true> (cs, aux, s, planes, plan);
    if (status == CVCORE_OK)
      status = launch_lines<false> (cs, aux, s, planes, plan);
    if (status != CVCORE_OK)
      return status;
  }
  combine<<<dim3 ((w + kThreads - 1) / kThreads, h), kThreads, 0, cs>>> (planes,
      *dst, *params, *plan);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

extern "C" cvcore_status
cv_gabor_response_cuda (const cvcore_gabor_scratch *g, cvcore_stream *stream,
    int o, float *re_im)
{
  /* filter o and the Gaussian (real samples), then the same subtraction
   * as the CPU's */
  const int n = g->plan.orientations;
  const size_t row_bytes = (size_t) 2 * sizeof (float) * g->width;
  float *gauss = static_cast<float *> (malloc (row_bytes / 2 * g->height));
  cvcore_status status;

  if (gauss == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "Gabor response");
  status = cvcore_copy_2d_async (stream, re_im, row_bytes,
      (unsigned char *) g->planes + (size_t) o * g->height * g->plane_pitch,
      g->plane_pitch, row_bytes, g->height, CVCORE_COPY_DEVICE_TO_HOST);
  if (status == CVCORE_OK)
    status = cvcore_copy_2d_async (stream, gauss, row_bytes / 2,
        (unsigned char *) g->planes + (size_t) n * g->height * g->plane_pitch,
        g->plane_pitch, row_bytes / 2, g->height, CVCORE_COPY_DEVICE_TO_HOST);
  if (status == CVCORE_OK)
    status = cvcore_stream_synchronize (stream);
  for (size_t i = 0; status == CVCORE_OK && i < (size_t) g->width * g->height;
       i++)
    re_im[2 * i] -= (float) g->plan.dc[o] * gauss[i];
  free (gauss);
  return status;
}
