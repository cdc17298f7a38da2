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

/* Frames that come from outside, mapped after their video meta and their
 * device memory's own layout are checked: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionframe.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"

static gchar *
video_meta_refusal (const GstVideoMeta * meta, const GstVideoInfo * info,
    gsize size)
{
  if (meta->format != GST_VIDEO_INFO_FORMAT (info)
      || meta->n_planes != GST_VIDEO_INFO_N_PLANES (info))
    return g_strdup_printf ("its video meta is of %s in %u planes, its caps "
        "of %s in %u", gst_video_format_to_string (meta->format),
        meta->n_planes, GST_VIDEO_INFO_NAME (info),
        GST_VIDEO_INFO_N_PLANES (info));
  if (meta->width < (guint) GST_VIDEO_INFO_WIDTH (info)
      || meta->height < (guint) GST_VIDEO_INFO_HEIGHT (info))
    return g_strdup_printf ("its video meta is %ux%u, smaller than its caps' "
        "%dx%d", meta->width, meta->height, GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info));
  for (guint p = 0; p < meta->n_planes; p++) {
    const gsize row = gst_cuda_vision_plane_row_bytes (info, p);
    const guint rows = gst_cuda_vision_plane_rows (info, p);
    const gint stride = meta->stride[p];
    guint64 end;

    if (stride < 0 || (gsize) stride < row)
      return g_strdup_printf ("plane %u of its video meta has a stride of %d "
          "bytes, less than a row's %" G_GSIZE_FORMAT, p, stride, row);
    /* stride and rows are below 2^31, and the offset at most the size */
    end = meta->offset[p] > size ? G_MAXUINT64 : (guint64) meta->offset[p] +
        (guint64) stride *(rows - 1) + row;
    if (rows > 0 && end > size)
      return g_strdup_printf ("plane %u of its video meta (offset %"
          G_GSIZE_FORMAT ", stride %d, %u rows of %" G_GSIZE_FORMAT
          " bytes) ends past the buffer's %" G_GSIZE_FORMAT " bytes", p,
          meta->offset[p], stride, rows, row, size);
  }
  return NULL;
}

/* @info with the plane layout of device memory @mem, where it has one of
 * the same format and at least @info's size. */
static gboolean
device_memory_layout (GstMemory * mem, const GstVideoInfo * info,
    GstVideoInfo * own)
{
  const GstVideoInfo *layout = gst_cuda_vision_device_memory_layout (mem);

  if (layout == NULL
      || GST_VIDEO_INFO_FORMAT (layout) != GST_VIDEO_INFO_FORMAT (info)
      || GST_VIDEO_INFO_WIDTH (layout) < GST_VIDEO_INFO_WIDTH (info)
      || GST_VIDEO_INFO_HEIGHT (layout) < GST_VIDEO_INFO_HEIGHT (info))
    return FALSE;
  *own = *info;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    own->offset[p] = layout->offset[p];
    own->stride[p] = layout->stride[p];
  }
  own->size = layout->size;
  return TRUE;
}

gboolean
gst_cuda_vision_video_frame_map (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    gchar ** refusal)
{
  const GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  const gsize size = gst_buffer_get_size (buffer);
  gchar *why = meta ? video_meta_refusal (meta, info, size) : NULL;
  GstVideoInfo own;

  /* device memory without a meta: its own layout, never the caps' */
  if (meta == NULL && gst_buffer_n_memory (buffer) == 1
      && device_memory_layout (gst_buffer_peek_memory (buffer, 0), info, &own))
    info = &own;
  if (why == NULL && gst_video_frame_map (frame, (GstVideoInfo *) info,
          buffer, flags))
    return TRUE;
  if (why == NULL)
    why = g_strdup_printf ("a buffer of %" G_GSIZE_FORMAT " bytes cannot be "
        "mapped as %s %dx%d, which needs %" G_GSIZE_FORMAT "%s", size,
        GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_SIZE (info),
        meta ? "" : " (it has no video meta)");
  if (refusal)
    *refusal = why;
  else
    g_free (why);
  return FALSE;
}
