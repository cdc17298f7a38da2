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

/* Frames that reach an element from another device: copied to the
 * element's device by a peer copy (direct over NVLink or PCIe where the
 * GPUs allow it), into a buffer of the element's own pool, so that
 * neighbouring elements may sit on different GPUs. The copy runs on a
 * stream of its own after the frame's last queued use on its device; the
 * frame's next use there waits for the copy on the device, and the host
 * waits for nothing. */
#ifndef __GST_CUDA_VISION_PEER_COPY_H__
#define __GST_CUDA_VISION_PEER_COPY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"

G_BEGIN_DECLS

typedef struct _GstCudaVisionPeerCopy GstCudaVisionPeerCopy;

GstCudaVisionPeerCopy *gst_cuda_vision_peer_copy_new (void);
void gst_cuda_vision_peer_copy_free (GstCudaVisionPeerCopy * self);

/* When @buffer is one device memory, ours or CUDAMemory, on another
 * device of @device's backend, that device (transfer full): a frame to
 * copy. NULL otherwise. */
GstCudaVisionDevice *gst_cuda_vision_peer_copy_source (GstBuffer * buffer,
    GstCudaVisionDevice * device);

/* @buffer's frame, on @source and laid out by @info (and its video meta),
 * copied to @device with its timestamps, flags and metas; NULL with
 * @error set when it cannot be. Takes @buffer. */
GstBuffer *gst_cuda_vision_peer_copy_buffer (GstCudaVisionPeerCopy * self,
    GstCudaVisionDevice * device, GstCudaVisionDevice * source,
    const GstVideoInfo * info, GstBuffer * buffer, GError ** error);

G_END_DECLS

#endif /* __GST_CUDA_VISION_PEER_COPY_H__ */
