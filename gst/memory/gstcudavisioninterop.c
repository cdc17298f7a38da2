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

/* Interoperation with GStreamer's CUDA library: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisioninterop.h"
#include "gstcudavisioncudastream.h"
#include "gstcudavisionformats.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/cuda-gst.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_interop_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_interop_debug

void
gst_cuda_vision_interop_init_once (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_interop_debug,
        "cudavisioninterop", 0, "cudavision and GStreamer's CUDA library");
#ifdef HAVE_GST_CUDA
    /* its pools allocate from an allocator that exists only once someone
     * made it, nvcodec's plugin or us */
    gst_cuda_memory_init_once ();
#endif
    g_once_init_leave (&done, 1);
  }
}

/* Raw formats that both the elements move and GStreamer's CUDA allocator
 * lays out (1.22 aborts on the others, such as GRAY8). */
#define CUDA_MEMORY_FORMATS \
    "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, I420, NV12, Y444, " \
    "P010_10LE, I420_10LE }"

static gboolean
has_feature (const GstCaps * caps, guint i, const gchar * feature)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, i);

  return features && !gst_caps_features_is_any (features)
      && gst_caps_features_contains (features, feature);
}

static GstCaps *
cuda_memory_formats (void)
{
  static GstStaticCaps caps = GST_STATIC_CAPS ("video/x-raw, format=(string) "
      CUDA_MEMORY_FORMATS);

  return gst_static_caps_get (&caps);
}

/* @s in CUDAMemory, restricted to the allocator's formats; NULL when none
 * is left. */
static GstCaps *
as_cuda_memory (const GstStructure * s)
{
  GstCaps *one, *formats, *ret;

  if (!gst_structure_has_name (s, "video/x-raw"))
    return NULL;
  one = gst_caps_new_full (gst_structure_copy (s), NULL);
  formats = cuda_memory_formats ();
  ret = gst_caps_intersect (one, formats);
  gst_caps_unref (one);
  gst_caps_unref (formats);
  if (gst_caps_is_empty (ret)) {
    gst_caps_unref (ret);
    return NULL;
  }
  gst_caps_set_features_simple (ret,
      gst_caps_features_new (GST_CUDA_VISION_CAPS_FEATURE_CUDA_MEMORY, NULL));
  return ret;
}

static GstCaps *
as_cuda_vision_memory (const GstStructure * s)
{
  GstCaps *ret = gst_caps_new_full (gst_structure_copy (s), NULL);

  gst_caps_set_features_simple (ret,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, NULL));
  return ret;
}

GstCaps *
gst_cuda_vision_caps_add_cuda_memory (GstCaps * caps)
{
  GstCaps *ret;

  if (!gst_cuda_vision_interop_built ())
    return caps;
  ret = gst_caps_new_empty ();
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCaps *cuda;

    ret = gst_caps_merge (ret, gst_caps_copy_nth (caps, i));
    if (has_feature (caps, i, GST_CAPS_FEATURE_MEMORY_CUDA_VISION)
        && (cuda = as_cuda_memory (s)))
      ret = gst_caps_merge (ret, cuda);
  }
  gst_caps_unref (caps);
  return ret;
}

static gboolean
backend_carries_cuda_memory (cvcore_backend backend)
{
  return gst_cuda_vision_interop_built () && backend == CVCORE_BACKEND_CUDA;
}

GstCaps *
gst_cuda_vision_caps_for_backend (GstCaps * caps, cvcore_backend backend)
{
  if (backend_carries_cuda_memory (backend))
    return caps;
  caps = gst_caps_make_writable (caps);
  for (guint i = gst_caps_get_size (caps); i > 0; i--) {
    if (has_feature (caps, i - 1, GST_CUDA_VISION_CAPS_FEATURE_CUDA_MEMORY))
      gst_caps_remove_structure (caps, i - 1);
  }
  return caps;
}

GstCaps *
gst_cuda_vision_caps_both_device_features (GstCaps * caps,
    cvcore_backend backend)
{
  GstCaps *ret = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCaps *other = NULL;

    ret = gst_caps_merge (ret, gst_caps_copy_nth (caps, i));
    if (has_feature (caps, i, GST_CAPS_FEATURE_MEMORY_CUDA_VISION))
      other = as_cuda_memory (s);
    else if (has_feature (caps, i, GST_CUDA_VISION_CAPS_FEATURE_CUDA_MEMORY))
      other = as_cuda_vision_memory (s);
    if (other)
      ret = gst_caps_merge (ret, other);
  }
  gst_caps_unref (caps);
  return gst_cuda_vision_caps_for_backend (ret, backend);
}

gboolean
gst_cuda_vision_caps_only_cuda_memory (const GstCaps * caps)
{
  if (caps == NULL || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return FALSE;
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    if (!has_feature (caps, i, GST_CUDA_VISION_CAPS_FEATURE_CUDA_MEMORY))
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_vision_caps_are_cuda_memory (const GstCaps * caps)
{
  return caps != NULL && gst_caps_get_size (caps) > 0
      && has_feature (caps, 0, GST_CUDA_VISION_CAPS_FEATURE_CUDA_MEMORY);
}

gboolean
gst_cuda_vision_cuda_caps_need_host_wait (const GstCaps * caps)
{
#if defined (HAVE_GST_CUDA) && !defined (HAVE_GST_CUDA_STREAM)
  return gst_cuda_vision_caps_are_cuda_memory (caps);
#else
  /* what our pools give names its stream, where there is CUDAMemory */
  return FALSE;
#endif
}

#ifdef HAVE_GST_CUDA

gboolean
gst_cuda_vision_is_cuda_memory (GstMemory * mem)
{
  return gst_is_cuda_memory (mem);
}

const GstVideoInfo *
gst_cuda_vision_cuda_memory_info (GstMemory * mem)
{
  return gst_is_cuda_memory (mem) ? &GST_CUDA_MEMORY_CAST (mem)->info : NULL;
}

GstObject *
gst_cuda_vision_cuda_memory_context (GstMemory * mem)
{
  return gst_is_cuda_memory (mem) ?
      GST_OBJECT_CAST (GST_CUDA_MEMORY_CAST (mem)->context) : NULL;
}

gboolean
gst_cuda_vision_cuda_memory_on_device (GstMemory * mem,
    GstCudaVisionDevice * device)
{
  cvcore_device *core = gst_cuda_vision_device_get_core (device);

  return gst_is_cuda_memory (mem) && cvcore_device_context (core) != NULL
      && gst_cuda_context_get_handle (GST_CUDA_MEMORY_CAST (mem)->context)
      == cvcore_device_context (core);
}

/* The end of the last use a cudavision element queued on a CUDAMemory. */
typedef struct
{
  GstCudaVisionDevice *device;
  cvcore_event *event;
  /* the stream that recorded the event last, and whether the host has
   * seen that stream finish since */
  cvcore_stream *recorded_by;
  gboolean passed;
} UseMark;

static GMutex use_mark_lock;

static GQuark use_mark_quark (void);
G_DEFINE_QUARK (GstCudaVisionUseMark, use_mark);

static void
use_mark_free (gpointer data)
{
  UseMark *mark = data;

  /* queued work may still use the memory that is being freed */
  cvcore_event_synchronize (mark->event);
  cvcore_event_free (mark->event);
  gst_object_unref (mark->device);
  g_free (mark);
}

gboolean
gst_cuda_vision_cuda_memory_begin_access (GstMemory * mem,
    cvcore_stream * stream)
{
  cvcore_status status = CVCORE_OK;
  UseMark *mark;

#ifdef HAVE_GST_CUDA_STREAM
  GstCudaStream *producer = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST
      (mem));

  /* Work that a producer of another plugin left on the memory's stream:
   * waited for on the device where our stream can record on that one,
   * else on the host. */
  if (producer && GST_MEMORY_FLAG_IS_SET (mem,
          GST_CUDA_MEMORY_TRANSFER_NEED_SYNC)
      && producer != gst_cuda_vision_cuda_stream_get (stream)
      && !gst_cuda_vision_cuda_stream_wait_for (stream, producer))
    gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (mem));
#endif
  g_mutex_lock (&use_mark_lock);
  mark = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      use_mark_quark ());
  if (mark && !mark->passed)
    status = cvcore_stream_wait_event (stream, mark->event);
  g_mutex_unlock (&use_mark_lock);
  if (status != CVCORE_OK) {
    GST_ERROR ("cannot order a stream after a CUDA memory's last use: %s",
        cvcore_last_error ());
    return FALSE;
  }
  return TRUE;
}

#ifdef HAVE_GST_CUDA_STREAM
/* The memory's later users queue their work on its stream, and consumers
 * of other plugins wait for that stream where the memory says so: the
 * stream waits for ours, on the device, and the memory says so. */
static cvcore_status
hand_over_to_memory_stream (GstMemory * mem, cvcore_stream * stream,
    cvcore_event * end)
{
  GstCudaStream *its = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));

  if (its == NULL)
    return CVCORE_OK;
  if (its != gst_cuda_vision_cuda_stream_get (stream)
      && !gst_cuda_vision_cuda_stream_make_wait (stream, its, end))
    return CVCORE_ERROR_RUNTIME;
  GST_MINI_OBJECT_FLAG_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
  return CVCORE_OK;
}
#endif

gboolean
gst_cuda_vision_cuda_buffer_needs_host_wait (GstBuffer * buffer)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) == 0)
    return FALSE;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!gst_is_cuda_memory (mem))
    return FALSE;
#ifdef HAVE_GST_CUDA_STREAM
  return gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem)) == NULL;
#else
  return TRUE;
#endif
}

gboolean
gst_cuda_vision_cuda_memory_end_access (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream)
{
  cvcore_status status = CVCORE_OK;
  UseMark *mark;

  g_mutex_lock (&use_mark_lock);
  mark = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      use_mark_quark ());
  if (mark == NULL) {
    cvcore_event *event;

    status = cvcore_event_new (gst_cuda_vision_device_get_core (device),
        false, &event);
    if (status == CVCORE_OK) {
      mark = g_new0 (UseMark, 1);
      mark->device = gst_object_ref (device);
      mark->event = event;
      gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem),
          use_mark_quark (), mark, use_mark_free);
    }
  } else if (!mark->passed) {
    /* a tee's other branch may have recorded since our begin_access */
    status = cvcore_stream_wait_event (stream, mark->event);
  }
  if (status == CVCORE_OK)
    status = cvcore_event_record (mark->event, stream);
  if (status == CVCORE_OK) {
    mark->recorded_by = stream;
    mark->passed = FALSE;
  }
#ifdef HAVE_GST_CUDA_STREAM
  if (status == CVCORE_OK)
    status = hand_over_to_memory_stream (mem, stream, mark->event);
#endif
  g_mutex_unlock (&use_mark_lock);
  if (status != CVCORE_OK) {
    GST_ERROR ("cannot record the end of a use of a CUDA memory: %s",
        cvcore_last_error ());
    return FALSE;
  }
  return TRUE;
}

void
gst_cuda_vision_cuda_buffer_use_finished (GstBuffer * buffer,
    cvcore_stream * stream)
{
  guint n = gst_buffer_n_memory (buffer);

  g_mutex_lock (&use_mark_lock);
  for (guint i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    UseMark *mark = gst_is_cuda_memory (mem) ?
        gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
        use_mark_quark ()) : NULL;

    /* a tee's other branch may have recorded on its own stream since */
    if (mark && mark->recorded_by == stream)
      mark->passed = TRUE;
  }
  g_mutex_unlock (&use_mark_lock);
}

static GQuark our_pool_quark (void);
G_DEFINE_QUARK (GstCudaVisionPool, our_pool);

GstBufferPool *
gst_cuda_vision_cuda_pool_new_configured (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  GstObject *context = gst_cuda_vision_device_get_cuda_context (device);
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  gst_cuda_vision_interop_init_once ();
  if (context == NULL) {
    GST_ERROR_OBJECT (device, "no CUDA context to allocate CUDAMemory in");
    return NULL;
  }
  if (!gst_video_info_from_caps (&info, caps)) {
    GST_ERROR_OBJECT (device, "caps are no raw video: %" GST_PTR_FORMAT, caps);
    return NULL;
  }
  pool = gst_cuda_buffer_pool_new (GST_CUDA_CONTEXT (context));
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min_buffers,
      max_buffers);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
#ifdef HAVE_GST_CUDA_STREAM
  /* the memory names the stream we write it on; an upstream decoder that
   * finds it in the pool we propose queues its own copies there */
  if (stream && gst_cuda_vision_cuda_stream_get (stream))
    gst_buffer_pool_config_set_cuda_stream (config,
        gst_cuda_vision_cuda_stream_get (stream));
#endif
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_ERROR_OBJECT (device, "CUDA pool refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }
  g_object_set_qdata (G_OBJECT (pool), our_pool_quark (), GINT_TO_POINTER (1));
  return pool;
}

gboolean
gst_cuda_vision_pool_is_ours (GstBufferPool * pool)
{
  return pool != NULL
      && g_object_get_qdata (G_OBJECT (pool), our_pool_quark ()) != NULL;
}

#else /* !HAVE_GST_CUDA */

gboolean
gst_cuda_vision_is_cuda_memory (GstMemory * mem)
{
  return FALSE;
}

const GstVideoInfo *
gst_cuda_vision_cuda_memory_info (GstMemory * mem)
{
  return NULL;
}

GstObject *
gst_cuda_vision_cuda_memory_context (GstMemory * mem)
{
  return NULL;
}

gboolean
gst_cuda_vision_cuda_memory_on_device (GstMemory * mem,
    GstCudaVisionDevice * device)
{
  return FALSE;
}

gboolean
gst_cuda_vision_cuda_memory_begin_access (GstMemory * mem,
    cvcore_stream * stream)
{
  g_return_val_if_reached (FALSE);
}

gboolean
gst_cuda_vision_cuda_memory_end_access (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream)
{
  g_return_val_if_reached (FALSE);
}

gboolean
gst_cuda_vision_cuda_buffer_needs_host_wait (GstBuffer * buffer)
{
  return FALSE;
}

void
gst_cuda_vision_cuda_buffer_use_finished (GstBuffer * buffer,
    cvcore_stream * stream)
{
}

GstBufferPool *
gst_cuda_vision_cuda_pool_new_configured (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  return NULL;
}

gboolean
gst_cuda_vision_pool_is_ours (GstBufferPool * pool)
{
  return FALSE;
}

#endif /* HAVE_GST_CUDA */
