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

/* Internals shared by the core's dispatcher and its backends. */
#ifndef CVCORE_PRIVATE_H
#define CVCORE_PRIVATE_H

#include "cvcore.h"

CVCORE_BEGIN_DECLS

/* The primitive runtime each backend provides. Handles are opaque to the
 * dispatcher: cudaStream_t / cudaEvent_t on CUDA, small host structs on the
 * CPU backend. */
typedef struct
{
  cvcore_status (*device_count) (int *count);
  cvcore_status (*device_open) (cvcore_device * device);
  void (*device_close) (cvcore_device * device);

  cvcore_status (*device_alloc) (cvcore_device * device, size_t size,
      void **ptr);
  void (*device_free) (cvcore_device * device, void *ptr);
  cvcore_status (*host_alloc) (cvcore_device * device, size_t size,
      void **ptr);
  void (*host_free) (cvcore_device * device, void *ptr);
  cvcore_status (*host_register) (cvcore_device * device, void *ptr,
      size_t size);
  cvcore_status (*host_unregister) (cvcore_device * device, void *ptr);

  /* urgent: its work goes before other streams' where both wait */
  cvcore_status (*stream_new) (cvcore_device * device, bool urgent,
      void **handle);
  void (*stream_free) (cvcore_device * device, void *handle);
  cvcore_status (*stream_synchronize) (cvcore_device * device, void *handle);

  /* blocking: a wait on the event sleeps until the device signals it */
  cvcore_status (*event_new) (cvcore_device * device, bool timing,
      bool blocking, void **handle);
  void (*event_free) (cvcore_device * device, void *handle);
  cvcore_status (*event_record) (cvcore_device * device, void *event,
      void *stream);
  cvcore_status (*stream_wait_event) (cvcore_device * device, void *stream,
      void *event);
  cvcore_status (*event_synchronize) (cvcore_device * device, void *event);
  cvcore_status (*event_query) (cvcore_device * device, void *event);
  cvcore_status (*event_elapsed_ms) (cvcore_device * device, void *start,
      void *end, float *ms);

  cvcore_status (*copy_2d_async) (cvcore_device * device, void *stream,
      void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
      size_t width_bytes, size_t height, cvcore_copy_kind kind);
  cvcore_status (*copy_2d_peer_async) (cvcore_device * device,
      void *stream, void *dst, size_t dst_pitch, int src_device_id,
      const void *src, size_t src_pitch, size_t width_bytes, size_t height);
  cvcore_status (*enable_peer_access) (cvcore_device * device, int peer);
  cvcore_status (*memset_2d_async) (cvcore_device * device, void *stream,
      void *dst, size_t pitch, int value, size_t width_bytes, size_t height);
} cv_backend_ops;

struct cvcore_device
{
  const cv_backend_ops *ops;
  cvcore_backend backend;
  int id;
  size_t pitch_alignment;
  size_t shared_per_block_optin;        /* CUDA: opt-in shared memory */
  int compute_capability;       /* CUDA: major * 10 + minor */
  int multiprocessors;          /* CUDA */
  /* CUDA: the driver context (CUcontext) the device's work runs in: the
   * device's primary context, or one adopted from another library. */
  void *context;
  /* CUDA: the kernel attributes set in that context */
  struct cv_cuda_attributes *attributes;
  char name[256];
};

/* Memories a stream keeps for cv_stream_scratch: two, so that the
 * luma and the chroma of a frame can each keep their own. */
#define CV_STREAM_SCRATCH_SLOTS 2

/* One memory of a stream's scratch and the key of what it holds. */
typedef struct
{
  void *memory;
  size_t size;
  void *key;                    /* grows only: a frame allocates nothing */
  size_t key_size, key_room;
  bool keyed;                   /* memory holds what work under key made */
  unsigned long long used;      /* the stream's call that used it last */
} cv_scratch_slot;

struct cvcore_stream
{
  cvcore_device *device;
  void *handle;
  /* made by someone else, who destroys it */
  bool wrapped;
  /* cvcore_stream_finish's events, made when first needed: one looked at
   * between naps, and a blocking-sync one to sleep on after them */
  void *finished;
  void *finished_asleep;
  cv_scratch_slot scratch[CV_STREAM_SCRATCH_SLOTS];
  unsigned long long scratch_calls;
  /* tells streams apart, as their addresses cannot: a later stream may
   * take a freed one's */
  unsigned long long serial;
};

struct cvcore_event
{
  cvcore_device *device;
  void *handle;
  bool timing;
  /* How many records the event has had, the stream that made the last,
   * and the last stream that waited for it and how many records it had
   * then (serials): a stream's order already follows a record it made or
   * waited for, so cvcore_stream_wait_event() leaves out that call. So
   * does a record that the host has seen complete (@settled: the records
   * then). */
  unsigned long long records, recorder, waiter, waited, settled;
};

extern const cv_backend_ops cv_cpu_ops;

#ifdef CVCORE_HAVE_CUDA
/* Turns a cudaError_t into a status and a readable message. */
cvcore_status cv_cuda_fail (int error, const char *call, const char *file,
    int line);

#define CUDA_TRY(call) do { \
    int err_ = (int) (call); \
    if (err_ != 0) \
      return cv_cuda_fail (err_, #call, __FILE__, __LINE__); \
  } while (0)

/* Makes @device's context current on the calling thread. Runtime calls act
 * on the current context, and a streaming thread may serve elements of
 * several devices, or of contexts that other libraries made. */
cvcore_status cv_cuda_bind (const cvcore_device * device);

/* Sets attribute @attribute (a cudaFuncAttribute) of @kernel to @value in
 * @device's context, unless it holds that already (or, for the dynamic
 * shared memory, more): an attribute lasts as long as the context, and
 * setting it on every frame takes the driver's time and lock. */
cvcore_status cv_cuda_set_attribute (const cvcore_device * device,
    const void *kernel, int attribute, int value);

#define CUDA_BIND(device) do { \
    cvcore_status bind_ = cv_cuda_bind (device); \
    if (bind_ != CVCORE_OK) \
      return bind_; \
  } while (0)
#endif

#ifdef CVCORE_HAVE_CUDA
extern const cv_backend_ops cv_cuda_ops;

/* A kernel that waits @ms on @stream (a cudaStream_t). */
cvcore_status cv_cuda_stream_delay (void *stream, double ms);
#endif

/* Device memory of at least @size bytes that belongs to @stream, for the
 * work queued on it in stream order. @key (@key_size bytes) names what the
 * caller keeps there: *@kept is true when it still holds what work queued
 * under an equal key made. A key the stream does not hold takes the memory
 * used least recently of CV_STREAM_SCRATCH_SLOTS, and is recorded for
 * the next calls. A caller that fails to queue that work calls
 * cv_stream_scratch_forget with *@ptr. Growing a memory waits for the
 * device. */
/* A stream whose work the device takes before that of ordinary streams
 * (cvcore_stream_new()'s) when both wait for room: for a chain of small
 * launches that other work would otherwise hold up. */
cvcore_status cv_stream_new_urgent (cvcore_device * device,
    cvcore_stream ** stream);

cvcore_status cv_stream_scratch (cvcore_stream * stream, size_t size,
    const void *key, size_t key_size, void **ptr, bool *kept);
void cv_stream_scratch_forget (cvcore_stream * stream, void *ptr);

/* Every operation dispatches the same way: its dispatch file checks the
 * arguments, then calls @cpu_call (the CPU reference, in X-cpu.c) or
 * @cuda_call (the kernels' host side, in X.cu) by @device's backend. A
 * build without the CUDA backend never compiles @cuda_call. */
#ifdef CVCORE_HAVE_CUDA
#define CV_DISPATCH(device, cpu_call, cuda_call) \
  ((device)->backend == CVCORE_BACKEND_CPU ? (cpu_call) : (cuda_call))
#else
#define CV_DISPATCH(device, cpu_call, cuda_call) \
  ((device)->backend == CVCORE_BACKEND_CPU ? (cpu_call) : \
      cv_fail (CVCORE_ERROR_NOT_BUILT, "no such backend"))
#endif

/* Returns from the calling function when @call fails. */
#define CV_TRY(call) do { \
    cvcore_status try_ = (call); \
    if (try_ != CVCORE_OK) \
      return try_; \
  } while (0)

/* Records a message for cvcore_last_error() and returns `status`. */
cvcore_status
cv_fail (cvcore_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format (printf, 2, 3)))
#endif
    ;

CVCORE_END_DECLS

#endif /* CVCORE_PRIVATE_H */
