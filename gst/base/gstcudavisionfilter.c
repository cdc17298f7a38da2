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

/* GstCudaVisionFilter, base class of the device-to-device filters: see
 * the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionfilter.h"
#include "gstcudavisionframe.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_filter_debug

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaVisionFilter, gst_cuda_vision_filter,
    GST_TYPE_CUDA_VISION_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_filter_debug, "cudavisionfilter",
        0, "cudavision filter base class"));

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

static GstCaps *
device_video_caps (const gchar * formats)
{
  gchar *desc = g_strdup_printf ("video/x-raw("
      GST_CAPS_FEATURE_MEMORY_CUDA_VISION "), format=(string)%s, "
      "width=(int)[1, 32767], height=(int)[1, 32767], "
      "framerate=(fraction)[0/1, 2147483647/1]", formats);
  GstCaps *caps = gst_caps_from_string (desc);

  g_assert (caps != NULL);
  g_free (desc);
  return caps;
}

void
gst_cuda_vision_filter_class_add_pad_templates_full (GstCudaVisionFilterClass
    * klass, const gchar * sink_formats, const gchar * src_formats)
{
  GstCaps *sink_caps = device_video_caps (sink_formats);
  GstCaps *src_caps = device_video_caps (src_formats);

  gst_cuda_vision_filter_class_add_pad_templates_caps (klass, sink_caps,
      src_caps);
  gst_caps_unref (sink_caps);
  gst_caps_unref (src_caps);
}

void
gst_cuda_vision_filter_class_add_pad_templates_caps (GstCudaVisionFilterClass
    * klass, GstCaps * sink_caps, GstCaps * src_caps)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *sink = gst_cuda_vision_caps_add_cuda_memory (gst_caps_ref
      (sink_caps));
  GstCaps *src = gst_cuda_vision_caps_add_cuda_memory (gst_caps_ref (src_caps));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, src));
  gst_caps_unref (sink);
  gst_caps_unref (src);
}

void
gst_cuda_vision_filter_class_add_pad_templates (GstCudaVisionFilterClass *
    klass, const gchar * formats)
{
  gst_cuda_vision_filter_class_add_pad_templates_full (klass, formats, formats);
}

/* @caps (taken) in both device memories, within the other pad's
 * template, intersected with @filter. */
static GstCaps *
other_side_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstPadTemplate *templ = gst_element_class_get_pad_template
      (GST_ELEMENT_GET_CLASS (trans), direction == GST_PAD_SINK ? "src" :
      "sink");
  GstCaps *formats = gst_pad_template_get_caps (templ);
  GstCaps *ret;

  caps = gst_cuda_vision_base_transform_device_caps (BASE (trans), caps);
  ret = gst_caps_intersect_full (caps, formats, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  gst_caps_unref (formats);
  return gst_cuda_vision_caps_filter (ret, filter);
}

/* The same video in either device memory: a filter writes its output
 * wherever the next element wants it. */
static GstCaps *
gst_cuda_vision_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = other_side_caps (trans, direction, gst_caps_copy (caps),
      filter);

  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      ret);
  return ret;
}

/* Any input format gives any output format of the same size and rate;
 * colorimetry and chroma siting belong to each side's format. */
GstCaps *
gst_cuda_vision_filter_convert_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *loose = gst_caps_new_empty (), *ret;

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));

    gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site",
        NULL);
    gst_caps_append_structure_full (loose, s,
        gst_caps_features_copy (gst_caps_get_features (caps, i)));
  }
  ret = other_side_caps (trans, direction, loose, filter);
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      ret);
  return ret;
}

/* The frame must be device memory that our device can work on; anything
 * else reaching a filter means a pipeline or application error, reported
 * as such. */
static gboolean
check_frame_memory (GstCudaVisionFilter * self, GstBuffer * buffer,
    const gchar * what)
{
  GstCudaVisionDevice *device =
      gst_cuda_vision_base_transform_get_device (BASE (self));
  const gchar *refusal = gst_buffer_n_memory (buffer) != 1 ?
      "it is not one memory block" :
      gst_cuda_vision_device_memory_refusal (gst_buffer_peek_memory (buffer,
          0), device);

  if (refusal == NULL)
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("Cannot process the %s frame: %s", what, refusal),
      ("buffer %" GST_PTR_FORMAT, buffer));
  return FALSE;
}

static gboolean
map_device_frame (GstCudaVisionFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags)
{
  gchar *refusal = NULL;

  if (gst_cuda_vision_video_frame_map (frame, info, buffer,
          flags | GST_MAP_CUDA_VISION, &refusal))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot map a device frame: %s",
          refusal), ("buffer %" GST_PTR_FORMAT, buffer));
  g_free (refusal);
  return FALSE;
}

static GstFlowReturn
gst_cuda_vision_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaVisionFilter *self = GST_CUDA_VISION_FILTER (trans);
  GstCudaVisionFilterClass *klass = GST_CUDA_VISION_FILTER_GET_CLASS (self);
  cvcore_stream *stream = gst_cuda_vision_base_transform_get_stream (BASE
      (self));
  GstMemory *in_mem, *out_mem;
  GstVideoFrame in_frame, out_frame;
  GstFlowReturn ret;

  if (!check_frame_memory (self, inbuf, "input")
      || !check_frame_memory (self, outbuf, "output"))
    return GST_FLOW_ERROR;
  in_mem = gst_buffer_peek_memory (inbuf, 0);
  out_mem = gst_buffer_peek_memory (outbuf, 0);

  if (!map_device_frame (self, &in_frame,
          gst_cuda_vision_base_transform_get_in_info (BASE (self)), inbuf,
          GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!map_device_frame (self, &out_frame,
          gst_cuda_vision_base_transform_get_out_info (BASE (self)), outbuf,
          GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in_frame);
    return GST_FLOW_ERROR;
  }

  if (gst_cuda_vision_device_memory_begin_access (in_mem, stream)
      && gst_cuda_vision_device_memory_begin_access (out_mem, stream)) {
    gst_cuda_vision_base_transform_work_begins (BASE (self));
    ret = klass->process (self, stream, &in_frame, &out_frame);
    gst_cuda_vision_base_transform_work_ends (BASE (self));
    /* Record even after a failure: the chain of uses must stay unbroken. */
    if (!gst_cuda_vision_base_transform_end_access (BASE (self), out_mem)
        || !gst_cuda_vision_base_transform_end_access (BASE (self), in_mem))
      ret = gst_cuda_vision_base_transform_core_error (BASE (self),
          "Cannot order device work");
  } else {
    ret = gst_cuda_vision_base_transform_core_error (BASE (self),
        "Cannot order device work");
  }

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  return ret;
}

static GstFlowReturn
gst_cuda_vision_filter_transform_ip (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstCudaVisionFilter *self = GST_CUDA_VISION_FILTER (trans);
  GstCudaVisionFilterClass *klass = GST_CUDA_VISION_FILTER_GET_CLASS (self);
  cvcore_stream *stream = gst_cuda_vision_base_transform_get_stream (BASE
      (self));
  GstVideoFrame frame;
  GstMemory *mem;
  GstFlowReturn ret;

  if (klass->process_ip == NULL) {
    GST_ELEMENT_ERROR (self, CORE, NOT_IMPLEMENTED,
        ("This filter cannot run in place"), (NULL));
    return GST_FLOW_ERROR;
  }
  if (!check_frame_memory (self, buffer, "input"))
    return GST_FLOW_ERROR;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!map_device_frame (self, &frame,
          gst_cuda_vision_base_transform_get_in_info (BASE (self)), buffer,
          GST_MAP_READWRITE))
    return GST_FLOW_ERROR;

  if (gst_cuda_vision_device_memory_begin_access (mem, stream)) {
    gst_cuda_vision_base_transform_work_begins (BASE (self));
    ret = klass->process_ip (self, stream, &frame);
    gst_cuda_vision_base_transform_work_ends (BASE (self));
    if (!gst_cuda_vision_base_transform_end_access (BASE (self), mem))
      ret = gst_cuda_vision_base_transform_core_error (BASE (self),
          "Cannot order device work");
  } else {
    ret = gst_cuda_vision_base_transform_core_error (BASE (self),
        "Cannot order device work");
  }
  gst_video_frame_unmap (&frame);
  return ret;
}

static void
gst_cuda_vision_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime stream_time;

  /* controlled properties follow stream time, which only a TIME segment
   * gives */
  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT_CAST (trans), stream_time);
}

void
gst_cuda_vision_filter_release (GstCudaVisionFilter * self)
{
  GstCudaVisionFilterClass *klass = GST_CUDA_VISION_FILTER_GET_CLASS (self);

  if (klass->release == NULL)
    return;
  /* queued frames may still use what it frees */
  gst_cuda_vision_base_transform_finish_work (BASE (self));
  klass->release (self);
}

static gboolean
gst_cuda_vision_filter_set_info (GstCudaVisionBaseTransform * base,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info)
{
  GstCudaVisionFilter *self = GST_CUDA_VISION_FILTER (base);
  GstCudaVisionFilterClass *klass = GST_CUDA_VISION_FILTER_GET_CLASS (self);

  gst_cuda_vision_filter_release (self);
  return klass->prepare == NULL || klass->prepare (self, incaps, in_info,
      outcaps, out_info);
}

static gboolean
gst_cuda_vision_filter_stop (GstBaseTransform * trans)
{
  gst_cuda_vision_filter_release (GST_CUDA_VISION_FILTER (trans));
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_filter_parent_class)->stop
      (trans);
}

static void
gst_cuda_vision_filter_class_init (GstCudaVisionFilterClass * klass)
{
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  trans_class->transform_caps = gst_cuda_vision_filter_transform_caps;
  trans_class->transform = gst_cuda_vision_filter_transform;
  trans_class->transform_ip = gst_cuda_vision_filter_transform_ip;
  trans_class->before_transform = gst_cuda_vision_filter_before_transform;
  trans_class->stop = gst_cuda_vision_filter_stop;
  GST_CUDA_VISION_BASE_TRANSFORM_CLASS (klass)->set_info =
      gst_cuda_vision_filter_set_info;
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_FILTER, 0);
}

static void
gst_cuda_vision_filter_init (GstCudaVisionFilter * self)
{
}
