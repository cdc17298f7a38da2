/* cudatonemap as an element: every input and output format against the
 * core's CPU reference, refused formats, properties changed while playing,
 * adaptation over timestamps and its reset by a flush, renegotiation. The
 * operator itself is tested in tonemap.c. */
#include <math.h>

#include "cvtest.h"
#include "cvtonemap.h"

static const GstVideoFormat in_formats[] = {
  GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_GRAY16_LE,
  GST_VIDEO_FORMAT_RGBA,
};

/* The CPU reference's output for @in (laid out as @in_info), as a packed
 * 4-byte-per-pixel array. */
static guint8 *
reference_output (GstBuffer * in, const GstVideoInfo * in_info,
    const cvcore_tm_params * params)
{
  const gint w = GST_VIDEO_INFO_WIDTH (in_info);
  const gint h = GST_VIDEO_INFO_HEIGHT (in_info);
  guint8 *out = g_malloc (4 * w * h);
  cvcore_device *cpu;
  cvcore_stream *stream;
  cvcore_tonemapper *tm;
  GstVideoFrame frame;
  cvcore_image src, dst = { out, 4 * (gsize) w, w, h, 4, CVCORE_SAMPLE_U8 };

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) in_info, in,
          GST_MAP_READ));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  src.pitch = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  src.width = w;
  src.height = h;
  src.channels = GST_VIDEO_INFO_N_COMPONENTS (in_info) == 1 ? 1 : 4;
  src.sample = GST_VIDEO_INFO_COMP_DEPTH (in_info, 0) > 8 ?
      CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
  fail_unless_equals_int (cvcore_device_open (CVCORE_BACKEND_CPU, 0, &cpu),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (cpu, &stream), CVCORE_OK);
  fail_unless_equals_int (cvcore_tonemapper_new (cpu, w, h, &tm), CVCORE_OK);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &src, &dst, params,
          0.0), CVCORE_OK);
  cvcore_tonemapper_free (tm);
  cvcore_stream_free (stream);
  cvcore_device_close (cpu);
  gst_video_frame_unmap (&frame);
  return out;
}

/* Every byte of @out (laid out as @info) within 2 of @expected, at most 1
 * in 1000 pixels more than 1 away (the CPU backend matches exactly). */
static void
assert_close (GstBuffer * out, const GstVideoInfo * info,
    const guint8 * expected)
{
  const gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  const gint limit = cvtest_backend () == CVCORE_BACKEND_CPU ? 0 : 1;
  gint far = 0;

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < 4 * w; x++) {
      const gint d = abs (cvtest_byte_at (out, info, 0, x, y) -
          expected[(gsize) y * 4 * w + x]);

      fail_unless (d <= limit + 1, "(%d, %d): off by %d", x / 4, y, d);
      far += d > limit;
    }
  fail_unless (far * 1000 <= w * h, "%d pixels off by 2", far);
}

GST_START_TEST (test_formats_against_reference)
{
  for (guint f = 0; f < G_N_ELEMENTS (in_formats); f++)
    for (gint bgr = 0; bgr < 2; bgr++) {
      GstHarness *h = cvtest_filter_harness ("cudatonemap", "", NULL);
      GstVideoInfo info, padded, out_info;
      cvcore_tm_params params;
      GstBuffer *in, *out;
      guint8 *expected;

      gst_harness_set_sink_caps_str (h, bgr ? "video/x-raw,format=BGRx" :
          "video/x-raw,format=RGBA");
      cvtest_set_caps (h, &info, in_formats[f], 157, 61);
      cvtest_padded_info (&padded, in_formats[f], 157, 61, 24, 0);
      in = cvtest_random_frame (&padded, f + 5);
      out = cvtest_push_frame (h, in);
      gst_video_info_set_format (&out_info, bgr ? GST_VIDEO_FORMAT_BGRx :
          GST_VIDEO_FORMAT_RGBA, 157, 61);

      cvcore_tm_params_init (&params);
      params.dst_bgr = bgr;
      expected = reference_output (in, &padded, &params);
      assert_close (out, &out_info, expected);
      g_free (expected);
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

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGBA64_LE, 96, 64);
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
  GstBuffer *in, *out;
  guint8 *expected;
  cvcore_tm_params params;

  cvcore_tm_params_init (&params);
  for (gint k = 0; k < 2; k++) {
    const gint w = k ? 33 : 200, hgt = k ? 150 : 20;

    cvtest_set_caps (h, &info, k ? GST_VIDEO_FORMAT_GRAY16_LE :
        GST_VIDEO_FORMAT_RGBA64_LE, w, hgt);
    gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGBA, w, hgt);
    in = cvtest_random_frame (&info, 30 + k);
    out = cvtest_push_frame (h, in);
    expected = reference_output (in, &info, &params);
    assert_close (out, &out_info, expected);
    g_free (expected);
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
