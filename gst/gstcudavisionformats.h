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

/* The elements' caps vocabulary: the device memory's caps feature and the
 * raw video formats that cudaupload and cudadownload move. Below
 * everything else of the plugin. */
#ifndef __GST_CUDA_VISION_FORMATS_H__
#define __GST_CUDA_VISION_FORMATS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#define GST_CAPS_FEATURE_MEMORY_CUDA_VISION "memory:CUDAVisionMemory"

/* RGBA64_LE came with GStreamer 1.20: built against an older release, the
 * templates leave it out. An item of a format list, followed by others. */
#if GST_CHECK_VERSION (1, 20, 0)
#define GST_CUDA_VISION_RGBA64_ITEM "RGBA64_LE, "
#else
#define GST_CUDA_VISION_RGBA64_ITEM ""
#endif

#define GST_CUDA_VISION_TRANSFER_FORMATS \
    "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, GRAY8, GRAY16_LE, " \
    "I420, NV12, Y444, " GST_CUDA_VISION_RGBA64_ITEM "P010_10LE, I420_10LE }"

#define GST_CUDA_VISION_DEVICE_CAPS(formats) \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, \
        formats)

#endif /* __GST_CUDA_VISION_FORMATS_H__ */
