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

/* Foveation: the dispatch of a frame to its rendering (the stack or the
 * direct one) and backend. */
#include "foveate-private.h"

/* @src and @dst of 8-bit samples as @plan has them, 1, 2 or 4 channels */
static bool
shapes_fit (const cvcore_image * src, const cvcore_image * dst,
    const cvcore_foveate_plan * plan)
{
  return src->width == dst->width && src->height == dst->height
      && src->channels == dst->channels && src->sample == CVCORE_SAMPLE_U8
      && dst->sample == CVCORE_SAMPLE_U8 && src->width == plan->width
      && src->height == plan->height
      && (src->channels == 1 || src->channels == 2 || src->channels == 4);
}

cvcore_status
cvcore_foveate (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned channel_mask,
    const cvcore_foveate_plan * plan)
{
  if (!shapes_fit (src, dst, plan))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation of %dx%dx%d into %dx%dx%d with a %dx%d plan", src->width,
        src->height, src->channels, dst->width, dst->height, dst->channels,
        plan->width, plan->height);
  if (src->data == dst->data)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation cannot run in place");

  if (cvcore_foveate_plan_stacked (plan))
    return cv_foveate_stack_render (stream, src, dst, channel_mask, plan);
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_foveate_cpu (src, dst, channel_mask, plan),
      cv_foveate_cuda (stream, src, dst, channel_mask, plan));
}

cvcore_status
cvcore_foveate_planes (cvcore_stream * stream, int n_planes,
    const cvcore_image * src, const cvcore_image * dst,
    const unsigned *channel_masks, const cvcore_foveate_plan * const *plans)
{
  if (n_planes < 1 || n_planes > 4)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation of %d planes (1 to 4)", n_planes);
#ifdef CVCORE_HAVE_CUDA
  if (n_planes == 2
      && cvcore_stream_device (stream)->backend == CVCORE_BACKEND_CUDA
      && shapes_fit (&src[0], &dst[0], plans[0])
      && shapes_fit (&src[1], &dst[1], plans[1])
      && src[0].data != dst[0].data && src[1].data != dst[1].data
      && !cvcore_foveate_plan_stacked (plans[0])
      && !cvcore_foveate_plan_stacked (plans[1]))
    return cv_foveate_cuda_luma_chroma (stream, src, dst, channel_masks, plans);
#endif
  for (int p = 0; p < n_planes; p++)
    CV_TRY (cvcore_foveate (stream, &src[p], &dst[p], channel_masks[p],
            plans[p]));
  return CVCORE_OK;
}
