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
 * SECTION:element-cudatonemap
 * @title: cudatonemap
 *
 * Maps high-dynamic-range video in cudavision device memory to displayable
 * 8-bit sRGB with Reinhard's photographic tone reproduction.
 *
 * The log-average luminance of the frame is computed on the device and
 * scales every pixel's luminance so that the log-average maps to `key`
 * (middle grey, 0.18; `auto-key` estimates it from the frame's dynamic
 * range). `operator=global` then compresses each pixel on its own,
 * L (1 + L / white-point^2) / (1 + L); `operator=local` (the default)
 * dodges and burns: around every pixel it compares box averages of growing
 * size (1 to 39 pixels, `scales` of them), taken from summed-area tables,
 * and compresses the pixel against the largest neighbourhood of nearly
 * even luminance (centre-surround activity under `epsilon`, sharpened by
 * `phi`). Colours keep their ratios to luminance, raised to `saturation`.
 *
 * With `adaptation-time` the log-average follows the scene with that time constant
 * (from the buffers' timestamps), as the eye adapts: a light entering the
 * view does not make the picture jump. A flush starts the adaptation
 * afresh.
 *
 * Input: RGBA64_LE and GRAY16_LE, linear unless the caps' colorimetry says
 * PQ (smpte2084) or HLG (arib-std-b67), 65535 standing for `input-scale`;
 * RGBA for testing; and 10-bit HDR video, P010_10LE and I420_10LE, which
 * must be PQ or HLG coded (other transfers are refused at negotiation).
 * PQ light is counted in units of 100 cd/m^2, HLG light from 0 to 1 at the
 * signal's peak. BT.2020 colours (caps primaries) are converted to BT.709.
 * Output: RGBA or BGRx, sRGB encoded, or NV12 (the same R'G'B' through the
 * BT.709 matrix, limited range).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=night.rgba64 ! rawvideoparse format=rgba64-le width=1920 height=1080 ! cudaupload ! cudatonemap ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA64_LE ! cudavisionupload ! cudatonemap operator=global key=0.36 ! cudavisiondownload ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstcudatonemap.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"
#include "cvtonemap.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_tonemap_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_tonemap_debug

#define TONEMAP_SINK_FORMATS \
    "{ " GST_CUDA_VISION_RGBA64_ITEM \
    "GRAY16_LE, RGBA, P010_10LE, I420_10LE }"
#define TONEMAP_SRC_FORMATS "{ RGBA, BGRx, NV12 }"

enum
{
  PROP_0,
  PROP_OPERATOR,
  PROP_KEY,
  PROP_AUTO_KEY,
  PROP_DELTA,
  PROP_WHITE_POINT,
  PROP_SCALES,
  PROP_PHI,
  PROP_EPSILON,
  PROP_SATURATION,
  PROP_INPUT_SCALE,
  PROP_ADAPTATION_TIME,
};

struct _GstCudaVisionTonemap
{
  GstCudaVisionFilter parent;

  /* properties, under the object lock */
  cvcore_tonemap_params params;

  /* streaming thread only */
  cvcore_tonemapper *tonemapper;
  cvcore_tonemap_source source;
  cvcore_tonemap_output output;
  GstClockTime last_pts;
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionTonemap, gst_cuda_vision_tonemap,
    GST_TYPE_CUDA_VISION_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_tonemap_debug, "cudavisiontonemap",
        0, "cudavision tone mapping"));

#define GST_TYPE_CUDA_VISION_TONEMAP_OPERATOR (gst_cuda_vision_tonemap_operator_get_type ())
static GType
gst_cuda_vision_tonemap_operator_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_TONEMAP_GLOBAL, "Every pixel compressed on its own", "global"},
    {CVCORE_TONEMAP_LOCAL, "Dodging-and-burning against each pixel's "
          "neighbourhood", "local"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionTonemapOperator",
      values);
}

static void
gst_cuda_vision_tonemap_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionTonemap *self = GST_CUDA_VISION_TONEMAP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KEY:
      self->params.key = g_value_get_double (value);
      break;
    case PROP_DELTA:
      self->params.delta = g_value_get_double (value);
      break;
    case PROP_WHITE_POINT:
      self->params.white_point = g_value_get_double (value);
      break;
    case PROP_PHI:
      self->params.phi = g_value_get_double (value);
      break;
    case PROP_EPSILON:
      self->params.epsilon = g_value_get_double (value);
      break;
    case PROP_SATURATION:
      self->params.saturation = g_value_get_double (value);
      break;
    case PROP_INPUT_SCALE:
      self->params.input_scale = g_value_get_double (value);
      break;
    case PROP_ADAPTATION_TIME:
      self->params.adaptation_time = g_value_get_double (value);
      break;
    case PROP_OPERATOR:
      self->params.op = g_value_get_enum (value);
      break;
    case PROP_AUTO_KEY:
      self->params.auto_key = g_value_get_boolean (value);
      break;
    case PROP_SCALES:
      self->params.scales = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_tonemap_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionTonemap *self = GST_CUDA_VISION_TONEMAP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KEY:
      g_value_set_double (value, self->params.key);
      break;
    case PROP_DELTA:
      g_value_set_double (value, self->params.delta);
      break;
    case PROP_WHITE_POINT:
      g_value_set_double (value, self->params.white_point);
      break;
    case PROP_PHI:
      g_value_set_double (value, self->params.phi);
      break;
    case PROP_EPSILON:
      g_value_set_double (value, self->params.epsilon);
      break;
    case PROP_SATURATION:
      g_value_set_double (value, self->params.saturation);
      break;
    case PROP_INPUT_SCALE:
      g_value_set_double (value, self->params.input_scale);
      break;
    case PROP_ADAPTATION_TIME:
      g_value_set_double (value, self->params.adaptation_time);
      break;
    case PROP_OPERATOR:
      g_value_set_enum (value, self->params.op);
      break;
    case PROP_AUTO_KEY:
      g_value_set_boolean (value, self->params.auto_key);
      break;
    case PROP_SCALES:
      g_value_set_int (value, self->params.scales);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_tonemap_release (GstCudaVisionFilter * filter)
{
  GstCudaVisionTonemap *self = GST_CUDA_VISION_TONEMAP (filter);

  if (self->tonemapper == NULL)
    return;
  cvcore_tonemapper_free (self->tonemapper);
  self->tonemapper = NULL;
}

/* What the input caps say about the source; FALSE for combinations we
 * cannot decode. */
static gboolean
source_from_info (GstCudaVisionTonemap * self, const GstVideoInfo * info,
    cvcore_tonemap_source * source)
{
  const GstVideoColorimetry *cm = &info->colorimetry;
  gint offset[GST_VIDEO_MAX_COMPONENTS], scale[GST_VIDEO_MAX_COMPONENTS];
  gdouble kr, kb;

  memset (source, 0, sizeof (*source));
  source->transfer = cm->transfer == GST_VIDEO_TRANSFER_SMPTE2084 ?
      CVCORE_TONEMAP_PQ : cm->transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67 ?
      CVCORE_TONEMAP_HLG : CVCORE_TONEMAP_LINEAR;
  source->primaries = cm->primaries == GST_VIDEO_COLOR_PRIMARIES_BT2020 ?
      CVCORE_TONEMAP_BT2020 : CVCORE_TONEMAP_BT709;
  if (!GST_VIDEO_INFO_IS_YUV (info)) {
    source->layout = CVCORE_TONEMAP_PACKED;
    return TRUE;
  }
  if (source->transfer == CVCORE_TONEMAP_LINEAR) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s input must be PQ (smpte2084) or HLG (arib-std-b67) coded, "
            "as its caps' colorimetry says", GST_VIDEO_INFO_NAME (info)),
        ("colorimetry transfer %d", cm->transfer));
    return FALSE;
  }
  if (!gst_video_color_matrix_get_Kr_Kb (cm->matrix, &kr, &kb)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s input without a Y'CbCr matrix in its colorimetry",
            GST_VIDEO_INFO_NAME (info)), (NULL));
    return FALSE;
  }
  gst_video_color_range_offsets (cm->range, info->finfo, offset, scale);
  source->layout = GST_VIDEO_INFO_N_PLANES (info) == 2 ?
      CVCORE_TONEMAP_YUV420_SEMI : CVCORE_TONEMAP_YUV420;
  source->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
  source->y_offset = offset[0];
  source->y_range = scale[0];
  source->c_offset = offset[1];
  source->c_range = scale[1];
  source->kr = kr;
  source->kb = kb;
  return TRUE;
}

static gboolean
gst_cuda_vision_tonemap_prepare (GstCudaVisionFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaVisionTonemap *self = GST_CUDA_VISION_TONEMAP (filter);
  GstCudaVisionDevice *device = gst_cuda_vision_base_transform_get_device
      (BASE (self));
  cvcore_status status;

  if (device == NULL || !source_from_info (self, in_info, &self->source))
    return FALSE;
  switch (GST_VIDEO_INFO_FORMAT (out_info)) {
    case GST_VIDEO_FORMAT_BGRx:
      self->output = CVCORE_TONEMAP_OUT_BGRX;
      break;
    case GST_VIDEO_FORMAT_NV12:
      self->output = CVCORE_TONEMAP_OUT_NV12;
      break;
    default:
      self->output = CVCORE_TONEMAP_OUT_RGBA;
      break;
  }
  status = cvcore_tonemapper_new (gst_cuda_vision_device_get_core (device),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      &self->tonemapper);
  if (status != CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Cannot prepare tone mapping of %dx%d frames",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info)),
        ("%s", cvcore_last_error ()));
    return FALSE;
  }
  self->last_pts = GST_CLOCK_TIME_NONE;
  GST_DEBUG_OBJECT (self, "%s -> %s, transfer %d, %s primaries",
      GST_VIDEO_INFO_NAME (in_info), GST_VIDEO_INFO_NAME (out_info),
      self->source.transfer, self->source.primaries == CVCORE_TONEMAP_BT2020 ?
      "BT.2020" : "BT.709");
  return TRUE;
}

/* Seconds since the previous frame: from timestamps, else the nominal
 * frame duration, else 0 (the adaptation then holds). */
static gdouble
frame_interval (GstCudaVisionTonemap * self, GstBuffer * buffer,
    const GstVideoInfo * info)
{
  const GstClockTime pts = GST_BUFFER_PTS (buffer);
  gdouble dt = 0.0;

  if (GST_CLOCK_TIME_IS_VALID (pts) && GST_CLOCK_TIME_IS_VALID (self->last_pts)
      && pts > self->last_pts)
    dt = (gdouble) (pts - self->last_pts) / GST_SECOND;
  else if (!GST_CLOCK_TIME_IS_VALID (pts) && GST_VIDEO_INFO_FPS_N (info) > 0)
    dt = (gdouble) GST_VIDEO_INFO_FPS_D (info) / GST_VIDEO_INFO_FPS_N (info);
  self->last_pts = pts;
  return dt;
}

static GstFlowReturn
gst_cuda_vision_tonemap_process (GstCudaVisionFilter * filter,
    cvcore_stream * stream, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaVisionTonemap *self = GST_CUDA_VISION_TONEMAP (filter);
  const GstVideoInfo *in_info = &in_frame->info;
  const cvcore_sample sample = GST_VIDEO_INFO_COMP_DEPTH (in_info, 0) > 8 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  cvcore_tonemap_params params;
  cvcore_tonemap_frame src = { {{0}} }, dst = { {{0}} };

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);
  params.source = self->source;
  params.output = self->output;

  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (in_frame); p++)
    gst_cuda_vision_frame_plane (in_frame, p, sample, &src.plane[p]);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (out_frame); p++)
    gst_cuda_vision_frame_plane (out_frame, p, CVCORE_SAMPLE_U8, &dst.plane[p]);
  if (cvcore_tonemap (stream, self->tonemapper, &src, &dst, &params,
          frame_interval (self, in_frame->buffer, in_info)) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Tone mapping failed");
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_vision_tonemap_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaVisionTonemap *self = GST_CUDA_VISION_TONEMAP (trans);

  /* Serialized: the streaming thread is not inside process(). */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    if (self->tonemapper)
      cvcore_tonemapper_reset (self->tonemapper);
    self->last_pts = GST_CLOCK_TIME_NONE;
  }
  return
      GST_BASE_TRANSFORM_CLASS
      (gst_cuda_vision_tonemap_parent_class)->sink_event (trans, event);
}

static void
gst_cuda_vision_tonemap_class_init (GstCudaVisionTonemapClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);
  cvcore_tonemap_params defaults;

  cvcore_tonemap_params_init (&defaults);
  gobject_class->set_property = gst_cuda_vision_tonemap_set_property;
  gobject_class->get_property = gst_cuda_vision_tonemap_get_property;

  g_object_class_install_property (gobject_class, PROP_OPERATOR,
      g_param_spec_enum ("operator", "Operator",
          "Global compression, or local dodging-and-burning",
          GST_TYPE_CUDA_VISION_TONEMAP_OPERATOR, defaults.op,
          GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_KEY, "key", "Key",
      "Exposure: the value the frame's log-average luminance maps to "
      "(middle grey 0.18; higher for brighter pictures)", 0.001, 10.0,
      defaults.key, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_AUTO_KEY,
      g_param_spec_boolean ("auto-key", "Automatic key",
          "Scale the key by Reinhard's estimate from the frame's dynamic "
          "range (darker frames get a lower key, brighter a higher)",
          defaults.auto_key, GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_DELTA, "delta", "Delta",
      "Offset inside the log-average, so that black pixels count "
      "(in input-scale units)", 1e-12, 1.0, defaults.delta,
      GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_install_double (gobject_class, PROP_WHITE_POINT,
      "white-point", "White point",
      "Global operator: smallest scaled luminance shown as "
      "white (inf: none)", 0.01, INFINITY, defaults.white_point,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_SCALES,
      g_param_spec_int ("scales", "Scales",
          "Local operator: boxes in the pyramid (edges 1, 3, 5, 7, 11, 17, "
          "25, 39 pixels)", 2, CVCORE_TONEMAP_MAX_SCALES, defaults.scales,
          GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_PHI, "phi", "Phi",
      "Local operator: sharpening; higher values find larger "
      "neighbourhoods (and halos)", 0.0, 30.0, defaults.phi,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_EPSILON, "epsilon",
      "Epsilon",
      "Local operator: activity threshold that ends a neighbourhood "
      "(0 gives the global curve)", 0.0, 1.0, defaults.epsilon,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_SATURATION, "saturation",
      "Saturation",
      "Exponent of the colours' ratios to luminance (0 grey, 1 as in the "
      "scene; 0.6-0.8 suits photographs)", 0.0, 2.0, defaults.saturation,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_INPUT_SCALE,
      "input-scale", "Input scale",
      "Linear light a full-scale input sample stands for", 1e-6, 1e9,
      defaults.input_scale, GST_CUDA_VISION_PARAM_FLAGS);
  gst_cuda_vision_install_double (gobject_class, PROP_ADAPTATION_TIME,
      "adaptation-time", "Adaptation time",
      "Time constant, in seconds, with which the log-average "
      "follows the scene (0: each frame's own)", 0.0, 3600.0,
      defaults.adaptation_time, GST_CUDA_VISION_PARAM_FLAGS);

  gst_cuda_vision_filter_class_add_pad_templates_full (filter_class,
      TONEMAP_SINK_FORMATS, TONEMAP_SRC_FORMATS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA tone mapping", "Filter/Effect/Converter/Video/Hardware",
      "Maps high-dynamic-range video in CUDA device memory to 8-bit sRGB "
      "with Reinhard's photographic operator, global or local",
      "gst-cuda-vision developers");

  trans_class->transform_caps = gst_cuda_vision_filter_convert_caps;
  trans_class->sink_event = gst_cuda_vision_tonemap_sink_event;
  filter_class->prepare = gst_cuda_vision_tonemap_prepare;
  filter_class->release = gst_cuda_vision_tonemap_release;
  filter_class->process = gst_cuda_vision_tonemap_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_TONEMAP_OPERATOR, 0);
}

static void
gst_cuda_vision_tonemap_init (GstCudaVisionTonemap * self)
{
  cvcore_tonemap_params_init (&self->params);
  self->last_pts = GST_CLOCK_TIME_NONE;
}
