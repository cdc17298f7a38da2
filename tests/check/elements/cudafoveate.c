/* cudafoveate as an element: formats, the fovea, alpha, the fixation moved
 * by property and by pointer, settings out of reach. The arithmetic itself
 * is tested in foveate.c. */
#include <gst/video/navigation.h>

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
          gst_navigation_event_new_mouse_move (50.0, 25.0,
              GST_NAVIGATION_MODIFIER_NONE)));
  g_object_get (foveate, "fixation-x", &fx, NULL);
  fail_unless_equals_float (fx, 0.75);
  g_object_set (foveate, "follow-pointer", TRUE, NULL);
  fail_unless (gst_harness_push_upstream_event (h,
          gst_navigation_event_new_mouse_move (50.0, 25.0,
              GST_NAVIGATION_MODIFIER_NONE)));
  g_object_get (foveate, "fixation-x", &fx, NULL);
  fail_unless_equals_float (fx, 0.25);
  out = cvtest_push_frame (h, in);
  fail_unless_equals_int (differences_around (in, out, &info, 50, 25), 0);
  gst_buffer_unref (out);

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

/* Blur the bank cannot hold is an error, not a crash. */
GST_START_TEST (test_out_of_reach)
{
  GstHarness *h = cvtest_filter_harness ("cudafoveate",
      "strength=10 fixation-x=0 fixation-y=0", NULL);
  GstVideoInfo info;
  GstBuffer *in;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 1280, 720);
  in = cvtest_random_frame (&info, 1);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  gst_harness_teardown (h);
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
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudafoveate_suite);
}
