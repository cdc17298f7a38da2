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

/* The core's public API: argument checks, then dispatch to the device's
 * backend. */
#include "cvcore-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static _Thread_local char last_error[512];

cvcore_status
cv_fail (cvcore_status status, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  vsnprintf (last_error, sizeof (last_error), format, args);
  va_end (args);
  return status;
}

const char *
cvcore_last_error (void)
{
  return last_error;
}

cvcore_status
cvcore_file_open (const char *path, size_t max_size, FILE ** file, size_t *size)
{
  /* non-blocking, so that opening a FIFO with no writer returns at once */
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;

  *file = NULL;
  if (fd < 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "cannot open %s: %s",
        path, strerror (errno));
  if (fstat (fd, &st) != 0) {
    int err = errno;

    close (fd);
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "cannot read %s: %s",
        path, strerror (err));
  }
  if (!S_ISREG (st.st_mode)) {
    close (fd);
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s is not a regular file (%s)", path, S_ISDIR (st.st_mode) ?
        "a directory" : S_ISFIFO (st.st_mode) ? "a FIFO" : "a device or "
        "other special file");
  }
  if ((unsigned long long) st.st_size > max_size) {
    close (fd);
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s has %lld bytes, more than the %zu this file may have", path,
        (long long) st.st_size, max_size);
  }
  *file = fdopen (fd, "rb");
  if (*file == NULL) {
    close (fd);
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "cannot read %s: %s",
        path, strerror (errno));
  }
  *size = (size_t) st.st_size;
  return CVCORE_OK;
}

const char *
cvcore_status_name (cvcore_status status)
{
  switch (status) {
    case CVCORE_OK:
      return "ok";
    case CVCORE_ERROR_NOT_BUILT:
      return "CUDA support not built";
    case CVCORE_ERROR_NO_DRIVER:
      return "no usable NVIDIA driver";
    case CVCORE_ERROR_NO_DEVICE:
      return "no CUDA device";
    case CVCORE_ERROR_INVALID_DEVICE:
      return "device id out of range";
    case CVCORE_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case CVCORE_ERROR_INVALID_VALUE:
      return "invalid value";
    case CVCORE_ERROR_NOT_READY:
      return "not ready";
    case CVCORE_ERROR_RUNTIME:
      return "CUDA runtime error";
  }
  return "unknown status";
}

const char *
cvcore_backend_name (cvcore_backend backend)
{
  return backend == CVCORE_BACKEND_CPU ? "cpu" : "cuda";
}

bool
cvcore_backend_from_string (const char *name, cvcore_backend * backend)
{
  if (name == NULL || strcmp (name, "cuda") == 0)
    *backend = CVCORE_BACKEND_CUDA;
  else if (strcmp (name, "cpu") == 0)
    *backend = CVCORE_BACKEND_CPU;
  else
    return false;
  return true;
}

bool
cvcore_backend_is_built (cvcore_backend backend)
{
#ifdef CVCORE_HAVE_CUDA
  (void) backend;
  return true;
#else
  return backend == CVCORE_BACKEND_CPU;
#endif
}

static const cv_backend_ops *
ops_for (cvcore_backend backend)
{
  if (backend == CVCORE_BACKEND_CPU)
    return &cv_cpu_ops;
#ifdef CVCORE_HAVE_CUDA
  return &cv_cuda_ops;
#else
  return NULL;
#endif
}

static cvcore_status
not_built (void)
{
  return cv_fail (CVCORE_ERROR_NOT_BUILT,
      "this build has no CUDA backend (configured without the CUDA "
      "toolkit); use the cpu backend or rebuild with CUDA");
}

cvcore_status
cvcore_device_count (cvcore_backend backend, int *count)
{
  const cv_backend_ops *ops = ops_for (backend);

  *count = 0;
  if (ops == NULL)
    return not_built ();
  return ops->device_count (count);
}

static cvcore_status
open_device (const cv_backend_ops * ops, cvcore_backend backend,
    int device_id, void *context, cvcore_device ** device)
{
  cvcore_device *dev = calloc (1, sizeof (*dev));
  cvcore_status status;

  if (dev == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
  dev->ops = ops;
  dev->backend = backend;
  dev->id = device_id;
  dev->context = context;
  status = ops->device_open (dev);
  if (status != CVCORE_OK) {
    free (dev);
    return status;
  }
  *device = dev;
  return CVCORE_OK;
}

cvcore_status
cvcore_device_open (cvcore_backend backend, int device_id,
    cvcore_device ** device)
{
  const cv_backend_ops *ops = ops_for (backend);
  cvcore_status status;
  int count;

  *device = NULL;
  if (ops == NULL)
    return not_built ();
  status = ops->device_count (&count);
  if (status != CVCORE_OK)
    return status;
  if (count == 0)
    return cv_fail (CVCORE_ERROR_NO_DEVICE,
        "the NVIDIA driver is loaded but reports no CUDA device");
  if (device_id < 0 || device_id >= count)
    return cv_fail (CVCORE_ERROR_INVALID_DEVICE,
        "device id %d is out of range: the %s backend has %d device%s",
        device_id, cvcore_backend_name (backend), count, count == 1 ? "" : "s");

  return open_device (ops, backend, device_id, NULL, device);
}

cvcore_status
cvcore_device_open_context (void *context, cvcore_device ** device)
{
  *device = NULL;
#ifdef CVCORE_HAVE_CUDA
  if (context == NULL)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "no CUDA context given");
  return open_device (&cv_cuda_ops, CVCORE_BACKEND_CUDA, -1, context, device);
#else
  (void) context;
  return not_built ();
#endif
}

void *
cvcore_device_context (const cvcore_device * device)
{
  return device->context;
}

void
cvcore_device_close (cvcore_device * device)
{
  if (device == NULL)
    return;
  device->ops->device_close (device);
  free (device);
}

cvcore_backend
cvcore_device_backend (const cvcore_device * device)
{
  return device->backend;
}

int
cvcore_device_id (const cvcore_device * device)
{
  return device->id;
}

const char *
cvcore_device_name (const cvcore_device * device)
{
  return device->name;
}

size_t
cvcore_device_pitch_alignment (const cvcore_device * device)
{
  return device->pitch_alignment;
}

size_t
cvcore_pitch_for_width (const cvcore_device * device, size_t width_bytes)
{
  size_t align = device->pitch_alignment;

  if (width_bytes == 0)
    return align;
  return (width_bytes + align - 1) / align * align;
}

cvcore_status
cvcore_device_alloc (cvcore_device * device, size_t size, void **ptr)
{
  *ptr = NULL;
  if (size == 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "zero-byte allocation");
  return device->ops->device_alloc (device, size, ptr);
}

void
cvcore_device_free (cvcore_device * device, void *ptr)
{
  if (ptr != NULL)
    device->ops->device_free (device, ptr);
}

cvcore_status
cvcore_plane_alloc (cvcore_device * device, size_t width_bytes,
    size_t height, void **ptr, size_t *pitch)
{
  *pitch = cvcore_pitch_for_width (device, width_bytes);
  if (height == 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "zero-height plane");
  if (*pitch > SIZE_MAX / height)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "plane size overflows");
  return cvcore_device_alloc (device, *pitch * height, ptr);
}

cvcore_status
cvcore_host_alloc (cvcore_device * device, size_t size, void **ptr)
{
  *ptr = NULL;
  if (size == 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "zero-byte allocation");
  return device->ops->host_alloc (device, size, ptr);
}

void
cvcore_host_free (cvcore_device * device, void *ptr)
{
  if (ptr != NULL)
    device->ops->host_free (device, ptr);
}

cvcore_status
cvcore_host_register (cvcore_device * device, void *ptr, size_t size)
{
  if (ptr == NULL || size == 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "cannot register %zu bytes at %p", size, ptr);
  return device->ops->host_register (device, ptr, size);
}

cvcore_status
cvcore_host_unregister (cvcore_device * device, void *ptr)
{
  if (ptr == NULL)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "cannot unregister NULL");
  return device->ops->host_unregister (device, ptr);
}

/* A serial no other stream of this process has had. */
static unsigned long long
stream_serial (void)
{
  static unsigned long long last;

  return __atomic_add_fetch (&last, 1, __ATOMIC_RELAXED);
}

static cvcore_status
stream_new (cvcore_device * device, bool urgent, cvcore_stream ** stream)
{
  cvcore_stream *s = calloc (1, sizeof (*s));
  cvcore_status status;

  *stream = NULL;
  if (s == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
  s->device = device;
  s->serial = stream_serial ();
  status = device->ops->stream_new (device, urgent, &s->handle);
  if (status != CVCORE_OK) {
    free (s);
    return status;
  }
  *stream = s;
  return CVCORE_OK;
}

cvcore_status
cvcore_stream_new (cvcore_device * device, cvcore_stream ** stream)
{
  return stream_new (device, false, stream);
}

cvcore_status
cv_stream_new_urgent (cvcore_device * device, cvcore_stream ** stream)
{
  return stream_new (device, true, stream);
}

cvcore_status
cvcore_stream_wrap (cvcore_device * device, void *handle,
    cvcore_stream ** stream)
{
  cvcore_stream *s;

  *stream = NULL;
  if (device->backend != CVCORE_BACKEND_CUDA || handle == NULL)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "only a CUDA device wraps a stream, and not a null one");
  s = calloc (1, sizeof (*s));
  if (s == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
  s->device = device;
  s->handle = handle;
  s->wrapped = true;
  s->serial = stream_serial ();
  *stream = s;
  return CVCORE_OK;
}

void
cvcore_stream_free (cvcore_stream * stream)
{
  if (stream == NULL)
    return;
  for (int i = 0; i < CV_STREAM_SCRATCH_SLOTS; i++) {
    cv_scratch_slot *slot = &stream->scratch[i];

    if (slot->memory != NULL)
      stream->device->ops->device_free (stream->device, slot->memory);
    free (slot->key);
  }
  if (stream->finished != NULL)
    stream->device->ops->event_free (stream->device, stream->finished);
  if (stream->finished_asleep != NULL)
    stream->device->ops->event_free (stream->device, stream->finished_asleep);
  if (!stream->wrapped)
    stream->device->ops->stream_free (stream->device, stream->handle);
  free (stream);
}

void
cv_stream_scratch_forget (cvcore_stream * stream, void *ptr)
{
  for (int i = 0; i < CV_STREAM_SCRATCH_SLOTS; i++)
    if (stream->scratch[i].memory == ptr)
      stream->scratch[i].keyed = false;
}

/* The slot holding @key, or else the one used least recently, unkeyed. */
static cv_scratch_slot *
scratch_slot (cvcore_stream * stream, const void *key, size_t key_size)
{
  cv_scratch_slot *oldest = &stream->scratch[0];

  for (int i = 0; i < CV_STREAM_SCRATCH_SLOTS; i++) {
    cv_scratch_slot *slot = &stream->scratch[i];

    if (slot->keyed && slot->key_size == key_size &&
        (key_size == 0 || memcmp (slot->key, key, key_size) == 0))
      return slot;
    if (slot->used < oldest->used)
      oldest = slot;
  }
  oldest->keyed = false;
  return oldest;
}

cvcore_status
cv_stream_scratch (cvcore_stream * stream, size_t size, const void *key,
    size_t key_size, void **ptr, bool *kept)
{
  cvcore_device *device = stream->device;
  cv_scratch_slot *slot = scratch_slot (stream, key, key_size);
  cvcore_status status;

  *ptr = NULL;
  *kept = false;
  slot->used = ++stream->scratch_calls;
  if (size > slot->size) {
    slot->keyed = false;
    /* freeing waits for the work still using the old memory */
    if (slot->memory != NULL)
      device->ops->device_free (device, slot->memory);
    slot->memory = NULL;
    slot->size = 0;
    status = device->ops->device_alloc (device, size, &slot->memory);
    if (status != CVCORE_OK)
      return status;
    slot->size = size;
  }
  *ptr = slot->memory;
  if (slot->keyed) {
    *kept = true;
    return CVCORE_OK;
  }
  if (key_size > slot->key_room) {
    void *room = realloc (slot->key, key_size);

    if (room == NULL)
      return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
    slot->key = room;
    slot->key_room = key_size;
  }
  if (key_size > 0)
    memcpy (slot->key, key, key_size);
  slot->key_size = key_size;
  slot->keyed = true;
  return CVCORE_OK;
}

cvcore_device *
cvcore_stream_device (const cvcore_stream * stream)
{
  return stream->device;
}

void *
cvcore_stream_handle (const cvcore_stream * stream)
{
  return stream->handle;
}

cvcore_status
cvcore_stream_synchronize (cvcore_stream * stream)
{
  return stream->device->ops->stream_synchronize (stream->device,
      stream->handle);
}

/* How cvcore_stream_finish waits: naps, each ended by a look at the
 * event, for as long as a frame's work usually takes; then a blocking wait. */
#define FINISH_NAP_NS 20000
#define FINISH_NAPPING_NS 1000000

static int64_t
monotonic_ns (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}

/* Sleeps until the stream's work so far is done, on a blocking-sync event
 * recorded now: later than the work, so it completes after it. */
static cvcore_status
finish_asleep (cvcore_stream * stream)
{
  const cv_backend_ops *ops = stream->device->ops;
  cvcore_status status = CVCORE_OK;

  if (stream->finished_asleep == NULL)
    status = ops->event_new (stream->device, false, true,
        &stream->finished_asleep);
  if (status == CVCORE_OK)
    status = ops->event_record (stream->device, stream->finished_asleep,
        stream->handle);
  if (status == CVCORE_OK)
    status = ops->event_synchronize (stream->device, stream->finished_asleep);
  return status;
}

cvcore_status
cvcore_stream_finish (cvcore_stream * stream)
{
  const cv_backend_ops *ops = stream->device->ops;
  const struct timespec nap = { 0, FINISH_NAP_NS };
  cvcore_status status = CVCORE_OK;
  int64_t until;

  if (stream->finished == NULL)
    status = ops->event_new (stream->device, false, false, &stream->finished);
  if (status == CVCORE_OK)
    status = ops->event_record (stream->device, stream->finished,
        stream->handle);
  /* A blocking wait wakes the thread through the device's interrupt and
   * the driver's event thread, which costs the host more than the few naps
   * of a frame's usual wait; a long wait still ends asleep. The event
   * looked at between naps is not a blocking-sync one: recording one of
   * those cost the host about 20 us more per frame on an H100 even where
   * nothing slept on it (the driver wakes for each, waited on or not).
   * The first look comes after a nap: the work was queued just now. */
  until = monotonic_ns () + FINISH_NAPPING_NS;
  while (status == CVCORE_OK) {
    nanosleep (&nap, NULL);
    status = ops->event_query (stream->device, stream->finished);
    if (status != CVCORE_ERROR_NOT_READY)
      return status;
    if (monotonic_ns () > until)
      return finish_asleep (stream);
    status = CVCORE_OK;
  }
  return status;
}

cvcore_status
cvcore_stream_delay (cvcore_stream * stream, double ms)
{
  if (!(ms >= 0.0 && ms <= 10000.0))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "a stream delay of %g ms", ms);
  switch (stream->device->backend) {
#ifdef CVCORE_HAVE_CUDA
    case CVCORE_BACKEND_CUDA:
      return cv_cuda_stream_delay (stream->handle, ms);
#endif
    default:
      return CVCORE_OK;
  }
}

cvcore_status
cvcore_event_new (cvcore_device * device, bool timing, cvcore_event ** event)
{
  cvcore_event *e = calloc (1, sizeof (*e));
  cvcore_status status;

  *event = NULL;
  if (e == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "out of host memory");
  e->device = device;
  e->timing = timing;
  status = device->ops->event_new (device, timing, false, &e->handle);
  if (status != CVCORE_OK) {
    free (e);
    return status;
  }
  *event = e;
  return CVCORE_OK;
}

void
cvcore_event_free (cvcore_event * event)
{
  if (event == NULL)
    return;
  event->device->ops->event_free (event->device, event->handle);
  free (event);
}

static cvcore_status
check_same_device (const cvcore_device * a, const cvcore_device * b)
{
  if (a->backend != b->backend)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "objects of different backends used together");
  return CVCORE_OK;
}

cvcore_status
cvcore_event_record (cvcore_event * event, cvcore_stream * stream)
{
  cvcore_status status;

  /* CUDA records an event on a stream of its own context: devices opened
   * apart can share one (the primary context, or an adopted one). The
   * CPU backend's work is done when it is queued: any of its streams
   * will do. */
  if (event->device != stream->device
      && event->device->backend != CVCORE_BACKEND_CPU
      && (event->device->context == NULL
          || event->device->context != stream->device->context))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "an event is recorded on a stream of another device or context");
  status = event->device->ops->event_record (event->device, event->handle,
      stream->handle);
  if (status == CVCORE_OK) {
    event->records++;
    event->recorder = stream->serial;
  }
  return status;
}

cvcore_status
cvcore_stream_wait_event (cvcore_stream * stream, cvcore_event * event)
{
  cvcore_status status = check_same_device (stream->device, event->device);

  if (status != CVCORE_OK)
    return status;
  /* Nothing to wait for: no record yet, one that this stream made or
   * already waited for, or one already complete. A driver call costs a
   * thread that has slept microseconds; a frame's elements order each
   * memory twice. */
  if (event->records == event->settled || event->recorder == stream->serial
      || (event->waiter == stream->serial && event->waited == event->records))
    return CVCORE_OK;
  /* CUDA lets a stream wait on another device's event. */
  status = stream->device->ops->stream_wait_event (stream->device,
      stream->handle, event->handle);
  if (status == CVCORE_OK) {
    event->waiter = stream->serial;
    event->waited = event->records;
  }
  return status;
}

bool
cvcore_event_settle (cvcore_event * event, cvcore_stream * stream)
{
  if (event->records != event->settled && event->recorder != stream->serial
      && (event->waiter != stream->serial || event->waited != event->records))
    return false;
  event->settled = event->records;
  return true;
}

cvcore_status
cvcore_event_synchronize (cvcore_event * event)
{
  return event->device->ops->event_synchronize (event->device, event->handle);
}

cvcore_status
cvcore_event_query (cvcore_event * event)
{
  return event->device->ops->event_query (event->device, event->handle);
}

cvcore_status
cvcore_event_elapsed_ms (cvcore_event * start, cvcore_event * end, float *ms)
{
  cvcore_status status = check_same_device (start->device, end->device);

  if (status != CVCORE_OK)
    return status;
  if (!start->timing || !end->timing)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "elapsed time needs two events made with timing");
  if (start->records == 0 || end->records == 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "elapsed time needs two recorded events");
  return start->device->ops->event_elapsed_ms (start->device, start->handle,
      end->handle, ms);
}

cvcore_status
cvcore_copy_async (cvcore_stream * stream, void *dst, const void *src,
    size_t size, cvcore_copy_kind kind)
{
  if (size == 0)
    return CVCORE_OK;
  return cvcore_copy_2d_async (stream, dst, size, src, size, size, 1, kind);
}

cvcore_status
cvcore_copy_2d_async (cvcore_stream * stream, void *dst, size_t dst_pitch,
    const void *src, size_t src_pitch, size_t width_bytes, size_t height,
    cvcore_copy_kind kind)
{
  if (width_bytes == 0 || height == 0)
    return CVCORE_OK;
  if (dst == NULL || src == NULL || dst_pitch < width_bytes
      || src_pitch < width_bytes)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "bad 2-D copy: dst %p pitch %zu, src %p pitch %zu, row %zu bytes",
        dst, dst_pitch, src, src_pitch, width_bytes);
  return stream->device->ops->copy_2d_async (stream->device, stream->handle,
      dst, dst_pitch, src, src_pitch, width_bytes, height, kind);
}

cvcore_status
cvcore_device_enable_peer_access (cvcore_device * device,
    const cvcore_device * peer)
{
  if (peer->backend != device->backend)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "peer access between the %s and the %s backend",
        cvcore_backend_name (peer->backend),
        cvcore_backend_name (device->backend));
  return device->ops->enable_peer_access (device, peer->id);
}

cvcore_status
cvcore_copy_2d_peer_async (cvcore_stream * stream, void *dst,
    size_t dst_pitch, const cvcore_device * src_device, const void *src,
    size_t src_pitch, size_t width_bytes, size_t height)
{
  if (width_bytes == 0 || height == 0)
    return CVCORE_OK;
  if (dst == NULL || src == NULL || src_device == NULL
      || dst_pitch < width_bytes || src_pitch < width_bytes)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "bad peer copy: dst %p pitch %zu, src %p pitch %zu, row %zu bytes",
        dst, dst_pitch, src, src_pitch, width_bytes);
  if (src_device->backend != stream->device->backend)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "a peer copy between the %s and the %s backend",
        cvcore_backend_name (src_device->backend),
        cvcore_backend_name (stream->device->backend));
  return stream->device->ops->copy_2d_peer_async (stream->device,
      stream->handle, dst, dst_pitch, src_device->id, src, src_pitch,
      width_bytes, height);
}

cvcore_status
cvcore_memset_2d_async (cvcore_stream * stream, void *dst, size_t pitch,
    int value, size_t width_bytes, size_t height)
{
  if (width_bytes == 0 || height == 0)
    return CVCORE_OK;
  if (dst == NULL || pitch < width_bytes)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "bad 2-D memset");
  return stream->device->ops->memset_2d_async (stream->device,
      stream->handle, dst, pitch, value, width_bytes, height);
}
