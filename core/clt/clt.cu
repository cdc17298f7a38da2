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

/* The complex lapped transform on CUDA.
 *
 * clt_process: one warp per 16x16 tile, four tiles per block. The warp
 * loads its windowed tile into shared memory; 32 lanes then run the 32
 * horizontal 8-point transforms (16 rows x MDCT/MDST), the 32 vertical
 * ones (8 columns x 4 layers: each lane ends holding the 8 coefficients of
 * one column of one layer), the operation (the four layers of a frequency
 * sit in lanes k, k + 8, k + 16, k + 24, one shuffle apart), and the
 * inverse back through the same stages. The tile's 16x16 result goes, as
 * four 8x8 quadrants, to four quadrant planes: every tile writes its own
 * place, so overlapping tiles never race. clt_overlap_add then sums, per
 * pixel, the four quadrants that cover it and stores the samples (four
 * pixels a thread where the result has one channel). A
 * mosaic's colours are first interpolated into an interleaved colour image
 * (clt_demosaic), which the tiles load like any other; the overlap-add
 * then gives each site its own colour's result, writes RGBA, or sums the
 * colours' grey picture. Sparse mosaics go through clt-sparse.cu instead
 * of the first two steps.
 *
 * DST-IV runs as the DCT-IV of the reversed input with odd outputs
 * negated, so lanes doing MDCT and MDST run the same instructions. */
#include "clt-device.cuh"
#include "clt-private.h"
#include "launch.cuh"

namespace {

constexpr int kTilesPerBlock = 4;
constexpr int kThreads = 32 * kTilesPerBlock;

/* Channels a launch processes: image channel and kernel-set channel of
 * each processed one, a byte each (packed: indexing an array by blockIdx
 * would put the parameter on the stack). */
struct Channels
{
  int count;
  unsigned image, kernel;
  unsigned mask;

  __device__ __forceinline__ int
  image_of (int i) const
  {
    return image >> (8 * i) & 0xff;
  }
  __device__ __forceinline__ int
  kernel_of (int i) const
  {
    return kernel >> (8 * i) & 0xff;
  }
};

__global__ void
__launch_bounds__ (kThreads) clt_process (Image src, Plan p, Channels channels,
    Kernels kernels, float *planes, size_t pitch)
{
  __shared__ TileShared shared[kTilesPerBlock];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tile = blockIdx.x * kTilesPerBlock + warp;
  const int ch = blockIdx.y;
  const int tx = tile % p.tiles_x, ty = tile / p.tiles_x;
  float coef[8];

  if (ty >= p.tiles_y)
    return;
  plan_windows (p, shared[warp].wx, shared[warp].wy, lane);
  forward (src, channels.image_of (ch), p.width, p.height,
      cv_clt_tile_start (tx) - p.offset_x, cv_clt_tile_start (ty) - p.offset_y,
      shared[warp], lane, coef);
  operate (p, kernels, channels.kernel_of (ch), tx, ty, lane, coef);
  inverse (p,
      reinterpret_cast<float *> (reinterpret_cast<char *> (planes)
          + (size_t) ch * 4 * p.tiles_y * 8 * pitch),
      pitch, tx, ty, shared[warp].v, lane, coef);
}

__global__ void
__launch_bounds__ (kThreads)
    clt_forward (Image src, int c, Plan p, float *coefficients)
{
  __shared__ TileShared shared[kTilesPerBlock];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tile = blockIdx.x * kTilesPerBlock + warp;
  float coef[8];
  float *out;

  if (tile >= p.tiles_x * p.tiles_y)
    return;
  plan_windows (p, shared[warp].wx, shared[warp].wy, lane);
  forward (src, c, p.width, p.height, 8 * (tile % p.tiles_x) - 8 - p.offset_x,
      8 * (tile / p.tiles_x) - 8 - p.offset_y, shared[warp], lane, coef);
  out = coefficients + (size_t) tile * CVCORE_CLT_COEFFICIENTS
      + (lane >> 3) * 64 + (lane & 7);
#pragma unroll
  for (int l = 0; l < 8; l++)
    out[8 * l] = coef[l];
}

/* Where quadrant @q of processed plane @ch holds pixel (@x, @y): tile
 * (x / 8 + 1 - qx, y / 8 + 1 - qy)'s quadrant (qx, qy). */
__device__ __forceinline__ const float *
quadrant_at (const float *planes, size_t pitch, const Plan &p, int ch, int q,
    int x, int y)
{
  const size_t plane_rows = (size_t) p.tiles_y * 8;
  const int qy = q >> 1, qx = q & 1;

  return reinterpret_cast<const float *> (
             reinterpret_cast<const char *> (planes)
             + ((size_t) (ch * 4 + q) * plane_rows + y + 8 - 8 * qy) * pitch)
      + x + 8 - 8 * qx;
}

/* The sum of the four quadrants of processed plane @ch that cover pixel
 * (x, y). */
__device__ __forceinline__ float
quadrant_sum (const float *planes, size_t pitch, const Plan &p, int ch, int x,
    int y)
{
  float sum = 0.0f;

#pragma unroll
  for (int q = 0; q < 4; q++)
    sum += *quadrant_at (planes, pitch, p, ch, q, x, y);
  return sum;
}

/* quadrant_sum () of pixels @x .. @x + 3 (@x a multiple of 4), each summed
 * in the same order, from 16-byte loads: every plane holds 8 columns past
 * the frame's last, and its rows start 16-byte aligned. */
__device__ __forceinline__ float4
quadrant_sum4 (const float *planes, size_t pitch, const Plan &p, int ch, int x,
    int y)
{
  float4 sum = make_float4 (0.0f, 0.0f, 0.0f, 0.0f);

#pragma unroll
  for (int q = 0; q < 4; q++) {
    const float4 v = *reinterpret_cast<const float4 *> (
        quadrant_at (planes, pitch, p, ch, q, x, y));

    sum.x += v.x;
    sum.y += v.y;
    sum.z += v.z;
    sum.w += v.w;
  }
  return sum;
}

/* clt_overlap_add () where the result has one channel (a grey picture, a
 * mosaic, a grey frame), four pixels a thread: the overlap-add reads four
 * floats for each sample it writes, and wider loads keep more of them in
 * flight. */
__global__ void
clt_overlap_add_single (Image dst, Plan p, Channels channels,
    const float *planes, size_t pitch)
{
  const int x = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v[4];

  if (x >= p.width || y >= p.height)
    return;
  if (p.grey && !p.sparse) {
#pragma unroll
    for (int j = 0; j < 4; j++)
      v[j] = 0.0f;
    for (int i = 0; i < channels.count; i++) {
      const float w = p.grey_weight[channels.image_of (i)];
      const float4 s = quadrant_sum4 (planes, pitch, p, i, x, y);

      v[0] += w * s.x;
      v[1] += w * s.y;
      v[2] += w * s.z;
      v[3] += w * s.w;
    }
  } else {
    /* a mosaic's sites alternate between two colours along a row */
    const int even =
        p.bayer && !p.grey ? cv_clt_bayer_colour (p.bayer, x, y) : 0;
    const int odd =
        p.bayer && !p.grey ? cv_clt_bayer_colour (p.bayer, x + 1, y) : 0;
    const float4 a = quadrant_sum4 (planes, pitch, p, even, x, y);
    const float4 b =
        odd == even ? a : quadrant_sum4 (planes, pitch, p, odd, x, y);

    v[0] = a.x;
    v[1] = b.y;
    v[2] = a.z;
    v[3] = b.w;
  }
  {
    unsigned char *out =
        dst.data + y * dst.pitch + (size_t) x * (dst.wide ? 2 : 1);
    const bool aligned =
        (reinterpret_cast<uintptr_t> (out) & (dst.wide ? 7 : 3)) == 0;

    if (x + 4 <= p.width && aligned && dst.wide) {
      *reinterpret_cast<uint2 *> (out) =
          make_uint2 (dst.quantise (v[0]) | dst.quantise (v[1]) << 16,
              dst.quantise (v[2]) | dst.quantise (v[3]) << 16);
    } else if (x + 4 <= p.width && aligned) {
      *reinterpret_cast<unsigned *> (out) = dst.quantise (v[0])
          | dst.quantise (v[1]) << 8 | dst.quantise (v[2]) << 16
          | dst.quantise (v[3]) << 24;
    } else {
      for (int j = 0; j < 4 && x + j < p.width; j++)
        dst.store (x + j, y, 0, v[j]);
    }
  }
}

/* Each pixel of a result of several channels: the four quadrants that
 * cover it, or the source sample for channels that are not processed;
 * from a mosaic, RGBA. */
__global__ void
clt_overlap_add (Image src, Image dst, Plan p, Channels channels,
    const float *planes, size_t pitch)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  int ch = 0;

  if (x >= p.width || y >= p.height)
    return;
  if (p.bayer) {
    for (int c = 0; c < 3; c++)
      dst.store (x, y, c, quadrant_sum (planes, pitch, p, c, x, y));
    dst.store (x, y, 3, 65535.0f);
    return;
  }
  for (int c = 0; c < src.channels; c++) {
    if (channels.mask >> c & 1)
      dst.store (x, y, c, quadrant_sum (planes, pitch, p, ch++, x, y));
    else
      dst.store (x, y, c, src.at (x, y, c));
  }
}

/* A mosaic's three colours, interpolated, into an interleaved
 * four-channel image of the same sample size (the fourth unused), which
 * the tiles then load as any colour image. */
__global__ void
clt_demosaic (Image src, Image colours, int width, int height, unsigned pattern)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;
  for (int c = 0; c < 3; c++)
    colours.store (x, y, c,
        cv_clt_bayer_sample (src.data, src.pitch, src.wide, width, height,
            pattern, x, y, c));
  colours.store (x, y, 3, 0.0f);
}

} /* namespace */

static cvcore_status
launch (cvcore_stream *stream, const cvcore_image *src, const cvcore_image *dst,
    const cvcore_clt_params *params, const cv_clt_plan *plan, float *planes,
    size_t plane_pitch, const float *kernel_data,
    const cvcore_clt_kernel_set *set, const cvcore_image *colours)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const Plan p = device_plan (plan);
  /* tiles of a mosaic load its interpolated colours */
  Plan tile_plan = p;
  Image tile_src = device_image (colours ? colours : src);
  const int tiles = p.tiles_x * p.tiles_y;
  const dim3 block (32, 8);
  Channels channels = {};
  Kernels kernels = { kernel_data, set->stride, set->nodes_x, set->nodes_y };

  CUDA_BIND (cvcore_stream_device (stream));
  /* a mosaic's three colours (those that its grey picture weighs), or the
   * processed channels */
  channels.mask =
      params->bayer ? 0x7 : params->channel_mask & ((1u << src->channels) - 1);
  for (int c = 0; c < 3 && plan->grey; c++)
    if (plan->grey_weight[c] == 0.0)
      channels.mask &= ~(1u << c);
  for (int c = 0; c < (params->bayer ? 3 : src->channels); c++)
    if (channels.mask >> c & 1) {
      channels.image |= (unsigned) c << (8 * channels.count);
      channels.kernel |= (unsigned) (set->channels != 3 ? 0
                                 : params->bayer        ? c
                                                 : params->kernel_channel[c])
          << (8 * channels.count);
      channels.count++;
    }
  if (plan->sparse) {
    const cvcore_status status = cv_clt_sparse_cuda (stream, src, plan, planes,
        plane_pitch, kernel_data, set);

    if (status != CVCORE_OK)
      return status;
  } else {
    if (colours) {
      clt_demosaic<<<dim3 ((p.width + block.x - 1) / block.x,
                         (p.height + block.y - 1) / block.y),
          block, 0, cs>>> (device_image (src), tile_src, p.width, p.height,
          p.bayer);
      CV_CUDA_LAUNCHED ();
      tile_plan.bayer = 0;
    }
    if (channels.count > 0) {
      clt_process<<<dim3 ((tiles + kTilesPerBlock - 1) / kTilesPerBlock,
                        channels.count),
          kThreads, 0, cs>>> (tile_src, tile_plan, channels, kernels, planes,
          plane_pitch);
      CV_CUDA_LAUNCHED ();
    }
  }
  if (dst->channels == 1 && (plan->grey || params->bayer || channels.count))
    clt_overlap_add_single<<<dim3 ((p.width + 4 * block.x - 1) / (4 * block.x),
                                 (p.height + block.y - 1) / block.y),
        block, 0, cs>>> (device_image (dst), p, channels, planes, plane_pitch);
  else
    clt_overlap_add<<<dim3 ((p.width + block.x - 1) / block.x,
                          (p.height + block.y - 1) / block.y),
        block, 0, cs>>> (device_image (src), device_image (dst), p, channels,
        planes, plane_pitch);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}

extern "C" cvcore_status
cv_clt_cuda (cvcore_stream *stream, cvcore_clt_scratch *clt,
    const cvcore_image *src, const cvcore_image *dst,
    const cvcore_clt_params *params, const cv_clt_plan *plan)
{
  cvcore_image colours = { NULL, 0, src->width, src->height, 4, src->sample };

  /* a mosaic's colours, interpolated, as 4 samples of up to 16 bits */
  if (params->bayer && params->mosaic_method == CVCORE_CLT_MOSAIC_INTERPOLATE
      && clt->colours == NULL)
    CV_TRY (cvcore_plane_alloc (clt->device,
        4 * sizeof (uint16_t) * (size_t) src->width, src->height, &clt->colours,
        &clt->colours_pitch));
  colours.data = clt->colours;
  colours.pitch = clt->colours_pitch;
  return launch (stream, src, dst, params, plan, (float *) clt->planes,
      clt->plane_pitch, clt->kernels, &clt->set,
      params->bayer && !plan->sparse ? &colours : NULL);
}

extern "C" cvcore_status
cv_clt_forward_cuda (cvcore_stream *stream, const cvcore_image *src,
    int channel, const cv_clt_plan *plan, float *coefficients)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const Plan p = device_plan (plan);
  const int tiles = p.tiles_x * p.tiles_y;

  CUDA_BIND (cvcore_stream_device (stream));
  clt_forward<<<(tiles + kTilesPerBlock - 1) / kTilesPerBlock, kThreads, 0,
      cs>>> (device_image (src), channel, p, coefficients);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
