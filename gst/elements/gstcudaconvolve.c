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
 * SECTION:element-cudaconvolve
 * @title: cudaconvolve
 *
 * Convolves each frame, in cudavision device memory, with a kernel of up to
 * 63x63 taps given as text (`kernel`) or by name (`preset`).
 *
 * The taps are applied as written, like OpenCV's filter2D: the output at
 * (x, y) is the sum of taps[j][i] * input(x + i - anchor-x,
 * y + j - anchor-y), divided by `divisor`, plus `bias`, rounded and saturated
 * to the format's range. Each plane is filtered on its own (chroma planes of
 * I420 and NV12 at their own resolution); alpha passes through unless
 * `process-alpha` is set. Pixels outside the frame follow `border`.
 *
 * Integer kernels give the same result on CUDA and on the CPU reference
 * backend bit for bit; rank-1 kernels (Gaussian, box, Sobel...) run as two
 * 1-D passes. The kernel and every other property may change while playing;
 * a change applies from the next frame.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudaupload ! cudaconvolve preset=gaussian5 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! cudavisionupload ! cudaconvolve kernel="-1 0 1; -2 0 2; -1 0 1" bias=128 border=mirror ! cudavisiondownload ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstcudaconvolve.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"
#include "cvconvolve.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_convolve_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_convolve_debug

#define CONVOLVE_FORMATS \
    "{ RGBA, BGRA, RGBx, BGRx, GRAY8, GRAY16_LE, " \
    GST_CUDA_VISION_RGBA64_ITEM "I420, NV12 }"

typedef enum
{
  PRESET_CUSTOM,
  PRESET_IDENTITY,
  PRESET_BOX3,
  PRESET_BOX5,
  PRESET_GAUSSIAN3,
  PRESET_GAUSSIAN5,
  PRESET_SHARPEN,
  PRESET_LAPLACIAN,
  PRESET_SOBEL_X,
  PRESET_SOBEL_Y,
  PRESET_SCHARR_X,
  PRESET_SCHARR_Y,
  PRESET_EMBOSS,
} GstCudaVisionConvolvePreset;

static const gchar *const preset_taps[] = {
  [PRESET_CUSTOM] = NULL,
  [PRESET_IDENTITY] = "1",
  [PRESET_BOX3] = "1 1 1; 1 1 1; 1 1 1",
  [PRESET_BOX5] = "1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1",
  [PRESET_GAUSSIAN3] = "1 2 1; 2 4 2; 1 2 1",
  [PRESET_GAUSSIAN5] = "1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; "
      "4 16 24 16 4; 1 4 6 4 1",
  [PRESET_SHARPEN] = "0 -1 0; -1 5 -1; 0 -1 0",
  [PRESET_LAPLACIAN] = "0 1 0; 1 -4 1; 0 1 0",
  [PRESET_SOBEL_X] = "-1 0 1; -2 0 2; -1 0 1",
  [PRESET_SOBEL_Y] = "-1 -2 -1; 0 0 0; 1 2 1",
  [PRESET_SCHARR_X] = "-3 0 3; -10 0 10; -3 0 3",
  [PRESET_SCHARR_Y] = "-3 -10 -3; 0 0 0; 3 10 3",
  [PRESET_EMBOSS] = "-2 -1 0; -1 1 1; 0 1 2",
};

#define GST_TYPE_CUDA_VISION_CONVOLVE_PRESET (gst_cuda_vision_convolve_preset_get_type ())
static GType
gst_cuda_vision_convolve_preset_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {PRESET_CUSTOM, "Taps from the kernel property", "custom"},
    {PRESET_IDENTITY, "Identity (copies the frame)", "identity"},
    {PRESET_BOX3, "3x3 box blur", "box3"},
    {PRESET_BOX5, "5x5 box blur", "box5"},
    {PRESET_GAUSSIAN3, "3x3 binomial Gaussian blur", "gaussian3"},
    {PRESET_GAUSSIAN5, "5x5 binomial Gaussian blur", "gaussian5"},
    {PRESET_SHARPEN, "3x3 sharpen", "sharpen"},
    {PRESET_LAPLACIAN, "3x3 Laplacian (4-neighbour)", "laplacian"},
    {PRESET_SOBEL_X, "Sobel, horizontal gradient", "sobel-x"},
    {PRESET_SOBEL_Y, "Sobel, vertical gradient", "sobel-y"},
    {PRESET_SCHARR_X, "Scharr, horizontal gradient", "scharr-x"},
    {PRESET_SCHARR_Y, "Scharr, vertical gradient", "scharr-y"},
    {PRESET_EMBOSS, "3x3 emboss", "emboss"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionConvolvePreset",
      values);
}

#define GST_TYPE_CUDA_VISION_CONVOLVE_BORDER (gst_cuda_vision_convolve_border_get_type ())
static GType
gst_cuda_vision_convolve_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_BORDER_CLAMP, "Repeat the edge pixel", "clamp"},
    {CVCORE_BORDER_MIRROR, "Reflect about the edge pixel (cba|abc)",
        "mirror"},
    {CVCORE_BORDER_WRAP, "Wrap around to the other side", "wrap"},
    {CVCORE_BORDER_CONSTANT, "The border-value", "constant"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionConvolveBorder",
      values);
}

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_PRESET,
  PROP_ANCHOR_X,
  PROP_ANCHOR_Y,
  PROP_DIVISOR,
  PROP_BIAS,
  PROP_BORDER,
  PROP_BORDER_VALUE,
  PROP_PROCESS_ALPHA,
};

#define DEFAULT_PRESET PRESET_IDENTITY
#define DEFAULT_ANCHOR -1
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_BIAS 0.0
#define DEFAULT_BORDER CVCORE_BORDER_CLAMP
#define DEFAULT_BORDER_VALUE 0.0
#define DEFAULT_PROCESS_ALPHA FALSE
#define MAX_DIVISOR 1e9

struct _GstCudaVisionConvolve
{
  GstCudaVisionFilter parent;

  /* properties, under the object lock */
  gchar *kernel_text;
  cvcore_convolve_taps taps;
  GstCudaVisionConvolvePreset preset;
  gint anchor_x, anchor_y;
  gdouble divisor, bias, border_value;
  cvcore_border border;
  gboolean process_alpha;
  gboolean plan_stale;

  /* streaming thread only */
  cvcore_convolve_plan plan;
  cvcore_sample sample;
  guint channel_mask[GST_VIDEO_MAX_PLANES];
  void *scratch;
  GstCudaVisionDevice *scratch_device;
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionConvolve, gst_cuda_vision_convolve,
    GST_TYPE_CUDA_VISION_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_convolve_debug,
        "cudavisionconvolve", 0, "cudavision 2-D convolution"));

/* Parses @text; on an error warns (the kernel stays as it is) and returns
 * FALSE. Called without the object lock: the warning is posted. */
static gboolean
parse_taps (GstCudaVisionConvolve * self, const gchar * text,
    cvcore_convolve_taps * taps)
{
  gchar error[160];

  if (cvcore_convolve_taps_parse (text, taps, error, sizeof (error)))
    return TRUE;
  g_warning ("cudaconvolve: kernel \"%s\" refused: %s", text ? text : "",
      error);
  GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
      ("Kernel \"%s\" refused: %s", text ? text : "", error),
      ("the previous kernel stays"));
  return FALSE;
}

static void
set_taps (GstCudaVisionConvolve * self, const gchar * text,
    GstCudaVisionConvolvePreset preset)
{
  cvcore_convolve_taps taps;

  if (!parse_taps (self, text, &taps))
    return;
  GST_OBJECT_LOCK (self);
  self->taps = taps;
  g_free (self->kernel_text);
  self->kernel_text = g_strdup (text);
  self->preset = preset;
  self->plan_stale = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_convolve_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionConvolve *self = GST_CUDA_VISION_CONVOLVE (object);

  switch (prop_id) {
    case PROP_KERNEL:
      set_taps (self, g_value_get_string (value), PRESET_CUSTOM);
      return;
    case PROP_PRESET:{
      GstCudaVisionConvolvePreset preset = g_value_get_enum (value);

      /* "custom" keeps the current taps */
      if (preset != PRESET_CUSTOM) {
        set_taps (self, preset_taps[preset], preset);
      } else {
        GST_OBJECT_LOCK (self);
        self->preset = preset;
        GST_OBJECT_UNLOCK (self);
      }
      return;
    }
    default:
      break;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ANCHOR_X:
      self->anchor_x = g_value_get_int (value);
      break;
    case PROP_ANCHOR_Y:
      self->anchor_y = g_value_get_int (value);
      break;
    case PROP_DIVISOR:
      self->divisor = g_value_get_double (value);
      break;
    case PROP_BIAS:
      self->bias = g_value_get_double (value);
      break;
    case PROP_BORDER:
      self->border = g_value_get_enum (value);
      break;
    case PROP_BORDER_VALUE:
      self->border_value = g_value_get_double (value);
      break;
    case PROP_PROCESS_ALPHA:
      self->process_alpha = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  self->plan_stale = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_convolve_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionConvolve *self = GST_CUDA_VISION_CONVOLVE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      g_value_set_string (value, self->kernel_text);
      break;
    case PROP_PRESET:
      g_value_set_enum (value, self->preset);
      break;
    case PROP_ANCHOR_X:
      g_value_set_int (value, self->anchor_x);
      break;
    case PROP_ANCHOR_Y:
      g_value_set_int (value, self->anchor_y);
      break;
    case PROP_DIVISOR:
      g_value_set_double (value, self->divisor);
      break;
    case PROP_BIAS:
      g_value_set_double (value, self->bias);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->border);
      break;
    case PROP_BORDER_VALUE:
      g_value_set_double (value, self->border_value);
      break;
    case PROP_PROCESS_ALPHA:
      g_value_set_boolean (value, self->process_alpha);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
ensure_plan (GstCudaVisionConvolve * self)
{
  const GstVideoInfo *info = gst_cuda_vision_base_transform_get_in_info (BASE
      (self));
  cvcore_convolve_taps taps;
  gint anchor_x, anchor_y;
  gdouble divisor, bias, border_value;
  cvcore_border border;
  gboolean process_alpha;

  GST_OBJECT_LOCK (self);
  if (!self->plan_stale) {
    GST_OBJECT_UNLOCK (self);
    return TRUE;
  }
  taps = self->taps;
  anchor_x = self->anchor_x;
  anchor_y = self->anchor_y;
  divisor = self->divisor;
  bias = self->bias;
  border = self->border;
  border_value = self->border_value;
  process_alpha = self->process_alpha;
  self->plan_stale = FALSE;
  GST_OBJECT_UNLOCK (self);

  /* An anchor past the kernel means its centre. */
  if (anchor_x >= taps.width)
    anchor_x = -1;
  if (anchor_y >= taps.height)
    anchor_y = -1;
  if (cvcore_convolve_plan_init (&self->plan, &taps, anchor_x, anchor_y,
          divisor, bias, border, border_value, self->sample) != CVCORE_OK) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("Invalid kernel settings"),
        ("%s", cvcore_last_error ()));
    return FALSE;
  }
  gst_cuda_vision_channel_masks (info, process_alpha, self->channel_mask);
  GST_DEBUG_OBJECT (self, "%dx%d taps, anchor (%d, %d), divisor %g, %s%s",
      self->plan.width, self->plan.height, self->plan.anchor_x,
      self->plan.anchor_y, self->plan.divisor,
      self->plan.separable ? "separable" : "dense",
      self->plan.use_double ? ", double accumulation" : "");
  return TRUE;
}

static void
gst_cuda_vision_convolve_release (GstCudaVisionFilter * filter)
{
  GstCudaVisionConvolve *self = GST_CUDA_VISION_CONVOLVE (filter);

  if (self->scratch) {
    cvcore_device_free (gst_cuda_vision_device_get_core
        (self->scratch_device), self->scratch);
    self->scratch = NULL;
  }
  gst_clear_object (&self->scratch_device);
}

static gboolean
gst_cuda_vision_convolve_prepare (GstCudaVisionFilter * filter,
    GstCaps * incaps, const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaVisionConvolve *self = GST_CUDA_VISION_CONVOLVE (filter);
  GstCudaVisionDevice *device = gst_cuda_vision_base_transform_get_device
      (BASE (self));
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  gsize scratch_size = 0;

  self->sample = GST_VIDEO_INFO_COMP_DEPTH (in_info, 0) > 8 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (in_info); p++) {
    gint comps[GST_VIDEO_MAX_COMPONENTS];
    gint channels;

    gst_video_format_info_component (in_info->finfo, p, comps);
    channels = GST_VIDEO_INFO_COMP_PSTRIDE (in_info, comps[0]) /
        (self->sample == CVCORE_SAMPLE_U16 ? 2 : 1);
    scratch_size = MAX (scratch_size, cvcore_convolve_scratch_size (core,
            GST_VIDEO_INFO_COMP_WIDTH (in_info, comps[0]),
            GST_VIDEO_INFO_COMP_HEIGHT (in_info, comps[0]), channels));
  }

  if (scratch_size > 0 && cvcore_device_alloc (core, scratch_size,
          &self->scratch) != CVCORE_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate %" G_GSIZE_FORMAT " bytes of device memory",
            scratch_size), ("%s", cvcore_last_error ()));
    return FALSE;
  }
  self->scratch_device = gst_object_ref (device);

  GST_OBJECT_LOCK (self);
  self->plan_stale = TRUE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static GstFlowReturn
gst_cuda_vision_convolve_process (GstCudaVisionFilter * filter,
    cvcore_stream * stream, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaVisionConvolve *self = GST_CUDA_VISION_CONVOLVE (filter);

  if (!ensure_plan (self))
    return GST_FLOW_ERROR;

  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (in_frame); p++) {
    cvcore_image src, dst;

    gst_cuda_vision_frame_plane (in_frame, p, self->sample, &src);
    gst_cuda_vision_frame_plane (out_frame, p, self->sample, &dst);
    if (cvcore_convolve (stream, &src, &dst, self->channel_mask[p],
            &self->plan, self->scratch) != CVCORE_OK)
      return gst_cuda_vision_base_transform_core_error (BASE (self),
          "Convolution failed");
  }
  return GST_FLOW_OK;
}

static void
gst_cuda_vision_convolve_finalize (GObject * object)
{
  GstCudaVisionConvolve *self = GST_CUDA_VISION_CONVOLVE (object);

  gst_cuda_vision_convolve_release (GST_CUDA_VISION_FILTER (self));
  g_free (self->kernel_text);
  G_OBJECT_CLASS (gst_cuda_vision_convolve_parent_class)->finalize (object);
}

static void
gst_cuda_vision_convolve_class_init (GstCudaVisionConvolveClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_vision_convolve_set_property;
  gobject_class->get_property = gst_cuda_vision_convolve_get_property;
  gobject_class->finalize = gst_cuda_vision_convolve_finalize;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_string ("kernel", "Kernel",
          "Taps as rows separated by ';', numbers by spaces or commas, e.g. "
          "\"1 2 1; 2 4 2; 1 2 1\"; up to 63x63. A malformed kernel is "
          "refused with a warning and the previous one stays",
          preset_taps[DEFAULT_PRESET], GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_PRESET,
      g_param_spec_enum ("preset", "Preset",
          "A named kernel; sets the kernel property (custom: the kernel "
          "property's taps)", GST_TYPE_CUDA_VISION_CONVOLVE_PRESET,
          DEFAULT_PRESET, GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_ANCHOR_X,
      g_param_spec_int ("anchor-x", "Anchor X",
          "Column of the tap that lands on the output pixel (-1: the centre, "
          "width / 2)", -1, CVCORE_CONVOLVE_MAX_SIZE - 1, DEFAULT_ANCHOR,
          GST_CUDA_VISION_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_ANCHOR_Y,
      g_param_spec_int ("anchor-y", "Anchor Y",
          "Row of the tap that lands on the output pixel (-1: the centre, "
          "height / 2)", -1, CVCORE_CONVOLVE_MAX_SIZE - 1, DEFAULT_ANCHOR,
          GST_CUDA_VISION_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_double ("divisor", "Divisor",
          "The sum of products is divided by this (0: the sum of the taps, "
          "or 1 when that is 0)", -MAX_DIVISOR, MAX_DIVISOR, DEFAULT_DIVISOR,
          GST_CUDA_VISION_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_BIAS,
      g_param_spec_double ("bias", "Bias",
          "Added after the division, in sample units (128 shows signed "
          "8-bit results such as gradients)", -65535.0, 65535.0, DEFAULT_BIAS,
          GST_CUDA_VISION_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "What pixels outside the frame are",
          GST_TYPE_CUDA_VISION_CONVOLVE_BORDER, DEFAULT_BORDER,
          GST_CUDA_VISION_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_BORDER_VALUE,
      g_param_spec_double ("border-value", "Border value",
          "Sample value outside the frame for border=constant (clipped to "
          "the format's range)", 0.0, 65535.0, DEFAULT_BORDER_VALUE,
          GST_CUDA_VISION_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_PROCESS_ALPHA,
      g_param_spec_boolean ("process-alpha", "Process alpha",
          "Convolve the alpha channel too (otherwise it is copied)",
          DEFAULT_PROCESS_ALPHA, GST_CUDA_VISION_PARAM_FLAGS));

  gst_cuda_vision_filter_class_add_pad_templates (filter_class,
      CONVOLVE_FORMATS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA 2-D convolution", "Filter/Effect/Video/Hardware",
      "Convolves video frames in CUDA device memory with a kernel of up to "
      "63x63 taps", "gst-cuda-vision developers");

  filter_class->prepare = gst_cuda_vision_convolve_prepare;
  filter_class->release = gst_cuda_vision_convolve_release;
  filter_class->process = gst_cuda_vision_convolve_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_CONVOLVE_PRESET, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_CONVOLVE_BORDER, 0);
}

static void
gst_cuda_vision_convolve_init (GstCudaVisionConvolve * self)
{
  self->preset = DEFAULT_PRESET;
  self->anchor_x = self->anchor_y = DEFAULT_ANCHOR;
  self->divisor = DEFAULT_DIVISOR;
  self->bias = DEFAULT_BIAS;
  self->border = DEFAULT_BORDER;
  self->border_value = DEFAULT_BORDER_VALUE;
  self->process_alpha = DEFAULT_PROCESS_ALPHA;
  set_taps (self, preset_taps[DEFAULT_PRESET], DEFAULT_PRESET);
}
