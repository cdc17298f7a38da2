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
#include <string.h>

#include <gst/app/app.h>
#include <gst/video/video.h>

#include "image-load.h"

/* The first frame @pipeline brings to @sink, or NULL (said why) when it
 * fails or takes more than 30 seconds: a file that is missing or does
 * not decode posts an error, and no frame comes. */
static GstSample *
preroll (GstElement * pipeline, GstAppSink * sink, const gchar * path)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = NULL;
  GstSample *sample = NULL;

  if (gst_element_set_state (pipeline, GST_STATE_PAUSED)
      == GST_STATE_CHANGE_FAILURE)
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  else
    msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
        GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ASYNC_DONE) {
    sample = gst_app_sink_pull_preroll (sink);
  } else if (msg) {
    GError *error = NULL;

    gst_message_parse_error (msg, &error, NULL);
    g_printerr ("%s: %s\n", path, error->message);
    g_error_free (error);
  } else {
    g_printerr ("%s: no frame\n", path);
  }
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  return sample;
}

/* The image at @path in packed 8-bit @format of @bytes a pixel, rows
 * tightly packed, or NULL. */
static guint8 *
load_packed (const gchar * path, const gchar * format, gint bytes,
    gint * width, gint * height)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! video/x-raw,format=%s ! appsink name=sink", path,
      format);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *sink;
  GstSample *sample;
  guint8 *pixels = NULL;

  g_free (desc);
  if (!pipeline) {
    g_printerr ("%s: %s\n", path, error->message);
    g_clear_error (&error);
    return NULL;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  sample = preroll (pipeline, GST_APP_SINK (sink), path);
  if (sample) {
    GstVideoInfo info;
    GstVideoFrame frame;

    if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
        && gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
            GST_MAP_READ)) {
      const gsize row = (gsize) GST_VIDEO_INFO_WIDTH (&info) * bytes;

      *width = GST_VIDEO_INFO_WIDTH (&info);
      *height = GST_VIDEO_INFO_HEIGHT (&info);
      pixels = g_malloc (row * *height);
      for (gint y = 0; y < *height; y++)
        memcpy (pixels + y * row,
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), row);
      gst_video_frame_unmap (&frame);
    }
    gst_sample_unref (sample);
  }
  if (!pixels)
    g_printerr ("%s: cannot decode\n", path);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return pixels;
}

guint8 *
image_load_luma (const gchar * path, gint * width, gint * height)
{
  return load_packed (path, "GRAY8", 1, width, height);
}

guint8 *
image_load_rgb_planes (const gchar * path, gint * width, gint * height)
{
  guint8 *rgb = load_packed (path, "RGB", 3, width, height);
  guint8 *planes;
  gsize n;

  if (!rgb)
    return NULL;
  n = (gsize) * width * *height;
  planes = g_malloc (3 * n);
  for (gsize i = 0; i < n; i++)
    for (gint c = 0; c < 3; c++)
      planes[c * n + i] = rgb[3 * i + c];
  g_free (rgb);
  return planes;
}

gboolean
image_save_jpeg (const guint8 * pixels, gint width, gint height,
    const gchar * format, const gchar * path)
{
  gchar *desc = g_strdup_printf ("appsrc name=src ! videoconvert ! "
      "jpegenc quality=85 ! filesink location=\"%s\"", path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstVideoInfo info;
  GstCaps *caps;
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gboolean ok;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  caps = gst_video_info_to_caps (&info);
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  {
    /* tightly packed rows into the format's own layout */
    GstBuffer *buffer = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstVideoFrame frame;
    const gsize row = (gsize) width * GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);

    gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE);
    for (gint y = 0; y < height; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), pixels + y * row, row);
    gst_video_frame_unmap (&frame);
    gst_app_src_push_buffer (GST_APP_SRC (src), buffer);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok)
    g_printerr ("cannot write %s\n", path);
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  g_free (desc);
  return ok;
}
