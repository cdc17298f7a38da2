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

/* The CLT core's matching, the correlation of one level: translations, regions, flat frames, settled tiles, the frame edge, CUDA against the CPU. */
#include <math.h>
#include <string.h>

#include "clt-matching.h"
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

/* One translation of the whole frame, several sub-pixel amounts: every
 * inner tile finds it, to 0.01 pixels on texture; on the smooth picture,
 * whose waves are long for a 16-pixel tile, to 0.2 pixels. The texture
 * has only high frequencies, which the lowpass would take away. */
GST_START_TEST (test_correlate_translation)
{
  static const gdouble moves[][2] = { {1.3, -0.7}, {0.25, 0.5}, {-3.6, 2.2},
  {0.0, 0.0}, {4.6, -3.3}
  };
  cvcore_clt_corr_params params;

  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  params.lowpass = 0.0;
  for (guint i = 0; i < 2 * G_N_ELEMENTS (moves); i++) {
    const gdouble *move = moves[i / 2];
    gdouble (*field) (gdouble, gdouble) =
        i % 2 ? cvtest_band_limited : clt_texture_field;
    TestImage a, b;
    cvcore_clt_match *m;
    gdouble confidence, worst;

    /* the smooth picture's long waves leave large moves ambiguous */
    if (i % 2 && fabs (move[0]) > 4.0)
      continue;
    a = clt_moved_image (device, stream, field, 120, 88, 0, 0, 0, 0, 0);
    b = clt_moved_image (device, stream, field, 120, 88, 0, 0, 0, move[0],
        move[1]);

    m = clt_correlate_on (device, stream, &a, &b, &params);
    worst = clt_worst_error (m, 120, 88, 2 + (gint) ceil (fabs (move[0])),
        118 - (gint) ceil (fabs (move[0])), move[0], move[1], &confidence);

    GST_INFO ("%s, move (%g, %g): worst error %.4f px, lowest confidence "
        "%.3f", i % 2 ? "smooth" : "texture", move[0], move[1], worst,
        confidence);
    fail_unless (worst < (i % 2 ? 0.2 : 0.01), "case %u: %g px", i, worst);
    fail_unless (confidence > 0.1);
    g_free (m);
    cvtest_image_free (&a, device);
    cvtest_image_free (&b, device);
  }
}

GST_END_TEST;

/* Two regions moving apart: the tiles inside each find their own motion. */
GST_START_TEST (test_correlate_regions)
{
  cvcore_clt_corr_params params;
  TestImage a =
      clt_moved_image (device, stream, clt_texture_field, 160, 64, 0, 0, 0, 0,
      0);
  TestImage b =
      clt_moved_image (device, stream, clt_texture_field, 160, 64, 80, 1.5, 0.0,
      -0.5,
      2.0);
  cvcore_clt_match *m;
  gdouble c1, c2, left, right;

  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  m = clt_correlate_on (device, stream, &a, &b, &params);
  left = clt_worst_error (m, 160, 64, 4, 76, 1.5, 0.0, &c1);
  right = clt_worst_error (m, 160, 64, 84, 157, -0.5, 2.0, &c2);
  GST_INFO ("regions: worst errors %.4f, %.4f px", left, right);
  fail_unless (left < 0.01 && right < 0.01, "%g, %g px", left, right);
  g_free (m);
  cvtest_image_free (&a, device);
  cvtest_image_free (&b, device);
}

GST_END_TEST;

/* Without texture nothing correlates. */
GST_START_TEST (test_correlate_flat)
{
  TestImage a = cvtest_image_new (device, stream, 40, 40, 1,
      CVCORE_SAMPLE_U8, 90, 0, 0);
  cvcore_clt_corr_params params;
  cvcore_clt_match *m;

  cvcore_clt_corr_params_init (&params);
  m = clt_correlate_on (device, stream, &a, &a, &params);
  for (gint t = 0; t < 36; t++)
    fail_unless (m[t].confidence < 0.05, "tile %d: %g", t, m[t].confidence);
  g_free (m);
  cvtest_image_free (&a, device);
}

GST_END_TEST;

/* Tiles whose match puts their centre more than half a tile beyond the
 * frame (content that left it, matched to the transform's mirror of the
 * edge) get confidence 0; with keep_left_frame some of them had a peak,
 * and the tiles inside keep theirs. */
GST_START_TEST (test_correlate_left_frame)
{
  static const gdouble moves[][2] = { {-19.5, 4.25}, {14.0, -17.5} };
  const gint w = 256, h = 208, tiles_x = cvcore_clt_tiles (w);
  const gint tiles = tiles_x * cvcore_clt_tiles (h);
  cvcore_clt_corr_params params, keep;

  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  /* each tile's own match, which the rule is about */
  params.fit_radius = 0;
  keep = params;
  keep.keep_left_frame = true;
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++) {
    TestImage a =
        clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0, 0, 0,
        0);
    TestImage b =
        clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0, 0,
        moves[i][0],
        moves[i][1]);
    cvcore_clt_match *m = clt_pyramid_correlate_on (device, stream, &a, &b,
        &params, 3);
    cvcore_clt_match *k = clt_pyramid_correlate_on (device, stream, &a, &b,
        &keep, 3);
    guint outside = 0, had_peak = 0;

    for (gint t = 0; t < tiles; t++) {
      const gdouble x = 8.0 * (t % tiles_x) + m[t].dx;
      const gdouble y = 8.0 * (t / tiles_x) + m[t].dy;

      if (x < -8.0 || y < -8.0 || x > w - 1 + 8.0 || y > h - 1 + 8.0) {
        outside++;
        fail_unless (m[t].confidence == 0.0f, "tile %d beyond the edge "
            "kept %g", t, m[t].confidence);
        had_peak += k[t].confidence > 0.02f;
      } else {
        fail_unless (m[t].confidence == k[t].confidence, "tile %d: %g, %g",
            t, m[t].confidence, k[t].confidence);
      }
    }
    GST_INFO ("move (%g, %g): %u tiles beyond the edge, %u of them with a "
        "peak over 0.02 kept", moves[i][0], moves[i][1], outside, had_peak);
    fail_unless (outside > 0 && had_peak > 0);
    g_free (m);
    g_free (k);
    cvtest_image_free (&a, device);
    cvtest_image_free (&b, device);
  }
}

GST_END_TEST;

/* A tile whose first pass moves it by less than converge pixels each way
 * takes no refinement: with converge 1 the inner tiles end as they end
 * without refinements, bit for bit; with converge 0 they all take
 * theirs. Converge outside 0 to 1 is refused. */
GST_START_TEST (test_correlate_converge)
{
  const gint w = 96, h = 80;
  const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  const gdouble refused[] = { -0.01, 1.01, NAN };
  TestImage a = clt_moved_image (device, stream, clt_texture_field, w, h, 0,
      0, 0, 0, 0);
  TestImage b = clt_moved_image (device, stream, clt_texture_field, w, h, 0,
      0, 0, 0.3, -0.45);
  cvcore_clt_corr_params params;
  cvcore_clt_match *once, *converged, *refined, *matches;
  gfloat *coefficients;
  gint inner = 0, stopped = 0, moved = 0;

  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  params.lowpass = 0.0;
  params.refinements = 0;
  once = clt_correlate_on (device, stream, &a, &b, &params);
  params.refinements = 2;
  params.converge = 1.0;
  converged = clt_correlate_on (device, stream, &a, &b, &params);
  params.converge = 0.0;
  refined = clt_correlate_on (device, stream, &a, &b, &params);
  for (gint t = 0; t < tiles; t++) {
    if (!clt_inner_tile (t, w, h, 3))
      continue;
    inner++;
    fail_unless (fabs (once[t].dx) < 1.0 && fabs (once[t].dy) < 1.0,
        "tile %d moved (%g, %g)", t, once[t].dx, once[t].dy);
    stopped += converged[t].dx == once[t].dx && converged[t].dy == once[t].dy
        && converged[t].confidence == once[t].confidence;
    moved += refined[t].dx != once[t].dx || refined[t].dy != once[t].dy;
  }
  fail_unless (inner > 0);
  fail_unless_equals_int (stopped, inner);
  fail_unless_equals_int (moved, inner);
  fail_unless_equals_int (cvcore_device_alloc (device, (gsize) tiles *
          CVCORE_CLT_COEFFICIENTS * sizeof (gfloat), (void **) &coefficients),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (device, (gsize) tiles *
          sizeof (cvcore_clt_match), (void **) &matches), CVCORE_OK);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    params.converge = refused[i];
    fail_unless_equals_int (cvcore_clt_correlate (stream, coefficients,
            &b.image, 0, &params, matches), CVCORE_ERROR_INVALID_VALUE);
  }
  cvcore_device_free (device, coefficients);
  cvcore_device_free (device, matches);
  g_free (once);
  g_free (converged);
  g_free (refined);
  cvtest_image_free (&a, device);
  cvtest_image_free (&b, device);
}

GST_END_TEST;

/* CUDA against the CPU reference for the phase correlation: confidence
 * within 0.01 everywhere, motion within 0.01 pixels in the inner tiles
 * where the CPU finds confidence, at odd sizes and at search radii that
 * split the search's rows among the lanes in each way (radius 1 is every
 * refinement pass's). */
GST_START_TEST (test_cuda_correlate_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {17, 9}, {321, 241} };
  static const gint radii[] = { CVCORE_CLT_MAX_SEARCH, 5, 3, 2 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes) * G_N_ELEMENTS (radii); k++) {
    const guint n = k % G_N_ELEMENTS (sizes);
    const gint w = sizes[n][0], h = sizes[n][1];
    const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
    TestImage a =
        clt_moved_image (device, stream, clt_texture_field, w, h, w / 2, 0.0,
        0.0,
        0.3, 0.1);
    TestImage b =
        clt_moved_image (device, stream, clt_texture_field, w, h, w / 2, 1.7,
        -0.4,
        -2.2, 0.9);
    TestImage ca = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &a);
    TestImage cb = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &b);
    cvcore_clt_corr_params params;
    cvcore_clt_match *m, *cm;
    gdouble worst = 0.0, worst_c = 0.0;

    cvcore_clt_corr_params_init (&params);
    params.full_scale = 65535.0;
    params.initial_x = 0.5 * n;
    params.search_radius = radii[k / G_N_ELEMENTS (sizes)];
    m = clt_correlate_on (device, stream, &a, &b, &params);
    cm = clt_correlate_on (cvtest_cpu, cvtest_cpu_stream, &ca, &cb, &params);
    for (gint t = 0; t < tiles; t++) {
      const gdouble e = MAX (fabs (m[t].dx - cm[t].dx),
          fabs (m[t].dy - cm[t].dy));

      if (e > 0.01)
        GST_INFO ("%dx%d tile %d: CUDA (%g, %g) %g, CPU (%g, %g) %g", w, h,
            t, m[t].dx, m[t].dy, m[t].confidence, cm[t].dx, cm[t].dy,
            cm[t].confidence);
      if (cm[t].confidence > 0.1 && clt_inner_tile (t, w, h, 2.5))
        worst = MAX (worst, e);
      worst_c = MAX (worst_c, fabs (m[t].confidence - cm[t].confidence));
    }
    GST_INFO ("%dx%d, radius %d: worst motion difference %.5f px, "
        "confidence %.5f", w, h, params.search_radius, worst, worst_c);
    fail_unless (worst < 0.01 && worst_c < 0.01, "%dx%d, radius %d: %g px, %g",
        w, h, params.search_radius, worst, worst_c);
    g_free (m);
    g_free (cm);
    cvtest_image_free (&a, device);
    cvtest_image_free (&b, device);
    cvtest_image_free (&ca, cvtest_cpu);
    cvtest_image_free (&cb, cvtest_cpu);
  }
}

GST_END_TEST;

static Suite *
clt_correlate_suite (void)
{
  Suite *s = suite_create ("clt-correlate");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_correlate_translation);
  tcase_add_test (tc, test_correlate_regions);
  tcase_add_test (tc, test_correlate_flat);
  tcase_add_test (tc, test_correlate_converge);
  /* minutes under valgrind (CVTEST_QUICK); the elements' tests run
   * pyramids there */
  if (!g_getenv ("CVTEST_QUICK")) {
    tcase_add_test (tc, test_correlate_left_frame);
  }
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_correlate_equals_cpu);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, clt_correlate_suite);
}
