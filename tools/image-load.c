/* Decoding an image file to luma through GStreamer, for the tools. */
#include <string.h>

#include <gst/app/app.h>
#include <gst/video/video.h>

#include "image-load.h"

/* The image at @path as tightly packed 8-bit luma, or NULL. */
guint8 *
image_load_luma (const gchar * path, gint * width, gint * height)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink", path);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *sink;
  GstSample *sample;
  guint8 *luma = NULL;

  g_free (desc);
  if (!pipeline) {
    g_printerr ("%s: %s\n", path, error->message);
    g_clear_error (&error);
    return NULL;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  if (sample) {
    GstVideoInfo info;
    GstVideoFrame frame;

    if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
        && gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
            GST_MAP_READ)) {
      *width = GST_VIDEO_INFO_WIDTH (&info);
      *height = GST_VIDEO_INFO_HEIGHT (&info);
      luma = g_malloc ((gsize) * width * *height);
      for (gint y = 0; y < *height; y++)
        memcpy (luma + (gsize) y * *width,
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), *width);
      gst_video_frame_unmap (&frame);
    }
    gst_sample_unref (sample);
  }
  if (!luma)
    g_printerr ("%s: cannot decode\n", path);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return luma;
}
