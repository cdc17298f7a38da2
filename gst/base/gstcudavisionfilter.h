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

/* GstCudaVisionFilter: base class of the device-to-device filters.
 *
 * Both pads carry memory:CUDAVisionMemory. The class proposes device pools
 * upstream, picks one downstream, orders the element's stream after the
 * input's and output's last uses, calls process() with frames mapped to
 * device pointers, and marks the end of the frames' use on the stream.
 * Nothing waits on the host. Controllable properties are synchronised to
 * each buffer's stream time before it is processed.
 *
 * A subclass holds what frames of the negotiated caps need (scratch
 * memory, plans) between prepare() and release(); the class calls
 * release() on new caps and at stop, once the element's queued work is
 * done. */
#ifndef __GST_CUDA_VISION_FILTER_H__
#define __GST_CUDA_VISION_FILTER_H__

#include "gstcudavisionbasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_FILTER (gst_cuda_vision_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaVisionFilter, gst_cuda_vision_filter, GST,
    CUDA_VISION_FILTER, GstCudaVisionBaseTransform);

struct _GstCudaVisionFilterClass
{
  GstCudaVisionBaseTransformClass parent_class;

  /* Queue the work for one frame on @stream; planes hold device pointers. */
  GstFlowReturn (*process) (GstCudaVisionFilter * self,
      cvcore_stream * stream, GstVideoFrame * in_frame,
      GstVideoFrame * out_frame);
  /* Optional: in-place variant, used when the base class runs in place. */
  GstFlowReturn (*process_ip) (GstCudaVisionFilter * self,
      cvcore_stream * stream, GstVideoFrame * frame);
  /* Optional: called on new caps, after release(); the device is open. */
  gboolean (*prepare) (GstCudaVisionFilter * self, GstCaps * incaps,
      const GstVideoInfo * in_info, GstCaps * outcaps,
      const GstVideoInfo * out_info);
  /* Optional: frees what prepare() or process() made. */
  void (*release) (GstCudaVisionFilter * self);
};

/* Waits for the element's queued work, then calls release(): for a
 * subclass whose scratch must grow mid-stream. */
void gst_cuda_vision_filter_release (GstCudaVisionFilter * self);

/* Adds "sink" and "src" templates of memory:CUDAVisionMemory video in
 * @formats (a caps format list such as "{ RGBA, GRAY8 }"). */
void gst_cuda_vision_filter_class_add_pad_templates (GstCudaVisionFilterClass
    * klass, const gchar * formats);
/* The same with different formats on the two pads (format converters). */
void gst_cuda_vision_filter_class_add_pad_templates_full
    (GstCudaVisionFilterClass * klass, const gchar * sink_formats,
    const gchar * src_formats);

/* The same with any caps (not taken) on the two pads. */
void gst_cuda_vision_filter_class_add_pad_templates_caps
    (GstCudaVisionFilterClass * klass, GstCaps * sink_caps, GstCaps * src_caps);

/* transform_caps of converters: any format of the other pad's template at
 * the same size and rate (colorimetry and chroma siting dropped). */
GstCaps *gst_cuda_vision_filter_convert_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_FILTER_H__ */
