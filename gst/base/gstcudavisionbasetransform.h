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

/* GstCudaVisionBaseTransform: what every cudavision transform shares: the
 * device (chosen by device-id and shared through GstContext), the element's
 * stream, and the negotiated video infos. */
#ifndef __GST_CUDA_VISION_BASE_TRANSFORM_H__
#define __GST_CUDA_VISION_BASE_TRANSFORM_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_BASE_TRANSFORM \
    (gst_cuda_vision_base_transform_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaVisionBaseTransform,
    gst_cuda_vision_base_transform, GST, CUDA_VISION_BASE_TRANSFORM,
    GstBaseTransform);

struct _GstCudaVisionBaseTransformClass
{
  GstBaseTransformClass parent_class;

  /* Called after the caps are parsed into in_info and out_info. */
  gboolean (*set_info) (GstCudaVisionBaseTransform * self, GstCaps * incaps,
      GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info);
};

/* Valid between start() and stop(). */
GstCudaVisionDevice *gst_cuda_vision_base_transform_get_device
    (GstCudaVisionBaseTransform * self);
cvcore_stream *gst_cuda_vision_base_transform_get_stream
    (GstCudaVisionBaseTransform * self);
/* Ends a use of @mem on the element's stream, begun with
 * gst_cuda_vision_device_memory_begin_access (). */
gboolean gst_cuda_vision_base_transform_end_access (GstCudaVisionBaseTransform
    * self, GstMemory * mem);
/* The same once the host has waited for the stream's work: queues nothing
 * where it can tell that every use of @mem is complete. */
gboolean gst_cuda_vision_base_transform_end_access_waited
    (GstCudaVisionBaseTransform * self, GstMemory * mem);
/* Around the device work of one frame, queued on the element's stream:
 * where the debug level is INFO or more, its device time is measured and
 * its median logged at stop. */
void gst_cuda_vision_base_transform_work_begins (GstCudaVisionBaseTransform *
    self);
void gst_cuda_vision_base_transform_work_ends (GstCudaVisionBaseTransform *
    self);
/* Waits until the work the element queued is done (nothing outside start()
 * .. stop()), before memory that work uses is freed. */
void gst_cuda_vision_base_transform_finish_work (GstCudaVisionBaseTransform *
    self);
/* Valid after caps are set. */
const GstVideoInfo *gst_cuda_vision_base_transform_get_in_info
    (GstCudaVisionBaseTransform * self);
const GstVideoInfo *gst_cuda_vision_base_transform_get_out_info
    (GstCudaVisionBaseTransform * self);

/* The backend the elements run on, from the environment (also before a
 * device is open, as caps queries come). */
cvcore_backend gst_cuda_vision_caps_backend (void);

/* transform_caps of the device side: @caps (taken) with every structure in
 * both device memory features, its own first, as far as the backend
 * carries them. (A CPU backend whose neighbour takes memory:CUDAMemory
 * alone says once, in a warning, why they cannot negotiate.) */
GstCaps *gst_cuda_vision_base_transform_device_caps (GstCudaVisionBaseTransform
    * self, GstCaps * caps);

/* Posts an element error for a failed core call, with the core's message
 * as debug text, and returns GST_FLOW_ERROR. */
GstFlowReturn gst_cuda_vision_base_transform_core_error
    (GstCudaVisionBaseTransform * self, const gchar * what);

G_END_DECLS

#endif /* __GST_CUDA_VISION_BASE_TRANSFORM_H__ */
