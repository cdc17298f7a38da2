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

/* The "gst.cuda.context" side of the devices: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisioncudacontext.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/cuda-gst.h>
#endif

gboolean
gst_cuda_vision_interop_built (void)
{
#ifdef HAVE_GST_CUDA
  return TRUE;
#else
  return FALSE;
#endif
}

#ifdef HAVE_GST_CUDA

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_cuda_context_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_cuda_context_debug

static void
debug_init_once (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_cuda_context_debug,
        "cudavisioncudacontext", 0, "cudavision devices' GstCudaContext");
    g_once_init_leave (&done, 1);
  }
}

GstObject *
gst_cuda_vision_cuda_context_wrap (cvcore_device * core)
{
  GstCudaContext *context;
  CUdevice device;

  debug_init_once ();
  if (cvcore_device_backend (core) != CVCORE_BACKEND_CUDA)
    return NULL;
  if (!gst_cuda_load_library ()) {
    GST_WARNING ("GStreamer's CUDA library found no driver: no "
        "memory:CUDAMemory on device %d", cvcore_device_id (core));
    return NULL;
  }
  if (CuDeviceGet (&device, cvcore_device_id (core)) != CUDA_SUCCESS) {
    GST_WARNING ("no CUdevice for device %d", cvcore_device_id (core));
    return NULL;
  }
  context = gst_cuda_context_new_wrapped (cvcore_device_context (core), device);
  return context ? GST_OBJECT_CAST (context) : NULL;
}

gpointer
gst_cuda_vision_cuda_context_handle (GstObject * cuda_context)
{
  return gst_cuda_context_get_handle (GST_CUDA_CONTEXT (cuda_context));
}

GstObject *
gst_cuda_vision_cuda_context_from_context (GstElement * element,
    GstContext * context, gint device_id)
{
  GstCudaContext *found = NULL;

  if (!gst_context_has_context_type (context, GST_CUDA_VISION_CUDA_CONTEXT_TYPE)
      || !gst_cuda_handle_set_context (element, context, device_id, &found))
    return NULL;
  return found ? GST_OBJECT_CAST (found) : NULL;
}

GstContext *
gst_cuda_vision_cuda_context_new_context (GstObject * cuda_context)
{
  return gst_context_new_cuda_context (GST_CUDA_CONTEXT (cuda_context));
}

gboolean
gst_cuda_vision_cuda_context_answer_query (GstElement * element,
    GstQuery * query, GstObject * cuda_context)
{
  return cuda_context != NULL && gst_cuda_handle_context_query (element,
      query, GST_CUDA_CONTEXT (cuda_context));
}

#else /* !HAVE_GST_CUDA */

GstObject *
gst_cuda_vision_cuda_context_wrap (cvcore_device * core)
{
  return NULL;
}

gpointer
gst_cuda_vision_cuda_context_handle (GstObject * cuda_context)
{
  return NULL;
}

GstObject *
gst_cuda_vision_cuda_context_from_context (GstElement * element,
    GstContext * context, gint device_id)
{
  return NULL;
}

GstContext *
gst_cuda_vision_cuda_context_new_context (GstObject * cuda_context)
{
  return NULL;
}

gboolean
gst_cuda_vision_cuda_context_answer_query (GstElement * element,
    GstQuery * query, GstObject * cuda_context)
{
  return FALSE;
}

#endif /* HAVE_GST_CUDA */
