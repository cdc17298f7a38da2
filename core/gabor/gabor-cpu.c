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

/* Gabor filtering: the CPU reference, in double precision with the
 * coefficients the kernels use (gabor-common.h). */
#include "gabor-private.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

static double complex *
cpu_row (const cvcore_gabor_scratch * g, int f, int y)
{
  return (double complex *) ((unsigned char *) g->planes +
      ((size_t) f * g->height + y) * g->plane_pitch);
}

static double
source_luma (const cvcore_image * src, const double weight[4], int x, int y)
{
  const unsigned char *row = (const unsigned char *) src->data +
      (size_t) y * src->pitch;
  double v = 0.0;

  for (int c = 0; c < src->channels; c++) {
    const size_t i = (size_t) x * src->channels + c;

    v += weight[c] * (src->sample == CVCORE_SAMPLE_U16 ?
        ((const uint16_t *) row)[i] / 65535.0 : row[i] / 255.0);
  }
  return v;
}

static double complex
cx (const double v[2])
{
  return v[0] + I * v[1];
}

/* Recursive filtering of @n samples at @line[0], @stride apart, in place. */
static void
cpu_recursive_line (double complex *line, int n, size_t stride,
    const cv_gabor_pass * pass, double b)
{
  double complex w1, w2, w3;

  w1 = w2 = w3 = cx (pass->causal_init) * line[0];
  for (int i = 0; i < n; i++) {
    const double complex w = b * line[i * stride] + cx (pass->c[0]) * w1 +
        cx (pass->c[1]) * w2 + cx (pass->c[2]) * w3;

    w3 = w2;
    w2 = w1;
    w1 = line[i * stride] = w;
  }
  w1 = w2 = w3 = cx (pass->anticausal_init) * line[(size_t) (n - 1) * stride];
  for (int i = n - 1; i >= 0; i--) {
    const double complex o = b * line[i * stride] + cx (pass->d[0]) * w1 +
        cx (pass->d[1]) * w2 + cx (pass->d[2]) * w3;

    w3 = w2;
    w2 = w1;
    w1 = line[i * stride] = o;
  }
}

/* FIR filtering of a line (edges clamped), through @tmp. */
static void
cpu_fir_line (double complex *line, int n, size_t stride,
    const cv_gabor_plan * plan, double omega, const double *gauss,
    double complex *tmp)
{
  const int r = plan->radius;

  for (int i = 0; i < n; i++) {
    double complex acc = 0.0;

    for (int k = -r; k <= r; k++) {
      const int j = i - k < 0 ? 0 : i - k >= n ? n - 1 : i - k;

      acc += gauss[k + r] * cexp (I * omega * k) * line[j * stride];
    }
    tmp[i] = acc;
  }
  for (int i = 0; i < n; i++)
    line[i * stride] = tmp[i];
}

static double
to_scale (double v, double full)
{
  v = floor (v * full + 0.5);
  return v < 0.0 ? 0.0 : v > full ? full : v;
}

static void
cpu_output (const cvcore_gabor_scratch * g, const cvcore_image * dst,
    const cvcore_gabor_params * params, const cv_gabor_plan * plan)
{
  const double full = dst->sample == CVCORE_SAMPLE_U16 ? 65535.0 : 255.0;
  const int n = plan->orientations;

  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++) {
      const double gauss = creal (cpu_row (g, n, y)[x]);
      double out[4] = { 0.0, 0.0, 0.0, 0.0 }, energy = 0.0, best = -1.0;
      double complex strongest = 0.0;
      int arg = 0;

      for (int o = 0; o < n; o++) {
        const double complex r = cpu_row (g, o, y)[x] - plan->dc[o] * gauss;
        const double m = cabs (r);

        if (o < 4)
          out[o] = to_scale (params->gain * m, full);
        energy += m * m;
        if (m > best) {
          best = m;
          strongest = r;
          arg = o;
        }
      }
      if (dst->channels == 1) {
        switch (params->output) {
          case CVCORE_GABOR_MAGNITUDE:
            out[0] = to_scale (params->gain * sqrt (energy), full);
            break;
          case CVCORE_GABOR_REAL:
            out[0] = to_scale (0.5 + params->gain * creal (strongest), full);
            break;
          case CVCORE_GABOR_IMAGINARY:
            out[0] = to_scale (0.5 + params->gain * cimag (strongest), full);
            break;
          case CVCORE_GABOR_PHASE:
            out[0] = to_scale ((carg (strongest) + CV_PI) / (2.0 * CV_PI),
                full);
            break;
          case CVCORE_GABOR_MAX_ORIENTATION:
            out[0] = floor ((double) arg * full / n + 0.5);
            break;
        }
      }
      for (int c = 0; c < dst->channels; c++) {
        unsigned char *row = (unsigned char *) dst->data +
            (size_t) y * dst->pitch;

        if (dst->sample == CVCORE_SAMPLE_U16)
          ((uint16_t *) row)[(size_t) x * dst->channels + c] =
              (uint16_t) out[c];
        else
          row[(size_t) x * dst->channels + c] = (unsigned char) out[c];
      }
    }
}

cvcore_status
cv_gabor_cpu (cvcore_gabor_scratch * g, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_gabor_params * params,
    const cv_gabor_plan * plan)
{
  const int w = g->width, h = g->height;
  const size_t stride = g->plane_pitch / sizeof (double complex);
  double *gauss = NULL;
  double complex *tmp = malloc (sizeof (double complex) * (w > h ? w : h));

  if (plan->method == CVCORE_GABOR_FIR) {
    double norm = 0.0;

    gauss = malloc (sizeof (double) * (2 * plan->radius + 1));
    for (int k = -plan->radius; k <= plan->radius; k++)
      norm += gauss[k + plan->radius] = exp (-0.5 * k * k /
          (plan->sigma * plan->sigma));
    for (int k = 0; k <= 2 * plan->radius; k++)
      gauss[k] /= norm;
  }
  if (tmp == NULL || (plan->method == CVCORE_GABOR_FIR && gauss == NULL)) {
    free (tmp);
    free (gauss);
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "Gabor lines");
  }
  for (int f = 0; f < plan->n_filters; f++) {
    for (int y = 0; y < h; y++) {
      double complex *row = cpu_row (g, f, y);

      for (int x = 0; x < w; x++)
        row[x] = source_luma (src, params->weight, x, y);
      if (plan->method == CVCORE_GABOR_FIR)
        cpu_fir_line (row, w, 1, plan, plan->rows[f].omega, gauss, tmp);
      else
        cpu_recursive_line (row, w, 1, &plan->rows[f], plan->b);
    }
    for (int x = 0; x < w; x++) {
      double complex *col = cpu_row (g, f, 0) + x;

      if (plan->method == CVCORE_GABOR_FIR)
        cpu_fir_line (col, h, stride, plan, plan->cols[f].omega, gauss, tmp);
      else
        cpu_recursive_line (col, h, stride, &plan->cols[f], plan->b);
    }
  }
  cpu_output (g, dst, params, plan);
  free (tmp);
  free (gauss);
  return CVCORE_OK;
}

cvcore_status
cv_gabor_response_cpu (const cvcore_gabor_scratch * g, int o, float *re_im)
{
  const int n = g->plan.orientations;

  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++) {
      const double complex r = cpu_row (g, o, y)[x] - g->plan.dc[o] *
          creal (cpu_row (g, n, y)[x]);

      re_im[2 * ((size_t) y * g->width + x)] = (float) creal (r);
      re_im[2 * ((size_t) y * g->width + x) + 1] = (float) cimag (r);
    }
  return CVCORE_OK;
}
