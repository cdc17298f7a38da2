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

/* Page-locked (pinned) system memory: ordinary mappable memory for every
 * element, which the GPU's copy engines also read and write directly, so
 * uploads from it and downloads into it run asynchronously at full speed. */
#ifndef __GST_CUDA_VISION_HOST_MEMORY_H__
#define __GST_CUDA_VISION_HOST_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"

G_BEGIN_DECLS

#define GST_CUDA_VISION_HOST_MEMORY_TYPE_NAME "CUDAVisionHostMemory"
#define GST_TYPE_CUDA_VISION_HOST_ALLOCATOR \
    (gst_cuda_vision_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionHostAllocator,
    gst_cuda_vision_host_allocator, GST, CUDA_VISION_HOST_ALLOCATOR,
    GstAllocator);

GstAllocator *gst_cuda_vision_host_allocator_new (GstCudaVisionDevice * device);
gboolean gst_is_cuda_vision_host_memory (GstMemory * mem);
/* TRUE when every memory of @buffer is page-locked memory of ours. */
gboolean gst_cuda_vision_buffer_is_pinned (GstBuffer * buffer);

/* TRUE when the copy engine reaches @frame's memory directly, so that
 * copies from or into it can be queued without staging: page-locked memory
 * of ours, or, when @pin_recycled, ordinary memory that comes a second
 * time (a pool's buffer, say), registered as page-locked then and
 * unregistered when the memory is freed. */
gboolean gst_cuda_vision_host_frame_dma_ready (GstCudaVisionDevice * device,
    GstVideoFrame * frame, gboolean pin_recycled);

/* A video buffer pool whose buffers are page-locked, with a GstVideoMeta
 * when @video_meta. */
GstBufferPool *gst_cuda_vision_host_pool_new (GstCudaVisionDevice * device,
    GstCaps * caps, const GstVideoInfo * info, guint min_buffers,
    gboolean video_meta);

G_END_DECLS

#endif /* __GST_CUDA_VISION_HOST_MEMORY_H__ */
