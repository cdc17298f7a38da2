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

/* The complex lapped transform: plan, scratch and the dispatch to a
 * backend. */
#include "clt-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
cvcore_clt_tiles (int pixels)
{
  return cv_clt_tiles (pixels);
}

void
cvcore_clt_params_init (cvcore_clt_params * params)
{
  memset (params, 0, sizeof (*params));
  params->operation = CVCORE_CLT_NONE;
  params->sigma = 1.0;
  params->channel_mask = 1;
  params->mosaic_method = CVCORE_CLT_MOSAIC_SPARSE;
}

static double
omega (int k)
{
  return CV_PI * (k + 0.5) / 8.0;
}

void
cv_clt_plan_init (cv_clt_plan * plan, int width, int height,
    const cvcore_clt_params * params)
{
  /* ITU-R BT.601's, as GStreamer's converters take grey from RGB */
  static const double luma_weights[3] = { 0.299, 0.587, 0.114 };
  double fx = 0.0, fy = 0.0;

  memset (plan, 0, sizeof (*plan));
  plan->width = width;
  plan->height = height;
  plan->tiles_x = cvcore_clt_tiles (width);
  plan->tiles_y = cvcore_clt_tiles (height);
  plan->operation = params->operation;
  plan->bayer = params->bayer;
  plan->sparse = params->bayer
      && params->mosaic_method == CVCORE_CLT_MOSAIC_SPARSE;
  plan->grey = params->bayer && params->grey != CVCORE_CLT_GREY_NONE;
  for (int c = 0; c < 3 && plan->grey; c++)
    plan->grey_weight[c] = params->grey == CVCORE_CLT_GREY_GREEN ?
        (c == 1) : luma_weights[c];
  for (int k = 0; k < 8; k++)
    plan->demosaic[k] = 1.0 + cos (CV_PI * k / 7.0);
  if (params->operation == CVCORE_CLT_SHIFT) {
    plan->offset_x = (int) lround (params->shift_x);
    plan->offset_y = (int) lround (params->shift_y);
    fx = params->shift_x - plan->offset_x;
    fy = params->shift_y - plan->offset_y;
  }
  for (int n = 0; n < 16; n++) {
    plan->window[n] = cv_clt_window (n, 0.0);
    plan->window_x[n] = cv_clt_window (n, fx);
    plan->window_y[n] = cv_clt_window (n, fy);
  }
  for (int k = 0; k < 8; k++) {
    if (params->operation == CVCORE_CLT_SHIFT) {
      plan->factor_x[k][0] = cos (omega (k) * fx);
      plan->factor_x[k][1] = sin (omega (k) * fx);
      plan->factor_y[k][0] = cos (omega (k) * fy);
      plan->factor_y[k][1] = sin (omega (k) * fy);
    } else if (params->operation == CVCORE_CLT_LOWPASS) {
      const double s2 = params->sigma * params->sigma;

      /* unit gain at omega_0, where a flat region's windowed tiles lie
       * entirely (see cvclt.h) */
      plan->factor_x[k][0] = exp (-0.5 * s2 * (omega (k) * omega (k) -
              omega (0) * omega (0)));
      plan->factor_y[k][0] = plan->factor_x[k][0];
    } else {
      plan->factor_x[k][0] = plan->factor_y[k][0] = 1.0;
    }
  }
}

cvcore_status
cvcore_clt_scratch_new (cvcore_device * device, int width, int height,
    int channels, bool mosaics, cvcore_clt_scratch ** clt)
{
  cvcore_clt_scratch *s;
  cvcore_status status;

  *clt = NULL;
  if (width < 1 || height < 1 || channels < 1 || channels > 4
      || (mosaics && channels != 3))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT of %dx%d with %d channels%s", width, height, channels,
        mosaics ? " and mosaics" : "");
  s = calloc (1, sizeof (*s));
  if (s == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "CLT scratch");
  s->device = device;
  s->width = width;
  s->height = height;
  s->channels = channels;
  if (device->backend == CVCORE_BACKEND_CPU) {
    status = cvcore_device_alloc (device, sizeof (double) * width * height,
        &s->planes);
  } else {
    /* 4 quadrant planes per channel of tiles_y * 8 rows of tiles_x * 8 */
    status = cvcore_plane_alloc (device, sizeof (float) * 8 *
        cvcore_clt_tiles (width), (size_t) 4 * channels * 8 *
        cvcore_clt_tiles (height), &s->planes, &s->plane_pitch);
  }
  s->mosaics = mosaics;
  if (status != CVCORE_OK) {
    cvcore_clt_scratch_free (s);
    return status;
  }
  *clt = s;
  return CVCORE_OK;
}

void
cvcore_clt_scratch_free (cvcore_clt_scratch * clt)
{
  if (clt == NULL)
    return;
  if (clt->planes)
    cvcore_device_free (clt->device, clt->planes);
  if (clt->kernels)
    cvcore_device_free (clt->device, clt->kernels);
  if (clt->colours)
    cvcore_device_free (clt->device, clt->colours);
  free (clt);
}

cvcore_status
cvcore_clt_set_kernels (cvcore_clt_scratch * clt, cvcore_stream * stream,
    const cvcore_clt_kernel_set * set)
{
  const size_t bytes = sizeof (float) * CVCORE_CLT_COEFFICIENTS *
      set->channels * set->nodes_x * set->nodes_y;
  cvcore_status status;

  if (set->width != clt->width || set->height != clt->height)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "the kernel set is for %dx%d frames, these are %dx%d", set->width,
        set->height, clt->width, clt->height);
  if (clt->kernels)
    cvcore_device_free (clt->device, clt->kernels);
  clt->kernels = NULL;
  status = cvcore_device_alloc (clt->device, bytes, (void **) &clt->kernels);
  if (status != CVCORE_OK)
    return status;
  if (clt->device->backend == CVCORE_BACKEND_CPU) {
    status = cvcore_copy_async (stream, clt->kernels, set->data, bytes,
        CVCORE_COPY_HOST_TO_DEVICE);
  } else {
    /* CUDA lanes read each response as [layer][k][l] */
    float *t = malloc (bytes);

    if (t == NULL)
      return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "kernel set");
    for (size_t node = 0; node < bytes / sizeof (float) / 256; node++)
      for (int i = 0; i < 256; i++)
        t[node * 256 + (i & ~63) + (i & 7) * 8 + (i >> 3 & 7)] =
            set->data[node * 256 + i];
    status = cvcore_copy_async (stream, clt->kernels, t, bytes,
        CVCORE_COPY_HOST_TO_DEVICE);
    /* the copy reads @t before the stream goes on */
    if (status == CVCORE_OK)
      status = cvcore_stream_synchronize (stream);
    free (t);
  }
  clt->set = *set;
  clt->set.data = NULL;
  return status;
}

/* A 2x2 cell of red, green and blue sites, each colour present. */
static bool
valid_pattern (unsigned pattern)
{
  unsigned seen = 0;

  if (pattern >> 8)
    return false;
  for (int i = 0; i < 4; i++) {
    const unsigned colour = pattern >> (2 * i) & 3;

    if (colour > 2)
      return false;
    seen |= 1u << colour;
  }
  return seen == 7;
}

static bool
valid_params (const cvcore_clt_params * p)
{
  return p->operation >= CVCORE_CLT_NONE
      && p->operation <= CVCORE_CLT_DECONVOLVE
      && fabs (p->shift_x) <= CVCORE_CLT_MAX_SHIFT
      && fabs (p->shift_y) <= CVCORE_CLT_MAX_SHIFT
      && p->sigma >= 0.0 && p->sigma <= CVCORE_CLT_MAX_SIGMA
      && (p->mosaic_method == CVCORE_CLT_MOSAIC_INTERPOLATE
      || p->mosaic_method == CVCORE_CLT_MOSAIC_SPARSE)
      && p->grey >= CVCORE_CLT_GREY_NONE && p->grey <= CVCORE_CLT_GREY_GREEN;
}

cvcore_status
cvcore_clt (cvcore_stream * stream, cvcore_clt_scratch * clt,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_clt_params * params)
{
  cv_clt_plan plan;
  int processed = 0;
  bool channels_fit;

  for (int c = 0; c < src->channels; c++)
    processed += (params->channel_mask >> c) & 1;
  if (params->bayer)
    channels_fit = src->channels == 1 && (dst->channels == 1
        || (dst->channels == 4 && params->grey == CVCORE_CLT_GREY_NONE))
        && clt->mosaics && valid_pattern (params->bayer);
  else
    channels_fit = dst->channels == src->channels && src->channels >= 1
        && src->channels <= 4 && processed <= clt->channels
        && params->grey == CVCORE_CLT_GREY_NONE;
  if (src->width != clt->width || src->height != clt->height
      || dst->width != src->width || dst->height != src->height
      || dst->sample != src->sample || !channels_fit)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT of %dx%dx%d%s into %dx%dx%d%s with a %dx%d scratch of %d "
        "channels%s", src->width, src->height, src->channels,
        params->bayer ? " (mosaic)" : "", dst->width, dst->height,
        dst->channels, params->grey ? " (grey)" : "", clt->width,
        clt->height, clt->channels, clt->mosaics ? " and mosaics" : "");
  if (!valid_params (params))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT parameters out of range (shift %g, %g, sigma %g)",
        params->shift_x, params->shift_y, params->sigma);
  if (params->operation == CVCORE_CLT_DECONVOLVE) {
    if (clt->kernels == NULL)
      return cv_fail (CVCORE_ERROR_INVALID_VALUE,
          "deconvolution without a kernel set");
    for (int c = 0; c < src->channels && clt->set.channels == 3
        && !params->bayer; c++)
      if ((params->channel_mask >> c & 1) && (params->kernel_channel[c] < 0
              || params->kernel_channel[c] > 2))
        return cv_fail (CVCORE_ERROR_INVALID_VALUE,
            "kernel channel %d of channel %d", params->kernel_channel[c], c);
  }
  if (cvcore_stream_device (stream) != clt->device)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT scratch and stream of different devices");
  cv_clt_plan_init (&plan, src->width, src->height, params);
  return CV_DISPATCH (clt->device,
      cv_clt_cpu (clt, src, dst, params, &plan),
      cv_clt_cuda (stream, clt, src, dst, params, &plan));
}

cvcore_status
cvcore_clt_forward (cvcore_stream * stream, const cvcore_image * src,
    int channel, int offset_x, int offset_y, float *coefficients)
{
  cvcore_device *device = cvcore_stream_device (stream);
  cvcore_clt_params params;
  cv_clt_plan plan;

  if (channel < 0 || channel >= src->channels || src->width < 1
      || src->height < 1)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT of channel %d of a %dx%dx%d image", channel, src->width,
        src->height, src->channels);
  if (abs (offset_x) > CVCORE_CLT_MAX_SHIFT
      || abs (offset_y) > CVCORE_CLT_MAX_SHIFT)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "CLT sampling offset %d, %d", offset_x, offset_y);
  cvcore_clt_params_init (&params);
  params.operation = CVCORE_CLT_SHIFT;
  params.shift_x = offset_x;
  params.shift_y = offset_y;
  cv_clt_plan_init (&plan, src->width, src->height, &params);
  return CV_DISPATCH (device,
      cv_clt_forward_cpu (src, channel, &plan, coefficients),
      cv_clt_forward_cuda (stream, src, channel, &plan, coefficients));
}
