/* cudastereocorr: a stereo pair of moving texture with a known disparity
 * through two appsrcs, frames paired by timestamp (an unpaired one
 * dropped), the left view passed on with a stereo meta; views that differ
 * in size refused. The correlation itself is tested in clt.c. */
#include <math.h>
#include <gst/app/app.h>

#include "cvtest.h"
#include "pictures.h"
#include "gstcudavisioncorrelationmeta.h"

#define W 96
#define H 64
#define DISPARITY 3.4

static gdouble
texture (gdouble x, gdouble y)
{
  return 128.0 + 2.5 * picture_texture (x, y);
}


/* Stops @pipeline and drops the references stereo_pipeline() gave. */
static void
stereo_pipeline_free (GstElement * pipeline, GstElement * left,
    GstElement * right, GstElement * sink)
{
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (left);
  gst_object_unref (right);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

/* A GRAY8 view of width @w at @pts: the texture moved left by @shift. */
static GstBuffer *
view (gint w, gdouble shift, GstClockTime pts)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, w * H, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < w; x++)
      map.data[y * w + x] = (guint8) CLAMP (floor (texture (x + shift, y) +
              0.5), 0, 255);
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static GstElement *
stereo_pipeline (gint right_width, GstElement ** left, GstElement ** right,
    GstElement ** sink)
{
  gchar *desc = g_strdup_printf ("cudastereocorr name=s min-disparity=0 "
      "max-disparity=6 ! cudadownload ! appsink name=out sync=false "
      "appsrc name=l format=time caps=video/x-raw,format=GRAY8,width=%d,"
      "height=%d,framerate=30/1 ! cudaupload ! s.sink_left "
      "appsrc name=r format=time caps=video/x-raw,format=GRAY8,width=%d,"
      "height=%d,framerate=30/1 ! cudaupload ! s.sink_right", W, H,
      right_width, H);
  GstElement *pipeline = gst_parse_launch (desc, NULL);

  g_free (desc);
  fail_unless (pipeline != NULL);
  *left = gst_bin_get_by_name (GST_BIN (pipeline), "l");
  *right = gst_bin_get_by_name (GST_BIN (pipeline), "r");
  *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  return pipeline;
}

GST_START_TEST (test_disparity)
{
  GstElement *left, *right, *sink;
  GstElement *pipeline = stereo_pipeline (W, &left, &right, &sink);
  const GstClockTime frame = GST_SECOND / 30;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* pairs at 0 and 2 frames; a left frame at 1 frame has no partner */
  gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, 0));
  gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, frame));
  gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, 2 * frame));
  gst_app_src_push_buffer (GST_APP_SRC (right), view (W, DISPARITY, 0));
  gst_app_src_push_buffer (GST_APP_SRC (right), view (W, DISPARITY,
          2 * frame));
  gst_app_src_end_of_stream (GST_APP_SRC (left));
  gst_app_src_end_of_stream (GST_APP_SRC (right));
  for (gint n = 0; n < 2; n++) {
    GstBuffer *out = cvtest_pull_buffer (sink);
    GstCudaVisionCorrelationMeta *meta =
        gst_buffer_get_cuda_vision_correlation_meta (out);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 2 * n * frame);
    fail_unless (meta != NULL);
    fail_unless_equals_int (meta->mode, GST_CUDA_VISION_CORRELATION_STEREO);
    fail_unless_equals_int (meta->tiles_x, W / 8 + 1);
    /* inner tiles whose content stays in the right view */
    for (guint ty = 2; ty + 2 < meta->tiles_y; ty++)
      for (guint tx = 2; tx + 3 < meta->tiles_x; tx++) {
        const GstCudaVisionTileMatch *m =
            gst_cuda_vision_correlation_meta_tile (meta, tx, ty);

        fail_unless (fabs (m->dx - DISPARITY) < 0.1 && fabs (m->dy) < 0.1,
            "tile (%u, %u): (%g, %g), %g", tx, ty, m->dx, m->dy,
            m->confidence);
      }
    gst_buffer_unref (out);
  }
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          5 * GST_SECOND) == NULL);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

GST_START_TEST (test_views_differ)
{
  GstElement *left, *right, *sink;
  GstElement *pipeline = stereo_pipeline (W + 8, &left, &right, &sink);
  GstMessage *msg;

  gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, 0));
  gst_app_src_push_buffer (GST_APP_SRC (right), view (W + 8, 0.0, 0));
  gst_app_src_end_of_stream (GST_APP_SRC (left));
  gst_app_src_end_of_stream (GST_APP_SRC (right));
  msg = cvtest_run_to_end (pipeline, 10 * GST_SECOND);
  fail_unless (msg != NULL, "the pipeline did not fail");
  {
    GError *error;

    gst_message_parse_error (msg, &error, NULL);
    fail_unless (strstr (error->message, "differ") != NULL
        || error->domain == GST_STREAM_ERROR, "%s", error->message);
    g_error_free (error);
  }
  gst_message_unref (msg);
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

static Suite *
cudastereocorr_suite (void)
{
  Suite *s = suite_create ("cudastereocorr");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_disparity);
  tcase_add_test (tc, test_views_differ);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudastereocorr_suite);
}
