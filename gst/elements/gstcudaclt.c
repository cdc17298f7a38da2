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
 * SECTION:element-cudaclt
 * @title: cudaclt
 *
 * Processing of each frame in cudavision device memory through the
 * complex lapped transform (CLT) of 16x16 tiles at a stride of 8: the
 * forward transform (four layers of DCT-IV / DST-IV per tile), an
 * operation on the coefficients, and the inverse with overlap-add, all on
 * the GPU.
 *
 * `operation`:
 * - `none`: the round trip; the output equals the input (edges included).
 * - `shift`: moves the picture by `shift-x`, `shift-y` pixels (positive:
 *   right, down). The fraction is a phase rotation in the transform
 *   domain, without resampling; what comes in at the edges is the frame's
 *   mirror image.
 * - `lowpass`: a Gaussian of `sigma` pixels in the transform domain, with
 *   unit gain on flat regions.
 * - `deconvolve`: space-variant correction with the kernel set of the file
 *   `kernels-location` (made for this frame size; format in the sources'
 *   core/clt/cvclt.h, made from point-spread functions by
 *   `cudavision-clt-kernels`). One CLT-domain kernel per grid node,
 *   interpolated for the tiles between nodes.
 *
 * Colour formats are processed per colour channel (alpha and padding are
 * copied); a kernel set of 3 channels gives each colour its own kernels
 * (grey frames use the green ones). In I420 and NV12 the luma is processed
 * as a grey frame, and the chroma planes at their own resolution: shifted
 * and low-passed by the same distances, in their own pixels; a
 * deconvolution's kernel set is the luma's, and the chroma is copied.
 *
 * Bayer mosaics (`video/x-bayer`, 8 and 16 bits) are processed per colour
 * too; the output is the mosaic again (each site its own colour), RGBA
 * (RGBA64_LE from 16 bits) or a grey picture (GRAY8, GRAY16_LE), whichever
 * downstream asks for. The grey picture is the colours' luma, or with
 * `mosaic-grey=green` the green alone, which is what `cudaphasecorr`
 * matches of RGB; then red and blue are not processed. From sparse
 * colours a grey picture takes one inverse transform a tile instead of
 * three. `mosaic-method` says how each colour is filled in:
 * - `sparse` (default): as the tile processor does it, each colour's sites
 *   are transformed with zeros between them. Such sparse inputs make most
 *   of the transform redundant (its sine layers are its cosine layers
 *   mirrored in frequency): 4 of the 12 colour layers are computed. The
 *   colours are then filled in within the transform domain by a bilinear
 *   interpolator's response, before the operation. Sites keep their
 *   values (`none` gives the mosaic back) and flat colours stay flat.
 * - `interpolate`: each colour is interpolated bilinearly in space first,
 *   then processed as a full plane.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudaupload ! cudaclt operation=shift shift-x=0.5 shift-y=-0.25 ! cudadownload ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=GRAY8,width=1280,height=720 ! cudavisionupload ! cudaclt operation=deconvolve kernels-location=lens.kernels ! cudavisiondownload ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! video/x-bayer,format=rggb ! cudavisionupload ! cudaclt operation=lowpass sigma=0.8 ! cudavisiondownload ! video/x-raw,format=RGBA ! videoconvert ! autovideosink
 * gst-launch-1.0 -m videotestsrc num-buffers=30 pattern=ball ! video/x-raw,format=ARGB ! rgb2bayer ! video/x-bayer,format=rggb ! cudavisionupload ! cudaclt mosaic-grey=green ! "video/x-raw(memory:CUDAVisionMemory),format=GRAY8" ! cudaphasecorr post-messages=true ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaclt.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"
#include "cvclt.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_clt_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_clt_debug

#define CLT_FORMATS \
    "{ GRAY8, GRAY16_LE, " GST_CUDA_VISION_RGBA64_ITEM \
    "RGBA, BGRA, RGBx, BGRx, I420, NV12 }"
#define CLT_CAPS GST_CUDA_VISION_DEVICE_CAPS (CLT_FORMATS) ";" \
    GST_CUDA_VISION_BAYER_CAPS (GST_CAPS_FEATURE_MEMORY_CUDA_VISION)

enum
{
  PROP_0,
  PROP_OPERATION,
  PROP_SHIFT_X,
  PROP_SHIFT_Y,
  PROP_SIGMA,
  PROP_KERNELS_LOCATION,
  PROP_MOSAIC_METHOD,
  PROP_MOSAIC_GREY,
};

#define DEFAULT_MOSAIC_GREY CVCORE_CLT_GREY_LUMA

struct _GstCudaVisionClt
{
  GstCudaVisionFilter parent;

  /* properties, under the object lock; params.grey is mosaic-grey */
  cvcore_clt_params params;
  gchar *kernels_location;
  gboolean kernels_changed;

  /* streaming thread only */
  cvcore_clt_scratch *scratch;
  cvcore_clt_scratch *chroma_scratch;   /* I420 and NV12 */
  cvcore_clt_kernel_set *kernels;       /* loaded from kernels_location */
  gboolean kernels_on_device;
  unsigned channel_mask;
  gint kernel_channel[4];
  unsigned bayer;               /* the input's mosaic, or 0 */
  gboolean grey;                /* a grey picture of the mosaic out */
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionClt, gst_cuda_vision_clt,
    GST_TYPE_CUDA_VISION_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_clt_debug, "cudavisionclt", 0,
        "cudavision lapped-transform processing"));

#define GST_TYPE_CUDA_VISION_CLT_OPERATION (gst_cuda_vision_clt_operation_get_type ())
static GType
gst_cuda_vision_clt_operation_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_CLT_NONE, "Forward and inverse transform only", "none"},
    {CVCORE_CLT_SHIFT, "Sub-pixel shift by phase rotation", "shift"},
    {CVCORE_CLT_LOWPASS, "Gaussian lowpass", "lowpass"},
    {CVCORE_CLT_DECONVOLVE, "Space-variant deconvolution with a kernel set",
        "deconvolve"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionCltOperation", values);
}

#define GST_TYPE_CUDA_VISION_CLT_MOSAIC_METHOD (gst_cuda_vision_clt_mosaic_method_get_type ())
static GType
gst_cuda_vision_clt_mosaic_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_CLT_MOSAIC_INTERPOLATE, "Bilinear interpolation of each colour "
          "before the transform", "interpolate"},
    {CVCORE_CLT_MOSAIC_SPARSE, "Each colour's sites transformed sparse, "
          "filled in in the transform domain", "sparse"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionCltMosaicMethod",
      values);
}

#define GST_TYPE_CUDA_VISION_CLT_MOSAIC_GREY (gst_cuda_vision_clt_mosaic_grey_get_type ())
static GType
gst_cuda_vision_clt_mosaic_grey_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CVCORE_CLT_GREY_LUMA, "The colours' luma (ITU-R BT.601's weights)",
        "luma"},
    {CVCORE_CLT_GREY_GREEN, "The green alone, as matching takes RGB's "
          "luminance; red and blue are not processed", "green"},
    {0, NULL, NULL},
  };

  return gst_cuda_vision_enum_type (&type, "GstCudaVisionCltMosaicGrey",
      values);
}

static void
gst_cuda_vision_clt_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionClt *self = GST_CUDA_VISION_CLT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SHIFT_X:
      self->params.shift_x = g_value_get_double (value);
      break;
    case PROP_SHIFT_Y:
      self->params.shift_y = g_value_get_double (value);
      break;
    case PROP_SIGMA:
      self->params.sigma = g_value_get_double (value);
      break;
    case PROP_OPERATION:
      self->params.operation = g_value_get_enum (value);
      break;
    case PROP_MOSAIC_METHOD:
      self->params.mosaic_method = g_value_get_enum (value);
      break;
    case PROP_MOSAIC_GREY:
      self->params.grey = g_value_get_enum (value);
      break;
    case PROP_KERNELS_LOCATION:
      g_free (self->kernels_location);
      self->kernels_location = g_value_dup_string (value);
      self->kernels_changed = TRUE;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_clt_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionClt *self = GST_CUDA_VISION_CLT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SHIFT_X:
      g_value_set_double (value, self->params.shift_x);
      break;
    case PROP_SHIFT_Y:
      g_value_set_double (value, self->params.shift_y);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->params.sigma);
      break;
    case PROP_OPERATION:
      g_value_set_enum (value, self->params.operation);
      break;
    case PROP_MOSAIC_METHOD:
      g_value_set_enum (value, self->params.mosaic_method);
      break;
    case PROP_MOSAIC_GREY:
      g_value_set_enum (value, self->params.grey);
      break;
    case PROP_KERNELS_LOCATION:
      g_value_set_string (value, self->kernels_location);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_vision_clt_release (GstCudaVisionFilter * filter)
{
  GstCudaVisionClt *self = GST_CUDA_VISION_CLT (filter);

  if (self->chroma_scratch)
    cvcore_clt_scratch_free (self->chroma_scratch);
  self->chroma_scratch = NULL;
  if (self->scratch == NULL)
    return;
  cvcore_clt_scratch_free (self->scratch);
  self->scratch = NULL;
  self->kernels_on_device = FALSE;
}

static gboolean
ensure_scratch (GstCudaVisionClt * self, const GstVideoInfo * info)
{
  GstCudaVisionDevice *device = gst_cuda_vision_base_transform_get_device
      (BASE (self));
  cvcore_device *core = gst_cuda_vision_device_get_core (device);

  if (self->scratch)
    return TRUE;
  if (cvcore_clt_scratch_new (core, GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_IS_RGB (info) || self->bayer ? 3 : 1,
          self->bayer != 0, &self->scratch) == CVCORE_OK
      && (!GST_VIDEO_INFO_IS_YUV (info) || cvcore_clt_scratch_new (core,
              GST_VIDEO_INFO_COMP_WIDTH (info, 1),
              GST_VIDEO_INFO_COMP_HEIGHT (info, 1),
              GST_VIDEO_INFO_COMP_PSTRIDE (info, 1), false,
              &self->chroma_scratch) == CVCORE_OK))
    return TRUE;
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Cannot allocate lapped-transform planes for %dx%d",
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info)),
      ("%s", cvcore_last_error ()));
  gst_cuda_vision_clt_release (GST_CUDA_VISION_FILTER (self));
  return FALSE;
}

/* Loads the kernel file when its location changed, and puts the set on
 * the device when it is not there yet. */
static gboolean
ensure_kernels (GstCudaVisionClt * self, cvcore_stream * stream)
{
  gchar *location = NULL;
  gboolean changed;

  GST_OBJECT_LOCK (self);
  changed = self->kernels_changed;
  self->kernels_changed = FALSE;
  if (changed)
    location = g_strdup (self->kernels_location);
  GST_OBJECT_UNLOCK (self);

  if (changed) {
    cvcore_clt_kernel_set *loaded = NULL;

    if (location && cvcore_clt_kernel_set_load (location, &loaded)
        != CVCORE_OK) {
      /* mid-stream, a bad file does not end the stream: the set in use
       * stays */
      if (self->kernels) {
        GST_ELEMENT_WARNING (self, RESOURCE, OPEN_READ,
            ("Cannot use the kernel set \"%s\": keeping the previous one",
                location), ("%s", cvcore_last_error ()));
        g_free (location);
        return TRUE;
      }
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
          ("Cannot use the kernel set \"%s\"", location),
          ("%s", cvcore_last_error ()));
      g_free (location);
      return FALSE;
    }
    cvcore_clt_kernel_set_free (self->kernels);
    self->kernels = loaded;
    self->kernels_on_device = FALSE;
    g_free (location);
  }
  if (self->kernels == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Deconvolution needs a kernel set: set kernels-location"), (NULL));
    return FALSE;
  }
  if (!self->kernels_on_device) {
    if (cvcore_clt_set_kernels (self->scratch, stream, self->kernels) !=
        CVCORE_OK) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("The kernel set does not fit this stream"),
          ("%s", cvcore_last_error ()));
      return FALSE;
    }
    self->kernels_on_device = TRUE;
  }
  return TRUE;
}

static gboolean
gst_cuda_vision_clt_prepare (GstCudaVisionFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaVisionClt *self = GST_CUDA_VISION_CLT (filter);

  self->channel_mask = 0;
  memset (self->kernel_channel, 0, sizeof (self->kernel_channel));
  self->bayer = gst_cuda_vision_caps_bayer_pattern (incaps);
  self->grey = self->bayer && GST_VIDEO_INFO_IS_GRAY (out_info)
      && gst_cuda_vision_caps_bayer_pattern (outcaps) == 0;
  if (GST_VIDEO_INFO_IS_RGB (in_info)) {
    const gint bytes = GST_VIDEO_INFO_COMP_DEPTH (in_info, 0) > 8 ? 2 : 1;

    for (gint c = 0; c < 3; c++) {
      const gint offset = GST_VIDEO_INFO_COMP_POFFSET (in_info, c) / bytes;

      self->channel_mask |= 1u << offset;
      self->kernel_channel[offset] = c;
    }
  } else {
    self->channel_mask = 1;
    self->kernel_channel[0] = 1;
  }
  return TRUE;
}

/* The chroma planes of I420 and NV12, after the luma's @luma_params:
 * distances in their own pixels, every channel, copied where the luma was
 * deconvolved (its kernel set is for the luma's size). */
static gboolean
process_chroma (GstCudaVisionClt * self, cvcore_stream * stream,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame,
    const cvcore_clt_params * luma_params)
{
  const GstVideoFormatInfo *finfo = in_frame->info.finfo;
  cvcore_clt_params params = *luma_params;

  if (!GST_VIDEO_INFO_IS_YUV (&in_frame->info))
    return TRUE;
  params.shift_x /= 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1);
  params.shift_y /= 1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, 1);
  params.sigma /= 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1);
  for (guint p = 1; p < GST_VIDEO_FRAME_N_PLANES (in_frame); p++) {
    cvcore_image src, dst;

    gst_cuda_vision_frame_plane (in_frame, p, CVCORE_SAMPLE_U8, &src);
    gst_cuda_vision_frame_plane (out_frame, p, CVCORE_SAMPLE_U8, &dst);
    params.channel_mask = (1u << src.channels) - 1;
    if (params.operation == CVCORE_CLT_DECONVOLVE ?
        cvcore_copy_2d_async (stream, dst.data, dst.pitch, src.data,
            src.pitch, (size_t) src.width * src.channels, src.height,
            CVCORE_COPY_DEVICE_TO_DEVICE) != CVCORE_OK :
        cvcore_clt (stream, self->chroma_scratch, &src, &dst, &params) !=
        CVCORE_OK)
      return FALSE;
  }
  return TRUE;
}

static GstFlowReturn
gst_cuda_vision_clt_process (GstCudaVisionFilter * filter,
    cvcore_stream * stream, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaVisionClt *self = GST_CUDA_VISION_CLT (filter);
  const cvcore_sample sample = GST_VIDEO_FRAME_COMP_DEPTH (in_frame, 0) > 8 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  cvcore_clt_params params;
  cvcore_image src, dst;

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);
  params.channel_mask = self->channel_mask;
  memcpy (params.kernel_channel, self->kernel_channel,
      sizeof (params.kernel_channel));
  params.bayer = self->bayer;
  if (!self->grey)
    params.grey = CVCORE_CLT_GREY_NONE;
  if (!ensure_scratch (self, &in_frame->info))
    return GST_FLOW_ERROR;
  if (params.operation == CVCORE_CLT_DECONVOLVE
      && !ensure_kernels (self, stream))
    return GST_FLOW_ERROR;

  gst_cuda_vision_frame_plane (in_frame, 0, sample, &src);
  gst_cuda_vision_frame_plane (out_frame, 0, sample, &dst);
  if (cvcore_clt (stream, self->scratch, &src, &dst, &params) != CVCORE_OK
      || !process_chroma (self, stream, in_frame, out_frame, &params))
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Lapped-transform processing failed");
  return GST_FLOW_OK;
}

/* A mosaic of @raw's size and rate: formats of every pattern with
 * @suffix ("" 8 bits, "16le"), any format when @suffix is NULL. */
static GstStructure *
mosaic_structure (const GstStructure * raw, const gchar * suffix)
{
  static const gchar *patterns[] = { "bggr", "rggb", "grbg", "gbrg" };
  GstStructure *s = gst_structure_new_empty ("video/x-bayer");
  static const gchar *fields[] = { "width", "height", "framerate" };

  if (suffix) {
    GValue list = G_VALUE_INIT;

    gst_value_list_init (&list, 4);
    for (guint k = 0; k < 4; k++) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_STRING);
      g_value_take_string (&v, g_strconcat (patterns[k], suffix, NULL));
      gst_value_list_append_and_take_value (&list, &v);
    }
    gst_structure_take_value (s, "format", &list);
  }
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    if (gst_structure_has_field (raw, fields[f]))
      gst_structure_set_value (s, fields[f], gst_structure_get_value (raw,
              fields[f]));
  return s;
}

/* What a mosaic of @s with @format (NULL: any) can also give: RGBA and
 * a grey picture, of its sample size. */
static GstStructure *
raw_from_mosaic (const GstStructure * s, const gchar * format)
{
  static const gchar *formats[2][2] = { {"RGBA", "GRAY8"},
  {"RGBA64_LE", "GRAY16_LE"}
  };
  const gint mosaic_wide = format && g_str_has_suffix (format, "16le");
  GstStructure *raw = gst_structure_copy (s);
  GValue list = G_VALUE_INIT;

  gst_structure_set_name (raw, "video/x-raw");
  gst_value_list_init (&list, 4);
  for (gint wide = 0; wide < 2; wide++) {
    if (format && wide != mosaic_wide)
      continue;
    for (guint k = 0; k < 2; k++) {
      GValue v = G_VALUE_INIT;

      /* RGBA64_LE came with GStreamer 1.20 */
      if (wide && k == 0 && !GST_CHECK_VERSION (1, 20, 0))
        continue;
      g_value_init (&v, G_TYPE_STRING);
      g_value_set_static_string (&v, formats[wide][k]);
      gst_value_list_append_and_take_value (&list, &v);
    }
  }
  gst_structure_take_value (raw, "format", &list);
  return raw;
}

/* The same caps either way, in either device memory; a mosaic also gives
 * RGBA (RGBA64_LE from 16 bits) or grey (GRAY8, GRAY16_LE), and these
 * may come from a mosaic. */
static GstCaps *
gst_cuda_vision_clt_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    const gchar *format = gst_structure_get_string (s, "format");
    GstStructure *other = NULL;

    ret = gst_caps_merge_structure_full (ret, gst_structure_copy (s),
        gst_caps_features_copy (features));
    if (direction == GST_PAD_SINK
        && gst_structure_has_name (s, "video/x-bayer")) {
      other = raw_from_mosaic (s, format);
    } else if (direction == GST_PAD_SRC && gst_structure_has_name (s,
            "video/x-raw") && (format == NULL || !strcmp (format, "RGBA")
            || !strcmp (format, "GRAY8") || !strcmp (format, "RGBA64_LE")
            || !strcmp (format, "GRAY16_LE"))) {
      other = mosaic_structure (s, format == NULL ? NULL :
          g_str_has_suffix (format, "64_LE")
          || g_str_has_suffix (format, "16_LE") ? "16le" : "");
    }
    if (other)
      ret = gst_caps_merge_structure_full (ret, other,
          gst_caps_features_copy (features));
  }
  ret = gst_cuda_vision_base_transform_device_caps
      (GST_CUDA_VISION_BASE_TRANSFORM (trans), ret);
  return gst_cuda_vision_caps_filter (ret, filter);
}

static void
gst_cuda_vision_clt_finalize (GObject * object)
{
  GstCudaVisionClt *self = GST_CUDA_VISION_CLT (object);

  cvcore_clt_kernel_set_free (self->kernels);
  g_free (self->kernels_location);
  G_OBJECT_CLASS (gst_cuda_vision_clt_parent_class)->finalize (object);
}

static void
gst_cuda_vision_clt_class_init (GstCudaVisionCltClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);
  cvcore_clt_params defaults;

  cvcore_clt_params_init (&defaults);
  gobject_class->set_property = gst_cuda_vision_clt_set_property;
  gobject_class->get_property = gst_cuda_vision_clt_get_property;
  gobject_class->finalize = gst_cuda_vision_clt_finalize;

  g_object_class_install_property (gobject_class, PROP_OPERATION,
      g_param_spec_enum ("operation", "Operation",
          "What is done to the coefficients between the forward and the "
          "inverse transform", GST_TYPE_CUDA_VISION_CLT_OPERATION,
          defaults.operation, GST_CUDA_VISION_PARAM_FLAGS));
  gst_cuda_vision_install_double (gobject_class, PROP_SHIFT_X, "shift-x",
      "Shift x", "Horizontal shift in pixels, positive to the right "
      "(operation=shift)", -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT,
      defaults.shift_x, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_SHIFT_Y, "shift-y",
      "Shift y", "Vertical shift in pixels, positive downwards "
      "(operation=shift)", -CVCORE_CLT_MAX_SHIFT, CVCORE_CLT_MAX_SHIFT,
      defaults.shift_y, GST_CUDA_VISION_PARAM_CONTROLLABLE);
  gst_cuda_vision_install_double (gobject_class, PROP_SIGMA, "sigma",
      "Sigma", "Standard deviation of the Gaussian lowpass in pixels "
      "(operation=lowpass)", 0.0, CVCORE_CLT_MAX_SIGMA, defaults.sigma,
      GST_CUDA_VISION_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_KERNELS_LOCATION,
      g_param_spec_string ("kernels-location", "Kernels location",
          "Kernel-set file for operation=deconvolve, made for the stream's "
          "frame size (read at the next frame after a change)", NULL,
          GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_MOSAIC_METHOD,
      g_param_spec_enum ("mosaic-method", "Mosaic method",
          "How the colours of a Bayer mosaic are filled in",
          GST_TYPE_CUDA_VISION_CLT_MOSAIC_METHOD, defaults.mosaic_method,
          GST_CUDA_VISION_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_MOSAIC_GREY,
      g_param_spec_enum ("mosaic-grey", "Mosaic grey",
          "What a grey output (GRAY8, GRAY16_LE) of a Bayer mosaic holds",
          GST_TYPE_CUDA_VISION_CLT_MOSAIC_GREY, DEFAULT_MOSAIC_GREY,
          GST_CUDA_VISION_PARAM_FLAGS));

  {
    GstCaps *caps = gst_caps_from_string (CLT_CAPS);

    gst_cuda_vision_filter_class_add_pad_templates_caps
        (GST_CUDA_VISION_FILTER_CLASS (klass), caps, caps);
    gst_caps_unref (caps);
  }
  gst_element_class_set_static_metadata (element_class,
      "CUDA lapped-transform processing", "Filter/Effect/Video/Hardware",
      "Sub-pixel shift, lowpass and space-variant deconvolution of video in "
      "the complex lapped transform domain, in CUDA device memory",
      "gst-cuda-vision developers");

  trans_class->transform_caps = gst_cuda_vision_clt_transform_caps;
  filter_class->prepare = gst_cuda_vision_clt_prepare;
  filter_class->release = gst_cuda_vision_clt_release;
  filter_class->process = gst_cuda_vision_clt_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_CLT_OPERATION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_CLT_MOSAIC_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_CLT_MOSAIC_GREY, 0);
}

static void
gst_cuda_vision_clt_init (GstCudaVisionClt * self)
{
  cvcore_clt_params_init (&self->params);
  self->params.grey = DEFAULT_MOSAIC_GREY;
}
