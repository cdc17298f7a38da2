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

/* Reading and writing image files through GStreamer, for the tools. */
#ifndef IMAGE_LOAD_H
#define IMAGE_LOAD_H

#include <gst/gst.h>

/* The image at @path as tightly packed 8-bit luma (g_free it), or NULL
 * with a message on stderr. gst_init() first. */
guint8 *image_load_luma (const gchar * path, gint * width, gint * height);

/* The same as three planes, red, green and blue, one after the other. */
guint8 *image_load_rgb_planes (const gchar * path, gint * width, gint * height);

/* Writes @width x @height pixels of @format (tightly packed rows, e.g.
 * "RGBA" or "GRAY8") to @path as JPEG; FALSE with a message on stderr. */
gboolean image_save_jpeg (const guint8 * pixels, gint width, gint height,
    const gchar * format, const gchar * path);

#endif /* IMAGE_LOAD_H */
