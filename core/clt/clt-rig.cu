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
 * launch. Each pass transforms every view's tile into shared memory (view
 * 0's in the first only: it does not move); each lane then forms, pair by
 * pair, the cross-power spectrum at two frequencies and sums it into its
 * baseline's group (pairs of one baseline have the same phases), in
 * shared memory. The search adds each group's four terms to the combined
 * surface at every sample, held in registers, turning each term's phase
 * sample by sample rather than evaluating it again. The warp sums the
 * samples, takes the first maximum, and refines it by Newton steps,
 * summing each lane's terms of the surface's derivatives. A term's phase
 * is a horizontal part times a vertical one, and each lane evaluates one
 * part of two groups for the whole warp.
 *
 * On a rig whose baselines are small whole numbers, such as the square
 * quad, the terms take few distinct phases: the quad's 512 take 24. There
 * each lane first sums the terms of one phase (a term at phase -k is its
 * conjugate's at k), and the search and the Newton steps evaluate one
 * term a lane instead of sixteen. */
#include "clt-device.cuh"
#include "clt-private.h"
#include "clt-rig-common.h"
#include "launch.cuh"

#include <math_constants.h>

namespace {

/* four warps a block: faster than two by 3 % on the seed's quad (H200),
 * and at least two, so that a block's threads fill the 64 weights */
constexpr int kRigTilesPerBlock = 4;
static_assert (32 * kRigTilesPerBlock >= 64, "a weight per thread");
/* what a block may take without raising its kernel's attribute */
constexpr size_t kDefaultSharedBytes = 48 * 1024;
constexpr int kHalfSamples = CV_CLT_RIG_SAMPLES / 2;
/* floats per group and lane: two frequencies, two components, complex */
constexpr int kGroupTerms = 8;

/* The most distinct phases that the bins hold, a lane each, and the
 * most groups whose terms they list (the list goes to the kernel as a
 * parameter, so it is kept small). */
constexpr int kMaxBins = 32;
constexpr int kMaxBinGroups = 8;
constexpr int kGroupTermCount = 128;
/* a term's mark in a bin's list: conjugated, it has phase -k */
constexpr unsigned short kConjugated = 0x8000;

/* Each bin's phase per unit of residual disparity (units of pi, not
 * negative) and where its terms start in the list: bin b's are
 * term[first[b]] up to term[first[b + 1]]. */
struct RigBinEnds
{
  float phase[kMaxBins];
  unsigned short first[kMaxBins + 1];
};

/* The terms of one phase: @ends, and the list, each term (4 g + 2 half +
 * s) 32 + lane in the spectra's order, kConjugated set where its own
 * phase is the bin's negated. No bins (count 0) where the terms take more
 * phases or come from more groups than that: the groups' path takes those
 * rigs. */
struct RigBins
{
  int count;
  /* copied to shared memory by the kernel: the kernel's parameters serve
   * lanes that read different addresses one at a time */
  RigBinEnds ends;
  /* aligned for the kernel's copy of it in words */
  alignas (4) unsigned short term[kMaxBinGroups * kGroupTermCount];
};

struct RigViews
{
  Image view[CVCORE_CLT_MAX_VIEWS];
};

struct RigShared
{
  float weight[64]; /* the lowpass's, per frequency */
  RigBinEnds bins;
  TileShared tile[kRigTilesPerBlock];
};

/* A warp's part of the dynamic shared memory, sized by the rig: its
 * views' coefficients, then its summed spectra, term t of group g of lane
 * l at [(g * kGroupTerms + t) * 32 + l], each lane its own. */
__host__ __device__ constexpr size_t
rig_warp_floats (int views, int groups)
{
  return (size_t) views * CVCORE_CLT_COEFFICIENTS
      + (size_t) groups * kGroupTerms * 32;
}

__device__ __forceinline__ float
rig_warp_sum (float v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  return v;
}

/* This lane's cross-power spectra of every pair, summed by group into
 * @spectra. */
__device__ __forceinline__ void
rig_spectra (const cv_clt_rig &rig,
    const float (*coef)[CVCORE_CLT_COEFFICIENTS], const float *weight,
    float scale, float fat_zero, int lane, float *spectra)
{
  for (int t = 0; t < rig.groups * kGroupTerms; t++)
    spectra[t * 32 + lane] = 0.0f;
  for (int p = 0; p < rig.pairs; p++) {
    float *sum = spectra + rig.group[p] * kGroupTerms * 32 + lane;
    int i, j;

    cv_clt_rig_pair (&rig, p, &i, &j);
#pragma unroll
    for (int half = 0; half < 2; half++) {
      const int f = lane + 32 * half;
      float r[2][2];

      cv_clt_cross_power (coef[i], coef[j], f, scale, fat_zero, weight[f], r[0],
          r[1]);
#pragma unroll
      for (int t = 0; t < 4; t++)
        sum[(half * 4 + t) * 32] += r[t >> 1][t & 1];
    }
  }
}

/* Term @half, @s of group @g: its spectrum in @r and its phase per unit
 * of residual disparity (units of pi). */
__device__ __forceinline__ float
rig_group_term (const cv_clt_rig &rig, const float *spectra, int g, int half,
    int s, int lane, float r[2])
{
  const float *sum = spectra + g * kGroupTerms * 32 + lane;

  r[0] = sum[(half * 4 + s * 2) * 32];
  r[1] = sum[(half * 4 + s * 2 + 1) * 32];
  return cv_clt_rig_baseline_phase (rig.baseline[g][0], rig.baseline[g][1],
      lane + 32 * half, s);
}

/* The phases of a term at disparity @d, pi (phase x @d), split: the
 * baseline's phase -(ux bx + uy by) gives a horizontal part pi ux bx d,
 * the same for the lanes of one k, and a vertical one pi uy by d, the
 * same for the lanes of one row l. Lane 16 h + n takes group 2 @round +
 * h's: n < 8 the horizontal part at k = n, else the vertical one at l =
 * n - 8, as (cos, sin). One sine and cosine a lane serve two groups'
 * sixteen terms, where each term took its own. */
__device__ __forceinline__ float2
rig_own_phase (const cv_clt_rig &rig, int round, float d, int lane)
{
  const int group = min (2 * round + (lane >> 4), rig.groups - 1);
  const int n = lane & 15;
  const float u = ((n & 7) + 0.5f) / 8.0f;
  float sn, cs;

  sincospif (u * rig.baseline[group][n < 8 ? 0 : 1] * d, &sn, &cs);
  return make_float2 (cs, sn);
}

/* From rig_own_phase()'s @own, the phase factors (cos, sin) of this
 * lane's terms (half, s) of group 2 round + @second: theta = -(X + Y) for
 * s = 0 and -(X - Y) for s = 1. */
__device__ __forceinline__ void
rig_term_phases (float2 own, int second, int lane, float2 out[2][2])
{
  const int base = 16 * second;
  const float cx = __shfl_sync (0xffffffffu, own.x, base + (lane & 7));
  const float sx = __shfl_sync (0xffffffffu, own.y, base + (lane & 7));

#pragma unroll
  for (int half = 0; half < 2; half++) {
    const int l = (lane >> 3) + 4 * half;
    const float cy = __shfl_sync (0xffffffffu, own.x, base + 8 + l);
    const float sy = __shfl_sync (0xffffffffu, own.y, base + 8 + l);

    out[half][0] = make_float2 (cx * cy - sx * sy, -(sx * cy + cx * sy));
    out[half][1] = make_float2 (cx * cy + sx * sy, -(sx * cy - cx * sy));
  }
}

/* Adds a term of spectrum @r and phase factor (@cs, @sn) at the first
 * sample, turned by (@step_cs, @step_sn) from one sample to the next, to
 * the samples @acc within @samples of the middle. */
template <int MOST>
__device__ __forceinline__ void
rig_add_term (float *acc, const float r[2], float cs, float sn, float step_cs,
    float step_sn, int samples)
{
#pragma unroll
  for (int k = 0; k < 2 * MOST + 1; k++) {
    float turned;

    if (abs (k - MOST) > samples)
      continue;
    acc[k] += r[0] * cs - r[1] * sn;
    turned = cs * step_cs - sn * step_sn;
    sn = sn * step_cs + cs * step_sn;
    cs = turned;
  }
}

/* A term of spectrum @r and phase factor (@cs, @sn) at some disparity,
 * whose phase per unit of it is @k (pi included): its value added to *@c,
 * its first and second derivatives to *@g and *@h. */
__device__ __forceinline__ void
rig_add_derivatives (const float r[2], float cs, float sn, float k, float *c,
    float *g, float *h)
{
  const float v = r[0] * cs - r[1] * sn;
  const float w = r[0] * sn + r[1] * cs;

  *c += v;
  *g -= w * k;
  *h -= v * k * k;
}

/* The combined surface as the groups' summed spectra hold it: each lane
 * its sixteen terms of every two groups. */
struct RigGroupSurface
{
  const cv_clt_rig &rig;
  const float *spectra;
  int lane;

  /* Calls @visit (r, k, phases, half, s) for each of this lane's terms:
   * its spectrum r, its phase per unit of residual disparity k (units of
   * pi), and its phase factors phases[i][half][s] at each disparity
   * @d[i]. */
  template <int COUNT, typename Visit>
  __device__ __forceinline__ void
  for_each_term (const float (&d)[COUNT], Visit visit) const
  {
    for (int round = 0; 2 * round < rig.groups; round++) {
      float2 own[COUNT];

#pragma unroll
      for (int i = 0; i < COUNT; i++)
        own[i] = rig_own_phase (rig, round, d[i], lane);
      for (int second = 0; second < 2; second++) {
        const int group = 2 * round + second;
        float2 phases[COUNT][2][2];

        if (group >= rig.groups)
          break;
#pragma unroll
        for (int i = 0; i < COUNT; i++)
          rig_term_phases (own[i], second, lane, phases[i]);
#pragma unroll
        for (int half = 0; half < 2; half++) {
#pragma unroll
          for (int s = 0; s < 2; s++) {
            float r[2];
            const float k =
                rig_group_term (rig, spectra, group, half, s, lane, r);

            visit (r, k, phases, half, s);
          }
        }
      }
    }
  }

  /* this lane's terms at the samples within @samples steps of the
   * middle, added to @acc: each term at the first sample, then turned a
   * step at a time */
  template <int MOST>
  __device__ __forceinline__ void
  add_samples (float *acc, int samples) const
  {
    const float d[2] = { -samples * rig.step, rig.step };

    for_each_term (d,
        [&] (const float r[2], float, const float2 (*phases)[2][2], int half,
            int s) {
          rig_add_term<MOST> (acc, r, phases[0][half][s].x,
              phases[0][half][s].y, phases[1][half][s].x, phases[1][half][s].y,
              samples);
        });
  }

  /* this lane's terms at residual disparity @d, with their first and
   * second derivatives */
  __device__ __forceinline__ void
  terms (float d, float *c, float *g, float *h) const
  {
    const float at_d[1] = { d };

    *c = *g = *h = 0.0f;
    for_each_term (at_d,
        [&] (const float r[2], float k, const float2 (*phases)[2][2], int half,
            int s) {
          rig_add_derivatives (r, phases[0][half][s].x, phases[0][half][s].y,
              CUDART_PI_F * k, c, g, h);
        });
  }
};

/* The combined surface as the bins hold it: each lane the sum of one
 * phase's terms (none past the last bin: a sum of 0). */
struct RigBinSurface
{
  float r[2];
  float phase; /* per unit of residual disparity, pi */
  float step;

  template <int MOST>
  __device__ __forceinline__ void
  add_samples (float *acc, int samples) const
  {
    float sn, cs, step_sn, step_cs;

    cv_clt_fast_sincospi (phase * (-samples * step), &sn, &cs);
    cv_clt_fast_sincospi (phase * step, &step_sn, &step_cs);
    rig_add_term<MOST> (acc, r, cs, sn, step_cs, step_sn, samples);
  }

  __device__ __forceinline__ void
  terms (float d, float *c, float *g, float *h) const
  {
    float sn, cs;

    cv_clt_fast_sincospi (phase * d, &sn, &cs);
    *c = *g = *h = 0.0f;
    rig_add_derivatives (r, cs, sn, CUDART_PI_F * phase, c, g, h);
  }
};

/* This lane's bin of the @count in @bins, its terms summed from @spectra
 * through the list @term (shared memory, as @bins), once every lane's
 * spectra are written. */
__device__ __forceinline__ RigBinSurface
rig_bin_surface (int count, const RigBinEnds &bins, const unsigned short *term,
    const float *spectra, float step, int lane)
{
  RigBinSurface bin = { { 0.0f, 0.0f }, 0.0f, step };

  if (lane >= count)
    return bin;
  bin.phase = bins.phase[lane];
  for (int i = bins.first[lane]; i < bins.first[lane + 1]; i++) {
    const int t = term[i] & ~kConjugated;
    const float *sum = spectra + 2 * (t >> 5) * 32 + (t & 31);

    bin.r[0] += sum[0];
    bin.r[1] += term[i] & kConjugated ? -sum[32] : sum[32];
  }
  return bin;
}

/* The sample of @surface within @samples (at most MOST) steps each way
 * where a pass's search finds its first maximum. The refinements' narrow
 * searches take a MOST of their own, so that they do not issue the
 * widest search's samples only to leave them out. */
template <int MOST, typename Surface>
__device__ __forceinline__ float
rig_search (const cv_clt_rig &rig, const Surface &surface, int samples)
{
  float acc[2 * MOST + 1];
  float best = -1e30f;
  int best_k = 0;

#pragma unroll
  for (int k = 0; k < 2 * MOST + 1; k++)
    acc[k] = 0.0f;
  surface.template add_samples<MOST> (acc, samples);
  /* the first maximum in the samples' order, as the reference takes it */
#pragma unroll
  for (int k = 0; k < 2 * MOST + 1; k++) {
    float v;

    if (abs (k - MOST) > samples)
      continue;
    v = rig_warp_sum (acc[k]);
    if (v > best) {
      best = v;
      best_k = k - MOST;
    }
  }
  return best_k * rig.step;
}

/* The residual disparity of a pass, by Newton steps on @surface from its
 * search's sample @d, and the surface's peak there in *@peak. */
template <typename Surface>
__device__ __forceinline__ float
rig_refine (const cv_clt_rig &rig, const Surface &surface, float d, float *peak)
{
  for (int it = 0; it <= CV_CLT_NEWTON_STEPS; it++) {
    float c, g, h;

    surface.terms (d, &c, &g, &h);
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
    /* the hardware's quotient: a step off by an ulp or two is still a
     * step, and the rounded one branches around a slow path */
    d += fmaxf (-rig.step, fminf (rig.step, __fdividef (-g, h)));
  }
  return d;
}

/* A pass's residual disparity on @surface: the first pass searches
 * within @radius pixels, the refinements a pixel. */
template <typename Surface>
__device__ __forceinline__ float
rig_pass (const cv_clt_rig &rig, const Surface &surface, int pass, int radius,
    float *peak)
{
  return rig_refine (rig, surface,
      pass ? rig_search<CV_CLT_RIG_REFINE_STEPS> (rig, surface,
          CV_CLT_RIG_REFINE_STEPS)
           : rig_search<kHalfSamples> (rig, surface, 2 * radius),
      peak);
}

/* The combined surface in 2-D around residual disparity @d into @out
 * (cvcore_clt_rig_correlate), a row at a time: each lane adds its terms to
 * the row's samples, the warp sums them and lane i writes sample i. */
__device__ __forceinline__ void
rig_surface_2d (const cv_clt_rig &rig, const float *spectra, int lane, float d,
    float *out)
{
  constexpr int side = CVCORE_CLT_RIG_SURFACE, middle = side / 2;

  for (int j = 0; j < side; j++) {
    const float v = (j - middle) * rig.step;
    float acc[side];

#pragma unroll
    for (int i = 0; i < side; i++)
      acc[i] = 0.0f;
    for (int group = 0; group < rig.groups; group++) {
#pragma unroll
      for (int half = 0; half < 2; half++) {
#pragma unroll
        for (int s = 0; s < 2; s++) {
          float r[2];
          const float along =
              rig_group_term (rig, spectra, group, half, s, lane, r);
          const float across =
              cv_clt_rig_baseline_phase_across (rig.baseline[group][0],
                  rig.baseline[group][1], lane + 32 * half, s);
#pragma unroll
          for (int i = 0; i < side; i++) {
            float sn, cs;

            sincospif ((d + (i - middle) * rig.step) * along + v * across, &sn,
                &cs);
            acc[i] += r[0] * cs - r[1] * sn;
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
        int refinements, float converged, float initial, bool guided,
        cv_clt_rig_keep keep, RigBins bins, cvcore_clt_match *matches,
        float *surfaces)
{
  __shared__ RigShared s;
  extern __shared__ float rig_warp_shared[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int tiles_x = cv_clt_tiles (width);
  const int tile = blockIdx.x * kRigTilesPerBlock + warp;
  const int tx = tile % tiles_x, ty = tile / tiles_x;
  float *own = rig_warp_shared + warp * rig_warp_floats (rig.views, rig.groups);
  float (*coef)[CVCORE_CLT_COEFFICIENTS] =
      reinterpret_cast<float (*)[CVCORE_CLT_COEFFICIENTS]> (own);
  float *spectra = own + rig.views * CVCORE_CLT_COEFFICIENTS;
  /* the bins' lists follow the warps' spaces, copied as words */
  unsigned int *bin_words = reinterpret_cast<unsigned int *> (rig_warp_shared
      + kRigTilesPerBlock * rig_warp_floats (rig.views, rig.groups));
  float d, residual = 0.0f, peak = 0.0f;

  if (threadIdx.x < 64)
    s.weight[threadIdx.x] = cv_clt_lowpass_weight (threadIdx.x, spread);
  if (threadIdx.x < bins.count)
    s.bins.phase[threadIdx.x] = bins.ends.phase[threadIdx.x];
  if (threadIdx.x <= bins.count)
    s.bins.first[threadIdx.x] = bins.ends.first[threadIdx.x];
  if (bins.count > 0)
    for (int i = threadIdx.x; 2 * i < bins.ends.first[bins.count];
         i += blockDim.x)
      bin_words[i] = reinterpret_cast<const unsigned int *> (bins.term)[i];
  __syncthreads ();
  if (tile >= tiles_x * cv_clt_tiles (height))
    return;

  d = guided ? matches[tile].dx : initial;
  for (int pass = 0; pass <= refinements; pass++) {
    /* view 0's tile is where it is in every pass: transformed once */
    for (int v = pass > 0 ? 1 : 0; v < rig.views; v++) {
      float m[2];

      cv_clt_rig_motion (&rig, v, d, m);
      transform_resampled (views.view[v], c, width, height, tx, ty, m,
          s.tile[warp], coef[v], lane);
    }
    rig_spectra (rig, coef, s.weight, scale, fat_zero, lane, spectra);
    if (bins.count > 0) {
      __syncwarp ();
      residual = rig_pass (rig,
          rig_bin_surface (bins.count, s.bins,
              reinterpret_cast<const unsigned short *> (bin_words), spectra,
              rig.step, lane),
          pass, radius, &peak);
    } else {
      const RigGroupSurface surface = { rig, spectra, lane };

      residual = rig_pass (rig, surface, pass, radius, &peak);
    }
    d += residual;
    /* the warp's sums are alike in every lane: the warp leaves as one */
    if (cv_clt_match_settled (residual, 0.0f, converged))
      break;
    __syncwarp ();
  }
  if (surfaces)
    rig_surface_2d (rig, spectra, lane, residual,
        surfaces
            + (size_t) tile * CVCORE_CLT_RIG_SURFACE * CVCORE_CLT_RIG_SURFACE);
  if (lane == 0) {
    matches[tile].dx = d;
    matches[tile].dy = 0.0f;
    matches[tile].confidence =
        cv_clt_rig_kept (&rig, tx, ty, d, width, height, keep) ? peak : 0.0f;
  }
}

/* The bins of @rig's terms (RigBins), or none where its groups' terms
 * take more phases than the bins hold, or too many groups gather into
 * them. */
void
rig_bins_init (const cv_clt_rig &rig, RigBins *bins)
{
  unsigned short mark[kMaxBinGroups * kGroupTermCount];
  int in_bin[kMaxBins] = { 0 };
  const int terms = rig.groups * kGroupTermCount;

  bins->count = 0;
  if (rig.groups > kMaxBinGroups)
    return;
  for (int t = 0; t < terms; t++) {
    const int g = t / kGroupTermCount, q = (t >> 5) & 3;
    const float k = cv_clt_rig_baseline_phase (rig.baseline[g][0],
        rig.baseline[g][1], (t & 31) + 32 * (q >> 1), q & 1);
    const int b =
        cv_clt_rig_phase_bin (bins->ends.phase, bins->count, fabsf (k));

    if (b == bins->count) {
      if (b == kMaxBins) {
        bins->count = 0;
        return;
      }
      bins->ends.phase[bins->count++] = fabsf (k);
    }
    in_bin[b]++;
    mark[t] = (unsigned short) (b | (k < 0.0f ? kConjugated : 0));
  }
  bins->ends.first[0] = 0;
  for (int b = 0; b < bins->count; b++)
    bins->ends.first[b + 1] =
        (unsigned short) (bins->ends.first[b] + in_bin[b]);
  for (int b = 0; b < bins->count; b++)
    in_bin[b] = bins->ends.first[b];
  for (int t = 0; t < terms; t++)
    bins->term[in_bin[mark[t] & ~kConjugated]++] =
        (unsigned short) (t | (mark[t] & kConjugated));
}

} /* namespace */

extern "C" cvcore_status
cv_clt_rig_correlate_cuda (cvcore_stream *stream, const cvcore_image *views,
    int channel, const cvcore_clt_rig *in, double longest,
    const cvcore_clt_corr_params *params, cv_clt_rig_keep keep,
    cvcore_clt_match *matches, float *surfaces)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int width = views[0].width, height = views[0].height;
  const int tiles = cv_clt_tiles (width) * cv_clt_tiles (height);
  RigViews images = {};
  RigBins bins = {};
  cv_clt_rig rig;

  cv_clt_rig_init (&rig, in, longest);
  rig_bins_init (rig, &bins);
  for (int v = 0; v < in->views; v++)
    images.view[v] = device_image (&views[v]);
  /* the bins' lists, a whole number of words */
  const size_t shared_bytes = kRigTilesPerBlock
          * rig_warp_floats (rig.views, rig.groups) * sizeof (float)
      + (bins.count > 0 ? (bins.ends.first[bins.count] + 1) / 2 * 4 : 0);

  CUDA_BIND (cvcore_stream_device (stream));
  /* eight views' 28 baselines need more than the default 48 KiB; the
   * attribute is raised only then, and it stays raised */
  if (shared_bytes + sizeof (RigShared) > kDefaultSharedBytes)
    CUDA_TRY (cudaFuncSetAttribute (clt_rig_correlate,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared_bytes));
  clt_rig_correlate<<<(tiles + kRigTilesPerBlock - 1) / kRigTilesPerBlock,
      32 * kRigTilesPerBlock, shared_bytes, cs>>> (images, channel, width,
      height, rig, (float) (1.0 / params->full_scale), (float) params->fat_zero,
      (float) (0.5 * params->lowpass * params->lowpass), params->search_radius,
      params->refinements, cv_clt_rig_converged (&rig, params->converge),
      (float) params->initial_x, params->guided, keep, bins, matches, surfaces);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
