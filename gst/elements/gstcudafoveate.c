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
 * SECTION:element-cudafoveate
 * @title: cudafoveate
 *
 * Foveates each frame in cudavision device memory: pixels keep full detail
 * at the fixation point and are blurred more the farther they lie from it,
 * as the human retina resolves less detail with eccentricity.
 *
 * The blur follows Geisler and Perry's contrast-threshold model: at
 * eccentricity e (degrees) the finest resolvable frequency is
 * e2 / (alpha (e + e2)) ln (1 / ct0) cycles per degree, capped at
 * `max-frequency`; the Gaussian that cuts off there, times `strength`,
 * blurs the pixel. Eccentricity grows linearly with the distance from the
 * fixation, the frame's half-diagonal being `corner-eccentricity` degrees.
 * Where the cut-off reaches the maximum the pixels are copied (the fovea).
 *
 * The frame is processed in square fragments of `fragment-size` pixels,
 * shifted so that one fragment is centred on the fixation; each fragment
 * takes the Gaussian its centre calls for (block-wise foveation). Smaller
 * fragments give rounder, finer steps between blur levels and cost more.
 * With `mode=smooth` every pixel instead takes the blur of its own
 * eccentricity, so no fragment edges show.
 *
 * Smooth mode and strong blur (block-wise filters wider than a radius of
 * 120 pixels) render through a blur stack: the frame blurred at sigma
 * steps of 2^(1/5), the wide blurs at reduced resolution, each pixel
 * mixing the two levels around its sigma. Its cost does not grow with the
 * blur, so any strength, fixation and mode runs at about the same speed;
 * narrower block-wise filters are faster blurred fragment by fragment.
 * Chroma planes of I420 and NV12 use half the sigma, in their own pixels.
 * Alpha passes through.
 *
 * `blur-map` replaces the model's falloff by any blur over the visual
 * field: a grayscale picture (black sharp, white the model's blur at
 * `corner-eccentricity`, sigma in proportion) stretched to the frame and
 * centred on the fixation, so that asymmetric retinas (an animal's ganglion
 * cell density, a scotoma) can be rendered. Each fragment takes the level
 * under its centre; in smooth mode each pixel takes its own level,
 * interpolated between the map's cells.
 *
 * `fixation-x` and `fixation-y` are controllable, so a #GstController or
 * the application can move the gaze every frame; with `follow-pointer` the
 * fixation follows mouse moves reported by a video sink's window.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudaupload ! cudafoveate strength=2 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=RGBA ! cudaupload ! cudafoveate follow-pointer=true fragment-size=16 ! cudadownload ! videoconvert ! xvimagesink
 * gst-launch-1.0 videotestsrc pattern=smpte ! cudaupload ! cudafoveate blur-map=retina.png fragment-size=16 ! cudadownload ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/video/navigation.h>
#include <math.h>

#include "gstcudafoveate.h"
#include "gstcudafoveatemap.h"
#include "gstcudavisionutils.h"
#include "cvfoveate.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_foveate_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_foveate_debug

#define FOVEATE_FORMATS "{ RGBA, BGRA, RGBx, BGRx, GRAY8, I420, NV12 }"

enum
{
  PROP_0,
  PROP_FIXATION_X,
  PROP_FIXATION_Y,
  PROP_FOLLOW_POINTER,
  PROP_FRAGMENT_SIZE,
  PROP_MODE,
  PROP_STRENGTH,
  PROP_CORNER_ECCENTRICITY,
  PROP_CT0,
  PROP_ALPHA,
  PROP_E2,
  PROP_MAX_FREQUENCY,
  PROP_BLUR_MAP,
};

#define DEFAULT_FIXATION 0.5
#define FIXATION_MIN -1.0
#define FIXATION_MAX 2.0
#define DEFAULT_FRAGMENT_SIZE 32

struct _GstCudaVisionFoveate
{
  GstCudaVisionFilter parent;

  /* properties, under the object lock */
  gdouble fixation_x, fixation_y;
  gboolean follow_pointer;
  gint fragment_size;
  gboolean smooth;
  cvcore_foveate_model model;
  gchar *blur_map_location;
  gboolean map_changed;
  gboolean plan_stale;

  /* streaming thread only: the blur map's levels on the device */
  cvcore_foveate_map map;
  void *map_levels;

  /* streaming thread only: plans for full-size planes and for subsampled
   * chroma planes (on the heap: a plan's bank is larger than an instance
   * may be) */
  cvcore_foveate_plan *plan;
  cvcore_foveate_plan *chroma_plan;
  guint channel_mask[GST_VIDEO_MAX_PLANES];
  /* streaming thread only: a frame went through since start */
  gboolean streaming;
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionFoveate, gst_cuda_vision_foveate,
    GST_TYPE_CUDA_VISION_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_foveate_debug, "cudavisionfoveate",
        0, "cudavision foveation"));

#define GST_TYPE_CUDA_VISION_FOVEATE_MODE (gst_cuda_vision_foveate_mode_get_type ())
static GType
gst_cuda_vision_foveate_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {0, "One filter per fragment, as published", "blockwise"},
    {1, "Every pixel takes the blur of its own eccentricity (no fragment "
          "edges)", "smooth"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionFoveateMode", values);
}

static void
gst_cuda_vision_foveate_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_STRENGTH:
      self->model.strength = g_value_get_double (value);
      break;
    case PROP_CORNER_ECCENTRICITY:
      self->model.corner_eccentricity = g_value_get_double (value);
      break;
    case PROP_CT0:
      self->model.ct0 = g_value_get_double (value);
      break;
    case PROP_ALPHA:
      self->model.alpha = g_value_get_double (value);
      break;
    case PROP_E2:
      self->model.e2 = g_value_get_double (value);
      break;
    case PROP_MAX_FREQUENCY:
      self->model.max_frequency = g_value_get_double (value);
      break;
    case PROP_FIXATION_X:
      self->fixation_x = g_value_get_double (value);
      break;
    case PROP_FIXATION_Y:
      self->fixation_y = g_value_get_double (value);
      break;
    case PROP_FOLLOW_POINTER:
      self->follow_pointer = g_value_get_boolean (value);
      break;
    case PROP_MODE:
      self->smooth = g_value_get_enum (value) == 1;
      break;
    case PROP_BLUR_MAP:
      g_free (self->blur_map_location);
      self->blur_map_location = g_value_dup_string (value);
      self->map_changed = TRUE;
      break;
    case PROP_FRAGMENT_SIZE:{
      const gint size = g_value_get_int (value);

      /* 8, 16 or 32: anything else rounds to the nearest */
      self->fragment_size = size < 12 ? 8 : size < 24 ? 16 : 32;
      if (self->fragment_size != size)
        GST_WARNING_OBJECT (self, "fragment-size %d taken as %d", size,
            self->fragment_size);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  self->plan_stale = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_foveate_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_STRENGTH:
      g_value_set_double (value, self->model.strength);
      break;
    case PROP_CORNER_ECCENTRICITY:
      g_value_set_double (value, self->model.corner_eccentricity);
      break;
    case PROP_CT0:
      g_value_set_double (value, self->model.ct0);
      break;
    case PROP_ALPHA:
      g_value_set_double (value, self->model.alpha);
      break;
    case PROP_E2:
      g_value_set_double (value, self->model.e2);
      break;
    case PROP_MAX_FREQUENCY:
      g_value_set_double (value, self->model.max_frequency);
      break;
    case PROP_FIXATION_X:
      g_value_set_double (value, self->fixation_x);
      break;
    case PROP_FIXATION_Y:
      g_value_set_double (value, self->fixation_y);
      break;
    case PROP_FOLLOW_POINTER:
      g_value_set_boolean (value, self->follow_pointer);
      break;
    case PROP_FRAGMENT_SIZE:
      g_value_set_int (value, self->fragment_size);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->smooth ? 1 : 0);
      break;
    case PROP_BLUR_MAP:
      g_value_set_string (value, self->blur_map_location);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
free_map (GstCudaVisionFoveate * self)
{
  GstCudaVisionDevice *device = gst_cuda_vision_base_transform_get_device
      (BASE (self));

  if (self->map_levels == NULL)
    return;
  /* Queued frames may still read it. */
  gst_cuda_vision_base_transform_finish_work (BASE (self));
  cvcore_device_free (gst_cuda_vision_device_get_core (device),
      self->map_levels);
  self->map_levels = NULL;
  self->map.levels = NULL;
}

/* Loads the blur map when its location changed and puts it on the
 * device. */
static gboolean
ensure_map (GstCudaVisionFoveate * self, cvcore_stream * stream)
{
  cvcore_device *core = cvcore_stream_device (stream);
  gchar *location;
  GError *error = NULL;
  guint8 *levels;
  gint width, height;
  size_t pitch;

  GST_OBJECT_LOCK (self);
  if (!self->map_changed) {
    GST_OBJECT_UNLOCK (self);
    return TRUE;
  }
  self->map_changed = FALSE;
  self->plan_stale = TRUE;
  location = g_strdup (self->blur_map_location);
  GST_OBJECT_UNLOCK (self);

  if (location == NULL) {
    free_map (self);
    return TRUE;
  }
  levels = gst_cuda_vision_foveate_map_load (location, &width, &height, &error);
  if (levels == NULL) {
    /* mid-stream, a bad file does not end the stream: the map or model in
     * use stays */
    if (self->streaming)
      GST_ELEMENT_WARNING (self, RESOURCE, OPEN_READ,
          ("Cannot use the blur map \"%s\": keeping the previous blur",
              location), ("%s", error->message));
    else
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
          ("Cannot use the blur map \"%s\"", location), ("%s", error->message));
    g_clear_error (&error);
    g_free (location);
    return self->streaming;
  }
  free_map (self);
  if (cvcore_plane_alloc (core, width, height, &self->map_levels, &pitch)
      != CVCORE_OK || cvcore_copy_2d_async (stream, self->map_levels, pitch,
          levels, width, width, height, CVCORE_COPY_HOST_TO_DEVICE) !=
      CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot put the blur map \"%s\" on the device", location), ("%s",
            cvcore_last_error ()));
    g_free (levels);
    g_free (location);
    return FALSE;
  }
  self->map.levels = self->map_levels;
  self->map.pitch = pitch;
  self->map.width = width;
  self->map.height = height;
  cvcore_foveate_map_scan (&self->map, levels, width);
  GST_DEBUG_OBJECT (self, "blur map %s: %dx%d", location, width, height);
  /* pageable host memory: the copy has read it once it returns */
  g_free (levels);
  g_free (location);
  return TRUE;
}

/* Plans a plane of @width x @height, with the blur map when there is one. */
static cvcore_status
plan_plane (GstCudaVisionFoveate * self, cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, gint width, gint height, gint fragment,
    gdouble fix_x, gdouble fix_y)
{
  if (self->map.levels)
    return cvcore_foveate_plan_init_map (plan, model, &self->map, width, height,
        fragment, fix_x, fix_y);
  return cvcore_foveate_plan_init (plan, model, width, height, fragment, fix_x,
      fix_y);
}

/* Remakes the plans when a property or the fixation changed. */
static gboolean
ensure_plans (GstCudaVisionFoveate * self)
{
  const GstVideoInfo *info = gst_cuda_vision_base_transform_get_in_info (BASE
      (self));
  const gint chroma_w = GST_VIDEO_INFO_COMP_WIDTH (info, 1);
  const gint chroma_h = GST_VIDEO_INFO_COMP_HEIGHT (info, 1);
  cvcore_foveate_model model, chroma_model;
  gdouble fix_x, fix_y;
  gint fragment;
  gboolean smooth;

  GST_OBJECT_LOCK (self);
  if (!self->plan_stale) {
    GST_OBJECT_UNLOCK (self);
    return TRUE;
  }
  model = self->model;
  fix_x = self->fixation_x;
  fix_y = self->fixation_y;
  fragment = self->fragment_size;
  smooth = self->smooth;
  self->plan_stale = FALSE;
  GST_OBJECT_UNLOCK (self);

  if (plan_plane (self, self->plan, &model, GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info), fragment, fix_x, fix_y) != CVCORE_OK)
    goto invalid;
  /* Subsampled chroma: the same field in half the pixels, so half the
   * sigma and half the fragment (at least 8). */
  if (GST_VIDEO_INFO_IS_YUV (info)) {
    chroma_model = model;
    chroma_model.strength *= (gdouble) chroma_w / GST_VIDEO_INFO_WIDTH (info);
    if (plan_plane (self, self->chroma_plan, &chroma_model, chroma_w,
            chroma_h, MAX (8, fragment / 2), fix_x, fix_y) != CVCORE_OK)
      goto invalid;
  }
  self->plan->smooth = self->chroma_plan->smooth = smooth;
  GST_LOG_OBJECT (self, "fixation (%g, %g): %d filters (sigma step %g), "
      "largest radius %d", fix_x, fix_y, self->plan->n_filters,
      self->plan->sigma_ratio, self->plan->max_radius);
  return TRUE;

invalid:
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("Foveation settings out of reach"), ("%s", cvcore_last_error ()));
  return FALSE;
}

static gboolean
gst_cuda_vision_foveate_prepare (GstCudaVisionFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (filter);

  gst_cuda_vision_channel_masks (in_info, FALSE, self->channel_mask);
  GST_OBJECT_LOCK (self);
  self->plan_stale = TRUE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static GstFlowReturn
gst_cuda_vision_foveate_process (GstCudaVisionFilter * filter,
    cvcore_stream * stream, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (filter);
  const guint n_planes = GST_VIDEO_FRAME_N_PLANES (in_frame);
  cvcore_image src[GST_VIDEO_MAX_PLANES], dst[GST_VIDEO_MAX_PLANES];
  const cvcore_foveate_plan *plans[GST_VIDEO_MAX_PLANES];

  if (!ensure_map (self, stream) || !ensure_plans (self))
    return GST_FLOW_ERROR;

  for (guint p = 0; p < n_planes; p++) {
    gst_cuda_vision_frame_plane (in_frame, p, CVCORE_SAMPLE_U8, &src[p]);
    gst_cuda_vision_frame_plane (out_frame, p, CVCORE_SAMPLE_U8, &dst[p]);
    plans[p] = p > 0 && GST_VIDEO_INFO_IS_YUV (&in_frame->info) ?
        self->chroma_plan : self->plan;
  }
  /* the planes in one call: NV12's two share a launch */
  if (cvcore_foveate_planes (stream, n_planes, src, dst, self->channel_mask,
          plans) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Foveation failed");
  self->streaming = TRUE;
  return GST_FLOW_OK;
}

/* With follow-pointer, mouse moves over the sink's window move the
 * fixation; the events go on upstream either way. */
static gboolean
gst_cuda_vision_foveate_src_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (trans);
  const GstVideoInfo *info = gst_cuda_vision_base_transform_get_in_info (BASE
      (self));
  gdouble x, y;

  if (GST_EVENT_TYPE (event) == GST_EVENT_NAVIGATION
      && gst_navigation_event_get_type (event) ==
      GST_NAVIGATION_EVENT_MOUSE_MOVE
      && gst_navigation_event_parse_mouse_move_event (event, &x, &y)
      && GST_VIDEO_INFO_WIDTH (info) > 0 && GST_VIDEO_INFO_HEIGHT (info) > 0) {
    GST_OBJECT_LOCK (self);
    /* a pointer far outside the window, or not a number, stays within
     * the properties' range */
    if (self->follow_pointer && isfinite (x) && isfinite (y)) {
      self->fixation_x = CLAMP (x / GST_VIDEO_INFO_WIDTH (info),
          FIXATION_MIN, FIXATION_MAX);
      self->fixation_y = CLAMP (y / GST_VIDEO_INFO_HEIGHT (info),
          FIXATION_MIN, FIXATION_MAX);
      self->plan_stale = TRUE;
    }
    GST_OBJECT_UNLOCK (self);
  }
  return
      GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_foveate_parent_class)->src_event
      (trans, event);
}

static gboolean
gst_cuda_vision_foveate_stop (GstBaseTransform * trans)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (trans);

  free_map (self);
  self->streaming = FALSE;
  GST_OBJECT_LOCK (self);
  self->map_changed = TRUE;     /* loaded again for the next device */
  GST_OBJECT_UNLOCK (self);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_foveate_parent_class)->stop
      (trans);
}

static void
gst_cuda_vision_foveate_finalize (GObject * object)
{
  GstCudaVisionFoveate *self = GST_CUDA_VISION_FOVEATE (object);

  g_free (self->blur_map_location);
  g_free (self->plan);
  g_free (self->chroma_plan);
  G_OBJECT_CLASS (gst_cuda_vision_foveate_parent_class)->finalize (object);
}

static void
gst_cuda_vision_foveate_class_init (GstCudaVisionFoveateClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);
  cvcore_foveate_model defaults;

  cvcore_foveate_model_init (&defaults);
  gobject_class->set_property = gst_cuda_vision_foveate_set_property;
  gobject_class->get_property = gst_cuda_vision_foveate_get_property;
  gobject_class->finalize = gst_cuda_vision_foveate_finalize;

  gst_cuda_vision_install_double (gobject_class, PROP_FIXATION_X,
      "fixation-x", "Fixation X",
      "Horizontal position of the fixation point, as a fraction of the "
      "width (0 left edge, 1 right edge; outside the frame allowed)",
      FIXATION_MIN, FIXATION_MAX, DEFAULT_FIXATION,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_FIXATION_Y, "fixation-y",
      "Fixation Y",
      "Vertical position of the fixation point, as a fraction "
      "of the height (0 top, 1 bottom; outside the frame allowed)",
      FIXATION_MIN, FIXATION_MAX, DEFAULT_FIXATION,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_FOLLOW_POINTER,
      g_param_spec_boolean ("follow-pointer", "Follow pointer",
          "Move the fixation to the mouse pointer reported by downstream "
          "navigation events (a video sink's window)", FALSE,
          GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "Block-wise (one blur per fragment) or smooth (every pixel its own "
          "blur)", GST_TYPE_CUDA_VISION_FOVEATE_MODE, 0,
          GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_FRAGMENT_SIZE,
      g_param_spec_int ("fragment-size", "Fragment size",
          "Side of the square fragments, in pixels: 8, 16 or 32 (other values "
          "round to the nearest)", 8, 32, DEFAULT_FRAGMENT_SIZE,
          GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_STRENGTH, "strength",
      "Strength", "Multiplier of every Gaussian's sigma", 0.05, 10.0,
      defaults.strength, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_CORNER_ECCENTRICITY,
      "corner-eccentricity", "Corner eccentricity",
      "Retinal eccentricity, in degrees, of a point half a frame diagonal "
      "from the fixation (the field of view it maps to)", 0.0, 180.0,
      defaults.corner_eccentricity, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_CT0, "ct0", "CT0",
      "Minimum contrast threshold of the model", 1e-4, 0.5, defaults.ct0,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_ALPHA, "alpha", "Alpha",
      "Spatial frequency decay constant of the model", 0.001, 10.0,
      defaults.alpha, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_E2, "e2", "E2",
      "Half-resolution eccentricity of the model, in degrees", 0.01, 100.0,
      defaults.e2, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_MAX_FREQUENCY,
      "max-frequency", "Maximum frequency",
      "Highest frequency the fovea resolves, in cycles "
      "per degree; what the frame's Nyquist frequency stands for", 1.0, 200.0,
      defaults.max_frequency, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_BLUR_MAP,
      g_param_spec_string ("blur-map", "Blur map",
          "Grayscale picture of the blur wanted over the visual field, black "
          "sharp to white the model's blur at corner-eccentricity, stretched "
          "to the frame and centred on the fixation; replaces the model's "
          "falloff. PGM, PFM (floats 0..1) or any picture GStreamer decodes; "
          "a regular file of at most 64 MiB", NULL,
          GST_CUDA_VISION_PARAM_FLAGS));

  gst_cuda_vision_filter_class_add_pad_templates (filter_class,
      FOVEATE_FORMATS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA foveation", "Filter/Effect/Video/Hardware",
      "Blurs video frames in CUDA device memory with distance from a "
      "fixation point, as the retina resolves less detail off-centre",
      "gst-cuda-vision developers");

  trans_class->src_event = gst_cuda_vision_foveate_src_event;
  trans_class->stop = gst_cuda_vision_foveate_stop;
  filter_class->prepare = gst_cuda_vision_foveate_prepare;
  filter_class->process = gst_cuda_vision_foveate_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_FOVEATE_MODE, 0);
}

static void
gst_cuda_vision_foveate_init (GstCudaVisionFoveate * self)
{
  cvcore_foveate_model_init (&self->model);
  self->fixation_x = self->fixation_y = DEFAULT_FIXATION;
  self->fragment_size = DEFAULT_FRAGMENT_SIZE;
  self->plan_stale = TRUE;
  self->plan = g_new0 (cvcore_foveate_plan, 1);
  self->chroma_plan = g_new0 (cvcore_foveate_plan, 1);
}
