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

/* Blur maps for cudafoveate: picture files read as levels 0..255. */
#ifndef __GST_CUDA_FOVEATE_MAP_H__
#define __GST_CUDA_FOVEATE_MAP_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The largest map side taken. */
#define GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE 16384
/* The largest map file read: a 4096x4096 PFM, or a picture far larger. */
#define GST_CUDA_VISION_FOVEATE_MAP_MAX_BYTES (64 << 20)
/* Reads @location, a regular file of at most
 * GST_CUDA_VISION_FOVEATE_MAP_MAX_BYTES, as a grayscale blur map: binary PGM (P5,
 * 8 or 16 bits),
 * grayscale PFM (Pf, values 0..1, clamped) or any picture GStreamer can
 * decode (PNG, JPEG, ..., through its luminance). Returns the levels
 * (@width bytes per row, g_free() them) or NULL with @error set. */
guint8 * gst_cuda_vision_foveate_map_load (const gchar * location,
    gint * width, gint * height, GError ** error);

G_END_DECLS

#endif /* __GST_CUDA_FOVEATE_MAP_H__ */
