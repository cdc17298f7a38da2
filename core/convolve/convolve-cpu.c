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

/* Convolution: the CPU reference, in the arithmetic the kernels share
 * (convolve-common.h). */
#include "convolve-common.h"
#include "convolve-private.h"
#include "cvcore-private.h"

static float
load_sample (const cvcore_image * im, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) im->data +
      (size_t) y * im->pitch;

  if (im->sample == CVCORE_SAMPLE_U8)
    return row[(size_t) x * im->channels + c];
  return ((const unsigned short *) row)[(size_t) x * im->channels + c];
}

static void
store_sample (const cvcore_image * im, int x, int y, int c, int v)
{
  unsigned char *row = (unsigned char *) im->data + (size_t) y * im->pitch;

  if (im->sample == CVCORE_SAMPLE_U8)
    row[(size_t) x * im->channels + c] = (unsigned char) v;
  else
    ((unsigned short *) row)[(size_t) x * im->channels + c] =
        (unsigned short) v;
}

/* The sample at (x, y) after the border rule; @x and @y may be outside. */
static float
fetch (const cvcore_image * im, const cvcore_convolve_plan * plan, int x, int y,
    int c)
{
  int bx = cv_border_index (x, im->width, plan->border);
  int by = cv_border_index (y, im->height, plan->border);

  if (bx < 0 || by < 0)
    return plan->border_value;
  return load_sample (im, bx, by, c);
}

static int
cpu_dense (const cvcore_image * src, const cvcore_convolve_plan * plan, int x,
    int y, int c, int max_value)
{
  const int x0 = x - plan->anchor_x, y0 = y - plan->anchor_y;

  if (plan->use_double) {
    double acc = 0.0;

    for (int j = 0; j < plan->height; j++)
      for (int i = 0; i < plan->width; i++)
        acc += (double) plan->taps[j * plan->width + i] *
            fetch (src, plan, x0 + i, y0 + j, c);
    return cv_finish_double (acc, plan->divisor, plan->bias, max_value);
  } else {
    float acc = 0.0f;

    for (int j = 0; j < plan->height; j++)
      for (int i = 0; i < plan->width; i++)
        acc += plan->taps[j * plan->width + i] *
            fetch (src, plan, x0 + i, y0 + j, c);
    return cv_finish_float (acc, plan->divisor, plan->reciprocal,
        plan->bias_half, max_value);
  }
}

/* Separable: rows first into @tmp (width x height x channels floats), then
 * columns; constant-border rows contribute border_value * sum(row). */
static void
cpu_separable (const cvcore_image * src, const cvcore_image * dst,
    unsigned mask, const cvcore_convolve_plan * plan, float *tmp, int max_value)
{
  const int w = src->width, h = src->height, nc = src->channels;
  const float row_sum = cv_border_row_sum (plan);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < nc; c++) {
        float acc = 0.0f;

        for (int i = 0; i < plan->width; i++)
          acc += plan->row[i] * fetch (src, plan, x - plan->anchor_x + i, y, c);
        tmp[((size_t) y * w + x) * nc + c] = acc;
      }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < nc; c++) {
        float acc = 0.0f;

        if (!(mask & (1u << c))) {
          store_sample (dst, x, y, c, (int) load_sample (src, x, y, c));
          continue;
        }
        for (int j = 0; j < plan->height; j++) {
          int by = cv_border_index (y - plan->anchor_y + j, h, plan->border);

          acc += plan->column[j] * (by < 0 ? row_sum :
              tmp[((size_t) by * w + x) * nc + c]);
        }
        store_sample (dst, x, y, c, cv_finish_float (acc, plan->divisor,
                plan->reciprocal, plan->bias_half, max_value));
      }
}

cvcore_status
cv_convolve_cpu (const cvcore_image * src, const cvcore_image * dst,
    unsigned mask, const cvcore_convolve_plan * plan, void *scratch)
{
  const int max_value = cv_sample_max (src->sample);

  if (plan->separable) {
    cpu_separable (src, dst, mask, plan, scratch, max_value);
    return CVCORE_OK;
  }
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        store_sample (dst, x, y, c, (mask & (1u << c)) ?
            cpu_dense (src, plan, x, y, c, max_value) :
            (int) load_sample (src, x, y, c));
  return CVCORE_OK;
}
