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

/* The plugin's side of GstCudaVisionCorrelationMeta: registration and
 * attaching. */
#ifndef __GST_CUDA_VISION_CORRELATION_META_IMPL_H__
#define __GST_CUDA_VISION_CORRELATION_META_IMPL_H__

#include "gstcudavisioncorrelationmeta.h"

G_BEGIN_DECLS

GType gst_cuda_vision_correlation_meta_api_get_type (void);
const GstMetaInfo *gst_cuda_vision_correlation_meta_get_info (void);
/* GstCustomMeta came with GStreamer 1.20: built against an older release,
 * cudaphasecorr has no custom-meta property. */
#define GST_CUDA_VISION_HAVE_CUSTOM_META GST_CHECK_VERSION (1, 20, 0)

#if GST_CUDA_VISION_HAVE_CUSTOM_META
/* Registers GST_CUDA_VISION_CORRELATION_CUSTOM_META. */
const GstMetaInfo *gst_cuda_vision_correlation_custom_meta_get_info (void);
#endif

/* Adds a meta of @tiles_x x @tiles_y tiles (16 pixels at a stride of 8
 * from (-8, -8)) of @views views and @pairs pairs with a copy of @matches
 * and the frame's motion. */
GstCudaVisionCorrelationMeta *gst_buffer_add_cuda_vision_correlation_meta
    (GstBuffer * buffer, GstCudaVisionCorrelationMode mode, guint views,
    guint pairs, guint tiles_x, guint tiles_y,
    const GstCudaVisionTileMatch * matches, gfloat motion_dx,
    gfloat motion_dy, guint motion_tiles);

G_END_DECLS

#endif /* __GST_CUDA_VISION_CORRELATION_META_IMPL_H__ */
