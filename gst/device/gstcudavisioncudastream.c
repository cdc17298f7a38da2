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

/* Streams that GStreamer's CUDA memory carries: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisioncudastream.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_cuda_stream_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_cuda_stream_debug

static void
debug_init_once (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_cuda_stream_debug,
        "cudavisioncudastream", 0, "cudavision streams");
    g_once_init_leave (&done, 1);
  }
}

#ifdef HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudastream.h>

/* What an open stream keeps: the GstCudaStream it wraps, and an event
 * that it records on other streams to wait for them. */
typedef struct
{
  GstCudaStream *cuda_stream;
  cvcore_event *order;
} OpenStream;

static GMutex open_streams_lock;
/* cvcore_stream * to OpenStream * */
static GHashTable *open_streams;

static void
open_stream_free (gpointer data)
{
  OpenStream *open = data;

  cvcore_event_free (open->order);
  gst_cuda_stream_unref (open->cuda_stream);
  g_free (open);
}

static OpenStream *
lookup (cvcore_stream * stream)
{
  OpenStream *open;

  g_mutex_lock (&open_streams_lock);
  open = open_streams ? g_hash_table_lookup (open_streams, stream) : NULL;
  g_mutex_unlock (&open_streams_lock);
  return open;
}

gboolean
gst_cuda_vision_cuda_stream_open (GstCudaVisionDevice * device,
    cvcore_stream ** stream)
{
  GstObject *context = gst_cuda_vision_device_get_cuda_context (device);
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  OpenStream *open;
  cvcore_status status;

  debug_init_once ();
  *stream = NULL;
  if (context == NULL)
    return FALSE;
  open = g_new0 (OpenStream, 1);
  open->cuda_stream = gst_cuda_stream_new (GST_CUDA_CONTEXT (context));
  if (open->cuda_stream == NULL) {
    GST_WARNING_OBJECT (device, "no GstCudaStream: frames in CUDAMemory "
        "will be waited for on the host");
    g_free (open);
    return FALSE;
  }
  status = cvcore_stream_wrap (core,
      gst_cuda_stream_get_handle (open->cuda_stream), stream);
  if (status == CVCORE_OK)
    status = cvcore_event_new (core, false, &open->order);
  if (status != CVCORE_OK) {
    GST_WARNING_OBJECT (device, "cannot use a GstCudaStream: %s",
        cvcore_last_error ());
    cvcore_stream_free (*stream);
    *stream = NULL;
    gst_cuda_stream_unref (open->cuda_stream);
    g_free (open);
    return FALSE;
  }
  g_mutex_lock (&open_streams_lock);
  if (open_streams == NULL)
    open_streams = g_hash_table_new_full (NULL, NULL, NULL, open_stream_free);
  g_hash_table_insert (open_streams, *stream, open);
  g_mutex_unlock (&open_streams_lock);
  return TRUE;
}

void
gst_cuda_vision_cuda_stream_close (cvcore_stream * stream)
{
  g_mutex_lock (&open_streams_lock);
  if (open_streams)
    g_hash_table_remove (open_streams, stream);
  g_mutex_unlock (&open_streams_lock);
}

gpointer
gst_cuda_vision_cuda_stream_get (cvcore_stream * stream)
{
  OpenStream *open = lookup (stream);

  return open ? open->cuda_stream : NULL;
}

/* A cvcore stream for @cuda_stream, for the length of one call. */
static cvcore_stream *
borrow (cvcore_stream * stream, GstCudaStream * cuda_stream)
{
  cvcore_stream *borrowed = NULL;

  if (cvcore_stream_wrap (cvcore_stream_device (stream),
          gst_cuda_stream_get_handle (cuda_stream), &borrowed) != CVCORE_OK)
    GST_ERROR ("cannot wrap a GstCudaStream: %s", cvcore_last_error ());
  return borrowed;
}

gboolean
gst_cuda_vision_cuda_stream_wait_for (cvcore_stream * stream,
    gpointer cuda_stream)
{
  OpenStream *open = lookup (stream);
  cvcore_stream *other;
  cvcore_status status;

  /* only an open stream has an event to record elsewhere */
  if (open == NULL || (other = borrow (stream, cuda_stream)) == NULL)
    return FALSE;
  status = cvcore_event_record (open->order, other);
  if (status == CVCORE_OK)
    status = cvcore_stream_wait_event (stream, open->order);
  cvcore_stream_free (other);
  if (status != CVCORE_OK)
    GST_ERROR ("cannot order a stream after a GstCudaStream: %s",
        cvcore_last_error ());
  return status == CVCORE_OK;
}

gboolean
gst_cuda_vision_cuda_stream_make_wait (cvcore_stream * stream,
    gpointer cuda_stream, cvcore_event * event)
{
  cvcore_stream *other = borrow (stream, cuda_stream);
  cvcore_status status;

  if (other == NULL)
    return FALSE;
  status = cvcore_stream_wait_event (other, event);
  cvcore_stream_free (other);
  if (status != CVCORE_OK)
    GST_ERROR ("cannot order a GstCudaStream after a stream: %s",
        cvcore_last_error ());
  return status == CVCORE_OK;
}

#else /* !HAVE_GST_CUDA_STREAM */

gboolean
gst_cuda_vision_cuda_stream_open (GstCudaVisionDevice * device,
    cvcore_stream ** stream)
{
  *stream = NULL;
  return FALSE;
}

void
gst_cuda_vision_cuda_stream_close (cvcore_stream * stream)
{
}

gpointer
gst_cuda_vision_cuda_stream_get (cvcore_stream * stream)
{
  return NULL;
}

gboolean
gst_cuda_vision_cuda_stream_wait_for (cvcore_stream * stream,
    gpointer cuda_stream)
{
  g_return_val_if_reached (FALSE);
}

gboolean
gst_cuda_vision_cuda_stream_make_wait (cvcore_stream * stream,
    gpointer cuda_stream, cvcore_event * event)
{
  g_return_val_if_reached (FALSE);
}

#endif /* HAVE_GST_CUDA_STREAM */

gboolean
gst_cuda_vision_open_stream (GstElement * element, gint device_id,
    GstCudaVisionDevice ** device, cvcore_stream ** stream)
{
  cvcore_status status;

  debug_init_once ();
  if (!gst_cuda_vision_ensure_device (element, device_id, device))
    return FALSE;
  status = gst_cuda_vision_cuda_stream_open (*device, stream) ? CVCORE_OK :
      cvcore_stream_new (gst_cuda_vision_device_get_core (*device), stream);
  if (status != CVCORE_OK) {
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("Cannot create a stream on device %d: %s", device_id,
            cvcore_status_name (status)), ("%s", cvcore_last_error ()));
    return FALSE;
  }
  GST_DEBUG_OBJECT (element, "started on %s",
      cvcore_device_name (gst_cuda_vision_device_get_core (*device)));
  return TRUE;
}

void
gst_cuda_vision_close_stream (GstElement * element,
    GstCudaVisionDevice ** device, cvcore_stream ** stream)
{
  if (*stream) {
    cvcore_stream_synchronize (*stream);
    gst_cuda_vision_cuda_stream_close (*stream);
    cvcore_stream_free (*stream);
    *stream = NULL;
  }
  GST_OBJECT_LOCK (element);
  gst_clear_object (device);
  GST_OBJECT_UNLOCK (element);
}
