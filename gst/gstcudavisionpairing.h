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

/* Frames of several views of one scene (left and right, or a rig's
 * cameras) paired by timestamp: each view queues its frames as they come,
 * and the views' first frames pair when they lie within half a frame of
 * each other; otherwise the earliest of them is dropped, with one warning
 * for the stream and a count. The caller holds the lock that guards the
 * views. */
#ifndef __GST_CUDA_VISION_PAIRING_H__
#define __GST_CUDA_VISION_PAIRING_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* One view's frames that wait for the other views', oldest first, and
 * whether more can come. */
typedef struct
{
  GQueue frames;
  /* the view has ended: no frame comes after those queued */
  gboolean eos;
  /* a flush, a stop or a released pad: its frames are refused */
  gboolean flushing;
} GstCudaVisionView;

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

GstCudaVisionPairingResult gst_cuda_vision_pairing_check
    (GstCudaVisionPairing * self, GstElement * element,
    GstCudaVisionView * const *views, const gchar * const *names,
    guint n_views, const GstVideoInfo * info);

void gst_cuda_vision_pairing_reset (GstCudaVisionPairing * self);

/* Drops @view's frames and sets its state. */
void gst_cuda_vision_view_reset (GstCudaVisionView * view, gboolean flushing);

G_END_DECLS

#endif /* __GST_CUDA_VISION_PAIRING_H__ */
