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

/* cudaupload and cudadownload with frames in ordinary memory: staged by
 * several threads, and page-locked when recycled. The plugin is registered
 * statically, so that the core's bookkeeping of registered memory (the
 * CPU backend's, in a program without a GPU) is the one the test sees. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstharness.h>

#include "cvtest.h"
#include "cvtest-linked.h"

/* TRUE when @buffer's memory is page-locked by registration: registering
 * it again is refused (the CPU backend keeps CUDA's bookkeeping). */
static gboolean
buffer_registered (cvcore_device * core, GstBuffer * buffer)
{
  GstMapInfo map;
  gboolean registered;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  registered = cvcore_host_register (core, map.data, map.size) != CVCORE_OK;
  if (!registered)
    fail_unless_equals_int (cvcore_host_unregister (core, map.data), CVCORE_OK);
  gst_buffer_unmap (buffer, &map);
  return registered;
}

static const GstVideoFormat staged_formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
};

/* Ordinary buffers that upstream sends again and again: bit-exact through
 * staging with one thread and several (frames big enough for many pieces,
 * odd sizes, padded rows), page-locked from their second upload on when
 * pin-recycled is set and never when not, and unregistered when freed. */
GST_START_TEST (test_recycled_pageable_input)
{
  const guint copy_threads = __i__ % 2 ? 3 : 1;
  const gboolean pin = __i__ / 2 % 2 == 0;
  const GstVideoFormat format = staged_formats[__i__ / 4];
  cvcore_device *core;
  GstVideoInfo info, padded;
  guint8 *blocks[2];
  GstBuffer *inputs[2];
  gchar *desc = g_strdup_printf ("cudavisionupload copy-threads=%u "
      "pin-recycled=%d ! cudavisiondownload", copy_threads, pin);
  GstHarness *h = gst_harness_new_parse (desc);

  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), 0, &core),
      CVCORE_OK);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cvtest_set_caps (h, &info, format, 1001, 703);
  cvtest_padded_info (&padded, format, 1001, 703, 37, 100);
  for (guint b = 0; b < 2; b++) {
    blocks[b] = g_malloc (padded.size);
    inputs[b] = gst_buffer_new_wrapped_full (0, blocks[b], padded.size, 0,
        padded.size, NULL, NULL);
    cvtest_fill_frame_buffer (inputs[b], &padded, 50 + b);
  }
  for (guint round = 0; round < 3; round++) {
    for (guint b = 0; b < 2; b++) {
      GstBuffer *out = cvtest_push_frame (h, inputs[b]);

      cvtest_assert_frames_equal (inputs[b], out, &info);
      gst_buffer_unref (out);
      fail_unless_equals_int (buffer_registered (core, inputs[b]),
          pin && round >= 1);
    }
  }
  gst_harness_teardown (h);
  for (guint b = 0; b < 2; b++) {
    gst_buffer_unref (inputs[b]);
    /* freed with the memory: the range registers anew */
    fail_unless_equals_int (cvcore_host_register (core, blocks[b],
            padded.size), CVCORE_OK);
    fail_unless_equals_int (cvcore_host_unregister (core, blocks[b]),
        CVCORE_OK);
    g_free (blocks[b]);
  }
  cvcore_device_close (core);
  g_free (desc);
}

GST_END_TEST;

/* A pool of downstream's own kind, as a display sink offers. */
typedef GstVideoBufferPool OwnPool;
typedef GstVideoBufferPoolClass OwnPoolClass;
static GType own_pool_get_type (void);
G_DEFINE_TYPE (OwnPool, own_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static void
own_pool_class_init (OwnPoolClass * klass)
{
}

static void
own_pool_init (OwnPool * self)
{
}

static GstPadProbeReturn
offer_own_pool (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool **pool = data;
  GstCaps *caps;
  GstVideoInfo vinfo;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  if (*pool == NULL)
    *pool = g_object_new (own_pool_get_type (), NULL);
  gst_query_add_allocation_pool (query, *pool, vinfo.size, 2, 2);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return GST_PAD_PROBE_HANDLED;
}

/* Downstream's own pool is kept: frames are downloaded into its ordinary
 * buffers bit-exact, through staging with one thread and several, and
 * its recycled buffers are page-locked when pin-recycled is set. */
GST_START_TEST (test_download_into_downstream_pool)
{
  const guint copy_threads = __i__ % 2 ? 3 : 1;
  const gboolean pin = __i__ / 2 % 2 == 0;
  const GstVideoFormat format = staged_formats[__i__ / 4];
  GstBufferPool *pool = NULL;
  cvcore_device *core;
  gboolean any_registered = FALSE;
  GstVideoInfo info;
  gchar *desc = g_strdup_printf ("cudavisionupload ! cudavisiondownload "
      "copy-threads=%u pin-recycled=%d", copy_threads, pin);
  GstHarness *h = gst_harness_new_parse (desc);

  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), 0, &core),
      CVCORE_OK);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      offer_own_pool, &pool, NULL);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cvtest_set_caps (h, &info, format, 1001, 703);
  for (guint i = 0; i < 6; i++) {
    GstBuffer *in = cvtest_random_frame (&info, 70 + i);
    GstBuffer *out = cvtest_push_frame (h, in);

    fail_unless (out->pool == pool, "not downloaded into downstream's pool");
    cvtest_assert_frames_equal (in, out, &info);
    any_registered |= buffer_registered (core, out);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (any_registered, pin);
  gst_harness_teardown (h);
  gst_object_unref (pool);
  cvcore_device_close (core);
  g_free (desc);
}

GST_END_TEST;

static Suite *
hosttransfer_suite (void)
{
  Suite *s = suite_create ("hosttransfer");
  TCase *tc = tcase_create ("general");

  if (!cvtest_register_linked_plugin ())
    g_error ("cannot register the elements under test");

  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_recycled_pageable_input, 0,
      4 * G_N_ELEMENTS (staged_formats));
  tcase_add_loop_test (tc, test_download_into_downstream_pool, 0,
      4 * G_N_ELEMENTS (staged_formats));
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, hosttransfer_suite);
}
