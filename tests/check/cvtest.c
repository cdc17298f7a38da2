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

#include "cvtest.h"

#include <gst/app/app.h>

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

cvcore_backend
cvtest_backend (void)
{
  cvcore_backend backend = CVCORE_BACKEND_CUDA;

  cvcore_backend_from_string (g_getenv ("GST_CUDAVISION_BACKEND"), &backend);
  return backend;
}

gboolean
cvtest_cuda_available (void)
{
  cvcore_device *device;

  if (cvcore_device_open (CVCORE_BACKEND_CUDA, 0, &device) != CVCORE_OK)
    return FALSE;
  cvcore_device_close (device);
  return TRUE;
}

/* Probes in a child process: CUDA initialised in this process would be
 * unusable in the children that check forks for each test. */
static gboolean
cuda_available_in_child (void)
{
  pid_t pid = fork ();
  int status;

  if (pid == 0)
    _exit (cvtest_cuda_available ()? 0 : 1);
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return cvtest_cuda_available ();
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

int
cvtest_main (int argc, char **argv, Suite * (*suite) (void))
{
  if (cvtest_backend () == CVCORE_BACKEND_CUDA && !cuda_available_in_child ()) {
    cvtest_cuda_available ();
    printf ("skipped: no CUDA device (%s)\n", cvcore_last_error ());
    return CVTEST_SKIP;
  }
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (suite (), "cudavision", __FILE__);
}

gint
cvtest_reference_step (void)
{
  return g_getenv ("CVTEST_QUICK") ? 7 : 1;
}

void
cvtest_fill_random (guint8 * data, gsize size, guint32 seed)
{
  guint32 x = seed * 2654435761u + 1;

  for (gsize i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data[i] = (guint8) (x >> 7);
  }
}

void
cvtest_padded_info (GstVideoInfo * info, GstVideoFormat format, gint width,
    gint height, guint pad, guint gap)
{
  gsize offset = 0;

  gst_video_info_set_format (info, format, width, height);
  GST_VIDEO_INFO_FPS_N (info) = 30;
  GST_VIDEO_INFO_FPS_D (info) = 1;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comps[GST_VIDEO_MAX_COMPONENTS];
    guint rows;

    gst_video_format_info_component (info->finfo, p, comps);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comps[0]);
    info->stride[p] += pad;
    info->offset[p] = offset;
    offset += (gsize) info->stride[p] * rows + gap;
  }
  info->size = offset;
}

void
cvtest_fill_frame_buffer (GstBuffer * buffer, const GstVideoInfo * info,
    guint32 seed)
{
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  cvtest_fill_random (map.data, map.size, seed);
  gst_buffer_unmap (buffer, &map);
  if (gst_buffer_get_video_meta (buffer) == NULL)
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        (gsize *) info->offset, (gint *) info->stride);
}

GstBuffer *
cvtest_random_frame (const GstVideoInfo * info, guint32 seed)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);

  cvtest_fill_frame_buffer (buffer, info, seed);
  return buffer;
}

void
cvtest_assert_frames_equal (GstBuffer * a, GstBuffer * b,
    const GstVideoInfo * info)
{
  GstVideoFrame fa, fb;

  fail_unless (gst_video_frame_map (&fa, (GstVideoInfo *) info, a,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, (GstVideoInfo *) info, b,
          GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    gint comps[GST_VIDEO_MAX_COMPONENTS];
    gsize row_bytes;
    guint rows;

    gst_video_format_info_component (info->finfo, p, comps);
    row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comps[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comps[0]);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comps[0]);
    for (guint y = 0; y < rows; y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);

      if (memcmp (ra, rb, row_bytes) != 0) {
        gsize x = 0;

        while (ra[x] == rb[x])
          x++;
        fail ("%s %dx%d: plane %u row %u byte %" G_GSIZE_FORMAT
            " differs: %u != %u", GST_VIDEO_INFO_NAME (info),
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), p, y,
            x, ra[x], rb[x]);
      }
    }
  }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
}

GstMessage *
cvtest_run_to_end (GstElement * pipeline, GstClockTime timeout)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, timeout,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_object_unref (bus);
  fail_unless (msg != NULL, "pipeline neither ended nor failed in time");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    gst_message_unref (msg);
    return NULL;
  }
  return msg;
}

GstEvent *
cvtest_mouse_move_event (gdouble x, gdouble y)
{
#if GST_CHECK_VERSION (1, 22, 0)
  return gst_navigation_event_new_mouse_move (x, y,
      GST_NAVIGATION_MODIFIER_NONE);
#else
  /* the structure that gst_navigation_send_mouse_event makes */
  return gst_event_new_navigation (gst_structure_new
      ("application/x-gst-navigation", "event", G_TYPE_STRING, "mouse-move",
          "button", G_TYPE_INT, 0, "pointer_x", G_TYPE_DOUBLE, x,
          "pointer_y", G_TYPE_DOUBLE, y, NULL));
#endif
}

void
cvtest_left_out (const gchar * test, const gchar * why)
{
  g_printerr ("%s left out: %s (built against GStreamer %d.%d.%d)\n", test,
      why, GST_VERSION_MAJOR, GST_VERSION_MINOR, GST_VERSION_MICRO);
}

void
cvtest_restore_env (const gchar * name, gchar * saved)
{
  if (saved)
    g_setenv (name, saved, TRUE);
  else
    g_unsetenv (name);
  g_free (saved);
}

GstBuffer *
cvtest_pull_buffer (GstElement * sink)
{
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      10 * GST_SECOND);
  GstBuffer *buffer;

  fail_unless (sample != NULL);
  buffer = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  return buffer;
}

void
cvtest_assert_seek_restarts (GstElement * pipeline, GstElement * sink,
    const GstVideoInfo * info)
{
  GstBuffer *first_frame, *again;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  first_frame = cvtest_pull_buffer (sink);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (first_frame), 0);
  for (guint i = 0; i < 10; i++)
    gst_buffer_unref (cvtest_pull_buffer (sink));

  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, 0));
  again = cvtest_pull_buffer (sink);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (again), 0);
  cvtest_assert_frames_equal (first_frame, again, info);
  gst_buffer_unref (again);
  for (guint i = 0; i < 5; i++)
    gst_buffer_unref (cvtest_pull_buffer (sink));
  gst_buffer_unref (first_frame);
}

GstHarness *
cvtest_filter_harness (const gchar * element, const gchar * properties,
    GstElement ** filter)
{
  gchar *desc =
      g_strdup_printf ("cudavisionupload ! %s name=e %s ! cudavisiondownload",
      element, properties);
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  if (filter)
    *filter = gst_bin_get_by_name (GST_BIN (h->element), "e");
  return h;
}

void
cvtest_set_caps (GstHarness * h, GstVideoInfo * info, GstVideoFormat format,
    gint width, gint height)
{
  gst_video_info_set_format (info, format, width, height);
  GST_VIDEO_INFO_FPS_N (info) = 30;
  gst_harness_set_src_caps (h, gst_video_info_to_caps (info));
}

GstBuffer *
cvtest_push_frame (GstHarness * h, GstBuffer * in)
{
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));

  fail_unless (out != NULL);
  return out;
}

guint8
cvtest_byte_at (GstBuffer * buffer, const GstVideoInfo * info, guint plane,
    gint x, gint y)
{
  GstVideoFrame frame;
  guint8 v;

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_READ));
  v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, plane))[y *
      GST_VIDEO_FRAME_PLANE_STRIDE (&frame, plane) + x];
  gst_video_frame_unmap (&frame);
  return v;
}

void
cvtest_assert_constant_unchanged (GstHarness * h, const GstVideoInfo * info,
    guint8 value)
{
  GstBuffer *in = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstBuffer *out;

  gst_buffer_memset (in, 0, value, info->size);
  out = cvtest_push_frame (h, in);
  cvtest_assert_frames_equal (in, out, info);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}
