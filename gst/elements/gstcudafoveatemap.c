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

/* Blur maps for cudafoveate. PGM and PFM are read here (both are a short
 * text header and raw samples); other pictures go through a decoding
 * pipeline to GRAY8. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "gstcudafoveatemap.h"
#include "cvcore.h"

#define DECODE_TIMEOUT (10 * GST_SECOND)

static gboolean
map_fail (GError ** error, const gchar * format, ...)
G_GNUC_PRINTF (2, 3);

     static gboolean map_fail (GError ** error, const gchar * format, ...)
{
  va_list args;
  gchar *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
      message);
  g_free (message);
  return FALSE;
}

/* The next whitespace-separated header token of a PNM-style file at
 * *@pos, '#' comments skipped; consumes one whitespace byte after it. */
static gboolean
header_token (const gchar * data, gsize size, gsize * pos, gchar * token,
    gsize token_size)
{
  gsize n = 0;

  while (*pos < size) {
    if (data[*pos] == '#') {
      while (*pos < size && data[*pos] != '\n')
        (*pos)++;
    } else if (g_ascii_isspace (data[*pos])) {
      (*pos)++;
    } else {
      break;
    }
  }
  while (*pos < size && !g_ascii_isspace (data[*pos]) && n + 1 < token_size)
    token[n++] = data[(*pos)++];
  token[n] = '\0';
  if (n == 0 || *pos >= size || !g_ascii_isspace (data[*pos]))
    return FALSE;
  (*pos)++;
  return TRUE;
}

/* Width, height and the third header field (maxval or scale) of a P5 or
 * Pf file; *@pos ends at the first sample. */
static gboolean
parse_header (const gchar * data, gsize size, gsize * pos, gint * width,
    gint * height, gdouble * third, GError ** error)
{
  gchar w[32], h[32], t[64];
  gchar *end_w, *end_h, *end_t;
  gint64 wv, hv;

  *pos = 2;
  if (!header_token (data, size, pos, w, sizeof (w))
      || !header_token (data, size, pos, h, sizeof (h))
      || !header_token (data, size, pos, t, sizeof (t)))
    return map_fail (error, "truncated header");
  wv = g_ascii_strtoll (w, &end_w, 10);
  hv = g_ascii_strtoll (h, &end_h, 10);
  *third = g_ascii_strtod (t, &end_t);
  if (*end_w || *end_h || *end_t || !isfinite (*third))
    return map_fail (error, "malformed header");
  if (wv < 1 || hv < 1 || wv > GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE
      || hv > GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE)
    return map_fail (error, "size %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
        " (1 to %d a side)", wv, hv, GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE);
  *width = (gint) wv;
  *height = (gint) hv;
  return TRUE;
}

static guint8 *
load_pgm (const gchar * data, gsize size, gint * width, gint * height,
    GError ** error)
{
  gsize pos, bytes;
  gdouble maxval;
  guint8 *levels;

  if (!parse_header (data, size, &pos, width, height, &maxval, error))
    return NULL;
  if (maxval < 1 || maxval > 65535 || maxval != floor (maxval)) {
    map_fail (error, "maximum value %g (1 to 65535)", maxval);
    return NULL;
  }
  bytes = maxval < 256 ? 1 : 2;
  if (size - pos < bytes * *width * *height) {
    map_fail (error, "%" G_GSIZE_FORMAT " bytes of samples, %" G_GSIZE_FORMAT
        " wanted", size - pos, bytes * *width * *height);
    return NULL;
  }
  levels = g_malloc ((gsize) * width * *height);
  for (gsize i = 0; i < (gsize) * width * *height; i++) {
    const guint8 *s = (const guint8 *) data + pos + bytes * i;
    const guint v = bytes == 1 ? s[0] : (guint) s[0] << 8 | s[1];

    levels[i] = (guint8) floor (MIN (v, maxval) * 255.0 / maxval + 0.5);
  }
  return levels;
}

static guint8 *
load_pfm (const gchar * data, gsize size, gint * width, gint * height,
    GError ** error)
{
  gsize pos;
  gdouble scale;
  guint8 *levels;

  if (!parse_header (data, size, &pos, width, height, &scale, error))
    return NULL;
  if (scale == 0.0) {
    map_fail (error, "scale 0");
    return NULL;
  }
  if (size - pos < sizeof (gfloat) * *width * *height) {
    map_fail (error, "%" G_GSIZE_FORMAT " bytes of samples, %" G_GSIZE_FORMAT
        " wanted", size - pos, sizeof (gfloat) * *width * *height);
    return NULL;
  }
  levels = g_malloc ((gsize) * width * *height);
  /* rows from the bottom up; a negative scale means little-endian */
  for (gint y = 0; y < *height; y++)
    for (gint x = 0; x < *width; x++) {
      guint32 bits;
      gfloat v;

      memcpy (&bits, data + pos + sizeof (gfloat) * ((gsize) (*height - 1 -
                  y) * *width + x), sizeof (bits));
      bits = scale < 0 ? GUINT32_FROM_LE (bits) : GUINT32_FROM_BE (bits);
      memcpy (&v, &bits, sizeof (v));
      if (!isfinite (v)) {
        g_free (levels);
        map_fail (error, "sample (%d, %d) is not a number", x, y);
        return NULL;
      }
      levels[(gsize) y * *width + x] =
          (guint8) floor (CLAMP (v, 0.0f, 1.0f) * 255.0 + 0.5);
    }
  return levels;
}

/* Any other picture: decoded to GRAY8 by a small pipeline. */
static guint8 *
load_decoded (const gchar * location, gint * width, gint * height,
    GError ** error)
{
  GstElement *pipeline, *src, *sink;
  GstBus *bus;
  GstMessage *msg = NULL;
  GstSample *sample = NULL;
  guint8 *levels = NULL;
  GstVideoInfo info;
  GstVideoFrame frame;

  pipeline = gst_parse_launch ("filesrc name=src ! decodebin ! videoconvert "
      "! video/x-raw,format=GRAY8 ! appsink name=sink sync=false", error);
  if (pipeline == NULL)
    return NULL;
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "location", location, NULL);
  bus = gst_element_get_bus (pipeline);
  /* prerolled (the picture is in the sink) or failed, whichever first */
  if (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE)
    msg = gst_bus_timed_pop_filtered (bus, DECODE_TIMEOUT,
        GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ASYNC_DONE)
    sample = gst_app_sink_try_pull_preroll (GST_APP_SINK (sink), 0);
  if (sample == NULL) {
    if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      map_fail (error, "not a picture that can be decoded: %s", err->message);
      g_error_free (err);
    } else {
      map_fail (error, "not a picture that can be decoded");
    }
  } else if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
      || !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ)) {
    map_fail (error, "the decoded picture cannot be read");
  } else if (GST_VIDEO_INFO_WIDTH (&info) > GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE
      || GST_VIDEO_INFO_HEIGHT (&info) > GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE) {
    map_fail (error, "size %dx%d (up to %d a side)",
        GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
        GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE);
    gst_video_frame_unmap (&frame);
  } else {
    *width = GST_VIDEO_INFO_WIDTH (&info);
    *height = GST_VIDEO_INFO_HEIGHT (&info);
    levels = g_malloc ((gsize) * width * *height);
    for (gint y = 0; y < *height; y++)
      memcpy (levels + (gsize) y * *width,
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), *width);
    gst_video_frame_unmap (&frame);
  }
  if (sample)
    gst_sample_unref (sample);
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return levels;
}

guint8 *
gst_cuda_vision_foveate_map_load (const gchar * location, gint * width,
    gint * height, GError ** error)
{
  gchar *data = NULL;
  size_t size = 0;
  guint8 *levels;
  FILE *file;

  /* a FIFO or a device would block the streaming thread or never end */
  if (cvcore_file_open (location, GST_CUDA_VISION_FOVEATE_MAP_MAX_BYTES, &file,
          &size) != CVCORE_OK) {
    map_fail (error, "%s", cvcore_last_error ());
    return NULL;
  }
  data = g_malloc (size + 1);
  if (fread (data, 1, size, file) != size) {
    map_fail (error, "%s: read %zu bytes short", location, size);
    fclose (file);
    g_free (data);
    return NULL;
  }
  fclose (file);
  data[size] = '\0';            /* the text headers are parsed as strings */
  if (size >= 2 && data[0] == 'P' && data[1] == '5')
    levels = load_pgm (data, size, width, height, error);
  else if (size >= 2 && data[0] == 'P' && data[1] == 'f')
    levels = load_pfm (data, size, width, height, error);
  else
    levels = load_decoded (location, width, height, error);
  g_free (data);
  return levels;
}
