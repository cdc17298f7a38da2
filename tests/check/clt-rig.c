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

/* The CLT core's rig correlation: a plane seen by a quad, a texture that
 * repeats along one baseline, large disparities through the pyramid, the
 * tiles near the frame's edges, refusals, CUDA against the CPU. */
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

/* The seed's square quad: view 0 top left, then right, below, diagonal. */
static const cvcore_clt_rig quad = {
  4, {0.0, 1.0, 0.0, 1.0}, {0.0, 0.0, 1.0, 1.0}
};

/* The views of @rig of a plane at disparity @d: view v is @field moved
 * by -d (c_v - c_0). */
static void
render_rig (cvcore_device * dev, cvcore_stream * st, const cvcore_clt_rig * rig,
    gdouble (*field) (gdouble, gdouble), gint w, gint h, gdouble d,
    TestImage * views)
{
  for (gint v = 0; v < rig->views; v++) {
    const gdouble mx = -d * (rig->x[v] - rig->x[0]);
    const gdouble my = -d * (rig->y[v] - rig->y[0]);

    views[v] = clt_moved_image (dev, st, field, w, h, w, mx, my, mx, my);
  }
}

static void
free_views (cvcore_device * dev, TestImage * views, gint n)
{
  for (gint v = 0; v < n; v++)
    cvtest_image_free (&views[v], dev);
}

/* The disparities of view 0's tiles (host memory), through a pyramid of
 * @levels reductions. */
static cvcore_clt_match *
rig_correlate_on (cvcore_device * dev, cvcore_stream * st,
    const cvcore_clt_rig * rig, const TestImage * views,
    const cvcore_clt_corr_params * params, gint levels)
{
  const gint w = views[0].image.width, h = views[0].image.height;
  const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles), *dev_matches;
  cvcore_image images[CVCORE_CLT_MAX_VIEWS];
  cvcore_clt_rig_pyramid *pyramid;

  for (gint v = 0; v < rig->views; v++)
    images[v] = views[v].image;
  fail_unless_equals_int (cvcore_clt_rig_pyramid_new (dev, w, h, levels,
          rig->views, &pyramid), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (dev, tiles *
          sizeof (cvcore_clt_match), (void **) &dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_rig_pyramid_correlate (st, pyramid,
          images, 0, rig, params, dev_matches, NULL), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, matches, dev_matches,
          tiles * sizeof (cvcore_clt_match), CVCORE_COPY_DEVICE_TO_HOST),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (st), CVCORE_OK);
  cvcore_device_free (dev, dev_matches);
  cvcore_clt_rig_pyramid_free (pyramid);
  return matches;
}

static void
rig_params (cvcore_clt_corr_params * params)
{
  cvcore_clt_corr_params_init (params);
  params->full_scale = 65535.0;
}

/* The quad's disparities (host memory) of a plane at @d whose texture is
 * @field, through @levels reductions, with the default parameters. */
static cvcore_clt_match *
quad_plane_matches (gdouble (*field) (gdouble, gdouble), gint w, gint h,
    gdouble d, gint levels)
{
  TestImage views[4];
  cvcore_clt_corr_params params;
  cvcore_clt_match *m;

  render_rig (device, stream, &quad, field, w, h, d, views);
  rig_params (&params);
  m = rig_correlate_on (device, stream, &quad, views, &params, levels);
  free_views (device, views, 4);
  return m;
}

/* The share of the tiles whose content stays @margin pixels inside the
 * frame in every view whose disparity is within @tolerance of @d; the
 * smallest confidence among them in *@min_confidence. */
static gdouble
share_within (const cvcore_clt_match * m, gint w, gint h, gdouble margin,
    gdouble d, gdouble tolerance, gdouble * min_confidence)
{
  const gint tiles_x = cvcore_clt_tiles (w);
  guint n = 0, within = 0;

  *min_confidence = 1.0;
  for (gint ty = 0; ty < cvcore_clt_tiles (h); ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      const cvcore_clt_match *t = &m[ty * tiles_x + tx];

      if (8 * tx - 8 < margin || 8 * tx + 8 > w - margin
          || 8 * ty - 8 < margin || 8 * ty + 8 > h - margin)
        continue;
      n++;
      within += fabs (t->dx - d) <= tolerance;
      *min_confidence = MIN (*min_confidence, t->confidence);
    }
  fail_unless (n > 0);
  return (gdouble) within / n;
}

/* A plane at a fractional disparity: every inner tile within 0.05
 * pixels, confident, and dy 0. */
GST_START_TEST (test_rig_plane)
{
  const gint w = 96, h = 80;
  const gdouble d = 2.35;
  cvcore_clt_match *m = quad_plane_matches (clt_texture_field, w, h, d, 0);
  gdouble min_confidence;

  fail_unless_equals_float (share_within (m, w, h, 2 + ceil (d), d, 0.05,
          &min_confidence), 1.0);
  fail_unless (min_confidence > 0.2, "%g", min_confidence);
  for (gint t = 0; t < cvcore_clt_tiles (w) * cvcore_clt_tiles (h); t++)
    fail_unless_equals_float (m[t].dy, 0.0);
  g_free (m);
}

GST_END_TEST;

/* A tile whose first pass moves it by less than converge pixels along
 * the longest baseline takes no refinement: with converge 1 and the
 * search starting half a pixel from the plane, the inner tiles end as
 * they end without refinements, bit for bit; with converge 0 they all
 * take theirs. */
GST_START_TEST (test_rig_converge)
{
  const gint w = 96, h = 80;
  const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  const gdouble d = 2.35, initial = 2.0;
  cvcore_clt_corr_params params;
  cvcore_clt_match *once, *converged, *refined;
  TestImage views[4];
  gint inner = 0, stopped = 0, moved = 0;

  render_rig (device, stream, &quad, clt_texture_field, w, h, d, views);
  rig_params (&params);
  params.fit_radius = 0;
  params.initial_x = initial;
  params.refinements = 0;
  once = rig_correlate_on (device, stream, &quad, views, &params, 0);
  params.refinements = 2;
  params.converge = 1.0;
  converged = rig_correlate_on (device, stream, &quad, views, &params, 0);
  params.converge = 0.0;
  refined = rig_correlate_on (device, stream, &quad, views, &params, 0);
  for (gint t = 0; t < tiles; t++) {
    if (!clt_inner_tile (t, w, h, 2 + ceil (d)))
      continue;
    inner++;
    fail_unless (fabs (once[t].dx - initial) * G_SQRT2 < 1.0,
        "tile %d moved %g", t, once[t].dx - initial);
    stopped += converged[t].dx == once[t].dx
        && converged[t].confidence == once[t].confidence;
    moved += refined[t].dx != once[t].dx;
  }
  fail_unless (inner > 0);
  fail_unless_equals_int (stopped, inner);
  fail_unless_equals_int (moved, inner);
  g_free (once);
  g_free (converged);
  g_free (refined);
  free_views (device, views, 4);
}

GST_END_TEST;

/* Stripes across the horizontal baseline, five pixels apart, over a
 * texture that varies only down the frame (waves of incommensurate
 * lengths). */
static gdouble
periodic_field (gdouble x, gdouble y)
{
  static const gdouble lengths[] = { 4.7, 6.9, 11.3, 17.1 };
  gdouble v = 32768.0 + 6000.0 * sin (2.0 * G_PI * x / 5.0);

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    v += 2000.0 * sin (2.0 * G_PI * y / lengths[i] + i);
  return v;
}

/* A texture that repeats along the horizontal baseline every 5 pixels,
 * at disparity 3: the horizontal pair alone finds a false peak (3 - 5 =
 * -2 lies nearer) on most tiles, the quad finds 3 on 95 % of them. */
GST_START_TEST (test_rig_periodic)
{
  const cvcore_clt_rig pair = { 2, {0.0, 1.0}, {0.0, 0.0} };
  const gint w = 96, h = 80;
  const gdouble d = 3.0;
  TestImage views[4];
  cvcore_clt_corr_params params;
  cvcore_clt_match *m;
  gdouble pair_share, quad_share, min_confidence;

  render_rig (device, stream, &quad, periodic_field, w, h, d, views);
  rig_params (&params);
  m = rig_correlate_on (device, stream, &pair, views, &params, 0);
  pair_share = share_within (m, w, h, 2 + ceil (d), d, 0.25, &min_confidence);
  g_free (m);
  m = rig_correlate_on (device, stream, &quad, views, &params, 0);
  quad_share = share_within (m, w, h, 2 + ceil (d), d, 0.25, &min_confidence);
  g_free (m);
  GST_INFO ("right disparity: pair %.3f, quad %.3f of tiles", pair_share,
      quad_share);
  fail_unless (quad_share >= 0.95, "%g", quad_share);
  fail_unless (pair_share < 0.5, "%g", pair_share);
  free_views (device, views, 4);
}

GST_END_TEST;

/* Texture at every scale at disparity 13, beyond one level's search
 * (7 pixels at the longest baseline, the diagonal: 4.9): found through
 * two reductions. */
GST_START_TEST (test_rig_pyramid)
{
  const gint w = 160, h = 144;
  const gdouble d = 13.0;
  cvcore_clt_match *m = quad_plane_matches (clt_natural_field, w, h, d, 2);
  gdouble min_confidence;

  fail_unless (share_within (m, w, h, 2 + ceil (d), d, 0.1,
          &min_confidence) >= 0.95);
  g_free (m);
}

GST_END_TEST;

/* The fit near the frame's edge: tiles whose windows reach beyond the
 * frame in some view (whose content mirrors there, moving the other way)
 * do not pull their neighbours, so the tiles inside next to them stay
 * within 0.08 pixels, and the inner ones within 0.02. */
GST_START_TEST (test_rig_fit_edges)
{
  const gint w = 200, h = 160;
  const gdouble d = 2.3;
  const gint tiles_x = cvcore_clt_tiles (w), tiles_y = cvcore_clt_tiles (h);
  cvcore_clt_corr_params params;
  cvcore_clt_match *m;
  gdouble min_confidence, worst = 0.0;

  rig_params (&params);
  fail_unless (params.fit_radius > 0);
  m = quad_plane_matches (clt_natural_field, w, h, d, 1);
  for (gint ty = 0; ty < tiles_y; ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      /* the third and fourth tiles from the nearest edge, wholly inside */
      const gint from_edge = MIN (MIN (tx, tiles_x - 1 - tx),
          MIN (ty, tiles_y - 1 - ty));

      if (from_edge == 2 || from_edge == 3)
        worst = MAX (worst, fabs (m[ty * tiles_x + tx].dx - d));
    }
  /* 0.05 here; 0.11 when such tiles pulled their neighbours */
  fail_unless (worst <= 0.08, "worst tile near the edge off by %f", worst);
  fail_unless (share_within (m, w, h, 24.0 + d, d, 0.02,
          &min_confidence) == 1.0);
  g_free (m);
}

GST_END_TEST;

/* The pyramid's coarser levels predict from tiles seen whole: beyond the
 * frame a view holds the frame's mirror, which pulls a tile's disparity
 * towards 0, and tiles a few from the edge predicted from such tiles
 * started the finest level too far off for its passes. Through three
 * reductions, the tiles whose windows lie inside the frame in every view
 * stay within 0.02 pixels. */
GST_START_TEST (test_rig_pyramid_edges)
{
  const gint w = 256, h = 192;
  const gdouble d = 3.3;
  const gint tiles_x = cvcore_clt_tiles (w), tiles_y = cvcore_clt_tiles (h);
  cvcore_clt_match *m = quad_plane_matches (clt_natural_field, w, h, d, 3);
  gdouble worst = 0.0;

  for (gint ty = 0; ty < tiles_y; ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      /* view 0's window and the diagonal view's, d left and up of it */
      if (8 * tx - 8 - d < 0 || 8 * ty - 8 - d < 0 || 8 * tx + 8 > w
          || 8 * ty + 8 > h)
        continue;
      worst = MAX (worst, fabs (m[ty * tiles_x + tx].dx - d));
    }
  /* 0.006 here; 0.055 when the coarser levels predicted from every tile */
  fail_unless (worst <= 0.02, "worst tile off by %f", worst);
  g_free (m);
}

GST_END_TEST;

/* One level's disparities of view 0's tiles and their 2-D surfaces
 * (host memory; the surfaces in *@surfaces). */
static cvcore_clt_match *
rig_surfaces_on (cvcore_device * dev, cvcore_stream * st,
    const cvcore_clt_rig * rig, const TestImage * views,
    const cvcore_clt_corr_params * params, gfloat ** surfaces)
{
  const gint w = views[0].image.width, h = views[0].image.height;
  const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  const gsize floats = tiles * CVCORE_CLT_RIG_SURFACE * CVCORE_CLT_RIG_SURFACE;
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles), *dev_matches;
  cvcore_image images[CVCORE_CLT_MAX_VIEWS];
  gfloat *dev_surfaces;

  for (gint v = 0; v < rig->views; v++)
    images[v] = views[v].image;
  *surfaces = g_new (gfloat, floats);
  fail_unless_equals_int (cvcore_device_alloc (dev, tiles *
          sizeof (cvcore_clt_match), (void **) &dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (dev, floats * sizeof (gfloat),
          (void **) &dev_surfaces), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_rig_correlate (st, images, 0, rig,
          params, dev_matches, dev_surfaces), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, matches, dev_matches,
          tiles * sizeof (cvcore_clt_match), CVCORE_COPY_DEVICE_TO_HOST),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, *surfaces, dev_surfaces,
          floats * sizeof (gfloat), CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (st), CVCORE_OK);
  cvcore_device_free (dev, dev_matches);
  cvcore_device_free (dev, dev_surfaces);
  return matches;
}

/* Each tile's 2-D surface peaks at its centre, the disparity found (no
 * motion across the baselines on a plane), where it holds the tile's
 * confidence. */
GST_START_TEST (test_rig_surfaces)
{
  const gint w = 64, h = 48, side = CVCORE_CLT_RIG_SURFACE;
  const gint centre = (side / 2) * side + side / 2;
  TestImage views[4];
  cvcore_clt_corr_params params;
  cvcore_clt_match *m;
  gfloat *surfaces;
  guint inner = 0;

  render_rig (device, stream, &quad, clt_texture_field, w, h, 1.6, views);
  rig_params (&params);
  params.initial_x = 1.5;
  m = rig_surfaces_on (device, stream, &quad, views, &params, &surfaces);
  for (gint t = 0; t < cvcore_clt_tiles (w) * cvcore_clt_tiles (h); t++) {
    const gfloat *sf = surfaces + (gsize) t * side * side;

    if (!clt_inner_tile (t, w, h, 2.0 * 1.6 + 1.0))
      continue;
    inner++;
    fail_unless (fabs (sf[centre] - m[t].confidence) < 1e-4,
        "tile %d: centre %g, confidence %g", t, sf[centre], m[t].confidence);
    for (gint i = 0; i < side * side; i++)
      fail_unless (sf[i] <= sf[centre] + 1e-5, "tile %d: sample %d %g above "
          "the centre's %g", t, i, sf[i], sf[centre]);
  }
  fail_unless (inner > 0);
  g_free (m);
  g_free (surfaces);
  free_views (device, views, 4);
}

GST_END_TEST;

/* Rigs of one view, of cameras in one place, and views of other sizes
 * are refused. */
GST_START_TEST (test_rig_refuses)
{
  TestImage views[3];
  cvcore_image images[3];
  cvcore_clt_rig rig = { 3, {0.0, 1.0, 2.0}, {0.0, 0.0, 0.0}
  };
  cvcore_clt_corr_params params;
  cvcore_clt_match *dev_matches;
  cvcore_clt_rig_pyramid *pyramid;

  for (gint v = 0; v < 3; v++) {
    views[v] = clt_moved_image (device, stream, clt_texture_field,
        v == 2 ? 40 : 32, 32, 32, 0.0, 0.0, 0.0, 0.0);
    images[v] = views[v].image;
  }
  rig_params (&params);
  fail_unless_equals_int (cvcore_device_alloc (device, 64 *
          sizeof (cvcore_clt_match), (void **) &dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_rig_correlate (stream, images, 0, &rig,
          &params, dev_matches, NULL), CVCORE_ERROR_INVALID_VALUE);
  rig.views = 2;
  fail_unless_equals_int (cvcore_clt_rig_correlate (stream, images, 0, &rig,
          &params, dev_matches, NULL), CVCORE_OK);
  rig.x[1] = 0.0;
  fail_unless_equals_int (cvcore_clt_rig_correlate (stream, images, 0, &rig,
          &params, dev_matches, NULL), CVCORE_ERROR_INVALID_VALUE);
  rig.x[1] = NAN;
  fail_unless_equals_int (cvcore_clt_rig_correlate (stream, images, 0, &rig,
          &params, dev_matches, NULL), CVCORE_ERROR_INVALID_VALUE);
  rig.views = 1;
  fail_unless_equals_int (cvcore_clt_rig_correlate (stream, images, 0, &rig,
          &params, dev_matches, NULL), CVCORE_ERROR_INVALID_VALUE);
  rig.views = 2;
  rig.x[1] = 1.0;
  for (guint i = 0; i < 3; i++) {
    const gdouble converge[] = { -0.01, 1.01, NAN };

    params.converge = converge[i];
    fail_unless_equals_int (cvcore_clt_rig_correlate (stream, images, 0,
            &rig, &params, dev_matches, NULL), CVCORE_ERROR_INVALID_VALUE);
  }
  fail_unless_equals_int (cvcore_clt_rig_pyramid_new (device, 32, 32, 0,
          CVCORE_CLT_MAX_VIEWS + 1, &pyramid), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  cvcore_device_free (device, dev_matches);
  free_views (device, views, 3);
}

GST_END_TEST;

/* The longest baseline counts the chosen pairs alone, and an invalid rig
 * has none. */
GST_START_TEST (test_rig_longest)
{
  cvcore_clt_rig rig = { 4, {0.0, 1.0, 0.0, 1.0}, {0.0, 0.0, 1.0, 1.0} };

  fail_unless (fabs (cvcore_clt_rig_longest (&rig) - G_SQRT2) < 1e-12);
  /* the quad's sides alone */
  rig.pairs = 4;
  memcpy (rig.pair, (const guint8[][2]) { {0, 1}, {2, 3}, {0, 2}, {1, 3} },
      sizeof (guint8[4][2]));
  fail_unless_equals_float (cvcore_clt_rig_longest (&rig), 1.0);
  /* a pair out of order, then cameras in one place */
  rig.pair[0][0] = 1;
  rig.pair[0][1] = 0;
  fail_unless_equals_float (cvcore_clt_rig_longest (&rig), 0.0);
  rig.pairs = 0;
  rig.x[1] = 0.0;
  rig.y[1] = 0.0;
  fail_unless_equals_float (cvcore_clt_rig_longest (&rig), 0.0);
}

GST_END_TEST;

/* CUDA against the CPU reference: disparity within 0.01 pixels where
 * the CPU finds confidence in the inner tiles, confidence within 0.01
 * everywhere, at odd sizes and with 2 to 8 views on a circle (whose
 * terms the kernel sums by phase with 2 and 4 views, by baseline with
 * the others), and the square quad. */
GST_START_TEST (test_cuda_rig_equals_cpu)
{
  /* width, height, views (0: the quad) */
  static const gint sizes[][3] = { {1, 1, 2}, {17, 9, 3}, {161, 121, 4},
  {67, 45, 8}, {139, 101, 0}
  };

  for (guint n = 0; n < G_N_ELEMENTS (sizes); n++) {
    const gint w = sizes[n][0], h = sizes[n][1];
    const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
    cvcore_clt_rig rig = { sizes[n][2] };
    TestImage views[CVCORE_CLT_MAX_VIEWS], cpu_views[CVCORE_CLT_MAX_VIEWS];
    cvcore_clt_corr_params params;
    cvcore_clt_match *m, *cm;
    gdouble worst = 0.0, worst_c = 0.0;

    if (rig.views == 0)
      rig = quad;
    else
      /* cameras on a circle of radius 1 */
      for (gint v = 0; v < rig.views; v++) {
        rig.x[v] = cos (2.0 * G_PI * v / rig.views);
        rig.y[v] = sin (2.0 * G_PI * v / rig.views);
      }
    render_rig (device, stream, &rig, clt_texture_field, w, h, 1.3, views);
    for (gint v = 0; v < rig.views; v++)
      cpu_views[v] = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream,
          &views[v]);
    rig_params (&params);
    params.initial_x = 0.5 * n;
    m = rig_correlate_on (device, stream, &rig, views, &params, 1);
    cm = rig_correlate_on (cvtest_cpu, cvtest_cpu_stream, &rig, cpu_views,
        &params, 1);
    for (gint t = 0; t < tiles; t++) {
      const gdouble e = fabs (m[t].dx - cm[t].dx);

      if (e > 0.01)
        GST_INFO ("%dx%d tile %d: CUDA %g %g, CPU %g %g", w, h, t, m[t].dx,
            m[t].confidence, cm[t].dx, cm[t].confidence);
      if (cm[t].confidence > 0.1 && clt_inner_tile (t, w, h, 2.7))
        worst = MAX (worst, e);
      worst_c = MAX (worst_c, fabs (m[t].confidence - cm[t].confidence));
    }
    GST_INFO ("%dx%d, %d views: worst disparity difference %.5f px, "
        "confidence %.5f", w, h, rig.views, worst, worst_c);
    fail_unless (worst < 0.01 && worst_c < 0.01, "%dx%d: %g px, %g", w, h,
        worst, worst_c);
    g_free (m);
    g_free (cm);
    /* one level's 2-D surfaces, within 0.01 on tiles the CPU trusts */
    {
      const gint area = CVCORE_CLT_RIG_SURFACE * CVCORE_CLT_RIG_SURFACE;
      gfloat *sf, *csf;

      m = rig_surfaces_on (device, stream, &rig, views, &params, &sf);
      cm = rig_surfaces_on (cvtest_cpu, cvtest_cpu_stream, &rig, cpu_views,
          &params, &csf);
      worst = 0.0;
      for (gint t = 0; t < tiles; t++)
        if (cm[t].confidence > 0.1 && clt_inner_tile (t, w, h, 2.7))
          for (gint i = 0; i < area; i++)
            worst = MAX (worst, fabs (sf[t * area + i] - csf[t * area + i]));
      fail_unless (worst < 0.01, "%dx%d surfaces: %g", w, h, worst);
      g_free (sf);
      g_free (csf);
      g_free (m);
      g_free (cm);
    }
    free_views (device, views, rig.views);
    free_views (cvtest_cpu, cpu_views, rig.views);
  }
}

GST_END_TEST;

static Suite *
clt_rig_suite (void)
{
  Suite *s = suite_create ("clt-rig");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_rig_plane);
  tcase_add_test (tc, test_rig_converge);
  tcase_add_test (tc, test_rig_periodic);
  tcase_add_test (tc, test_rig_refuses);
  tcase_add_test (tc, test_rig_longest);
  tcase_add_test (tc, test_rig_fit_edges);
  tcase_add_test (tc, test_rig_surfaces);
  /* minutes under valgrind (CVTEST_QUICK) */
  if (!g_getenv ("CVTEST_QUICK")) {
    tcase_add_test (tc, test_rig_pyramid);
    tcase_add_test (tc, test_rig_pyramid_edges);
  }
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_rig_equals_cpu);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, clt_rig_suite);
}
