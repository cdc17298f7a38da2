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

/* Helpers shared by the elements: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionutils.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionplugin.h"

#include <string.h>

static gint
plane_first_component (const GstVideoInfo * info, guint plane)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comps);
  return comps[0];
}

gsize
gst_cuda_vision_plane_row_bytes (const GstVideoInfo * info, guint plane)
{
  gint comp = plane_first_component (info, plane);

  return (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
}

guint
gst_cuda_vision_plane_rows (const GstVideoInfo * info, guint plane)
{
  return GST_VIDEO_INFO_COMP_HEIGHT (info, plane_first_component (info, plane));
}

/* Plane @next of @dst and of @src starts where the run of planes from
 * @first (@rows rows of @row_bytes) ends, with the same stride and row
 * width, in the same memory. */
static gboolean
plane_continues (const GstVideoFrame * dst, const GstVideoFrame * src,
    guint first, guint next, guint rows, gsize row_bytes)
{
  const GstVideoFrame *frames[2] = { dst, src };

  if (gst_cuda_vision_plane_row_bytes (&dst->info, next) != row_bytes)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++) {
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frames[i], first);
    const guint8 *run = GST_VIDEO_FRAME_PLANE_DATA (frames[i], first);

    if (gst_buffer_n_memory (frames[i]->buffer) != 1 || stride <= 0
        || GST_VIDEO_FRAME_PLANE_STRIDE (frames[i], next) != stride
        || (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frames[i], next) !=
        run + (gsize) stride * rows)
      return FALSE;
  }
  return TRUE;
}

cvcore_status
gst_cuda_vision_copy_frame_async (cvcore_stream * stream, GstVideoFrame * dst,
    const GstVideoFrame * src, cvcore_copy_kind kind)
{
  const guint n_planes = GST_VIDEO_FRAME_N_PLANES (dst);

  /* planes that follow one another alike in both frames (NV12's two) go
   * in one copy: a driver call costs a thread that slept tens of
   * microseconds */
  for (guint p = 0; p < n_planes;) {
    const gsize row_bytes = gst_cuda_vision_plane_row_bytes (&dst->info, p);
    guint rows = gst_cuda_vision_plane_rows (&dst->info, p), next = p + 1;
    cvcore_status status;

    while (next < n_planes
        && plane_continues (dst, src, p, next, rows, row_bytes))
      rows += gst_cuda_vision_plane_rows (&dst->info, next++);
    status = cvcore_copy_2d_async (stream, GST_VIDEO_FRAME_PLANE_DATA (dst, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (dst, p),
        GST_VIDEO_FRAME_PLANE_DATA (src, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (src, p), row_bytes, rows, kind);
    if (status != CVCORE_OK)
      return status;
    p = next;
  }
  return CVCORE_OK;
}

static GstCaps *
caps_with_feature (const GstCaps * caps, const gchar * feature)
{
  GstCaps *out = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));

    /* merging drops duplicates of structures that differed in features */
    out = gst_caps_merge_structure_full (out, s,
        gst_caps_features_new (feature, NULL));
  }
  return out;
}

GstCaps *
gst_cuda_vision_caps_for_features (const GstCaps * caps, const gchar * first,
    const gchar * second, GstCaps * filter)
{
  GstCaps *ret = caps_with_feature (caps, first);

  if (second)
    ret = gst_caps_merge (ret, caps_with_feature (caps, second));
  return gst_cuda_vision_caps_filter (ret, filter);
}

GstCaps *
gst_cuda_vision_caps_system_to_device (GstCaps * caps)
{
  caps = gst_caps_make_writable (caps);
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (caps, i);

    if (features == NULL || gst_caps_features_is_equal (features,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      gst_caps_set_features (caps, i,
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, NULL));
  }
  return caps;
}

GstCaps *
gst_cuda_vision_caps_filter (GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret;

  if (filter == NULL)
    return caps;
  ret = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return ret;
}

void
gst_cuda_vision_channel_masks (const GstVideoInfo * info,
    gboolean with_alpha, guint masks[GST_VIDEO_MAX_PLANES])
{
  const GstVideoFormatInfo *finfo = info->finfo;
  const gint sample_size = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;

  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    masks[p] = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    if (c == GST_VIDEO_COMP_A && !with_alpha)
      continue;
    masks[GST_VIDEO_FORMAT_INFO_PLANE (finfo, c)] |=
        1u << (GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) / sample_size);
  }
}

void
gst_cuda_vision_frame_plane (const GstVideoFrame * frame, guint plane,
    cvcore_sample sample, cvcore_image * image)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (frame->info.finfo, plane, comps);
  image->width = GST_VIDEO_FRAME_COMP_WIDTH (frame, comps[0]);
  image->height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comps[0]);
  image->sample = sample;
  image->channels = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comps[0]) /
      (sample == CVCORE_SAMPLE_U16 ? 2 : 1);
  image->data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  image->pitch = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
}

void
gst_cuda_vision_install_double (GObjectClass * gobject_class, guint prop_id,
    const gchar * name, const gchar * nick, const gchar * blurb, gdouble min,
    gdouble max, gdouble def, GParamFlags flags)
{
  g_object_class_install_property (gobject_class, prop_id,
      g_param_spec_double (name, nick, blurb, min, max, def, flags));
}

guint
gst_cuda_vision_caps_bayer_pattern (const GstCaps * caps)
{
  const GstStructure *s;
  const gchar *format;
  guint pattern = 0;

  if (caps == NULL || gst_caps_get_size (caps) < 1)
    return 0;
  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_has_name (s, "video/x-bayer")
      || !(format = gst_structure_get_string (s, "format"))
      || strlen (format) < 4)
    return 0;
  for (gint i = 0; i < 4; i++) {
    const gchar *colour = strchr ("rgb", format[i]);

    if (colour == NULL)
      return 0;
    pattern |= (guint) (colour - "rgb") << (2 * i);
  }
  return pattern;
}

void
gst_cuda_vision_post_caps_refusal (GstElement * element, const GstCaps * caps)
{
  GstVideoInfo info;

  if (gst_video_info_from_caps (&info, caps)
      && GST_VIDEO_INFO_IS_INTERLACED (&info))
    GST_ELEMENT_ERROR (element, STREAM, FORMAT,
        ("Interlaced video is not supported"),
        ("interlace-mode=%s: deinterlace it first (deinterlace, or "
            "nvcodec's decoders' own deinterlacing)",
            gst_video_interlace_mode_to_string
            (GST_VIDEO_INFO_INTERLACE_MODE (&info))));
  else
    GST_ELEMENT_ERROR (element, STREAM, FORMAT, ("Cannot use these caps"),
        ("%" GST_PTR_FORMAT, caps));
}

gboolean
gst_cuda_vision_video_info_from_caps (GstVideoInfo * info, const GstCaps * caps)
{
  const GstStructure *s;
  const gchar *format;
  gint width, height, fps_n = 0, fps_d = 1;

  if (gst_caps_get_size (caps) < 1)
    return FALSE;
  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_has_name (s, "video/x-bayer"))
    return gst_video_info_from_caps (info, caps)
        && !GST_VIDEO_INFO_IS_INTERLACED (info);
  /* every pattern has green, so none packs to 0 */
  if (gst_cuda_vision_caps_bayer_pattern (caps) == 0)
    return FALSE;
  format = gst_structure_get_string (s, "format");
  if (!gst_structure_get_int (s, "width", &width)
      || !gst_structure_get_int (s, "height", &height)
      || (strlen (format) != 4 && strcmp (format + 4, "16le") != 0))
    return FALSE;
  gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d);
  gst_video_info_set_format (info, strlen (format) == 4 ?
      GST_VIDEO_FORMAT_GRAY8 : GST_VIDEO_FORMAT_GRAY16_LE, width, height);
  GST_VIDEO_INFO_FPS_N (info) = fps_n;
  GST_VIDEO_INFO_FPS_D (info) = fps_d;
  return TRUE;
}

GType
gst_cuda_vision_enum_type (GType * type, const gchar * name,
    const GEnumValue * values)
{
  if (g_once_init_enter (type)) {
    GType t = g_enum_register_static (name, values);

    g_once_init_leave (type, t);
  }
  return *type;
}

gboolean
gst_cuda_vision_pad_peer_is_ours (GstPad * pad)
{
  GstPad *peer = gst_pad_get_peer (pad);
  GstElement *element = peer ? gst_pad_get_parent_element (peer) : NULL;
  GstElementFactory *factory = element ? gst_element_get_factory (element) :
      NULL;
  gboolean ours = factory && g_strcmp0 (gst_plugin_feature_get_plugin_name
      (GST_PLUGIN_FEATURE (factory)), GST_CUDA_VISION_PLUGIN_NAME) == 0;

  gst_clear_object (&element);
  gst_clear_object (&peer);
  return ours;
}

gboolean
gst_cuda_vision_peer_cache_is_ours (GstCudaVisionPeerCache * cache,
    GstPad * pad)
{
  GstPad *peer = gst_pad_get_peer (pad);

  if (peer != cache->peer) {
    gst_object_replace ((GstObject **) & cache->peer, GST_OBJECT (peer));
    cache->ours = gst_cuda_vision_pad_peer_is_ours (pad);
  }
  gst_clear_object (&peer);
  return cache->ours;
}

void
gst_cuda_vision_peer_cache_clear (GstCudaVisionPeerCache * cache)
{
  gst_clear_object (&cache->peer);
  cache->ours = FALSE;
}
