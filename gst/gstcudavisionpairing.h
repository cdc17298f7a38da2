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

/* Frames of several views of one scene (an aggregator's sink pads, left
 * and right, or a rig's cameras) paired by timestamp: the views' first
 * frames pair when they lie within half a frame of each other; otherwise
 * the earliest of them is dropped, with one warning for the stream and a
 * count. Used from the aggregator's streaming thread. */
#ifndef __GST_CUDA_VISION_PAIRING_H__
#define __GST_CUDA_VISION_PAIRING_H__

#include <gst/gst.h>
#include <gst/base/gstaggregator.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

typedef struct
{
  /* frames dropped since the last reset */
  guint dropped;
} GstCudaVisionPairing;

typedef enum
{
  /* every view's first frame is there, and they pair */
  GST_CUDA_VISION_PAIRING_READY,
  /* a view has no frame yet */
  GST_CUDA_VISION_PAIRING_WAIT,
  /* a view has ended: nothing more pairs */
  GST_CUDA_VISION_PAIRING_ENDED,
  /* the earliest first frame did not pair and was dropped: ask again */
  GST_CUDA_VISION_PAIRING_DROPPED,
} GstCudaVisionPairingResult;

/* Whether the first frames of @views (@n_views of them, @names for the
 * warning, such as "left" and "right") pair; @info's frame rate sets the
 * tolerance (half a frame; 1 ms without a rate). @element warns. */
GstCudaVisionPairingResult gst_cuda_vision_pairing_check
    (GstCudaVisionPairing * self, GstElement * element,
    GstAggregatorPad * const *views, const gchar * const *names,
    guint n_views, const GstVideoInfo * info);

void gst_cuda_vision_pairing_reset (GstCudaVisionPairing * self);

G_END_DECLS

#endif /* __GST_CUDA_VISION_PAIRING_H__ */
