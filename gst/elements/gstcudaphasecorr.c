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
 * - `rig`: disparity from a rig of 2 to 8 rectified cameras (parallel
 *   axes, one focal length, frames of one size and format). The `sink`
 *   pad takes view 0 and requested pads `sink_1`, `sink_2`, ... the
 *   others, frames paired by timestamp as in stereo. `rig` gives each
 *   camera's centre in baseline units, x right and y down, for `sink`,
 *   `sink_1`, ... in order (default the square quad `0,0; 1,0; 0,1;
 *   1,1`); `rig-location` names a file of the same, one `x y` per line,
 *   `#` starting a comment, read at start in its place. A point at
 *   disparity D lies at p in view 0 and at p - D (c_v - c_0) in view v.
 *   Every pair of views is correlated, or those `rig-pairs` names (the
 *   quad's sides alone: `0-1; 2-3; 0-2; 1-3`); the pairs' correlations,
 *   each read
 *   along its own baseline, are summed per tile into one before its peak
 *   is sought, so a texture that repeats along one baseline, which
 *   fools a pair, does not fool the rig. dx is each tile's D in pixels
 *   per unit baseline (dy 0); the meta's `views` and `pairs` count the
 *   views matched and the pairs combined. `min-disparity` and
 *   `max-disparity` are per unit baseline here; `fit-radius` fits each
 *   tile's disparity with its neighbours' as in flow, but with no tile
 *   losing trust for its texture's orientation (the baselines see across
 *   any edge); `max-vertical-disparity` is not used; `converge` is
 *   measured along the longest baseline. A view whose pad is released
 *   leaves the rig; with none left view 0's frames pass unmatched.
 *   Built against GStreamer 1.26 or newer with its analytics library,
 *   `tensor-meta=true` also attaches each tile's combined correlation in
 *   2-D (15 x 15 samples along and across the baselines, half a pixel of
 *   the longest baseline apart, centred on the disparity found) as a
 *   #GstTensorMeta of tiles_y x tiles_x x 15 x 15 floats with the id
 *   `cudavision-rig-correlation`, the seed's input to a neural network;
 *   our transfer elements carry it on (GStreamer 1.26's tensor meta does
 *   not copy itself). Cameras that give Bayer mosaics go through
 *   `cudaclt` into GRAY8 (deconvolved or not): their luma, or with
 *   `mosaic-grey=green` their green alone, the cheaper of the two (the
 *   sources' docs/core/clt.md compares them); the sources'
 *   `scripts/rig-workload.sh` runs the seed's quad on the green.
 *
 * Each tile's correlation is weighted by `lowpass`, which counts the
 * frequencies where frames alias less, and tiles whose match falls beyond
 * the frame's edge get confidence 0. A tile takes no more `refinements`
 * once a pass has moved it by less than `converge` pixels each way (0.01
 * by default; 0: every refinement): the next would move it by a fraction
 * of that. Then each tile's match is fitted with those around it
 * (`fit-radius`; 0 keeps each tile's own): tiles of edges or stripes
 * alone lose confidence, and motions vary smoothly but for motion
 * boundaries. docs/core/clt.md says how, docs/benchmarks/clt.md how
 * accurate the result is.
 *
 * The frames of `sink` pass on unchanged, each (in flow mode from the
 * second on) carrying a #GstCudaVisionCorrelationMeta with the tile grid
 * and the mode (header gstcudavisioncorrelationmeta.h, usable without
 * linking anything). With `post-messages=true` the element also posts an
 * element message per frame, `cudaphasecorr`, with fields `timestamp`,
 * `tiles-x`, `tiles-y`, `tile-stride`, `confident-tiles`, `views`,
 * `pairs`, `motion-dx`,
 * `motion-dy` (the frame's motion: the confidence-weighted medians of the
 * tiles' dx and dy over tiles of at least `min-confidence`, which tiles
 * matched to the wrong content do not pull away as they would a mean; the
 * meta's `motion_dx`, `motion_dy`) and `matches`, a #GBytes of tiles_y x
 * tiles_x float triples (dx, dy, confidence). The motion also comes as
 * `mean-dx`, `mean-dy`, its fields' former names, for one more release:
 * read `motion-dx`, `motion-dy`. With
 * `custom-meta=true` (GStreamer 1.20 and newer) the frames carry the
 * same fields in a #GstCustomMeta named
 * `GstCudaVisionCorrelationCustomMeta`, for bindings such as Python
 * that cannot read the C meta (examples/python/flow_numpy.py). With
 * `draw=true` the vectors of confident tiles are drawn onto a copy of the
 * frame, `draw-scale` times their length, from each tile's centre.
 *
 * The element has no thread of its own: a frame of flow is matched and
 * passed on in the thread that brought it, and a stereo pair in the
 * thread of its later view, as soon as that view has come. A view may
 * queue up to 3 frames while it waits for the other's. In a live pipeline
 * the element thus holds no frame, and its LATENCY answer is the later
 * view's upstream latency (docs/benchmarks/latency.md).
 *
 * Only the matches come back from the GPU. The luminance is the green
 * channel of RGB formats, the luma plane of I420 and NV12.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=NV12 ! cudaupload ! cudaphasecorr draw=true draw-scale=6 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 -m videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! cudavisionupload ! cudaphasecorr post-messages=true ! fakesink
 * gst-launch-1.0 cudaphasecorr name=c mode=stereo post-messages=true min-disparity=0 max-disparity=12 ! cudavisiondownload ! fakesink v4l2src device=/dev/video0 ! videoconvert ! video/x-raw,format=GRAY8 ! cudavisionupload ! c.sink v4l2src device=/dev/video1 ! videoconvert ! video/x-raw,format=GRAY8 ! cudavisionupload ! c.sink_right
 * gst-launch-1.0 -m cudaphasecorr name=r mode=rig rig="0,0; 1,0; 0,1; 1,1" post-messages=true ! fakesink videotestsrc num-buffers=30 ! video/x-raw,format=GRAY8 ! cudavisionupload ! r.sink videotestsrc num-buffers=30 ! video/x-raw,format=GRAY8 ! cudavisionupload ! r.sink_1 videotestsrc num-buffers=30 ! video/x-raw,format=GRAY8 ! cudavisionupload ! r.sink_2 videotestsrc num-buffers=30 ! video/x-raw,format=GRAY8 ! cudavisionupload ! r.sink_3
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaphasecorrprivate.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioncudastream.h"
#include "gstcudavisionbasetransform.h"
#include "gstcudavisionformats.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionrig.h"

GST_DEBUG_CATEGORY (gst_cuda_vision_phase_corr_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_phase_corr_debug

#define PHASE_CORR_FORMATS \
    "{ GRAY8, GRAY16_LE, RGBA, BGRA, RGBx, BGRx, I420, NV12 }"
#define PHASE_CORR_CAPS GST_VIDEO_CAPS_MAKE_WITH_FEATURES \
    (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, PHASE_CORR_FORMATS)

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
  PROP_RIG,
  PROP_RIG_LOCATION,
  PROP_RIG_PAIRS,
  PROP_TENSOR_META,
  PROP_CONVERGE,
  PROP_CORRELATOR,              /* first of the shared matching properties */
};


static void
add_pad_template (GstElementClass * element_class, const gchar * name,
    GstPadDirection direction, GstPadPresence presence)
{
  GstCaps *caps = gst_cuda_vision_caps_add_cuda_memory (gst_caps_from_string
      (PHASE_CORR_CAPS));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new (name, direction, presence, caps));
  gst_caps_unref (caps);
}

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionPhaseCorr, gst_cuda_vision_phase_corr,
    GST_TYPE_ELEMENT,
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
    {GST_CUDA_VISION_PHASE_CORR_RIG, "View 0 (sink) with the views of a "
          "camera rig (sink_%u): disparity per unit baseline", "rig"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionPhaseCorrMode",
      values);
}

/* Under the object lock: a rig that does not parse is refused, the
 * cameras kept. */
static void
set_rig (GstCudaVisionPhaseCorr * self, const gchar * text)
{
  gchar *error;

  if (!gst_cuda_vision_rig_parse (text, &self->rig, &error)) {
    GST_WARNING_OBJECT (self, "rig \"%s\" refused: %s", text, error);
    g_free (error);
  }
}

static void
set_rig_pairs (GstCudaVisionPhaseCorr * self, const gchar * text)
{
  gchar *error;

  if (!gst_cuda_vision_rig_parse_pairs (text, &self->rig, &error)) {
    GST_WARNING_OBJECT (self, "rig-pairs \"%s\" refused: %s", text, error);
    g_free (error);
  }
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
  else if (prop_id == PROP_RIG)
    set_rig (self, g_value_get_string (value));
  else if (prop_id == PROP_RIG_LOCATION) {
    g_free (self->rig_location);
    self->rig_location = g_value_dup_string (value);
  } else if (prop_id == PROP_RIG_PAIRS)
    set_rig_pairs (self, g_value_get_string (value));
  else if (prop_id == PROP_TENSOR_META)
    self->tensor_meta = g_value_get_boolean (value);
  else if (prop_id == PROP_CONVERGE)
    self->settings.params.converge = g_value_get_double (value);
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
  else if (prop_id == PROP_RIG)
    g_value_take_string (value, gst_cuda_vision_rig_to_string (&self->rig));
  else if (prop_id == PROP_RIG_LOCATION)
    g_value_set_string (value, self->rig_location);
  else if (prop_id == PROP_RIG_PAIRS)
    g_value_take_string (value,
        gst_cuda_vision_rig_pairs_to_string (&self->rig));
  else if (prop_id == PROP_TENSOR_META)
    g_value_set_boolean (value, self->tensor_meta);
  else if (prop_id == PROP_CONVERGE)
    g_value_set_double (value, self->settings.params.converge);
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

static GstFlowReturn gst_cuda_vision_phase_corr_chain (GstPad * pad,
    GstObject * parent, GstBuffer * frame);

/* A sink pad of view @view, which it keeps. */
static GstPad *
new_sink_pad (GstCudaVisionPhaseCorr * self, GstPadTemplate * templ,
    const gchar * name, guint view)
{
  GstPad *pad = gst_pad_new_from_template (templ, name);

  gst_pad_set_element_private (pad, GUINT_TO_POINTER (view));
  gst_pad_set_chain_function (pad, gst_cuda_vision_phase_corr_chain);
  gst_pad_set_event_function (pad, gst_cuda_vision_phase_corr_sink_event);
  gst_pad_set_query_function (pad, gst_cuda_vision_phase_corr_sink_query);
  return pad;
}

/* Under the object lock: the view of a new pad, 0 when there is none:
 * the right view's, or a rig's view @name (sink_%u) or the first free. */
static guint
free_view (GstCudaVisionPhaseCorr * self, gboolean right, const gchar * name)
{
  guint view = 0;

  if (right)
    return self->view_pads[1] ? 0 : 1;
  if (name && (sscanf (name, "sink_%u", &view) != 1 || view == 0
          || view >= GST_CUDA_VISION_MAX_VIEWS || self->view_pads[view]))
    return 0;
  for (guint v = 1; view == 0 && v < GST_CUDA_VISION_MAX_VIEWS; v++)
    if (self->view_pads[v] == NULL)
      view = v;
  return view;
}

/* The other views' pads: sink_right in stereo mode, sink_%u in rig mode
 * (an idle pad would stall the flow). */
static GstPad *
gst_cuda_vision_phase_corr_request_new_pad (GstElement * element,
    GstPadTemplate * templ, const gchar * req_name, const GstCaps * caps)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (element);
  const gboolean right =
      g_str_equal (GST_PAD_TEMPLATE_NAME_TEMPLATE (templ), "sink_right");
  const GstCudaVisionPhaseCorrMode wanted = right ?
      GST_CUDA_VISION_PHASE_CORR_STEREO : GST_CUDA_VISION_PHASE_CORR_RIG;
  GstPad *pad = NULL;
  gchar *name = NULL;
  guint view = 0;

  GST_OBJECT_LOCK (self);
  if (self->mode != wanted) {
    GST_WARNING_OBJECT (self, "%s is only for mode=%s",
        GST_PAD_TEMPLATE_NAME_TEMPLATE (templ), right ? "stereo" : "rig");
  } else if ((view = free_view (self, right, req_name)) == 0) {
    GST_WARNING_OBJECT (self, "no view for a pad %s", req_name ? req_name :
        GST_PAD_TEMPLATE_NAME_TEMPLATE (templ));
  } else {
    name = right ? g_strdup ("sink_right") : g_strdup_printf ("sink_%u", view);
    pad = self->view_pads[view] = new_sink_pad (self, templ, name, view);
    self->others_seen = TRUE;
  }
  GST_OBJECT_UNLOCK (self);
  g_free (name);
  if (pad) {
    gst_cuda_vision_views_set_present (&self->views, view, TRUE);
    gst_element_add_pad (element, pad);
  }
  return pad;
}

/* Wakes view 0's frame waiting for its pair: with no other view left it
 * passes unmatched. */
static void
gst_cuda_vision_phase_corr_release_pad (GstElement * element, GstPad * pad)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (element);
  const guint view = gst_cuda_vision_phase_corr_view_of_pad (pad);
  gboolean ours;

  GST_OBJECT_LOCK (self);
  ours = view > 0 && self->view_pads[view] == pad;
  if (ours)
    self->view_pads[view] = NULL;
  GST_OBJECT_UNLOCK (self);
  if (ours)
    gst_cuda_vision_views_set_present (&self->views, view, FALSE);
  gst_element_remove_pad (element, pad);
}

static gboolean
rig_pairs_within (const cvcore_clt_rig * rig)
{
  for (gint p = 0; p < rig->pairs; p++)
    if (rig->pair[p][1] >= rig->views)
      return FALSE;
  return TRUE;
}

/* Rig: the cameras of rig-location (read now) or of the rig property,
 * one for every view, and the pairs chosen among them. */
static gboolean
start_rig (GstCudaVisionPhaseCorr * self, guint last_view)
{
  gchar *location, *error = NULL;
  gboolean ok = TRUE;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->rig_location);
  self->active_rig = self->rig;
  GST_OBJECT_UNLOCK (self);
  if (location && *location
      && !gst_cuda_vision_rig_load (location, &self->active_rig, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Cannot read the rig"),
        ("%s", error));
    ok = FALSE;
  } else if (!rig_pairs_within (&self->active_rig)) {
    GST_ELEMENT_ERROR (self, CORE, PAD, ("rig-pairs names a camera the rig "
            "does not have"), ("the rig names %d cameras, from 0",
            self->active_rig.views));
    ok = FALSE;
  } else if (last_view >= (guint) self->active_rig.views) {
    GST_ELEMENT_ERROR (self, CORE, PAD, ("The rig has no camera for "
            "sink_%u", last_view), ("the rig names %d cameras, for sink and "
            "sink_1 to sink_%d", self->active_rig.views,
            self->active_rig.views - 1));
    ok = FALSE;
  }
  g_free (error);
  g_free (location);
  return ok;
}

static gboolean
gst_cuda_vision_phase_corr_start (GstCudaVisionPhaseCorr * self)
{
  GstCudaVisionPhaseCorrMode mode;
  gchar *unlinked = NULL;
  guint last_view = 0;
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  mode = self->mode;
  for (guint v = 1; v < GST_CUDA_VISION_MAX_VIEWS; v++)
    if (self->view_pads[v]) {
      /* view 0 would wait for its pair for ever, saying nothing */
      if (unlinked == NULL && !gst_pad_is_linked (self->view_pads[v]))
        unlinked = gst_pad_get_name (self->view_pads[v]);
      last_view = v;
    }
  self->others_seen = last_view > 0;
  GST_OBJECT_UNLOCK (self);
  if (mode != GST_CUDA_VISION_PHASE_CORR_FLOW && unlinked) {
    GST_ELEMENT_ERROR (self, CORE, PAD,
        ("The %s pad is requested but not linked", unlinked),
        ("matching waits for every view's frame: link each requested pad "
            "before starting, or release it"));
    g_free (unlinked);
    return FALSE;
  }
  g_free (unlinked);
  if (mode == GST_CUDA_VISION_PHASE_CORR_RIG && !start_rig (self, last_view))
    return FALSE;
  if (!gst_cuda_vision_open_stream (GST_ELEMENT (self), device_id,
          &self->device, &self->stream))
    return FALSE;
  memset (self->have_info, 0, sizeof (self->have_info));
  self->previous = -1;
  self->restart = FALSE;
  self->others_missing = FALSE;
  GST_OBJECT_LOCK (self);
  self->seek_seqnum = GST_SEQNUM_INVALID;
  self->seek_flushing_downstream = FALSE;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_vision_views_reset (&self->views, FALSE);
  return TRUE;
}

static void
gst_cuda_vision_phase_corr_stop (GstCudaVisionPhaseCorr * self)
{
  if (self->views.dropped > 0)
    GST_WARNING_OBJECT (self, "%u frames were dropped unpaired",
        self->views.dropped);
  gst_cuda_vision_correlator_free (&self->corr, self->stream);
  gst_cuda_vision_peer_cache_clear (&self->src_peer);
  gst_cuda_vision_close_stream (GST_ELEMENT (self), &self->device,
      &self->stream);
}

/* Views waiting for a pair are woken before the pads are deactivated,
 * which waits for their threads. */
static GstStateChangeReturn
gst_cuda_vision_phase_corr_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && !gst_cuda_vision_phase_corr_start (self))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_cuda_vision_views_reset (&self->views, TRUE);
  ret = GST_ELEMENT_CLASS (gst_cuda_vision_phase_corr_parent_class)
      ->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY
      || (transition == GST_STATE_CHANGE_READY_TO_PAUSED
          && ret == GST_STATE_CHANGE_FAILURE))
    gst_cuda_vision_phase_corr_stop (self);
  return ret;
}

/* A device opened to answer a neighbour's query, for an element that then
 * never started. */
static void
gst_cuda_vision_phase_corr_dispose (GObject * object)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (object);

  gst_cuda_vision_views_reset (&self->views, TRUE);
  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_cuda_vision_phase_corr_parent_class)->dispose (object);
}

static void
gst_cuda_vision_phase_corr_finalize (GObject * object)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (object);

  gst_cuda_vision_views_clear (&self->views);
  g_mutex_clear (&self->output_lock);
  g_free (self->rig_location);
  G_OBJECT_CLASS (gst_cuda_vision_phase_corr_parent_class)->finalize (object);
}

static void
read_settings (GstCudaVisionPhaseCorr * self, MatchSettings * s)
{
  GST_OBJECT_LOCK (self);
  s->correlator = self->settings;
  s->mode = self->mode;
  s->lo = MIN (self->min_disparity, self->max_disparity);
  s->hi = MAX (self->min_disparity, self->max_disparity);
  s->tensor_meta = self->tensor_meta;
  s->correlator.params.max_dy = s->mode == GST_CUDA_VISION_PHASE_CORR_STEREO ?
      self->max_vertical_disparity : -1.0;
  GST_OBJECT_UNLOCK (self);
}

static GstFlowReturn
gst_cuda_vision_phase_corr_chain (GstPad * pad, GstObject * parent,
    GstBuffer * frame)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (parent);
  const guint view = gst_cuda_vision_phase_corr_view_of_pad (pad);
  MatchSettings s;
  GstFlowReturn ret;

  read_settings (self, &s);
  if (s.mode == GST_CUDA_VISION_PHASE_CORR_FLOW && view != 0) {
    /* a view left over from another mode is not used */
    gst_buffer_unref (frame);
    return GST_FLOW_OK;
  }
  if (s.mode != GST_CUDA_VISION_PHASE_CORR_FLOW) {
    ret = gst_cuda_vision_views_queue (&self->views, view, frame);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  g_mutex_lock (&self->output_lock);
  if (s.mode == GST_CUDA_VISION_PHASE_CORR_FLOW)
    ret = gst_cuda_vision_phase_corr_output_flow (self, frame, &s.correlator);
  else
    ret = gst_cuda_vision_phase_corr_output_views (self, &s);
  g_mutex_unlock (&self->output_lock);
  return ret;
}

static void
gst_cuda_vision_phase_corr_class_init (GstCudaVisionPhaseCorrClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  cvcore_clt_corr_params defaults;

  cvcore_clt_corr_params_init (&defaults);
  gobject_class->set_property = gst_cuda_vision_phase_corr_set_property;
  gobject_class->get_property = gst_cuda_vision_phase_corr_get_property;
  gobject_class->dispose = gst_cuda_vision_phase_corr_dispose;
  gobject_class->finalize = gst_cuda_vision_phase_corr_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      gst_cuda_vision_device_id_param_spec (0));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What each frame is matched with (set before requesting "
          "sink_right or sink_%u)", GST_TYPE_CUDA_VISION_PHASE_CORR_MODE,
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
      "mode=stereo), or pixels per unit baseline (mode=rig); the search "
      "reaches 7 x 2^levels pixels (along the longest baseline) from the "
      "range's middle", -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT, 0.0,
      GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_install_double (gobject_class, PROP_MAX_DISPARITY,
      "max-disparity", "Maximum disparity",
      "Largest disparity expected, in pixels (mode=stereo), or pixels "
      "per unit baseline (mode=rig)",
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
  g_object_class_install_property (gobject_class, PROP_RIG,
      g_param_spec_string ("rig", "Rig",
          "mode=rig: each camera's centre in baseline units (x right, y "
          "down), for sink, sink_1, sink_2, ... in order: \"x,y; x,y; ...\", "
          "2 to 8 cameras", GST_CUDA_VISION_RIG_QUAD, ready));
  g_object_class_install_property (gobject_class, PROP_RIG_PAIRS,
      g_param_spec_string ("rig-pairs", "Rig pairs",
          "mode=rig: the pairs of views correlated, \"i-j; i-j; ...\" with "
          "views counted as in rig (sink 0, sink_1 1, ...), or empty for "
          "every pair", "", ready));
  g_object_class_install_property (gobject_class, PROP_RIG_LOCATION,
      g_param_spec_string ("rig-location", "Rig location",
          "mode=rig: a file of the cameras' centres, one \"x y\" per line "
          "('#' comments), read at start in place of rig", NULL, ready));
#if GST_CUDA_VISION_HAVE_TENSOR_META
  g_object_class_install_property (gobject_class, PROP_TENSOR_META,
      g_param_spec_boolean ("tensor-meta", "Tensor meta",
          "mode=rig: attach each tile's combined 2-D correlation, tiles_y x "
          "tiles_x x 15 x 15 32-bit floats, as a GstTensorMeta with the id "
          "cudavision-rig-correlation (for a neural network downstream)",
          FALSE, GST_CUDA_VISION_PARAM_FLAGS));
#endif
  gst_cuda_vision_install_double (gobject_class, PROP_CONVERGE, "converge",
      "Converge", "A tile takes no more refinements once a pass has moved "
      "it by less than this, in pixels (mode=rig: along the longest "
      "baseline; 0: every tile takes every refinement)", 0.0, 1.0,
      defaults.converge, GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_correlator_install_properties (gobject_class, PROP_CORRELATOR,
      "Draw each tile's match onto a copy of the frame");

  add_pad_template (element_class, "sink", GST_PAD_SINK, GST_PAD_ALWAYS);
  add_pad_template (element_class, "sink_right", GST_PAD_SINK, GST_PAD_REQUEST);
  add_pad_template (element_class, "sink_%u", GST_PAD_SINK, GST_PAD_REQUEST);
  add_pad_template (element_class, "src", GST_PAD_SRC, GST_PAD_ALWAYS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA phase correlation", "Filter/Analyzer/Video/Hardware",
      "Tile motion (optical flow) or stereo disparity by phase correlation "
      "in the lapped transform domain, in CUDA device memory",
      "gst-cuda-vision developers");

  element_class->set_context = gst_cuda_vision_phase_corr_set_context;
  element_class->change_state = gst_cuda_vision_phase_corr_change_state;
  element_class->request_new_pad = gst_cuda_vision_phase_corr_request_new_pad;
  element_class->release_pad = gst_cuda_vision_phase_corr_release_pad;

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
  gst_cuda_vision_views_init (&self->views, GST_CUDA_VISION_MAX_VIEWS);
  set_rig (self, GST_CUDA_VISION_RIG_QUAD);
  gst_cuda_vision_views_set_present (&self->views, 0, TRUE);
  g_mutex_init (&self->output_lock);
  self->sink = new_sink_pad (self, gst_element_class_get_pad_template (klass,
          "sink"), "sink", 0);
  self->src = gst_pad_new_from_template (gst_element_class_get_pad_template
      (klass, "src"), "src");
  gst_pad_set_query_function (self->src, gst_cuda_vision_phase_corr_src_query);
  gst_pad_set_event_function (self->src, gst_cuda_vision_phase_corr_src_event);
  gst_element_add_pad (GST_ELEMENT (self), self->sink);
  gst_element_add_pad (GST_ELEMENT (self), self->src);
}
