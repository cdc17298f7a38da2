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

/* Tone mapping: the CPU reference, the same operator in double precision
 * with the arithmetic the kernels share (tonemap-common.h). */
#include "tonemap-common.h"
#include "tonemap-private.h"
#include "cvcore-private.h"

#include <math.h>

static double
sample_value (const cvcore_image * im, int x, int y, int c, int shift)
{
  const unsigned char *row = (const unsigned char *) im->data +
      (size_t) y * im->pitch;
  const size_t i = (size_t) x * im->channels + c;

  if (im->sample == CVCORE_SAMPLE_U16)
    return ((const uint16_t *) row)[i] >> shift;
  return row[i] >> shift;
}

static double
full_scale (const cvcore_image * im)
{
  return im->sample == CVCORE_SAMPLE_U16 ? 65535.0 : 255.0;
}

/* Light of coded value @e (0..1). */
static double
decode (cvcore_tonemap_transfer transfer, double e)
{
  e = fmin (fmax (e, 0.0), 1.0);
  if (transfer == CVCORE_TONEMAP_PQ) {
    const double p = pow (e, 1.0 / CV_PQ_M2);

    return CV_PQ_SCALE * pow (fmax (p - CV_PQ_C1, 0.0) / (CV_PQ_C2 -
            CV_PQ_C3 * p), 1.0 / CV_PQ_M1);
  }
  if (transfer == CVCORE_TONEMAP_HLG)
    return e <= 0.5 ? e * e / 3.0 : (exp ((e - CV_HLG_C) / CV_HLG_A) +
        CV_HLG_B) / 12.0;
  return e;
}

/* The source pixel (@x, @y) as light in its own primaries (times the input
 * scale); returns false for a luminance-only source, whose light is
 * rgb[0]. */
static bool
source_pixel (const cvcore_tonemap_frame * src, const cvcore_tonemap_source * s,
    double input_scale, int x, int y, double rgb[3], double *alpha)
{
  const cvcore_image *p0 = &src->plane[0];
  double e[3];
  bool colour = true;

  *alpha = 1.0;
  if (s->layout == CVCORE_TONEMAP_PACKED) {
    const int n = p0->channels == 1 ? 1 : 3;

    for (int c = 0; c < n; c++)
      e[c] = sample_value (p0, x, y, c, 0) / full_scale (p0);
    if (p0->channels == 4)
      *alpha = sample_value (p0, x, y, 3, 0) / full_scale (p0);
    colour = n == 3;
  } else {
    const double yc = (sample_value (p0, x, y, 0, s->shift) - s->y_offset) /
        s->y_range;
    double cb, cr;

    if (s->layout == CVCORE_TONEMAP_YUV420_SEMI) {
      cb = sample_value (&src->plane[1], x / 2, y / 2, 0, s->shift);
      cr = sample_value (&src->plane[1], x / 2, y / 2, 1, s->shift);
    } else {
      cb = sample_value (&src->plane[1], x / 2, y / 2, 0, s->shift);
      cr = sample_value (&src->plane[2], x / 2, y / 2, 0, s->shift);
    }
    cb = (cb - s->c_offset) / s->c_range;
    cr = (cr - s->c_offset) / s->c_range;
    e[0] = yc + 2.0 * (1.0 - s->kr) * cr;
    e[2] = yc + 2.0 * (1.0 - s->kb) * cb;
    e[1] = (yc - s->kr * e[0] - s->kb * e[2]) / (1.0 - s->kr - s->kb);
  }
  for (int c = 0; c < (colour ? 3 : 1); c++)
    rgb[c] = input_scale * decode (s->transfer, e[c]);
  return colour;
}

static double
srgb_encode (double v)
{
  v = fmin (fmax (v, 0.0), 1.0);
  return v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
}

static unsigned char
to_byte (double v)
{
  return (unsigned char) floor (fmin (fmax (v, 0.0), 1.0) * 255.0 + 0.5);
}

/* Average of L over box @i around (@x, @y), clipped to the frame. */
static double
box_average (const cvcore_tonemapper * tm, int x, int y, int i)
{
  const int r = cv_tonemap_edge (i) / 2, w = tm->width;
  const int x0 = x - r < 0 ? 0 : x - r;
  const int x1 = x + r >= w ? w - 1 : x + r;
  const int y0 = y - r < 0 ? 0 : y - r;
  const int y1 = y + r >= tm->height ? tm->height - 1 : y + r;
  double sum = 0.0;

  for (int yy = y0; yy <= y1; yy++)
    sum += tm->row_sums[(size_t) yy * (w + 1) + x1 + 1] -
        tm->row_sums[(size_t) yy * (w + 1) + x0];
  return sum / ((double) (x1 - x0 + 1) * (y1 - y0 + 1));
}

/* Pixel (@x, @y) at display luminance @ld into @out: R, G, B, A (or B, G,
 * R, x), sRGB encoded. */
static void
cpu_pixel (const cvcore_tonemap_frame * src,
    const cvcore_tonemap_params * params, int x, int y, double ld,
    unsigned char out[4])
{
  const cvcore_tonemap_source *s = &params->source;
  const bool bgr = params->output == CVCORE_TONEMAP_OUT_BGRX;
  double rgb[3], weights[3], lw, alpha, v[3];

  if (!source_pixel (src, s, params->input_scale, x, y, rgb, &alpha)) {
    v[0] = v[1] = v[2] = rgb[0] > 0.0 ? ld : 0.0;
  } else {
    cv_tonemap_weights (s->primaries, weights);
    lw = weights[0] * rgb[0] + weights[1] * rgb[1] + weights[2] * rgb[2];
    for (int c = 0; c < 3; c++) {
      double m[3] = { c == 0, c == 1, c == 2 };

      if (s->primaries == CVCORE_TONEMAP_BT2020)
        cv_tonemap_bt2020_to_bt709 (c, m);
      v[c] = lw > 0.0 ? pow (fmax (m[0] * rgb[0] + m[1] * rgb[1] +
              m[2] * rgb[2], 0.0) / lw, params->saturation) * ld : 0.0;
    }
  }
  out[0] = to_byte (srgb_encode (v[bgr ? 2 : 0]));
  out[1] = to_byte (srgb_encode (v[1]));
  out[2] = to_byte (srgb_encode (v[bgr ? 0 : 2]));
  out[3] = bgr ? 255 : to_byte (alpha);
}

/* 8-bit R'G'B' of @rgba (packed, @w x @h) to NV12 @dst. */
static void
cpu_rgba_to_nv12 (const unsigned char *rgba, int w, int h,
    const cvcore_tonemap_frame * dst)
{
  const double kr = CV_NV12_KR, kb = CV_NV12_KB, kg = 1.0 - kr - kb;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const unsigned char *p = rgba + ((size_t) y * w + x) * 4;

      ((unsigned char *) dst->plane[0].data)[(size_t) y * dst->plane[0].pitch
          + x] = (unsigned char) floor (16.0 + 219.0 * (kr * p[0] + kg * p[1] +
              kb * p[2]) / 255.0 + 0.5);
    }
  for (int y = 0; y < (h + 1) / 2; y++)
    for (int x = 0; x < (w + 1) / 2; x++) {
      double r = 0.0, g = 0.0, b = 0.0, yl;
      int n = 0;
      unsigned char *uv = (unsigned char *) dst->plane[1].data +
          (size_t) y * dst->plane[1].pitch + (size_t) x * 2;

      for (int j = 2 * y; j < 2 * y + 2 && j < h; j++)
        for (int i = 2 * x; i < 2 * x + 2 && i < w; i++) {
          const unsigned char *p = rgba + ((size_t) j * w + i) * 4;

          r += p[0];
          g += p[1];
          b += p[2];
          n++;
        }
      r /= 255.0 * n;
      g /= 255.0 * n;
      b /= 255.0 * n;
      yl = kr * r + kg * g + kb * b;
      uv[0] = (unsigned char) floor (128.0 + 224.0 * (b - yl) /
          (2.0 * (1.0 - kb)) + 0.5);
      uv[1] = (unsigned char) floor (128.0 + 224.0 * (r - yl) /
          (2.0 * (1.0 - kr)) + 0.5);
    }
}

cvcore_status
cv_tonemap_cpu (cvcore_tonemapper * tm, const cvcore_tonemap_frame * src,
    const cvcore_tonemap_frame * dst, const cvcore_tonemap_params * params,
    double dt)
{
  const int w = tm->width, h = tm->height;
  const double ts = pow (2.0, params->phi);
  const bool nv12 = params->output == CVCORE_TONEMAP_OUT_NV12;
  double weights[3], log_sum = 0.0, log_min = INFINITY, log_max = -INFINITY;
  cvcore_tonemap_adaptation adapted;

  cv_tonemap_weights (params->source.primaries, weights);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double rgb[3], alpha, lw, lg;

      if (source_pixel (src, &params->source, params->input_scale, x, y, rgb,
              &alpha))
        lw = weights[0] * rgb[0] + weights[1] * rgb[1] + weights[2] * rgb[2];
      else
        lw = rgb[0];
      tm->luminance[(size_t) y * w + x] = lw;
      lg = log (params->delta + lw);
      log_sum += lg;
      log_min = fmin (log_min, lg);
      log_max = fmax (log_max, lg);
    }
  cv_tonemap_update_adaptation (params, log_sum, log_min, log_max,
      (double) w * h, dt, tm->reset, &tm->adapted, &adapted);
  tm->adapted = adapted;

  if (params->op == CVCORE_TONEMAP_LOCAL)
    for (int y = 0; y < h; y++) {
      double *sums = tm->row_sums + (size_t) y * (w + 1);

      sums[0] = 0.0;
      for (int x = 0; x < w; x++)
        sums[x + 1] =
            sums[x] + adapted.scale * tm->luminance[(size_t) y * w + x];
    }

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const double l = adapted.scale * tm->luminance[(size_t) y * w + x];
      double ld;

      if (params->op == CVCORE_TONEMAP_LOCAL) {
        /* s_max: the largest centre with W under epsilon for it and
         * every smaller centre (0 when even the first fails). */
        double centre = l, vc = l;

        for (int i = 0; i + 1 < params->scales; i++) {
          const double vs = box_average (tm, x, y, i + 1);

          if (!cv_tonemap_keeps_walking (vc, vs, i, ts * adapted.exposure,
                  params->epsilon))
            break;
          centre = vc;
          vc = vs;
        }
        ld = l / (1.0 + centre);
      } else {
        ld = cv_tonemap_global (l, params->white_point);
      }
      cpu_pixel (src, params, x, y, ld, nv12 ? tm->rgba + ((size_t) y * w +
              x) * 4 : (unsigned char *) dst->plane[0].data +
          (size_t) y * dst->plane[0].pitch + (size_t) x * 4);
    }
  if (nv12)
    cpu_rgba_to_nv12 (tm->rgba, w, h, dst);
  return CVCORE_OK;
}
