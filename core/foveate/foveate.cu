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

/* CUDA kernel of the block-wise foveation: one block per fragment, as a
 * one-dimensional line of threads that reshapes itself for each stage. For
 * every channel the block loads its padded tile (8-bit, edges clamped) into
 * shared memory, runs the row taps into a float intermediate in shared
 * memory, then the column taps into the frame; wide filters go through the
 * fragment in strips of columns. Which filter a block uses, its taps and
 * the arithmetic are the CPU reference's (foveate-common.h). The plan
 * travels as a grid-constant kernel parameter with its bank when the bank
 * fits there; a larger bank is written to stream-ordered device memory by
 * launches that carry it in pieces, so nothing waits on the host. */
#include <cstring>

#include "foveate-device.cuh"
#include "launch.cuh"

namespace {

using cv_foveate::ParamPlan;

constexpr int kThreads = 256;
/* Outputs per thread and pass. */
constexpr int kGroup = 8;
/* Taps a launch of copy_taps carries (its parameter under 32 KB). */
constexpr int kChunkTaps = 7936;

struct TapChunk
{
  float taps[kChunkTaps];
};

/* An 8-bit sample as a float without the quarter-rate converter: in the
 * mantissa of 2^23 it is exact. */
__device__ __forceinline__ float
byte_to_float (unsigned char v)
{
  return __int_as_float (0x4B000000 | v) - 8388608.0f;
}

/* acc[j] = sum over k of tap[k] * load (j + k), j < kGroup, each sum in
 * tap order (the CPU reference's); every loaded sample serves kGroup
 * multiply-adds. */
template <typename Load>
__device__ __forceinline__ void
sliding_sums (const float *tap, int taps, float acc[kGroup], Load load)
{
  float v[kGroup];

#pragma unroll
  for (int j = 0; j < kGroup; j++)
    acc[j] = 0.0f;
#pragma unroll
  for (int j = 0; j < kGroup - 1; j++)
    v[j] = load (j);
  for (int k = 0; k < taps; k++) {
    const float t = tap[k];

    v[kGroup - 1] = load (k + kGroup - 1);
#pragma unroll
    for (int j = 0; j < kGroup; j++)
      acc[j] += t * v[j];
#pragma unroll
    for (int j = 0; j < kGroup - 1; j++)
      v[j] = v[j + 1];
  }
}

struct Frame
{
  const unsigned char *src;
  unsigned char *dst;
  size_t src_pitch, dst_pitch;
  int channels;
  unsigned mask;
  int strip; /* fragment columns filtered at once */
  int band; /* padded-tile rows held at once */
  const float *bank; /* a bank in device memory, or NULL */
};

/* Filter @f of channel @c over the fragment's pixels (w x h from (x0, y0)),
 * frame.strip columns at a time: the padded 8-bit tile into shared memory
 * (in bands of frame.band rows when it does not fit whole), rows into
 * @rows, columns handed to @emit (y, x, value) in frame coordinates;
 * filter 0 hands over the samples. */
template <typename Emit>
__device__ __forceinline__ void
blur_fragment (const Frame &frame, const cvcore_foveate_plan &plan,
    const float *bank, int f, int c, int x0, int y0, int w, int h, float *rows,
    unsigned char *tile, Emit emit)
{
  const int nc = frame.channels;

  if (f == 0) {
    for (int i = threadIdx.x; i < w * h; i += kThreads) {
      const int y = y0 + i / w, x = x0 + i % w;

      emit (y, x, byte_to_float (frame.src[y * frame.src_pitch + x * nc + c]));
    }
    return;
  }

  const int r = plan.radius[f], taps = 2 * r + 1;
  const float *tap = bank + plan.offset[f];
  const int th = h + 2 * r, stride = frame.strip;
  const int hq = (h + kGroup - 1) / kGroup;

  for (int sx = 0; sx < w; sx += stride) {
    const int sw = min (stride, w - sx), tw = sw + 2 * r;
    const int wq = (sw + kGroup - 1) / kGroup;

    for (int band = 0; band < th; band += frame.band) {
      const int bh = min (frame.band, th - band);

      /* The previous pass is done with the shared arrays. */
      __syncthreads ();
      for (int i = threadIdx.x; i < tw * bh; i += kThreads) {
        const int ty = i / tw, tx = i - ty * tw;
        const int sy = cv_clamp_index (y0 - r + band + ty, plan.height);
        const int sxx = cv_clamp_index (x0 + sx - r + tx, plan.width);

        tile[i] = frame.src[sy * frame.src_pitch + sxx * nc + c];
      }
      __syncthreads ();
      /* Rows: kGroup neighbouring outputs per thread, so each tile sample
       * read serves kGroup multiply-adds (each output's sum still runs
       * over the taps in order, as on the CPU). Reads past the row's end
       * feed outputs past the strip, which are not stored. */
      for (int i = threadIdx.x; i < bh * wq; i += kThreads) {
        const int ty = i / wq, x = (i - ty * wq) * kGroup;
        const unsigned char *p = tile + ty * tw + x;
        float acc[kGroup];

        sliding_sums (tap, taps, acc,
            [p] (int i) { return byte_to_float (p[i]); });
#pragma unroll
        for (int j = 0; j < kGroup; j++)
          if (x + j < sw)
            rows[(band + ty) * stride + x + j] = acc[j];
      }
    }
    __syncthreads ();
    /* Columns: kGroup outputs stacked per thread, likewise. */
    for (int i = threadIdx.x; i < hq * sw; i += kThreads) {
      const int y = i / sw * kGroup, x = i % sw;
      const float *p = rows + y * stride + x;
      float acc[kGroup];

      sliding_sums (tap, taps, acc,
          [p, stride] (int i) { return p[i * stride]; });
#pragma unroll
      for (int j = 0; j < kGroup; j++)
        if (y + j < h)
          emit (y0 + y + j, x0 + sx + x, acc[j]);
    }
  }
}

/* Writes @count taps of @chunk to @bank. */
__global__ void
copy_taps (const __grid_constant__ TapChunk chunk, float *bank, int count)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x)
    bank[i] = chunk.taps[i];
}

/* The bank is @param's own (@kParamBank), or in device memory at
 * frame.bank. */
template <bool kParamBank>
__global__ void
__launch_bounds__ (kThreads)
    foveate_fragments (Frame frame, const __grid_constant__ ParamPlan param)
{
  extern __shared__ float4 shared[];
  const cvcore_foveate_plan &plan = param.plan ();
  const int size = plan.fragment;
  const int bx = plan.origin_x + blockIdx.x * size;
  const int by = plan.origin_y + blockIdx.y * size;
  const int x0 = max (bx, 0), y0 = max (by, 0);
  const int w = min (bx + size, plan.width) - x0;
  const int h = min (by + size, plan.height) - y0;
  const int blur_filter = cv_foveate_filter (&plan, blockIdx.x, blockIdx.y);
  const int nc = frame.channels;
  float *sums = reinterpret_cast<float *> (shared);
  float *rows = sums + size * size;
  unsigned char *tile = reinterpret_cast<unsigned char *> (
      rows + (size + 2 * plan.max_radius + kGroup - 1) * frame.strip);
  const float *bank = kParamBank ? plan.taps : frame.bank;

  for (int c = 0; c < nc; c++) {
    const bool blur = frame.mask >> c & 1;
    unsigned char *dst = frame.dst + c;

    if (!blur || !plan.smooth) {
      blur_fragment (frame, plan, bank, blur ? blur_filter : 0, c, x0, y0, w, h,
          rows, tile, [&] (int y, int x, float v) {
            dst[y * frame.dst_pitch + x * nc] =
                (unsigned char) cv_foveate_round (v);
          });
      continue;
    }
    /* smooth: every filter the fragment's pixels blend, weighted, summed
     * in filter order per pixel (each pixel has one thread per filter) */
    int lo, hi;

    cv_foveate_blend_range (&plan, x0, y0, x0 + w, y0 + h, &lo, &hi);
    __syncthreads ();
    for (int i = threadIdx.x; i < size * size; i += kThreads)
      sums[i] = 0.0f;
    __syncthreads ();
    for (int f = lo; f <= hi; f++) {
      blur_fragment (frame, plan, bank, f, c, x0, y0, w, h, rows, tile,
          [&] (int y, int x, float v) {
            sums[(y - y0) * size + x - x0] +=
                cv_foveate_blend_weight (&plan, x, y, f) * v;
          });
      __syncthreads ();
    }
    for (int i = threadIdx.x; i < w * h; i += kThreads) {
      const int y = y0 + i / w, x = x0 + i % w;

      dst[y * frame.dst_pitch + x * nc] =
          (unsigned char) cv_foveate_round (sums[(y - y0) * size + x - x0]);
    }
  }
}

/* The shared memory of a launch: smooth mode's sums and the rows of a
 * strip of @strip columns, with room for the reads past their end that
 * the output groups make, then the tile in bands of *@band rows (the
 * whole tile where it fits); 0 when not even 8 rows (or the whole tile)
 * fit. */
size_t
shared_bytes (const cvcore_foveate_plan *plan, size_t available, int strip,
    int *band)
{
  const int span = plan->fragment + 2 * plan->max_radius;
  const int tile_w = strip + 2 * plan->max_radius;
  const size_t fixed = ((size_t) (span + kGroup - 1) * strip
                           + (size_t) plan->fragment * plan->fragment)
          * sizeof (float)
      + kGroup;
  const size_t room = available > fixed ? available - fixed : 0;
  const size_t rows = room / tile_w;

  *band = rows < (size_t) span ? (int) rows : span;
  if (*band < 8 && *band < span)
    return 0;
  return fixed + (size_t) *band * tile_w;
}

} /* namespace */

/* @mma_shared: mma_shared_bytes () of the plane */
static cvcore_status
foveate_plane (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned channel_mask,
    const cvcore_foveate_plan *plan, size_t mma_shared)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  cudaStream_t cs = cv_cuda_stream (stream);
  const bool param_bank = plan->n_taps <= CVCORE_FOVEATE_PARAM_TAPS;
  size_t shared = 0;
  int strip, band = 0;
  Frame frame;
  ParamPlan param;
  float *bank = nullptr;

  if (mma_shared > 0)
    return cv_foveate::launch_mma (stream, src, dst, channel_mask, plan,
        mma_shared);
  param.set (plan, param_bank ? plan->n_taps : 0);
  /* the widest strip of columns whose rows fit */
  for (strip = plan->fragment; strip >= kGroup; strip /= 2) {
    shared = shared_bytes (plan, device->shared_per_block_optin, strip, &band);
    if (shared > 0)
      break;
  }
  if (shared == 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation rows exceed the device's shared memory (filters of "
        "radius %d with %d-pixel fragments)",
        plan->max_radius, plan->fragment);

  frame.src = static_cast<const unsigned char *> (src->data);
  frame.dst = static_cast<unsigned char *> (dst->data);
  frame.src_pitch = src->pitch;
  frame.dst_pitch = dst->pitch;
  frame.channels = src->channels;
  frame.mask = channel_mask;
  frame.strip = strip;
  frame.band = band;

  CUDA_BIND (device);
  if (!param_bank) {
    CUDA_TRY (
        cudaMallocAsync ((void **) &bank, plan->n_taps * sizeof (float), cs));
    for (int i = 0; i < plan->n_taps; i += kChunkTaps) {
      const int count =
          plan->n_taps - i < kChunkTaps ? plan->n_taps - i : kChunkTaps;
      TapChunk chunk;

      memcpy (chunk.taps, plan->taps + i, count * sizeof (float));
      copy_taps<<<(count + 255) / 256, 256, 0, cs>>> (chunk, bank + i, count);
      CV_CUDA_LAUNCHED ();
    }
  }
  frame.bank = bank;
  {
    void (*kernel) (Frame, const ParamPlan) =
        param_bank ? foveate_fragments<true> : foveate_fragments<false>;

    CV_TRY (cv_cuda_use_shared (device, kernel, shared, "foveation tile"));
    kernel<<<dim3 (plan->grid_w, plan->grid_h), kThreads, shared, cs>>> (frame,
        param);
    CV_CUDA_LAUNCHED ();
  }
  /* freed once the launch is done with it */
  if (bank)
    CUDA_TRY (cudaFreeAsync (bank, cs));
  return CVCORE_OK;
}

extern "C" cvcore_status
cv_foveate_cuda (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned channel_mask,
    const cvcore_foveate_plan *plan)
{
  return foveate_plane (stream, src, dst, channel_mask, plan,
      cv_foveate::mma_shared_bytes (cvcore_stream_device (stream), plan, src,
          dst, channel_mask));
}

extern "C" cvcore_status
cv_foveate_cuda_luma_chroma (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, const unsigned *channel_masks,
    const cvcore_foveate_plan *const *plans)
{
  const cvcore_device *device = cvcore_stream_device (stream);
  size_t shared[2];

  for (int p = 0; p < 2; p++)
    shared[p] = cv_foveate::mma_shared_bytes (device, plans[p], &src[p],
        &dst[p], channel_masks[p]);
  if (cv_foveate::mma_luma_chroma_fits (src, plans, shared))
    return cv_foveate::launch_mma_luma_chroma (stream, src, dst, plans, shared);
  for (int p = 0; p < 2; p++)
    CV_TRY (foveate_plane (stream, &src[p], &dst[p], channel_masks[p], plans[p],
        shared[p]));
  return CVCORE_OK;
}
