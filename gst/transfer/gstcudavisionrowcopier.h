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

/* Transfers between ordinary (pageable) system memory and the device
 * through page-locked staging, which one thread fills at a fifth of the
 * copy engine's speed: the frame is cut into pieces of rows that several
 * threads copy, and each piece's DMA is queued as soon as its rows are
 * staged (uploads) or its rows are copied out as soon as its DMA is done
 * (downloads), so host copies and DMA overlap. */
#ifndef __GST_CUDA_VISION_ROW_COPIER_H__
#define __GST_CUDA_VISION_ROW_COPIER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "cvcore.h"

G_BEGIN_DECLS

typedef struct _GstCudaVisionRowCopier GstCudaVisionRowCopier;

/* The threads that copy rows when a copier is made with 0: half the
 * processors, 1 to 8 (eight reach the host's memory bandwidth on a 16-core
 * host, about 55 GB/s). */
guint gst_cuda_vision_row_copier_default_threads (void);

/* @n_threads: threads copying rows; with one, the caller copies, with
 * more, helpers do and the caller queues the DMA; 0 for the default. */
GstCudaVisionRowCopier *gst_cuda_vision_row_copier_new (cvcore_device *
    device, guint n_threads);
void gst_cuda_vision_row_copier_free (GstCudaVisionRowCopier * self);

/* Copies @src into @device_frame (laid out as @layout) through @staging,
 * page-locked memory of @layout's size that must stay untouched until the
 * copy queued on @stream is done. Returns once every piece is queued. */
cvcore_status gst_cuda_vision_row_copier_upload (GstCudaVisionRowCopier *
    self, cvcore_stream * stream, const GstVideoFrame * src,
    guint8 * staging, guint8 * device_frame, const GstVideoInfo * layout);

/* Copies @device_frame (laid out as @layout) into @dst through @staging
 * after the work already queued on @stream. Returns when @dst holds the
 * frame. */
cvcore_status gst_cuda_vision_row_copier_download (GstCudaVisionRowCopier *
    self, cvcore_stream * stream, const guint8 * device_frame,
    const GstVideoInfo * layout, guint8 * staging, GstVideoFrame * dst);

G_END_DECLS

#endif /* __GST_CUDA_VISION_ROW_COPIER_H__ */
