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

/* The CLT core's matching, the tiles' shapes and the fit of each match with its neighbours, CUDA against the CPU. */
#include <math.h>
#include <string.h>

#include "clt-matching.h"
#include "pictures.h"

#define SHAPE CVCORE_CLT_SHAPE_FLOATS
#define FIT_W 121
#define FIT_H 89

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

/* cvcore_clt_shapes of @src, in host memory (g_free it). */
static gfloat *
tile_shapes_on (cvcore_device * dev, cvcore_stream * st, const TestImage * src)
{
  const gsize bytes = SHAPE * sizeof (gfloat) *
      cvcore_clt_tiles (src->image.width) *
      cvcore_clt_tiles (src->image.height);
  gfloat *shapes = g_malloc (bytes), *dev_shapes;

  fail_unless_equals_int (cvcore_device_alloc (dev, bytes,
          (void **) &dev_shapes), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_shapes (st, &src->image, 0,
          dev_shapes), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, shapes, dev_shapes,
          bytes, CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (st), CVCORE_OK);
  cvcore_device_free (dev, dev_shapes);
  return shapes;
}


static gfloat *
tile_shapes (const TestImage * src)
{
  return tile_shapes_on (device, stream, src);
}


static gdouble
stripes (gdouble x, gdouble y)
{
  return 32768.0 + 20000.0 * sin (0.7 * x);
}


static gdouble
diagonal_stripes (gdouble x, gdouble y)
{
  return 32768.0 + 20000.0 * sin (0.5 * (x + y));
}


static gdouble
flat_field (gdouble x, gdouble y)
{
  return 30000.0;
}


/* Whether tile @t's pixels and their neighbours lie inside a @w x @h
 * frame (beyond, the frame is mirrored). */
static gboolean
inner_shape (gint t, gint w, gint h)
{
  const gint tx = t % cvcore_clt_tiles (w), ty = t / cvcore_clt_tiles (w);

  return 8 * tx - 9 >= 0 && 8 * ty - 9 >= 0 && 8 * tx + 8 < w && 8 * ty + 8 < h;
}


static const gdouble blobs[][2] = { {21.3, 18.6}, {53.7, 36.2} };

/* Small bright blobs on a flat field, far apart. */
static gdouble
blob_field (gdouble x, gdouble y)
{
  gdouble v = 30000.0;

  for (guint b = 0; b < G_N_ELEMENTS (blobs); b++)
    v += 20000.0 * exp (-(pow (x - blobs[b][0], 2) + pow (y - blobs[b][1],
                2)) / (2.0 * 1.2 * 1.2));
  return v;
}


/* cvcore_clt_fit of @matches and @shapes (host memory, the tiles of a
 * @w x @h frame) with @radius, in host memory (g_free it). */
static cvcore_clt_match *
fit_on (cvcore_device * dev, cvcore_stream * st,
    const cvcore_clt_match * matches, const gfloat * shapes, gint w, gint h,
    gint radius)
{
  const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  cvcore_clt_match *fitted = g_new (cvcore_clt_match, tiles);
  cvcore_clt_match *dev_in, *dev_out;
  gfloat *dev_shapes;

  fail_unless_equals_int (cvcore_device_alloc (dev, tiles * sizeof
          (*matches), (void **) &dev_in), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (dev, tiles * sizeof
          (*matches), (void **) &dev_out), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (dev, SHAPE * tiles * sizeof
          (gfloat), (void **) &dev_shapes), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, dev_in, matches, tiles *
          sizeof (*matches), CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, dev_shapes, shapes, SHAPE *
          tiles * sizeof (gfloat), CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless (cvcore_clt_fit (st, dev_shapes, dev_in, w, h, radius,
          dev_out) == CVCORE_OK, "%s", cvcore_last_error ());
  fail_unless_equals_int (cvcore_copy_async (st, fitted, dev_out, tiles *
          sizeof (*matches), CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (st), CVCORE_OK);
  cvcore_device_free (dev, dev_in);
  cvcore_device_free (dev, dev_out);
  cvcore_device_free (dev, dev_shapes);
  return fitted;
}


/* For the tiles of a FIT_W x FIT_H frame (their number returned),
 * matches @m of confidence 0.5 and @shapes of texture alike in every
 * direction, centred in its tile (fit_inputs_free them). */
static gint
fit_inputs_new (cvcore_clt_match ** m, gfloat ** shapes)
{
  const gint tiles = cvcore_clt_tiles (FIT_W) * cvcore_clt_tiles (FIT_H);

  *m = g_new0 (cvcore_clt_match, tiles);
  *shapes = g_new0 (gfloat, SHAPE * tiles);
  for (gint t = 0; t < tiles; t++) {
    (*m)[t].confidence = 0.5f;
    (*shapes)[SHAPE * t] = (*shapes)[SHAPE * t + 1] = 0.5f;
  }
  return tiles;
}


static void
fit_inputs_free (cvcore_clt_match * m, gfloat * shapes, cvcore_clt_match * f)
{
  g_free (f);
  g_free (m);
  g_free (shapes);
}


/* The confidence @c of tile @t of a FIT_W x FIT_H frame after the fit,
 * for motion (@dx, @dy): 0 where the motion takes the tile's centre more
 * than half a tile and a pixel beyond the frame (its content left it),
 * @c where it keeps it within half a tile; -1 in between, where it fades,
 * and where the fit's rounding may take it either way. */
static gfloat
fitted_confidence (gint t, gfloat dx, gfloat dy, gfloat c)
{
  const gint tiles_x = cvcore_clt_tiles (FIT_W);
  const gfloat x = 8.0f * (t % tiles_x) + dx, y = 8.0f * (t / tiles_x) + dy;
  const gfloat beyond = MAX (MAX (-8.0f - x, -8.0f - y),
      MAX (x - (FIT_W - 1) - 8.0f, y - (FIT_H - 1) - 8.0f));

  return beyond <= -0.05f ? c : beyond >= 1.05f ? 0.0f : -1.0f;
}


/* A motion linear in the position (x, y), in strides: @k is the motion
 * at (0, 0) and its change along x and along y, for dx then for dy. */
static void
linear_motion (const gfloat k[6], gfloat x, gfloat y, gfloat * dx, gfloat * dy)
{
  *dx = k[0] + k[1] * x + k[2] * y;
  *dy = k[3] + k[4] * x + k[5] * y;
}


/* A tile's shape is its texture's orientation: stripes across x are
 * (1, 0, 0), along the diagonal (1/2, 1/2, 1/2) when they rise towards
 * the lower right, a flat tile 0; natural texture is mostly neither. */
GST_START_TEST (test_shapes)
{
  static const struct
  {
    gdouble (*field) (gdouble, gdouble);
    gfloat xx, yy, xy;
  } cases[] = {
    {stripes, 1.0f, 0.0f, 0.0f}, {diagonal_stripes, 0.5f, 0.5f, 0.5f},
    {flat_field, 0.0f, 0.0f, 0.0f},
  };
  const gint w = 77, h = 53, tiles_x = cvcore_clt_tiles (w);
  const gint tiles = tiles_x * cvcore_clt_tiles (h);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    TestImage img =
        clt_moved_image (device, stream, cases[c].field, w, h, 0, 0, 0, 0, 0);
    gfloat *s = tile_shapes (&img);

    for (gint t = 0; t < tiles; t++)
      fail_unless (!inner_shape (t, w, h) || (fabsf (s[SHAPE * t] - cases[c].xx)
              < 1e-3f
              && fabsf (s[SHAPE * t + 1] - cases[c].yy) < 1e-3f
              && fabsf (s[SHAPE * t + 2] - cases[c].xy) < 1e-3f),
          "case %u, tile %d: (%g, %g, %g)", c, t, s[SHAPE * t],
          s[SHAPE * t + 1], s[SHAPE * t + 2]);
    g_free (s);
    cvtest_image_free (&img, device);
  }
  {
    TestImage img =
        clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0, 0, 0,
        0);
    gfloat *s = tile_shapes (&img);
    gint elongated = 0;

    for (gint t = 0; t < tiles; t++) {
      const gdouble spread =
          hypot (s[SHAPE * t] - s[SHAPE * t + 1], 2 * s[SHAPE * t + 2]);

      fail_unless (fabs (s[SHAPE * t] + s[SHAPE * t + 1] - 1.0) < 1e-4);
      elongated += (1.0 - spread) / (1.0 + spread) < 0.12;
    }
    GST_INFO ("natural texture: %u of %d tiles elongated", elongated, tiles);
    fail_unless (elongated < tiles / 4);
    g_free (s);
    cvtest_image_free (&img, device);
  }
}

GST_END_TEST;

/* A shape's centre is where its tile's texture lies: in a tile whose
 * centre is within 4 pixels of a blob, at the blob, pulled a little
 * towards the tile's centre by the window (up to a fifth of the way);
 * 0 in a flat tile. */
GST_START_TEST (test_shape_centres)
{
  const gint w = 77, h = 53, tiles_x = cvcore_clt_tiles (w);
  const gint tiles = tiles_x * cvcore_clt_tiles (h);
  TestImage img =
      clt_moved_image (device, stream, blob_field, w, h, 0, 0, 0, 0, 0);
  gfloat *s = tile_shapes (&img);
  guint near = 0;

  for (gint t = 0; t < tiles; t++) {
    const gdouble cx = 8.0 * (t % tiles_x) - 0.5, cy = 8.0 * (t / tiles_x)
        - 0.5;

    for (guint b = 0; b < G_N_ELEMENTS (blobs); b++) {
      const gdouble ox = blobs[b][0] - cx, oy = blobs[b][1] - cy;
      const gdouble sx = 8.0 * s[SHAPE * t + 3], sy = 8.0 * s[SHAPE * t + 4];

      if (fabs (ox) > 4.0 || fabs (oy) > 4.0)
        continue;
      near++;
      fail_unless (fabs (sx - ox) <= 0.2 * fabs (ox) + 0.05
          && fabs (sy - oy) <= 0.2 * fabs (oy) + 0.05, "tile %d: centre "
          "(%g, %g), blob at (%g, %g)", t, sx, sy, ox, oy);
    }
    if (fabs (cx - blobs[0][0]) > 20.0 && fabs (cx - blobs[1][0]) > 20.0)
      fail_unless (s[SHAPE * t + 3] == 0.0f && s[SHAPE * t + 4] == 0.0f);
  }
  fail_unless (near >= 2);
  g_free (s);
  cvtest_image_free (&img, device);
}

GST_END_TEST;

/* Motion that varies linearly (a turn with a zoom, a disparity ramp)
 * comes back as it is, at every tile; a tile whose match is far off
 * (here one in the middle) gets its neighbours' motion and leaves theirs
 * as it was. Tiles that it takes out of the frame lose their confidence. */
GST_START_TEST (test_fit_linear_motion)
{
  const gint tiles_x = cvcore_clt_tiles (FIT_W);
  cvcore_clt_match *m, *f;
  gfloat *shapes;
  const gint tiles = fit_inputs_new (&m, &shapes);
  const gint odd = tiles / 2;
  const gfloat k[6] = { 0.5f, 0.03f, -0.02f, -1.0f, 0.01f, 0.04f };

  for (gint t = 0; t < tiles; t++)
    linear_motion (k, t % tiles_x, t / tiles_x, &m[t].dx, &m[t].dy);
  m[odd].dx += 3.0f;
  m[odd].dy -= 2.0f;
  f = fit_on (device, stream, m, shapes, FIT_W, FIT_H, 3);
  for (gint t = 0; t < tiles; t++) {
    gfloat dx, dy, c;

    linear_motion (k, t % tiles_x, t / tiles_x, &dx, &dy);
    c = fitted_confidence (t, dx, dy, 0.5f);

    fail_unless (fabsf (f[t].dx - dx) < 0.01f && fabsf (f[t].dy - dy) < 0.01f,
        "tile %d: (%g, %g) for (%g, %g)", t, f[t].dx, f[t].dy, dx, dy);
    fail_unless (c < 0.0f || f[t].confidence == c, "tile %d: %g", t,
        f[t].confidence);
  }
  fit_inputs_free (m, shapes, f);
}

GST_END_TEST;

/* A linear motion whose tiles measure it where their texture lies,
 * off their centres by up to 0.4 of a stride, comes back as the motion at
 * each tile's centre (within 0.01 pixel, against up to 0.08 off). */
GST_START_TEST (test_fit_off_centre)
{
  const gint tiles_x = cvcore_clt_tiles (FIT_W);
  cvcore_clt_match *m, *f;
  gfloat *shapes;
  const gint tiles = fit_inputs_new (&m, &shapes);
  GRand *rand = g_rand_new_with_seed (11);
  const gfloat k[6] = { 0.5f, 0.12f, -0.08f, -1.0f, 0.05f, 0.15f };
  gint off = 0;

  for (gint t = 0; t < tiles; t++) {
    const gfloat ox = g_rand_double_range (rand, -0.4, 0.4);
    const gfloat oy = g_rand_double_range (rand, -0.4, 0.4);

    shapes[SHAPE * t + 3] = ox;
    shapes[SHAPE * t + 4] = oy;
    linear_motion (k, t % tiles_x + ox, t / tiles_x + oy, &m[t].dx, &m[t].dy);
    off += hypotf (k[1] * ox + k[2] * oy, k[4] * ox + k[5] * oy) > 0.02f;
  }
  f = fit_on (device, stream, m, shapes, FIT_W, FIT_H, 3);
  for (gint t = 0; t < tiles; t++) {
    gfloat dx, dy;

    linear_motion (k, t % tiles_x, t / tiles_x, &dx, &dy);
    /* not the tiles whose motion took them out of the frame: an
     * extrapolation from the neighbours inside it */
    if (fitted_confidence (t, dx, dy, 0.5f) == 0.0f)
      continue;
    fail_unless (fabsf (f[t].dx - dx) < 0.01f
        && fabsf (f[t].dy - dy) < 0.01f, "tile %d: (%g, %g) for (%g, %g)",
        t, f[t].dx, f[t].dy, dx, dy);
  }
  /* most matches were off the motion at their tile's centre */
  fail_unless (off > tiles / 2);
  g_rand_free (rand);
  fit_inputs_free (m, shapes, f);
}

GST_END_TEST;

/* Edges: a column of tiles of stripes across x, whose matches are 2
 * pixels off along the stripes, gets the motion along them from its
 * neighbours (within 0.2 pixel: they still count a little along them)
 * and keeps its own across them; stripes alone lose their confidence. */
GST_START_TEST (test_fit_edges)
{
  const gint tiles_x = cvcore_clt_tiles (FIT_W);
  cvcore_clt_match *m, *f;
  gfloat *shapes;
  const gint tiles = fit_inputs_new (&m, &shapes);

  for (gint t = 0; t < tiles; t++) {
    m[t].dx = 1.25f;
    m[t].dy = -0.75f;
    if (t % tiles_x == 6) {
      /* elongation 0.0526: trusted 0.439 */
      shapes[SHAPE * t] = 0.95f;
      shapes[SHAPE * t + 1] = 0.05f;
      m[t].dy += 2.0f;
    } else if (t % tiles_x == 10) {
      shapes[SHAPE * t] = 1.0f;
      shapes[SHAPE * t + 1] = 0.0f;
    }
  }
  f = fit_on (device, stream, m, shapes, FIT_W, FIT_H, 3);
  for (gint t = 0; t < tiles; t++) {
    const gint x = t % tiles_x;
    const gfloat c = fitted_confidence (t, 1.25f, -0.75f, x == 10 ? 0.0f :
        0.5f);

    fail_unless (fabsf (f[t].dx - 1.25f) < 0.01f
        && fabsf (f[t].dy + 0.75f) < 0.2f, "tile %d: (%g, %g)", t, f[t].dx,
        f[t].dy);
    if (x == 6)
      fail_unless (fabsf (f[t].confidence - 0.5f * 0.05f / 0.95f / 0.12f) <
          1e-5f, "tile %d: %g", t, f[t].confidence);
    else
      fail_unless (c < 0.0f || f[t].confidence == c, "tile %d: %g", t,
          f[t].confidence);
  }
  fit_inputs_free (m, shapes, f);
}

GST_END_TEST;

/* Two halves moving apart: each tile keeps its half's motion, up to
 * where they meet; the matches across do not pull. */
GST_START_TEST (test_fit_boundary)
{
  const gint tiles_x = cvcore_clt_tiles (FIT_W);
  cvcore_clt_match *m, *f;
  gfloat *shapes;
  const gint tiles = fit_inputs_new (&m, &shapes);
  const gint split = tiles_x / 2;
  gdouble worst = 0.0;

  for (gint t = 0; t < tiles; t++) {
    m[t].dx = t % tiles_x < split ? 2.0f : -3.0f;
    m[t].dy = t % tiles_x < split ? 1.0f : 0.5f;
  }
  f = fit_on (device, stream, m, shapes, FIT_W, FIT_H, 3);
  for (gint t = 0; t < tiles; t++) {

    worst = MAX (worst, hypot (f[t].dx - m[t].dx, f[t].dy - m[t].dy));
  }
  GST_INFO ("worst error: %g px", worst);
  fail_unless (worst < 0.02, "%g px", worst);
  fit_inputs_free (m, shapes, f);
}

GST_END_TEST;

/* CUDA against the CPU reference: the shapes of a natural-like picture,
 * and the fit of the CPU's matches of a translation, with the same input
 * on both, over the inner tiles, within 0.01 pixels (the float sums run
 * in another order on the GPU). (Where neighbours disagree by many
 * pixels, at the frame's edge or a motion boundary, the fit may settle on
 * either side, and the backends' rounding can choose differently.) */
GST_START_TEST (test_cuda_fit_equals_cpu)
{
  static const gint sizes[][2] = { {97, 65}, {643, 361} };

  for (guint n = 0; n < G_N_ELEMENTS (sizes); n++) {
    const gint w = sizes[n][0], h = sizes[n][1];
    const gint tiles = cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
    TestImage a =
        clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0.0, 0.0,
        0.0, 0.0);
    TestImage b =
        clt_moved_image (device, stream, clt_natural_field, w, h, 0, 0.0, 0.0,
        3.3, -1.7);
    TestImage ca = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &a);
    TestImage cb = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &b);
    gfloat *shapes = tile_shapes (&a);
    gfloat *cpu_shapes = tile_shapes_on (cvtest_cpu, cvtest_cpu_stream, &ca);
    cvcore_clt_corr_params params;
    cvcore_clt_match *m, *f, *cf;
    gdouble worst = 0.0;

    for (gint i = 0; i < SHAPE * tiles; i++)
      fail_unless (fabsf (shapes[i] - cpu_shapes[i]) < 1e-4f, "%dx%d: "
          "shape %d: %g, %g", w, h, i, shapes[i], cpu_shapes[i]);
    cvcore_clt_corr_params_init (&params);
    params.full_scale = 65535.0;
    params.fit_radius = 0;
    m = clt_pyramid_correlate_on (cvtest_cpu, cvtest_cpu_stream, &ca, &cb,
        &params, 3);
    f = fit_on (device, stream, m, cpu_shapes, w, h, 3);
    cf = fit_on (cvtest_cpu, cvtest_cpu_stream, m, cpu_shapes, w, h, 3);
    for (gint t = 0; t < tiles; t++) {
      fail_unless (fabsf (f[t].confidence - cf[t].confidence) < 1e-5f);
      if (clt_inner_tile (t, w, h, 8.0))
        worst = MAX (worst, MAX (fabs (f[t].dx - cf[t].dx),
                fabs (f[t].dy - cf[t].dy)));
    }
    GST_INFO ("%dx%d: worst fitted motion difference %.6f px", w, h, worst);
    fail_unless (worst < 0.01, "%dx%d: %g px", w, h, worst);
    g_free (f);
    g_free (cf);
    g_free (m);
    g_free (shapes);
    g_free (cpu_shapes);
    cvtest_image_free (&a, device);
    cvtest_image_free (&b, device);
    cvtest_image_free (&ca, cvtest_cpu);
    cvtest_image_free (&cb, cvtest_cpu);
  }
}

GST_END_TEST;

/* CUDA against the CPU reference on frames of up to 5 MP, whose fits the
 * kernels share out differently by their number of tiles: a smooth
 * motion with noise, outliers and flat tiles, over random shapes. Within
 * 0.01 pixels and 1e-5 of confidence at every tile but the outermost
 * (there, matches beyond the frame can leave the fit torn between two
 * motions, as at a motion boundary). */
GST_START_TEST (test_cuda_fit_equals_cpu_at_sizes)
{
  static const gint sizes[][2] = { {331, 211}, {2592, 1936} };
  GRand *rand = g_rand_new_with_seed (5);

  for (guint n = 0; n < G_N_ELEMENTS (sizes); n++) {
    const gint w = sizes[n][0], h = sizes[n][1];
    const gint tiles_x = cvcore_clt_tiles (w);
    const gint tiles = tiles_x * cvcore_clt_tiles (h);
    cvcore_clt_match *m = g_new (cvcore_clt_match, tiles), *f, *cf;
    gfloat *shapes = g_new (gfloat, SHAPE * tiles);
    gdouble worst = 0.0;

    for (gint t = 0; t < tiles; t++) {
      const gdouble x = t % tiles_x, y = t / tiles_x;
      const gfloat xx = g_rand_double (rand);
      const gfloat r = sqrtf (xx * (1.0f - xx));

      m[t].dx = 1.5 + 0.01 * x + 2.0 * sin (0.05 * y) +
          g_rand_double_range (rand, -0.1, 0.1);
      m[t].dy = -0.5 + 0.02 * y + cos (0.07 * x) +
          g_rand_double_range (rand, -0.1, 0.1);
      if (g_rand_int_range (rand, 0, 100) == 0)
        m[t].dx += 4.0f;
      m[t].confidence = g_rand_int_range (rand, 0, 10) == 0 ? 0.0f :
          g_rand_double_range (rand, 0.02, 1.0);
      shapes[SHAPE * t] = xx;
      shapes[SHAPE * t + 1] = 1.0f - xx;
      shapes[SHAPE * t + 2] = g_rand_double_range (rand, -r, r);
      shapes[SHAPE * t + 3] = g_rand_double_range (rand, -0.4, 0.4);
      shapes[SHAPE * t + 4] = g_rand_double_range (rand, -0.4, 0.4);
    }
    f = fit_on (device, stream, m, shapes, w, h, 3);
    cf = fit_on (cvtest_cpu, cvtest_cpu_stream, m, shapes, w, h, 3);
    for (gint t = 0; t < tiles; t++) {
      if (!clt_inner_tile (t, w, h, 16.0))
        continue;
      fail_unless (fabsf (f[t].confidence - cf[t].confidence) < 1e-5f,
          "%dx%d, tile %d: confidence %g, %g", w, h, t, f[t].confidence,
          cf[t].confidence);
      worst = MAX (worst, MAX (fabs (f[t].dx - cf[t].dx),
              fabs (f[t].dy - cf[t].dy)));
    }
    GST_INFO ("%dx%d: worst fitted motion difference %.6f px", w, h, worst);
    fail_unless (worst < 0.01, "%dx%d: %g px", w, h, worst);
    fit_inputs_free (m, shapes, f);
    g_free (cf);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
clt_fit_suite (void)
{
  Suite *s = suite_create ("clt-fit");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_shapes);
  tcase_add_test (tc, test_shape_centres);
  tcase_add_test (tc, test_fit_linear_motion);
  tcase_add_test (tc, test_fit_off_centre);
  tcase_add_test (tc, test_fit_edges);
  tcase_add_test (tc, test_fit_boundary);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_fit_equals_cpu);
    tcase_add_test (cuda, test_cuda_fit_equals_cpu_at_sizes);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, clt_fit_suite);
}
