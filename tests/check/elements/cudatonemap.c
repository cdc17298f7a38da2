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

/* cudatonemap as an element: every input and output format against the
 * core's CPU reference, refused formats, properties changed while playing,
 * adaptation over timestamps and its reset by a flush, renegotiation. The
 * operator itself is tested in tonemap.c. */
#include <math.h>

#include "cvtest.h"
#include "cvtonemap.h"

/* RGBA64_LE where GStreamer has it (1.20) */
#ifdef CVTEST_HAVE_RGBA64
#define HDR_FORMAT GST_VIDEO_FORMAT_RGBA64_LE
#else
#define HDR_FORMAT GST_VIDEO_FORMAT_GRAY16_LE
#endif

static const GstVideoFormat in_formats[] = {
  CVTEST_RGBA64_ITEM GST_VIDEO_FORMAT_GRAY16_LE,
  GST_VIDEO_FORMAT_RGBA,
};

/* Plane @p of a mapped frame as a core image. */
static cvcore_image
frame_plane (GstVideoFrame * frame, guint p)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];
  const gint bytes = GST_VIDEO_FRAME_COMP_DEPTH (frame, 0) > 8 ? 2 : 1;
  cvcore_image im;

  gst_video_format_info_component (frame->info.finfo, p, comps);
  im.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  im.pitch = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  im.width = GST_VIDEO_FRAME_COMP_WIDTH (frame, comps[0]);
  im.height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comps[0]);
  im.channels = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comps[0]) / bytes;
  im.sample = bytes == 2 ? CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  return im;
}

/* The CPU reference's output for @in (laid out as @in_info), in a buffer
 * laid out as @out_info. */
static GstBuffer *
reference_output (GstBuffer * in, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, const cvcore_tonemap_params * params)
{
  GstBuffer *out = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (out_info), NULL);
  cvcore_device *cpu;
  cvcore_stream *stream;
  cvcore_tonemapper *tm;
  GstVideoFrame in_frame, out_frame;
  cvcore_tonemap_frame src = { {{0}} }, dst = { {{0}} };

  fail_unless (gst_video_frame_map (&in_frame, (GstVideoInfo *) in_info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out_frame, (GstVideoInfo *) out_info,
          out, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (in_info); p++)
    src.plane[p] = frame_plane (&in_frame, p);
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (out_info); p++)
    dst.plane[p] = frame_plane (&out_frame, p);
  fail_unless_equals_int (cvcore_device_open (CVCORE_BACKEND_CPU, 0, &cpu),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (cpu, &stream), CVCORE_OK);
  fail_unless_equals_int (cvcore_tonemapper_new (cpu,
          GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
          &tm), CVCORE_OK);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &src, &dst, params,
          0.0), CVCORE_OK);
  cvcore_tonemapper_free (tm);
  cvcore_stream_free (stream);
  cvcore_device_close (cpu);
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  return out;
}

/* Every byte of every plane of @out within 2 of @expected (both laid out
 * as @info), at most 1 in 1000 more than 1 away; the CPU backend matches
 * exactly. */
static void
assert_close (GstBuffer * out, GstBuffer * expected, const GstVideoInfo * info)
{
  const gint limit = cvtest_backend () == CVCORE_BACKEND_CPU ? 0 : 1;
  gint far = 0, total = 0;

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    const gint rows = GST_VIDEO_INFO_COMP_HEIGHT (info, p == 0 ? 0 : 1);
    const gint bytes = GST_VIDEO_INFO_COMP_WIDTH (info, p == 0 ? 0 : 1) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, p == 0 ? 0 : 1);

    for (gint y = 0; y < rows; y++)
      for (gint x = 0; x < bytes; x++) {
        const gint d = abs (cvtest_byte_at (out, info, p, x, y) -
            cvtest_byte_at (expected, info, p, x, y));

        fail_unless (d <= limit + 1, "plane %u (%d, %d): off by %d", p, x, y,
            d);
        far += d > limit;
        total++;
      }
  }
  fail_unless (far * 1000 <= total, "%d bytes off by 2", far);
}

GST_START_TEST (test_formats_against_reference)
{
  for (guint f = 0; f < G_N_ELEMENTS (in_formats); f++)
    for (gint bgr = 0; bgr < 2; bgr++) {
      GstHarness *h = cvtest_filter_harness ("cudatonemap", "", NULL);
      GstVideoInfo info, padded, out_info;
      cvcore_tonemap_params params;
      GstBuffer *in, *out, *expected;

      gst_harness_set_sink_caps_str (h, bgr ? "video/x-raw,format=BGRx" :
          "video/x-raw,format=RGBA");
      cvtest_set_caps (h, &info, in_formats[f], 157, 61);
      cvtest_padded_info (&padded, in_formats[f], 157, 61, 24, 0);
      in = cvtest_random_frame (&padded, f + 5);
      out = cvtest_push_frame (h, in);
      gst_video_info_set_format (&out_info, bgr ? GST_VIDEO_FORMAT_BGRx :
          GST_VIDEO_FORMAT_RGBA, 157, 61);

      cvcore_tonemap_params_init (&params);
      params.output = bgr ? CVCORE_TONEMAP_OUT_BGRX : CVCORE_TONEMAP_OUT_RGBA;
      expected = reference_output (in, &padded, &out_info, &params);
      assert_close (out, expected, &out_info);
      gst_buffer_unref (expected);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
}

GST_END_TEST;

GST_START_TEST (test_refused_format)
{
  GstHarness *h = cvtest_filter_harness ("cudatonemap", "", NULL);
  GstVideoInfo info;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_I420, 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          cvtest_random_frame (&info, 1)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 10-bit HDR video: P010_10LE and I420_10LE with PQ or HLG colorimetry
 * against the reference with the source the caps describe (BT.2020
 * matrix, limited range), into RGBA and NV12. */
GST_START_TEST (test_hdr_video)
{
  static const struct
  {
    GstVideoFormat format;
    const gchar *colorimetry;
    cvcore_tonemap_layout layout;
    cvcore_tonemap_transfer transfer;
    gint shift;
  } cases[] = {
    {GST_VIDEO_FORMAT_P010_10LE, "bt2100-pq", CVCORE_TONEMAP_YUV420_SEMI,
        CVCORE_TONEMAP_PQ, 6},
    {GST_VIDEO_FORMAT_I420_10LE, "bt2100-hlg", CVCORE_TONEMAP_YUV420,
        CVCORE_TONEMAP_HLG, 0},
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    for (gint nv12 = 0; nv12 < 2; nv12++) {
      GstHarness *h = cvtest_filter_harness ("cudatonemap", "", NULL);
      GstVideoInfo info, out_info;
      cvcore_tonemap_params params;
      GstBuffer *in, *out, *expected;

      gst_harness_set_sink_caps_str (h, nv12 ? "video/x-raw,format=NV12" :
          "video/x-raw,format=RGBA");
      gst_video_info_set_format (&info, cases[k].format, 66, 38);
      GST_VIDEO_INFO_FPS_N (&info) = 30;
      fail_unless (gst_video_colorimetry_from_string (&info.colorimetry,
              cases[k].colorimetry));
      gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
      gst_video_info_set_format (&out_info, nv12 ? GST_VIDEO_FORMAT_NV12 :
          GST_VIDEO_FORMAT_RGBA, 66, 38);
      in = cvtest_random_frame (&info, 40 + k);
      if (cases[k].shift == 0) {
        GstMapInfo map;

        /* 10-bit codes in the low bits */
        gst_buffer_map (in, &map, GST_MAP_WRITE);
        for (gsize i = 0; i < map.size / 2; i++)
          ((guint16 *) map.data)[i] &= 0x3ff;
        gst_buffer_unmap (in, &map);
      }
      out = cvtest_push_frame (h, in);

      cvcore_tonemap_params_init (&params);
      cvcore_tonemap_source_init_bt2100 (&params.source, cases[k].layout,
          cases[k].transfer, cases[k].shift);
      params.output = nv12 ? CVCORE_TONEMAP_OUT_NV12 : CVCORE_TONEMAP_OUT_RGBA;
      expected = reference_output (in, &info, &out_info, &params);
      assert_close (out, expected, &out_info);
      gst_buffer_unref (expected);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
}

GST_END_TEST;

/* 10-bit Y'CbCr that says neither PQ nor HLG cannot be decoded. */
GST_START_TEST (test_sdr_video_refused)
{
  GstHarness *h = cvtest_filter_harness ("cudatonemap", "", NULL);
  GstVideoInfo info;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_P010_10LE, 64, 48);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  fail_unless (gst_video_colorimetry_from_string (&info.colorimetry, "bt2020"));
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  fail_unless_equals_int (gst_harness_push (h,
          cvtest_random_frame (&info, 1)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

GST_END_TEST;

static gdouble
mean_byte (GstBuffer * out, const GstVideoInfo * info)
{
  gdouble sum = 0.0;

  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (gint x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      sum += cvtest_byte_at (out, info, 0, 4 * x, y);
  return sum / (GST_VIDEO_INFO_WIDTH (info) * GST_VIDEO_INFO_HEIGHT (info));
}

/* key and operator changed between frames apply to the next frame. */
GST_START_TEST (test_properties_while_playing)
{
  GstElement *e;
  GstHarness *h = cvtest_filter_harness ("cudatonemap", "", &e);
  GstVideoInfo info, out_info;
  GstBuffer *in, *out;
  gdouble base, brighter;

  cvtest_set_caps (h, &info, HDR_FORMAT, 96, 64);
  gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGBA, 96, 64);
  in = cvtest_random_frame (&info, 9);
  out = cvtest_push_frame (h, in);
  base = mean_byte (out, &out_info);
  gst_buffer_unref (out);

  g_object_set (e, "key", 0.72, NULL);
  out = cvtest_push_frame (h, in);
  brighter = mean_byte (out, &out_info);
  gst_buffer_unref (out);
  fail_unless (brighter > base + 20.0, "key 0.72: %g, 0.18: %g", brighter,
      base);

  g_object_set (e, "key", 0.18, "operator", 0 /* global */ ,
      "white-point", 0.5, NULL);
  out = cvtest_push_frame (h, in);
  fail_unless (mean_byte (out, &out_info) > base + 10.0);
  gst_buffer_unref (out);

  gst_buffer_unref (in);
  gst_object_unref (e);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A level frame of @level at @pts. */
static GstBuffer *
level_frame (const GstVideoInfo * info, guint16 level, GstClockTime pts)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size / 2; i++)
    ((guint16 *) map.data)[i] = level;
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = pts;
  return buf;
}

static gdouble
push_level (GstHarness * h, const GstVideoInfo * info,
    const GstVideoInfo * out_info, guint16 level, GstClockTime pts)
{
  GstBuffer *in = level_frame (info, level, pts);
  GstBuffer *out = cvtest_push_frame (h, in);
  gdouble mean = mean_byte (out, out_info);

  gst_buffer_unref (in);
  gst_buffer_unref (out);
  return mean;
}

/* Dark frames, then light: with adaptation-time the light frames start
 * over-exposed and settle where the per-frame key puts them; a flush
 * forgets the dark past. */
GST_START_TEST (test_adaptation_and_flush)
{
  GstHarness *h = cvtest_filter_harness ("cudatonemap",
      "adaptation-time=0.5 operator=global", NULL);
  GstHarness *plain = cvtest_filter_harness ("cudatonemap",
      "operator=global", NULL);
  GstVideoInfo info, out_info;
  gdouble settled, first, last = 0.0;
  gint n = 0;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY16_LE, 32, 16);
  cvtest_set_caps (plain, &info, GST_VIDEO_FORMAT_GRAY16_LE, 32, 16);
  gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGBA, 32, 16);
  settled = push_level (plain, &info, &out_info, 40000, 0);

  for (; n < 10; n++)
    push_level (h, &info, &out_info, 200, n * GST_SECOND / 30);
  first = push_level (h, &info, &out_info, 40000, n++ * GST_SECOND / 30);
  fail_unless (first > settled + 30.0, "first light frame %g, settled %g",
      first, settled);
  for (gint k = 0; k < 90; k++, n++) {
    const gdouble now = push_level (h, &info, &out_info, 40000,
        n * GST_SECOND / 30);

    fail_unless (k == 0 || now <= last + 1e-9);
    last = now;
  }
  fail_unless (fabs (last - settled) <= 1.0, "after 3 s %g, settled %g",
      last, settled);

  for (gint k = 0; k < 10; k++, n++)
    push_level (h, &info, &out_info, 200, n * GST_SECOND / 30);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY16_LE, 32, 16);
  fail_unless (fabs (push_level (h, &info, &out_info, 40000, 0) - settled) <=
      1.0);
  gst_harness_teardown (h);
  gst_harness_teardown (plain);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  GstHarness *h = cvtest_filter_harness ("cudatonemap", "", NULL);
  GstVideoInfo info, out_info;
  GstBuffer *in, *out, *expected;
  cvcore_tonemap_params params;

  cvcore_tonemap_params_init (&params);
  for (gint k = 0; k < 2; k++) {
    const gint w = k ? 33 : 200, hgt = k ? 150 : 20;

    cvtest_set_caps (h, &info, k ? GST_VIDEO_FORMAT_GRAY16_LE : HDR_FORMAT,
        w, hgt);
    gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGBA, w, hgt);
    in = cvtest_random_frame (&info, 30 + k);
    out = cvtest_push_frame (h, in);
    expected = reference_output (in, &info, &out_info, &params);
    assert_close (out, expected, &out_info);
    gst_buffer_unref (expected);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cudatonemap_suite (void)
{
  Suite *s = suite_create ("cudatonemap");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_formats_against_reference);
  tcase_add_test (tc, test_refused_format);
  tcase_add_test (tc, test_hdr_video);
  tcase_add_test (tc, test_sdr_video_refused);
  tcase_add_test (tc, test_properties_while_playing);
  tcase_add_test (tc, test_adaptation_and_flush);
  tcase_add_test (tc, test_renegotiation);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudatonemap_suite);
}
