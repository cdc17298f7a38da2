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

/* A buffer pool of device frames (GstCudaVisionMemory) with GstVideoMeta
 * carrying the device layout. */
#ifndef __GST_CUDA_VISION_BUFFER_POOL_H__
#define __GST_CUDA_VISION_BUFFER_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_BUFFER_POOL (gst_cuda_vision_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionBufferPool, gst_cuda_vision_buffer_pool,
    GST, CUDA_VISION_BUFFER_POOL, GstBufferPool);

GstBufferPool *gst_cuda_vision_buffer_pool_new (GstCudaVisionDevice * device);
GstCudaVisionDevice *gst_cuda_vision_buffer_pool_get_device (GstBufferPool *
    pool);

/* A configured (not yet active) pool for @caps, or NULL. */
GstBufferPool *gst_cuda_vision_buffer_pool_new_configured (GstCudaVisionDevice
    * device, GstCaps * caps, guint min_buffers, guint max_buffers);

/* Answers an ALLOCATION query from upstream with a device pool for the
 * query's caps, as filters and cudadownload do. A pool of CUDAMemory
 * carries @stream where it can. */
gboolean gst_cuda_vision_propose_device_pool (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstQuery * query);
/* Makes the first pool of an ALLOCATION query from downstream a device
 * pool of @device: downstream's own if it is one, otherwise a new one. */
gboolean gst_cuda_vision_decide_device_pool (GstCudaVisionDevice * device,
    cvcore_stream * stream, GstQuery * query);

G_END_DECLS

#endif /* __GST_CUDA_VISION_BUFFER_POOL_H__ */
