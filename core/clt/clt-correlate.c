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

/* CLT phase correlation: parameters and the dispatch. */
#include "clt-private.h"

#include <math.h>
#include <string.h>

void
cvcore_clt_corr_params_init (cvcore_clt_corr_params * params)
{
  memset (params, 0, sizeof (*params));
  params->fat_zero = 1e-2;
  params->lowpass = 1.0;
  params->search_radius = CVCORE_CLT_MAX_SEARCH;
  params->refinements = 2;
  params->converge = 0.01;
  params->full_scale = 255.0;
  params->fit_radius = 3;
  params->max_dy = -1.0;
}

static cvcore_status
check_correlation (const cvcore_image * b, int channel,
    const cvcore_clt_corr_params * params)
{
  if (b->width < 1 || b->height < 1 || channel < 0
      || channel >= b->channels || params->search_radius < 1
      || params->search_radius > CVCORE_CLT_MAX_SEARCH
      || params->refinements < 0
      || params->refinements > CVCORE_CLT_MAX_REFINEMENTS
      || !(params->converge >= 0.0 && params->converge <= 1.0)
      || !(fabs (params->initial_x) <= CVCORE_CLT_MAX_SHIFT)
      || !(fabs (params->initial_y) <= CVCORE_CLT_MAX_SHIFT)
      || !(params->fat_zero >= 0.0) || !(params->full_scale > 0.0)
      || !(params->lowpass >= 0.0 && params->lowpass <= 16.0)
      || params->fit_radius < 0
      || params->fit_radius > CVCORE_CLT_MAX_FIT_RADIUS)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "phase correlation of %dx%d, radius %d, %d refinements, fat zero %g",
        b->width, b->height, params->search_radius, params->refinements,
        params->fat_zero);
  return CVCORE_OK;
}

cvcore_status
cvcore_clt_correlate (cvcore_stream * stream, const float *a,
    const cvcore_image * b, int channel,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches)
{
  cvcore_status status = check_correlation (b, channel, params);

  if (status != CVCORE_OK)
    return status;
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_correlate_cpu (a, b, channel, params, matches),
      cv_clt_correlate_cuda (stream, a, b, channel, params, NULL, matches));
}

static cvcore_status
predict_and_correlate_cpu (const cvcore_clt_match * coarse, const float *a,
    const cvcore_image * b, int channel,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches)
{
  cvcore_status status = cv_clt_predict_cpu (coarse, b->width, b->height,
      matches);

  if (status != CVCORE_OK)
    return status;
  return cv_clt_correlate_cpu (a, b, channel, params, matches);
}

cvcore_status
cv_clt_correlate_predicted (cvcore_stream * stream,
    const cvcore_clt_match * coarse, const float *a, const cvcore_image * b,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches)
{
  cvcore_clt_corr_params guided = *params;
  cvcore_status status = check_correlation (b, channel, params);

  if (status != CVCORE_OK)
    return status;
  guided.guided = true;
  /* on CUDA the first pass predicts for itself: a launch fewer in the
   * chain of the pyramid's levels */
  return CV_DISPATCH (cvcore_stream_device (stream),
      predict_and_correlate_cpu (coarse, a, b, channel, &guided, matches),
      cv_clt_correlate_cuda (stream, a, b, channel, &guided, coarse, matches));
}

cvcore_status
cvcore_clt_draw_matches (cvcore_stream * stream, const cvcore_image * dst,
    const cvcore_clt_match * matches, double scale, double min_confidence,
    const unsigned colour[4])
{
  if (dst->width < 1 || dst->height < 1 || dst->channels < 1
      || dst->channels > 4 || !(scale >= 0.0 && scale <= 1000.0))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "drawing matches on %dx%dx%d at scale %g", dst->width, dst->height,
        dst->channels, scale);
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_draw_matches_cpu (dst, matches, scale, min_confidence, colour),
      cv_clt_draw_matches_cuda (stream, dst, matches,
          (float) scale, (float) min_confidence, colour));
}
