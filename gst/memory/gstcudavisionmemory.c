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

/* GstCudaVisionMemory, the elements' device memory: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionmemory.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_memory_debug

struct _GstCudaVisionMemory
{
  GstMemory mem;

  GstCudaVisionDevice *device;
  GstVideoInfo info;
  void *data;
  cvcore_event *event;

  /* Host copy for plain maps on the CUDA backend; NULL on the CPU backend,
   * where the device data is host memory. Guarded by lock. */
  GMutex lock;
  void *staging;
  gboolean staging_stale;       /* device holds data the copy lacks */
  gboolean device_stale;        /* the copy holds data the device lacks */
};

struct _GstCudaVisionAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE (GstCudaVisionAllocator, gst_cuda_vision_allocator,
    GST_TYPE_ALLOCATOR);

static GstAllocator *the_allocator;

static gboolean
is_host_backend (GstCudaVisionMemory * self)
{
  return gst_cuda_vision_device_get_backend (self->device) ==
      CVCORE_BACKEND_CPU;
}

static gboolean
ensure_staging (GstCudaVisionMemory * self)
{
  cvcore_device *core = gst_cuda_vision_device_get_core (self->device);

  if (self->staging)
    return TRUE;
  if (cvcore_host_alloc (core, self->mem.maxsize, &self->staging)
      != CVCORE_OK) {
    GST_ERROR ("no host copy for a plain map: %s", cvcore_last_error ());
    return FALSE;
  }
  self->staging_stale = TRUE;
  return TRUE;
}

static gpointer
map_for_host (GstCudaVisionMemory * self, GstMapFlags flags)
{
  if (is_host_backend (self))
    return self->data;

  if (!ensure_staging (self))
    return NULL;
  if (self->staging_stale) {
    if (!gst_cuda_vision_memory_sync (GST_MEMORY_CAST (self))
        || !gst_cuda_vision_device_transfer (self->device, self->staging,
            self->data, self->mem.maxsize, CVCORE_COPY_DEVICE_TO_HOST))
      return NULL;
    self->staging_stale = FALSE;
  }
  if (flags & GST_MAP_WRITE)
    self->device_stale = TRUE;
  return self->staging;
}

static gpointer
map_for_device (GstCudaVisionMemory * self, GstMapFlags flags)
{
  if (self->device_stale) {
    if (!gst_cuda_vision_memory_sync (GST_MEMORY_CAST (self))
        || !gst_cuda_vision_device_transfer (self->device, self->data,
            self->staging, self->mem.maxsize, CVCORE_COPY_HOST_TO_DEVICE))
      return NULL;
    self->device_stale = FALSE;
  }
  if (flags & GST_MAP_WRITE)
    self->staging_stale = TRUE;
  return self->data;
}

static gpointer
gst_cuda_vision_memory_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;
  gpointer ret;

  g_mutex_lock (&self->lock);
  ret = (flags & GST_MAP_CUDA_VISION) ? map_for_device (self, flags) :
      map_for_host (self, flags);
  g_mutex_unlock (&self->lock);
  return ret;
}

static void
gst_cuda_vision_memory_unmap (GstMemory * mem)
{
}

static GstMemory *
gst_cuda_vision_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;
  GstMemory *copy;
  GstMapInfo src, dst;
  gboolean ok;

  /* Sub-range copies of a pitched frame make no sense as device memory. */
  if (offset != 0 || (size != -1 && (gsize) size != mem->size))
    return NULL;

  copy = gst_cuda_vision_memory_alloc (self->device, &self->info);
  if (copy == NULL)
    return NULL;
  if (!gst_memory_map (mem, &src, GST_MAP_READ | GST_MAP_CUDA_VISION)) {
    gst_memory_unref (copy);
    return NULL;
  }
  if (!gst_memory_map (copy, &dst, GST_MAP_WRITE | GST_MAP_CUDA_VISION)) {
    gst_memory_unmap (mem, &src);
    gst_memory_unref (copy);
    return NULL;
  }
  ok = gst_cuda_vision_memory_sync (mem)
      && gst_cuda_vision_device_transfer (self->device, dst.data, src.data,
      mem->maxsize, CVCORE_COPY_DEVICE_TO_DEVICE);
  gst_memory_unmap (copy, &dst);
  gst_memory_unmap (mem, &src);
  if (!ok) {
    gst_memory_unref (copy);
    return NULL;
  }
  return copy;
}

static GstMemory *
gst_cuda_vision_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  return NULL;
}

static GstMemory *
gst_cuda_vision_allocator_alloc_default (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  g_warning ("CUDAVisionMemory needs a video layout: use "
      "gst_cuda_vision_memory_alloc() or a cudavision buffer pool");
  return NULL;
}

static void
gst_cuda_vision_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;
  cvcore_device *core = gst_cuda_vision_device_get_core (self->device);

  /* Queued work may still use the memory. */
  gst_cuda_vision_memory_sync (mem);
  cvcore_event_free (self->event);
  cvcore_device_free (core, self->data);
  cvcore_host_free (core, self->staging);
  g_mutex_clear (&self->lock);
  gst_object_unref (self->device);
  g_free (self);
}

static void
gst_cuda_vision_allocator_class_init (GstCudaVisionAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_cuda_vision_allocator_alloc_default;
  allocator_class->free = gst_cuda_vision_allocator_free;
}

static void
gst_cuda_vision_allocator_init (GstCudaVisionAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CUDA_VISION_MEMORY_TYPE_NAME;
  allocator->mem_map = gst_cuda_vision_memory_map;
  allocator->mem_unmap = gst_cuda_vision_memory_unmap;
  allocator->mem_copy = gst_cuda_vision_memory_copy;
  allocator->mem_share = gst_cuda_vision_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

void
gst_cuda_vision_memory_init_once (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_memory_debug, "cudavisionmemory",
        0, "cudavision device memory");
    gst_cuda_vision_interop_init_once ();
    the_allocator = g_object_new (GST_TYPE_CUDA_VISION_ALLOCATOR, NULL);
    gst_object_ref_sink (the_allocator);
    /* the registry keeps a reference; ours lives as long as the process */
    gst_allocator_register (GST_CUDA_VISION_MEMORY_TYPE_NAME,
        gst_object_ref (the_allocator));
    g_once_init_leave (&done, 1);
  }
}

gboolean
gst_is_cuda_vision_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CUDA_VISION_ALLOCATOR (mem->allocator);
}

void
gst_cuda_vision_video_info_set_layout (GstVideoInfo * info,
    GstCudaVisionDevice * device)
{
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  gsize offset = 0;

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize pitch = cvcore_pitch_for_width (core,
        gst_cuda_vision_plane_row_bytes (info, p));

    info->stride[p] = (gint) pitch;
    info->offset[p] = offset;
    offset += pitch * gst_cuda_vision_plane_rows (info, p);
  }
  info->size = offset;
}

GstMemory *
gst_cuda_vision_memory_alloc (GstCudaVisionDevice * device,
    const GstVideoInfo * info)
{
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  GstCudaVisionMemory *self;
  GstVideoInfo layout = *info;
  void *data;
  cvcore_event *event;

  gst_cuda_vision_memory_init_once ();
  gst_cuda_vision_video_info_set_layout (&layout, device);

  if (cvcore_device_alloc (core, layout.size, &data) != CVCORE_OK) {
    GST_ERROR_OBJECT (device, "cannot allocate %" G_GSIZE_FORMAT " bytes: %s",
        layout.size, cvcore_last_error ());
    return NULL;
  }
  if (cvcore_event_new (core, false, &event) != CVCORE_OK) {
    GST_ERROR_OBJECT (device, "cannot create an event: %s",
        cvcore_last_error ());
    cvcore_device_free (core, data);
    return NULL;
  }

  self = g_new0 (GstCudaVisionMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (self), GST_MEMORY_FLAG_NO_SHARE,
      the_allocator, NULL, layout.size, 0, 0, layout.size);
  self->device = gst_object_ref (device);
  self->info = layout;
  self->data = data;
  self->event = event;
  self->staging_stale = TRUE;
  g_mutex_init (&self->lock);
  return GST_MEMORY_CAST (self);
}

GstCudaVisionDevice *
gst_cuda_vision_memory_get_device (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cuda_vision_memory (mem), NULL);
  return ((GstCudaVisionMemory *) mem)->device;
}

const GstVideoInfo *
gst_cuda_vision_memory_get_info (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cuda_vision_memory (mem), NULL);
  return &((GstCudaVisionMemory *) mem)->info;
}

gboolean
gst_cuda_vision_memory_begin_access (GstMemory * mem, cvcore_stream * stream)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;
  cvcore_status status;

  g_mutex_lock (&self->lock);
  status = cvcore_stream_wait_event (stream, self->event);
  g_mutex_unlock (&self->lock);
  if (status != CVCORE_OK) {
    GST_ERROR ("cannot order a stream after the memory's last use: %s",
        cvcore_last_error ());
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_vision_memory_end_access (GstMemory * mem, cvcore_stream * stream)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;
  cvcore_status status;

  /* Another stream (a tee branch reading the same frame) may have recorded
   * since our begin_access: join its use first, so that the event we leave
   * covers every use so far and not only ours. */
  g_mutex_lock (&self->lock);
  status = cvcore_stream_wait_event (stream, self->event);
  if (status == CVCORE_OK)
    status = cvcore_event_record (self->event, stream);
  g_mutex_unlock (&self->lock);
  if (status != CVCORE_OK) {
    GST_ERROR ("cannot record the end of a use of the memory: %s",
        cvcore_last_error ());
    return FALSE;
  }
  return TRUE;
}

static gboolean
settle (GstMemory * mem, cvcore_stream * stream)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;
  gboolean settled;

  g_mutex_lock (&self->lock);
  settled = cvcore_event_settle (self->event, stream);
  g_mutex_unlock (&self->lock);
  return settled;
}

gboolean
gst_cuda_vision_memory_sync (GstMemory * mem)
{
  GstCudaVisionMemory *self = (GstCudaVisionMemory *) mem;

  if (cvcore_event_synchronize (self->event) != CVCORE_OK) {
    GST_ERROR ("waiting for the memory's last use failed: %s",
        cvcore_last_error ());
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_vision_is_device_memory (GstMemory * mem)
{
  return gst_is_cuda_vision_memory (mem) || gst_cuda_vision_is_cuda_memory
      (mem);
}

const GstVideoInfo *
gst_cuda_vision_device_memory_layout (GstMemory * mem)
{
  if (gst_is_cuda_vision_memory (mem))
    return gst_cuda_vision_memory_get_info (mem);
  return gst_cuda_vision_cuda_memory_info (mem);
}

const gchar *
gst_cuda_vision_device_memory_refusal (GstMemory * mem,
    GstCudaVisionDevice * device)
{
  if (gst_is_cuda_vision_memory (mem)) {
    if (gst_cuda_vision_device_get_id (gst_cuda_vision_memory_get_device (mem))
        != gst_cuda_vision_device_get_id (device))
      return "it lives on another device: set the same device-id on "
          "neighbouring elements";
    return NULL;
  }
  if (gst_cuda_vision_is_cuda_memory (mem)) {
    if (!gst_cuda_vision_cuda_memory_on_device (mem, device))
      return "it is CUDA memory of another CUDA context or device: let the "
          "pipeline's elements share one (gst.cuda.context) and set the same "
          "device on them";
    return NULL;
  }
  return "it is not device memory (memory:CUDAVisionMemory or "
      "memory:CUDAMemory)";
}

gboolean
gst_cuda_vision_device_memory_begin_access (GstMemory * mem,
    cvcore_stream * stream)
{
  if (gst_is_cuda_vision_memory (mem))
    return gst_cuda_vision_memory_begin_access (mem, stream);
  return gst_cuda_vision_cuda_memory_begin_access (mem, stream);
}

gboolean
gst_cuda_vision_device_memory_end_access (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream)
{
  if (gst_is_cuda_vision_memory (mem))
    return gst_cuda_vision_memory_end_access (mem, stream);
  return gst_cuda_vision_cuda_memory_end_access (mem, device, stream);
}

gboolean
gst_cuda_vision_device_memory_end_access_waited (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream)
{
  if (gst_is_cuda_vision_memory (mem) && settle (mem, stream))
    return TRUE;
  return gst_cuda_vision_device_memory_end_access (mem, device, stream);
}
