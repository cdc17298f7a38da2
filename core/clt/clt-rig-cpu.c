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

/* A rig's correlation: the CPU reference, in the arithmetic the kernel
 * shares (clt-rig-common.h). */
#include "clt-private.h"
#include "clt-rig-common.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define RIG_TERMS (CV_CLT_RIG_MAX_PAIRS * 128)

/* The pairs' terms (p, f, s) by phase (cv_clt_rig_phase_bin): term (p,
 * f, s) sums into bin[p][f][s], conjugated where its phase is the bin's
 * negated. A rig's bins follow from its geometry alone. */
typedef struct
{
  int count;
  float phase[RIG_TERMS];       /* not negative, per unit disparity, pi */
  int bin[CV_CLT_RIG_MAX_PAIRS][64][2];
  bool conjugated[CV_CLT_RIG_MAX_PAIRS][64][2];
} RigBins;

/* One tile's pairs: cross-power spectra, and the spectra summed by bin. */
typedef struct
{
  int pairs;
  float r[CV_CLT_RIG_MAX_PAIRS][64][2][2];
  double sum[RIG_TERMS][2];
} RigSpectra;

static void
rig_bins_init (const cv_clt_rig * rig, RigBins * bins)
{
  bins->count = 0;
  for (int p = 0; p < rig->pairs; p++) {
    int i, j;

    cv_clt_rig_pair (rig, p, &i, &j);
    for (int f = 0; f < 64; f++)
      for (int s = 0; s < 2; s++) {
        const float k = cv_clt_rig_phase (rig, i, j, f, s);
        const int b = cv_clt_rig_phase_bin (bins->phase, bins->count,
            fabsf (k));

        if (b == bins->count)
          bins->phase[bins->count++] = fabsf (k);
        bins->bin[p][f][s] = b;
        bins->conjugated[p][f][s] = k < 0.0f;
      }
  }
}

static void
rig_bin_sums (RigSpectra * sp, const RigBins * bins)
{
  for (int b = 0; b < bins->count; b++)
    sp->sum[b][0] = sp->sum[b][1] = 0.0;
  for (int p = 0; p < sp->pairs; p++)
    for (int f = 0; f < 64; f++)
      for (int s = 0; s < 2; s++) {
        double *sum = sp->sum[bins->bin[p][f][s]];

        sum[0] += sp->r[p][f][s][0];
        sum[1] += bins->conjugated[p][f][s] ? -sp->r[p][f][s][1] :
            sp->r[p][f][s][1];
      }
}

/* The combined surface at residual disparity @d, and when @g is given its
 * first and second derivatives. */
static double
rig_surface (const RigSpectra * sp, const RigBins * bins, double d,
    double *g, double *h)
{
  double c = 0.0, gd = 0.0, hd = 0.0;

  for (int b = 0; b < bins->count; b++) {
    const double k = CV_PI * bins->phase[b];
    const double v = sp->sum[b][0] * cos (k * d) - sp->sum[b][1] * sin (k * d);
    const double w = sp->sum[b][0] * sin (k * d) + sp->sum[b][1] * cos (k * d);

    c += v;
    gd -= w * k;
    hd -= v * k * k;
  }
  if (g) {
    *g = gd / (128.0 * sp->pairs);
    *h = hd / (128.0 * sp->pairs);
  }
  return c / (128.0 * sp->pairs);
}

/* Every view's tile (@tx, @ty), sampled where its content lies at
 * disparity @d, between pixels where that is not whole, into @coef. */
static void
transform_views (const cvcore_image * views, int channel, int tx, int ty,
    const cv_clt_rig * rig, float d,
    float coef[CVCORE_CLT_MAX_VIEWS][CVCORE_CLT_COEFFICIENTS])
{
  for (int v = 0; v < rig->views; v++) {
    double out[4][8][8];
    float m[2];

    cv_clt_rig_motion (rig, v, d, m);
    cv_clt_cpu_resampled_transform (&views[v], channel,
        (float) cv_clt_tile_start (tx) + m[0],
        (float) cv_clt_tile_start (ty) + m[1], out);
    for (int i = 0; i < CVCORE_CLT_COEFFICIENTS; i++)
      coef[v][i] = (float) ((const double *) out)[i];
  }
}

/* One pass: the residual disparity within @samples steps each way, and
 * the surface's peak there in *@peak. The samples' phases are turned from
 * one to the next by a complex product, as the kernel turns them, instead
 * of a sine and cosine each. */
static double
rig_pass (const RigSpectra * sp, const RigBins * bins, const cv_clt_rig * rig,
    int samples, double *peak)
{
  double sums[4 * CVCORE_CLT_MAX_SEARCH + 1] = { 0.0 };
  double best = -INFINITY, d = 0.0;

  for (int b = 0; b < bins->count; b++) {
    const double k = CV_PI * bins->phase[b];
    const double turn_re = cos (k * rig->step), turn_im = sin (k * rig->step);
    const double first = -k * samples * (double) rig->step;
    const double r_re = sp->sum[b][0], r_im = sp->sum[b][1];
    /* the term R e^{i k d} at the first sample */
    double re = r_re * cos (first) - r_im * sin (first);
    double im = r_re * sin (first) + r_im * cos (first);

    for (int i = 0; i <= 2 * samples; i++) {
      const double next_re = re * turn_re - im * turn_im;

      sums[i] += re;
      im = re * turn_im + im * turn_re;
      re = next_re;
    }
  }
  for (int i = 0; i <= 2 * samples; i++)
    if (sums[i] > best) {
      best = sums[i];
      d = (i - samples) * (double) rig->step;
    }
  for (int i = 0; i < CV_CLT_NEWTON_STEPS; i++) {
    double g, h;

    rig_surface (sp, bins, d, &g, &h);
    /* only towards a maximum */
    if (!(h < 0.0))
      break;
    d += fmax (-rig->step, fmin (rig->step, -g / h));
  }
  *peak = rig_surface (sp, bins, d, NULL, NULL);
  return d;
}

/* The combined surface in 2-D around residual disparity @d, into
 * @surface (cvcore_clt_rig_correlate). */
static void
rig_surface_2d (const RigSpectra * sp, const cv_clt_rig * rig, double d,
    float *surface)
{
  const int half = CVCORE_CLT_RIG_SURFACE / 2;

  for (int j = 0; j < CVCORE_CLT_RIG_SURFACE; j++)
    for (int i = 0; i < CVCORE_CLT_RIG_SURFACE; i++) {
      const double u = d + (i - half) * (double) rig->step;
      const double v = (j - half) * (double) rig->step;
      double c = 0.0;

      for (int p = 0; p < sp->pairs; p++) {
        int a, b;

        cv_clt_rig_pair (rig, p, &a, &b);
        for (int f = 0; f < 64; f++)
          for (int s = 0; s < 2; s++) {
            const double th = CV_PI * (u * cv_clt_rig_phase (rig, a, b, f, s)
                + v * cv_clt_rig_phase_across (rig, a, b, f, s));

            c += sp->r[p][f][s][0] * cos (th) - sp->r[p][f][s][1] * sin (th);
          }
      }
      surface[j * CVCORE_CLT_RIG_SURFACE + i] =
          (float) (c / (128.0 * sp->pairs));
    }
}

static void
rig_match_tile (const cvcore_image * views, int channel, int tx, int ty,
    const cv_clt_rig * rig, const RigBins * bins, RigSpectra * sp,
    const cvcore_clt_corr_params * params, cv_clt_rig_keep keep,
    cvcore_clt_match * match, float *surface)
{
  float coef[CVCORE_CLT_MAX_VIEWS][CVCORE_CLT_COEFFICIENTS];
  const float spread = (float) (0.5 * params->lowpass * params->lowpass);
  float d = params->guided ? match->dx : (float) params->initial_x;
  const float converged = cv_clt_rig_converged (rig, params->converge);
  double peak = 0.0, residual = 0.0;

  sp->pairs = rig->pairs;
  for (int pass = 0; pass <= params->refinements; pass++) {
    transform_views (views, channel, tx, ty, rig, d, coef);
    for (int p = 0; p < rig->pairs; p++) {
      int i, j;

      cv_clt_rig_pair (rig, p, &i, &j);
      for (int f = 0; f < 64; f++) {
        cv_clt_cross_power (coef[i], coef[j], f,
            (float) (1.0 / params->full_scale), (float) params->fat_zero,
            cv_clt_lowpass_weight (f, spread), sp->r[p][f][0], sp->r[p][f][1]);
      }
    }
    rig_bin_sums (sp, bins);
    residual = rig_pass (sp, bins, rig, pass ? CV_CLT_RIG_REFINE_STEPS :
        2 * params->search_radius, &peak);
    d += (float) residual;
    if (cv_clt_match_settled ((float) residual, 0.0f, converged))
      break;
  }
  if (surface)
    rig_surface_2d (sp, rig, residual, surface);
  match->dx = d;
  match->dy = 0.0f;
  match->confidence = (float) peak;
  if (!cv_clt_rig_kept (rig, tx, ty, d, views[0].width, views[0].height, keep))
    match->confidence = 0.0f;
}

cvcore_status
cv_clt_rig_correlate_cpu (const cvcore_image * views, int channel,
    const cvcore_clt_rig * in, double longest,
    const cvcore_clt_corr_params * params, cv_clt_rig_keep keep,
    cvcore_clt_match * matches, float *surfaces)
{
  const int tiles_x = cvcore_clt_tiles (views[0].width);
  const int tiles_y = cvcore_clt_tiles (views[0].height);
  /* a tile's spectra and the rig's bins, too large for a thread's stack */
  struct
  {
    RigBins bins;
    RigSpectra spectra;
  } *scratch = malloc (sizeof (*scratch));
  cv_clt_rig rig;

  if (!scratch)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY,
        "no memory for a rig's spectra");
  cv_clt_rig_init (&rig, in, longest);
  rig_bins_init (&rig, &scratch->bins);
  for (int ty = 0; ty < tiles_y; ty++)
    for (int tx = 0; tx < tiles_x; tx++)
      rig_match_tile (views, channel, tx, ty, &rig, &scratch->bins,
          &scratch->spectra, params, keep, &matches[(size_t) ty * tiles_x + tx],
          surfaces ? surfaces + ((size_t) ty * tiles_x +
              tx) * CVCORE_CLT_RIG_SURFACE * CVCORE_CLT_RIG_SURFACE : NULL);
  free (scratch);
  return CVCORE_OK;
}
