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

/* Device memory of the cudavision elements.
 *
 * One GstCudaVisionMemory holds every plane of a video frame in one device
 * allocation, each row pitched to the device's alignment; the layout is a
 * GstVideoInfo whose strides and offsets are the real ones (buffers carry
 * them in a GstVideoMeta too).
 *
 * Ordering between streams: every user of the memory waits for its event
 * before queueing work on it (begin_access) and records the event after
 * (end_access). Reads and writes of any stream are thus ordered without a
 * host synchronisation, and the event always marks the end of the last
 * queued use. Host maps synchronise on it.
 *
 * Mapping with GST_MAP_CUDA_VISION yields the device pointer. A plain map
 * (for elements that know nothing of devices) yields a host copy: it is
 * downloaded when the device holds newer data and uploaded back before the
 * next device map after a host write.
 */
#ifndef __GST_CUDA_VISION_MEMORY_H__
#define __GST_CUDA_VISION_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"
#include "gstcudavisionformats.h"

G_BEGIN_DECLS

#define GST_CUDA_VISION_MEMORY_TYPE_NAME "CUDAVisionMemory"
/* Map flag: map for device access, data is the device pointer. */
#define GST_MAP_CUDA_VISION ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))
typedef struct _GstCudaVisionMemory GstCudaVisionMemory;

#define GST_TYPE_CUDA_VISION_ALLOCATOR (gst_cuda_vision_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionAllocator, gst_cuda_vision_allocator, GST,
    CUDA_VISION_ALLOCATOR, GstAllocator);

void gst_cuda_vision_memory_init_once (void);
gboolean gst_is_cuda_vision_memory (GstMemory * mem);

/* Fills the strides, offsets and size of @info with the device layout. */
void gst_cuda_vision_video_info_set_layout (GstVideoInfo * info,
    GstCudaVisionDevice * device);

/* Allocates a frame of @info's format and size with the device layout. */
GstMemory *gst_cuda_vision_memory_alloc (GstCudaVisionDevice * device,
    const GstVideoInfo * info);

GstCudaVisionDevice *gst_cuda_vision_memory_get_device (GstMemory * mem);
const GstVideoInfo *gst_cuda_vision_memory_get_info (GstMemory * mem);

gboolean gst_cuda_vision_memory_begin_access (GstMemory * mem,
    cvcore_stream * stream);
gboolean gst_cuda_vision_memory_end_access (GstMemory * mem,
    cvcore_stream * stream);
/* Blocks until every queued use of the memory has finished. */
gboolean gst_cuda_vision_memory_sync (GstMemory * mem);

/* Device memory that the elements work on: ours, or memory:CUDAMemory of
 * GStreamer's CUDA library. Both map to a device pointer with
 * GST_MAP_CUDA_VISION (the same flag as the library's GST_MAP_CUDA). */
gboolean gst_cuda_vision_is_device_memory (GstMemory * mem);
/* The plane layout (offsets and strides) that device memory @mem was
 * allocated with, or NULL for other memory: for a buffer without a video
 * meta, where the caps alone would give another layout (GStreamer 1.24.0
 * to 1.24.3 lay out I420's V plane half a pitch away from later
 * releases). */
const GstVideoInfo *gst_cuda_vision_device_memory_layout (GstMemory * mem);
/* NULL when @mem is device memory that @device can work on; otherwise why
 * not, for an error message (static string). */
const gchar *gst_cuda_vision_device_memory_refusal (GstMemory * mem,
    GstCudaVisionDevice * device);
/* begin_access and end_access for either kind of device memory. */
gboolean gst_cuda_vision_device_memory_begin_access (GstMemory * mem,
    cvcore_stream * stream);
gboolean gst_cuda_vision_device_memory_end_access (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream);
/* end_access once the host has waited for all of @stream's work: where no
 * other stream has marked a use of our memory since @stream's, every use
 * is known complete and it is settled instead, so that the next user
 * queues no wait; otherwise marked as end_access marks it. */
gboolean gst_cuda_vision_device_memory_end_access_waited (GstMemory * mem,
    GstCudaVisionDevice * device, cvcore_stream * stream);

G_END_DECLS

#endif /* __GST_CUDA_VISION_MEMORY_H__ */
