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

/**
 * SECTION:element-cudaphasecorr
 * @title: cudaphasecorr
 *
 * Tile matching of video in cudavision device memory by phase correlation
 * in the complex lapped transform domain: every 16x16 tile (stride 8) of a
 * frame's luminance is matched with another frame, giving a vector (dx,
 * dy) with sub-pixel precision and a confidence per tile.
 *
 * `mode`:
 * - `flow` (default): optical flow. Each frame on the `sink` pad is matched
 *   against the previous one; (dx, dy) is how far each tile's content
 *   moved. Motions up to `search-radius` x 2^`levels` pixels per frame are
 *   found (7 x 16 by default): both frames are halved `levels` times and
 *   matched coarsest first, each level's motion telling the next finer one
 *   where to look, so that large motions are found without the bias a
 *   tile's window gives them. A flush or a discontinuity starts over (the
 *   next frame has no previous one).
 * - `stereo`: disparity. The `sink` pad takes the left view and a
 *   requested `sink_right` pad the right view. Frames are paired by
 *   timestamp (within half a frame; an unpaired frame is dropped). dx is
 *   how far each tile's content lies to the left in the right view (the
 *   disparity), dy how far down. The search covers `min-disparity` to
 *   `max-disparity` around their middle, one pixel more each way, and as
 *   far in y, coarse to fine as in flow; it reaches 7 x 2^`levels` pixels
 *   from the middle (112 by default), so wider ranges are cut. A tile
 *   whose match lies more than `max-vertical-disparity` (2 pixels) up or
 *   down gets confidence 0: rectified views hold a point on the same row,
 *   and such tiles mostly show what the right view hides. Both views
 *   must have the same format and size. Views whose frames do not pair
 *   get one warning with the offset, and the count of dropped frames is
 *   logged at the end. A `sink_right` pad released while playing (a
 *   camera swapped) lets the left frames pass unmatched, with a warning,
 *   until a new one is requested and linked.
 *
 * Each tile's correlation is weighted by `lowpass`, which counts the
 * frequencies where frames alias less, and tiles whose match falls beyond
 * the frame's edge get confidence 0. Then each tile's match is fitted with
 * those around it (`fit-radius`; 0 keeps each tile's own): tiles of edges
 * or stripes alone lose confidence, and motions vary smoothly but for
 * motion boundaries. docs/design.md says how, docs/benchmarks.md how
 * accurate the result is.
 *
 * The frames of `sink` pass on unchanged, each (in flow mode from the
 * second on) carrying a #GstCudaVisionCorrelationMeta with the tile grid
 * and the mode (header gstcudavisioncorrelationmeta.h, usable without
 * linking anything). With `post-messages=true` the element also posts an
 * element message per frame, `cudaphasecorr`, with fields `timestamp`,
 * `tiles-x`, `tiles-y`, `tile-stride`, `confident-tiles`, `mean-dx`,
 * `mean-dy` (the frame's motion: despite the names, the
 * confidence-weighted medians of the tiles' dx and dy over tiles of at
 * least `min-confidence`, which tiles matched to the wrong content do not
 * pull away as they would a mean; the meta carries them as `motion_dx`,
 * `motion_dy`) and `matches`, a
 * #GBytes of tiles_y x tiles_x float triples (dx, dy, confidence). With
 * `custom-meta=true` (GStreamer 1.20 and newer) the frames carry the
 * same fields in a #GstCustomMeta named
 * `GstCudaVisionCorrelationCustomMeta`, for bindings such as Python
 * that cannot read the C meta (examples/python/flow_numpy.py). With
 * `draw=true` the vectors of confident tiles are drawn onto a copy of the
 * frame, `draw-scale` times their length, from each tile's centre.
 *
 * In a live pipeline the element holds no frame: its LATENCY answer is
 * its upstream's plus the aggregator's `latency` property
 * (docs/benchmarks.md, "Latency in live pipelines").
 *
 * Only the matches come back from the GPU. The luminance is the green
 * channel of RGB formats, the luma plane of I420 and NV12.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=NV12 ! cudaupload ! cudaphasecorr draw=true draw-scale=6 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 -m videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! cudavisionupload ! cudaphasecorr post-messages=true ! fakesink
 * gst-launch-1.0 cudaphasecorr name=c mode=stereo post-messages=true min-disparity=0 max-disparity=12 ! cudavisiondownload ! fakesink v4l2src device=/dev/video0 ! videoconvert ! video/x-raw,format=GRAY8 ! cudavisionupload ! c.sink v4l2src device=/dev/video1 ! videoconvert ! video/x-raw,format=GRAY8 ! cudavisionupload ! c.sink_right
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaphasecorr.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisionframe.h"
#include "gstcudavisioncorrelationmetaimpl.h"
#include "gstcudavisioncorrelator.h"
#include "gstcudavisioncudastream.h"
#include "gstcudavisiondevice.h"
#include "gstcudavisionbasetransform.h"
#include "gstcudavisionformats.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionpairing.h"
#include "gstcudavisionutils.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_phase_corr_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_phase_corr_debug

#define PHASE_CORR_FORMATS \
    "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, I420, NV12 }"
#define PHASE_CORR_CAPS GST_VIDEO_CAPS_MAKE_WITH_FEATURES \
    (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, PHASE_CORR_FORMATS)

G_STATIC_ASSERT (sizeof (GstCudaVisionTileMatch) == sizeof (cvcore_clt_match));

typedef enum
{
  GST_CUDA_VISION_PHASE_CORR_FLOW,
  GST_CUDA_VISION_PHASE_CORR_STEREO,
} GstCudaVisionPhaseCorrMode;

#define DEFAULT_MAX_VERTICAL_DISPARITY 2.0

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_MODE,
  PROP_SEARCH_RADIUS,
  PROP_MIN_DISPARITY,
  PROP_MAX_DISPARITY,
  PROP_MAX_VERTICAL_DISPARITY,
  PROP_CORRELATOR,              /* first of the shared matching properties */
};

struct _GstCudaVisionPhaseCorr
{
  GstAggregator parent;

  GstAggregatorPad *sink;       /* the video, or the left view */
  GstAggregatorPad *right;      /* the right view, under the object lock */

  /* properties, under the object lock */
  gint device_id;
  GstCudaVisionPhaseCorrMode mode;
  gdouble min_disparity, max_disparity, max_vertical_disparity;
  GstCudaVisionCorrelatorSettings settings;

  /* between start and stop; the device under the object lock */
  GstCudaVisionDevice *device;
  cvcore_stream *stream;
  GstVideoInfo info[2];         /* sink, right */
  gboolean have_info[2];
  /* the caps of the sink pad's next frames, as their event came in order
   * (the pad's current caps may be those of frames still queued behind) */
  GstCaps *sink_caps;
  GstCudaVisionCorrelator corr;
  /* flow: index of the previous frame's coefficients in corr, or -1 */
  gint previous;
  /* flow: set by a flush (from any thread), so the next frame starts over */
  gint restart;
  /* stereo (source pad's thread): frames dropped for want of a pair, and
   * whether a right view was there and has gone */
  GstCudaVisionPairing pairing;
  gboolean right_seen, right_missing;
  /* whether the source pad's peer is ours (source pad's thread) */
  GstCudaVisionPeerCache src_peer;
};

static void
add_pad_template (GstElementClass * element_class, const gchar * name,
    GstPadDirection direction, GstPadPresence presence)
{
  GstCaps *caps = gst_cuda_vision_caps_add_cuda_memory (gst_caps_from_string
      (PHASE_CORR_CAPS));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype (name, direction, presence, caps,
          GST_TYPE_AGGREGATOR_PAD));
  gst_caps_unref (caps);
}

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionPhaseCorr, gst_cuda_vision_phase_corr,
    GST_TYPE_AGGREGATOR,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_phase_corr_debug,
        "cudavisionphasecorr", 0, "cudavision phase correlation"));

#define GST_TYPE_CUDA_VISION_PHASE_CORR_MODE (gst_cuda_vision_phase_corr_mode_get_type ())
static GType
gst_cuda_vision_phase_corr_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VISION_PHASE_CORR_FLOW, "Each frame against the previous one "
          "(optical flow)", "flow"},
    {GST_CUDA_VISION_PHASE_CORR_STEREO, "Left view (sink) against right view "
          "(sink_right): disparity", "stereo"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionPhaseCorrMode",
      values);
}

static void
gst_cuda_vision_phase_corr_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_DEVICE_ID)
    self->device_id = g_value_get_int (value);
  else if (prop_id == PROP_MODE)
    self->mode = g_value_get_enum (value);
  else if (prop_id == PROP_SEARCH_RADIUS)
    self->settings.params.search_radius = g_value_get_int (value);
  else if (prop_id == PROP_MIN_DISPARITY)
    self->min_disparity = g_value_get_double (value);
  else if (prop_id == PROP_MAX_DISPARITY)
    self->max_disparity = g_value_get_double (value);
  else if (prop_id == PROP_MAX_VERTICAL_DISPARITY)
    self->max_vertical_disparity = g_value_get_double (value);
  else if (!gst_cuda_vision_correlator_set_property (&self->settings,
          PROP_CORRELATOR, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_phase_corr_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_DEVICE_ID)
    g_value_set_int (value, self->device_id);
  else if (prop_id == PROP_MODE)
    g_value_set_enum (value, self->mode);
  else if (prop_id == PROP_SEARCH_RADIUS)
    g_value_set_int (value, self->settings.params.search_radius);
  else if (prop_id == PROP_MIN_DISPARITY)
    g_value_set_double (value, self->min_disparity);
  else if (prop_id == PROP_MAX_DISPARITY)
    g_value_set_double (value, self->max_disparity);
  else if (prop_id == PROP_MAX_VERTICAL_DISPARITY)
    g_value_set_double (value, self->max_vertical_disparity);
  else if (!gst_cuda_vision_correlator_get_property (&self->settings,
          PROP_CORRELATOR, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_phase_corr_set_context (GstElement * element,
    GstContext * context)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (element);

  GST_OBJECT_LOCK (self);
  gst_cuda_vision_handle_set_context (element, context, self->device_id,
      &self->device);
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_CLASS (gst_cuda_vision_phase_corr_parent_class)->set_context
      (element, context);
}

/* The right view's pad, in stereo mode only: an idle pad would stall the
 * flow. */
static GstAggregatorPad *
gst_cuda_vision_phase_corr_create_new_pad (GstAggregator * agg,
    GstPadTemplate * templ, const gchar * req_name, const GstCaps * caps)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);
  GstAggregatorPad *pad = NULL;

  GST_OBJECT_LOCK (self);
  if (self->mode != GST_CUDA_VISION_PHASE_CORR_STEREO)
    GST_WARNING_OBJECT (self, "sink_right is only for mode=stereo");
  else if (self->right)
    GST_WARNING_OBJECT (self, "there is a sink_right pad already");
  else
    pad = self->right = g_object_new (GST_TYPE_AGGREGATOR_PAD, "name",
        "sink_right", "direction", GST_PAD_SINK, "template", templ, NULL);
  GST_OBJECT_UNLOCK (self);
  return pad;
}

static void
gst_cuda_vision_phase_corr_release_pad (GstElement * element, GstPad * pad)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (element);

  GST_OBJECT_LOCK (self);
  if (pad == GST_PAD (self->right))
    self->right = NULL;
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_CLASS (gst_cuda_vision_phase_corr_parent_class)->release_pad
      (element, pad);
}

static gboolean
gst_cuda_vision_phase_corr_start (GstAggregator * agg)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);
  gboolean right_unlinked;
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  /* the aggregator would wait for its frames for ever, saying nothing */
  right_unlinked = self->mode == GST_CUDA_VISION_PHASE_CORR_STEREO
      && self->right && !gst_pad_is_linked (GST_PAD (self->right));
  GST_OBJECT_UNLOCK (self);
  if (right_unlinked) {
    GST_ELEMENT_ERROR (self, CORE, PAD,
        ("The sink_right pad is requested but not linked"),
        ("stereo matching waits for a right view on sink_right: link it "
            "before starting, or release the pad"));
    return FALSE;
  }
  if (!gst_cuda_vision_open_stream (GST_ELEMENT (self), device_id,
          &self->device, &self->stream))
    return FALSE;
  self->have_info[0] = self->have_info[1] = FALSE;
  self->previous = -1;
  gst_cuda_vision_pairing_reset (&self->pairing);
  self->right_seen = self->right_missing = FALSE;
  return TRUE;
}

static gboolean
gst_cuda_vision_phase_corr_stop (GstAggregator * agg)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);

  if (self->pairing.dropped > 0)
    GST_WARNING_OBJECT (self, "%u frames were dropped unpaired",
        self->pairing.dropped);
  gst_cuda_vision_correlator_free (&self->corr, self->stream);
  gst_clear_caps (&self->sink_caps);
  gst_cuda_vision_peer_cache_clear (&self->src_peer);
  gst_cuda_vision_close_stream (GST_ELEMENT (self), &self->device,
      &self->stream);
  return TRUE;
}

/* A device opened to answer a neighbour's query, for an element that then
 * never started. */
static void
gst_cuda_vision_phase_corr_dispose (GObject * object)
{
  gst_clear_object (&GST_CUDA_VISION_PHASE_CORR (object)->device);
  G_OBJECT_CLASS (gst_cuda_vision_phase_corr_parent_class)->dispose (object);
}

static gboolean
handle_context_query (GstCudaVisionPhaseCorr * self, GstQuery * query,
    GstPadDirection from)
{
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  return gst_cuda_vision_answer_context_query (GST_ELEMENT (self), query,
      from, device_id, &self->device);
}

/* The template's caps, as far as the backend carries their memories. */
static gboolean
answer_caps_query (GstPad * pad, GstQuery * query)
{
  GstCaps *caps =
      gst_cuda_vision_caps_for_backend (gst_pad_get_pad_template_caps (pad),
      gst_cuda_vision_caps_backend ());
  GstCaps *filter = NULL;

  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    gst_query_parse_accept_caps (query, &filter);
    gst_query_set_accept_caps_result (query, gst_caps_is_subset (filter, caps));
  } else {
    gst_query_parse_caps (query, &filter);
    caps = gst_cuda_vision_caps_filter (caps, filter);
    gst_query_set_caps_result (query, caps);
  }
  gst_caps_unref (caps);
  return TRUE;
}

static gboolean
gst_cuda_vision_phase_corr_sink_query (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * query)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && handle_context_query (self, query, GST_PAD_SINK))
    return TRUE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION && self->device)
    return gst_cuda_vision_propose_device_pool (self->device, self->stream,
        query);
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS
      || GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    return answer_caps_query (GST_PAD (pad), query);
  return
      GST_AGGREGATOR_CLASS (gst_cuda_vision_phase_corr_parent_class)->sink_query
      (agg, pad, query);
}

static gboolean
gst_cuda_vision_phase_corr_src_query (GstAggregator * agg, GstQuery * query)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && handle_context_query (self, query, GST_PAD_SRC))
    return TRUE;
  return
      GST_AGGREGATOR_CLASS (gst_cuda_vision_phase_corr_parent_class)->src_query
      (agg, query);
}

/* Each input's caps (whether the views agree is checked as each pair of
 * frames comes: both may change one after the other); the output follows
 * the sink pad's segment. */
static gboolean
gst_cuda_vision_phase_corr_sink_event (GstAggregator * agg,
    GstAggregatorPad * pad, GstEvent * event)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);
  const gint input = pad == self->sink ? 0 : 1;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;

    gst_event_parse_caps (event, &caps);
    self->have_info[input] =
        gst_cuda_vision_video_info_from_caps (&self->info[input], caps);
    if (!self->have_info[input]) {
      gst_cuda_vision_post_caps_refusal (GST_ELEMENT (self), caps);
      gst_event_unref (event);
      return FALSE;
    }
    if (input == 0) {
      gst_caps_replace (&self->sink_caps, caps);
      gst_cuda_vision_correlator_set_info (&self->corr, &self->info[0],
          self->stream);
      self->previous = -1;
      /* the output takes these caps before the next frame */
      gst_pad_mark_reconfigure (GST_AGGREGATOR_SRC_PAD (agg));
    }
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP && input == 0) {
    /* flow starts over */
    g_atomic_int_set (&self->restart, TRUE);
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT && input == 0) {
    const GstSegment *segment;

    gst_event_parse_segment (event, &segment);
    if (segment->format == GST_FORMAT_TIME)
      gst_aggregator_update_segment (agg, segment);
  }
  return
      GST_AGGREGATOR_CLASS (gst_cuda_vision_phase_corr_parent_class)->sink_event
      (agg, pad, event);
}

/* The output is the sink pad's video, with the caps of the frames that
 * come next. */
static GstFlowReturn
gst_cuda_vision_phase_corr_update_src_caps (GstAggregator * agg, GstCaps * caps,
    GstCaps ** ret)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);

  if (self->sink_caps == NULL)
    return GST_AGGREGATOR_FLOW_NEED_DATA;
  *ret = gst_caps_ref (self->sink_caps);
  return GST_FLOW_OK;
}

static gboolean
map_input (GstCudaVisionPhaseCorr * self, GstBuffer * buffer, gint input,
    GstMapFlags flags, GstVideoFrame * frame)
{
  const gchar *refusal = gst_buffer_n_memory (buffer) != 1 ?
      "it is not one memory block" :
      gst_cuda_vision_device_memory_refusal (gst_buffer_peek_memory (buffer,
          0), self->device);

  gchar *map_refusal = NULL;

  if (refusal == NULL && gst_cuda_vision_video_frame_map (frame,
          &self->info[input], buffer, flags | GST_MAP_CUDA_VISION,
          &map_refusal))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("Cannot use the %s frame: %s", input ? "right view's" : "input",
          refusal ? refusal : map_refusal), (NULL));
  g_free (map_refusal);
  return FALSE;
}

/* Flow: this frame's pyramid, then the previous frame's matched in it.
 * TRUE with *matched when there was a previous frame and the matches are
 * read back. */
static gboolean
match_flow (GstCudaVisionPhaseCorr * self, GstBuffer * frame,
    const cvcore_clt_corr_params * params, gboolean * matched)
{
  GstMemory *mem = gst_buffer_peek_memory (frame, 0);
  const gint current = self->previous == 0 ? 1 : 0;
  GstVideoFrame video;
  cvcore_image image;
  gboolean ok;

  *matched = FALSE;
  if (!map_input (self, frame, 0, GST_MAP_READ, &video))
    return FALSE;
  gst_cuda_vision_correlator_image (&self->corr, &video, &image);
  ok = gst_cuda_vision_device_memory_begin_access (mem, self->stream)
      && cvcore_clt_pyramid_build (self->stream, self->corr.pyramid, current,
      &image, self->corr.channel) == CVCORE_OK
      && (self->previous < 0 || cvcore_clt_pyramid_correlate (self->stream,
          self->corr.pyramid, self->previous, current, &image,
          self->corr.channel, params, self->corr.matches) == CVCORE_OK);
  /* record even after a failure: the chain of uses must stay unbroken */
  ok &= gst_cuda_vision_device_memory_end_access (mem, self->device,
      self->stream);
  gst_video_frame_unmap (&video);
  if (ok && self->previous >= 0) {
    ok = gst_cuda_vision_correlator_read (&self->corr,
        self->stream) == CVCORE_OK;
    *matched = ok;
  }
  self->previous = ok ? current : -1;
  if (!ok)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Phase correlation failed"),
        ("%s", cvcore_last_error ()));
  return ok;
}

/* Stereo: both views' pyramids, the left matched in the right, the
 * matches read back as disparities. */
static gboolean
match_stereo (GstCudaVisionPhaseCorr * self, GstBuffer * left,
    GstBuffer * right, const cvcore_clt_corr_params * params)
{
  GstMemory *mem[2] = { gst_buffer_peek_memory (left, 0),
    gst_buffer_peek_memory (right, 0)
  };
  GstVideoFrame frame[2];
  cvcore_image image[2];
  gboolean ok;

  if (!map_input (self, left, 0, GST_MAP_READ, &frame[0]))
    return FALSE;
  if (!map_input (self, right, 1, GST_MAP_READ, &frame[1])) {
    gst_video_frame_unmap (&frame[0]);
    return FALSE;
  }
  for (gint v = 0; v < 2; v++)
    gst_cuda_vision_correlator_image (&self->corr, &frame[v], &image[v]);
  ok = gst_cuda_vision_device_memory_begin_access (mem[0], self->stream)
      && gst_cuda_vision_device_memory_begin_access (mem[1], self->stream)
      && cvcore_clt_pyramid_build (self->stream, self->corr.pyramid, 0,
      &image[0], self->corr.channel) == CVCORE_OK
      && cvcore_clt_pyramid_build (self->stream, self->corr.pyramid, 1,
      &image[1], self->corr.channel) == CVCORE_OK
      && cvcore_clt_pyramid_correlate (self->stream, self->corr.pyramid, 0, 1,
      &image[1], self->corr.channel, params, self->corr.matches) == CVCORE_OK;
  ok &= gst_cuda_vision_device_memory_end_access (mem[1], self->device,
      self->stream);
  ok &= gst_cuda_vision_device_memory_end_access (mem[0], self->device,
      self->stream);
  gst_video_frame_unmap (&frame[1]);
  gst_video_frame_unmap (&frame[0]);
  if (ok)
    ok = gst_cuda_vision_correlator_read (&self->corr,
        self->stream) == CVCORE_OK;
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Stereo matching failed"),
        ("%s", cvcore_last_error ()));
    return FALSE;
  }
  for (gint t = 0; t < self->corr.tiles_x * self->corr.tiles_y; t++)
    self->corr.host_matches[t].dx = -self->corr.host_matches[t].dx;
  return TRUE;
}

/* A copy of @in with the vectors drawn on it. */
static GstBuffer *
draw_copy (GstCudaVisionPhaseCorr * self, GstBuffer * in, gdouble scale,
    gdouble min_confidence)
{
  GstBuffer *out = gst_buffer_copy_deep (in);
  GstVideoFrame frame;
  cvcore_image image;
  gboolean ok;

  if (out == NULL || !map_input (self, out, 0, GST_MAP_READWRITE, &frame)) {
    gst_clear_buffer (&out);
    return NULL;
  }
  gst_cuda_vision_correlator_image (&self->corr, &frame, &image);
  ok = gst_cuda_vision_device_memory_begin_access (frame.map[0].memory,
      self->stream)
      && cvcore_clt_draw_matches (self->stream, &image, self->corr.matches,
      scale, min_confidence, self->corr.colour) == CVCORE_OK;
  ok &=
      gst_cuda_vision_device_memory_end_access (frame.map[0].memory,
      self->device, self->stream);
  gst_video_frame_unmap (&frame);
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Drawing failed"),
        ("%s", cvcore_last_error ()));
    gst_clear_buffer (&out);
  }
  return out;
}

/* Elements of other plugins know nothing of our stream: work queued on
 * CUDAMemory is done before they get it. */
static GstFlowReturn
push_frame (GstCudaVisionPhaseCorr * self, GstBuffer * out)
{
  if (gst_cuda_vision_cuda_buffer_needs_host_wait (out)
      && !gst_cuda_vision_peer_cache_is_ours (&self->src_peer,
          GST_AGGREGATOR_SRC_PAD (self))) {
    if (cvcore_stream_finish (self->stream) != CVCORE_OK) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Device work on CUDA memory failed"), ("%s", cvcore_last_error ()));
      gst_buffer_unref (out);
      return GST_FLOW_ERROR;
    }
    /* later uses of the frame need not wait for ours on the device */
    gst_cuda_vision_cuda_buffer_use_finished (out, self->stream);
  }
  return gst_aggregator_finish_buffer (GST_AGGREGATOR (self), out);
}

/* Passes @in (taken) on, with this frame's matches when @matched: drawn,
 * in a meta, in a message. */
static GstFlowReturn
finish_frame (GstCudaVisionPhaseCorr * self, GstBuffer * in, gboolean matched,
    GstCudaVisionCorrelationMode mode,
    const GstCudaVisionCorrelatorSettings * settings)
{
  GstBuffer *out;
  gdouble dx, dy;
  guint confident;

  if (!matched)
    return push_frame (self, in);
  if (settings->draw) {
    out = draw_copy (self, in, settings->draw_scale, settings->min_confidence);
    gst_buffer_unref (in);
    if (out == NULL)
      return GST_FLOW_ERROR;
  } else {
    out = gst_buffer_make_writable (in);
  }
  confident = gst_cuda_vision_correlator_motion (&self->corr,
      settings->min_confidence, &dx, &dy);
  gst_buffer_add_cuda_vision_correlation_meta (out, mode, self->corr.tiles_x,
      self->corr.tiles_y,
      (const GstCudaVisionTileMatch *) self->corr.host_matches, dx, dy,
      confident);
#if GST_CUDA_VISION_HAVE_CUSTOM_META
  if (settings->custom_meta)
    gst_cuda_vision_correlator_fill (&self->corr,
        gst_custom_meta_get_structure (gst_buffer_add_custom_meta (out,
                GST_CUDA_VISION_CORRELATION_CUSTOM_META)), GST_BUFFER_PTS (out),
        dx, dy, confident);
#endif
  if (settings->post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        gst_cuda_vision_correlator_message (&self->corr, GST_OBJECT (self),
            "cudaphasecorr", GST_BUFFER_PTS (out), dx, dy, confident));
  return push_frame (self, out);
}

/* With new buffers (the first frame, or other levels) the next frame
 * of flow has no previous one. */
static gboolean
ensure_buffers (GstCudaVisionPhaseCorr * self, gint levels)
{
  gboolean fresh;

  if (gst_cuda_vision_correlator_ensure (&self->corr,
          gst_cuda_vision_device_get_core (self->device), levels,
          self->stream, &fresh) == CVCORE_OK) {
    if (fresh)
      self->previous = -1;
    return TRUE;
  }
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Cannot allocate phase correlation buffers"),
      ("%s", cvcore_last_error ()));
  return FALSE;
}

static GstFlowReturn
aggregate_flow (GstCudaVisionPhaseCorr * self, GstAggregatorPad * right,
    const GstCudaVisionCorrelatorSettings * settings)
{
  GstBuffer *frame = gst_aggregator_pad_pop_buffer (self->sink);
  cvcore_clt_corr_params params = settings->params;
  gboolean matched;

  /* a right view left over from stereo mode is not used */
  if (right)
    gst_aggregator_pad_drop_buffer (right);
  if (frame == NULL)
    return gst_aggregator_pad_is_eos (self->sink) ? GST_FLOW_EOS : GST_FLOW_OK;
  if (g_atomic_int_compare_and_exchange (&self->restart, TRUE, FALSE)
      || GST_BUFFER_FLAG_IS_SET (frame, GST_BUFFER_FLAG_DISCONT))
    self->previous = -1;
  params.full_scale = self->corr.full_scale;
  if (!self->have_info[0] || !ensure_buffers (self, settings->levels)
      || !match_flow (self, frame, &params, &matched)) {
    gst_buffer_unref (frame);
    return GST_FLOW_ERROR;
  }
  return finish_frame (self, frame, matched, GST_CUDA_VISION_CORRELATION_FLOW,
      settings);
}

static gboolean
same_geometry (GstCudaVisionPhaseCorr * self)
{
  return self->have_info[0] && self->have_info[1]
      && GST_VIDEO_INFO_FORMAT (&self->info[0]) ==
      GST_VIDEO_INFO_FORMAT (&self->info[1])
      && GST_VIDEO_INFO_WIDTH (&self->info[0]) ==
      GST_VIDEO_INFO_WIDTH (&self->info[1])
      && GST_VIDEO_INFO_HEIGHT (&self->info[0]) ==
      GST_VIDEO_INFO_HEIGHT (&self->info[1]);
}

/* The right view's pad was released mid-stream (a camera swapped): the
 * left frames go on unmatched, with a warning, until a new one comes. */
static GstFlowReturn
pass_without_right (GstCudaVisionPhaseCorr * self,
    const GstCudaVisionCorrelatorSettings * settings)
{
  GstBuffer *frame;

  if (!gst_aggregator_pad_has_buffer (self->sink))
    return gst_aggregator_pad_is_eos (self->sink) ? GST_FLOW_EOS : GST_FLOW_OK;
  if (!self->right_missing)
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("The right view has gone: left frames pass unmatched until a new "
            "sink_right pad comes"), (NULL));
  self->right_missing = TRUE;
  frame = gst_aggregator_pad_pop_buffer (self->sink);
  return finish_frame (self, frame, FALSE, GST_CUDA_VISION_CORRELATION_STEREO,
      settings);
}

static GstFlowReturn
aggregate_stereo (GstCudaVisionPhaseCorr * self, GstAggregatorPad * right,
    const GstCudaVisionCorrelatorSettings * settings, gdouble lo, gdouble hi)
{
  static const gchar *const view_names[] = { "left", "right" };
  cvcore_clt_corr_params params = settings->params;
  GstAggregatorPad *views[2];
  GstBuffer *left_frame, *right_frame;
  gboolean ok;

  if (right == NULL && !self->right_seen) {
    GST_ELEMENT_ERROR (self, CORE, PAD, ("mode=stereo needs the right view "
            "on a sink_right pad"), (NULL));
    return GST_FLOW_ERROR;
  }
  if (right == NULL)
    return pass_without_right (self, settings);
  self->right_seen = TRUE;
  self->right_missing = FALSE;
  views[0] = self->sink;
  views[1] = right;
  switch (gst_cuda_vision_pairing_check (&self->pairing, GST_ELEMENT (self),
          views, view_names, 2, &self->info[0])) {
    case GST_CUDA_VISION_PAIRING_READY:
      break;
    case GST_CUDA_VISION_PAIRING_ENDED:
      /* a view that has ended leaves nothing to pair */
      return GST_FLOW_EOS;
    default:
      return GST_FLOW_OK;
  }
  left_frame = gst_aggregator_pad_pop_buffer (self->sink);
  right_frame = gst_aggregator_pad_pop_buffer (right);
  if (!same_geometry (self)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The left and right views differ in format or size"),
        ("left %s %dx%d, right %s %dx%d",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                (&self->info[0])), GST_VIDEO_INFO_WIDTH (&self->info[0]),
            GST_VIDEO_INFO_HEIGHT (&self->info[0]),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                (&self->info[1])), GST_VIDEO_INFO_WIDTH (&self->info[1]),
            GST_VIDEO_INFO_HEIGHT (&self->info[1])));
    gst_buffer_unref (left_frame);
    gst_buffer_unref (right_frame);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* the right view's content lies the disparity to the left */
  params.initial_x = -(lo + hi) / 2.0;
  params.search_radius = CLAMP ((gint) ceil ((hi - lo) / 2.0) + 1, 1,
      CVCORE_CLT_MAX_SEARCH);
  params.full_scale = self->corr.full_scale;
  ok = ensure_buffers (self, settings->levels)
      && match_stereo (self, left_frame, right_frame, &params);
  gst_buffer_unref (right_frame);
  if (!ok) {
    gst_buffer_unref (left_frame);
    return GST_FLOW_ERROR;
  }
  return finish_frame (self, left_frame, TRUE,
      GST_CUDA_VISION_CORRELATION_STEREO, settings);
}

static GstFlowReturn
gst_cuda_vision_phase_corr_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (agg);
  GstCudaVisionCorrelatorSettings settings;
  GstCudaVisionPhaseCorrMode mode;
  GstAggregatorPad *right;
  gdouble lo, hi;
  GstFlowReturn ret;

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  mode = self->mode;
  right = self->right ? gst_object_ref (self->right) : NULL;
  lo = MIN (self->min_disparity, self->max_disparity);
  hi = MAX (self->min_disparity, self->max_disparity);
  settings.params.max_dy = mode == GST_CUDA_VISION_PHASE_CORR_STEREO ?
      self->max_vertical_disparity : -1.0;
  GST_OBJECT_UNLOCK (self);
  if (mode == GST_CUDA_VISION_PHASE_CORR_STEREO)
    ret = aggregate_stereo (self, right, &settings, lo, hi);
  else
    ret = aggregate_flow (self, right, &settings);
  gst_clear_object (&right);
  return ret;
}

static void
gst_cuda_vision_phase_corr_class_init (GstCudaVisionPhaseCorrClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  cvcore_clt_corr_params defaults;

  cvcore_clt_corr_params_init (&defaults);
  gobject_class->set_property = gst_cuda_vision_phase_corr_set_property;
  gobject_class->get_property = gst_cuda_vision_phase_corr_get_property;
  gobject_class->dispose = gst_cuda_vision_phase_corr_dispose;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      gst_cuda_vision_device_id_param_spec (0));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What each frame is matched with (set before requesting "
          "sink_right)", GST_TYPE_CUDA_VISION_PHASE_CORR_MODE,
          GST_CUDA_VISION_PHASE_CORR_FLOW, ready));
  g_object_class_install_property (gobject_class, PROP_SEARCH_RADIUS,
      g_param_spec_int ("search-radius", "Search radius",
          "Motion searched at each level, in whole pixels each way "
          "(mode=flow): the search reaches this times 2^levels", 1,
          CVCORE_CLT_MAX_SEARCH, defaults.search_radius,
          GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_MIN_DISPARITY,
      "min-disparity", "Minimum disparity",
      "Smallest disparity expected, in "
      "pixels (content further left in the right view is positive; "
      "mode=stereo); the search reaches 7 x 2^levels pixels from the "
      "range's middle", -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT, 0.0,
      GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_install_double (gobject_class, PROP_MAX_DISPARITY,
      "max-disparity", "Maximum disparity",
      "Largest disparity expected, in " "pixels (mode=stereo)",
      -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT, 8.0,
      GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_install_double (gobject_class, PROP_MAX_VERTICAL_DISPARITY,
      "max-vertical-disparity", "Maximum vertical disparity",
      "Farthest up or down, in pixels, that a tile's match may lie "
      "(mode=stereo): rectified views put a point on the same row, so a "
      "tile that matched further away gets confidence 0; mostly its "
      "content is hidden in the other view",
      0.0, CVCORE_CLT_MAX_SHIFT, DEFAULT_MAX_VERTICAL_DISPARITY,
      GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_correlator_install_properties (gobject_class, PROP_CORRELATOR,
      "Draw each tile's match onto a copy of the frame");

  add_pad_template (element_class, "sink", GST_PAD_SINK, GST_PAD_ALWAYS);
  add_pad_template (element_class, "sink_right", GST_PAD_SINK, GST_PAD_REQUEST);
  add_pad_template (element_class, "src", GST_PAD_SRC, GST_PAD_ALWAYS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA phase correlation", "Filter/Analyzer/Video/Hardware",
      "Tile motion (optical flow) or stereo disparity by phase correlation "
      "in the lapped transform domain, in CUDA device memory",
      "gst-cuda-vision developers");

  element_class->set_context = gst_cuda_vision_phase_corr_set_context;
  element_class->release_pad = gst_cuda_vision_phase_corr_release_pad;
  agg_class->create_new_pad = gst_cuda_vision_phase_corr_create_new_pad;
  agg_class->start = gst_cuda_vision_phase_corr_start;
  agg_class->stop = gst_cuda_vision_phase_corr_stop;
  agg_class->sink_event = gst_cuda_vision_phase_corr_sink_event;
  agg_class->sink_query = gst_cuda_vision_phase_corr_sink_query;
  agg_class->src_query = gst_cuda_vision_phase_corr_src_query;
  agg_class->update_src_caps = gst_cuda_vision_phase_corr_update_src_caps;
  agg_class->aggregate = gst_cuda_vision_phase_corr_aggregate;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_PHASE_CORR_MODE, 0);
}

static void
gst_cuda_vision_phase_corr_init (GstCudaVisionPhaseCorr * self)
{
  GstElementClass *klass = GST_ELEMENT_GET_CLASS (self);

  gst_cuda_vision_correlator_settings_init (&self->settings);
  self->max_disparity = 8.0;
  self->max_vertical_disparity = DEFAULT_MAX_VERTICAL_DISPARITY;
  self->previous = -1;
  self->sink = g_object_new (GST_TYPE_AGGREGATOR_PAD, "name", "sink",
      "direction", GST_PAD_SINK, "template",
      gst_element_class_get_pad_template (klass, "sink"), NULL);
  gst_element_add_pad (GST_ELEMENT (self), GST_PAD (self->sink));
}
