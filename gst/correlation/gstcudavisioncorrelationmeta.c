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

/* GstCudaVisionCorrelationMeta: registration, copies with buffers. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisioncorrelationmetaimpl.h"

#include <string.h>

GType
gst_cuda_vision_correlation_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType t =
        gst_meta_api_type_register (GST_CUDA_VISION_CORRELATION_META_API_NAME,
        tags);

    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
correlation_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCudaVisionCorrelationMeta *m = (GstCudaVisionCorrelationMeta *) meta;

  m->tiles_x = m->tiles_y = 0;
  m->matches = NULL;
  m->motion_dx = m->motion_dy = 0.0f;
  m->motion_tiles = 0;
  m->views = m->pairs = 0;
  return TRUE;
}

static void
correlation_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  g_free (((GstCudaVisionCorrelationMeta *) meta)->matches);
}

static GstCudaVisionCorrelationMeta *
add_meta (GstBuffer * buffer, const GstCudaVisionCorrelationMeta * from)
{
  GstCudaVisionCorrelationMeta *m = (GstCudaVisionCorrelationMeta *)
      gst_buffer_add_meta (buffer, gst_cuda_vision_correlation_meta_get_info
      (), NULL);
  gsize n;

  if (m == NULL)
    return NULL;
  m->mode = from->mode;
  m->tiles_x = from->tiles_x;
  m->tiles_y = from->tiles_y;
  m->origin_x = from->origin_x;
  m->origin_y = from->origin_y;
  m->tile_size = from->tile_size;
  m->tile_stride = from->tile_stride;
  m->motion_dx = from->motion_dx;
  m->motion_dy = from->motion_dy;
  m->motion_tiles = from->motion_tiles;
  m->views = from->views;
  m->pairs = from->pairs;
  n = (gsize) from->tiles_x * from->tiles_y;
  m->matches = g_new (GstCudaVisionTileMatch, n);
  memcpy (m->matches, from->matches, n * sizeof (GstCudaVisionTileMatch));
  return m;
}

/* The tiles belong to the frame's geometry: copies keep them, scaling and
 * other changes of the picture drop them. */
static gboolean
correlation_meta_transform (GstBuffer * dest, GstMeta * meta,
    GstBuffer * buffer, GQuark type, gpointer data)
{
  if (GST_META_TRANSFORM_IS_COPY (type))
    return add_meta (dest, (GstCudaVisionCorrelationMeta *) meta) != NULL;
  return FALSE;
}

const GstMetaInfo *
gst_cuda_vision_correlation_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i =
        gst_meta_register (gst_cuda_vision_correlation_meta_api_get_type (),
        "GstCudaVisionCorrelationMeta", sizeof (GstCudaVisionCorrelationMeta),
        correlation_meta_init, correlation_meta_free,
        correlation_meta_transform);

    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

GstCudaVisionCorrelationMeta *
gst_buffer_add_cuda_vision_correlation_meta (GstBuffer * buffer,
    GstCudaVisionCorrelationMode mode, guint views, guint pairs,
    guint tiles_x, guint tiles_y, const GstCudaVisionTileMatch * matches,
    gfloat motion_dx, gfloat motion_dy, guint motion_tiles)
{
  GstCudaVisionCorrelationMeta from;

  from.mode = mode;
  from.tiles_x = tiles_x;
  from.tiles_y = tiles_y;
  from.origin_x = from.origin_y = -8;
  from.tile_size = 16;
  from.tile_stride = 8;
  from.matches = (GstCudaVisionTileMatch *) matches;
  from.motion_dx = motion_dx;
  from.motion_dy = motion_dy;
  from.motion_tiles = motion_tiles;
  from.views = views;
  from.pairs = pairs;
  return add_meta (buffer, &from);
}

#if GST_CUDA_VISION_HAVE_CUSTOM_META
const GstMetaInfo *
gst_cuda_vision_correlation_custom_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    /* copied whole with the buffer, like the C meta */
    const GstMetaInfo *i =
        gst_meta_register_custom (GST_CUDA_VISION_CORRELATION_CUSTOM_META,
        tags, NULL, NULL, NULL);

    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}
#endif
