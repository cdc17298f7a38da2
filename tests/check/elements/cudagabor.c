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

/* cudagabor as an element: every input format against the core's CPU
 * reference on the frame's luminance, GRAY16 and RGBA outputs, flat frames,
 * properties and bank size changed while playing, a refused format. The
 * filter itself is tested in gabor.c. */
#include <math.h>

#include "cvtest.h"
#include "cvgabor.h"

/* The CPU reference for @in (laid out as @in_info: plane 0 with
 * @weight) into a buffer of @out_info. */
static GstBuffer *
reference_output (GstBuffer * in, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, cvcore_gabor_params * params,
    const gdouble weight[4])
{
  const gint w = GST_VIDEO_INFO_WIDTH (in_info);
  const gint h = GST_VIDEO_INFO_HEIGHT (in_info);
  GstBuffer *out = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (out_info), NULL);
  GstVideoFrame in_frame, out_frame;
  cvcore_device *cpu;
  cvcore_stream *stream;
  cvcore_gabor_scratch *g;
  cvcore_image src, dst;

  fail_unless (gst_video_frame_map (&in_frame, (GstVideoInfo *) in_info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out_frame, (GstVideoInfo *) out_info,
          out, GST_MAP_WRITE));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&in_frame, 0);
  src.pitch = GST_VIDEO_FRAME_PLANE_STRIDE (&in_frame, 0);
  src.width = w;
  src.height = h;
  src.channels = GST_VIDEO_INFO_IS_YUV (in_info) ? 1 :
      GST_VIDEO_INFO_COMP_PSTRIDE (in_info, 0) /
      (GST_VIDEO_INFO_COMP_DEPTH (in_info, 0) > 8 ? 2 : 1);
  src.sample = GST_VIDEO_INFO_COMP_DEPTH (in_info, 0) > 8 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  dst.data = GST_VIDEO_FRAME_PLANE_DATA (&out_frame, 0);
  dst.pitch = GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, 0);
  dst.width = w;
  dst.height = h;
  dst.channels = GST_VIDEO_INFO_N_COMPONENTS (out_info) == 1 ? 1 : 4;
  dst.sample = GST_VIDEO_INFO_COMP_DEPTH (out_info, 0) > 8 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  for (gint c = 0; c < 4; c++)
    params->weight[c] = weight[c];
  fail_unless_equals_int (cvcore_device_open (CVCORE_BACKEND_CPU, 0, &cpu),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (cpu, &stream), CVCORE_OK);
  fail_unless_equals_int (cvcore_gabor_scratch_new (cpu, w, h,
          params->orientations, &g), CVCORE_OK);
  fail_unless_equals_int (cvcore_gabor (stream, g, &src, &dst, params),
      CVCORE_OK);
  cvcore_gabor_scratch_free (g);
  cvcore_stream_free (stream);
  cvcore_device_close (cpu);
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  return out;
}

static gint
sample_at (GstBuffer * buffer, const GstVideoInfo * info, gint x, gint y,
    gint c)
{
  const gint bytes = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;
  const gint pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  const gint i = x * pstride + c * bytes;

  return cvtest_byte_at (buffer, info, 0, i, y) | (bytes == 2 ?
      cvtest_byte_at (buffer, info, 0, i + 1, y) << 8 : 0);
}

/* Samples of plane 0 of both (laid out as @info) within one unit; equal
 * on the CPU backend. */
static void
assert_close (GstBuffer * out, GstBuffer * expected, const GstVideoInfo * info)
{
  const gint limit = cvtest_backend () == CVCORE_BACKEND_CPU ? 0 : 1;
  const gint channels = GST_VIDEO_INFO_N_COMPONENTS (info);

  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (gint x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      for (gint c = 0; c < channels; c++) {
        const gint d = abs (sample_at (out, info, x, y, c) -
            sample_at (expected, info, x, y, c));

        fail_unless (d <= limit, "(%d, %d, %d): off by %d", x, y, c, d);
      }
}

GST_START_TEST (test_formats_against_reference)
{
  static const struct
  {
    GstVideoFormat format;
    gdouble weight[4];
  } inputs[] = {
    {GST_VIDEO_FORMAT_GRAY8, {1.0}},
    {GST_VIDEO_FORMAT_GRAY16_LE, {1.0}},
    {GST_VIDEO_FORMAT_RGBA, {0.2126, 0.7152, 0.0722, 0.0}},
    {GST_VIDEO_FORMAT_BGRx, {0.0722, 0.7152, 0.2126, 0.0}},
    {GST_VIDEO_FORMAT_I420, {1.0}},
    {GST_VIDEO_FORMAT_NV12, {1.0}},
  };

  for (guint f = 0; f < G_N_ELEMENTS (inputs); f++) {
    GstHarness *h = cvtest_filter_harness ("cudagabor",
        "sigma=3 wavelength=6 orientations=2 gain=3", NULL);
    GstVideoInfo info, padded, out_info;
    cvcore_gabor_params params;
    GstBuffer *in, *out, *expected;

    gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
    cvtest_set_caps (h, &info, inputs[f].format, 93, 47);
    cvtest_padded_info (&padded, inputs[f].format, 93, 47, 12, 0);
    in = cvtest_random_frame (&padded, f + 2);
    out = cvtest_push_frame (h, in);
    gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_GRAY8, 93, 47);

    cvcore_gabor_params_init (&params);
    params.sigma = 3.0;
    params.wavelength = 6.0;
    params.orientations = 2;
    params.gain = 3.0;
    expected = reference_output (in, &padded, &out_info, &params,
        inputs[f].weight);
    assert_close (out, expected, &out_info);
    gst_buffer_unref (expected);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* RGBA carries four orientations' magnitudes; GRAY16_LE the energy. */
GST_START_TEST (test_outputs)
{
  static const gchar *outs[] = { "RGBA", "GRAY16_LE" };
  static const gdouble grey[4] = { 1.0 };

  for (guint k = 0; k < G_N_ELEMENTS (outs); k++) {
    GstHarness *h = cvtest_filter_harness ("cudagabor",
        "orientations=4 gain=4", NULL);
    GstVideoInfo info, out_info;
    cvcore_gabor_params params;
    GstBuffer *in, *out, *expected;
    gchar *caps = g_strdup_printf ("video/x-raw,format=%s", outs[k]);

    gst_harness_set_sink_caps_str (h, caps);
    g_free (caps);
    cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 64, 40);
    in = cvtest_random_frame (&info, 11);
    out = cvtest_push_frame (h, in);
    gst_video_info_set_format (&out_info,
        gst_video_format_from_string (outs[k]), 64, 40);
    cvcore_gabor_params_init (&params);
    params.orientations = 4;
    params.gain = 4.0;
    expected = reference_output (in, &info, &out_info, &params, grey);
    assert_close (out, expected, &out_info);
    gst_buffer_unref (expected);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_flat_frame)
{
  GstHarness *h = cvtest_filter_harness ("cudagabor", "gain=50", NULL);
  GstVideoInfo info;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 50, 30);
  {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstBuffer *out;

    gst_buffer_memset (in, 0, 180, info.size);
    out = cvtest_push_frame (h, in);
    for (gint y = 0; y < 30; y++)
      for (gint x = 0; x < 50; x++)
        fail_unless_equals_int (cvtest_byte_at (out, &info, 0, x, y), 0);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Orientation and bank size changed between frames take effect on the
 * next one. */
GST_START_TEST (test_properties_while_playing)
{
  GstElement *e;
  GstHarness *h = cvtest_filter_harness ("cudagabor",
      "output=max-orientation orientations=2", &e);
  GstVideoInfo info;
  GstBuffer *in, *a, *b;
  gint changed = 0;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  in = cvtest_random_frame (&info, 5);
  a = cvtest_push_frame (h, in);
  g_object_set (e, "orientations", 8, "orientation", 10.0, NULL);
  b = cvtest_push_frame (h, in);
  for (gint y = 0; y < 48; y++)
    for (gint x = 0; x < 64; x++)
      changed += cvtest_byte_at (a, &info, 0, x, y) !=
          cvtest_byte_at (b, &info, 0, x, y);
  fail_unless (changed > 64 * 48 / 2, "%d pixels changed", changed);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_buffer_unref (in);
  gst_object_unref (e);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_refused_format)
{
  GstHarness *h = cvtest_filter_harness ("cudagabor", "", NULL);
  GstVideoInfo info;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGB, 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          cvtest_random_frame (&info, 1)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cudagabor_suite (void)
{
  Suite *s = suite_create ("cudagabor");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_formats_against_reference);
  tcase_add_test (tc, test_outputs);
  tcase_add_test (tc, test_flat_frame);
  tcase_add_test (tc, test_properties_while_playing);
  tcase_add_test (tc, test_refused_format);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudagabor_suite);
}
