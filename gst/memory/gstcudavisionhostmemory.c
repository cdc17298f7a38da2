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

/* Page-locked system memory and the page-locking of recycled memory: see
 * the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionhostmemory.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_host_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_host_memory_debug

typedef struct
{
  GstMemory mem;
  /* NULL for shared sub-memories: the parent owns the allocation. */
  void *allocation;
  guint8 *data;
} GstCudaVisionHostMemory;

struct _GstCudaVisionHostAllocator
{
  GstAllocator parent;
  GstCudaVisionDevice *device;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionHostAllocator,
    gst_cuda_vision_host_allocator, GST_TYPE_ALLOCATOR,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_host_memory_debug,
        "cudavisionhostmemory", 0, "cudavision page-locked memory"));

static GstCudaVisionHostMemory *
host_memory_wrap (GstAllocator * allocator, GstMemory * parent,
    void *allocation, guint8 * data, gsize maxsize, gsize offset, gsize size,
    GstMemoryFlags flags)
{
  GstCudaVisionHostMemory *self = g_new0 (GstCudaVisionHostMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (self), flags, allocator, parent, maxsize,
      0, offset, size);
  self->allocation = allocation;
  self->data = data;
  return self;
}

static GstMemory *
gst_cuda_vision_host_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCudaVisionHostAllocator *self = (GstCudaVisionHostAllocator *) allocator;
  cvcore_device *core = gst_cuda_vision_device_get_core (self->device);
  gsize align = params->align;
  gsize maxsize = params->prefix + size + params->padding;
  void *allocation;
  guint8 *data;
  gsize shift;
  GstCudaVisionHostMemory *mem;

  /* Page-locked allocations are page aligned; larger alignments are
   * honoured by over-allocating. */
  if (align >= 4096)
    maxsize += align;
  if (cvcore_host_alloc (core, maxsize, &allocation) != CVCORE_OK) {
    GST_ERROR_OBJECT (self, "cannot allocate %" G_GSIZE_FORMAT
        " page-locked bytes: %s", maxsize, cvcore_last_error ());
    return NULL;
  }
  data = allocation;
  shift = (align && ((guintptr) data & align)) ?
      (align + 1) - ((guintptr) data & align) : 0;
  data += shift;
  maxsize -= shift;

  mem = host_memory_wrap (allocator, NULL, allocation, data, maxsize,
      params->prefix, size, params->flags);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix)
    memset (data, 0, params->prefix);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding)
    memset (data + params->prefix + size, 0, params->padding);
  return GST_MEMORY_CAST (mem);
}

static void
gst_cuda_vision_host_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCudaVisionHostAllocator *self = (GstCudaVisionHostAllocator *) allocator;
  GstCudaVisionHostMemory *hmem = (GstCudaVisionHostMemory *) mem;

  if (hmem->allocation)
    cvcore_host_free (gst_cuda_vision_device_get_core (self->device),
        hmem->allocation);
  g_free (hmem);
}

static gpointer
host_memory_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  return ((GstCudaVisionHostMemory *) mem)->data;
}

static void
host_memory_unmap (GstMemory * mem)
{
}

static GstMemory *
host_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaVisionHostMemory *self = (GstCudaVisionHostMemory *) mem;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  return GST_MEMORY_CAST (host_memory_wrap (mem->allocator, parent, NULL,
          self->data, mem->maxsize, mem->offset + offset, size,
          GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY));
}

static GstMemory *
host_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaVisionHostMemory *self = (GstCudaVisionHostMemory *) mem;
  GstAllocationParams params = { 0, mem->align, 0, 0 };
  GstMemory *copy;
  GstMapInfo map;

  if (size == -1)
    size = mem->size > (gsize) offset ? mem->size - offset : 0;
  copy = gst_allocator_alloc (mem->allocator, size, &params);
  if (copy == NULL || !gst_memory_map (copy, &map, GST_MAP_WRITE)) {
    if (copy)
      gst_memory_unref (copy);
    return NULL;
  }
  memcpy (map.data, self->data + mem->offset + offset, size);
  gst_memory_unmap (copy, &map);
  return copy;
}

static gboolean
host_memory_is_span (GstMemory * mem1, GstMemory * mem2, gsize * offset)
{
  GstCudaVisionHostMemory *a = (GstCudaVisionHostMemory *) mem1;
  GstCudaVisionHostMemory *b = (GstCudaVisionHostMemory *) mem2;

  if (offset)
    *offset = mem1->offset - (mem1->parent ? mem1->parent->offset : 0);
  return a->data + mem1->offset + mem1->size == b->data + mem2->offset;
}

static void
gst_cuda_vision_host_allocator_dispose (GObject * object)
{
  GstCudaVisionHostAllocator *self = GST_CUDA_VISION_HOST_ALLOCATOR (object);

  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_cuda_vision_host_allocator_parent_class)->dispose
      (object);
}

static void
gst_cuda_vision_host_allocator_class_init (GstCudaVisionHostAllocatorClass *
    klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gst_cuda_vision_host_allocator_dispose;
  allocator_class->alloc = gst_cuda_vision_host_allocator_alloc;
  allocator_class->free = gst_cuda_vision_host_allocator_free;
}

static void
gst_cuda_vision_host_allocator_init (GstCudaVisionHostAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CUDA_VISION_HOST_MEMORY_TYPE_NAME;
  allocator->mem_map = host_memory_map;
  allocator->mem_unmap = host_memory_unmap;
  allocator->mem_share = host_memory_share;
  allocator->mem_copy = host_memory_copy;
  allocator->mem_is_span = host_memory_is_span;
}

/**
 * gst_cuda_vision_host_allocator_new:
 * @device: the device whose backend pins the memory
 *
 * Returns: (transfer full): an allocator of page-locked memory
 */
GstAllocator *
gst_cuda_vision_host_allocator_new (GstCudaVisionDevice * device)
{
  GstCudaVisionHostAllocator *self =
      g_object_new (GST_TYPE_CUDA_VISION_HOST_ALLOCATOR, NULL);

  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_is_cuda_vision_host_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CUDA_VISION_HOST_ALLOCATOR (mem->allocator);
}

gboolean
gst_cuda_vision_buffer_is_pinned (GstBuffer * buffer)
{
  guint n = gst_buffer_n_memory (buffer);

  for (guint i = 0; i < n; i++) {
    if (!gst_is_cuda_vision_host_memory (gst_buffer_peek_memory (buffer, i)))
      return FALSE;
  }
  return n > 0;
}

GstBufferPool *
gst_cuda_vision_host_pool_new (GstCudaVisionDevice * device, GstCaps * caps,
    const GstVideoInfo * info, guint min_buffers, gboolean video_meta)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = gst_cuda_vision_host_allocator_new (device);

  gst_buffer_pool_config_set_params (config, caps, info->size, min_buffers, 0);
  gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (pool, "page-locked pool refused its configuration");
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* What became of ordinary memory that a transfer saw: seen once, or
 * registered (page-locked) when it came again, or refused by the driver
 * (read-only or device mappings, ranges another registration covers). */
typedef enum
{
  HOST_SEEN,
  HOST_REGISTERED,
  HOST_REFUSED,
} HostRegistrationState;

typedef struct
{
  HostRegistrationState state;
  /* the device that registered it, held until the memory is freed */
  GstCudaVisionDevice *device;
  gpointer data;
  gsize size;
} HostRegistration;

/* Guards the transitions, so that two elements never register one memory
 * twice. */
static GMutex host_registration_lock;

static GQuark host_registration_quark (void);
G_DEFINE_QUARK (GstCudaVisionHostRegistration, host_registration);

/* Runs when the memory is freed, before its allocator frees the bytes. */
static void
host_registration_free (gpointer data)
{
  HostRegistration *registration = data;
  cvcore_status status;

  if (registration->state == HOST_REGISTERED) {
    status = cvcore_host_unregister (gst_cuda_vision_device_get_core
        (registration->device), registration->data);
    if (status != CVCORE_OK)
      GST_WARNING ("cannot unregister %p: %s", registration->data,
          cvcore_last_error ());
  }
  gst_clear_object (&registration->device);
  g_free (registration);
}

/* Registers @mem, mapped at @map, on its second sighting. */
static gboolean
host_memory_registered (GstCudaVisionDevice * device, GstMemory * mem,
    const GstMapInfo * map)
{
  HostRegistration *registration;
  gboolean registered;

  g_mutex_lock (&host_registration_lock);
  registration = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      host_registration_quark ());
  if (registration == NULL) {
    /* the first time: a one-off buffer must not pay for registering */
    registration = g_new0 (HostRegistration, 1);
    registration->state = HOST_SEEN;
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem),
        host_registration_quark (), registration, host_registration_free);
  } else if (registration->state == HOST_SEEN) {
    if (cvcore_host_register (gst_cuda_vision_device_get_core (device),
            map->data, map->size) == CVCORE_OK) {
      registration->state = HOST_REGISTERED;
      registration->device = gst_object_ref (device);
      registration->data = map->data;
      registration->size = map->size;
      GST_DEBUG ("registered %" G_GSIZE_FORMAT " bytes at %p", map->size,
          map->data);
    } else {
      registration->state = HOST_REFUSED;
      GST_DEBUG ("registering %" G_GSIZE_FORMAT " bytes at %p refused: %s",
          map->size, map->data, cvcore_last_error ());
    }
  }
  /* a memory that maps elsewhere now is not what was registered */
  registered = registration->state == HOST_REGISTERED
      && registration->data == map->data && registration->size >= map->size;
  g_mutex_unlock (&host_registration_lock);
  return registered;
}

gboolean
gst_cuda_vision_host_frame_dma_ready (GstCudaVisionDevice * device,
    GstVideoFrame * frame, gboolean pin_recycled)
{
  GstBuffer *buffer = frame->buffer;

  if (gst_cuda_vision_buffer_is_pinned (buffer))
    return TRUE;
  /* one memory, mapped as itself: a frame of several is mapped as a copy */
  if (!pin_recycled || gst_buffer_n_memory (buffer) != 1
      || frame->map[0].memory != gst_buffer_peek_memory (buffer, 0))
    return FALSE;
  return host_memory_registered (device, frame->map[0].memory, &frame->map[0]);
}
