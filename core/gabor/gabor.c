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

/* Gabor filtering: coefficients, the scratch and the dispatch to a
 * backend. */
#include "gabor-private.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void
cvcore_gabor_params_init (cvcore_gabor_params * params)
{
  memset (params, 0, sizeof (*params));
  params->sigma = 4.0;
  params->wavelength = 8.0;
  params->orientation = 0.0;
  params->orientations = 1;
  params->method = CVCORE_GABOR_RECURSIVE;
  params->output = CVCORE_GABOR_MAGNITUDE;
  params->gain = 1.0;
  params->weight[0] = 1.0;
}

/* Variance of the two-sided filter whose causal poles are @d^(1/q). */
static double
pole_variance (const double complex d[3], double q)
{
  double v = 0.0;

  for (int k = 0; k < 3; k++) {
    const double complex z = cpow (d[k], 1.0 / q);

    v += 2.0 * creal (z / ((z - 1.0) * (z - 1.0)));
  }
  return v;
}

/* The recursive Gaussian of van Vliet, Young and Verbeek (third order, the
 * poles of their 1998 design scaled by 1/q so that the impulse response
 * has variance sigma^2; Young and van Vliet's 1995 q formula gives a few
 * per cent RMS error at small sigma): feedback a[k] (for w[n - 1 - k]),
 * gain b and poles r[k]. */
static void
young_van_vliet (double sigma, double a[3], double *b, double complex r[3])
{
  const double complex d[3] = { 1.4165 + 1.00829 * I, 1.4165 - 1.00829 * I,
    1.86543
  };
  double lo = 0.01, hi = 100.0, q;

  /* the variance grows with q */
  for (int i = 0; i < 80; i++) {
    q = 0.5 * (lo + hi);
    if (pole_variance (d, q) < sigma * sigma)
      lo = q;
    else
      hi = q;
  }
  q = 0.5 * (lo + hi);
  for (int k = 0; k < 3; k++)
    r[k] = 1.0 / cpow (d[k], 1.0 / q);
  /* 1 / prod (1 - r_k z^-1) = 1 / (1 - a1 z^-1 - a2 z^-2 - a3 z^-3) */
  a[0] = creal (r[0] + r[1] + r[2]);
  a[1] = -creal (r[0] * r[1] + r[0] * r[2] + r[1] * r[2]);
  a[2] = creal (r[0] * r[1] * r[2]);
  *b = 1.0 - (a[0] + a[1] + a[2]);
}

static void
set_complex (double out[2], double complex v)
{
  out[0] = creal (v);
  out[1] = cimag (v);
}

/* The pass at angular frequency @omega; returns its gain at frequency 0. */
static double
init_pass (cv_gabor_pass * pass, const double a[3], double b,
    const double complex r[3], double omega)
{
  double complex causal = 1.0, anticausal = 1.0;

  pass->omega = omega;
  for (int dir = 0; dir < 2; dir++) {
    double complex state = b;

    for (int k = 0; k < 3; k++) {
      const double complex p = r[k] * cexp ((dir ? -I : I) * omega);

      set_complex (pass->pole[dir][k], p);
      state /= 1.0 - p;
      set_complex (pass->init[dir][k], state);
    }
  }
  for (int k = 0; k < 3; k++) {
    const double complex c = a[k] * cexp (I * (k + 1) * omega);
    const double complex d = a[k] * cexp (-I * (k + 1) * omega);

    set_complex (pass->c[k], c);
    set_complex (pass->d[k], d);
    causal -= c;
    anticausal -= d;
  }
  set_complex (pass->causal_init, b / causal);
  set_complex (pass->anticausal_init, b / anticausal);
  return creal (b * b / (causal * anticausal));
}

static bool
has_row_pass (const cv_gabor_plan * plan, int f)
{
  for (int i = 0; i < plan->n_row_passes; i++)
    if (plan->row_passes[i] == f)
      return true;
  return false;
}

void
cv_gabor_plan_init (cv_gabor_plan * plan, const cvcore_gabor_params * params)
{
  const double omega = 2.0 * CV_PI / params->wavelength;
  double a[3];
  double complex r[3];

  memset (plan, 0, sizeof (*plan));
  plan->orientations = params->orientations;
  plan->n_filters = params->orientations + 1;
  plan->method = params->method;
  plan->sigma = params->sigma;
  plan->radius = (int) ceil (4.0 * params->sigma);
  young_van_vliet (params->sigma, a, &plan->b, r);
  for (int f = 0; f < plan->n_filters; f++) {
    const bool gauss = f == params->orientations;
    const double theta = (params->orientation + 180.0 * f /
        params->orientations) * CV_PI / 180.0;
    const double wx = gauss ? 0.0 : omega * cos (theta);
    const double wy = gauss ? 0.0 : omega * sin (theta);

    plan->dc[f] = init_pass (&plan->rows[f], a, plan->b, r, wx) *
        init_pass (&plan->cols[f], a, plan->b, r, wy);
  }
  for (int f = 0; f < plan->n_filters; f++) {
    int m;

    /* a row pass of the other orientation, with no mirror yet */
    for (m = 0; m < f; m++)
      if (plan->row_mirror[m] < 0 && has_row_pass (plan, m)
          && fabs (plan->rows[m].omega + plan->rows[f].omega) < 1e-9
          && fabs (plan->cols[m].omega - plan->cols[f].omega) < 1e-9)
        break;
    plan->row_mirror[f] = -1;
    if (m < f)
      plan->row_mirror[m] = f;
    else
      plan->row_passes[plan->n_row_passes++] = f;
  }
  if (params->method == CVCORE_GABOR_FIR)
    for (int f = 0; f < plan->n_filters; f++) {
      /* the sampled filter's own response to a flat image */
      double g[2] = { 1.0, 1.0 };
      double norm = 0.0;

      for (int k = -plan->radius; k <= plan->radius; k++)
        norm += exp (-0.5 * k * k / (params->sigma * params->sigma));
      for (int d = 0; d < 2; d++) {
        const double w = d ? plan->cols[f].omega : plan->rows[f].omega;
        double complex sum = 0.0;

        for (int k = -plan->radius; k <= plan->radius; k++)
          sum += exp (-0.5 * k * k / (params->sigma * params->sigma)) / norm *
              cexp (I * w * k);
        g[d] = creal (sum);
      }
      plan->dc[f] = g[0] * g[1];
    }
}

/* @out = the cascade's one-step transition with zero input (section k
 * takes section k - 1's new state) to the power @n, for poles @p. */
static void
jump_matrix (const double p[3][2], int n, double out[3][3][2])
{
  double complex m[3][3] = { {1, 0, 0}, {0, 1, 0}, {0, 0, 1} };
  const double complex p0 = p[0][0] + I * p[0][1];
  const double complex p1 = p[1][0] + I * p[1][1];
  const double complex p2 = p[2][0] + I * p[2][1];
  const double complex a[3][3] = { {p0, 0, 0}, {p0, p1, 0}, {p0, p1, p2} };

  for (int k = 0; k < n; k++) {
    double complex t[3][3];

    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        t[i][j] = a[i][0] * m[0][j] + a[i][1] * m[1][j] + a[i][2] * m[2][j];
    memcpy (m, t, sizeof (m));
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      set_complex (out[i][j], m[i][j]);
}

void
cv_gabor_plan_segments (cv_gabor_plan * plan, int width, int height)
{
  static const int counts[2] = { CV_GABOR_SEGMENTS_FEW,
    CV_GABOR_SEGMENTS_MANY
  };

  for (int f = 0; f < plan->n_filters; f++)
    for (int dir = 0; dir < 2; dir++)
      for (int m = 0; m < 2; m++) {
        cv_gabor_pass *p = dir ? &plan->cols[f] : &plan->rows[f];
        const int n = cv_gabor_segment_length (dir ? height : width,
            counts[m], !dir);

        jump_matrix ((const double (*)[2]) p->pole[0], n, p->jump[m][0]);
        jump_matrix ((const double (*)[2]) p->pole[1], n, p->jump[m][1]);
      }
}

void
cvcore_gabor_impulse_1d (double sigma, double omega, int radius, double *re_im)
{
  const int n = 2 * radius + 1;
  double complex *line = calloc ((size_t) n, sizeof (double complex));
  double a[3], b;
  double complex r[3];
  cv_gabor_pass pass;

  young_van_vliet (sigma, a, &b, r);
  init_pass (&pass, a, b, r, omega);
  line[radius] = 1.0;
  {
    double complex w1 = 0, w2 = 0, w3 = 0;

    for (int i = 0; i < n; i++) {
      const double complex w = b * line[i] + (pass.c[0][0] + I *
          pass.c[0][1]) * w1 + (pass.c[1][0] + I * pass.c[1][1]) * w2 +
          (pass.c[2][0] + I * pass.c[2][1]) * w3;

      w3 = w2;
      w2 = w1;
      w1 = line[i] = w;
    }
    w1 = w2 = w3 = 0;
    for (int i = n - 1; i >= 0; i--) {
      const double complex o = b * line[i] + (pass.d[0][0] + I *
          pass.d[0][1]) * w1 + (pass.d[1][0] + I * pass.d[1][1]) * w2 +
          (pass.d[2][0] + I * pass.d[2][1]) * w3;

      w3 = w2;
      w2 = w1;
      w1 = line[i] = o;
    }
  }
  for (int i = 0; i < n; i++) {
    re_im[2 * i] = creal (line[i]);
    re_im[2 * i + 1] = cimag (line[i]);
  }
  free (line);
}

/* --- scratch ------------------------------------------------------------ */

static size_t
complex_size (const cvcore_device * device)
{
  return device->backend == CVCORE_BACKEND_CPU ? sizeof (double complex) :
      2 * sizeof (float);
}

cvcore_status
cvcore_gabor_scratch_new (cvcore_device * device, int width, int height,
    int max_orientations, cvcore_gabor_scratch ** gabor)
{
  cvcore_gabor_scratch *g;
  cvcore_status status;

  *gabor = NULL;
  if (width < 1 || height < 1 || max_orientations < 1
      || max_orientations > CVCORE_GABOR_MAX_ORIENTATIONS)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor filtering of %dx%d with %d orientations", width, height,
        max_orientations);
  g = calloc (1, sizeof (*g));
  if (g == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "Gabor scratch");
  g->device = device;
  g->width = width;
  g->height = height;
  g->max_filters = max_orientations + 1;
  status = cvcore_plane_alloc (device, complex_size (device) * width,
      (size_t) height * g->max_filters, &g->planes, &g->plane_pitch);
  if (status == CVCORE_OK && device->backend != CVCORE_BACKEND_CPU) {
    cv_gabor_device_scratch *d = &g->dev;
    size_t aux_bytes;

    d->planes = g->planes;
    d->plane_pitch = g->plane_pitch;
    d->aux_pitch = cvcore_pitch_for_width (device,
        complex_size (device) * height);
    aux_bytes = d->aux_pitch * width > g->plane_pitch * height ?
        d->aux_pitch * width : g->plane_pitch * height;
    status = cvcore_device_alloc (device, aux_bytes * g->max_filters, &d->aux);
    if (status == CVCORE_OK)
      status = cvcore_device_alloc (device, sizeof (float) * 2 * 2 *
          CV_GABOR_MAX_FILTERS * (8 * (int) CVCORE_GABOR_MAX_SIGMA + 1),
          (void **) &d->taps);
  }
  if (status != CVCORE_OK) {
    cvcore_gabor_scratch_free (g);
    return status;
  }
  *gabor = g;
  return CVCORE_OK;
}

void
cvcore_gabor_scratch_free (cvcore_gabor_scratch * g)
{
  if (g == NULL)
    return;
  if (g->planes)
    cvcore_device_free (g->device, g->planes);
  if (g->dev.aux)
    cvcore_device_free (g->device, g->dev.aux);
  if (g->dev.taps)
    cvcore_device_free (g->device, g->dev.taps);
  free (g);
}

cvcore_status
cvcore_gabor_response (cvcore_gabor_scratch * g, cvcore_stream * stream, int o,
    float *re_im)
{
  const int n = g->plan.orientations;

  if (o < 0 || o >= n)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "orientation %d of %d", o, n);
  return CV_DISPATCH (g->device, cv_gabor_response_cpu (g, o, re_im),
      cv_gabor_response_cuda (g, stream, o, re_im));
}

/* --- dispatch ----------------------------------------------------------- */

/* Whether @a and @b describe the same filters (the output, gain and
 * luminance weights do not enter the plan). */
static bool
same_filters (const cvcore_gabor_params * a, const cvcore_gabor_params * b)
{
  return a->sigma == b->sigma && a->wavelength == b->wavelength
      && a->orientation == b->orientation
      && a->orientations == b->orientations && a->method == b->method;
}

cvcore_status
cvcore_gabor (cvcore_stream * stream, cvcore_gabor_scratch * g,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_gabor_params * params)
{
  const cvcore_gabor_params *p = params;

  if (src->width != g->width || src->height != g->height
      || dst->width != g->width || dst->height != g->height
      || src->channels < 1 || src->channels > 4
      || (dst->channels != 1 && dst->channels != 4)
      || (dst->channels == 4 && dst->sample != CVCORE_SAMPLE_U8))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor filtering of %dx%dx%d into %dx%dx%d with %dx%d scratch",
        src->width, src->height, src->channels, dst->width, dst->height,
        dst->channels, g->width, g->height);
  if (!(p->sigma >= CVCORE_GABOR_MIN_SIGMA
          && p->sigma <= CVCORE_GABOR_MAX_SIGMA) || !(p->wavelength >= 2.0)
      || !isfinite (p->wavelength) || !isfinite (p->orientation)
      || p->orientations < 1 || p->orientations + 1 > g->max_filters
      || !isfinite (p->gain) || (p->method != CVCORE_GABOR_RECURSIVE
          && p->method != CVCORE_GABOR_FIR)
      || p->output < CVCORE_GABOR_MAGNITUDE
      || p->output > CVCORE_GABOR_MAX_ORIENTATION)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor parameters out of range (sigma %g, wavelength %g, %d "
        "orientations of at most %d)", p->sigma, p->wavelength,
        p->orientations, g->max_filters - 1);
  if (cvcore_stream_device (stream) != g->device)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "Gabor scratch and stream of different devices");

  /* The coefficients (and on CUDA the segment jumps) cost a bisection and
   * matrix powers per filter: made again only when the filters change. */
  if (!g->plan_valid || !same_filters (&g->planned, params)) {
    cv_gabor_plan_init (&g->plan, params);
    if (g->device->backend != CVCORE_BACKEND_CPU)
      cv_gabor_plan_segments (&g->plan, g->width, g->height);
    g->planned = *params;
    g->plan_valid = true;
  }
  return CV_DISPATCH (g->device, cv_gabor_cpu (g, src, dst, params, &g->plan),
      cv_gabor_cuda (stream, &g->dev, src, dst, params, &g->plan));
}
