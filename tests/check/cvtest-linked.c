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

/* Helpers of the test programs that link the plugin's objects: see the
 * header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cvtest-linked.h"
#include "cvtest.h"
#include "gstcudavisionbasetransform.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionplugin.h"

#include <string.h>

gboolean
cvtest_register_linked_plugin (void)
{
  return gst_plugin_register_static (GST_VERSION_MAJOR, GST_VERSION_MINOR,
      "cudavision", "cudavision (linked in)", gst_cuda_vision_plugin_init,
      PACKAGE_VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_NAME,
      GST_PACKAGE_ORIGIN);
}

/* A buffer of @feature's device memory with room for @room, from the
 * pool its kind of memory comes from. */
static GstBuffer *
device_buffer (GstElement * element, const gchar * feature,
    const GstVideoInfo * room)
{
  GstCudaVisionBaseTransform *base = GST_CUDA_VISION_BASE_TRANSFORM (element);
  GstCudaVisionDevice *device = gst_cuda_vision_base_transform_get_device
      (base);
  GstCaps *caps = gst_video_info_to_caps (room);
  GstBufferPool *pool;
  GstBuffer *pooled = NULL, *buffer = gst_buffer_new ();

  fail_unless (device != NULL);
  gst_caps_set_features (caps, 0, gst_caps_features_new (feature, NULL));
  pool = strcmp (feature, GST_CAPS_FEATURE_MEMORY_CUDA_VISION) == 0 ?
      gst_cuda_vision_buffer_pool_new_configured (device, caps, 1, 0) :
      gst_cuda_vision_cuda_pool_new_configured (device,
      gst_cuda_vision_base_transform_get_stream (base), caps, 1, 0);
  fail_unless (pool != NULL);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &pooled,
          NULL), GST_FLOW_OK);
  /* the memory alone, without the pool's meta: the test lays the frame
   * out itself */
  gst_buffer_append_memory (buffer,
      gst_memory_ref (gst_buffer_peek_memory (pooled, 0)));
  gst_buffer_unref (pooled);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
  return buffer;
}

/* Copies @host into the whole of device memory @mem, through its device
 * pointer (GST_MAP_CUDA_VISION, for either kind): a host map would copy
 * only the planes of the memory's own layout. */
static void
upload_whole_memory (GstCudaVisionDevice * device, GstMemory * mem,
    const guint8 * host)
{
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  cvcore_stream *stream;
  GstMapInfo map;

  fail_unless_equals_int (cvcore_stream_new (core, &stream), CVCORE_OK);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE | GST_MAP_CUDA_VISION));
  fail_unless_equals_int (cvcore_copy_async (stream, map.data, host,
          mem->size, CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  gst_memory_unmap (mem, &map);
  cvcore_stream_free (stream);
}

void
cvtest_assert_meta_layout_followed (const gchar * feature)
{
  gchar *launch = g_strdup_printf ("cudaconvolve name=c preset=identity ! "
      "cudavisiondownload");
  gchar *caps = g_strdup_printf ("video/x-raw(%s),format=I420,width=64,"
      "height=48,framerate=30/1", feature);
  GstHarness *h = gst_harness_new_parse (launch);
  GstElement *convolve = gst_bin_get_by_name (GST_BIN (h->element), "c");
  GstVideoInfo info, room;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  const GstVideoInfo *layout;
  GstBuffer *in, *out;
  GstMemory *mem;
  guint8 *bytes;
  GstVideoFrame frame;

  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  gst_video_info_set_format (&room, GST_VIDEO_FORMAT_I420, 64, 52);
  GST_VIDEO_INFO_FPS_N (&room) = 30;
  in = device_buffer (convolve, feature, &room);
  mem = gst_buffer_peek_memory (in, 0);
  layout = gst_cuda_vision_device_memory_layout (mem);
  fail_unless (layout != NULL);
  for (guint p = 0; p < 3; p++) {
    offset[p] = layout->offset[p] + (p == 2 ? layout->stride[p] / 2 : 0);
    stride[p] = layout->stride[p];
  }
  bytes = g_malloc (mem->size);
  cvtest_fill_random (bytes, mem->size, 11);
  upload_whole_memory (gst_cuda_vision_base_transform_get_device
      (GST_CUDA_VISION_BASE_TRANSFORM (convolve)), mem, bytes);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 64, 48, 3, offset, stride);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  for (guint p = 0; p < 3; p++)
    for (gint y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&info, p); y++)
      fail_unless (memcmp (bytes + offset[p] + y * stride[p],
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
              GST_VIDEO_INFO_COMP_WIDTH (&info, p)) == 0, "%s: plane %u row %d",
          feature, p, y);
  gst_video_frame_unmap (&frame);
  g_free (bytes);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_object_unref (convolve);
  gst_harness_teardown (h);
  g_free (caps);
  g_free (launch);
}
