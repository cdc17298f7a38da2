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

/* The CLT core's matching, the coarse-to-fine pyramid: reduction, prediction, large motions, CUDA against the CPU. */
#include <math.h>
#include <string.h>

#include "clt-matching.h"
#include "clt-private.h"
#include "pictures.h"


static cvcore_device *device;
static cvcore_stream *stream;

static void
setup (void)
{
  cvtest_open_backend (&device, &stream);
}

static void
teardown (void)
{
  cvtest_close_backend (device, stream);
}

/* Whether @dst (downloaded) holds channel @c of @src halved: each sample
 * the rounded binomial mean of the 4 x 4 samples around it, edges
 * clamped. */
static void
check_reduced (const TestImage * src, gint c, const TestImage * dst)
{
  static const guint weight[4] = { 1, 3, 3, 1 };
  const gint w = src->image.width, h = src->image.height;

  for (gint y = 0; y < dst->image.height; y++)
    for (gint x = 0; x < dst->image.width; x++) {
      guint64 sum = 0;

      for (gint j = 0; j < 4; j++)
        for (gint i = 0; i < 4; i++)
          sum += weight[i] * weight[j] * (guint64) cvtest_host_sample (src,
              CLAMP (2 * x - 1 + i, 0, w - 1), CLAMP (2 * y - 1 + j, 0, h - 1),
              c);
      fail_unless (cvtest_host_sample (dst, x, y, 0) == (sum + 32) / 64,
          "%dx%d, (%d, %d): %d, not %d", w, h, x, y,
          cvtest_host_sample (dst, x, y, 0), (gint) ((sum + 32) / 64));
    }
}

/* Halving (check_reduced); a frame too small to halve keeps no levels. */
GST_START_TEST (test_reduce)
{
  TestImage src = cvtest_image_new (device, stream, 5, 3, 2,
      CVCORE_SAMPLE_U16, -1, 0, 7);
  TestImage dst = cvtest_image_new (device, stream, 3, 2, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_clt_pyramid *pyramid;

  fail_unless_equals_int (cvcore_clt_reduce (stream, &src.image, 1,
          &dst.image), CVCORE_OK);
  cvtest_image_download (&dst, stream);
  cvtest_image_download (&src, stream);
  check_reduced (&src, 1, &dst);
  fail_unless_equals_int (cvcore_clt_reduce (stream, &src.image, 2,
          &dst.image), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_clt_pyramid_new (device, 100, 62, 4,
          &pyramid), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_pyramid_levels (pyramid), 0);
  cvcore_clt_pyramid_free (pyramid);
  fail_unless_equals_int (cvcore_clt_pyramid_new (device, 1280, 720, 4,
          &pyramid), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_pyramid_levels (pyramid), 4);
  cvcore_clt_pyramid_free (pyramid);
  cvtest_image_free (&src, device);
  cvtest_image_free (&dst, device);
}

GST_END_TEST;

/* A level's expected motion: twice the coarse motion, where confident
 * coarse tiles outweigh one that matched nothing. */
GST_START_TEST (test_predict)
{
  const gint w = 61, h = 40, cx = cvcore_clt_tiles (31), cy =
      cvcore_clt_tiles (20);
  const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  cvcore_clt_match *coarse = g_new (cvcore_clt_match, cx * cy);
  cvcore_clt_match *fine = g_new (cvcore_clt_match, tiles);
  cvcore_clt_match *dev_coarse, *dev_fine;

  for (gint t = 0; t < cx * cy; t++) {
    coarse[t].dx = 2.5f;
    coarse[t].dy = -1.0f;
    coarse[t].confidence = 0.6f;
  }
  coarse[cx + 1].dx = 40.0f;
  coarse[cx + 1].confidence = 0.0f;
  fail_unless_equals_int (cvcore_device_alloc (device, sizeof (*coarse) *
          cx * cy, (void **) &dev_coarse), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (device, sizeof (*fine) *
          tiles, (void **) &dev_fine), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, dev_coarse, coarse,
          sizeof (*coarse) * cx * cy, CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_predict (stream, dev_coarse, w, h,
          dev_fine), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, fine, dev_fine,
          sizeof (*fine) * tiles, CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  for (gint t = 0; t < tiles; t++) {
    fail_unless (fabsf (fine[t].dx - 5.0f) < 1e-5f, "tile %d: %g", t,
        fine[t].dx);
    fail_unless (fabsf (fine[t].dy + 2.0f) < 1e-5f);
    fail_unless (fine[t].confidence == 0.0f);
  }
  cvcore_device_free (device, dev_coarse);
  cvcore_device_free (device, dev_fine);
  g_free (coarse);
  g_free (fine);
}

GST_END_TEST;

/* Motions far beyond a tile's reach, found coarse to fine on a
 * natural-like texture: 90 % of the inner tiles within 0.05 pixels, all
 * within 1, where the frame alone finds them nowhere near. Each tile's
 * own match: the fit (test_fit_*) would carry the errors of the tiles
 * where content enters a few tiles inwards. */
GST_START_TEST (test_pyramid_large_motion)
{
  static const gdouble moves[][2] = { {12.4, -9.3}, {-15.7, 6.1},
  {0.3, -0.2}, {22.6, 2.6}, {-6.5, -20.25}
  };
  cvcore_clt_corr_params params;

  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  params.fit_radius = 0;
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++) {
    const gdouble *move = moves[i];
    const gint margin = 10 + (gint) ceil (fabs (move[0]));
    TestImage a =
        clt_moved_image (device, stream, clt_natural_field, 256, 208, 0, 0, 0,
        0, 0);
    TestImage b =
        clt_moved_image (device, stream, clt_natural_field, 256, 208, 0, 0, 0,
        move[0],
        move[1]);
    cvcore_clt_match *m = clt_pyramid_correlate_on (device, stream, &a, &b,
        &params, 3);
    cvcore_clt_match *flat = clt_correlate_on (device, stream, &a, &b, &params);
    gdouble confidence, flat_confidence, worst, flat_worst, share;

    worst =
        clt_worst_error (m, 256, 208, margin, 256 - margin, move[0], move[1],
        &confidence);
    share =
        clt_share_within (m, 256, 208, margin, 256 - margin, move[0], move[1],
        0.05);
    flat_worst =
        clt_worst_error (flat, 256, 208, margin, 256 - margin, move[0], move[1],
        &flat_confidence);
    GST_INFO ("move (%g, %g): %.1f %% within 0.05 px, worst error %.4f px "
        "(the frame alone %.4f), lowest confidence %.3f", move[0], move[1],
        100.0 * share, worst, flat_worst, confidence);
    fail_unless (share >= 0.9
        && worst < 1.0, "move (%g, %g): %g within, " "worst %g px", move[0],
        move[1], share, worst);
    if (hypot (move[0], move[1]) > 10.0)
      fail_unless (flat_worst > 1.0);
    g_free (m);
    g_free (flat);
    cvtest_image_free (&a, device);
    cvtest_image_free (&b, device);
  }
}

GST_END_TEST;

/* The matches of a tracker's frames (host memory) with the pyramid built
 * then correlated, or both in one call, which on CUDA overlaps them. */
static cvcore_clt_match *
track_frame (cvcore_clt_pyramid * pyramid, gboolean in_one_call, gint from,
    gint to, const TestImage * frame, const cvcore_clt_corr_params * params,
    cvcore_clt_match * dev_matches, gsize tiles)
{
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles);

  if (in_one_call) {
    fail_unless_equals_int (cvcore_clt_pyramid_build_and_correlate (stream,
            pyramid, from, to, &frame->image, 0, params, dev_matches),
        CVCORE_OK);
  } else {
    fail_unless_equals_int (cvcore_clt_pyramid_build (stream, pyramid, to,
            &frame->image, 0), CVCORE_OK);
    fail_unless_equals_int (cvcore_clt_pyramid_correlate (stream, pyramid,
            from, to, &frame->image, 0, params, dev_matches), CVCORE_OK);
  }
  fail_unless_equals_int (cvcore_copy_async (stream, matches, dev_matches,
          tiles * sizeof (cvcore_clt_match), CVCORE_COPY_DEVICE_TO_HOST),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  return matches;
}

/* Building and correlating in one call finds exactly what the two calls
 * find, frame after frame as the slots take turns: on CUDA the next
 * frame's transforms run beside the matching, and a missing wait would
 * match against a half-built frame. */
GST_START_TEST (test_build_and_correlate)
{
  const gint w = 203, h = 147, levels = 3, frames = 4;
  const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  cvcore_clt_pyramid *pyramid[2];
  cvcore_clt_match *dev_matches[2];
  cvcore_clt_corr_params params;
  TestImage opening =
      clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0, 0, 0, 0);

  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  for (gint i = 0; i < 2; i++) {
    fail_unless_equals_int (cvcore_clt_pyramid_new (device, w, h, levels,
            &pyramid[i]), CVCORE_OK);
    fail_unless_equals_int (cvcore_device_alloc (device, tiles *
            sizeof (cvcore_clt_match), (void **) &dev_matches[i]), CVCORE_OK);
    fail_unless_equals_int (cvcore_clt_pyramid_build (stream, pyramid[i], 0,
            &opening.image, 0), CVCORE_OK);
  }
  for (gint n = 1; n < frames; n++) {
    const gint to = n % 2, from = 1 - to;
    TestImage frame =
        clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0, 0,
        2.3 * n, -1.6 * n);
    cvcore_clt_match *apart = track_frame (pyramid[0], FALSE, from, to, &frame,
        &params, dev_matches[0], tiles);
    cvcore_clt_match *together = track_frame (pyramid[1], TRUE, from, to,
        &frame, &params, dev_matches[1], tiles);
    gint kept = 0;

    for (gsize t = 0; t < tiles; t++) {
      fail_unless (memcmp (&apart[t], &together[t], sizeof (*apart)) == 0,
          "frame %d tile %" G_GSIZE_FORMAT ": (%g, %g) %g apart, (%g, %g) %g "
          "in one call", n, t, apart[t].dx, apart[t].dy, apart[t].confidence,
          together[t].dx, together[t].dy, together[t].confidence);
      kept += apart[t].confidence >= 0.05f;
    }
    /* the frames match: a test of nothing found would prove little */
    fail_unless (kept > (gint) tiles / 2, "frame %d: %d of %" G_GSIZE_FORMAT
        " tiles kept", n, kept, tiles);
    g_free (apart);
    g_free (together);
    cvtest_image_free (&frame, device);
  }
  for (gint i = 0; i < 2; i++) {
    cvcore_device_free (device, dev_matches[i]);
    cvcore_clt_pyramid_free (pyramid[i]);
  }
  cvtest_image_free (&opening, device);
}

GST_END_TEST;

/* Several frames of one size reduced at once, as a rig's pyramid reduces
 * its views, each whatever its pitch; no frames, more than a rig's views,
 * or frames of two sizes refused. */
GST_START_TEST (test_reduce_frames)
{
  const gint w = 133, h = 75, count = 3;
  TestImage src[3], dst[3];
  cvcore_image in[3], out[3];

  for (gint f = 0; f < count; f++) {
    src[f] = cvtest_image_new (device, stream, w, h, 3, CVCORE_SAMPLE_U8, -1,
        5 * f, 11 + f);
    dst[f] = cvtest_image_new (device, stream, (w + 1) / 2, (h + 1) / 2, 1,
        CVCORE_SAMPLE_U8, 0, 3 * f, 0);
    in[f] = src[f].image;
    out[f] = dst[f].image;
  }
  fail_unless_equals_int (cv_clt_reduce_frames (stream, count, in, 1, out,
          FALSE), CVCORE_OK);
  for (gint f = 0; f < count; f++) {
    cvtest_image_download (&dst[f], stream);
    check_reduced (&src[f], 1, &dst[f]);
  }
  fail_unless_equals_int (cv_clt_reduce_frames (stream, 0, in, 1, out,
          FALSE), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cv_clt_reduce_frames (stream,
          CVCORE_CLT_MAX_VIEWS + 1, in, 1, out, FALSE),
      CVCORE_ERROR_INVALID_VALUE);
  in[2].width -= 2;
  out[2].width--;
  fail_unless_equals_int (cv_clt_reduce_frames (stream, count, in, 1, out,
          FALSE), CVCORE_ERROR_INVALID_VALUE);
  for (gint f = 0; f < count; f++) {
    cvtest_image_free (&src[f], device);
    cvtest_image_free (&dst[f], device);
  }
}

GST_END_TEST;

/* CUDA against the CPU reference from coarse to fine: the reductions
 * equal, the motion within 0.01 pixels in the inner tiles where the CPU
 * finds confidence, at odd sizes and large motions. */
GST_START_TEST (test_cuda_pyramid_equals_cpu)
{
  static const gint sizes[][2] = { {97, 65}, {321, 241}, {643, 361} };

  for (guint n = 0; n < G_N_ELEMENTS (sizes); n++) {
    const gint w = sizes[n][0], h = sizes[n][1];
    const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
    TestImage a =
        clt_moved_image (device, stream, clt_natural_field, w, h, w / 2, 0.0,
        0.0, 0.3,
        0.1);
    TestImage b =
        clt_moved_image (device, stream, clt_natural_field, w, h, w / 2, 9.7,
        -5.3, -12.2,
        3.9);
    TestImage ca = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &a);
    TestImage cb = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &b);
    TestImage half = cvtest_image_new (device, stream, (w + 1) / 2,
        (h + 1) / 2, 1, CVCORE_SAMPLE_U16, 0, 0, 0);
    TestImage cpu_half = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream,
        &half);
    cvcore_clt_corr_params params;
    cvcore_clt_match *m, *cm;
    gdouble worst = 0.0;

    fail_unless_equals_int (cvcore_clt_reduce (stream, &b.image, 0,
            &half.image), CVCORE_OK);
    fail_unless_equals_int (cvcore_clt_reduce (cvtest_cpu_stream, &cb.image,
            0, &cpu_half.image), CVCORE_OK);
    cvtest_image_download (&half, stream);
    cvtest_image_download (&cpu_half, cvtest_cpu_stream);
    for (gint y = 0; y < (h + 1) / 2; y++)
      for (gint x = 0; x < (w + 1) / 2; x++)
        fail_unless (cvtest_host_sample (&half, x, y, 0) ==
            cvtest_host_sample (&cpu_half, x, y, 0), "%dx%d: (%d, %d)", w, h,
            x, y);

    cvcore_clt_corr_params_init (&params);
    params.full_scale = 65535.0;
    /* the fit would carry the differences of tiles not compared here
     * (weak, at the edges) to those that are: it has its own test */
    params.fit_radius = 0;
    m = clt_pyramid_correlate_on (device, stream, &a, &b, &params, 3);
    cm = clt_pyramid_correlate_on (cvtest_cpu, cvtest_cpu_stream, &ca, &cb,
        &params, 3);
    for (gint t = 0; t < tiles; t++) {
      const gdouble e = MAX (fabs (m[t].dx - cm[t].dx),
          fabs (m[t].dy - cm[t].dy));

      if (e > 0.01)
        GST_INFO ("%dx%d tile %d: CUDA (%g, %g) %g, CPU (%g, %g) %g", w, h,
            t, m[t].dx, m[t].dy, m[t].confidence, cm[t].dx, cm[t].dy,
            cm[t].confidence);
      if (cm[t].confidence > 0.1 && clt_inner_tile (t, w, h, 12.8))
        worst = MAX (worst, e);
    }
    GST_INFO ("%dx%d: worst motion difference %.5f px", w, h, worst);
    fail_unless (worst < 0.01, "%dx%d: %g px", w, h, worst);
    g_free (m);
    g_free (cm);
    cvtest_image_free (&a, device);
    cvtest_image_free (&b, device);
    cvtest_image_free (&half, device);
    cvtest_image_free (&ca, cvtest_cpu);
    cvtest_image_free (&cb, cvtest_cpu);
    cvtest_image_free (&cpu_half, cvtest_cpu);
  }
}

GST_END_TEST;

static Suite *
clt_pyramid_suite (void)
{
  Suite *s = suite_create ("clt-pyramid");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_reduce);
  tcase_add_test (tc, test_reduce_frames);
  tcase_add_test (tc, test_predict);
  tcase_add_test (tc, test_build_and_correlate);
  /* minutes under valgrind (CVTEST_QUICK); the elements' tests run
   * pyramids there */
  if (!g_getenv ("CVTEST_QUICK")) {
    tcase_add_test (tc, test_pyramid_large_motion);
  }
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_pyramid_equals_cpu);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, clt_pyramid_suite);
}
