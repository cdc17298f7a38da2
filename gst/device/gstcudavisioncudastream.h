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

/* The elements' streams: opened at start() on the element's device and
 * closed at stop(), and, from GStreamer 1.24, carried by CUDA memory.
 *
 * Streams that GStreamer's CUDA memory carries (GStreamer 1.24 and newer).
 *
 * From 1.24 a CUDAMemory may name the GstCudaStream its work is queued
 * on, and say with GST_CUDA_MEMORY_TRANSFER_NEED_SYNC that some of it may
 * still be pending. An element's cvcore stream then wraps a GstCudaStream
 * of the device's context, which its pools put on their memory: nvcodec's
 * decoders queue on the stream their downstream proposes, and consumers
 * wait for what the memory says, so the frames need no wait on the host.
 * In builds against older versions (or without the library) there are no
 * such streams, and every function here answers so. */
#ifndef __GST_CUDA_VISION_CUDA_STREAM_H__
#define __GST_CUDA_VISION_CUDA_STREAM_H__

#include <gst/gst.h>
#include "gstcudavisiondevice.h"

G_BEGIN_DECLS

/* A stream wrapping a new GstCudaStream of @device's CUDA context; FALSE
 * (and nothing made) where there is none to wrap. */
gboolean gst_cuda_vision_cuda_stream_open (GstCudaVisionDevice * device,
    cvcore_stream ** stream);
/* Forgets the GstCudaStream of @stream, before @stream is freed. */
void gst_cuda_vision_cuda_stream_close (cvcore_stream * stream);
/* The GstCudaStream that @stream wraps, or NULL; it lives as long as
 * @stream is open. */
gpointer gst_cuda_vision_cuda_stream_get (cvcore_stream * stream);

/* @stream waits, on the device, for the work queued so far on
 * @cuda_stream, a GstCudaStream of the same context. */
gboolean gst_cuda_vision_cuda_stream_wait_for (cvcore_stream * stream,
    gpointer cuda_stream);
/* @cuda_stream waits, on the device, for @event, which @stream's device
 * recorded. */
gboolean gst_cuda_vision_cuda_stream_make_wait (cvcore_stream * stream,
    gpointer cuda_stream, cvcore_event * event);

/* An element's start() and stop(): ensure_device and a new stream on the
 * device (an element error and FALSE when either fails); the stream freed
 * once its work is done and the device dropped (under the object lock,
 * which set_context takes too). */
gboolean gst_cuda_vision_open_stream (GstElement * element, gint device_id,
    GstCudaVisionDevice ** device, cvcore_stream ** stream);
void gst_cuda_vision_close_stream (GstElement * element,
    GstCudaVisionDevice ** device, cvcore_stream ** stream);

G_END_DECLS

#endif /* __GST_CUDA_VISION_CUDA_STREAM_H__ */
