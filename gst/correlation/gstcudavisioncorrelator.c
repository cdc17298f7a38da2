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

/* Device buffers and messages of the tile-matching elements. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisioncorrelator.h"
#include "gstcudavisioncorrelationmetaimpl.h"
#include "gstcudavisionutils.h"

#include <math.h>
#include <string.h>

void
gst_cuda_vision_correlator_free (GstCudaVisionCorrelator * c,
    cvcore_stream * stream)
{
  g_clear_pointer (&c->weighted, g_free);
  c->weighted_room = 0;
  if (c->core == NULL)
    return;
  /* Queued frames may still use them. */
  if (stream)
    cvcore_stream_synchronize (stream);
  g_clear_pointer (&c->pyramid, cvcore_clt_pyramid_free);
  g_clear_pointer (&c->rig_pyramid, cvcore_clt_rig_pyramid_free);
  if (c->matches)
    cvcore_device_free (c->core, c->matches);
  if (c->host_matches)
    cvcore_host_free (c->core, c->host_matches);
  if (c->surfaces)
    cvcore_device_free (c->core, c->surfaces);
  c->matches = c->host_matches = NULL;
  c->surfaces = NULL;
  c->core = NULL;
}

void
gst_cuda_vision_correlator_set_info (GstCudaVisionCorrelator * c,
    const GstVideoInfo * info, cvcore_stream * stream)
{
  const guint full = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 65535 : 255;

  gst_cuda_vision_correlator_free (c, stream);
  c->width = GST_VIDEO_INFO_WIDTH (info);
  c->height = GST_VIDEO_INFO_HEIGHT (info);
  c->tiles_x = cvcore_clt_tiles (c->width);
  c->tiles_y = cvcore_clt_tiles (c->height);
  c->full_scale = full;
  memset (c->colour, 0, sizeof (c->colour));
  if (GST_VIDEO_INFO_IS_RGB (info)) {
    /* the green channel; green vectors, opaque */
    c->channel = GST_VIDEO_INFO_COMP_POFFSET (info, 1);
    c->colour[c->channel] = full;
    c->colour[3] = full;
  } else {
    c->channel = 0;
    c->colour[0] = full;
  }
}

cvcore_status
gst_cuda_vision_correlator_ensure (GstCudaVisionCorrelator * c,
    cvcore_device * core, gint levels, gint rig_views, cvcore_stream * stream,
    gboolean * fresh)
{
  const gsize tiles = (gsize) c->tiles_x * c->tiles_y;
  cvcore_status status = CVCORE_OK;

  *fresh = FALSE;
  if (c->core && c->levels == levels && c->rig_views == rig_views)
    return CVCORE_OK;
  *fresh = TRUE;
  if (c->core) {
    /* the levels changed: the frames queued may still use the old ones */
    cvcore_stream_synchronize (stream);
    g_clear_pointer (&c->pyramid, cvcore_clt_pyramid_free);
    g_clear_pointer (&c->rig_pyramid, cvcore_clt_rig_pyramid_free);
  }
  c->core = core;
  c->levels = levels;
  c->rig_views = rig_views;
  if (rig_views > 0)
    status = cvcore_clt_rig_pyramid_new (core, c->width, c->height, levels,
        rig_views, &c->rig_pyramid);
  else
    status = cvcore_clt_pyramid_new (core, c->width, c->height, levels,
        &c->pyramid);
  if (status == CVCORE_OK && c->matches == NULL)
    status = cvcore_device_alloc (core, tiles * sizeof (cvcore_clt_match),
        (void **) &c->matches);
  if (status == CVCORE_OK && c->host_matches == NULL)
    status = cvcore_host_alloc (core, tiles * sizeof (cvcore_clt_match),
        (void **) &c->host_matches);
  if (status != CVCORE_OK)
    gst_cuda_vision_correlator_free (c, NULL);
  return status;
}

void
gst_cuda_vision_correlator_image (GstCudaVisionCorrelator * c,
    const GstVideoFrame * frame, cvcore_image * image)
{
  gst_cuda_vision_frame_plane (frame, 0, c->full_scale > 255.0 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8, image);
  if (GST_VIDEO_INFO_IS_YUV (&frame->info))
    image->channels = 1;
}

cvcore_status
gst_cuda_vision_correlator_read (GstCudaVisionCorrelator * c,
    cvcore_stream * stream)
{
  cvcore_status status = cvcore_copy_async (stream, c->host_matches,
      c->matches, (gsize) c->tiles_x * c->tiles_y * sizeof (cvcore_clt_match),
      CVCORE_COPY_DEVICE_TO_HOST);

  return status == CVCORE_OK ? cvcore_stream_synchronize (stream) : status;
}

/* An unsigned key per float that sorts as the floats do (-0 taken as
 * +0, so that they stay equal). */
static guint32
sort_key (gfloat value)
{
  guint32 bits;

  if (value == 0.0f)
    value = 0.0f;
  memcpy (&bits, &value, sizeof (bits));
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

static gfloat
key_value (guint32 key)
{
  guint32 bits = key & 0x80000000u ? key & 0x7fffffffu : ~key;
  gfloat value;

  memcpy (&value, &bits, sizeof (value));
  return value;
}

#define MEDIAN_DIGIT_BITS 11
#define MEDIAN_BINS (1 << MEDIAN_DIGIT_BITS)

/* A radix selection on the keys, most significant digit first: each pass
 * sums the weights of the candidates per digit and keeps the digit where
 * the running weight reaches @half. Comparisons of random values
 * mispredict every other branch, so a quickselect took 0.8 ms for a 1080p
 * frame's tiles; these passes have none that depend on the values.
 * @lowest and @highest, the smallest and largest key, differ. */
static guint32
select_weighted_key (GstCudaVisionWeighted * pairs, gsize n, gboolean alike,
    gdouble half, guint32 lowest, guint32 highest)
{
  /* The bits above the highest where the keys differ are every key's:
   * the digits start below them, so that clustered values (a scene's
   * disparities, a rig's dy of 0) take one or two passes. */
  const gint top = g_bit_nth_msf (lowest ^ highest, -1);
  const guint32 common = top == 31 ? 0 : ~((2u << top) - 1u);
  guint32 prefix = lowest & common, mask = common;
  gdouble below = 0.0;
  gsize candidates = n;

  for (gint shift = MAX (top + 1 - MEDIAN_DIGIT_BITS, 0);;
      shift = MAX (shift - MEDIAN_DIGIT_BITS, 0)) {
    const guint32 digit_mask = (MEDIAN_BINS - 1u) << shift;
    gdouble sums[MEDIAN_BINS] = { 0.0 };
    gsize kept = 0;
    guint digit, last = 0;

    for (gsize i = 0; i < candidates; i++) {
      guint32 key;

      memcpy (&key, &pairs[i].value, sizeof (key));
      sums[(key & digit_mask) >> shift] += alike ? 1.0 : pairs[i].weight;
    }
    /* the first digit of weight at which the weight reaches half; the
     * last of weight where rounding kept the sum short of it */
    for (digit = 0; digit < MEDIAN_BINS; digit++) {
      if (sums[digit] > 0.0 && below + sums[digit] >= half)
        break;
      if (sums[digit] > 0.0)
        last = digit;
      below += sums[digit];
    }
    if (digit == MEDIAN_BINS) {
      digit = last;
      below -= sums[last];
    }
    prefix |= (guint32) digit << shift;
    mask |= digit_mask;
    if (mask == 0xffffffffu)
      break;
    /* the next pass looks at this digit's pairs alone */
    for (gsize i = 0; i < candidates; i++) {
      guint32 key;

      memcpy (&key, &pairs[i].value, sizeof (key));
      pairs[kept] = pairs[i];
      kept += (key & mask) == prefix;
    }
    candidates = kept;
  }
  return prefix;
}

gfloat
gst_cuda_vision_weighted_median (GstCudaVisionWeighted * pairs, gsize n)
{
  gdouble total = 0.0;
  guint32 lowest = G_MAXUINT32, highest = 0;
  gboolean alike;

  for (gsize i = 0; i < n; i++) {
    guint32 key = sort_key (pairs[i].value);

    memcpy (&pairs[i].value, &key, sizeof (key));
    total += pairs[i].weight;
    lowest = MIN (lowest, key);
    highest = MAX (highest, key);
  }
  if (lowest == highest)
    return key_value (lowest);
  alike = total <= 0.0;
  return key_value (select_weighted_key (pairs, n, alike,
          (alike ? (gdouble) n : total) / 2.0, lowest, highest));
}

/* Gathers dx (or dy when @vertical) of the tiles of at least
 * @min_confidence into c->weighted, each weighing its confidence. */
static gsize
gather_component (GstCudaVisionCorrelator * c, gdouble min_confidence,
    gboolean vertical)
{
  const gsize tiles = (gsize) c->tiles_x * c->tiles_y;
  gsize n = 0;

  for (gsize t = 0; t < tiles; t++) {
    const cvcore_clt_match *m = &c->host_matches[t];

    if (m->confidence >= min_confidence && isfinite (m->dx)
        && isfinite (m->dy)) {
      c->weighted[n].value = vertical ? m->dy : m->dx;
      c->weighted[n++].weight = MAX (m->confidence, 0.0f);
    }
  }
  return n;
}

guint
gst_cuda_vision_correlator_motion (GstCudaVisionCorrelator * c,
    gdouble min_confidence, gdouble * dx, gdouble * dy)
{
  const gsize tiles = (gsize) c->tiles_x * c->tiles_y;
  gsize n;

  if (c->weighted_room < tiles) {
    g_free (c->weighted);
    c->weighted = g_new (GstCudaVisionWeighted, tiles);
    c->weighted_room = tiles;
  }
  *dx = *dy = 0.0;
  n = gather_component (c, min_confidence, FALSE);
  if (n == 0)
    return 0;
  *dx = gst_cuda_vision_weighted_median (c->weighted, n);
  gather_component (c, min_confidence, TRUE);
  *dy = gst_cuda_vision_weighted_median (c->weighted, n);
  return (guint) n;
}

GstMessage *
gst_cuda_vision_correlator_message (GstCudaVisionCorrelator * c,
    GstObject * src, const gchar * name, GstClockTime timestamp,
    gdouble dx, gdouble dy, guint confident)
{
  GstStructure *s = gst_structure_new_empty (name);

  gst_cuda_vision_correlator_fill (c, s, timestamp, dx, dy, confident);
  return gst_message_new_element (src, s);
}

void
gst_cuda_vision_correlator_fill (GstCudaVisionCorrelator * c,
    GstStructure * s, GstClockTime timestamp, gdouble dx, gdouble dy,
    guint confident)
{
  const gsize tiles = (gsize) c->tiles_x * c->tiles_y;
  GBytes *bytes = g_bytes_new (c->host_matches,
      tiles * sizeof (cvcore_clt_match));

  gst_structure_set (s,
      "timestamp", G_TYPE_UINT64, timestamp,
      "tiles-x", G_TYPE_UINT, (guint) c->tiles_x,
      "tiles-y", G_TYPE_UINT, (guint) c->tiles_y,
      "tile-stride", G_TYPE_UINT, (guint) CVCORE_CLT_STRIDE,
      "confident-tiles", G_TYPE_UINT, confident,
      "views", G_TYPE_UINT, c->views, "pairs", G_TYPE_UINT, c->pairs,
      "motion-dx", G_TYPE_DOUBLE, dx, "motion-dy", G_TYPE_DOUBLE, dy,
      "mean-dx", G_TYPE_DOUBLE, dx, "mean-dy", G_TYPE_DOUBLE, dy,
      "matches", G_TYPE_BYTES, bytes, NULL);
  g_bytes_unref (bytes);
}

enum
{
  FAT_ZERO,
  REFINEMENTS,
  MIN_CONFIDENCE,
  DRAW,
  DRAW_SCALE,
  POST_MESSAGES,
  LEVELS,
  LOWPASS,
  CUSTOM_META,
  FIT_RADIUS,
};

void
gst_cuda_vision_correlator_settings_init (GstCudaVisionCorrelatorSettings *
    settings)
{
  cvcore_clt_corr_params_init (&settings->params);
  /* at the default lowpass and fit, above every flat tile's confidence
   * and below that of 83 to 93 % of textured tiles in photographs, the
   * rest mostly edges (docs/benchmarks/clt.md) */
  settings->min_confidence = 0.05;
  settings->draw = FALSE;
  settings->draw_scale = 4.0;
  settings->post_messages = FALSE;
  settings->custom_meta = FALSE;
  settings->levels = GST_CUDA_VISION_CORRELATOR_DEFAULT_LEVELS;
}

void
gst_cuda_vision_correlator_install_properties (GObjectClass * klass,
    guint first, const gchar * draw_blurb)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  GstCudaVisionCorrelatorSettings defaults;

  gst_cuda_vision_correlator_settings_init (&defaults);
  gst_cuda_vision_install_double (klass, first + FAT_ZERO, "fat-zero",
      "Fat zero", "Added to each frequency's cross-power magnitude before "
      "normalising (units of full scale squared): larger values weigh "
      "strong frequencies more, resisting noise", 0.0, 1.0,
      defaults.params.fat_zero, flags | GST_PARAM_CONTROLLABLE);
  g_object_class_install_property (klass, first + REFINEMENTS,
      g_param_spec_int ("refinements", "Refinements",
          "Passes that transform the second tile again where its content "
          "is, removing the window's pull towards zero motion", 0,
          CVCORE_CLT_MAX_REFINEMENTS, defaults.params.refinements, flags));
  gst_cuda_vision_install_double (klass, first + MIN_CONFIDENCE,
      "min-confidence", "Minimum confidence", "Tiles below it are not drawn "
      "and not counted in the frame's motion (the confidence-weighted "
      "median, motion-dx and motion-dy in the message)", 0.0, 1.0,
      defaults.min_confidence, flags | GST_PARAM_CONTROLLABLE);
  g_object_class_install_property (klass, first + DRAW,
      g_param_spec_boolean ("draw", "Draw", draw_blurb, FALSE, flags));
  gst_cuda_vision_install_double (klass, first + DRAW_SCALE, "draw-scale",
      "Draw scale", "Length of a drawn vector per pixel of motion (lines are "
      "clipped to 64 pixels)", 0.0, 100.0, defaults.draw_scale,
      flags | GST_PARAM_CONTROLLABLE);
  g_object_class_install_property (klass, first + POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message with the matches of every frame", FALSE,
          flags));
  g_object_class_install_property (klass, first + LEVELS,
      g_param_spec_int ("levels", "Levels",
          "Halvings of the frames matched first, coarsest first, each "
          "telling the next finer one where to look: motions reach the "
          "search radius times 2^levels (fewer where a side of the frame "
          "would fall below 32 pixels; a change starts matching over)", 0,
          CVCORE_CLT_MAX_LEVELS, defaults.levels, flags));
  gst_cuda_vision_install_double (klass, first + LOWPASS, "lowpass",
      "Lowpass", "Sigma in pixels of the Gaussian blur of each tile's "
      "correlation: the highest frequencies, where frames alias most, count "
      "less", 0.0, 4.0, defaults.params.lowpass,
      flags | GST_PARAM_CONTROLLABLE);
#if GST_CUDA_VISION_HAVE_CUSTOM_META
  g_object_class_install_property (klass, first + CUSTOM_META,
      g_param_spec_boolean ("custom-meta", "Custom meta",
          "Also attach the matches as a GstCustomMeta named "
          GST_CUDA_VISION_CORRELATION_CUSTOM_META ", whose structure "
          "bindings such as Python can read (the message's fields)", FALSE,
          flags));
#endif
  g_object_class_install_property (klass, first + FIT_RADIUS,
      g_param_spec_int ("fit-radius", "Fit radius",
          "Tiles each way around a tile whose matches are fitted with a "
          "motion that varies linearly, weighing each across its edges "
          "more than along them; a tile of edges alone loses confidence "
          "(0: each tile's own match and confidence)", 0,
          CVCORE_CLT_MAX_FIT_RADIUS, defaults.params.fit_radius,
          flags | GST_PARAM_CONTROLLABLE));
}

gboolean
gst_cuda_vision_correlator_set_property (GstCudaVisionCorrelatorSettings *
    settings, guint first, guint prop_id, const GValue * value)
{
  switch ((gint) prop_id - (gint) first) {
    case FAT_ZERO:
      settings->params.fat_zero = g_value_get_double (value);
      return TRUE;
    case REFINEMENTS:
      settings->params.refinements = g_value_get_int (value);
      return TRUE;
    case MIN_CONFIDENCE:
      settings->min_confidence = g_value_get_double (value);
      return TRUE;
    case DRAW:
      settings->draw = g_value_get_boolean (value);
      return TRUE;
    case DRAW_SCALE:
      settings->draw_scale = g_value_get_double (value);
      return TRUE;
    case POST_MESSAGES:
      settings->post_messages = g_value_get_boolean (value);
      return TRUE;
    case LEVELS:
      settings->levels = g_value_get_int (value);
      return TRUE;
    case LOWPASS:
      settings->params.lowpass = g_value_get_double (value);
      return TRUE;
    case CUSTOM_META:
      settings->custom_meta = g_value_get_boolean (value);
      return TRUE;
    case FIT_RADIUS:
      settings->params.fit_radius = g_value_get_int (value);
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
gst_cuda_vision_correlator_get_property (const GstCudaVisionCorrelatorSettings
    * settings, guint first, guint prop_id, GValue * value)
{
  switch ((gint) prop_id - (gint) first) {
    case FAT_ZERO:
      g_value_set_double (value, settings->params.fat_zero);
      return TRUE;
    case REFINEMENTS:
      g_value_set_int (value, settings->params.refinements);
      return TRUE;
    case MIN_CONFIDENCE:
      g_value_set_double (value, settings->min_confidence);
      return TRUE;
    case DRAW:
      g_value_set_boolean (value, settings->draw);
      return TRUE;
    case DRAW_SCALE:
      g_value_set_double (value, settings->draw_scale);
      return TRUE;
    case POST_MESSAGES:
      g_value_set_boolean (value, settings->post_messages);
      return TRUE;
    case LEVELS:
      g_value_set_int (value, settings->levels);
      return TRUE;
    case LOWPASS:
      g_value_set_double (value, settings->params.lowpass);
      return TRUE;
    case CUSTOM_META:
      g_value_set_boolean (value, settings->custom_meta);
      return TRUE;
    case FIT_RADIUS:
      g_value_set_int (value, settings->params.fit_radius);
      return TRUE;
    default:
      return FALSE;
  }
}
