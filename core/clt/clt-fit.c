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

/* The motion-field fit of phase correlation's matches: the dispatch. */
#include "clt-fit-common.h"
#include "clt-private.h"

cvcore_status
cvcore_clt_shapes (cvcore_stream * stream, const cvcore_image * src,
    int channel, float *shapes)
{
  if (src->width < 1 || src->height < 1 || channel < 0
      || channel >= src->channels)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "tile shapes of channel %d of %dx%dx%d", channel, src->width,
        src->height, src->channels);
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_shapes_cpu (src, channel, shapes),
      cv_clt_shapes_cuda (stream, src, channel, shapes));
}

cvcore_status
cvcore_clt_fit (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    cvcore_clt_match * fitted)
{
  return cv_clt_fit_frames (stream, shapes, matches, width, height, radius,
      false, fitted);
}

cvcore_status
cv_clt_fit_frames (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    bool after_kernel, cvcore_clt_match * fitted)
{
  const CvCltFitViews two_frames = { false, 0.0f, 0.0f, 0.0f, 0.0f };

  return cv_clt_fit_checked (stream, shapes, matches, width, height, radius,
      &two_frames, after_kernel, fitted);
}

cvcore_status
cv_clt_fit_checked (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    const CvCltFitViews * views, bool after_kernel, cvcore_clt_match * fitted)
{
  if (width < 1 || height < 1 || radius < 1
      || radius > CVCORE_CLT_MAX_FIT_RADIUS || matches == fitted)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "motion fit of radius %d for %dx%d%s", radius, width, height,
        matches == fitted ? ", in place" : "");
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_fit_cpu (shapes, matches, width, height, radius, views, fitted),
      cv_clt_fit_cuda (stream, shapes, matches, width, height, radius, views,
          after_kernel, fitted));
}
