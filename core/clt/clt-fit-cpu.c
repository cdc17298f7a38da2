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

/* The motion-field fit: the CPU reference, in the arithmetic the kernels
 * share (clt-fit-common.h). */
#include "clt-fit-common.h"
#include "clt-private.h"

cvcore_status
cv_clt_fit_cpu (const float *shapes, const cvcore_clt_match * matches,
    int width, int height, int radius, const CvCltFitViews * views,
    cvcore_clt_match * fitted)
{
  const int tiles = cvcore_clt_tiles (width) * cvcore_clt_tiles (height);

  for (int t = 0; t < tiles; t++)
    fitted[t] = cv_clt_fit_match (matches, shapes, width, height, radius,
        views, t);
  return CVCORE_OK;
}
