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

/* Every element of the plugin: documented properties, and the filters run
 * in a pipeline, through repeated state changes, on the first format of
 * their sink template. */
#include <string.h>

#include "cvtest.h"

static GList *
plugin_factories (void)
{
  GList *features = gst_registry_get_feature_list_by_plugin
      (gst_registry_get (), "cudavision");

  fail_unless (features != NULL);
  return features;
}

/* Properties the element declares itself (not those of GstObject and the
 * base classes) have a nick and a blurb. */
GST_START_TEST (test_properties_documented)
{
  GList *features = plugin_factories ();

  for (GList * l = features; l; l = l->next) {
    GstElementFactory *factory = GST_ELEMENT_FACTORY (l->data);
    GstElement *element = gst_element_factory_create (factory, NULL);
    guint n;
    GParamSpec **specs =
        g_object_class_list_properties (G_OBJECT_GET_CLASS (element), &n);

    for (guint i = 0; i < n; i++) {
      const gchar *blurb = g_param_spec_get_blurb (specs[i]);

      if (specs[i]->owner_type == GST_TYPE_OBJECT
          || specs[i]->owner_type == GST_TYPE_BASE_TRANSFORM)
        continue;
      fail_unless (blurb != NULL && strlen (blurb) > 10, "%s::%s has no blurb",
          GST_OBJECT_NAME (factory), specs[i]->name);
      fail_unless (g_param_spec_get_nick (specs[i]) != NULL);
    }
    g_free (specs);
    gst_object_unref (element);
  }
  gst_plugin_feature_list_free (features);
}

GST_END_TEST;

/* The first format of @factory's sink template. */
static gchar *
first_sink_format (GstElementFactory * factory)
{
  const GList *templates = gst_element_factory_get_static_pad_templates
      (factory);
  gchar *format = NULL;

  for (; templates && !format; templates = templates->next) {
    GstStaticPadTemplate *t = templates->data;
    GstCaps *caps;
    const GValue *formats;

    if (t->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_caps_get (&t->static_caps);
    formats = gst_structure_get_value (gst_caps_get_structure (caps, 0),
        "format");
    format = g_strdup (GST_VALUE_HOLDS_LIST (formats) ?
        g_value_get_string (gst_value_list_get_value (formats, 0)) :
        g_value_get_string (formats));
    gst_caps_unref (caps);
  }
  return format;
}

/* The name of @factory's request sink pad template, or NULL; one of a
 * single pad (cudaphasecorr's sink_right, for its mode=stereo) before one
 * of many. */
static const gchar *
request_sink (GstElementFactory * factory)
{
  const gchar *name = NULL;

  for (const GList * t = gst_element_factory_get_static_pad_templates
      (factory); t; t = t->next) {
    const GstStaticPadTemplate *templ = t->data;

    if (templ->direction == GST_PAD_SINK && templ->presence == GST_PAD_REQUEST
        && (name == NULL || strchr (name, '%')))
      name = templ->name_template;
  }
  return name;
}

/* Runs @desc to EOS three times, with the pipeline set to NULL between
 * them. */
static void
run_three_times (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);

  GST_INFO ("%s", desc);
  fail_unless (pipeline != NULL, "%s", desc);
  for (gint run = 0; run < 3; run++) {
    GstMessage *msg = cvtest_run_to_end (pipeline, 60 * GST_SECOND);

    fail_unless (msg == NULL, "%s: run %d failed", desc, run);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (pipeline);
}

/* Each filter between cudaupload and cudadownload, and one with a request
 * sink pad (the stereo mode of cudaphasecorr) with a second source there:
 * three runs to EOS, with the pipeline set to NULL between them. */
GST_START_TEST (test_filters_run)
{
  GList *features = plugin_factories ();

  for (GList * l = features; l; l = l->next) {
    GstElementFactory *factory = GST_ELEMENT_FACTORY (l->data);
    const gchar *name = GST_OBJECT_NAME (factory);
    const gchar *second = request_sink (factory);
    gchar *format, *desc;

    if (g_str_has_suffix (name, "upload")
        || g_str_has_suffix (name, "download"))
      continue;
    format = first_sink_format (factory);
    desc = g_strdup_printf ("videotestsrc num-buffers=4 ! "
        "video/x-raw,format=%s,width=67,height=45 ! cudaupload ! %s ! "
        "cudadownload ! fakesink", format, name);
    run_three_times (desc);
    g_free (desc);
    if (second) {
      desc = g_strdup_printf ("%s name=e mode=stereo ! cudadownload ! "
          "fakesink videotestsrc num-buffers=4 ! "
          "video/x-raw,format=%s,width=67,height=45 ! cudaupload ! e.sink "
          "videotestsrc num-buffers=4 ! "
          "video/x-raw,format=%s,width=67,height=45 ! cudaupload ! e.%s",
          name, format, format, second);
      run_three_times (desc);
      g_free (desc);
    }
    g_free (format);
  }
  gst_plugin_feature_list_free (features);
}

GST_END_TEST;

/* A harness around @factory's filter, between cudaupload and cudadownload,
 * with 67x45 frames at 30 fps in the first format of its sink template
 * (@info) coming in. */
static GstHarness *
filter_harness (GstElementFactory * factory, GstVideoInfo * info)
{
  gchar *format = first_sink_format (factory);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=67,height=45,"
      "framerate=30/1", format);
  GstCaps *video = gst_caps_from_string (caps);
  GstHarness *h = cvtest_filter_harness (GST_OBJECT_NAME (factory), "", NULL);

  fail_unless (gst_video_info_from_caps (info, video));
  gst_harness_set_src_caps (h, video);
  g_free (caps);
  g_free (format);
  return h;
}

/* Each filter takes a stream in a BYTES segment (as from filesrc without
 * a parser): frames go through, and property control, which needs stream
 * time, is left alone. */
/* Every element answers the LATENCY query of a live pipeline with what
 * it adds: nothing, since each passes a frame on as soon as its work is
 * queued (cudaphasecorr too, which has no thread of its own). The
 * pipeline's latency is then the live source's, a frame at 30 fps, with
 * the sink's processing deadline set to 0. */
GST_START_TEST (test_latency_answers)
{
  GList *features = plugin_factories ();

  for (GList * l = features; l; l = l->next) {
    GstElementFactory *factory = GST_ELEMENT_FACTORY (l->data);
    const gchar *name = GST_OBJECT_NAME (factory);
    gchar *format = first_sink_format (factory);
    gchar *desc = g_strdup_printf ("videotestsrc is-live=true ! "
        "video/x-raw,format=%s,width=64,height=48,framerate=30/1 ! %s%s%s "
        "fakesink sync=true processing-deadline=0", format,
        g_str_has_suffix (name, "upload") ? "" : "cudavisionupload ! ", name,
        g_str_has_suffix (name, "download") ? " !" : " ! cudavisiondownload !");
    GstElement *pipeline = gst_parse_launch (desc, NULL);
    GstQuery *query = gst_query_new_latency ();
    GstClockTime min, max;
    gboolean live;

    fail_unless (pipeline != NULL, "%s", desc);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE, "%s", desc);
    fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
            10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
    fail_unless (gst_element_query (pipeline, query), "%s", desc);
    gst_query_parse_latency (query, &live, &min, &max);
    fail_unless (live, "%s: not live (min %" GST_TIME_FORMAT ")", name,
        GST_TIME_ARGS (min));
    fail_unless_equals_uint64 (min, GST_SECOND / 30);
    gst_query_unref (query);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
    g_free (desc);
    g_free (format);
  }
  gst_plugin_feature_list_free (features);
}

GST_END_TEST;

GST_START_TEST (test_filters_bytes_segment)
{
  GList *features = plugin_factories ();

  for (GList * l = features; l; l = l->next) {
    GstElementFactory *factory = GST_ELEMENT_FACTORY (l->data);
    const gchar *name = GST_OBJECT_NAME (factory);
    GstVideoInfo info;
    GstSegment segment;
    GstHarness *h;
    GstBuffer *out;

    if (g_str_has_suffix (name, "upload")
        || g_str_has_suffix (name, "download"))
      continue;
    h = filter_harness (factory, &info);
    gst_segment_init (&segment, GST_FORMAT_BYTES);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
    for (gint i = 0; i < 2; i++) {
      GstBuffer *in = gst_harness_create_buffer (h, info.size);

      gst_buffer_memset (in, 0, 0x50 + i, info.size);

      GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
      GST_BUFFER_OFFSET (in) = i * info.size;
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "%s: no frame", name);
      gst_buffer_unref (out);
    }
    gst_harness_teardown (h);
  }
  gst_plugin_feature_list_free (features);
}

GST_END_TEST;

#if GST_CHECK_VERSION (1, 20, 0)
/* Metas tagged only "video" (regions, captions and the like) go through
 * cudaupload ! filter ! cudadownload, as through GstVideoFilter; a meta
 * about the memory does not. */
GST_START_TEST (test_filters_keep_video_metas)
{
  static const gchar *video_tags[] = { GST_META_TAG_VIDEO_STR, NULL };
  static const gchar *memory_tags[] = { GST_META_TAG_MEMORY_STR, NULL };
  GList *features = plugin_factories ();

  if (gst_meta_get_info ("CvtestVideoMeta") == NULL) {
    gst_meta_register_custom ("CvtestVideoMeta", video_tags, NULL, NULL, NULL);
    gst_meta_register_custom ("CvtestMemoryMeta", memory_tags, NULL, NULL,
        NULL);
  }
  for (GList * l = features; l; l = l->next) {
    GstElementFactory *factory = GST_ELEMENT_FACTORY (l->data);
    const gchar *name = GST_OBJECT_NAME (factory);
    GstVideoInfo info;
    GstHarness *h;
    GstBuffer *in, *out;
    GstCustomMeta *meta;

    if (g_str_has_suffix (name, "upload") || g_str_has_suffix (name,
            "download") || request_sink (factory) != NULL)
      continue;
    h = filter_harness (factory, &info);
    in = gst_harness_create_buffer (h, info.size);
    gst_buffer_memset (in, 0, 0x50, info.size);
    meta = gst_buffer_add_custom_meta (in, "CvtestVideoMeta");
    gst_structure_set (gst_custom_meta_get_structure (meta), "region",
        G_TYPE_INT, 7, NULL);
    gst_buffer_add_custom_meta (in, "CvtestMemoryMeta");
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: no frame", name);
    meta = gst_buffer_get_custom_meta (out, "CvtestVideoMeta");
    fail_unless (meta != NULL, "%s dropped a video meta", name);
    fail_unless (gst_structure_has_field (gst_custom_meta_get_structure
            (meta), "region"), "%s: the meta lost its content", name);
    fail_unless (gst_buffer_get_custom_meta (out, "CvtestMemoryMeta") ==
        NULL, "%s kept a memory meta", name);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  gst_plugin_feature_list_free (features);
}

GST_END_TEST;
#endif

static Suite *
plugin_suite (void)
{
  Suite *s = suite_create ("plugin");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_properties_documented);
  tcase_add_test (tc, test_filters_run);
  tcase_add_test (tc, test_filters_bytes_segment);
  tcase_add_test (tc, test_latency_answers);
#if GST_CHECK_VERSION (1, 20, 0)
  tcase_add_test (tc, test_filters_keep_video_metas);
#else
  cvtest_left_out ("test_filters_keep_video_metas",
      "GstCustomMeta came with GStreamer 1.20");
#endif
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, plugin_suite);
}
