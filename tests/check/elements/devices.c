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

/* Several devices: which device each element takes (device-id, and -1,
 * automatic), and frames that cross from one device to another by peer
 * copies, bit-exact, in our memory and in memory:CUDAMemory. The CPU
 * backend runs them with two devices (CVCORE_CPU_DEVICES); on CUDA they
 * need two GPUs and are skipped with fewer. */
#include <string.h>

#include <gst/app/app.h>

#include "cvtest.h"

/* The device of @element, as it answers a device context query. */
static gint
device_of (GstElement * element)
{
  GstQuery *query = gst_query_new_context ("gst.cudavision.device");
  GstContext *context = NULL;
  gint id = -2;

  fail_unless (gst_element_query (element, query), "%s answered no context "
      "query", GST_OBJECT_NAME (element));
  gst_query_parse_context (query, &context);
  fail_unless (context != NULL);
  fail_unless (gst_structure_get_int (gst_context_get_structure (context),
          "device-id", &id));
  gst_query_unref (query);
  return id;
}

static gboolean
have_two_devices (void)
{
  int devices = 0;

  return cvcore_device_count (cvtest_backend (), &devices) == CVCORE_OK
      && devices >= 2;
}

/* `appsrc ! MIDDLE ! appsink` with random frames of @format at an odd size
 * and padded rows in, each checked against @reference (the same middle
 * on one device) or, without one, against the input. */
static void
check_frames (const gchar * middle, const gchar * reference,
    GstVideoFormat format)
{
  const gchar *chains[2] = { middle, reference };
  GstBuffer *outputs[2][3] = { {NULL} };
  GstVideoInfo info, padded;
  GstBuffer *inputs[3];

  gst_video_info_set_format (&info, format, 323, 97);
  cvtest_padded_info (&padded, format, 323, 97, 29, 64);
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++) {
    inputs[i] = cvtest_random_frame (&padded, 7 * i + format);
    GST_BUFFER_PTS (inputs[i]) = i * GST_SECOND / 30;
  }
  for (guint c = 0; c < 2 && chains[c]; c++) {
    gchar *description = g_strdup_printf ("appsrc name=src format=time ! %s "
        "! video/x-raw ! appsink name=sink sync=false wait-on-eos=false",
        chains[c]);
    GstElement *pipeline = gst_parse_launch (description, NULL);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
    GstCaps *caps = gst_video_info_to_caps (&info);

    g_object_set (src, "caps", caps, NULL);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
        != GST_STATE_CHANGE_FAILURE, "'%s' did not start", description);
    for (guint i = 0; i < G_N_ELEMENTS (inputs); i++) {
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
              gst_buffer_ref (inputs[i])), GST_FLOW_OK);
      outputs[c][i] = cvtest_pull_buffer (sink);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (outputs[c][i]),
          GST_BUFFER_PTS (inputs[i]));
    }
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_caps_unref (caps);
    gst_object_unref (src);
    gst_object_unref (sink);
    gst_object_unref (pipeline);
    g_free (description);
  }
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++) {
    cvtest_assert_frames_equal (reference ? outputs[1][i] : inputs[i],
        outputs[0][i], &info);
    gst_buffer_unref (outputs[0][i]);
    if (outputs[1][i])
      gst_buffer_unref (outputs[1][i]);
    gst_buffer_unref (inputs[i]);
  }
}

static const GstVideoFormat copied_formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_GRAY8,
};

/* Every byte of a frame survives the copy from one device to the other,
 * both ways, in our memory. */
GST_START_TEST (test_peer_copy_bit_exact)
{
  GstVideoFormat format = copied_formats[__i__];

  if (!have_two_devices ())
    return;
  check_frames ("cudavisionupload device-id=1 ! "
      "cudavisiondownload device-id=0", NULL, format);
  check_frames ("cudavisionupload device-id=0 ! "
      "cudavisiondownload device-id=1", NULL, format);
}

GST_END_TEST;

/* A filter whose input comes from the other device gives what it gives on
 * one device. */
GST_START_TEST (test_filter_across_devices)
{
  if (!have_two_devices ())
    return;
  check_frames ("cudavisionupload device-id=1 ! cudaconvolve "
      "preset=gaussian5 device-id=0 ! cudavisiondownload device-id=1",
      "cudavisionupload ! cudaconvolve preset=gaussian5 ! "
      "cudavisiondownload", GST_VIDEO_FORMAT_NV12);
  check_frames ("cudavisionupload device-id=0 ! cudafoveate device-id=1 ! "
      "cudavisiondownload device-id=0",
      "cudavisionupload ! cudafoveate ! cudavisiondownload",
      GST_VIDEO_FORMAT_RGBA);
}

GST_END_TEST;

/* New caps mid-stream: frames of the new size cross devices intact. */
GST_START_TEST (test_peer_copy_renegotiation)
{
  static const gint sizes[][2] = { {64, 48}, {97, 31}, {64, 48} };
  GstHarness *h;

  if (!have_two_devices ())
    return;
  h = gst_harness_new_parse ("cudavisionupload device-id=1 ! "
      "cudavisiondownload device-id=0");
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    GstVideoInfo info;
    GstBuffer *in, *out;

    cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_NV12, sizes[s][0], sizes[s][1]);
    in = cvtest_random_frame (&info, s + 1);
    out = cvtest_push_frame (h, in);
    cvtest_assert_frames_equal (in, out, &info);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames in GStreamer's CUDA memory cross devices too (CUDA backend built
 * with GStreamer's CUDA library only). */
GST_START_TEST (test_cuda_memory_peer_copy)
{
  GstElementFactory *upload = gst_element_factory_find ("cudavisionupload");
  GstCaps *caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory)");
  gboolean carried = FALSE;

  for (const GList * t =
      gst_element_factory_get_static_pad_templates (upload); t; t = t->next) {
    GstStaticPadTemplate *templ = t->data;
    GstCaps *template_caps = gst_static_pad_template_get_caps (templ);

    carried |= templ->direction == GST_PAD_SRC
        && gst_caps_can_intersect (template_caps, caps);
    gst_caps_unref (template_caps);
  }
  gst_caps_unref (caps);
  gst_object_unref (upload);
  if (!have_two_devices () || cvtest_backend () != CVCORE_BACKEND_CUDA
      || !carried)
    return;
  check_frames ("cudavisionupload device-id=1 ! "
      "video/x-raw(memory:CUDAMemory) ! cudavisiondownload device-id=0",
      NULL, GST_VIDEO_FORMAT_NV12);
  check_frames ("cudavisionupload device-id=0 ! "
      "video/x-raw(memory:CUDAMemory) ! cudafoveate device-id=1 ! "
      "cudavisiondownload device-id=1",
      "cudavisionupload ! cudafoveate ! cudavisiondownload",
      GST_VIDEO_FORMAT_RGBA);
}

GST_END_TEST;

/* Runs @description (elements named a, b, c) to its end, then returns the
 * device of each, as "a b c". */
static gchar *
devices_taken (const gchar * description)
{
  GstElement *pipeline = gst_parse_launch (description, NULL);
  GString *ids = g_string_new (NULL);
  const gchar *names[] = { "a", "b", "c" };

  fail_unless (pipeline != NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED)
      != GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElement *element = gst_bin_get_by_name (GST_BIN (pipeline), names[i]);

    g_string_append_printf (ids, "%s%d", i ? " " : "", device_of (element));
    gst_object_unref (element);
  }
  fail_unless (cvtest_run_to_end (pipeline, 10 * GST_SECOND) == NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return g_string_free (ids, FALSE);
}

static void
assert_devices (const gchar * a, const gchar * b, const gchar * c,
    const gchar * expected)
{
  gchar *description = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,width=64,height=48 ! cudavisionupload name=a %s ! "
      "cudafoveate name=b %s ! cudavisiondownload name=c %s ! fakesink", a,
      b, c);
  gchar *ids = devices_taken (description);

  fail_unless_equals_string (ids, expected);
  g_free (ids);
  g_free (description);
}

/* device-id picks the device; -1 takes the neighbours' (through other
 * automatic elements, whichever side has it), or device 0. */
GST_START_TEST (test_device_selection)
{
  assert_devices ("", "", "", "0 0 0");
  assert_devices ("device-id=-1", "device-id=-1", "device-id=-1", "0 0 0");
  if (!have_two_devices ())
    return;
  assert_devices ("device-id=1", "device-id=1", "device-id=1", "1 1 1");
  assert_devices ("device-id=1", "device-id=0", "device-id=1", "1 0 1");
  assert_devices ("device-id=1", "device-id=-1", "device-id=-1", "1 1 1");
  assert_devices ("device-id=-1", "device-id=-1", "device-id=1", "1 1 1");
  assert_devices ("device-id=-1", "device-id=1", "device-id=-1", "1 1 1");
}

GST_END_TEST;

static Suite *
devices_suite (void)
{
  Suite *s = suite_create ("devices");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_device_selection);
  tcase_add_loop_test (tc, test_peer_copy_bit_exact, 0,
      G_N_ELEMENTS (copied_formats));
  tcase_add_test (tc, test_filter_across_devices);
  tcase_add_test (tc, test_peer_copy_renegotiation);
  tcase_add_test (tc, test_cuda_memory_peer_copy);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  /* two devices of the CPU backend, unless the caller says otherwise */
  g_setenv (CVCORE_CPU_DEVICES_ENV, "2", FALSE);
  return cvtest_main (argc, argv, devices_suite);
}
