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

/* CPU reference backend: host memory stands in for device memory and every
 * queued operation runs to completion before it returns, so streams need no
 * state and an event is complete as soon as it is recorded. */
#define _POSIX_C_SOURCE 200809L
#include "cvcore-private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Same alignment as the CUDA backend so layouts and stride handling are
 * exercised identically on both. */
#define CPU_PITCH_ALIGNMENT 256
#define CPU_ALLOC_ALIGNMENT 4096

typedef struct
{
  double recorded_ms;
} cpu_event;

static cvcore_status
cpu_device_count (int *count)
{
  const char *devices = getenv (CVCORE_CPU_DEVICES_ENV);
  long n = devices ? strtol (devices, NULL, 10) : 1;

  *count = n >= 1 && n <= CVCORE_CPU_MAX_DEVICES ? (int) n : 1;
  return CVCORE_OK;
}

static cvcore_status
cpu_device_open (cvcore_device * device)
{
  device->pitch_alignment = CPU_PITCH_ALIGNMENT;
  strncpy (device->name, "CPU reference", sizeof (device->name) - 1);
  return CVCORE_OK;
}

static void
cpu_device_close (cvcore_device * device)
{
  (void) device;
}

static cvcore_status
cpu_alloc (cvcore_device * device, size_t size, void **ptr)
{
  size_t rounded = (size + CPU_ALLOC_ALIGNMENT - 1) / CPU_ALLOC_ALIGNMENT
      * CPU_ALLOC_ALIGNMENT;

  (void) device;
  if (rounded < size)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY,
        "allocation of %zu bytes overflows", size);
  *ptr = aligned_alloc (CPU_ALLOC_ALIGNMENT, rounded);
  if (*ptr == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY,
        "cannot allocate %zu bytes of host memory", size);
  return CVCORE_OK;
}

static void
cpu_free (cvcore_device * device, void *ptr)
{
  (void) device;
  free (ptr);
}

/* Registered ranges, process-wide as CUDA's are, so that the CPU backend
 * refuses what CUDA would refuse: overlaps, and unknown unregistrations. */
typedef struct
{
  const uint8_t *start;
  size_t size;
} cpu_range;

static struct
{
  pthread_mutex_t lock;
  cpu_range *ranges;
  size_t n, room;
} registry = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

static cvcore_status
cpu_host_register (cvcore_device * device, void *ptr, size_t size)
{
  const uint8_t *start = ptr;
  cvcore_status status = CVCORE_OK;

  (void) device;
  pthread_mutex_lock (&registry.lock);
  for (size_t i = 0; i < registry.n && status == CVCORE_OK; i++) {
    const cpu_range *r = &registry.ranges[i];

    if (start < r->start + r->size && r->start < start + size)
      status = cv_fail (CVCORE_ERROR_RUNTIME,
          "%zu bytes at %p overlap registered memory", size, ptr);
  }
  if (status == CVCORE_OK && registry.n == registry.room) {
    size_t room = registry.room ? registry.room * 2 : 16;
    cpu_range *grown = realloc (registry.ranges, room * sizeof (cpu_range));

    if (grown == NULL)
      status = cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
    else {
      registry.ranges = grown;
      registry.room = room;
    }
  }
  if (status == CVCORE_OK) {
    registry.ranges[registry.n].start = start;
    registry.ranges[registry.n++].size = size;
  }
  pthread_mutex_unlock (&registry.lock);
  return status;
}

static cvcore_status
cpu_host_unregister (cvcore_device * device, void *ptr)
{
  cvcore_status status = CVCORE_ERROR_INVALID_VALUE;

  (void) device;
  pthread_mutex_lock (&registry.lock);
  for (size_t i = 0; i < registry.n; i++) {
    if (registry.ranges[i].start == ptr) {
      registry.ranges[i] = registry.ranges[--registry.n];
      status = CVCORE_OK;
      break;
    }
  }
  pthread_mutex_unlock (&registry.lock);
  if (status != CVCORE_OK)
    return cv_fail (status, "%p is not registered", ptr);
  return CVCORE_OK;
}

static cvcore_status
cpu_stream_new (cvcore_device * device, bool urgent, void **handle)
{
  (void) device;
  (void) urgent;
  *handle = NULL;
  return CVCORE_OK;
}

static void
cpu_stream_free (cvcore_device * device, void *handle)
{
  (void) device;
  (void) handle;
}

static cvcore_status
cpu_stream_synchronize (cvcore_device * device, void *handle)
{
  (void) device;
  (void) handle;
  return CVCORE_OK;
}

static cvcore_status
cpu_event_new (cvcore_device * device, bool timing, bool blocking,
    void **handle)
{
  (void) device;
  (void) timing;
  (void) blocking;
  *handle = calloc (1, sizeof (cpu_event));
  if (*handle == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
  return CVCORE_OK;
}

static void
cpu_event_free (cvcore_device * device, void *handle)
{
  (void) device;
  free (handle);
}

static cvcore_status
cpu_event_record (cvcore_device * device, void *event, void *stream)
{
  struct timespec now;

  (void) device;
  (void) stream;
  clock_gettime (CLOCK_MONOTONIC, &now);
  ((cpu_event *) event)->recorded_ms = now.tv_sec * 1e3 + now.tv_nsec / 1e6;
  return CVCORE_OK;
}

static cvcore_status
cpu_stream_wait_event (cvcore_device * device, void *stream, void *event)
{
  (void) device;
  (void) stream;
  (void) event;
  return CVCORE_OK;
}

static cvcore_status
cpu_event_synchronize (cvcore_device * device, void *event)
{
  (void) device;
  (void) event;
  return CVCORE_OK;
}

static cvcore_status
cpu_event_elapsed_ms (cvcore_device * device, void *start, void *end, float *ms)
{
  (void) device;
  *ms = (float) (((cpu_event *) end)->recorded_ms -
      ((cpu_event *) start)->recorded_ms);
  return CVCORE_OK;
}

static cvcore_status
cpu_copy_2d (cvcore_device * device, void *stream, void *dst,
    size_t dst_pitch, const void *src, size_t src_pitch, size_t width_bytes,
    size_t height, cvcore_copy_kind kind)
{
  uint8_t *d = dst;
  const uint8_t *s = src;

  (void) device;
  (void) stream;
  (void) kind;
  if (dst_pitch == width_bytes && src_pitch == width_bytes) {
    memmove (d, s, width_bytes * height);
    return CVCORE_OK;
  }
  for (size_t y = 0; y < height; y++)
    memmove (d + y * dst_pitch, s + y * src_pitch, width_bytes);
  return CVCORE_OK;
}

static cvcore_status
cpu_enable_peer_access (cvcore_device * device, int peer)
{
  (void) device;
  (void) peer;
  return CVCORE_OK;
}

/* Every CPU "device" works in host memory. */
static cvcore_status
cpu_copy_2d_peer (cvcore_device * device, void *stream, void *dst,
    size_t dst_pitch, int src_device_id, const void *src, size_t src_pitch,
    size_t width_bytes, size_t height)
{
  (void) src_device_id;
  return cpu_copy_2d (device, stream, dst, dst_pitch, src, src_pitch,
      width_bytes, height, CVCORE_COPY_DEVICE_TO_DEVICE);
}

static cvcore_status
cpu_memset_2d (cvcore_device * device, void *stream, void *dst, size_t pitch,
    int value, size_t width_bytes, size_t height)
{
  uint8_t *d = dst;

  (void) device;
  (void) stream;
  for (size_t y = 0; y < height; y++)
    memset (d + y * pitch, value, width_bytes);
  return CVCORE_OK;
}

const cv_backend_ops cv_cpu_ops = {
  .device_count = cpu_device_count,
  .device_open = cpu_device_open,
  .device_close = cpu_device_close,
  .device_alloc = cpu_alloc,
  .device_free = cpu_free,
  .host_alloc = cpu_alloc,
  .host_free = cpu_free,
  .host_register = cpu_host_register,
  .host_unregister = cpu_host_unregister,
  .stream_new = cpu_stream_new,
  .stream_free = cpu_stream_free,
  .stream_synchronize = cpu_stream_synchronize,
  .event_new = cpu_event_new,
  .event_free = cpu_event_free,
  .event_record = cpu_event_record,
  .stream_wait_event = cpu_stream_wait_event,
  .event_synchronize = cpu_event_synchronize,
  .event_query = cpu_event_synchronize,
  .event_elapsed_ms = cpu_event_elapsed_ms,
  .copy_2d_async = cpu_copy_2d,
  .copy_2d_peer_async = cpu_copy_2d_peer,
  .enable_peer_access = cpu_enable_peer_access,
  .memset_2d_async = cpu_memset_2d,
};
