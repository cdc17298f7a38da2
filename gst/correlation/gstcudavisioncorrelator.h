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

/* cudaphasecorr's tile matching apart from the element: the device
 * buffers, the frames' luminance, the matches as a message, the matching
 * properties. */
#ifndef __GST_CUDA_VISION_CORRELATOR_H__
#define __GST_CUDA_VISION_CORRELATOR_H__

#include <gst/video/video.h>

#include "cvclt.h"

G_BEGIN_DECLS

/* A value and its weight, for weighted medians. */
typedef struct
{
  gfloat value, weight;
} GstCudaVisionWeighted;

/* The weighted median of @n pairs (n > 0, finite values), whose contents
 * it overwrites: the smallest value whose weight, with that of all
 * smaller values, reaches half the total weight. With no weight at all,
 * every pair weighs alike. */
gfloat gst_cuda_vision_weighted_median (GstCudaVisionWeighted * pairs, gsize n);

typedef struct
{
  cvcore_device *core;          /* set while the buffers exist */
  /* two frames' reductions and forward transforms, or a rig's reduced
   * views */
  cvcore_clt_pyramid *pyramid;
  cvcore_clt_rig_pyramid *rig_pyramid;
  gint levels;                  /* the reductions it was asked for */
  gint rig_views;               /* the rig pyramid's views, or 0 */
  gint width, height;
  cvcore_clt_match *matches;    /* device */
  cvcore_clt_match *host_matches;       /* page-locked */
  gint tiles_x, tiles_y;
  gint channel;                 /* the luminance's channel in plane 0 */
  gdouble full_scale;
  guint colour[4];              /* of drawn vectors */
  /* the last match's views and pairs of frames, for the meta and message */
  guint views, pairs;
  /* rig: the tiles' 2-D surfaces (device), allocated when first asked */
  gfloat *surfaces;
  /* for the frame's motion, grown as needed */
  GstCudaVisionWeighted *weighted;
  gsize weighted_room;
} GstCudaVisionCorrelator;

/* Frees the buffers (after @stream, when given, is done with them) and
 * sets the tile grid, luminance channel, scale and colour for @info. */
void gst_cuda_vision_correlator_set_info (GstCudaVisionCorrelator * c,
    const GstVideoInfo * info, cvcore_stream * stream);
/* Allocates the buffers on @core, for pyramids of @levels reductions of
 * two frames (@rig_views 0) or of a rig's views, when they are not there;
 * sets *@fresh when it did (no frame is kept then). */
cvcore_status gst_cuda_vision_correlator_ensure (GstCudaVisionCorrelator * c,
    cvcore_device * core, gint levels, gint rig_views, cvcore_stream * stream,
    gboolean * fresh);
void gst_cuda_vision_correlator_free (GstCudaVisionCorrelator * c,
    cvcore_stream * stream);
/* Plane 0 of a mapped device @frame, one sample per pixel for Y'CbCr. */
void gst_cuda_vision_correlator_image (GstCudaVisionCorrelator * c,
    const GstVideoFrame * frame, cvcore_image * image);
/* Queues the copy of the matches to host_matches and waits for them. */
cvcore_status gst_cuda_vision_correlator_read (GstCudaVisionCorrelator * c,
    cvcore_stream * stream);
/* The frame's motion in host_matches: the confidence-weighted medians of
 * dx and of dy over the tiles of at least @min_confidence, robust to the
 * tiles that matched the wrong content. Returns the number of such tiles
 * (with @dx, @dy 0 when there is none). */
guint gst_cuda_vision_correlator_motion (GstCudaVisionCorrelator * c,
    gdouble min_confidence, gdouble * dx, gdouble * dy);
/* The element message of host_matches: @name, with timestamp, tiles-x,
 * tiles-y, tile-stride, confident-tiles, motion-dx, motion-dy (the
 * frame's motion @dx, @dy over @confident tiles, see above; also as
 * mean-dx, mean-dy, their former names, for one more release) and
 * matches. */
GstMessage *gst_cuda_vision_correlator_message (GstCudaVisionCorrelator * c,
    GstObject * src, const gchar * name, GstClockTime timestamp,
    gdouble dx, gdouble dy, guint confident);
/* Sets the message's fields on @s. */
void gst_cuda_vision_correlator_fill (GstCudaVisionCorrelator * c,
    GstStructure * s, GstClockTime timestamp, gdouble dx, gdouble dy,
    guint confident);

/* The matching settings, as properties with ids
 * first .. first + GST_CUDA_VISION_CORRELATOR_N_PROPS - 1: fat-zero,
 * refinements, min-confidence, draw, draw-scale, post-messages, levels,
 * lowpass, custom-meta, fit-radius. */
typedef struct
{
  cvcore_clt_corr_params params;
  gint levels;
  gdouble min_confidence;
  gboolean draw;
  gdouble draw_scale;
  gboolean post_messages;
  gboolean custom_meta;
} GstCudaVisionCorrelatorSettings;

#define GST_CUDA_VISION_CORRELATOR_N_PROPS 10
#define GST_CUDA_VISION_CORRELATOR_DEFAULT_LEVELS 4

void gst_cuda_vision_correlator_settings_init (GstCudaVisionCorrelatorSettings
    * settings);
void gst_cuda_vision_correlator_install_properties (GObjectClass * klass,
    guint first, const gchar * draw_blurb);
/* FALSE when @prop_id is not one of them. */
gboolean gst_cuda_vision_correlator_set_property
    (GstCudaVisionCorrelatorSettings * settings, guint first, guint prop_id,
    const GValue * value);
gboolean gst_cuda_vision_correlator_get_property
    (const GstCudaVisionCorrelatorSettings * settings, guint first,
    guint prop_id, GValue * value);

G_END_DECLS

#endif /* __GST_CUDA_VISION_CORRELATOR_H__ */
