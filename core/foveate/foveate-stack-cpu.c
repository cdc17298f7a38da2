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

/* Foveation through the blur stack: the CPU reference, in the fixed-point
 * arithmetic the kernels share (foveate-stack-common.h). */
#include "foveate-private.h"

#include <stdlib.h>
#include <string.h>

/* output rows a CPU pass sums at once */
#define CPU_STRIP_ROWS 64

/* @pass over the channels of @mask (the others are not read), rows
 * first into @rows (CPU_STRIP_ROWS output rows' worth of source rows at a
 * time), then columns. */
static void
cpu_pass (const cv_foveate_stack_pass * pass, const float *taps, int nc,
    unsigned mask, float *rows)
{
  const int w = pass->x1 - pass->x0;

  for (int y0 = pass->y0; y0 < pass->y1; y0 += CPU_STRIP_ROWS) {
    const int y1 = y0 + CPU_STRIP_ROWS < pass->y1 ? y0 + CPU_STRIP_ROWS :
        pass->y1;
    const int first_row = pass->step * y0 + pass->first;
    const int n_rows = pass->step * (y1 - 1 - y0) + pass->n_taps;

    for (int r = 0; r < n_rows; r++)
      for (int x = 0; x < w; x++)
        for (int c = 0; c < nc; c++) {
          const int col = pass->step * (pass->x0 + x) + pass->first;
          float acc = 0.0f;

          if (!(mask >> c & 1))
            continue;
          for (int j = 0; j < pass->n_taps; j++)
            acc = cv_fma (taps[j], cv_foveate_stack_load (pass,
                    first_row + r, col + j, c, nc), acc);
          rows[((size_t) r * w + x) * nc + c] = acc;
        }
    for (int y = y0; y < y1; y++)
      for (int x = 0; x < w; x++) {
        if (cv_foveate_stack_unread (pass, pass->x0 + x, y))
          continue;
        for (int c = 0; c < nc; c++) {
          const float *col = rows + ((size_t) pass->step * (y - y0) * w +
              x) * nc + c;
          float acc = 0.0f;

          if (!(mask >> c & 1))
            continue;
          for (int i = 0; i < pass->n_taps; i++)
            acc = cv_fma (taps[i], col[(size_t) i * w * nc], acc);
          pass->dst[(size_t) (y - pass->y0) * pass->dst_pitch +
              (size_t) x * nc + c] = cv_foveate_stack_store (pass, acc);
        }
      }
  }
}

cvcore_status
cv_foveate_stack_cpu (const cvcore_image * src, const cvcore_image * dst,
    unsigned mask, const cvcore_foveate_plan * plan, uint16_t * memory)
{
  cv_foveate_stack_pass passes[CVCORE_FOVEATE_MAX_OCTAVES +
      CVCORE_FOVEATE_MAX_LEVELS];
  int n_bases, widest = 0;
  const int n = cv_foveate_stack_passes (plan, src, memory, passes, &n_bases);
  const int nc = src->channels;
  float *rows;

  for (int i = 0; i < n; i++)
    if (passes[i].x1 - passes[i].x0 > widest)
      widest = passes[i].x1 - passes[i].x0;
  rows = malloc (sizeof (float) * nc * (size_t) widest * (2 * CPU_STRIP_ROWS +
          CV_FOVEATE_STACK_MAX_TAPS));
  if (rows == NULL && n > 0)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "foveation rows");
  for (int i = 0; i < n; i++)
    cpu_pass (&passes[i], plan->stack.taps + passes[i].taps, nc, mask, rows);
  free (rows);

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      const unsigned char *in = (const unsigned char *) src->data +
          (size_t) y * src->pitch + (size_t) x * nc;
      unsigned char *out = (unsigned char *) dst->data +
          (size_t) y * dst->pitch + (size_t) x * nc;
      cv_foveate_stack_taps low = { 0 }, high = { 0 };
      float weight;
      int k;

      memcpy (out, in, nc);
      if (!cv_foveate_stack_mixing (&plan->stack, cv_foveate_stack_sigma (plan,
                  &plan->stack, x, y), &k, &weight))
        continue;
      if (k >= 0)
        cv_foveate_stack_reading (&plan->stack, memory, nc, k, x, y, &low);
      if (weight > 0.0f)
        cv_foveate_stack_reading (&plan->stack, memory, nc, k + 1, x, y, &high);
      for (int c = 0; c < nc; c++) {
        float a, b;

        /* the stack holds the blurred channels only */
        if (!(mask >> c & 1))
          continue;
        a = k <
            0 ? cv_foveate_stack_fixed (in[c]) :
            cv_foveate_stack_bilinear (&low, low.p[low.a + c], low.p[low.b + c],
            low.p[low.d + c], low.p[low.e + c]);
        b = weight > 0.0f ? cv_foveate_stack_bilinear (&high,
            high.p[high.a + c], high.p[high.b + c], high.p[high.d + c],
            high.p[high.e + c]) : a;
        out[c] = (unsigned char) cv_foveate_stack_mix (a, b, weight);
      }
    }
  return CVCORE_OK;
}
