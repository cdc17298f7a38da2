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

/* cudaupload and cudadownload: round trips, negotiation, pools, state
 * changes, flushing, renegotiation and errors. */
#include <string.h>

#include <gmodule.h>
#include <gst/check/gstharness.h>

#include "cvtest.h"

#define DEVICE_FEATURE "memory:CUDAVisionMemory"
#define HOST_MEMORY_TYPE "CUDAVisionHostMemory"
#define DEVICE_MEMORY_TYPE "CUDAVisionMemory"

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_Y444, CVTEST_RGBA64_ITEM
      GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE,
};

static const gint sizes[][2] = {
  {1, 1}, {2, 2}, {3, 7}, {640, 480}, {1921, 1081},
};

/* Under valgrind (CVTEST_QUICK set) the largest size is exercised by one
 * format only: the point there is memory errors, not coverage. */
static gboolean
quick_mode (void)
{
  return g_getenv ("CVTEST_QUICK") != NULL;
}

typedef enum
{
  INPUT_PAGEABLE,               /* plain system memory, default layout */
  INPUT_PADDED,                 /* system memory with padded rows and gaps */
  INPUT_PINNED,                 /* buffers from the pool cudaupload proposes */
} InputKind;

static GstBufferPool *
proposed_pool (GstHarness * h, GstCaps * caps)
{
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size;

  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_get_n_allocation_pools (query) > 0);
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, NULL, NULL);
  fail_unless (pool != NULL);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_query_unref (query);
  return pool;
}

static gboolean
buffer_has_memory_type (GstBuffer * buffer, const gchar * type)
{
  for (guint i = 0; i < gst_buffer_n_memory (buffer); i++)
    if (!gst_memory_is_type (gst_buffer_peek_memory (buffer, i), type))
      return FALSE;
  return gst_buffer_n_memory (buffer) > 0;
}

static GstBuffer *
make_input (GstHarness * h, GstCaps * caps, const GstVideoInfo * info,
    InputKind kind, GstBufferPool * pool, guint32 seed)
{
  GstVideoInfo padded;
  GstBuffer *buffer = NULL;

  switch (kind) {
    case INPUT_PAGEABLE:
      return cvtest_random_frame (info, seed);
    case INPUT_PADDED:
      cvtest_padded_info (&padded, GST_VIDEO_INFO_FORMAT (info),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), 37, 100);
      return cvtest_random_frame (&padded, seed);
    case INPUT_PINNED:
      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
              NULL), GST_FLOW_OK);
      fail_unless (buffer_has_memory_type (buffer, HOST_MEMORY_TYPE));
      cvtest_fill_frame_buffer (buffer, info, seed);
      return buffer;
  }
  return NULL;
}

/* Pushes @n_frames random frames through @h and checks each comes back
 * bit-exact in pinned memory. */
static void
check_round_trip (GstHarness * h, GstVideoFormat format, gint width,
    gint height, InputKind kind, guint n_frames)
{
  GstVideoInfo info;
  GstCaps *caps;
  GstBufferPool *pool = NULL;

  gst_video_info_set_format (&info, format, width, height);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  caps = gst_video_info_to_caps (&info);
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  if (kind == INPUT_PINNED)
    pool = proposed_pool (h, caps);

  for (guint i = 0; i < n_frames; i++) {
    GstBuffer *in = make_input (h, caps, &info, kind, pool, width * 31 + i);
    GstBuffer *out;

    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    gst_buffer_ref (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (buffer_has_memory_type (out, HOST_MEMORY_TYPE),
        "download did not output pinned memory");
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
    cvtest_assert_frames_equal (in, out, &info);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_caps_unref (caps);
}

static GstHarness *
transfer_harness (void)
{
  GstHarness *h =
      gst_harness_new_parse ("cudavisionupload ! cudavisiondownload");

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  return h;
}

GST_START_TEST (test_round_trip_every_format)
{
  GstVideoFormat format = formats[__i__];

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    if (quick_mode () && sizes[s][0] > 1000 && __i__ != 0)
      continue;
    for (InputKind kind = INPUT_PAGEABLE; kind <= INPUT_PINNED; kind++) {
      GstHarness *h = transfer_harness ();

      check_round_trip (h, format, sizes[s][0], sizes[s][1], kind, 2);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* A mosaic written into the pool that cudaupload proposes, as a standard
 * source such as rgb2bayer does: no video meta that no frame can map. */
GST_START_TEST (test_bayer_in_proposed_pool)
{
  GstHarness *h =
      gst_harness_new_parse ("cudavisionupload ! cudavisiondownload");
  GstCaps *caps =
      gst_caps_from_string ("video/x-bayer,format=rggb,"
      "width=128,height=96,framerate=30/1");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer *in = NULL, *out;
  GstMapInfo a, b;

  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  gst_harness_set_sink_caps_str (h, "video/x-bayer");
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  fail_unless (pool != NULL && gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in, NULL),
      GST_FLOW_OK);
  fail_if (gst_buffer_get_video_meta (in));
  fail_unless (gst_buffer_map (in, &a, GST_MAP_WRITE));
  cvtest_fill_random (a.data, 128 * 96, 5);
  gst_buffer_unmap (in, &a);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
  fail_unless (memcmp (a.data, b.data, 128 * 96) == 0);
  gst_buffer_unmap (in, &a);
  gst_buffer_unmap (out, &b);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A mosaic from an application, rows unpadded and no video meta, goes
 * through; a buffer of neither size is refused, not read past its end. */
GST_START_TEST (test_bayer_unpadded)
{
  GstHarness *h =
      gst_harness_new_parse ("cudavisionupload ! cudavisiondownload");
  GstBuffer *in = gst_buffer_new_allocate (NULL, 17 * 15, NULL), *out;
  GstVideoMeta *meta;
  GstMapInfo a, b;

  gst_harness_set_src_caps_str (h, "video/x-bayer,format=rggb,width=17,"
      "height=15,framerate=30/1");
  gst_harness_set_sink_caps_str (h, "video/x-bayer");
  fail_unless (gst_buffer_map (in, &a, GST_MAP_WRITE));
  cvtest_fill_random (a.data, a.size, 9);
  gst_buffer_unmap (in, &a);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  meta = gst_buffer_get_video_meta (out);
  fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
  for (gint y = 0; y < 15; y++)
    fail_unless (memcmp (a.data + y * 17, b.data + (meta ? meta->offset[0] +
                y * meta->stride[0] : (gsize) y * 20), 17) == 0, "row %d", y);
  gst_buffer_unmap (in, &a);
  gst_buffer_unmap (out, &b);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              100, NULL)), GST_FLOW_ERROR);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Bayer mosaics, 8 and 16 bits, odd sizes (rows padded to 4 bytes, as
 * GStreamer's bayer elements lay them out): bit-exact through the GPU. */
GST_START_TEST (test_bayer_round_trip)
{
  static const gchar *formats[] = { "rggb", "gbrg16le" };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    const gint bytes = f ? 2 : 1, w = 37, rows = 21;
    GstHarness *h =
        gst_harness_new_parse ("cudavisionupload ! cudavisiondownload");
    gchar *caps =
        g_strdup_printf ("video/x-bayer,format=%s,width=%d,"
        "height=%d,framerate=30/1", formats[f], w, rows);
    const gsize in_stride = GST_ROUND_UP_4 (w * bytes);
    GstBuffer *in = gst_buffer_new_allocate (NULL, in_stride * rows, NULL),
        *out;
    GstMapInfo a, b;

    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, "video/x-bayer");
    fail_unless (gst_buffer_map (in, &a, GST_MAP_WRITE));
    cvtest_fill_random (a.data, a.size, 17 + f);
    gst_buffer_unmap (in, &a);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    {
      GstVideoMeta *meta = gst_buffer_get_video_meta (out);
      const gsize stride = meta ? (gsize) meta->stride[0] : in_stride;
      const gsize offset = meta ? meta->offset[0] : 0;

      fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
      for (gint y = 0; y < rows; y++)
        fail_unless (memcmp (a.data + y * in_stride, b.data + offset +
                y * stride, w * bytes) == 0, "%s, row %d", formats[f], y);
      gst_buffer_unmap (in, &a);
      gst_buffer_unmap (out, &b);
    }
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    g_free (caps);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  GstHarness *h = transfer_harness ();

  check_round_trip (h, GST_VIDEO_FORMAT_RGBA, 320, 240, INPUT_PINNED, 3);
  check_round_trip (h, GST_VIDEO_FORMAT_RGBA, 641, 481, INPUT_PAGEABLE, 3);
  check_round_trip (h, GST_VIDEO_FORMAT_NV12, 641, 481, INPUT_PADDED, 3);
  check_round_trip (h, GST_VIDEO_FORMAT_I420_10LE, 33, 9, INPUT_PINNED, 3);
  check_round_trip (h, GST_VIDEO_FORMAT_RGBA, 320, 240, INPUT_PINNED, 3);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Two uploads and two downloads in a row: the second upload and the first
 * download see device memory on both sides and pass through. */
GST_START_TEST (test_passthrough_chain)
{
  GstHarness *h =
      gst_harness_new_parse
      ("cudavisionupload name=u1 ! cudavisionupload name=u2 ! "
      "cudavisiondownload name=d1 ! cudavisiondownload name=d2");
  GstElement *u2, *d2;

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  check_round_trip (h, GST_VIDEO_FORMAT_BGRx, 65, 17, INPUT_PADDED, 2);
  u2 = gst_bin_get_by_name (GST_BIN (h->element), "u2");
  d2 = gst_bin_get_by_name (GST_BIN (h->element), "d1");
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (u2)));
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (d2)));
  gst_object_unref (u2);
  gst_object_unref (d2);
  gst_harness_teardown (h);
}

GST_END_TEST;

static gboolean
caps_accepted (const gchar * element, const gchar * pad, const gchar * str)
{
  GstElement *e = gst_element_factory_make (element, NULL);
  GstPad *p = gst_element_get_static_pad (e, pad);
  GstCaps *caps = gst_caps_from_string (str);
  gboolean ok = gst_pad_query_accept_caps (p, caps);

  gst_caps_unref (caps);
  gst_object_unref (p);
  gst_object_unref (e);
  return ok;
}

static gboolean
cuda_memory_carried (void)
{
  GstElementFactory *factory = gst_element_factory_find ("cudavisiondownload");
  GstCaps *templ = NULL;
  gboolean built = FALSE;

  /* the templates name it in builds with GStreamer's CUDA library */
  for (const GList * l = gst_element_factory_get_static_pad_templates (factory);
      l; l = l->next) {
    GstStaticPadTemplate *t = l->data;

    templ = gst_static_caps_get (&t->static_caps);
    for (guint i = 0; i < gst_caps_get_size (templ); i++)
      built |= gst_caps_features_contains (gst_caps_get_features (templ, i),
          "memory:CUDAMemory");
    gst_caps_unref (templ);
  }
  gst_object_unref (factory);
  return built && cvtest_backend () == CVCORE_BACKEND_CUDA;
}

/* A buffer of the right size whose video meta puts a plane past its end,
 * or does not describe the caps' frame, is refused with an error: never
 * read (64x48 RGBA, 12288 bytes). A good meta still goes through. */
GST_START_TEST (test_bad_video_meta_refused)
{
  static const struct
  {
    GstVideoFormat format;
    guint width;
    gsize offset;
    gint stride;
  } metas[] = {
    {GST_VIDEO_FORMAT_RGBA, 64, 0, 8 * 256},    /* 8 times the stride */
    {GST_VIDEO_FORMAT_RGBA, 64, 0, -256},       /* negative */
    {GST_VIDEO_FORMAT_RGBA, 64, 12288 - 256, 256},      /* offset near the end */
    {GST_VIDEO_FORMAT_RGBA, 64, G_MAXSIZE - 8, 256},    /* offset overflowing */
    {GST_VIDEO_FORMAT_RGBA, 64, 0, 128},        /* stride below a row */
    {GST_VIDEO_FORMAT_RGBA, 32, 0, 256},        /* narrower than the caps */
    {GST_VIDEO_FORMAT_BGRx, 64, 0, 256},        /* another format */
    {GST_VIDEO_FORMAT_RGBA, 64, 0, 256},        /* good */
  };

  for (guint i = 0; i < G_N_ELEMENTS (metas); i++) {
    GstHarness *h = cvtest_filter_harness ("cudaconvolve", "preset=box3",
        NULL);
    const gboolean good = i == G_N_ELEMENTS (metas) - 1;
    GstVideoInfo info;
    GstBuffer *in;
    gsize offset[GST_VIDEO_MAX_PLANES] = { metas[i].offset };
    gint stride[GST_VIDEO_MAX_PLANES] = { metas[i].stride };

    cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGBA, 64, 48);
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_memset (in, 0, 0x40, info.size);
    gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
        metas[i].format, metas[i].width, 48, 1, offset, stride);
    fail_unless_equals_int (gst_harness_push (h, in),
        good ? GST_FLOW_OK : GST_FLOW_ERROR);
    if (good)
      gst_buffer_unref (gst_harness_pull (h));
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_caps_refused)
{
  fail_unless (caps_accepted ("cudavisionupload", "sink",
          "video/x-raw,format=NV12,width=64,height=48,framerate=30/1"));
  fail_if (caps_accepted ("cudavisionupload", "sink",
          "video/x-raw,format=YUY2,width=64,height=48,framerate=30/1"));
  /* GStreamer's CUDA memory only where the backend carries it: the CUDA
   * backend of a build with GStreamer's CUDA library. */
  fail_unless (caps_accepted ("cudavisiondownload", "sink",
          "video/x-raw(memory:CUDAMemory),format=NV12,width=64,height=48,"
          "framerate=30/1") == cuda_memory_carried ());
  fail_unless (caps_accepted ("cudavisiondownload", "sink",
          "video/x-raw(" DEVICE_FEATURE "),format=NV12,width=64,height=48,"
          "framerate=30/1"));
  /* not GRAY8, which its allocator cannot lay out */
  fail_if (caps_accepted ("cudavisiondownload", "sink",
          "video/x-raw(memory:CUDAMemory),format=GRAY8,width=64,height=48,"
          "framerate=30/1"));
}

GST_END_TEST;

/* Caps go through each element in both directions. */
GST_START_TEST (test_caps_transform)
{
  GstHarness *h = gst_harness_new ("cudavisionupload");
  GstCaps *caps, *expect;
  GstPad *pad;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=Y444,width=8,"
      "height=6,framerate=30/1");
  gst_harness_set_sink_caps_str (h, "video/x-raw(" DEVICE_FEATURE ")");
  pad = gst_element_get_static_pad (h->element, "src");
  caps = gst_pad_get_current_caps (pad);
  expect = gst_caps_from_string ("video/x-raw(" DEVICE_FEATURE "),"
      "format=Y444,width=8,height=6,framerate=30/1");
  fail_unless (gst_caps_is_equal_fixed (caps, expect));
  gst_caps_unref (caps);
  gst_caps_unref (expect);
  gst_object_unref (pad);

  /* Asked what its sink takes when downstream wants device memory: system
   * memory, and device memory to pass through. */
  pad = gst_element_get_static_pad (h->element, "sink");
  caps = gst_pad_query_caps (pad, NULL);
  expect = gst_caps_from_string ("video/x-raw,format=Y444,width=8,height=6,"
      "framerate=30/1");
  fail_unless (gst_caps_can_intersect (caps, expect));
  gst_caps_unref (expect);
  expect = gst_caps_from_string ("video/x-raw(" DEVICE_FEATURE "),"
      "format=Y444,width=8,height=6,framerate=30/1");
  fail_unless (gst_caps_can_intersect (caps, expect));
  gst_caps_unref (expect);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_harness_teardown (h);

  /* Download prefers system memory downstream. */
  h = gst_harness_new ("cudavisiondownload");
  pad = gst_element_get_static_pad (h->element, "src");
  caps = gst_pad_query_caps (pad, NULL);
  fail_unless (gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstPadProbeReturn
check_device_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  guint *count = data;

  fail_unless (buffer_has_memory_type (buffer, DEVICE_MEMORY_TYPE));
  fail_unless (meta != NULL);
  for (guint p = 0; p < meta->n_planes; p++)
    fail_unless (meta->stride[p] % 256 == 0, "plane %u stride %d", p,
        meta->stride[p]);
  g_atomic_int_inc (count);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
check_pinned_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  guint *count = data;

  fail_unless (buffer_has_memory_type (GST_PAD_PROBE_INFO_BUFFER (info),
          HOST_MEMORY_TYPE));
  g_atomic_int_inc (count);
  return GST_PAD_PROBE_OK;
}

static void
add_probe (GstElement * pipeline, const gchar * name, const gchar * pad_name,
    GstPadProbeCallback callback, guint * count)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstPad *pad = gst_element_get_static_pad (e, pad_name);

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, callback, count, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

/* A producer that takes the proposed pool writes into pinned memory; the
 * upload's output is device memory with aligned strides; the download's
 * output is pinned. */
GST_START_TEST (test_pools_in_pipeline)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=I420,width=319,height=241 ! cudavisionupload name=up ! "
      "cudavisiondownload name=down ! fakesink name=sink", NULL);
  guint pinned_in = 0, device = 0, pinned_out = 0;
  GstMessage *error;

  add_probe (pipeline, "up", "sink", check_pinned_buffer, &pinned_in);
  add_probe (pipeline, "up", "src", check_device_buffer, &device);
  add_probe (pipeline, "sink", "sink", check_pinned_buffer, &pinned_out);
  error = cvtest_run_to_end (pipeline, 20 * GST_SECOND);
  fail_unless (error == NULL);
  fail_unless_equals_int (pinned_in, 5);
  fail_unless_equals_int (device, 5);
  fail_unless_equals_int (pinned_out, 5);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_state_changes)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc is-live=true ! "
      "video/x-raw,format=NV12,width=160,height=120,framerate=200/1 ! "
      "cudavisionupload ! queue ! cudavisiondownload ! fakesink sync=false",
      NULL);

  for (guint i = 0; i < 6; i++) {
    GstState target = i % 2 ? GST_STATE_PAUSED : GST_STATE_PLAYING;

    fail_unless (gst_element_set_state (pipeline, target)
        != GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
            10 * GST_SECOND), i % 2 ? GST_STATE_CHANGE_NO_PREROLL :
        GST_STATE_CHANGE_SUCCESS);
    g_usleep (20000);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL)
        == GST_STATE_CHANGE_SUCCESS);
  }
  /* And once through READY only. */
  fail_unless (gst_element_set_state (pipeline, GST_STATE_READY)
      == GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL)
      == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A flushing seek back to the start while frames are in flight yields the
 * first frame again, intact. */
GST_START_TEST (test_flushing_seek)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc pattern=ball ! "
      "video/x-raw,format=RGBA,width=200,height=150,framerate=30/1 ! "
      "cudavisionupload ! queue max-size-buffers=3 ! cudavisiondownload ! "
      "appsink name=sink sync=false max-buffers=2", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstVideoInfo info;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 200, 150);
  cvtest_assert_seek_restarts (pipeline, sink, &info);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A frame written through a plain host map of device memory reaches the
 * download: generic elements can touch our buffers. */
static GstPadProbeReturn
overwrite_first_row (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buffer = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER
      (info));
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, data, buffer,
          GST_MAP_READ | GST_MAP_WRITE));
  memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0), 0x5a,
      GST_VIDEO_FRAME_COMP_WIDTH (&frame, 0) * 4);
  gst_video_frame_unmap (&frame);
  GST_PAD_PROBE_INFO_DATA (info) = buffer;
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_host_map_of_device_memory)
{
  GstHarness *h =
      gst_harness_new_parse ("cudavisionupload ! cudavisiondownload name=d");
  GstElement *down = gst_bin_get_by_name (GST_BIN (h->element), "d");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoFrame frame;
  GstPad *pad;

  fail_unless (down != NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 37, 11);
  pad = gst_element_get_static_pad (down, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, overwrite_first_row,
      &info, NULL);
  gst_object_unref (pad);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));

  in = cvtest_random_frame (&info, 99);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  for (gint x = 0; x < 37 * 4; x++)
    fail_unless_equals_int (((guint8 *)
            GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[x], 0x5a);
  gst_video_frame_unmap (&frame);

  /* Everything below the first row is the input's. */
  {
    GstVideoFrame fin;

    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
    for (gint y = 1; y < 11; y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, 0) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), 37 * 4) == 0);
    gst_video_frame_unmap (&frame);
    gst_video_frame_unmap (&fin);
  }
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_object_unref (down);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstBusSyncReply
count_device_contexts (GstBus * bus, GstMessage * msg, gpointer data)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext *context;

    gst_message_parse_have_context (msg, &context);
    if (gst_context_has_context_type (context, "gst.cudavision.device"))
      g_atomic_int_inc ((guint *) data);
    gst_context_unref (context);
  }
  return GST_BUS_PASS;
}

/* The elements of a pipeline share one device: only the first creates it. */
GST_START_TEST (test_device_shared_by_context)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "cudavisionupload ! cudavisiondownload ! cudavisionupload ! cudavisiondownload ! fakesink",
      NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  guint contexts = 0;

  gst_bus_set_sync_handler (bus, count_device_contexts, &contexts, NULL);
  fail_unless (cvtest_run_to_end (pipeline, 20 * GST_SECOND) == NULL);
  fail_unless_equals_int (contexts, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static void
expect_start_error (const gchar * description, GQuark domain,
    const gchar * needle)
{
  GstElement *pipeline = gst_parse_launch (description, NULL);
  GstMessage *msg = cvtest_run_to_end (pipeline, 20 * GST_SECOND);
  GError *error = NULL;
  gchar *debug = NULL;

  fail_unless (msg != NULL, "'%s' did not fail", description);
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (error->domain == domain, "%s: %s",
      g_quark_to_string (error->domain), error->message);
  fail_unless (strstr (error->message, needle) != NULL,
      "error '%s' does not say '%s'", error->message, needle);
  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* Interlaced video is refused with an error that says so, interleaved or
 * mixed. */
GST_START_TEST (test_interlaced_refused)
{
  expect_start_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,interlace-mode=interleaved ! cudavisionupload ! fakesink",
      GST_STREAM_ERROR, "Interlaced");
  expect_start_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,interlace-mode=mixed ! cudavisionupload ! fakesink",
      GST_STREAM_ERROR, "Interlaced");
}

GST_END_TEST;

GST_START_TEST (test_device_id_out_of_range)
{
  expect_start_error
      ("videotestsrc num-buffers=1 ! cudavisionupload device-id=99 "
      "! fakesink", GST_RESOURCE_ERROR, "out of range");
  expect_start_error ("videotestsrc num-buffers=1 ! cudavisionupload ! "
      "cudavisiondownload device-id=5 ! fakesink", GST_RESOURCE_ERROR,
      "out of range");
}

GST_END_TEST;

/* Whether the NVIDIA driver's library is installed (with Debian's CUDA
 * toolkit, say), on a machine that may have no GPU. */
static gboolean
driver_installed (void)
{
  GModule *driver = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);

  if (driver)
    g_module_close (driver);
  return driver != NULL;
}

/* Without a usable CUDA device the default backend fails to start with an
 * error that names the cause. */
GST_START_TEST (test_no_cuda_device)
{
  gchar *saved = g_strdup (g_getenv ("GST_CUDAVISION_BACKEND"));

  if (cvtest_cuda_available ()) {
    g_free (saved);
    return;
  }
  g_setenv ("GST_CUDAVISION_BACKEND", "cuda", TRUE);
  if (cvcore_backend_is_built (CVCORE_BACKEND_CUDA) && driver_installed ())
    expect_start_error
        ("videotestsrc num-buffers=1 ! cudavisionupload ! fakesink",
        GST_RESOURCE_ERROR, "no CUDA device");
  else
    expect_start_error
        ("videotestsrc num-buffers=1 ! cudavisionupload ! fakesink",
        GST_LIBRARY_ERROR,
        cvcore_backend_is_built (CVCORE_BACKEND_CUDA) ? "driver" : "CUDA");
  cvtest_restore_env ("GST_CUDAVISION_BACKEND", saved);
}

GST_END_TEST;

GST_START_TEST (test_unknown_backend)
{
  gchar *saved = g_strdup (g_getenv ("GST_CUDAVISION_BACKEND"));

  g_setenv ("GST_CUDAVISION_BACKEND", "opencl", TRUE);
  expect_start_error
      ("videotestsrc num-buffers=1 ! cudavisionupload ! fakesink",
      GST_LIBRARY_ERROR, "opencl");
  cvtest_restore_env ("GST_CUDAVISION_BACKEND", saved);
}

GST_END_TEST;

static Suite *
cudatransfer_suite (void)
{
  Suite *s = suite_create ("cudatransfer");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_round_trip_every_format, 0,
      G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_bayer_round_trip);
  tcase_add_test (tc, test_bayer_in_proposed_pool);
  tcase_add_test (tc, test_bayer_unpadded);
  tcase_add_test (tc, test_passthrough_chain);
  tcase_add_test (tc, test_caps_refused);
  tcase_add_test (tc, test_bad_video_meta_refused);
  tcase_add_test (tc, test_caps_transform);
  tcase_add_test (tc, test_pools_in_pipeline);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_flushing_seek);
  tcase_add_test (tc, test_host_map_of_device_memory);
  tcase_add_test (tc, test_device_shared_by_context);
  tcase_add_test (tc, test_device_id_out_of_range);
  tcase_add_test (tc, test_interlaced_refused);
  tcase_add_test (tc, test_no_cuda_device);
  tcase_add_test (tc, test_unknown_backend);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudatransfer_suite);
}
