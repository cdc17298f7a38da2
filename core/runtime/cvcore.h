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

/* cvcore: the compute core shared by the cudavision elements.
 *
 * A small C API with two backends behind it: CUDA (the product) and a CPU
 * reference backend in plain C, where host memory stands in for device
 * memory and every operation completes before it returns. Nothing here
 * knows about GStreamer.
 *
 * Objects: a device (one GPU, or the CPU), streams (ordered work queues of a
 * device), events (points in a stream that other streams or the host wait
 * for) and memory (device memory, and page-locked host memory that the copy
 * engines read and write directly).
 *
 * Every function that can fail returns a cvcore_status; on failure
 * cvcore_last_error() holds a readable message for the calling thread.
 */
#ifndef CVCORE_H
#define CVCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The core's API is C; these let C++ (the .cu files) include it. */
#ifdef __cplusplus
#define CVCORE_BEGIN_DECLS extern "C" {
#define CVCORE_END_DECLS }
#else
#define CVCORE_BEGIN_DECLS
#define CVCORE_END_DECLS
#endif

CVCORE_BEGIN_DECLS

typedef enum
{
  CVCORE_BACKEND_CUDA = 0,
  CVCORE_BACKEND_CPU = 1,
} cvcore_backend;

typedef enum
{
  CVCORE_OK = 0,
  CVCORE_ERROR_NOT_BUILT,       /* the CUDA backend was not compiled in */
  CVCORE_ERROR_NO_DRIVER,       /* no usable NVIDIA driver */
  CVCORE_ERROR_NO_DEVICE,       /* driver present, no CUDA device */
  CVCORE_ERROR_INVALID_DEVICE,  /* device id out of range */
  CVCORE_ERROR_OUT_OF_MEMORY,
  CVCORE_ERROR_INVALID_VALUE,
  CVCORE_ERROR_NOT_READY,       /* an event or stream has work pending */
  CVCORE_ERROR_RUNTIME,         /* any other CUDA failure */
} cvcore_status;

typedef enum
{
  CVCORE_COPY_HOST_TO_DEVICE,
  CVCORE_COPY_DEVICE_TO_HOST,
  CVCORE_COPY_DEVICE_TO_DEVICE,
  CVCORE_COPY_HOST_TO_HOST,
} cvcore_copy_kind;

typedef struct cvcore_device cvcore_device;
typedef struct cvcore_stream cvcore_stream;
typedef struct cvcore_event cvcore_event;

typedef enum
{
  CVCORE_SAMPLE_U8,
  CVCORE_SAMPLE_U16,
} cvcore_sample;

/* A plane of interleaved samples in device memory (host memory on the CPU
 * backend).
 * Since: 0.1 */
typedef struct
{
  void *data;
  size_t pitch;                 /* bytes between rows */
  int width, height;            /* in pixels */
  int channels;                 /* 1, 2 or 4 interleaved samples per pixel */
  cvcore_sample sample;
} cvcore_image;

/* Files that properties name */
/* Opens @path for reading when it is a regular file of at most @max_size
 * bytes (its size in *@size): never a FIFO, device or directory, which
 * could block a reader or never end.
 * Since: 0.1 */
cvcore_status cvcore_file_open (const char *path, size_t max_size,
    FILE ** file, size_t *size);

/* Errors
 * Since: 0.1 */
const char *cvcore_status_name (cvcore_status status);
const char *cvcore_last_error (void);

/* Backends and devices
 * Since: 0.1 */
const char *cvcore_backend_name (cvcore_backend backend);
bool cvcore_backend_from_string (const char *name, cvcore_backend * backend);
bool cvcore_backend_is_built (cvcore_backend backend);

/* The CPU backend has one device, or as many as this environment variable
 * says (1 to CVCORE_CPU_MAX_DEVICES), all in host memory: programs that
 * pick devices and copy between them run without a GPU.
 * Since: 0.2 */
#define CVCORE_CPU_DEVICES_ENV "CVCORE_CPU_DEVICES"
#define CVCORE_CPU_MAX_DEVICES 8
cvcore_status cvcore_device_count (cvcore_backend backend, int *count);
cvcore_status cvcore_device_open (cvcore_backend backend, int device_id,
    cvcore_device ** device);
/* The CUDA backend's device of an existing driver context (a CUcontext
 * that another library made, such as GStreamer's CUDA library): the device
 * works in that context, which must outlive it.
 * Since: 0.1 */
cvcore_status cvcore_device_open_context (void *context,
    cvcore_device ** device);
void cvcore_device_close (cvcore_device * device);
/* The driver context (CUcontext) the device works in: its primary context
 * unless it was opened with one; NULL on the CPU backend.
 * Since: 0.1 */
void *cvcore_device_context (const cvcore_device * device);
cvcore_backend cvcore_device_backend (const cvcore_device * device);
int cvcore_device_id (const cvcore_device * device);
const char *cvcore_device_name (const cvcore_device * device);
/* Row pitches of device planes are multiples of this many bytes.
 * Since: 0.1 */
size_t cvcore_device_pitch_alignment (const cvcore_device * device);
size_t cvcore_pitch_for_width (const cvcore_device * device,
    size_t width_bytes);

/* Memory
 * Since: 0.1 */
cvcore_status cvcore_device_alloc (cvcore_device * device, size_t size,
    void **ptr);
void cvcore_device_free (cvcore_device * device, void *ptr);
/* Pitched 2-D plane: *pitch >= width_bytes, a multiple of the alignment.
 * Since: 0.1 */
cvcore_status cvcore_plane_alloc (cvcore_device * device, size_t width_bytes,
    size_t height, void **ptr, size_t *pitch);
/* Page-locked host memory (plain aligned memory on the CPU backend).
 * Since: 0.1 */
cvcore_status cvcore_host_alloc (cvcore_device * device, size_t size,
    void **ptr);
void cvcore_host_free (cvcore_device * device, void *ptr);
/* Page-locks @size bytes of ordinary host memory at @ptr for every device,
 * so copies from and into it run as asynchronous DMA, until
 * cvcore_host_unregister (a bookkeeping of ranges on the CPU backend, which
 * refuses overlaps as CUDA does). It costs about a millisecond per 8 MB:
 * worth it for memory that is copied again and again.
 * Since: 0.1 */
cvcore_status cvcore_host_register (cvcore_device * device, void *ptr,
    size_t size);
cvcore_status cvcore_host_unregister (cvcore_device * device, void *ptr);

/* Streams
 * Since: 0.1 */
cvcore_status cvcore_stream_new (cvcore_device * device,
    cvcore_stream ** stream);
/* Work queued on the returned stream goes on @handle, a stream of the CUDA
 * backend's device context that its maker keeps and destroys (such as a
 * CUDA library's CUstream); cvcore_stream_free() leaves it be.
 * Since: 0.1 */
cvcore_status cvcore_stream_wrap (cvcore_device * device, void *handle,
    cvcore_stream ** stream);
void cvcore_stream_free (cvcore_stream * stream);
cvcore_device *cvcore_stream_device (const cvcore_stream * stream);
cvcore_status cvcore_stream_synchronize (cvcore_stream * stream);
/* cvcore_stream_synchronize() with the calling thread asleep while it
 * waits (in short naps, then blocked), where synchronize may spin: for
 * waits that many pipelines make at once, where each spinning thread would
 * take a core from the others.
 * Since: 0.1 */
cvcore_status cvcore_stream_finish (cvcore_stream * stream);
/* Keeps @stream busy on the device for about @ms (does nothing on the CPU
 * backend). Benchmarks queue work behind it so that the host's cost of
 * queueing stays out of the device time they measure.
 * Since: 0.1 */
cvcore_status cvcore_stream_delay (cvcore_stream * stream, double ms);
/* Backend handle (a cudaStream_t on CUDA, NULL on the CPU backend).
 * Since: 0.1 */
void *cvcore_stream_handle (const cvcore_stream * stream);

/* Events: `timing` events can measure elapsed time between two records.
 * cvcore_stream_wait_event() orders the stream's later work after the
 * event's last record; it queues nothing where there is none, where the
 * stream made that record or has already waited for it, or where it was
 * settled (cvcore_event_settle()). One event's
 * records and waits are not to race each other (each holds the event's
 * account of them).
 * Since: 0.1 */
cvcore_status cvcore_event_new (cvcore_device * device, bool timing,
    cvcore_event ** event);
void cvcore_event_free (cvcore_event * event);
cvcore_status cvcore_event_record (cvcore_event * event,
    cvcore_stream * stream);
cvcore_status cvcore_stream_wait_event (cvcore_stream * stream,
    cvcore_event * event);
/* After the host has waited for all of `stream`'s work: where the event's
 * last record is one that `stream` made or waited for, it is complete, and
 * later waits for it queue nothing. False (and nothing changed) where
 * another stream has recorded it since.
 * Since: 0.1 */
bool cvcore_event_settle (cvcore_event * event, cvcore_stream * stream);
cvcore_status cvcore_event_synchronize (cvcore_event * event);
/* CVCORE_OK when complete, CVCORE_ERROR_NOT_READY while pending.
 * Since: 0.1 */
cvcore_status cvcore_event_query (cvcore_event * event);
cvcore_status cvcore_event_elapsed_ms (cvcore_event * start,
    cvcore_event * end, float *ms);

/* Copies, queued on `stream`. Host pointers of asynchronous copies must stay
 * valid until the stream passes the copy; page-locked host memory makes them
 * truly asynchronous.
 * Since: 0.1 */
cvcore_status cvcore_copy_async (cvcore_stream * stream, void *dst,
    const void *src, size_t size, cvcore_copy_kind kind);
cvcore_status cvcore_copy_2d_async (cvcore_stream * stream, void *dst,
    size_t dst_pitch, const void *src, size_t src_pitch, size_t width_bytes,
    size_t height, cvcore_copy_kind kind);
/* Lets @device's context read and write @peer's memory directly (over
 * NVLink or PCIe), where the two allow it; once per context and peer, and
 * only where nothing else does it (GStreamer's CUDA library does it for
 * every pair of contexts it wraps). Without it peer copies still work,
 * staged through the host by the driver.
 * Since: 0.2 */
cvcore_status cvcore_device_enable_peer_access (cvcore_device * device,
    const cvcore_device * peer);
/* A 2-D copy from @src on @src_device (another device of the stream's
 * backend, or the same) into @dst on the stream's device: a peer copy.
 * Since: 0.2 */
cvcore_status cvcore_copy_2d_peer_async (cvcore_stream * stream, void *dst,
    size_t dst_pitch, const cvcore_device * src_device, const void *src,
    size_t src_pitch, size_t width_bytes, size_t height);
cvcore_status cvcore_memset_2d_async (cvcore_stream * stream, void *dst,
    size_t pitch, int value, size_t width_bytes, size_t height);

CVCORE_END_DECLS

#endif /* CVCORE_H */
