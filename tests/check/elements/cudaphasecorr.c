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

/* cudaphasecorr as an element. Flow: the tile grid's meta on moving
 * texture (GRAY8, RGBA through its green channel, NV12 through its luma),
 * frames passed through unchanged, element messages, drawn vectors, a
 * flush that starts over. Stereo: a pair of views with a known disparity
 * through two appsrcs, frames paired by timestamp (an unpaired one
 * dropped), the left view passed on with a stereo meta; views that differ
 * in size refused; the right pad only in stereo mode. Rig: views of a
 * quad, the cameras from the property or a file, refusals, and (with
 * GStreamer's analytics library) the surfaces' tensor meta. The
 * correlation itself is tested in clt.c and clt-rig.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <gst/app/app.h>
#include <glib/gstdio.h>

#include <string.h>

#include "cvtest.h"
#include "pictures.h"
#include "gstcudavisioncorrelationmeta.h"

#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

/* An 8-bit textured picture. */
static gdouble
texture (gdouble x, gdouble y)
{
  return 128.0 + 2.5 * picture_texture (x, y);
}

/* Frame @n of the texture moving by (1.5, -0.5) per frame: every byte of
 * plane 0's pixel (x, y) holds it (chroma planes are set to grey). */
static GstBuffer *
moving_frame (const GstVideoInfo * info, gint n)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++)
    memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, p), 128,
        GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p) *
        GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p));
  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    const gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0);

    for (gint x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      memset (row + x * pstride, (gint) CLAMP (floor (texture (x - 1.5 * n,
                      y + 0.5 * n) + 0.5), 0, 255), pstride);
  }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buffer) = n * GST_SECOND / 30;
  return buffer;
}

/* The inner tiles of @meta found the motion (1.5, -0.5). */
static void
assert_motion (const GstCudaVisionCorrelationMeta * meta, gint width,
    gint height)
{
  fail_unless_equals_int (meta->tiles_x, (width + 7) / 8 + 1);
  fail_unless_equals_int (meta->tiles_y, (height + 7) / 8 + 1);
  fail_unless_equals_int (meta->mode, GST_CUDA_VISION_CORRELATION_FLOW);
  for (guint ty = 2; ty + 2 < meta->tiles_y; ty++)
    for (guint tx = 2; tx + 2 < meta->tiles_x; tx++) {
      const GstCudaVisionTileMatch *m =
          gst_cuda_vision_correlation_meta_tile (meta, tx, ty);

      fail_unless (fabs (m->dx - 1.5) < 0.1 && fabs (m->dy + 0.5) < 0.1
          && m->confidence > 0.05, "tile (%u, %u): (%g, %g), %g", tx, ty,
          m->dx, m->dy, m->confidence);
    }
  /* the frame's motion, which the edge tiles do not pull away */
  fail_unless (meta->motion_tiles > 0 && fabs (meta->motion_dx - 1.5) < 0.1
      && fabs (meta->motion_dy + 0.5) < 0.1, "motion (%g, %g) of %u tiles",
      meta->motion_dx, meta->motion_dy, meta->motion_tiles);
}

GST_START_TEST (test_flow_meta)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = cvtest_filter_harness ("cudaphasecorr", "", NULL);
    GstVideoInfo info;

    cvtest_set_caps (h, &info, formats[f], 97, 66);
    for (gint n = 0; n < 3; n++) {
      GstBuffer *in = moving_frame (&info, n);
      GstBuffer *out = cvtest_push_frame (h, in);
      GstCudaVisionCorrelationMeta *meta =
          gst_buffer_get_cuda_vision_correlation_meta (out);

      /* nothing to compare the first frame with */
      fail_unless ((meta == NULL) == (n == 0), "format %u, frame %d", f, n);
      if (meta)
        assert_motion (meta, 97, 66);
      cvtest_assert_frames_equal (out, in, &info);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* The meta of the second of two moving frames, matched with
 * @properties. */
static GstCudaVisionCorrelationMeta *
second_frame_meta (const gchar * properties, GstBuffer ** out)
{
  GstHarness *h = cvtest_filter_harness ("cudaphasecorr", properties, NULL);
  GstVideoInfo info;
  GstCudaVisionCorrelationMeta *meta;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 97, 66);
  for (gint n = 0; n < 2; n++) {
    GstBuffer *in = moving_frame (&info, n);

    *out = cvtest_push_frame (h, in);
    gst_buffer_unref (in);
    if (n == 0)
      gst_buffer_unref (*out);
  }
  gst_harness_teardown (h);
  meta = gst_buffer_get_cuda_vision_correlation_meta (*out);
  fail_unless (meta != NULL);
  return meta;
}

/* converge in flow: at 1 pixel no inner tile takes a refinement, so the
 * matches are those without refinements, bit for bit; at 0 every inner
 * tile takes its refinements. */
GST_START_TEST (test_flow_converge)
{
  GstBuffer *once_buffer, *converged_buffer, *refined_buffer;
  const GstCudaVisionCorrelationMeta *once =
      second_frame_meta ("refinements=0 fit-radius=0", &once_buffer);
  const GstCudaVisionCorrelationMeta *converged =
      second_frame_meta ("refinements=2 converge=1 fit-radius=0",
      &converged_buffer);
  const GstCudaVisionCorrelationMeta *refined =
      second_frame_meta ("refinements=2 converge=0 fit-radius=0",
      &refined_buffer);
  guint inner = 0, stopped = 0, moved = 0;

  for (guint ty = 2; ty + 2 < once->tiles_y; ty++)
    for (guint tx = 2; tx + 2 < once->tiles_x; tx++) {
      const GstCudaVisionTileMatch *a =
          gst_cuda_vision_correlation_meta_tile (once, tx, ty);
      const GstCudaVisionTileMatch *b =
          gst_cuda_vision_correlation_meta_tile (converged, tx, ty);
      const GstCudaVisionTileMatch *c =
          gst_cuda_vision_correlation_meta_tile (refined, tx, ty);

      inner++;
      stopped += a->dx == b->dx && a->dy == b->dy
          && a->confidence == b->confidence;
      moved += a->dx != c->dx || a->dy != c->dy;
    }
  fail_unless (inner > 0);
  fail_unless_equals_int (stopped, inner);
  fail_unless_equals_int (moved, inner);
  gst_buffer_unref (once_buffer);
  gst_buffer_unref (converged_buffer);
  gst_buffer_unref (refined_buffer);
}

GST_END_TEST;

/* An 8-bit picture with texture at every scale, as natural images. */
static gdouble
natural (gdouble x, gdouble y)
{
  return 128.0 + 0.4 * picture_natural_texture (x, y);
}

/* The share of the tiles of @meta, @margin pixels or more inside the
 * frame, within 0.1 pixels of (@dx, @dy). */
static gdouble
share_found (const GstCudaVisionCorrelationMeta * meta, gint width,
    gint height, gint margin, gdouble dx, gdouble dy)
{
  guint n = 0, found = 0;

  for (guint ty = 0; ty < meta->tiles_y; ty++)
    for (guint tx = 0; tx < meta->tiles_x; tx++) {
      const GstCudaVisionTileMatch *m =
          gst_cuda_vision_correlation_meta_tile (meta, tx, ty);

      if (8 * (gint) tx - 8 < margin || 8 * (gint) tx + 8 > width - margin
          || 8 * (gint) ty - 8 < margin || 8 * (gint) ty + 8 > height - margin)
        continue;
      n++;
      found += hypot (m->dx - dx, m->dy - dy) <= 0.1;
    }
  return n ? (gdouble) found / n : 0.0;
}

/* Frame @n of GRAY8 natural-like texture moving by (13.5, -9.25) per
 * frame. */
static GstBuffer *
natural_frame (gint width, gint height, gint n)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, width * height, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (gint y = 0; y < height; y++)
    for (gint x = 0; x < width; x++)
      map.data[y * width + x] = (guint8) CLAMP (floor (natural (x - 13.5 * n,
                  y + 9.25 * n) + 0.5), 0, 255);
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = n * GST_SECOND / 30;
  return buffer;
}

/* Motion of many pixels a frame: found with the default levels, in the
 * tiles and in the frame's motion; not with levels=0. */
GST_START_TEST (test_flow_large_motion)
{
  for (gint levels = 0; levels < 2; levels++) {
    GstHarness *h = cvtest_filter_harness ("cudaphasecorr",
        levels ? "" : "levels=0", NULL);
    GstVideoInfo info;

    cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 256, 208);
    for (gint n = 0; n < 3; n++) {
      GstBuffer *in = natural_frame (256, 208, n);
      GstBuffer *out = cvtest_push_frame (h, in);
      GstCudaVisionCorrelationMeta *meta =
          gst_buffer_get_cuda_vision_correlation_meta (out);

      if (n > 0) {
        const gdouble share = share_found (meta, 256, 208, 24, 13.5, -9.25);

        GST_INFO ("levels %s, frame %d: %.1f %% of the tiles, motion "
            "(%g, %g)", levels ? "default" : "0", n, 100.0 * share,
            meta->motion_dx, meta->motion_dy);
        if (levels)
          fail_unless (share >= 0.9 && fabs (meta->motion_dx - 13.5) < 0.05
              && fabs (meta->motion_dy + 9.25) < 0.05, "frame %d: %g, "
              "(%g, %g)", n, share, meta->motion_dx, meta->motion_dy);
        else
          fail_unless (share < 0.1 && fabs (meta->motion_dx - 13.5) > 1.0);
      }
      gst_buffer_unref (in);
      gst_buffer_unref (out);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

#if GST_CHECK_VERSION (1, 20, 0)
/* custom-meta=true: the frame also carries the matches in a structure,
 * the same as the C meta's. */
GST_START_TEST (test_custom_meta)
{
  GstHarness *h = cvtest_filter_harness ("cudaphasecorr",
      "custom-meta=true", NULL);
  GstVideoInfo info;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 97, 66);
  for (gint n = 0; n < 2; n++) {
    GstBuffer *in = moving_frame (&info, n);
    GstBuffer *out = cvtest_push_frame (h, in);
    GstCustomMeta *custom = gst_buffer_get_custom_meta (out,
        GST_CUDA_VISION_CORRELATION_CUSTOM_META);

    fail_unless ((custom == NULL) == (n == 0));
    if (custom) {
      const GstStructure *s = gst_custom_meta_get_structure (custom);
      GstCudaVisionCorrelationMeta *meta =
          gst_buffer_get_cuda_vision_correlation_meta (out);
      GBytes *bytes;
      guint tiles_x, tiles_y;
      gdouble dx, dy;

      fail_unless (gst_structure_get (s, "tiles-x", G_TYPE_UINT, &tiles_x,
              "tiles-y", G_TYPE_UINT, &tiles_y, "motion-dx", G_TYPE_DOUBLE,
              &dx, "motion-dy", G_TYPE_DOUBLE, &dy, "matches", G_TYPE_BYTES,
              &bytes, NULL));
      fail_unless_equals_int (tiles_x, meta->tiles_x);
      fail_unless_equals_int (tiles_y, meta->tiles_y);
      fail_unless (dx == meta->motion_dx && dy == meta->motion_dy);
      fail_unless_equals_int (g_bytes_get_size (bytes),
          tiles_x * tiles_y * sizeof (GstCudaVisionTileMatch));
      fail_unless (memcmp (g_bytes_get_data (bytes, NULL), meta->matches,
              g_bytes_get_size (bytes)) == 0);
      g_bytes_unref (bytes);
    }
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;
#endif

/* Frames whose size changes every frame leave with the caps they came
 * with, also while the next frame's caps are already waiting on the pad:
 * the drawn copies go through cudagabor, which maps each by its caps. */
GST_START_TEST (test_caps_change_every_frame)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudavisionupload ! cudaphasecorr draw=true ! cudagabor ! "
      "cudavisiondownload ! appsink name=sink sync=false wait-on-eos=false",
      NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  const gint frames = 40;
  GstMessage *error;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint n = 0; n < frames; n++) {
    GstVideoInfo info;
    GstBuffer *buffer;
    GstCaps *caps;
    GstSample *sample;

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64 + 8 * (n % 3),
        48 + 4 * (n % 2));
    GST_VIDEO_INFO_FPS_N (&info) = 30;
    caps = gst_video_info_to_caps (&info);
    buffer = cvtest_random_frame (&info, n);
    GST_BUFFER_PTS (buffer) = n * GST_SECOND / 30;
    sample = gst_sample_new (buffer, caps, NULL, NULL);
    fail_unless_equals_int (gst_app_src_push_sample (GST_APP_SRC (src),
            sample), GST_FLOW_OK);
    gst_sample_unref (sample);
    gst_buffer_unref (buffer);
    gst_caps_unref (caps);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  error = cvtest_run_to_end (pipeline, 30 * GST_SECOND);
  if (error) {
    GError *e;

    gst_message_parse_error (error, &e, NULL);
    fail ("the stream failed: %s", e->message);
  }
  for (gint n = 0; n < frames; n++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0);
    GstVideoInfo info;

    fail_unless (sample != NULL, "frame %d missing", n);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
            (sample)));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), 64 + 8 * (n % 3));
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), 48 + 4 * (n % 2));
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static gint
compare_pairs (gconstpointer a, gconstpointer b)
{
  const gfloat *x = a, *y = b;

  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The smallest value whose weight with all smaller ones reaches half the
 * total: the definition, by sorting. */
static gdouble
reference_weighted_median (gfloat (*pairs)[2], guint n)
{
  gdouble total = 0.0, sum = 0.0;

  qsort (pairs, n, sizeof (pairs[0]), compare_pairs);
  for (guint i = 0; i < n; i++)
    total += pairs[i][1];
  for (guint i = 0; i < n; i++) {
    sum += pairs[i][1];
    if (sum >= total / 2.0)
      return pairs[i][0];
  }
  return pairs[n - 1][0];
}

GST_START_TEST (test_messages_and_flush)
{
  GstElement *filter;
  GstHarness *h = cvtest_filter_harness ("cudaphasecorr",
      "post-messages=true", &filter);
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstMessage *msg;
  const GstStructure *s;
  gdouble motion_dx, motion_dy, former_dx, former_dy;
  guint tiles_x, confident;
  GBytes *bytes;

  gst_element_set_bus (filter, bus);
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 80, 48);
  for (gint n = 0; n < 2; n++) {
    GstBuffer *in = moving_frame (&info, n);

    gst_buffer_unref (cvtest_push_frame (h, in));
    gst_buffer_unref (in);
  }
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cudaphasecorr"));
  fail_unless (gst_structure_get (s, "motion-dx", G_TYPE_DOUBLE, &motion_dx,
          "motion-dy", G_TYPE_DOUBLE, &motion_dy, "tiles-x", G_TYPE_UINT,
          &tiles_x, "confident-tiles", G_TYPE_UINT, &confident, "matches",
          G_TYPE_BYTES, &bytes, NULL));
  /* the former names, kept one more release */
  fail_unless (gst_structure_get (s, "mean-dx", G_TYPE_DOUBLE, &former_dx,
          "mean-dy", G_TYPE_DOUBLE, &former_dy, NULL));
  fail_unless (former_dx == motion_dx && former_dy == motion_dy);
  fail_unless_equals_int (tiles_x, 11);
  fail_unless_equals_int (g_bytes_get_size (bytes), 11 * 7 * 12);
  {
    const gfloat *m = g_bytes_get_data (bytes, NULL);
    gfloat xs[11 * 7][2], ys[11 * 7][2];
    guint n = 0;

    /* the frame's motion: confidence-weighted medians over the tiles of at
     * least min-confidence (0.05) */
    for (gint t = 0; t < 11 * 7; t++)
      if (m[3 * t + 2] >= 0.05) {
        xs[n][0] = m[3 * t];
        ys[n][0] = m[3 * t + 1];
        xs[n][1] = ys[n][1] = m[3 * t + 2];
        n++;
      }
    fail_unless_equals_int (n, confident);
    fail_unless_equals_float (motion_dx, reference_weighted_median (xs, n));
    fail_unless_equals_float (motion_dy, reference_weighted_median (ys, n));
    fail_unless (fabs (motion_dx - 1.5) < 0.1 && fabs (motion_dy + 0.5) < 0.1);
    /* the inner tiles' matches are the motion */
    for (gint ty = 2; ty < 5; ty++)
      for (gint tx = 2; tx < 9; tx++)
        fail_unless (fabs (m[3 * (ty * 11 + tx)] - 1.5) < 0.1
            && fabs (m[3 * (ty * 11 + tx) + 1] + 0.5) < 0.1);
  }
  g_bytes_unref (bytes);
  gst_message_unref (msg);

  /* after a flush the next frame has no previous one */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 80, 48);
  {
    GstBuffer *in = moving_frame (&info, 2);
    GstBuffer *out = cvtest_push_frame (h, in);

    fail_unless (gst_buffer_get_cuda_vision_correlation_meta (out) == NULL);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_element_set_bus (filter, NULL);
  gst_object_unref (bus);
  gst_object_unref (filter);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* New caps mid-stream (another size, another format): the next frame
 * starts over, the one after it is matched on the new tile grid, and the
 * output caps follow. */
GST_START_TEST (test_renegotiation)
{
  GstHarness *h = cvtest_filter_harness ("cudaphasecorr", "", NULL);
  GstVideoInfo info;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 80, 48);
  for (gint n = 0; n < 2; n++) {
    GstBuffer *in = moving_frame (&info, n);

    gst_buffer_unref (cvtest_push_frame (h, in));
    gst_buffer_unref (in);
  }
  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_RGBA, 97, 66);
  for (gint n = 2; n < 4; n++) {
    GstBuffer *in = moving_frame (&info, n);
    GstBuffer *out = cvtest_push_frame (h, in);
    GstCudaVisionCorrelationMeta *meta =
        gst_buffer_get_cuda_vision_correlation_meta (out);
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
    GstVideoInfo out_info;

    fail_unless ((meta == NULL) == (n == 2), "frame %d", n);
    if (meta)
      assert_motion (meta, 97, 66);
    fail_unless (caps != NULL && gst_video_info_from_caps (&out_info, caps));
    fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&out_info),
        GST_VIDEO_FORMAT_RGBA);
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), 97);
    cvtest_assert_frames_equal (out, in, &info);
    gst_caps_unref (caps);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* draw=true: each confident inner tile's vector starts white at its
 * centre and ends 4 x (1.5, -0.5) away; the rest of the frame is kept. */
GST_START_TEST (test_draw)
{
  GstHarness *h = cvtest_filter_harness ("cudaphasecorr",
      "draw=true draw-scale=4", NULL);
  GstVideoInfo info;
  GstBuffer *in[2], *out;
  guint changed = 0;

  cvtest_set_caps (h, &info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  in[0] = moving_frame (&info, 0);
  in[1] = moving_frame (&info, 1);
  gst_buffer_unref (cvtest_push_frame (h, in[0]));
  out = cvtest_push_frame (h, in[1]);
  for (gint ty = 2; ty <= 4; ty++)
    for (gint tx = 2; tx <= 6; tx++) {
      fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 8 * tx, 8 * ty),
          255);
      fail_unless_equals_int (cvtest_byte_at (out, &info, 0, 8 * tx + 6,
              8 * ty - 2), 255);
    }
  for (gint y = 0; y < 48; y++)
    for (gint x = 0; x < 64; x++)
      changed += cvtest_byte_at (out, &info, 0, x, y) !=
          cvtest_byte_at (in[1], &info, 0, x, y);
  fail_unless (changed > 0 && changed < 64 * 48 / 4, "%u pixels", changed);
  gst_buffer_unref (in[0]);
  gst_buffer_unref (in[1]);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

#define W 96
#define H 64
#define DISPARITY 3.4


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

/* A GRAY8 view of @w x @h at @pts: @field moved left by @shift. */
static GstBuffer *
view_of (gdouble (*field) (gdouble, gdouble), gint w, gint h, gdouble shift,
    GstClockTime pts)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, w * h, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      map.data[y * w + x] = (guint8) CLAMP (floor (field (x + shift, y) +
              0.5), 0, 255);
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static GstBuffer *
view (gint w, gdouble shift, GstClockTime pts)
{
  return view_of (texture, w, H, shift, pts);
}

/* Stereo matching with @properties of views of @width (the right one
 * @right_width) x @height. */
static GstElement *
stereo_pipeline_of (const gchar * properties, gint width, gint right_width,
    gint height, GstElement ** left, GstElement ** right, GstElement ** sink)
{
  gchar *desc = g_strdup_printf ("cudaphasecorr name=s mode=stereo %s "
      "! cudavisiondownload ! appsink name=out sync=false "
      "appsrc name=l format=time caps=video/x-raw,format=GRAY8,width=%d,"
      "height=%d,framerate=30/1 ! cudavisionupload ! s.sink "
      "appsrc name=r format=time caps=video/x-raw,format=GRAY8,width=%d,"
      "height=%d,framerate=30/1 ! cudavisionupload ! s.sink_right", properties,
      width, height, right_width, height);
  GstElement *pipeline = gst_parse_launch (desc, NULL);

  g_free (desc);
  fail_unless (pipeline != NULL);
  *left = gst_bin_get_by_name (GST_BIN (pipeline), "l");
  *right = gst_bin_get_by_name (GST_BIN (pipeline), "r");
  *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  return pipeline;
}

static GstElement *
stereo_pipeline (gint right_width, GstElement ** left, GstElement ** right,
    GstElement ** sink)
{
  return stereo_pipeline_of ("min-disparity=0 max-disparity=6", W,
      right_width, H, left, right, sink);
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
  gst_app_src_push_buffer (GST_APP_SRC (right), view (W, DISPARITY, 2 * frame));
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
            "tile (%u, %u): (%g, %g), %g", tx, ty, m->dx, m->dy, m->confidence);
      }
    gst_buffer_unref (out);
  }
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          5 * GST_SECOND) == NULL);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

/* Frames in and out of the element, the n-th out made of the n-th in on
 * every sink pad (the views' frames all pair, in order). */
typedef struct
{
  GMutex lock;
  GHashTable *entered;          /* sink pad -> GArray of monotonic times */
  guint left;                   /* frames out so far */
  GArray *held;                 /* microseconds each frame was inside */
} HeldFrames;

static GstPadProbeReturn
frame_entered (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  HeldFrames *held = data;
  GArray *times;
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&held->lock);
  times = g_hash_table_lookup (held->entered, pad);
  if (times == NULL) {
    times = g_array_new (FALSE, FALSE, sizeof (gint64));
    g_hash_table_insert (held->entered, pad, times);
  }
  g_array_append_val (times, now);
  g_mutex_unlock (&held->lock);
  return GST_PAD_PROBE_OK;
}

/* From the coming of the frame's last view. */
static GstPadProbeReturn
frame_left (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  HeldFrames *held = data;
  gint64 now = g_get_monotonic_time (), last = 0, us;
  GHashTableIter it;
  GArray *times;

  g_mutex_lock (&held->lock);
  g_hash_table_iter_init (&it, held->entered);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) & times)) {
    fail_unless (held->left < times->len);
    last = MAX (last, g_array_index (times, gint64, held->left));
  }
  held->left++;
  us = now - last;
  g_array_append_val (held->held, us);
  g_mutex_unlock (&held->lock);
  return GST_PAD_PROBE_OK;
}

static gint
compare_int64 (gconstpointer a, gconstpointer b)
{
  const gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median time, in microseconds, that frames spent inside `pc` of
 * @desc: from the coming of a frame (in stereo, of its later view) on a
 * sink pad to its leaving on the source pad. */
static gint64
median_held (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *pc = gst_bin_get_by_name (GST_BIN (pipeline), "pc");
  GstPad *src = gst_element_get_static_pad (pc, "src");
  HeldFrames held;
  GstIterator *it;
  GValue item = G_VALUE_INIT;
  gint64 median;

  g_mutex_init (&held.lock);
  held.entered = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) g_array_unref);
  held.left = 0;
  held.held = g_array_new (FALSE, FALSE, sizeof (gint64));
  it = gst_element_iterate_sink_pads (pc);
  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    gst_pad_add_probe (g_value_get_object (&item), GST_PAD_PROBE_TYPE_BUFFER,
        frame_entered, &held, NULL);
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, frame_left, &held, NULL);
  fail_unless (cvtest_run_to_end (pipeline, 30 * GST_SECOND) == NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless (held.held->len >= 10, "%u frames", held.held->len);
  g_array_sort (held.held, compare_int64);
  median = g_array_index (held.held, gint64, held.held->len / 2);
  g_array_free (held.held, TRUE);
  g_hash_table_destroy (held.entered);
  g_mutex_clear (&held.lock);
  gst_object_unref (src);
  gst_object_unref (pc);
  gst_object_unref (pipeline);
  return median;
}

#define LIVE_VIEW "videotestsrc is-live=true num-buffers=12 ! " \
    "video/x-raw,format=GRAY8,width=48,height=32,framerate=5/1 ! " \
    "cudavisionupload ! "

/* A live cudaphasecorr holds no frame: a frame of flow leaves once its own
 * matching is done, and a stereo pair once its later view has come and
 * been matched, in the thread that brought it. A frame that waited for the
 * pipeline's latency instead (an aggregator's live timeout, or a thread of
 * the element's own that the sink holds until the frame before is due)
 * would stay inside for the sink's processing deadline more. Frames are
 * timed with a deadline of 0 and of 100 ms; the difference must stay well
 * under those 100 ms, whatever the matching itself costs on a slow or
 * sanitized build. */
#define LIVE_DEADLINE_US 100000

GST_START_TEST (test_live_holds_no_frame)
{
  static const gchar *const pipelines[] = {
    LIVE_VIEW "cudaphasecorr name=pc levels=0 ! cudavisiondownload ! "
        "fakesink sync=true processing-deadline=%" G_GINT64_FORMAT,
    "cudaphasecorr name=pc mode=stereo levels=0 ! cudavisiondownload ! "
        "fakesink sync=true processing-deadline=%" G_GINT64_FORMAT " "
        LIVE_VIEW "pc.sink " LIVE_VIEW "pc.sink_right",
  };

  for (guint p = 0; p < G_N_ELEMENTS (pipelines); p++) {
    gchar *with = g_strdup_printf (pipelines[p],
        (gint64) (LIVE_DEADLINE_US * GST_USECOND));
    gchar *without = g_strdup_printf (pipelines[p], (gint64) 0);
    const gint64 matching_us = median_held (without);
    const gint64 held_us = median_held (with);

    GST_INFO ("%s: %" G_GINT64_FORMAT " us, %" G_GINT64_FORMAT
        " us without the deadline", with, held_us, matching_us);
    fail_unless (held_us <= matching_us + LIVE_DEADLINE_US / 2,
        "%s: frames held %" G_GINT64_FORMAT " us (median), %" G_GINT64_FORMAT
        " us without the sink's deadline", with, held_us, matching_us);
    g_free (with);
    g_free (without);
  }
}

GST_END_TEST;

/* A stereo pair leaves when its later view comes: the element's LATENCY
 * answer is the larger of its views' upstream latencies (here the right
 * view's, a frame at 5 fps, against the left's at 30 fps). */
GST_START_TEST (test_stereo_latency_answer)
{
  GstElement *pipeline = gst_parse_launch ("cudaphasecorr name=pc "
      "mode=stereo ! cudavisiondownload ! fakesink sync=true "
      "processing-deadline=0 videotestsrc is-live=true ! video/x-raw,"
      "format=GRAY8,width=48,height=32,framerate=30/1 ! cudavisionupload ! "
      "pc.sink videotestsrc is-live=true ! video/x-raw,format=GRAY8,width=48,"
      "height=32,framerate=5/1 ! cudavisionupload ! pc.sink_right", NULL);
  GstQuery *query = gst_query_new_latency ();
  GstClockTime min, max;
  gboolean live;

  fail_unless (pipeline != NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_query (pipeline, query));
  gst_query_parse_latency (query, &live, &min, &max);
  fail_unless (live);
  fail_unless_equals_uint64 (min, GST_SECOND / 5);
  gst_query_unref (query);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The first warning on @pipeline's bus, or NULL; fails on an error. */
static gchar *
first_warning (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gchar *text = NULL;

  while (text == NULL && (msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_WARNING | GST_MESSAGE_ERROR))) {
    GError *error;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &error, NULL);
      fail ("error: %s", error->message);
    }
    gst_message_parse_warning (msg, &error, NULL);
    text = g_strdup (error->message);
    g_error_free (error);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return text;
}

/* Views whose timestamps never pair (the right one's clock 10 frames
 * ahead) give no frames and one warning that says so. */
GST_START_TEST (test_unpaired_warned)
{
  GstElement *left, *right, *sink;
  GstElement *pipeline = stereo_pipeline (W, &left, &right, &sink);
  const GstClockTime frame = GST_SECOND / 30;
  gchar *warning;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint n = 0; n < 4; n++) {
    gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, n * frame));
    gst_app_src_push_buffer (GST_APP_SRC (right), view (W, DISPARITY,
            (n + 10) * frame));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (left));
  gst_app_src_end_of_stream (GST_APP_SRC (right));
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          5 * GST_SECOND) == NULL);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  warning = first_warning (pipeline);
  fail_unless (warning != NULL && strstr (warning, "do not pair"), "%s",
      warning);
  g_free (warning);
  fail_unless (first_warning (pipeline) == NULL, "warned more than once");
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

/* A left view whose right frames never come waits, once its queue is
 * full, in its own thread; a stop wakes it, and the pipeline stops. */
GST_START_TEST (test_stop_while_waiting_for_pair)
{
  GstElement *left, *right, *sink;
  GstElement *pipeline = stereo_pipeline (W, &left, &right, &sink);
  const GstClockTime frame = GST_SECOND / 30;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint n = 0; n < 6; n++)
    gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, n * frame));
  /* the left frames wait, and nothing comes out */
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          GST_SECOND / 5) == NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

/* New caps on both views while a left frame waits for its pair: that
 * frame leaves with the old caps, matched, and the next pair with the
 * new ones. */
GST_START_TEST (test_stereo_renegotiation)
{
  GstElement *left, *right, *sink;
  GstElement *pipeline = stereo_pipeline (W, &left, &right, &sink);
  const GstClockTime frame = GST_SECOND / 30;
  const gint widths[] = { W, W + 32 };
  GstCaps *caps;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, 0));
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, widths[1], "height", G_TYPE_INT, H, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
  gst_app_src_set_caps (GST_APP_SRC (left), caps);
  gst_app_src_push_buffer (GST_APP_SRC (left), view_of (texture, widths[1], H,
          0.0, frame));
  gst_app_src_push_buffer (GST_APP_SRC (right), view (W, DISPARITY, 0));
  gst_app_src_set_caps (GST_APP_SRC (right), caps);
  gst_app_src_push_buffer (GST_APP_SRC (right), view_of (texture, widths[1],
          H, DISPARITY, frame));
  gst_caps_unref (caps);
  for (gint n = 0; n < 2; n++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);
    GstBuffer *out;
    GstVideoInfo info;

    fail_unless (sample != NULL, "no frame %d", n);
    out = gst_sample_get_buffer (sample);
    fail_unless (gst_video_info_from_caps (&info,
            gst_sample_get_caps (sample)));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), widths[n]);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), n * frame);
    fail_unless (gst_buffer_get_cuda_vision_correlation_meta (out) != NULL);
    gst_sample_unref (sample);
  }
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

/* The time of frame @n at 30 fps, as videotestsrc stamps it. */
static GstClockTime
frame_time (gint n)
{
  return gst_util_uint64_scale (n, GST_SECOND, 30);
}

/* A flushing seek on a stereo pipeline flushes both views (the left's
 * flush goes downstream, the right's stays inside): pairs start again
 * from the seek's position, all matched. */
GST_START_TEST (test_stereo_flushing_seek)
{
  GstElement *pipeline = gst_parse_launch ("cudaphasecorr name=pc "
      "mode=stereo ! cudavisiondownload ! appsink name=out sync=false "
      "max-buffers=2 videotestsrc pattern=ball ! video/x-raw,format=GRAY8,"
      "width=64,height=48,framerate=30/1 ! cudavisionupload ! pc.sink "
      "videotestsrc pattern=ball ! video/x-raw,format=GRAY8,width=64,"
      "height=48,framerate=30/1 ! cudavisionupload ! pc.sink_right", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");

  fail_unless (pipeline != NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PAUSED), GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint n = 0; n < 5; n++) {
    GstBuffer *out = cvtest_pull_buffer (sink);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), frame_time (n));
    gst_buffer_unref (out);
  }
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, frame_time (30)));
  for (gint n = 0; n < 5; n++) {
    GstBuffer *out = cvtest_pull_buffer (sink);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), frame_time (30 + n));
    fail_unless (gst_buffer_get_cuda_vision_correlation_meta (out) != NULL);
    gst_buffer_unref (out);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A flushing seek that the right view's source refuses (a stream
 * source): the left view flushes and starts again at the new position,
 * downstream flushes with it, and pairs go on with the right frames of
 * that time. */
GST_START_TEST (test_stereo_seek_refused_by_one_view)
{
  GstElement *pipeline = gst_parse_launch ("cudaphasecorr name=pc "
      "mode=stereo ! cudavisiondownload ! appsink name=out sync=false "
      "max-buffers=2 videotestsrc pattern=ball ! video/x-raw,format=GRAY8,"
      "width=96,height=64,framerate=30/1 ! cudavisionupload ! pc.sink "
      "appsrc name=r format=time caps=video/x-raw,format=GRAY8,width=96,"
      "height=64,framerate=30/1 ! cudavisionupload ! pc.sink_right", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstElement *right = gst_bin_get_by_name (GST_BIN (pipeline), "r");

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint n = 0; n < 3; n++) {
    GstBuffer *out;

    gst_app_src_push_buffer (GST_APP_SRC (right), view (W, 0.0,
            frame_time (n)));
    out = cvtest_pull_buffer (sink);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), frame_time (n));
    gst_buffer_unref (out);
  }
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, frame_time (30)));
  for (gint n = 30; n < 33; n++) {
    GstBuffer *out;

    gst_app_src_push_buffer (GST_APP_SRC (right), view (W, 0.0,
            frame_time (n)));
    out = cvtest_pull_buffer (sink);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), frame_time (n));
    fail_unless (gst_buffer_get_cuda_vision_correlation_meta (out) != NULL);
    gst_buffer_unref (out);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (right);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Pushes a pair at @pts and takes the output frame: matched or not. */
static void
push_pair_expect (GstElement * left, GstElement * right, GstElement * sink,
    GstClockTime pts, gboolean with_right, gboolean matched)
{
  GstBuffer *out;

  gst_app_src_push_buffer (GST_APP_SRC (left), view (W, 0.0, pts));
  if (with_right)
    gst_app_src_push_buffer (GST_APP_SRC (right), view (W, DISPARITY, pts));
  out = cvtest_pull_buffer (sink);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts);
  fail_unless ((gst_buffer_get_cuda_vision_correlation_meta (out) != NULL)
      == matched, "frame at %" GST_TIME_FORMAT, GST_TIME_ARGS (pts));
  gst_buffer_unref (out);
}

/* A right camera swapped while playing: its pad released, the left
 * frames go on unmatched with a warning, and a new sink_right pad takes
 * up matching again. */
GST_START_TEST (test_right_view_swapped)
{
  GstElement *left, *right, *sink;
  GstElement *pipeline = stereo_pipeline (W, &left, &right, &sink);
  GstElement *pc = gst_bin_get_by_name (GST_BIN (pipeline), "s");
  GstPad *pad = gst_element_get_static_pad (pc, "sink_right");
  GstPad *upstream = gst_pad_get_peer (pad);
  const GstClockTime frame = GST_SECOND / 30;
  gchar *warning;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  push_pair_expect (left, right, sink, 0, TRUE, TRUE);
  fail_unless (gst_pad_unlink (upstream, pad));
  gst_element_release_request_pad (pc, pad);
  gst_object_unref (pad);
  push_pair_expect (left, right, sink, frame, FALSE, FALSE);
  push_pair_expect (left, right, sink, 2 * frame, FALSE, FALSE);
  warning = first_warning (pipeline);
  fail_unless (warning != NULL && strstr (warning, "right view"), "%s",
      warning);
  g_free (warning);

  pad = gst_element_request_pad_simple (pc, "sink_right");
  fail_unless_equals_int (gst_pad_link (upstream, pad), GST_PAD_LINK_OK);
  push_pair_expect (left, right, sink, 3 * frame, TRUE, TRUE);
  gst_app_src_end_of_stream (GST_APP_SRC (left));
  gst_app_src_end_of_stream (GST_APP_SRC (right));
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          5 * GST_SECOND) == NULL);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  fail_unless (first_warning (pipeline) == NULL);
  gst_object_unref (pad);
  gst_object_unref (upstream);
  gst_object_unref (pc);
  stereo_pipeline_free (pipeline, left, right, sink);
}

GST_END_TEST;

/* One pair through `cudaphasecorr mode=stereo @properties`: a 256 x 176
 * left view of the natural texture and a right view of @right_field moved
 * left by @disparity. */
typedef struct
{
  GstElement *pipeline, *left, *right, *sink;
  GstBuffer *out;
} StereoPair;

static const GstCudaVisionCorrelationMeta *
stereo_pair_run (StereoPair * pair, const gchar * properties,
    gdouble (*right_field) (gdouble, gdouble), gdouble disparity)
{
  const GstCudaVisionCorrelationMeta *meta;

  pair->pipeline = stereo_pipeline_of (properties, 256, 256, 176, &pair->left,
      &pair->right, &pair->sink);
  gst_element_set_state (pair->pipeline, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (pair->left), view_of (natural, 256,
          176, 0.0, 0));
  gst_app_src_push_buffer (GST_APP_SRC (pair->right), view_of (right_field,
          256, 176, disparity, 0));
  pair->out = cvtest_pull_buffer (pair->sink);
  meta = gst_buffer_get_cuda_vision_correlation_meta (pair->out);
  fail_unless (meta != NULL);
  return meta;
}

static void
stereo_pair_free (StereoPair * pair)
{
  gst_buffer_unref (pair->out);
  stereo_pipeline_free (pair->pipeline, pair->left, pair->right, pair->sink);
}

/* Disparities far from the range's middle, found coarse to fine with the
 * default levels, and not with levels=0. */
GST_START_TEST (test_disparity_large)
{
  static const gchar *properties[] = {
    "min-disparity=0 max-disparity=64", "min-disparity=0 max-disparity=64 "
        "levels=0"
  };

  for (guint p = 0; p < G_N_ELEMENTS (properties); p++) {
    StereoPair pair;
    const GstCudaVisionCorrelationMeta *meta = stereo_pair_run (&pair,
        properties[p], natural, 51.25);
    const gdouble share = share_found (meta, 256, 176, 64, 51.25, 0.0);

    GST_INFO ("%s: %.1f %% of the tiles found the disparity", properties[p],
        100.0 * share);
    fail_unless (p == 0 ? share >= 0.9 : share < 0.1, "%s: %g",
        properties[p], share);
    stereo_pair_free (&pair);
  }
}

GST_END_TEST;

/* The natural texture 4 pixels lower: a right view out of line with
 * the left. */
static gdouble
natural_lower (gdouble x, gdouble y)
{
  return natural (x, y - 4.0);
}

/* Right views 4 pixels out of line: no tile keeps its confidence with the
 * default max-vertical-disparity, and with room for it they find it. */
GST_START_TEST (test_vertical_disparity)
{
  static const gchar *properties[] = {
    "min-disparity=0 max-disparity=32", "min-disparity=0 max-disparity=32 "
        "max-vertical-disparity=6"
  };

  for (guint p = 0; p < G_N_ELEMENTS (properties); p++) {
    StereoPair pair;
    const GstCudaVisionCorrelationMeta *meta = stereo_pair_run (&pair,
        properties[p], natural_lower, 20.0);
    guint kept = 0, inner = 0;

    /* inner tiles, whose content is in both views */
    for (guint ty = 4; ty + 4 < meta->tiles_y; ty++)
      for (guint tx = 4; tx + 4 < meta->tiles_x; tx++) {
        inner++;
        kept += gst_cuda_vision_correlation_meta_tile (meta, tx,
            ty)->confidence > 0.0f;
      }
    fail_unless (inner > 100);
    if (p == 0) {
      fail_unless_equals_int (kept, 0);
    } else {
      fail_unless (share_found (meta, 256, 176, 32, 20.0, 4.0) >= 0.9);
    }
    stereo_pair_free (&pair);
  }
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

/* sink_right is there for stereo mode only, and again after a release. */
GST_START_TEST (test_right_pad)
{
  GstElement *e = gst_element_factory_make ("cudaphasecorr", NULL);
  GstPad *pad;

  fail_unless (e != NULL);
  fail_unless (gst_element_request_pad_simple (e, "sink_right") == NULL);
  g_object_set (e, "mode", 1, NULL);
  pad = gst_element_request_pad_simple (e, "sink_right");
  fail_unless (pad != NULL);
  fail_unless_equals_string (GST_PAD_NAME (pad), "sink_right");
  gst_element_release_request_pad (e, pad);
  gst_object_unref (pad);
  pad = gst_element_request_pad_simple (e, "sink_right");
  fail_unless (pad != NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

GST_END_TEST;

/* Stereo with sink_right requested but never linked says so at start,
 * rather than waiting for a right view for ever. */
GST_START_TEST (test_right_pad_unlinked)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudavisionupload ! "
      "cudaphasecorr name=pc mode=stereo ! cudavisiondownload ! fakesink",
      NULL);
  GstElement *pc = gst_bin_get_by_name (GST_BIN (pipeline), "pc");
  GstPad *right = gst_element_request_pad_simple (pc, "sink_right");
  GstMessage *msg;
  GError *error = NULL;

  fail_unless (right != NULL);
  msg = cvtest_run_to_end (pipeline, 10 * GST_SECOND);
  fail_unless (msg != NULL, "no error: the pipeline ran or stalled");
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (strstr (error->message, "sink_right") != NULL, "%s",
      error->message);
  g_error_free (error);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (right);
  gst_object_unref (pc);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A GRAY8 view of a rig's camera at @cx, @cy (view 0's at the origin)
 * of a plane at disparity @d: the texture moved by -d (cx, cy). */
static GstBuffer *
rig_view (gdouble d, gdouble cx, gdouble cy, GstClockTime pts)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, W * H, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++)
      map.data[y * W + x] = (guint8) CLAMP (floor (texture (x + d * cx,
                  y + d * cy) + 0.5), 0, 255);
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

/* A rig of @n views on appsrcs v0 (sink), v1 (sink_1), ... with
 * @properties. */
static GstElement *
rig_pipeline (const gchar * properties, gint n)
{
  GString *desc = g_string_new (NULL);
  GstElement *pipeline;

  g_string_append_printf (desc, "cudaphasecorr name=r mode=rig %s ! "
      "cudavisiondownload ! appsink name=out sync=false", properties);
  for (gint v = 0; v < n; v++) {
    gchar *pad = v ? g_strdup_printf ("sink_%d", v) : g_strdup ("sink");

    g_string_append_printf (desc, " appsrc name=v%d format=time "
        "caps=video/x-raw,format=GRAY8,width=%d,height=%d,framerate=30/1 ! "
        "cudavisionupload ! r.%s", v, W, H, pad);
    g_free (pad);
  }
  pipeline = gst_parse_launch (desc->str, NULL);
  g_string_free (desc, TRUE);
  fail_unless (pipeline != NULL);
  return pipeline;
}

/* Pushes the views of a plane at disparity @d (cameras at @cx, @cy) and
 * checks view 0's frame: every inner tile within 0.1 pixels. */
static void
rig_expect (GstElement * pipeline, gint n, const gdouble * cx,
    const gdouble * cy, gdouble d, guint pairs)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstCudaVisionCorrelationMeta *meta;
  GstBuffer *out;
  guint inner = 0;

  for (gint v = 0; v < n; v++) {
    gchar *name = g_strdup_printf ("v%d", v);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);

    gst_app_src_push_buffer (GST_APP_SRC (src), rig_view (d, cx[v], cy[v], 0));
    gst_object_unref (src);
    g_free (name);
  }
  out = cvtest_pull_buffer (sink);
  meta = gst_buffer_get_cuda_vision_correlation_meta (out);
  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->mode, GST_CUDA_VISION_CORRELATION_RIG);
  fail_unless_equals_int (meta->views, n);
  fail_unless_equals_int (meta->pairs, pairs);
  for (guint ty = 2; ty + 2 < meta->tiles_y; ty++)
    for (guint tx = 2; tx + 3 < meta->tiles_x; tx++) {
      const GstCudaVisionTileMatch *m =
          gst_cuda_vision_correlation_meta_tile (meta, tx, ty);

      fail_unless (fabs (m->dx - d) < 0.1 && m->dy == 0.0f,
          "tile %u, %u: %g, %g", tx, ty, m->dx, m->dy);
      inner++;
    }
  fail_unless (inner > 0);
  gst_buffer_unref (out);
  gst_object_unref (sink);
}

/* The seed's square quad (the default rig) sees a plane at disparity
 * 2.4: one disparity per tile from the six pairs, whether the tiles that
 * settle end their refinements (the default) or every tile takes them. */
GST_START_TEST (test_rig_quad)
{
  static const gdouble cx[] = { 0.0, 1.0, 0.0, 1.0 };
  static const gdouble cy[] = { 0.0, 0.0, 1.0, 1.0 };
  static const gchar *const properties[] = {
    "min-disparity=0 max-disparity=5",
    "min-disparity=0 max-disparity=5 converge=0",
  };

  for (guint i = 0; i < G_N_ELEMENTS (properties); i++) {
    GstElement *pipeline = rig_pipeline (properties[i], 4);

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    rig_expect (pipeline, 4, cx, cy, 2.4, 6);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
}

GST_END_TEST;

/* draw=true: each confident tile's disparity drawn onto a copy of view
 * 0's frame, which is otherwise view 0's. */
GST_START_TEST (test_rig_draw)
{
  static const gdouble cx[] = { 0.0, 1.0 }, cy[] = { 0.0, 0.0 };
  GstElement *pipeline = rig_pipeline ("rig=\"0,0; 1,0\" draw=true "
      "draw-scale=3 min-disparity=0 max-disparity=5", 2);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstBuffer *in = rig_view (2.5, cx[0], cy[0], 0), *out;
  GstMapInfo a, b;
  guint drawn = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint v = 0; v < 2; v++) {
    gchar *name = g_strdup_printf ("v%d", v);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);

    gst_app_src_push_buffer (GST_APP_SRC (src), v ? rig_view (2.5, cx[v],
            cy[v], 0) : gst_buffer_ref (in));
    gst_object_unref (src);
    g_free (name);
  }
  out = cvtest_pull_buffer (sink);
  fail_unless (gst_buffer_get_cuda_vision_correlation_meta (out) != NULL);
  fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
  fail_unless_equals_int (a.size, b.size);
  for (gsize i = 0; i < a.size; i++) {
    fail_unless (a.data[i] == b.data[i] || b.data[i] == 255, "pixel %"
        G_GSIZE_FORMAT ": %u, drawn %u", i, a.data[i], b.data[i]);
    drawn += a.data[i] != b.data[i];
  }
  /* a line of 7 or 8 pixels from each inner tile's centre */
  fail_unless (drawn > 100, "%u pixels drawn", drawn);
  gst_buffer_unmap (in, &a);
  gst_buffer_unmap (out, &b);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_object_unref (sink);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The quad's four sides alone (rig-pairs), without its diagonals. */
GST_START_TEST (test_rig_pairs_chosen)
{
  static const gdouble cx[] = { 0.0, 1.0, 0.0, 1.0 };
  static const gdouble cy[] = { 0.0, 0.0, 1.0, 1.0 };
  GstElement *pipeline = rig_pipeline ("rig-pairs=\"0-1; 2-3; 0-2; 1-3\" "
      "min-disparity=0 max-disparity=5", 4);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  rig_expect (pipeline, 4, cx, cy, 1.7, 4);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

#ifdef HAVE_GST_ANALYTICS
/* tensor-meta=true: each tile's 2-D surface as a tensor of tiles_y x
 * tiles_x x 15 x 15 floats, peaking at its centre, which holds the
 * tile's confidence. */
GST_START_TEST (test_rig_tensor_meta)
{
  static const gdouble cx[] = { 0.0, 1.0 }, cy[] = { 0.0, 0.0 };
  GstElement *pipeline = rig_pipeline ("rig=\"0,0; 1,0\" tensor-meta=true "
      "min-disparity=0 max-disparity=4", 2);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstCudaVisionCorrelationMeta *meta;
  GstTensorMeta *tmeta;
  const GstTensor *tensor;
  GstMapInfo map;
  GstBuffer *out;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (gint v = 0; v < 2; v++) {
    gchar *name = g_strdup_printf ("v%d", v);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);

    gst_app_src_push_buffer (GST_APP_SRC (src), rig_view (2.2, cx[v], cy[v],
            0));
    gst_object_unref (src);
    g_free (name);
  }
  out = cvtest_pull_buffer (sink);
  meta = gst_buffer_get_cuda_vision_correlation_meta (out);
  tmeta = gst_buffer_get_tensor_meta (out);
  fail_unless (meta != NULL && tmeta != NULL);
  fail_unless_equals_int (tmeta->num_tensors, 1);
  tensor = gst_tensor_meta_get (tmeta, 0);
  fail_unless_equals_int (tensor->id,
      g_quark_from_string ("cudavision-rig-correlation"));
  fail_unless_equals_int (tensor->data_type, GST_TENSOR_DATA_TYPE_FLOAT32);
  fail_unless_equals_int (tensor->num_dims, 4);
  fail_unless_equals_int (tensor->dims[0], meta->tiles_y);
  fail_unless_equals_int (tensor->dims[1], meta->tiles_x);
  fail_unless_equals_int (tensor->dims[2], 15);
  fail_unless_equals_int (tensor->dims[3], 15);
  fail_unless (gst_buffer_map (tensor->data, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, meta->tiles_x * meta->tiles_y * 225 *
      sizeof (gfloat));
  for (guint ty = 2; ty + 2 < meta->tiles_y; ty++)
    for (guint tx = 2; tx + 3 < meta->tiles_x; tx++) {
      const gfloat *sf = (const gfloat *) map.data +
          (ty * meta->tiles_x + tx) * 225;

      fail_unless (fabs (sf[7 * 15 + 7] -
              gst_cuda_vision_correlation_meta_tile (meta, tx,
                  ty)->confidence) < 1e-4);
      for (gint i = 0; i < 225; i++)
        fail_unless (sf[i] <= sf[7 * 15 + 7] + 1e-5);
    }
  gst_buffer_unmap (tensor->data, &map);
  gst_buffer_unref (out);
  gst_object_unref (sink);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;
#endif

/* Three cameras in an L read from a file, with comments and blank
 * lines. */
GST_START_TEST (test_rig_location)
{
  static const gdouble cx[] = { 0.0, 2.0, 0.0 };
  static const gdouble cy[] = { 0.0, 0.0, -1.0 };
  gchar *path = g_build_filename (g_get_tmp_dir (), "cvtest-rig.txt", NULL);
  gchar *properties;
  GstElement *pipeline;

  fail_unless (g_file_set_contents (path, "# an L of three cameras\n"
          "0 0\n\n2 0   # two baselines right\n0,-1\n", -1, NULL));
  properties = g_strdup_printf ("rig-location=%s min-disparity=0 "
      "max-disparity=3", path);
  pipeline = rig_pipeline (properties, 3);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  rig_expect (pipeline, 3, cx, cy, 1.3, 3);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_unlink (path);
  g_free (properties);
  g_free (path);
}

GST_END_TEST;

/* A camera's pad released while playing: the rig goes on with the
 * others, and says how many it matched. */
GST_START_TEST (test_rig_view_released)
{
  static const gdouble cx[] = { 0.0, 1.0, 0.0 }, cy[] = { 0.0, 0.0, 1.0 };
  GstElement *pipeline = rig_pipeline ("rig=\"0,0; 1,0; 0,1\" "
      "min-disparity=0 max-disparity=5", 3);
  GstElement *rig = gst_bin_get_by_name (GST_BIN (pipeline), "r");
  GstPad *pad = gst_element_get_static_pad (rig, "sink_2");
  GstPad *upstream = gst_pad_get_peer (pad);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  rig_expect (pipeline, 3, cx, cy, 2.4, 3);
  fail_unless (gst_pad_unlink (upstream, pad));
  gst_element_release_request_pad (rig, pad);
  rig_expect (pipeline, 2, cx, cy, 2.4, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (upstream);
  gst_object_unref (rig);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Fails unless string property @name of @element reads @expected. */
static void
assert_string_property (GstElement * element, const gchar * name,
    const gchar * expected)
{
  gchar *value;

  g_object_get (element, name, &value, NULL);
  fail_unless_equals_string (value, expected);
  g_free (value);
}

/* The rig property reads back as it parsed; a rig that does not parse
 * leaves the cameras as they were. */
GST_START_TEST (test_rig_property)
{
  static const gchar *const refused[] = { "0,0", "0,0; 1", "0,0; a,b",
    "0,0; 0,0", "0,0; 1e9,0", "0,0; nan,0",
    "0,0;1,0;2,0;3,0;4,0;5,0;6,0;7,0;8,0", ""
  };
  static const gchar *const refused_pairs[] = { "0-0", "0-8", "0-1; 1-0",
    "0_1", "a-b", "0-1-2"
  };
  GstElement *pc = gst_element_factory_make ("cudaphasecorr", NULL);

  assert_string_property (pc, "rig", "0,0; 1,0; 0,1; 1,1");
  g_object_set (pc, "rig", " 0 , 0 ;2.5 -1 # a comment\n", NULL);
  assert_string_property (pc, "rig", "0,0; 2.5,-1");
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    g_object_set (pc, "rig", refused[i], NULL);
    assert_string_property (pc, "rig", "0,0; 2.5,-1");
  }
  /* the chosen pairs, in either order, and refusals */
  g_object_set (pc, "rig-pairs", " 1-0, 2 - 3;", NULL);
  assert_string_property (pc, "rig-pairs", "0-1; 2-3");
  for (guint i = 0; i < G_N_ELEMENTS (refused_pairs); i++) {
    g_object_set (pc, "rig-pairs", refused_pairs[i], NULL);
    assert_string_property (pc, "rig-pairs", "0-1; 2-3");
  }
  g_object_set (pc, "rig-pairs", "", NULL);
  assert_string_property (pc, "rig-pairs", "");
  /* the refinements' end, in pixels along the longest baseline */
  {
    GParamSpecDouble *converge = G_PARAM_SPEC_DOUBLE
        (g_object_class_find_property (G_OBJECT_GET_CLASS (pc), "converge"));

    fail_unless (converge != NULL);
    fail_unless_equals_float (converge->default_value, 0.01);
    fail_unless_equals_float (converge->minimum, 0.0);
    fail_unless_equals_float (converge->maximum, 1.0);
  }
  gst_object_unref (pc);
}

GST_END_TEST;

/* A view with no camera in the rig, a missing rig file and rig pads in
 * another mode are refused. */
GST_START_TEST (test_rig_refusals)
{
  static const gchar *const setups[][2] = {
    {"rig=\"0,0; 1,0\"", "camera"},
    {"rig-location=/nonexistent/rig.txt", "rig"},
    {"rig=\"0,0; 1,0; 0,1\" rig-pairs=\"0-1; 1-3\"", "rig-pairs"},
  };
  GstElement *pc = gst_element_factory_make ("cudaphasecorr", NULL);

  fail_unless (gst_element_request_pad_simple (pc, "sink_1") == NULL);
  g_object_set (pc, "mode", 1, NULL);
  fail_unless (gst_element_request_pad_simple (pc, "sink_1") == NULL);
  gst_object_unref (pc);
  for (guint i = 0; i < G_N_ELEMENTS (setups); i++) {
    GstElement *pipeline = rig_pipeline (setups[i][0], 3);
    GstMessage *msg = cvtest_run_to_end (pipeline, 10 * GST_SECOND);
    GError *error = NULL;

    fail_unless (msg != NULL, "%s: no error", setups[i][0]);
    gst_message_parse_error (msg, &error, NULL);
    fail_unless (strstr (error->message, setups[i][1]) != NULL, "%s: %s",
        setups[i][0], error->message);
    g_error_free (error);
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
}

GST_END_TEST;

static Suite *
cudaphasecorr_suite (void)
{
  Suite *s = suite_create ("cudaphasecorr");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_flow_meta);
  tcase_add_test (tc, test_flow_converge);
#if GST_CHECK_VERSION (1, 20, 0)
  tcase_add_test (tc, test_custom_meta);
#else
  cvtest_left_out ("test_custom_meta",
      "GstCustomMeta came with GStreamer 1.20");
#endif
  tcase_add_test (tc, test_messages_and_flush);
  tcase_add_test (tc, test_draw);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_caps_change_every_frame);
  if (!g_getenv ("CVTEST_QUICK"))
    tcase_add_test (tc, test_live_holds_no_frame);
  tcase_add_test (tc, test_stereo_latency_answer);
  tcase_add_test (tc, test_stop_while_waiting_for_pair);
  tcase_add_test (tc, test_stereo_renegotiation);
  tcase_add_test (tc, test_stereo_flushing_seek);
  tcase_add_test (tc, test_stereo_seek_refused_by_one_view);
  tcase_add_test (tc, test_disparity);
  /* accuracy at large motions and frames of 256 x 176, minutes under
   * valgrind (CVTEST_QUICK), whose memory checks the smaller tests'
   * pyramids already cover */
  if (!g_getenv ("CVTEST_QUICK")) {
    tcase_add_test (tc, test_flow_large_motion);
    tcase_add_test (tc, test_disparity_large);
    tcase_add_test (tc, test_vertical_disparity);
  }
  tcase_add_test (tc, test_views_differ);
  tcase_add_test (tc, test_right_pad);
  tcase_add_test (tc, test_right_pad_unlinked);
  tcase_add_test (tc, test_unpaired_warned);
  tcase_add_test (tc, test_right_view_swapped);
  tcase_add_test (tc, test_rig_quad);
  tcase_add_test (tc, test_rig_pairs_chosen);
  tcase_add_test (tc, test_rig_draw);
  tcase_add_test (tc, test_rig_location);
  tcase_add_test (tc, test_rig_view_released);
  tcase_add_test (tc, test_rig_property);
  tcase_add_test (tc, test_rig_refusals);
#ifdef HAVE_GST_ANALYTICS
  tcase_add_test (tc, test_rig_tensor_meta);
#endif
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, cudaphasecorr_suite);
}
