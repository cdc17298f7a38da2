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

/* cudaclt as an element: round trips of every format with padded rows,
 * whole-pixel shifts per colour channel, lowpass on flat frames, kernel
 * files (identity, missing, broken, made for another size), a shift moved
 * while playing, renegotiation. The transform itself is tested in clt.c. */
#include <glib/gstdio.h>

#include "cvtest.h"
#include "cvclt.h"
#include "pictures.h"

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  CVTEST_RGBA64_ITEM GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
};

/* `none`, and deconvolution with an identity kernel set, give every frame
 * back exactly. */
GST_START_TEST (test_round_trip)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "cudaclt-id.kernels",
      NULL);
  cvcore_clt_kernel_set *set;

  fail_unless_equals_int (cvcore_clt_kernel_set_new (61, 35, 3, 3, &set),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_kernel_set_save (set, path), CVCORE_OK);
  cvcore_clt_kernel_set_free (set);
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (gint op = 0; op < 2; op++) {
      gchar *props = g_strdup_printf ("operation=%s kernels-location=%s",
          op ? "deconvolve" : "none", path);
      GstHarness *h = cvtest_filter_harness ("cudaclt", props, NULL);
      GstVideoInfo info, padded;
      GstBuffer *in, *out;

      cvtest_set_caps (h, &info, formats[f], 61, 35);
      cvtest_padded_info (&padded, formats[f], 61, 35, 20, 0);
      in = cvtest_random_frame (&padded, f + 1);
      out = cvtest_push_frame (h, in);
      cvtest_assert_frames_equal (out, in, &info);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
      g_free (props);
    }
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* In I420 and NV12 a shift of whole chroma pixels moves the luma and
 * every chroma plane by the same distance, each in its own pixels. */
GST_START_TEST (test_integer_shift_yuv)
{
  const GstVideoFormat yuv[] = { GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12 };

  for (guint f = 0; f < G_N_ELEMENTS (yuv); f++) {
    GstHarness *h = cvtest_filter_harness ("cudaclt",
        "operation=shift shift-x=4 shift-y=-2", NULL);
    GstVideoInfo info;
    GstBuffer *in, *out;

    cvtest_set_caps (h, &info, yuv[f], 40, 28);
    in = cvtest_random_frame (&info, 8);
    out = cvtest_push_frame (h, in);
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
      const gint sub = p ? 2 : 1, w = 40 / sub, hgt = 28 / sub;
      const gint pstride = GST_VIDEO_INFO_COMP_PSTRIDE (&info, p ? 1 : 0);

      for (gint y = 0; y < hgt; y++)
        for (gint x = 0; x < w; x++)
          for (gint c = 0; c < pstride; c++)
            fail_unless_equals_int (cvtest_byte_at (out, &info, p,
                    pstride * x + c, y), cvtest_byte_at (in, &info, p,
                    pstride * picture_mirror (x - 4 / sub, w) + c,
                    picture_mirror (y + 2 / sub, hgt)));
    }
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Whole-pixel shifts move the colour channels (mirror image at the edges)
 * and leave alpha where it was. */
GST_START_TEST (test_integer_shift)
{
  GstHarness *h = cvtest_filter_harness ("cudaclt",
      "operation=shift shift-x=3 shift-y=-2", NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_BGRA, 40, 27);
  in = cvtest_random_frame (&info, 7);
  out = cvtest_push_frame (h, in);
  for (gint y = 0; y < 27; y++)
    for (gint x = 0; x < 40; x++)
      for (gint c = 0; c < 4; c++) {
        const gint sx = c == 3 ? x : picture_mirror (x - 3, 40);
        const gint sy = c == 3 ? y : picture_mirror (y + 2, 27);

        fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 4 * x + c, y),
            cvtest_byte_at (in, &info, 0, 4 * sx + c, sy));
      }
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_lowpass_flat)
{
  GstHarness *h = cvtest_filter_harness ("cudaclt",
      "operation=lowpass sigma=4", NULL);
  GstVideoInfo info;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGBx, 50, 30);
  cvtest_assert_constant_unchanged (h, &info, 0x77);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A frame through a filter whose processing fails: the flow error and an
 * error message saying @reason. */
static void
assert_element_error (const gchar * properties, gint width,
    const gchar * reason)
{
  GstElement *filter;
  GstHarness *h = cvtest_filter_harness ("cudaclt", properties, &filter);
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstMessage *msg;
  GError *error;
  gchar *debug;

  gst_element_set_bus (filter, bus);
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, width, 20);
  fail_unless_equals_int (gst_harness_push (h, cvtest_random_frame (&info,
              1)), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (strstr (error->message, reason) || (debug
          && strstr (debug, reason)), "'%s' (%s) does not say '%s'",
      error->message, debug, reason);
  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_bus (filter, NULL);
  gst_object_unref (bus);
  gst_object_unref (filter);
  gst_harness_teardown (h);
}

GST_START_TEST (test_kernel_errors)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "cudaclt-40.kernels",
      NULL), *props;
  cvcore_clt_kernel_set *set;

  assert_element_error ("operation=deconvolve", 40, "kernels-location");
  assert_element_error ("operation=deconvolve kernels-location=/nonexistent/"
      "k.kernels", 40, "cannot open");
  fail_unless_equals_int (cvcore_clt_kernel_set_new (40, 20, 1, 1, &set),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_kernel_set_save (set, path), CVCORE_OK);
  cvcore_clt_kernel_set_free (set);
  props = g_strdup_printf ("operation=deconvolve kernels-location=%s", path);
  assert_element_error (props, 48, "40x20");
  g_free (props);
  g_file_set_contents (path, "CVCLTKS1 and nothing else", -1, NULL);
  props = g_strdup_printf ("operation=deconvolve kernels-location=%s", path);
  assert_element_error (props, 40, "not a CLT kernel set");
  g_free (props);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* A kernel set that cannot be read mid-stream keeps the one in use: the
 * frames keep coming, deconvolved as before. */
GST_START_TEST (test_bad_kernels_while_playing)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "cudaclt-keep.kernels",
      NULL), *props;
  cvcore_clt_kernel_set *set;
  GstElement *filter;
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *first, *out;

  fail_unless_equals_int (cvcore_clt_kernel_set_new (40, 24, 2, 1, &set),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_kernel_set_save (set, path), CVCORE_OK);
  cvcore_clt_kernel_set_free (set);
  props = g_strdup_printf ("operation=deconvolve kernels-location=%s", path);
  h = cvtest_filter_harness ("cudaclt", props, &filter);
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 40, 24);
  in = cvtest_random_frame (&info, 3);
  first = cvtest_push_frame (h, in);
  g_object_set (filter, "kernels-location", "/dev/zero", NULL);
  out = cvtest_push_frame (h, in);
  cvtest_assert_frames_equal (first, out, &info);
  gst_buffer_unref (out);
  gst_buffer_unref (first);
  gst_buffer_unref (in);
  gst_object_unref (filter);
  gst_harness_teardown (h);
  g_unlink (path);
  g_free (props);
  g_free (path);
}

GST_END_TEST;

/* shift-x set between frames applies to the next frame; a new size is
 * taken (the planes are made again). */
GST_START_TEST (test_changes_while_playing)
{
  GstElement *filter;
  GstHarness *h = cvtest_filter_harness ("cudaclt", "operation=shift",
      &filter);
  GstVideoInfo info;

  for (gint i = 0; i < 3; i++) {
    const gint w = i == 2 ? 33 : 24;
    GstBuffer *in, *out;

    cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, w, 16);
    g_object_set (filter, "shift-x", (gdouble) i, NULL);
    in = cvtest_random_frame (&info, 3 + i);
    out = cvtest_push_frame (h, in);
    for (gint y = 0; y < 16; y++)
      for (gint x = 0; x < w; x++)
        fail_unless_equals_int (cvtest_byte_at (out, &info, 0, x, y),
            cvtest_byte_at (in, &info, 0, picture_mirror (x - i, w), y));
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_object_unref (filter);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A mosaic of @format (rows padded to 4 bytes), sites of colour c (0 red,
 * 1 green, 2 blue) holding @colour[c], or random samples when @colour is
 * NULL. */
static GstBuffer *
mosaic (const gchar * format, gint w, gint h, const guint * colour)
{
  const gint bytes = g_str_has_suffix (format, "16le") ? 2 : 1;
  const gsize stride = GST_ROUND_UP_4 (w * bytes);
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, stride * h, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  cvtest_fill_random (map.data, map.size, 23);
  for (gint y = 0; y < h && colour; y++)
    for (gint x = 0; x < w; x++) {
      const gint c = strchr ("rgb", format[(y & 1) * 2 + (x & 1)]) - "rgb";

      if (bytes == 2)
        ((guint16 *) (map.data + y * stride))[x] = (guint16) colour[c];
      else
        map.data[y * stride + x] = (guint8) colour[c];
    }
  gst_buffer_unmap (buffer, &map);
  return buffer;
}

/* Mosaics, either method: `none` gives them back; to RGBA a flat-coloured
 * one gives its colour, opaque, and to grey its luma or its green. */
GST_START_TEST (test_bayer)
{
  static const gchar *formats[] = { "grbg", "bggr16le" };
  static const gchar *methods[] = { "mosaic-method=interpolate",
    "mosaic-method=sparse"
  };
  static const gchar *outputs[] = { "video/x-bayer", "video/x-raw,format="
        "{ RGBA, RGBA64_LE }", "video/x-raw,format={ GRAY8, GRAY16_LE }",
    "video/x-raw,format={ GRAY8, GRAY16_LE }"
  };
  static const guint colour[3] = { 200, 100, 30 };
  /* BT.601's luma: 0.299 * 200 + 0.587 * 100 + 0.114 * 30; the green */
  const guint grey[2] = { 122, 100 };

  for (guint f = 0; f < 2 * G_N_ELEMENTS (formats); f++)
    for (guint o = 0; o < G_N_ELEMENTS (outputs); o++) {
      const gint w = 35, h = 18, bytes = f % 2 ? 2 : 1;
      const gint channels = o == 1 ? 4 : 1;
      const gsize stride = GST_ROUND_UP_4 (channels * w * bytes);
      gchar *props = g_strdup_printf ("%s mosaic-grey=%s", methods[f / 2],
          o == 3 ? "green" : "luma");
      GstHarness *hs = cvtest_filter_harness ("cudaclt", props, NULL);
      gchar *caps = g_strdup_printf ("video/x-bayer,format=%s,width=%d,"
          "height=%d,framerate=30/1", formats[f % 2], w, h);
      GstBuffer *in = mosaic (formats[f % 2], w, h, o ? colour : NULL);
      GstBuffer *out;
      GstMapInfo a, b;

#ifndef CVTEST_HAVE_RGBA64
      if (o == 1 && bytes == 2) {
        cvtest_left_out ("test_bayer: 16 bits to RGBA64_LE",
            "RGBA64_LE came with GStreamer 1.20");
        goto next;
      }
#endif
      gst_harness_set_src_caps_str (hs, caps);
      gst_harness_set_sink_caps_str (hs, outputs[o]);
      out = gst_harness_push_and_pull (hs, gst_buffer_ref (in));
      fail_unless (out != NULL);
      fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
      for (gint y = 0; y < h; y++)
        for (gint x = 0; x < w; x++) {
          if (o == 0) {
            fail_unless (memcmp (a.data + y * stride + x * bytes, b.data +
                    y * stride + x * bytes, bytes) == 0, "(%d, %d)", x, y);
            continue;
          }
          for (gint c = 0; c < channels; c++) {
            const guint8 *p = b.data + y * stride + (channels * x + c) * bytes;
            const guint v = bytes == 2 ? GST_READ_UINT16_LE (p) : *p;

            fail_unless_equals_int (v, o >= 2 ? grey[o - 2] : c < 3 ?
                colour[c] : (bytes == 2 ? 65535 : 255));
          }
        }
      gst_buffer_unmap (in, &a);
      gst_buffer_unmap (out, &b);
      gst_buffer_unref (out);
#ifndef CVTEST_HAVE_RGBA64
    next:
#endif
      gst_buffer_unref (in);
      g_free (caps);
      g_free (props);
      gst_harness_teardown (hs);
    }
}

GST_END_TEST;

static Suite *
cudaclt_suite (void)
{
  Suite *s = suite_create ("cudaclt");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_bayer);
  tcase_add_test (tc, test_integer_shift);
  tcase_add_test (tc, test_integer_shift_yuv);
  tcase_add_test (tc, test_lowpass_flat);
  tcase_add_test (tc, test_kernel_errors);
  tcase_add_test (tc, test_bad_kernels_while_playing);
  tcase_add_test (tc, test_changes_while_playing);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudaclt_suite);
}
