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

/* The CUDA context of a device as GStreamer's CUDA library (libgstcuda,
 * of gst-plugins-bad) shares it: a GstCudaContext that wraps it, passed
 * between elements as "gst.cuda.context", so that nvcodec's elements and
 * ours work in one context. Below the devices: it knows the core's
 * devices, not GstCudaVisionDevice. In a build without the library every
 * function answers as if no such context existed. */
#ifndef __GST_CUDA_VISION_CUDA_CONTEXT_H__
#define __GST_CUDA_VISION_CUDA_CONTEXT_H__

#include <gst/gst.h>
#include "cvcore.h"

G_BEGIN_DECLS

#define GST_CUDA_VISION_CUDA_CONTEXT_TYPE "gst.cuda.context"
/* TRUE when built with GStreamer's CUDA library. */
gboolean gst_cuda_vision_interop_built (void);

/* Wraps the context the device works in, for sharing (NULL without the
 * library or on the CPU backend). */
GstObject *gst_cuda_vision_cuda_context_wrap (cvcore_device * core);
/* The CUcontext of a GstCudaContext. */
gpointer gst_cuda_vision_cuda_context_handle (GstObject * cuda_context);
/* The GstCudaContext that a "gst.cuda.context" @context holds, when it is
 * for @device_id; NULL otherwise. Transfer full. */
GstObject *gst_cuda_vision_cuda_context_from_context (GstElement * element,
    GstContext * context, gint device_id);
/* A new "gst.cuda.context" GstContext of @cuda_context. */
GstContext *gst_cuda_vision_cuda_context_new_context (GstObject * cuda_context);
/* Answers a "gst.cuda.context" query with @cuda_context. */
gboolean gst_cuda_vision_cuda_context_answer_query (GstElement * element,
    GstQuery * query, GstObject * cuda_context);

G_END_DECLS

#endif /* __GST_CUDA_VISION_CUDA_CONTEXT_H__ */
