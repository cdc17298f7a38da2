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

/* Tone mapping: parameters, the per-size state and the dispatch to a
 * backend. */
#include "tonemap-common.h"
#include "tonemap-private.h"
#include "cvcore-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
cvcore_tonemap_params_init (cvcore_tonemap_params * params)
{
  memset (params, 0, sizeof (*params));
  params->op = CVCORE_TONEMAP_LOCAL;
  params->key = 0.18;
  params->auto_key = false;
  params->delta = 1e-4;
  params->white_point = INFINITY;
  params->scales = CVCORE_TONEMAP_MAX_SCALES;
  params->phi = 8.0;
  params->epsilon = 0.025;
  params->saturation = 1.0;
  params->input_scale = 1.0;
  params->adaptation_time = 0.0;
  params->source.layout = CVCORE_TONEMAP_PACKED;
  params->source.transfer = CVCORE_TONEMAP_LINEAR;
  params->source.primaries = CVCORE_TONEMAP_BT709;
  params->output = CVCORE_TONEMAP_OUT_RGBA;
}

void
cvcore_tonemap_source_init_bt2100 (cvcore_tonemap_source * source,
    cvcore_tonemap_layout layout, cvcore_tonemap_transfer transfer, int shift)
{
  memset (source, 0, sizeof (*source));
  source->layout = layout;
  source->transfer = transfer;
  source->primaries = CVCORE_TONEMAP_BT2020;
  source->shift = shift;
  source->y_offset = 64.0;
  source->y_range = 876.0;
  source->c_offset = 512.0;
  source->c_range = 896.0;
  source->kr = 0.2627;
  source->kb = 0.0593;
}

int
cvcore_tonemap_box_edge (int i)
{
  return i >= 0 && i < CVCORE_TONEMAP_MAX_SCALES ? cv_tonemap_edge (i) : 0;
}

cvcore_status
cvcore_tonemapper_new (cvcore_device * device, int width, int height,
    cvcore_tonemapper ** tonemapper)
{
  cvcore_tonemapper *tm;
  cvcore_status status;

  *tonemapper = NULL;
  if (width < 1 || height < 1)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping of a %dx%d frame", width, height);
  tm = calloc (1, sizeof (*tm));
  if (tm == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "tone mapper");
  tm->device = device;
  tm->width = width;
  tm->height = height;
  tm->reset = true;

  if (device->backend == CVCORE_BACKEND_CPU) {
    tm->luminance = malloc (sizeof (double) * width * height);
    tm->row_sums = malloc (sizeof (double) * (width + 1) * height);
    tm->rgba = malloc ((size_t) 4 * width * height);
    if (tm->luminance == NULL || tm->row_sums == NULL || tm->rgba == NULL) {
      cvcore_tonemapper_free (tm);
      return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY,
          "tone mapping of %dx%d", width, height);
    }
    *tonemapper = tm;
    return CVCORE_OK;
  }

  status = cvcore_plane_alloc (device, sizeof (float) * width, height,
      (void **) &tm->scratch.luminance, &tm->scratch.luminance_pitch);
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device,
        sizeof (double) * 3 * CV_TONEMAP_MAX_PARTIALS,
        (void **) &tm->scratch.partials);
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device, sizeof (cvcore_tonemap_adaptation),
        (void **) &tm->scratch.adaptation);
  if (status != CVCORE_OK) {
    cvcore_tonemapper_free (tm);
    return status;
  }
  *tonemapper = tm;
  return CVCORE_OK;
}

void
cvcore_tonemapper_free (cvcore_tonemapper * tm)
{
  if (tm == NULL)
    return;
  if (tm->scratch.luminance)
    cvcore_device_free (tm->device, tm->scratch.luminance);
  if (tm->scratch.partials)
    cvcore_device_free (tm->device, tm->scratch.partials);
  if (tm->scratch.adaptation)
    cvcore_device_free (tm->device, tm->scratch.adaptation);
  if (tm->scratch.rgba)
    cvcore_device_free (tm->device, tm->scratch.rgba);
  free (tm->luminance);
  free (tm->row_sums);
  free (tm->rgba);
  free (tm);
}

void
cvcore_tonemapper_reset (cvcore_tonemapper * tm)
{
  tm->reset = true;
}

cvcore_status
cvcore_tonemapper_adaptation (cvcore_tonemapper * tm, cvcore_stream * stream,
    cvcore_tonemap_adaptation * adapted)
{
  cvcore_status status;

  if (tm->device->backend == CVCORE_BACKEND_CPU) {
    *adapted = tm->adapted;
    return CVCORE_OK;
  }
  status = cvcore_copy_async (stream, adapted, tm->scratch.adaptation,
      sizeof (*adapted), CVCORE_COPY_DEVICE_TO_HOST);
  if (status == CVCORE_OK)
    status = cvcore_stream_synchronize (stream);
  return status;
}

/* --- dispatch ----------------------------------------------------------- */

static bool
params_valid (const cvcore_tonemap_params * p)
{
  return p->key > 0.0 && isfinite (p->key) && p->delta > 0.0
      && isfinite (p->delta) && p->white_point > 0.0
      && p->scales >= 2 && p->scales <= CVCORE_TONEMAP_MAX_SCALES
      && isfinite (p->phi) && p->epsilon >= 0.0 && p->saturation >= 0.0
      && isfinite (p->saturation) && p->input_scale > 0.0
      && isfinite (p->input_scale) && p->adaptation_time >= 0.0
      && (p->op == CVCORE_TONEMAP_GLOBAL || p->op == CVCORE_TONEMAP_LOCAL);
}

static bool
plane_ok (const cvcore_image * im, int w, int h, int channels,
    cvcore_sample sample)
{
  return im->data != NULL && im->width == w && im->height == h
      && im->channels == channels && im->sample == sample
      && im->pitch >= (size_t) w *channels *
      (sample == CVCORE_SAMPLE_U16 ? 2 : 1);
}

static bool
frames_ok (const cvcore_tonemapper * tm, const cvcore_tonemap_frame * src,
    const cvcore_tonemap_frame * dst, const cvcore_tonemap_params * p)
{
  const int w = tm->width, h = tm->height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  const cvcore_tonemap_source *s = &p->source;
  const cvcore_sample sample = src->plane[0].sample;
  bool ok;

  switch (s->layout) {
    case CVCORE_TONEMAP_PACKED:
      ok = plane_ok (&src->plane[0], w, h, 1, sample)
          || plane_ok (&src->plane[0], w, h, 4, sample);
      break;
    case CVCORE_TONEMAP_YUV420_SEMI:
      ok = plane_ok (&src->plane[0], w, h, 1, sample)
          && plane_ok (&src->plane[1], cw, ch, 2, sample);
      break;
    case CVCORE_TONEMAP_YUV420:
      ok = plane_ok (&src->plane[0], w, h, 1, sample)
          && plane_ok (&src->plane[1], cw, ch, 1, sample)
          && plane_ok (&src->plane[2], cw, ch, 1, sample);
      break;
    default:
      return false;
  }
  if (s->layout != CVCORE_TONEMAP_PACKED)
    ok = ok && s->shift >= 0 && s->shift < 16 && s->y_range > 0.0
        && s->c_range > 0.0 && s->kr > 0.0 && s->kb > 0.0
        && s->kr + s->kb < 1.0;
  if (p->output == CVCORE_TONEMAP_OUT_NV12)
    return ok && plane_ok (&dst->plane[0], w, h, 1, CVCORE_SAMPLE_U8)
        && plane_ok (&dst->plane[1], cw, ch, 2, CVCORE_SAMPLE_U8);
  return ok && (p->output == CVCORE_TONEMAP_OUT_RGBA
      || p->output == CVCORE_TONEMAP_OUT_BGRX)
      && plane_ok (&dst->plane[0], w, h, 4, CVCORE_SAMPLE_U8);
}

cvcore_status
cvcore_tonemap (cvcore_stream * stream, cvcore_tonemapper * tm,
    const cvcore_tonemap_frame * src, const cvcore_tonemap_frame * dst,
    const cvcore_tonemap_params * params, double dt)
{
  cvcore_status status;

  if (!frames_ok (tm, src, dst, params))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping frames do not match the %dx%d tone mapper or the "
        "source and output layouts", tm->width, tm->height);
  if (!params_valid (params))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapping parameters out of range");
  if (cvcore_stream_device (stream) != tm->device)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "tone mapper and stream of different devices");

  status = CV_DISPATCH (tm->device, cv_tonemap_cpu (tm, src, dst, params, dt),
      cv_tonemap_cuda (stream, &tm->scratch, src, dst, params, dt, tm->reset));
  if (status == CVCORE_OK)
    tm->reset = false;
  return status;
}
