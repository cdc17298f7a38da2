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
 * SECTION:element-cudagabor
 * @title: cudagabor
 *
 * Gabor filtering of the luminance of each frame in cudavision device
 * memory: the response of complex Gabor filters of Gaussian envelope
 * `sigma`, `wavelength` (pixels per cycle) and `orientation` (degrees), or
 * of a bank of `orientations` evenly spread over 180 degrees.
 *
 * `method=recursive` (the default) runs Young, van Vliet and van Ginkel's
 * recursive Gabor filter: per direction a third-order causal and
 * anticausal complex recursion, so the cost per pixel does not grow with
 * sigma. `method=fir` convolves with the sampled filter (truncated at 4
 * sigma), exact but slower for large sigma. The response to flat regions
 * is removed (a flat image answers zero).
 *
 * `output`: `magnitude` (the energy over the bank), `real`, `imaginary` or
 * `phase` of the strongest orientation (real and imaginary centred on
 * mid-grey), or `max-orientation`, the index of the strongest orientation
 * (k of n written as k / n of full scale). `gain` scales responses into
 * the output's range (1.0 maps a response of 1.0, a full-scale grating's
 * half amplitude being 0.5, to full scale). On RGBA output the four
 * channels carry the magnitudes of the first four orientations.
 *
 * Input: RGBA, BGRx (BT.709 luminance), GRAY8, GRAY16_LE, I420, NV12 (the
 * luma plane); output GRAY8, GRAY16_LE or RGBA.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=zone-plate kx2=20 ky2=20 ! cudaupload ! cudagabor sigma=4 wavelength=8 orientation=45 gain=4 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=NV12 ! cudaupload ! cudagabor orientations=4 sigma=3 wavelength=6 ! cudadownload ! video/x-raw,format=RGBA ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudagabor.h"
#include "gstcudavisionutils.h"
#include "cvgabor.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_gabor_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_gabor_debug

#define GABOR_SINK_FORMATS "{ GRAY8, GRAY16_LE, RGBA, BGRx, I420, NV12 }"
#define GABOR_SRC_FORMATS "{ GRAY8, GRAY16_LE, RGBA }"

enum
{
  PROP_0,
  PROP_SIGMA,
  PROP_WAVELENGTH,
  PROP_ORIENTATION,
  PROP_ORIENTATIONS,
  PROP_METHOD,
  PROP_OUTPUT,
  PROP_GAIN,
};

struct _GstCudaVisionGabor
{
  GstCudaVisionFilter parent;

  /* properties, under the object lock */
  cvcore_gabor_params params;

  /* streaming thread only */
  cvcore_gabor_scratch *scratch;
  gint scratch_orientations;
  gdouble weight[4];
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionGabor, gst_cuda_vision_gabor,
    GST_TYPE_CUDA_VISION_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_gabor_debug, "cudavisiongabor", 0,
        "cudavision Gabor filtering"));

#define GST_TYPE_CUDA_VISION_GABOR_METHOD (gst_cuda_vision_gabor_method_get_type ())
static GType
gst_cuda_vision_gabor_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_GABOR_RECURSIVE, "Recursive filter, cost independent of sigma",
        "recursive"},
    {CVCORE_GABOR_FIR, "Convolution with the sampled filter", "fir"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionGaborMethod", values);
}

#define GST_TYPE_CUDA_VISION_GABOR_OUTPUT (gst_cuda_vision_gabor_output_get_type ())
static GType
gst_cuda_vision_gabor_output_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_GABOR_MAGNITUDE, "Magnitude (energy over the bank)",
        "magnitude"},
    {CVCORE_GABOR_REAL, "Real part of the strongest orientation", "real"},
    {CVCORE_GABOR_IMAGINARY, "Imaginary part of the strongest orientation",
        "imaginary"},
    {CVCORE_GABOR_PHASE, "Phase of the strongest orientation", "phase"},
    {CVCORE_GABOR_MAX_ORIENTATION, "Index of the strongest orientation",
        "max-orientation"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionGaborOutput", values);
}

static void
gst_cuda_vision_gabor_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionGabor *self = GST_CUDA_VISION_GABOR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      self->params.sigma = g_value_get_double (value);
      break;
    case PROP_WAVELENGTH:
      self->params.wavelength = g_value_get_double (value);
      break;
    case PROP_ORIENTATION:
      self->params.orientation = g_value_get_double (value);
      break;
    case PROP_GAIN:
      self->params.gain = g_value_get_double (value);
      break;
    case PROP_ORIENTATIONS:
      self->params.orientations = g_value_get_int (value);
      break;
    case PROP_METHOD:
      self->params.method = g_value_get_enum (value);
      break;
    case PROP_OUTPUT:
      self->params.output = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_gabor_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionGabor *self = GST_CUDA_VISION_GABOR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, self->params.sigma);
      break;
    case PROP_WAVELENGTH:
      g_value_set_double (value, self->params.wavelength);
      break;
    case PROP_ORIENTATION:
      g_value_set_double (value, self->params.orientation);
      break;
    case PROP_GAIN:
      g_value_set_double (value, self->params.gain);
      break;
    case PROP_ORIENTATIONS:
      g_value_set_int (value, self->params.orientations);
      break;
    case PROP_METHOD:
      g_value_set_enum (value, self->params.method);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->params.output);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_gabor_release (GstCudaVisionFilter * filter)
{
  GstCudaVisionGabor *self = GST_CUDA_VISION_GABOR (filter);

  if (self->scratch == NULL)
    return;
  cvcore_gabor_scratch_free (self->scratch);
  self->scratch = NULL;
}

/* Scratch for @orientations at the negotiated size. */
static gboolean
ensure_scratch (GstCudaVisionGabor * self, gint orientations)
{
  const GstVideoInfo *info = gst_cuda_vision_base_transform_get_in_info (BASE
      (self));
  GstCudaVisionDevice *device = gst_cuda_vision_base_transform_get_device
      (BASE (self));

  if (self->scratch && self->scratch_orientations >= orientations)
    return TRUE;
  gst_cuda_vision_filter_release (GST_CUDA_VISION_FILTER (self));
  if (cvcore_gabor_scratch_new (gst_cuda_vision_device_get_core (device),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          orientations, &self->scratch) != CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate Gabor planes for %d orientations of %dx%d",
            orientations, GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info)), ("%s", cvcore_last_error ()));
    return FALSE;
  }
  self->scratch_orientations = orientations;
  return TRUE;
}

static gboolean
gst_cuda_vision_gabor_prepare (GstCudaVisionFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaVisionGabor *self = GST_CUDA_VISION_GABOR (filter);
  static const gdouble bt709[3] = { 0.2126, 0.7152, 0.0722 };

  memset (self->weight, 0, sizeof (self->weight));
  if (GST_VIDEO_INFO_IS_RGB (in_info)) {
    /* weights in the order the channels are interleaved */
    for (gint c = 0; c < 3; c++)
      self->weight[GST_VIDEO_INFO_COMP_POFFSET (in_info, c)] = bt709[c];
  } else {
    self->weight[0] = 1.0;      /* grey, or the luma plane */
  }
  return TRUE;
}

static GstFlowReturn
gst_cuda_vision_gabor_process (GstCudaVisionFilter * filter,
    cvcore_stream * stream, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaVisionGabor *self = GST_CUDA_VISION_GABOR (filter);
  const gboolean wide_in = GST_VIDEO_FRAME_COMP_DEPTH (in_frame, 0) > 8;
  cvcore_gabor_params params;
  cvcore_image src, dst;

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);
  memcpy (params.weight, self->weight, sizeof (params.weight));
  if (!ensure_scratch (self, params.orientations))
    return GST_FLOW_ERROR;

  gst_cuda_vision_frame_plane (in_frame, 0, wide_in ? CVCORE_SAMPLE_U16 :
      CVCORE_SAMPLE_U8, &src);
  /* the luma plane of Y'CbCr: one sample per pixel */
  if (GST_VIDEO_INFO_IS_YUV (&in_frame->info))
    src.channels = 1;
  gst_cuda_vision_frame_plane (out_frame, 0,
      GST_VIDEO_FRAME_COMP_DEPTH (out_frame, 0) > 8 ? CVCORE_SAMPLE_U16 :
      CVCORE_SAMPLE_U8, &dst);
  if (cvcore_gabor (stream, self->scratch, &src, &dst, &params) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Gabor filtering failed");
  return GST_FLOW_OK;
}

static void
gst_cuda_vision_gabor_class_init (GstCudaVisionGaborClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);
  cvcore_gabor_params defaults;

  cvcore_gabor_params_init (&defaults);
  gobject_class->set_property = gst_cuda_vision_gabor_set_property;
  gobject_class->get_property = gst_cuda_vision_gabor_get_property;

  gst_cuda_vision_install_double (gobject_class, PROP_SIGMA, "sigma",
      "Sigma", "Standard deviation of the Gaussian envelope, in pixels",
      CVCORE_GABOR_MIN_SIGMA, CVCORE_GABOR_MAX_SIGMA, defaults.sigma,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_WAVELENGTH, "wavelength",
      "Wavelength",
      "Pixels per cycle of the carrier (2 is " "the Nyquist limit)", 2.0,
      10000.0, defaults.wavelength, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_ORIENTATION,
      "orientation", "Orientation",
      "Direction of the carrier's wave "
      "vector, in degrees (0: varies along x; 90: along y, downwards); the "
      "first of the bank", -360.0, 360.0, defaults.orientation,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_ORIENTATIONS,
      g_param_spec_int ("orientations", "Orientations",
          "Filters in the bank, evenly spread over 180 degrees from "
          "orientation", 1, CVCORE_GABOR_MAX_ORIENTATIONS,
          defaults.orientations, GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Recursive filter or convolution with the sampled filter",
          GST_TYPE_CUDA_VISION_GABOR_METHOD, defaults.method,
          GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What a single-channel output shows (RGBA output: the magnitudes "
          "of the first four orientations)", GST_TYPE_CUDA_VISION_GABOR_OUTPUT,
          defaults.output, GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_GAIN, "gain", "Gain",
      "Scale from response to the output's full scale", 0.0, 10000.0,
      defaults.gain, GST_CUDA_VISION_PARAM_CONTROLLABLE);

  gst_cuda_vision_filter_class_add_pad_templates_full (filter_class,
      GABOR_SINK_FORMATS, GABOR_SRC_FORMATS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA Gabor filter", "Filter/Analyzer/Video/Hardware",
      "Gabor filter responses of video luminance in CUDA device memory, "
      "recursive (cost independent of sigma) or by convolution",
      "gst-cuda-vision developers");

  trans_class->transform_caps = gst_cuda_vision_filter_convert_caps;
  filter_class->prepare = gst_cuda_vision_gabor_prepare;
  filter_class->release = gst_cuda_vision_gabor_release;
  filter_class->process = gst_cuda_vision_gabor_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_GABOR_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_GABOR_OUTPUT, 0);
}

static void
gst_cuda_vision_gabor_init (GstCudaVisionGabor * self)
{
  cvcore_gabor_params_init (&self->params);
}
