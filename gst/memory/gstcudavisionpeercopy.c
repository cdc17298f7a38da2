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

/* Peer copies of frames from another device: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionpeercopy.h"
#include "gstcudavisionframe.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_peer_copy_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_peer_copy_debug

/* Frames in flight on the element's side: the pool grows to this many
 * without waiting. */
#define POOL_MIN_BUFFERS 2

struct _GstCudaVisionPeerCopy
{
  /* all used from the streaming thread that calls copy_buffer */
  GstCudaVisionDevice *device;
  /* on device: the copies, and the end of the last one */
  cvcore_stream *stream;
  cvcore_event *copied;
  GstBufferPool *pool;
  GstVideoInfo pool_info;
  /* the device the frames come from, and a stream there on which the
   * frames' later users are ordered after our copies */
  GstCudaVisionDevice *source;
  cvcore_stream *source_stream;
};

GstCudaVisionPeerCopy *
gst_cuda_vision_peer_copy_new (void)
{
  static gsize debug_once = 0;

  if (g_once_init_enter (&debug_once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_peer_copy_debug,
        "cudavisionpeercopy", 0, "cudavision copies between devices");
    g_once_init_leave (&debug_once, 1);
  }
  return g_new0 (GstCudaVisionPeerCopy, 1);
}

/* After its queued work: what uses the stream may be freed next. */
static void
free_stream (cvcore_stream ** stream)
{
  if (*stream) {
    cvcore_stream_synchronize (*stream);
    cvcore_stream_free (*stream);
    *stream = NULL;
  }
}

static void
release_source (GstCudaVisionPeerCopy * self)
{
  free_stream (&self->source_stream);
  gst_clear_object (&self->source);
}

static void
release_device (GstCudaVisionPeerCopy * self)
{
  release_source (self);
  if (self->pool) {
    gst_buffer_pool_set_active (self->pool, FALSE);
    gst_clear_object (&self->pool);
  }
  free_stream (&self->stream);
  if (self->copied) {
    cvcore_event_free (self->copied);
    self->copied = NULL;
  }
  gst_clear_object (&self->device);
}

void
gst_cuda_vision_peer_copy_free (GstCudaVisionPeerCopy * self)
{
  if (self == NULL)
    return;
  release_device (self);
  g_free (self);
}

/* The device @mem lives on, or NULL when it is not device memory of a
 * device the backend can name (CUDAMemory of a build without the
 * library). Transfer full. */
static GstCudaVisionDevice *
memory_device (GstMemory * mem)
{
  GstObject *context;

  if (gst_is_cuda_vision_memory (mem))
    return gst_object_ref (gst_cuda_vision_memory_get_device (mem));
  context = gst_cuda_vision_cuda_memory_context (mem);
  return context ?
      gst_cuda_vision_device_new_for_cuda_context (context, NULL) : NULL;
}

GstCudaVisionDevice *
gst_cuda_vision_peer_copy_source (GstBuffer * buffer,
    GstCudaVisionDevice * device)
{
  GstCudaVisionDevice *owner;
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  /* our memory on our device, or CUDAMemory of the element's own context
   * (the common cases) cost no lookup */
  if (gst_is_cuda_vision_memory (mem) ?
      gst_cuda_vision_device_get_id (gst_cuda_vision_memory_get_device (mem))
      == gst_cuda_vision_device_get_id (device) :
      !gst_cuda_vision_is_cuda_memory (mem)
      || gst_cuda_vision_cuda_memory_on_device (mem, device))
    return NULL;
  owner = memory_device (mem);
  if (owner && gst_cuda_vision_device_get_id (owner) ==
      gst_cuda_vision_device_get_id (device))
    gst_clear_object (&owner);
  return owner;
}

/* A pool of our memory on @device for frames of @info, and a stream. */
static gboolean
ensure_pool (GstCudaVisionPeerCopy * self, GstCudaVisionDevice * device,
    const GstVideoInfo * info, GError ** error)
{
  GstCaps *caps;

  if (self->device != device)
    release_device (self);
  if (self->pool && gst_video_info_is_equal (&self->pool_info, info))
    return TRUE;
  if (self->pool) {
    gst_buffer_pool_set_active (self->pool, FALSE);
    gst_clear_object (&self->pool);
  }
  if ((self->stream == NULL && cvcore_stream_new
          (gst_cuda_vision_device_get_core (device), &self->stream)
          != CVCORE_OK) || (self->copied == NULL
          && cvcore_event_new (gst_cuda_vision_device_get_core (device), false,
              &self->copied) != CVCORE_OK)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "cannot make a stream for copies between devices: %s",
        cvcore_last_error ());
    return FALSE;
  }
  if (self->device == NULL)
    self->device = gst_object_ref (device);
  caps = gst_video_info_to_caps (info);
  gst_caps_set_features_simple (caps,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, NULL));
  self->pool = gst_cuda_vision_buffer_pool_new_configured (device, caps,
      POOL_MIN_BUFFERS, 0);
  gst_caps_unref (caps);
  if (self->pool == NULL || !gst_buffer_pool_set_active (self->pool, TRUE)) {
    gst_clear_object (&self->pool);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "cannot make a pool for frames copied between devices");
    return FALSE;
  }
  self->pool_info = *info;
  return TRUE;
}

/* As the base transform copies metas: all of them but the video meta,
 * whose layout is the copy's own. */
static gboolean
copy_meta (GstBuffer * src, GstMeta ** meta, gpointer dst)
{
  GstMetaTransformCopy copy = { FALSE, 0, -1 };

  if ((*meta)->info->api != GST_VIDEO_META_API_TYPE
      && (*meta)->info->transform_func)
    (*meta)->info->transform_func (dst, *meta, src, _gst_meta_transform_copy,
        &copy);
  return TRUE;
}

/* Queues the copy of every plane on the stream. */
static cvcore_status
queue_plane_copies (GstCudaVisionPeerCopy * self, GstVideoFrame * dst,
    GstVideoFrame * src, cvcore_device * src_core)
{
  cvcore_status status = CVCORE_OK;

  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (src) && status == CVCORE_OK;
      p++)
    status = cvcore_copy_2d_peer_async (self->stream,
        GST_VIDEO_FRAME_PLANE_DATA (dst, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (dst, p), src_core,
        GST_VIDEO_FRAME_PLANE_DATA (src, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (src, p),
        gst_cuda_vision_plane_row_bytes (&src->info, p),
        gst_cuda_vision_plane_rows (&src->info, p));
  return status;
}

/* A stream on the frames' device @owner, and the element's context let
 * reach that device's memory: made when the frames' device changes.
 * GStreamer's CUDA library lets every pair of the contexts it wraps (ours
 * among them) reach each other; without it, we do. */
static gboolean
ensure_source (GstCudaVisionPeerCopy * self, GstCudaVisionDevice * owner,
    GError ** error)
{
  if (self->source == owner)
    return TRUE;
  release_source (self);
  if (cvcore_stream_new (gst_cuda_vision_device_get_core (owner),
          &self->source_stream) != CVCORE_OK) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "cannot make a stream on device %d: %s",
        gst_cuda_vision_device_get_id (owner), cvcore_last_error ());
    return FALSE;
  }
  self->source = gst_object_ref (owner);
  if (!gst_cuda_vision_interop_built ())
    cvcore_device_enable_peer_access (gst_cuda_vision_device_get_core
        (self->device), gst_cuda_vision_device_get_core (owner));
  return TRUE;
}

/* Orders the source memory's later users, on its own device, after the
 * copy: the source's stream waits for it and records the end of our use. */
static gboolean
hand_back_source (GstCudaVisionPeerCopy * self, GstMemory * mem)
{
  return cvcore_event_record (self->copied, self->stream) == CVCORE_OK
      && cvcore_stream_wait_event (self->source_stream, self->copied)
      == CVCORE_OK
      && gst_cuda_vision_device_memory_end_access (mem, self->source,
      self->source_stream);
}

/* The copy itself: ordered after the source's and the destination's
 * queued uses, and before the source's next use; nothing waits on the
 * host. */
static gboolean
copy_frame (GstCudaVisionPeerCopy * self, GstBuffer * src, GstBuffer * dst,
    const GstVideoInfo * info, GError ** error)
{
  GstMemory *src_mem = gst_buffer_peek_memory (src, 0);
  GstMemory *dst_mem = gst_buffer_peek_memory (dst, 0);
  GstVideoFrame src_frame, dst_frame;
  gchar *refusal = NULL;
  gboolean ok = FALSE;

  if (!gst_cuda_vision_video_frame_map (&src_frame, info, src,
          GST_MAP_READ | GST_MAP_CUDA_VISION, &refusal)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "cannot map the frame of the other device: %s", refusal);
    g_free (refusal);
    return FALSE;
  }
  if (!gst_video_frame_map (&dst_frame, &self->pool_info, dst,
          GST_MAP_WRITE | GST_MAP_CUDA_VISION)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "cannot map a frame of the element's device");
    goto unmap_src;
  }
  if (gst_cuda_vision_device_memory_begin_access (src_mem, self->stream)
      && gst_cuda_vision_device_memory_begin_access (dst_mem, self->stream)) {
    cvcore_status status = queue_plane_copies (self, &dst_frame, &src_frame,
        gst_cuda_vision_device_get_core (self->source));

    /* recorded even after a failure, so that the chain of uses holds */
    ok = gst_cuda_vision_device_memory_end_access (dst_mem, self->device,
        self->stream);
    ok = hand_back_source (self, src_mem) && ok && status == CVCORE_OK;
  }
  if (!ok)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "the copy from device %d to device %d failed: %s",
        gst_cuda_vision_device_get_id (self->source),
        gst_cuda_vision_device_get_id (self->device), cvcore_last_error ());
  gst_video_frame_unmap (&dst_frame);
unmap_src:
  gst_video_frame_unmap (&src_frame);
  return ok;
}

GstBuffer *
gst_cuda_vision_peer_copy_buffer (GstCudaVisionPeerCopy * self,
    GstCudaVisionDevice * device, GstCudaVisionDevice * source,
    const GstVideoInfo * info, GstBuffer * buffer, GError ** error)
{
  GstBuffer *copy = NULL;

  if (!ensure_pool (self, device, info, error)
      || !ensure_source (self, source, error))
    goto done;
  if (gst_buffer_pool_acquire_buffer (self->pool, &copy, NULL) != GST_FLOW_OK) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "no buffer for a frame copied between devices");
    goto done;
  }
  if (!copy_frame (self, buffer, copy, info, error)) {
    gst_clear_buffer (&copy);
    goto done;
  }
  gst_buffer_copy_into (copy, buffer, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  gst_buffer_foreach_meta (buffer, copy_meta, copy);
  GST_LOG ("copied %" GST_PTR_FORMAT " to device %d", buffer,
      gst_cuda_vision_device_get_id (device));
done:
  gst_buffer_unref (buffer);
  return copy;
}
