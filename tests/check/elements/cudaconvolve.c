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

/* cudaconvolve as an element: formats, known results, alpha, properties
 * while playing, malformed kernels. The arithmetic itself is tested in
 * convolve.c. */
#include <string.h>

#include <gst/check/gstharness.h>

#include "cvtest.h"

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE,
  CVTEST_RGBA64_ITEM GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
};

/* The identity kernel gives back every format bit for bit. */
GST_START_TEST (test_identity_every_format)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {1921, 1081} };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstHarness *h;
      GstVideoInfo info, padded;
      GstBuffer *in, *out;

      if (g_getenv ("CVTEST_QUICK") && s == 2 && f != 0)
        continue;
      h = cvtest_filter_harness ("cudaconvolve", "preset=identity", NULL);
      cvtest_set_caps (h, &info, formats[f], sizes[s][0], sizes[s][1]);
      cvtest_padded_info (&padded, formats[f], sizes[s][0], sizes[s][1], 29, 7);
      in = cvtest_random_frame (&padded, f * 10 + s);
      out = cvtest_push_frame (h, in);
      cvtest_assert_frames_equal (in, out, &info);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
}

GST_END_TEST;

static GstBuffer *
ramp_frame (const GstVideoInfo * info)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_WRITE));
  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (gint x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x] = 10 * x + y;
  gst_video_frame_unmap (&frame);
  return buffer;
}

/* Sobel-x on a ramp of 10 per column, by hand: inside, (10 + 10) * (1 + 2 +
 * 1) = 80; at the clamped left and right edges half that. Then the kernel
 * changes while playing. */
GST_START_TEST (test_known_results_and_live_change)
{
  GstElement *convolve;
  GstHarness *h =
      cvtest_filter_harness ("cudaconvolve", "preset=sobel-x bias=128",
      &convolve);
  GstVideoInfo info;
  GstBuffer *in, *out;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 9, 4);
  in = ramp_frame (&info);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 0, 0), 128 + 40);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 4, 2), 128 + 80);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 8, 3), 128 + 40);
  gst_buffer_unref (out);

  /* new taps apply from the next frame: a 1x2 average of the pixel and its
   * right neighbour, wrapping at the right edge */
  g_object_set (convolve, "kernel", "1 1", "anchor-x", 0, "bias", 0.0,
      "border", 2 /* wrap */ , NULL);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 0, 1),
      (1 + 11 + 1) / 2);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 8, 1),
      (81 + 1 + 1) / 2);
  gst_buffer_unref (out);

  gst_buffer_unref (in);
  gst_object_unref (convolve);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A constant frame stays constant under normalised kernels, in every plane
 * of every format. */
GST_START_TEST (test_constant_stays_constant)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h =
        cvtest_filter_harness ("cudaconvolve", "preset=gaussian5 border=mirror",
        NULL);
    GstVideoInfo info;

    cvtest_set_caps (h, &info, formats[f], 37, 21);
    cvtest_assert_constant_unchanged (h, &info, 0x77);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Alpha is copied unless process-alpha is set. */
GST_START_TEST (test_alpha)
{
  for (gint process = 0; process < 2; process++) {
    GstHarness *h = cvtest_filter_harness ("cudaconvolve",
        process ? "preset=box5 process-alpha=1" : "preset=box5", NULL);
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstMapInfo a, b;
    guint alpha_changed = 0, colour_changed = 0;

    cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGBA, 16, 16);
    in = cvtest_random_frame (&info, 5);
    out = cvtest_push_frame (h, in);
    fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
    for (gsize i = 0; i < 16 * 16 * 4; i++) {
      if (a.data[i] != b.data[i]) {
        if (i % 4 == 3)
          alpha_changed++;
        else
          colour_changed++;
      }
    }
    fail_unless (colour_changed > 100);
    if (process)
      fail_unless (alpha_changed > 100);
    else
      fail_unless_equals_int (alpha_changed, 0);
    gst_buffer_unmap (in, &a);
    gst_buffer_unmap (out, &b);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_malformed_kernel_refused)
{
  GstElement *convolve = gst_element_factory_make ("cudaconvolve", NULL);
  gint preset;
  gchar *kernel;

  g_object_set (convolve, "kernel", "1 2; 3 4", NULL);
  ASSERT_WARNING (g_object_set (convolve, "kernel", "1 2; 3", NULL));
  ASSERT_WARNING (g_object_set (convolve, "kernel", "", NULL));
  ASSERT_WARNING (g_object_set (convolve, "kernel", "1e999", NULL));
  g_object_get (convolve, "kernel", &kernel, "preset", &preset, NULL);
  fail_unless_equals_string (kernel, "1 2; 3 4");
  fail_unless_equals_int (preset, 0);
  g_free (kernel);

  g_object_set (convolve, "preset", 4, NULL);
  g_object_get (convolve, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, "1 2 1; 2 4 2; 1 2 1");
  g_free (kernel);
  gst_object_unref (convolve);
}

GST_END_TEST;

/* A kernel much larger than the frame, and a 63x63 one. */
GST_START_TEST (test_large_kernels)
{
  GString *big = g_string_new (NULL);
  GstElement *convolve;
  GstHarness *h =
      cvtest_filter_harness ("cudaconvolve", "border=wrap", &convolve);
  GstVideoInfo info;
  GstBuffer *in, *out;

  for (gint j = 0; j < 63; j++) {
    for (gint i = 0; i < 63; i++)
      g_string_append (big, "1 ");
    g_string_append (big, ";");
  }
  g_object_set (convolve, "kernel", big->str, NULL);
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 3, 2);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (in, 0, 0, info.size);
  gst_buffer_memset (in, 0, 63, 1);     /* one pixel of 63 */
  out = cvtest_push_frame (h, in);
  /* With wrap, the 63 columns of the window cover each of the 3 columns 21
   * times; its 63 rows cover row 0 31 times from output row 0 (the window
   * starts at the odd row -31) and 32 times from output row 1. The 63x63
   * ones divide by 3969: 63 * 21 * 31 / 3969 = 10.33 and 63 * 21 * 32 /
   * 3969 = 10.67. */
  for (gint x = 0; x < 3; x++) {
    fail_unless_equals_int (cvtest_byte_at (out, &info, 0, x, 0), 10);
    fail_unless_equals_int (cvtest_byte_at (out, &info, 0, x, 1), 11);
  }
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_object_unref (convolve);
  gst_harness_teardown (h);
  g_string_free (big, TRUE);
}

GST_END_TEST;

static Suite *
cudaconvolve_suite (void)
{
  Suite *s = suite_create ("cudaconvolve");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_identity_every_format);
  tcase_add_test (tc, test_known_results_and_live_change);
  tcase_add_test (tc, test_constant_stays_constant);
  tcase_add_test (tc, test_alpha);
  tcase_add_test (tc, test_malformed_kernel_refused);
  tcase_add_test (tc, test_large_kernels);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudaconvolve_suite);
}
