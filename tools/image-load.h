/* Reading and writing image files through GStreamer, for the tools. */
#ifndef IMAGE_LOAD_H
#define IMAGE_LOAD_H

#include <gst/gst.h>

/* The image at @path as tightly packed 8-bit luma (g_free it), or NULL
 * with a message on stderr. gst_init() first. */
guint8 *image_load_luma (const gchar * path, gint * width, gint * height);

/* Writes @width x @height pixels of @format (tightly packed rows, e.g.
 * "RGBA" or "GRAY8") to @path as JPEG; FALSE with a message on stderr. */
gboolean image_save_jpeg (const guint8 * pixels, gint width, gint height,
    const gchar * format, const gchar * path);

#endif /* IMAGE_LOAD_H */
