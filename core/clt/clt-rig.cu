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

/* A rig's correlation on CUDA: one warp per tile, every pass in one
 * launch. Each pass transforms every view's tile into shared memory;
 * each lane then forms, pair by pair, the cross-power spectrum at two
 * frequencies and adds its four terms to the combined surface at every
 * sample of the search, held in registers. The warp sums the samples,
 * takes the first maximum, and refines it by Newton steps, summing each
 * lane's terms of the surface's derivatives. */
#include "clt-device.cuh"
#include "clt-private.h"
#include "clt-rig-common.h"
#include "launch.cuh"

#include <math_constants.h>

namespace {

constexpr int kRigTilesPerBlock = 2;
constexpr int kHalfSamples = CV_CLT_RIG_SAMPLES / 2;

struct RigViews
{
  Image view[CVCORE_CLT_MAX_VIEWS];
};

struct RigShared
{
  float weight[64]; /* the lowpass's, per frequency */
  struct
  {
    TileShared tile;
    float coef[CVCORE_CLT_MAX_VIEWS][CVCORE_CLT_COEFFICIENTS];
  } warp[kRigTilesPerBlock];
};

__device__ __forceinline__ float
rig_warp_sum (float v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  return v;
}

/* This lane's terms of the combined surface at residual disparity @d,
 * with its first and second derivatives. */
__device__ __forceinline__ void
rig_terms (const cv_clt_rig &rig, const float (*coef)[CVCORE_CLT_COEFFICIENTS],
    const float *weight, float scale, float fat_zero, int lane, float d,
    float *c, float *g, float *h)
{
  *c = *g = *h = 0.0f;
  for (int p = 0; p < rig.pairs; p++) {
    int i, j;

    cv_clt_rig_pair (&rig, p, &i, &j);
#pragma unroll
    for (int half = 0; half < 2; half++) {
      const int f = lane + 32 * half;
      float r[2][2];

      cv_clt_cross_power (coef[i], coef[j], f, scale, fat_zero, weight[f], r[0],
          r[1]);
#pragma unroll
      for (int s = 0; s < 2; s++) {
        const float phase = cv_clt_rig_phase (&rig, i, j, f, s);
        const float k = CUDART_PI_F * phase;
        float sn, cs;

        sincospif (phase * d, &sn, &cs);
        const float v = r[s][0] * cs - r[s][1] * sn;
        const float w = r[s][0] * sn + r[s][1] * cs;

        *c += v;
        *g -= w * k;
        *h -= v * k * k;
      }
    }
  }
}

/* The residual disparity of one pass within @samples steps each way, and
 * the surface's peak there in *@peak. */
__device__ __forceinline__ float
rig_pass (const cv_clt_rig &rig, const float (*coef)[CVCORE_CLT_COEFFICIENTS],
    const float *weight, float scale, float fat_zero, int samples, int lane,
    float *peak)
{
  float acc[CV_CLT_RIG_SAMPLES];
  float best = -1e30f, d;
  int best_k = 0;

#pragma unroll
  for (int k = 0; k < CV_CLT_RIG_SAMPLES; k++)
    acc[k] = 0.0f;
  for (int p = 0; p < rig.pairs; p++) {
    int i, j;

    cv_clt_rig_pair (&rig, p, &i, &j);
#pragma unroll
    for (int half = 0; half < 2; half++) {
      const int f = lane + 32 * half;
      float r[2][2];

      cv_clt_cross_power (coef[i], coef[j], f, scale, fat_zero, weight[f], r[0],
          r[1]);
#pragma unroll
      for (int s = 0; s < 2; s++) {
        const float phase = cv_clt_rig_phase (&rig, i, j, f, s) * rig.step;

#pragma unroll
        for (int k = 0; k < CV_CLT_RIG_SAMPLES; k++) {
          float sn, cs;

          if (abs (k - kHalfSamples) > samples)
            continue;
          sincospif (phase * (float) (k - kHalfSamples), &sn, &cs);
          acc[k] += r[s][0] * cs - r[s][1] * sn;
        }
      }
    }
  }
  /* the first maximum in the samples' order, as the reference takes it */
#pragma unroll
  for (int k = 0; k < CV_CLT_RIG_SAMPLES; k++) {
    float v;

    if (abs (k - kHalfSamples) > samples)
      continue;
    v = rig_warp_sum (acc[k]);
    if (v > best) {
      best = v;
      best_k = k - kHalfSamples;
    }
  }
  d = best_k * rig.step;
  for (int it = 0; it <= CV_CLT_NEWTON_STEPS; it++) {
    float c, g, h;

    rig_terms (rig, coef, weight, scale, fat_zero, lane, d, &c, &g, &h);
    if (it == CV_CLT_NEWTON_STEPS) {
      *peak = rig_warp_sum (c) / (128.0f * rig.pairs);
      break;
    }
    g = rig_warp_sum (g);
    h = rig_warp_sum (h);
    if (!(h < 0.0f)) {
      /* not near a maximum: stay, and still measure the peak */
      it = CV_CLT_NEWTON_STEPS - 1;
      continue;
    }
    d += fmaxf (-rig.step, fminf (rig.step, -g / h));
  }
  return d;
}

/* The combined surface in 2-D around residual disparity @d into @out
 * (cvcore_clt_rig_correlate), a row at a time: each lane adds its terms to
 * the row's samples, the warp sums them and lane i writes sample i. */
__device__ __forceinline__ void
rig_surface_2d (const cv_clt_rig &rig,
    const float (*coef)[CVCORE_CLT_COEFFICIENTS], const float *weight,
    float scale, float fat_zero, int lane, float d, float *out)
{
  constexpr int side = CVCORE_CLT_RIG_SURFACE, middle = side / 2;

  for (int j = 0; j < side; j++) {
    const float v = (j - middle) * rig.step;
    float acc[side];

#pragma unroll
    for (int i = 0; i < side; i++)
      acc[i] = 0.0f;
    for (int p = 0; p < rig.pairs; p++) {
      int a, b;

      cv_clt_rig_pair (&rig, p, &a, &b);
#pragma unroll
      for (int half = 0; half < 2; half++) {
        const int f = lane + 32 * half;
        float r[2][2];

        cv_clt_cross_power (coef[a], coef[b], f, scale, fat_zero, weight[f],
            r[0], r[1]);
#pragma unroll
        for (int s = 0; s < 2; s++) {
          const float along = cv_clt_rig_phase (&rig, a, b, f, s);
          const float across = cv_clt_rig_phase_across (&rig, a, b, f, s);

#pragma unroll
          for (int i = 0; i < side; i++) {
            float sn, cs;

            sincospif ((d + (i - middle) * rig.step) * along + v * across, &sn,
                &cs);
            acc[i] += r[s][0] * cs - r[s][1] * sn;
          }
        }
      }
    }
#pragma unroll
    for (int i = 0; i < side; i++) {
      const float sum = rig_warp_sum (acc[i]);

      if (lane == i)
        out[j * side + i] = sum / (128.0f * rig.pairs);
    }
  }
}

__global__ void __launch_bounds__ (32 * kRigTilesPerBlock)
    clt_rig_correlate (RigViews views, int c, int width, int height,
        cv_clt_rig rig, float scale, float fat_zero, float spread, int radius,
        int refinements, float initial, bool guided, bool keep_left_frame,
        cvcore_clt_match *matches, float *surfaces)
{
  __shared__ RigShared s;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tiles_x = cv_clt_tiles (width);
  const int tile = blockIdx.x * kRigTilesPerBlock + warp;
  const int tx = tile % tiles_x, ty = tile / tiles_x;
  float (*coef)[CVCORE_CLT_COEFFICIENTS] = s.warp[warp].coef;
  float d, residual = 0.0f, peak = 0.0f;

  if (threadIdx.x < 64)
    s.weight[threadIdx.x] = cv_clt_lowpass_weight (threadIdx.x, spread);
  __syncthreads ();
  if (tile >= tiles_x * cv_clt_tiles (height))
    return;
  d = guided ? matches[tile].dx : initial;
  for (int pass = 0; pass <= refinements; pass++) {
    for (int v = 0; v < rig.views; v++) {
      float m[2];

      cv_clt_rig_motion (&rig, v, d, m);
      transform_moved (views.view[v], c, width, height, tx, ty, m,
          s.warp[warp].tile, coef[v], lane);
    }
    residual = rig_pass (rig, coef, s.weight, scale, fat_zero,
        pass ? 2 : 2 * radius, lane, &peak);
    d += residual;
    __syncwarp ();
  }
  if (surfaces)
    rig_surface_2d (rig, coef, s.weight, scale, fat_zero, lane, residual,
        surfaces
            + (size_t) tile * CVCORE_CLT_RIG_SURFACE * CVCORE_CLT_RIG_SURFACE);
  if (lane == 0) {
    matches[tile].dx = d;
    matches[tile].dy = 0.0f;
    matches[tile].confidence =
        cv_clt_rig_kept (&rig, tx, ty, d, width, height, keep_left_frame)
        ? peak
        : 0.0f;
  }
}

} /* namespace */

extern "C" cvcore_status
cv_clt_rig_correlate_cuda (cvcore_stream *stream, const cvcore_image *views,
    int channel, const cvcore_clt_rig *in, const cvcore_clt_corr_params *params,
    cvcore_clt_match *matches, float *surfaces)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int width = views[0].width, height = views[0].height;
  const int tiles = cv_clt_tiles (width) * cv_clt_tiles (height);
  RigViews images = {};
  cv_clt_rig rig;

  cv_clt_rig_init (&rig, in, cvcore_clt_rig_longest (in));
  for (int v = 0; v < in->views; v++)
    images.view[v] = device_image (&views[v]);
  CUDA_BIND (cvcore_stream_device (stream));
  clt_rig_correlate<<<(tiles + kRigTilesPerBlock - 1) / kRigTilesPerBlock,
      32 * kRigTilesPerBlock, 0, cs>>> (images, channel, width, height, rig,
      (float) (1.0 / params->full_scale), (float) params->fat_zero,
      (float) (0.5 * params->lowpass * params->lowpass), params->search_radius,
      params->refinements, (float) params->initial_x, params->guided,
      params->keep_left_frame, matches, surfaces);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
