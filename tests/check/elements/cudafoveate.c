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

/* cudafoveate as an element: formats, the fovea, alpha, the fixation moved
 * by property and by pointer, settings out of reach. The arithmetic itself
 * is tested in foveate.c. */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/video/navigation.h>

#include <sys/stat.h>

#include "cvtest.h"

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV12,
};

/* Every format: the fixation's fragment is copied in every plane, the far
 * corner is blurred, a constant frame stays constant. */
GST_START_TEST (test_every_format)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = cvtest_filter_harness ("cudafoveate",
        "fixation-x=0.25 fixation-y=0.5 strength=2", NULL);
    GstVideoInfo info, padded;
    GstBuffer *in, *out;
    gint changed = 0;

    cvtest_set_caps (h, &info, formats[f], 200, 100);
    cvtest_padded_info (&padded, formats[f], 200, 100, 13, 5);
    in = cvtest_random_frame (&padded, f + 1);
    out = cvtest_push_frame (h, in);
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
      const gint sub = p > 0 && GST_VIDEO_INFO_IS_YUV (&info) ? 2 : 1;
      const gint bpp = GST_VIDEO_INFO_COMP_PSTRIDE (&info,
          p == 1 && formats[f] == GST_VIDEO_FORMAT_NV12 ? 1 : p);

      /* (50, 50) is the fixation: copied; (195, 5) lies far off */
      fail_unless_equals_int (cvtest_byte_at (out, &info, p, 50 / sub * bpp,
              50 / sub), cvtest_byte_at (in, &padded, p, 50 / sub * bpp,
              50 / sub));
      for (gint x = 0; x < 8; x++)
        changed += cvtest_byte_at (out, &info, p, (180 / sub + x) * bpp,
            5) != cvtest_byte_at (in, &padded, p, (180 / sub + x) * bpp, 5);
    }
    fail_unless (changed > 4, "format %s: the periphery is not blurred",
        gst_video_format_to_string (formats[f]));
    gst_buffer_unref (in);
    gst_buffer_unref (out);

    cvtest_assert_constant_unchanged (h, &info, 93);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Alpha and the padding byte pass through. */
GST_START_TEST (test_alpha)
{
  GstHarness *h = cvtest_filter_harness ("cudafoveate", "strength=3", NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGBA, 96, 64);
  in = cvtest_random_frame (&info, 7);
  out = cvtest_push_frame (h, in);
  for (gint y = 0; y < 64; y += 7)
    for (gint x = 0; x < 96; x += 5)
      fail_unless_equals_int (cvtest_byte_at (out, &info, 0, x * 4 + 3, y),
          cvtest_byte_at (in, &info, 0, x * 4 + 3, y));
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* How many of the 8x8 bytes around (@x, @y) differ between @a and @b. */
static gint
differences_around (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info,
    gint x, gint y)
{
  gint n = 0;

  for (gint j = y - 4; j < y + 4; j++)
    for (gint i = x - 4; i < x + 4; i++)
      n += cvtest_byte_at (a, info, 0, i, j) != cvtest_byte_at (b, info, 0, i,
          j);
  return n;
}

/* The fixation moves while playing, by property and, with follow-pointer,
 * by mouse moves from downstream. */
GST_START_TEST (test_fixation_moves)
{
  GstElement *foveate;
  GstHarness *h = cvtest_filter_harness ("cudafoveate",
      "fixation-x=0.25 fixation-y=0.5 strength=2 fragment-size=8", &foveate);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gdouble fx;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 200, 100);
  in = cvtest_random_frame (&info, 3);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (differences_around (in, out, &info, 50, 50), 0);
  fail_unless (differences_around (in, out, &info, 150, 50) > 32);
  gst_buffer_unref (out);

  g_object_set (foveate, "fixation-x", 0.75, NULL);
  out = cvtest_push_frame (h, in);
  fail_unless (differences_around (in, out, &info, 50, 50) > 32);
  fail_unless_equals_int (differences_around (in, out, &info, 150, 50), 0);
  gst_buffer_unref (out);

  /* Pointer moves are ignored until follow-pointer is set. */
  fail_unless (gst_harness_push_upstream_event (h,
          cvtest_mouse_move_event (50.0, 25.0)));
  g_object_get (foveate, "fixation-x", &fx, NULL);
  fail_unless_equals_float (fx, 0.75);
  g_object_set (foveate, "follow-pointer", TRUE, NULL);
  fail_unless (gst_harness_push_upstream_event (h,
          cvtest_mouse_move_event (50.0, 25.0)));
  g_object_get (foveate, "fixation-x", &fx, NULL);
  fail_unless_equals_float (fx, 0.25);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (differences_around (in, out, &info, 50, 25), 0);
  gst_buffer_unref (out);

  /* a pointer far away or not a number keeps the fixation in range, and
   * frames keep coming */
  {
    const gdouble moves[][2] = { {-200, 5000}, {1e6, 1e6}, {INFINITY, 10} };
    const gdouble expect[][2] = { {-1, 2}, {2, 2}, {2, 2} };

    for (guint i = 0; i < G_N_ELEMENTS (moves); i++) {
      gdouble fy;

      fail_unless (gst_harness_push_upstream_event (h,
              cvtest_mouse_move_event (moves[i][0], moves[i][1])));
      g_object_get (foveate, "fixation-x", &fx, "fixation-y", &fy, NULL);
      fail_unless_equals_float (fx, expect[i][0]);
      fail_unless_equals_float (fy, expect[i][1]);
      gst_buffer_unref (cvtest_push_frame (h, in));
    }
  }

  gst_buffer_unref (in);
  gst_object_unref (foveate);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Settings in their ranges never stop the stream: the model's strongest
 * corners at small sizes, and a blur map that cannot be read mid-stream
 * (the previous blur stays, with a warning). */
GST_START_TEST (test_in_range_settings_keep_flowing)
{
  GstElement *foveate;
  GstHarness *h = cvtest_filter_harness ("cudafoveate", "alpha=10",
      &foveate);
  GstVideoInfo info;
  GstBuffer *in, *first, *out;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 40, 30);
  in = cvtest_random_frame (&info, 11);
  first = cvtest_push_frame (h, in);
  g_object_set (foveate, "e2", 0.01, NULL);
  gst_buffer_unref (cvtest_push_frame (h, in));
  g_object_set (foveate, "alpha", 0.106, "e2", 2.3, NULL);
  gst_buffer_unref (cvtest_push_frame (h, in));
  g_object_set (foveate, "alpha", 10.0, "blur-map", "/dev/zero", NULL);
  out = cvtest_push_frame (h, in);
  cvtest_assert_frames_equal (first, out, &info);
  gst_buffer_unref (out);
  gst_buffer_unref (first);
  gst_buffer_unref (in);
  gst_object_unref (foveate);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* New caps mid-stream (size and format) and a flush: the plans follow. */
GST_START_TEST (test_renegotiation_and_flush)
{
  GstHarness *h = cvtest_filter_harness ("cudafoveate", "strength=2", NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 200, 100);
  in = cvtest_random_frame (&info, 21);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 100, 50),
      cvtest_byte_at (in, &info, 0, 100, 50));
  gst_buffer_unref (in);
  gst_buffer_unref (out);

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_NV12, 320, 240);
  in = cvtest_random_frame (&info, 22);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (gst_buffer_get_size (out), info.size);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 160, 120),
      cvtest_byte_at (in, &info, 0, 160, 120));
  fail_unless (cvtest_byte_at (out, &info, 0, 5, 5) != cvtest_byte_at (in,
          &info, 0, 5, 5) || cvtest_byte_at (out, &info, 0, 6, 5) !=
      cvtest_byte_at (in, &info, 0, 6, 5));
  gst_buffer_unref (out);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_NV12, 320, 240);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 160, 120),
      cvtest_byte_at (in, &info, 0, 160, 120));
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Fragment sizes round to 8, 16 or 32. */
GST_START_TEST (test_fragment_size)
{
  GstElement *foveate = gst_element_factory_make ("cudafoveate", NULL);
  gint size;

  g_object_set (foveate, "fragment-size", 13, NULL);
  g_object_get (foveate, "fragment-size", &size, NULL);
  fail_unless_equals_int (size, 16);
  g_object_set (foveate, "fragment-size", 31, NULL);
  g_object_get (foveate, "fragment-size", &size, NULL);
  fail_unless_equals_int (size, 32);
  gst_object_unref (foveate);
}

GST_END_TEST;

/* Blur far beyond the direct rendering's widest filter (sigma over 1000
 * pixels at the far corner, rendered at twice the frame's side) goes
 * through the blur stack: the far corner of a noise frame comes out
 * flat. */
GST_START_TEST (test_out_of_reach)
{
  GstHarness *h = cvtest_filter_harness ("cudafoveate",
      "alpha=1 strength=5 fixation-x=0 fixation-y=0", NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gint low = 255, high = 0;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  in = cvtest_random_frame (&info, 1);
  out = cvtest_push_frame (h, in);
  for (gint y = 40; y < 48; y++)
    for (gint x = 56; x < 64; x++) {
      low = MIN (low, cvtest_byte_at (out, &info, 0, x, y));
      high = MAX (high, cvtest_byte_at (out, &info, 0, x, y));
    }
  fail_unless (high - low <= 3, "far corner from %d to %d", low, high);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Writes @size bytes of @data to a new file called @name in @dir. */
static gchar *
write_file (const gchar * dir, const gchar * name, const void *data, gsize size)
{
  gchar *path = g_build_filename (dir, name, NULL);

  fail_unless (g_file_set_contents (path, data, size, NULL));
  return path;
}

/* Whether the @w x @h block at (@x0, @y0) of plane 0 is the same in @a
 * and @b (@bpp bytes a pixel). */
static gboolean
block_unchanged (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info,
    gint bpp, gint x0, gint y0, gint w, gint h)
{
  for (gint y = y0; y < y0 + h; y++)
    for (gint x = x0 * bpp; x < (x0 + w) * bpp; x++)
      if (cvtest_byte_at (a, info, 0, x, y) != cvtest_byte_at (b, info, 0,
              x, y))
        return FALSE;
  return TRUE;
}

/* A blur map of two halves, sharp on one side of the fixation and blurred
 * on the other, in each file format: the sharp side is copied, the other
 * blurred, and the map moves with the fixation. */
GST_START_TEST (test_blur_map)
{
  /* left sharp, right blurred */
  static const guint8 pgm8[] = "P5\n# halves\n2 1\n255\n\x00\xff";
  static const guint8 pgm16[] = "P5 2 1 1000\n\x00\x00\x03\xe8";
  gchar *dir = g_dir_make_tmp ("cudafoveate-XXXXXX", NULL);
  gchar *paths[3];
  /* PFM: 2x1, little-endian, 0.0 then 1.0 */
  guint8 pfm[32];
  const gfloat values[2] = { 0.0f, 1.0f };
  const gint header = g_snprintf ((gchar *) pfm, sizeof (pfm),
      "Pf\n2 1\n-1.0\n");

  for (gint i = 0; i < 2; i++) {
    guint32 bits;

    memcpy (&bits, &values[i], 4);
    bits = GUINT32_TO_LE (bits);
    memcpy (pfm + header + 4 * i, &bits, 4);
  }
  paths[0] = write_file (dir, "halves.pgm", pgm8, sizeof (pgm8) - 1);
  paths[1] = write_file (dir, "halves16.pgm", pgm16, sizeof (pgm16) - 1);
  paths[2] = write_file (dir, "halves.pfm", pfm, header + 8);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++) {
    GstElement *foveate;
    GstHarness *h = cvtest_filter_harness ("cudafoveate",
        "fragment-size=8 fixation-x=0.5", &foveate);
    GstVideoInfo info;
    GstBuffer *in, *out;

    g_object_set (foveate, "blur-map", paths[i], NULL);
    cvtest_set_caps (h, &info, i == 2 ? GST_VIDEO_FORMAT_I420 :
        GST_VIDEO_FORMAT_RGBA, 160, 96);
    in = cvtest_random_frame (&info, 11 + i);
    out = cvtest_push_frame (h, in);
    /* fixation at x = 80: the left half sharp, the right blurred */
    fail_unless (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 0, 0, 72,
            96), "%s: the sharp half changed", paths[i]);
    fail_if (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 88, 0, 72,
            96), "%s: the blurred half is unchanged", paths[i]);
    gst_buffer_unref (out);

    /* smooth: sharp up to the sharp cell's centre (x = 40), blurred from
     * the blurred one's (x = 120) */
    g_object_set (foveate, "mode", 1, NULL);
    out = cvtest_push_frame (h, in);
    fail_unless (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 0, 0, 40,
            96));
    fail_if (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 120, 0, 40, 96));
    gst_buffer_unref (out);
    g_object_set (foveate, "mode", 0, NULL);

    /* the map follows the fixation */
    g_object_set (foveate, "fixation-x", 0.25, NULL);
    out = cvtest_push_frame (h, in);
    fail_unless (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 0, 0, 32,
            96));
    fail_if (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 48, 0, 32, 96));
    gst_buffer_unref (out);

    /* no map: the model again, the fixation's fragment sharp */
    g_object_set (foveate, "blur-map", NULL, NULL);
    out = cvtest_push_frame (h, in);
    fail_unless (block_unchanged (in, out, &info, i == 2 ? 1 : 4, 36, 44, 8,
            8));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_object_unref (foveate);
    gst_harness_teardown (h);
    g_unlink (paths[i]);
    g_free (paths[i]);
  }
  g_rmdir (dir);
  g_free (dir);
}

GST_END_TEST;

/* A map GStreamer decodes: a PNG made by pngenc, two halves. */
GST_START_TEST (test_blur_map_png)
{
  static const guint8 halves[] = { 0, 255 };
  gchar *dir = g_dir_make_tmp ("cudafoveate-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "halves.png", NULL);
  GstElement *pipeline, *appsrc, *foveate;
  GstFlowReturn ret;
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;
  gchar *launch;

  if (!gst_registry_check_feature_version (gst_registry_get (), "pngenc",
          1, 0, 0)) {
    GST_INFO ("no pngenc here: nothing to make a PNG with");
    g_free (path);
    g_rmdir (dir);
    g_free (dir);
    return;
  }
  launch = g_strdup_printf ("appsrc name=src caps=video/x-raw,format=GRAY8,"
      "width=2,height=1,framerate=0/1 ! pngenc ! filesink location=\"%s\"",
      path);
  pipeline = gst_parse_launch (launch, NULL);
  fail_unless (pipeline != NULL);
  appsrc = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  /* rows of GRAY8 are padded to 4 bytes */
  in = gst_buffer_new_allocate (NULL, 4, NULL);
  gst_buffer_memset (in, 0, 0, 4);
  gst_buffer_fill (in, 0, halves, 2);
  g_signal_emit_by_name (appsrc, "push-buffer", in, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  g_signal_emit_by_name (appsrc, "end-of-stream", &ret);
  gst_buffer_unref (in);
  fail_unless (cvtest_run_to_end (pipeline, 10 * GST_SECOND) == NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (appsrc);
  gst_object_unref (pipeline);

  h = cvtest_filter_harness ("cudafoveate", "fragment-size=8", &foveate);
  g_object_set (foveate, "blur-map", path, NULL);
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 160, 80);
  in = cvtest_random_frame (&info, 5);
  out = cvtest_push_frame (h, in);
  fail_unless (block_unchanged (in, out, &info, 1, 0, 0, 72, 80));
  fail_if (block_unchanged (in, out, &info, 1, 88, 0, 72, 80));
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_object_unref (foveate);
  gst_harness_teardown (h);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (launch);
  g_free (dir);
}

GST_END_TEST;

/* Missing, malformed and undecodable maps stop the stream with an error
 * that says why. */
GST_START_TEST (test_blur_map_errors)
{
  static const struct
  {
    const gchar *name, *contents, *mode, *says;
  } cases[] = {
    {NULL, NULL, "blockwise", "No such file"},
    {"short.pgm", "P5\n4 4\n255\nab", "blockwise", "wanted"},
    {"huge.pgm", "P5\n99999 2\n255\n", "blockwise", "a side"},
    {"header.pgm", "P5\n4 x\n255\n", "blockwise", "malformed"},
    {"nan.pfm", "Pf\n1 1\n-1.0\n\x00\x00\xc0\x7f", "blockwise",
        "not a number"},
    {"text.png", "not a picture at all", "smooth", "decoded"},
    /* read without end, or blocked on forever, before */
    {"fifo.pgm", NULL, "blockwise", "a FIFO"},
    {"/dev/zero", NULL, "blockwise", "not a regular file"},
  };
  gchar *dir = g_dir_make_tmp ("cudafoveate-XXXXXX", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *path = cases[i].name && cases[i].name[0] == '/' ?
        g_strdup (cases[i].name) : g_build_filename (dir, cases[i].name ?
        cases[i].name : "missing.pgm", NULL);
    gchar *launch;
    GstElement *pipeline;
    GstMessage *msg;
    GError *error = NULL;
    gchar *debug = NULL, *text;

    if (cases[i].contents)
      fail_unless (g_file_set_contents (path, cases[i].contents,
              strlen (cases[i].contents) + (i == 4 ? 4 : 0), NULL));
    else if (g_strcmp0 (cases[i].name, "fifo.pgm") == 0)
      fail_unless (mkfifo (path, 0600) == 0);
    launch = g_strdup_printf ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=GRAY8,width=64,height=48 ! cudavisionupload ! "
        "cudafoveate mode=%s blur-map=\"%s\" ! cudavisiondownload ! fakesink",
        cases[i].mode, path);
    pipeline = gst_parse_launch (launch, NULL);
    fail_unless (pipeline != NULL);
    GST_INFO ("%s", launch);
    msg = cvtest_run_to_end (pipeline, 10 * GST_SECOND);
    fail_unless (msg != NULL, "%s: no error", launch);
    gst_message_parse_error (msg, &error, &debug);
    text = g_strdup_printf ("%s %s", error->message, debug ? debug : "");
    fail_unless (strstr (text, cases[i].says) != NULL,
        "%s: the error \"%s\" does not say \"%s\"", launch, text,
        cases[i].says);
    g_free (text);
    g_free (debug);
    g_error_free (error);
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
    if (g_str_has_prefix (path, dir))
      g_unlink (path);
    g_free (path);
    g_free (launch);
  }
  g_rmdir (dir);
  g_free (dir);
}

GST_END_TEST;

static Suite *
cudafoveate_suite (void)
{
  Suite *s = suite_create ("cudafoveate");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_alpha);
  tcase_add_test (tc, test_fixation_moves);
  tcase_add_test (tc, test_renegotiation_and_flush);
  tcase_add_test (tc, test_fragment_size);
  tcase_add_test (tc, test_out_of_reach);
  tcase_add_test (tc, test_blur_map);
  tcase_add_test (tc, test_blur_map_png);
  tcase_add_test (tc, test_blur_map_errors);
  tcase_add_test (tc, test_in_range_settings_keep_flowing);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudafoveate_suite);
}
