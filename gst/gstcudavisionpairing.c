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

/* Frames of several views paired by timestamp: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionpairing.h"

static GstClockTime
tolerance_of (const GstVideoInfo * info)
{
  if (GST_VIDEO_INFO_FPS_N (info) > 0)
    return gst_util_uint64_scale (GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
        2 * GST_VIDEO_INFO_FPS_N (info));
  return GST_MSECOND;
}


GstCudaVisionPairingResult
gst_cuda_vision_pairing_check (GstCudaVisionPairing * self,
    GstElement * element, GstCudaVisionView * const *views,
    const gchar * const *names, guint n_views, const GstVideoInfo * info)
{
  const GstClockTime tolerance = tolerance_of (info);
  GstClockTime earliest = GST_CLOCK_TIME_NONE, latest = 0;
  guint first = 0, last = 0;

  for (guint v = 0; v < n_views; v++) {
    GstClockTime t;

    if (g_queue_is_empty (&views[v]->frames))
      return views[v]->eos ?
          GST_CUDA_VISION_PAIRING_ENDED : GST_CUDA_VISION_PAIRING_WAIT;
    /* a frame without a time pairs with any */
    t = GST_BUFFER_PTS (g_queue_peek_head (&views[v]->frames));
    if (!GST_CLOCK_TIME_IS_VALID (t))
      continue;
    if (!GST_CLOCK_TIME_IS_VALID (earliest) || t < earliest) {
      earliest = t;
      first = v;
    }
    if (t >= latest) {
      latest = t;
      last = v;
    }
  }
  if (!GST_CLOCK_TIME_IS_VALID (earliest) || latest - earliest <= tolerance)
    return GST_CUDA_VISION_PAIRING_READY;

  GST_DEBUG_OBJECT (element, "dropping an unpaired %s frame", names[first]);
  if (self->dropped++ == 0)
    GST_ELEMENT_WARNING (element, STREAM, FAILED,
        ("The %s and %s frames do not pair: unpaired frames are dropped",
            names[first], names[last]),
        ("%s at %" GST_TIME_FORMAT ", %s at %" GST_TIME_FORMAT ": %.3f ms "
            "apart, more than the %.3f ms (half a frame) that pairs them",
            names[first], GST_TIME_ARGS (earliest), names[last],
            GST_TIME_ARGS (latest), (gdouble) (latest - earliest) /
            GST_MSECOND, (gdouble) tolerance / GST_MSECOND));
  gst_buffer_unref (g_queue_pop_head (&views[first]->frames));
  return GST_CUDA_VISION_PAIRING_DROPPED;
}

void
gst_cuda_vision_pairing_reset (GstCudaVisionPairing * self)
{
  self->dropped = 0;
}

void
gst_cuda_vision_view_reset (GstCudaVisionView * view, gboolean flushing)
{
  g_queue_clear_full (&view->frames, (GDestroyNotify) gst_buffer_unref);
  view->eos = FALSE;
  view->flushing = flushing;
}
