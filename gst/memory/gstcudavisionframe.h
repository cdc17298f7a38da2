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

/* Video frames that come from outside (upstream elements, applications)
 * mapped safely: their video meta is checked against the caps and the
 * buffer's size, and device memory without a meta is mapped by its own
 * layout, never the caps'. Above the device memory. */
#ifndef __GST_CUDA_VISION_FRAME_H__
#define __GST_CUDA_VISION_FRAME_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* gst_video_frame_map() of a buffer that comes from outside: a video meta
 * on @buffer is first checked against @info and the buffer's size (its
 * format, size, and each plane's stride and extent), so that no plane
 * reaches past the buffer's memory. On failure, *@refusal (when given)
 * is a sentence for the error that names the plane and the numbers. */
gboolean gst_cuda_vision_video_frame_map (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    gchar ** refusal);

G_END_DECLS

#endif /* __GST_CUDA_VISION_FRAME_H__ */
