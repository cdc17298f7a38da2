/* Decoding an image file to luma through GStreamer, for the tools. */
#ifndef IMAGE_LOAD_H
#define IMAGE_LOAD_H

#include <gst/gst.h>

/* The image at @path as tightly packed 8-bit luma (g_free it), or NULL
 * with a message on stderr. gst_init() first. */
guint8 *image_load_luma (const gchar * path, gint * width, gint * height);

#endif /* IMAGE_LOAD_H */
