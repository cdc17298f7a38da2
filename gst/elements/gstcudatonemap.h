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

#ifndef __GST_CUDA_VISION_TONEMAP_H__
#define __GST_CUDA_VISION_TONEMAP_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_TONEMAP (gst_cuda_vision_tonemap_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionTonemap, gst_cuda_vision_tonemap, GST,
    CUDA_VISION_TONEMAP, GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_TONEMAP_H__ */
