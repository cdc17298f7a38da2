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

/* Pools of device frames, and the allocation queries that offer and pick
 * them: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionbufferpool.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionutils.h"
#include "gstcudavisionmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_buffer_pool_debug

struct _GstCudaVisionBufferPool
{
  GstBufferPool parent;

  GstCudaVisionDevice *device;
  GstVideoInfo info;            /* with the device layout */
};

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionBufferPool, gst_cuda_vision_buffer_pool,
    GST_TYPE_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_buffer_pool_debug,
        "cudavisionbufferpool", 0, "cudavision device buffer pool"));

static const gchar **
gst_cuda_vision_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
gst_cuda_vision_buffer_pool_set_config (GstBufferPool * pool,
    GstStructure * config)
{
  GstCudaVisionBufferPool *self = GST_CUDA_VISION_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;
  GstVideoInfo info;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || caps == NULL) {
    GST_WARNING_OBJECT (pool, "configuration without caps");
    return FALSE;
  }
  if (!gst_cuda_vision_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (pool, "caps are no video: %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  gst_cuda_vision_video_info_set_layout (&info, self->device);
  self->info = info;
  /* Buffers are as large as the device layout says, whatever was asked. */
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);

  return GST_BUFFER_POOL_CLASS (gst_cuda_vision_buffer_pool_parent_class)
      ->set_config (pool, config);
}

static GstFlowReturn
gst_cuda_vision_buffer_pool_alloc_buffer (GstBufferPool * pool,
    GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  GstCudaVisionBufferPool *self = GST_CUDA_VISION_BUFFER_POOL (pool);
  GstVideoInfo *info = &self->info;
  GstMemory *mem = gst_cuda_vision_memory_alloc (self->device, info);

  if (mem == NULL)
    return GST_FLOW_ERROR;
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      info->offset, info->stride);
  return GST_FLOW_OK;
}

static void
gst_cuda_vision_buffer_pool_dispose (GObject * object)
{
  GstCudaVisionBufferPool *self = GST_CUDA_VISION_BUFFER_POOL (object);

  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_cuda_vision_buffer_pool_parent_class)->dispose (object);
}

static void
gst_cuda_vision_buffer_pool_class_init (GstCudaVisionBufferPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gst_cuda_vision_buffer_pool_dispose;
  pool_class->get_options = gst_cuda_vision_buffer_pool_get_options;
  pool_class->set_config = gst_cuda_vision_buffer_pool_set_config;
  pool_class->alloc_buffer = gst_cuda_vision_buffer_pool_alloc_buffer;
}

static void
gst_cuda_vision_buffer_pool_init (GstCudaVisionBufferPool * self)
{
}

GstBufferPool *
gst_cuda_vision_buffer_pool_new (GstCudaVisionDevice * device)
{
  GstCudaVisionBufferPool *self =
      g_object_new (GST_TYPE_CUDA_VISION_BUFFER_POOL, NULL);

  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  return GST_BUFFER_POOL_CAST (self);
}

GstCudaVisionDevice *
gst_cuda_vision_buffer_pool_get_device (GstBufferPool * pool)
{
  g_return_val_if_fail (GST_IS_CUDA_VISION_BUFFER_POOL (pool), NULL);
  return GST_CUDA_VISION_BUFFER_POOL (pool)->device;
}

GstBufferPool *
gst_cuda_vision_buffer_pool_new_configured (GstCudaVisionDevice * device,
    GstCaps * caps, guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool = gst_cuda_vision_buffer_pool_new (device);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, 0, min_buffers, max_buffers);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

static guint
pool_buffer_size (GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint size = 0;

  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  return size;
}

/* A frame's device work is still queued when its buffer goes back to the
 * pool, and whoever takes the buffer next waits, on the device, for that
 * work to finish. The pool hands buffers out in the order they came back,
 * so with this many the next writer is as many frames behind: the copies
 * and kernels of neighbouring frames overlap instead of taking turns. */
#define MIN_BUFFERS 4

/* A pool of the device memory that @caps name: ours, or GStreamer's CUDA
 * memory in the device's context (a pool of ours in its own right, whose
 * buffers we write without waiting on the host). */
static GstBufferPool *
device_pool_new_configured (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  if (gst_cuda_vision_caps_are_cuda_memory (caps))
    return gst_cuda_vision_cuda_pool_new_configured (device, stream, caps,
        min_buffers, max_buffers);
  return gst_cuda_vision_buffer_pool_new_configured (device, caps,
      min_buffers, max_buffers);
}

gboolean
gst_cuda_vision_propose_device_pool (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstQuery * query)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == NULL)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) == 0) {
    pool = device_pool_new_configured (device, stream, caps, MIN_BUFFERS, 0);
    if (pool == NULL)
      return FALSE;
    gst_query_add_allocation_pool (query, pool, pool_buffer_size (pool),
        MIN_BUFFERS, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

gboolean
gst_cuda_vision_decide_device_pool (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstQuery * query)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return FALSE;

  if (have_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  min = MAX (min, MIN_BUFFERS);
  if (max != 0 && max < min)
    max = min;
  if (pool && (gst_cuda_vision_caps_are_cuda_memory (caps)
          || !GST_IS_CUDA_VISION_BUFFER_POOL (pool)
          || gst_cuda_vision_buffer_pool_get_device (pool) != device))
    gst_clear_object (&pool);

  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (pool == NULL)
    pool = device_pool_new_configured (device, stream, caps, min, max);
  if (pool == NULL)
    return FALSE;

  size = pool_buffer_size (pool);
  if (have_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
