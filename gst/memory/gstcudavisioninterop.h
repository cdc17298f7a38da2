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

/* Interoperation with GStreamer's CUDA library (libgstcuda-1.0 of
 * gst-plugins-bad), whose memory:CUDAMemory nvcodec's decoders and
 * cudaupload/cudadownload carry.
 *
 * What the elements need of it: caps with that memory feature, the
 * library's CUDA context shared through "gst.cuda.context", buffer pools of
 * its memory, and ordering between the device work of the elements that
 * use one of its memories. In a build without the library (meson option
 * gst-cuda) every function here answers as if no such memory existed. */
#ifndef __GST_CUDA_VISION_INTEROP_H__
#define __GST_CUDA_VISION_INTEROP_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"
#include "gstcudavisioncudacontext.h"

G_BEGIN_DECLS

#define GST_CUDA_VISION_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"
void gst_cuda_vision_interop_init_once (void);

/* @caps (taken) with, after each structure in memory:CUDAVisionMemory, the
 * same in memory:CUDAMemory where GStreamer's CUDA allocator can lay out
 * the formats (raw video of the formats it knows; no Bayer mosaics). For
 * pad templates. */
GstCaps *gst_cuda_vision_caps_add_cuda_memory (GstCaps * caps);

/* transform_caps of device-to-device elements: each structure of @caps in
 * its own device memory feature, then in the other one, as far as the
 * backend carries it (the CPU backend carries no CUDAMemory). Taken. */
GstCaps *gst_cuda_vision_caps_both_device_features (GstCaps * caps,
    cvcore_backend backend);
/* @caps (taken) without memory:CUDAMemory structures when @backend cannot
 * carry them. */
GstCaps *gst_cuda_vision_caps_for_backend (GstCaps * caps,
    cvcore_backend backend);
/* TRUE when every structure of @caps is in memory:CUDAMemory. */
gboolean gst_cuda_vision_caps_only_cuda_memory (const GstCaps * caps);
gboolean gst_cuda_vision_caps_are_cuda_memory (const GstCaps * caps);

gboolean gst_cuda_vision_is_cuda_memory (GstMemory * mem);
/* The layout that memory:CUDAMemory @mem was allocated with, or NULL. */
const GstVideoInfo *gst_cuda_vision_cuda_memory_info (GstMemory * mem);
/* The GstCudaContext of CUDAMemory @mem (transfer none), or NULL. */
GstObject *gst_cuda_vision_cuda_memory_context (GstMemory * mem);
/* TRUE when @mem is CUDAMemory of @device's context. */
gboolean gst_cuda_vision_cuda_memory_on_device (GstMemory * mem,
    GstCudaVisionDevice * device);

/* Ordering of CUDAMemory between cudavision streams, as
 * gst_cuda_vision_memory_begin_access() and _end_access() do for ours: an
 * event kept on the memory marks the end of the last use queued by a
 * cudavision element. Producers of other plugins finish their work before
 * they push, or, from 1.24 on, leave it on the memory's stream and say so
 * (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC); from 1.24 on the end of a use is
 * handed over to the memory's stream likewise. */
gboolean gst_cuda_vision_cuda_memory_begin_access (GstMemory * mem,
    cvcore_stream * stream);
gboolean gst_cuda_vision_cuda_memory_end_access (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream);

/* TRUE when @buffer is CUDAMemory whose later users learn of our work on
 * it only from a wait on the host. From 1.24 on, memory that names its
 * stream needs none: the work is handed over to that stream. */
gboolean gst_cuda_vision_cuda_buffer_needs_host_wait (GstBuffer * buffer);

/* TRUE when buffers of @caps from our pools are CUDAMemory that needs a
 * host wait, as gst_cuda_vision_cuda_buffer_needs_host_wait () says. */
gboolean gst_cuda_vision_cuda_caps_need_host_wait (const GstCaps * caps);

/* Called once the host has seen @stream finish the use it just ended on
 * @buffer's CUDAMemory: the event of that use is then passed, and later
 * uses need not wait for it on the device. */
void gst_cuda_vision_cuda_buffer_use_finished (GstBuffer * buffer,
    cvcore_stream * stream);

/* A configured pool of CUDAMemory in @device's context, whose memory
 * carries @stream's GstCudaStream where it has one; or NULL. */
GstBufferPool *gst_cuda_vision_cuda_pool_new_configured (GstCudaVisionDevice
    * device, cvcore_stream * stream, GstCaps * caps, guint min_buffers,
    guint max_buffers);
/* TRUE when @pool was made by a cudavision element, so buffers that return
 * to it are next written by one of ours, which orders itself after every
 * queued use. */
gboolean gst_cuda_vision_pool_is_ours (GstBufferPool * pool);

G_END_DECLS

#endif /* __GST_CUDA_VISION_INTEROP_H__ */
