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

/* GstCudaVisionDevice: one device of the core's selected backend, shared by
 * the elements of a pipeline through GstContext. */
#ifndef __GST_CUDA_VISION_DEVICE_H__
#define __GST_CUDA_VISION_DEVICE_H__

#include <gst/gst.h>
#include "cvcore.h"

G_BEGIN_DECLS

#define GST_CUDA_VISION_DEVICE_CONTEXT_TYPE "gst.cudavision.device"
/* Environment variable that picks the backend: "cuda" (default) or "cpu". */
#define GST_CUDA_VISION_BACKEND_ENV "GST_CUDAVISION_BACKEND"
#define GST_TYPE_CUDA_VISION_DEVICE (gst_cuda_vision_device_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionDevice, gst_cuda_vision_device, GST,
    CUDA_VISION_DEVICE, GstObject);

GstCudaVisionDevice *gst_cuda_vision_device_new (gint device_id,
    GError ** error);
/* The device of a GstCudaContext of GStreamer's CUDA library (passed as a
 * GstObject), on the CUDA backend: it works in that context. The same
 * device for the same context, as long as one lives. */
GstCudaVisionDevice *gst_cuda_vision_device_new_for_cuda_context (GstObject *
    cuda_context, GError ** error);
/* The GstCudaContext of the device's context, shared as "gst.cuda.context";
 * NULL on the CPU backend and in builds without GStreamer's CUDA library. */
GstObject *gst_cuda_vision_device_get_cuda_context (GstCudaVisionDevice * self);
cvcore_device *gst_cuda_vision_device_get_core (GstCudaVisionDevice * self);
gint gst_cuda_vision_device_get_id (GstCudaVisionDevice * self);
cvcore_backend gst_cuda_vision_device_get_backend (GstCudaVisionDevice * self);

/* Runs a blocking transfer on the device's internal transfer stream, used
 * where data must cross to or from the host immediately (memory maps). */
gboolean gst_cuda_vision_device_transfer (GstCudaVisionDevice * self,
    void *dst, const void *src, gsize size, cvcore_copy_kind kind);

gboolean gst_cuda_vision_backend_from_env (cvcore_backend * backend,
    GError ** error);

/* The device-id property every element has: -1 (automatic) to G_MAXINT. */
GParamSpec *gst_cuda_vision_device_id_param_spec (gint default_id);

/* Context sharing, as elements call them: ensure_device in start(),
 * handle_set_context from GstElement::set_context and handle_context_query
 * from the pads' query handlers. ensure_device posts an element error that
 * names the cause when no device can be opened. */
gboolean gst_cuda_vision_ensure_device (GstElement * element, gint device_id,
    GstCudaVisionDevice ** device);
gboolean gst_cuda_vision_handle_set_context (GstElement * element,
    GstContext * context, gint device_id, GstCudaVisionDevice ** device);
gboolean gst_cuda_vision_handle_context_query (GstElement * element,
    GstQuery * query, GstCudaVisionDevice * device);
/* An element's answer to a context query that arrived on its pad of
 * direction @from, where *@device (guarded by the object lock) may not be
 * open yet: an element with a device-id opens it to answer; one with -1
 * (automatic) asks its neighbours on its other side. */
gboolean gst_cuda_vision_answer_context_query (GstElement * element,
    GstQuery * query, GstPadDirection from, gint device_id,
    GstCudaVisionDevice ** device);

G_END_DECLS

#endif /* __GST_CUDA_VISION_DEVICE_H__ */
