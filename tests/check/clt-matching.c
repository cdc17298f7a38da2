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

/* Helpers of the CLT core's matching tests: see the header. */
#include <math.h>

#include "clt-matching.h"
#include "pictures.h"

/* The forward transform of channel 0 of @a and the matches of its tiles
 * in @b (host memory, tiles_y x tiles_x). */
cvcore_clt_match *
clt_correlate_on (cvcore_device * dev, cvcore_stream * st, const TestImage * a,
    const TestImage * b, const cvcore_clt_corr_params * params)
{
  const gint w = a->image.width, h = a->image.height;
  const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles), *dev_matches;
  gfloat *ca;

  fail_unless_equals_int (cvcore_device_alloc (dev, tiles * 1024,
          (void **) &ca), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (dev, tiles *
          sizeof (cvcore_clt_match), (void **) &dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_forward (st, &a->image, 0, 0, 0, ca),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_correlate (st, ca, &b->image, 0, params,
          dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, matches, dev_matches,
          tiles * sizeof (cvcore_clt_match), CVCORE_COPY_DEVICE_TO_HOST),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (st), CVCORE_OK);
  cvcore_device_free (dev, ca);
  cvcore_device_free (dev, dev_matches);
  return matches;
}


/* A textured 16-bit picture. */
gdouble
clt_texture_field (gdouble x, gdouble y)
{
  return 32768.0 + 600.0 * picture_texture (x, y);
}


/* A 16-bit picture with texture at every scale, as natural images have:
 * the coarse levels of a pyramid see it too. */
gdouble
clt_natural_field (gdouble x, gdouble y)
{
  return 32768.0 + 60.0 * picture_natural_texture (x, y);
}


/* @field moved by (@dx, @dy) where x < @split and by (@dx2, @dy2)
 * elsewhere, 16 bits. */
TestImage
clt_moved_image (cvcore_device * device, cvcore_stream * stream,
    gdouble (*field) (gdouble, gdouble), gint width, gint height, gint split,
    gdouble dx, gdouble dy, gdouble dx2, gdouble dy2)
{
  TestImage t = cvtest_image_new (device, stream, width, height, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);

  for (gint y = 0; y < height; y++)
    for (gint x = 0; x < width; x++)
      cvtest_put_sample (&t, x, y, 0, x < split ? field (x - dx, y - dy) :
          field (x - dx2, y - dy2));
  cvtest_image_upload (&t, stream);
  return t;
}


/* Tiles whose 16x16 pixels lie inside [x0, x1) x [y0, height - y0) of
 * a frame, with y0 two pixels more than the motion (nearer to the edges
 * content comes in from outside): their largest error against the motion
 * (@dx, @dy). */
gdouble
clt_worst_error (const cvcore_clt_match * m, gint width, gint height, gint x0,
    gint x1, gdouble dx, gdouble dy, gdouble * min_confidence)
{
  const gint y0 = 2 + (gint) ceil (fabs (dy));

  const gint tiles_x = cvcore_clt_tiles (width);
  gdouble worst = 0.0;

  *min_confidence = 1.0;
  for (gint ty = 0; ty < cvcore_clt_tiles (height); ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      const cvcore_clt_match *t = &m[ty * tiles_x + tx];

      if (8 * tx - 8 < x0 || 8 * tx + 8 > x1 || 8 * ty - 8 < y0
          || 8 * ty + 8 > height - y0)
        continue;
      worst = MAX (worst, MAX (fabs (t->dx - dx), fabs (t->dy - dy)));
      *min_confidence = MIN (*min_confidence, t->confidence);
    }
  return worst;
}


/* The share of the tiles that worst_error() looks at whose error is at
 * most @tolerance. */
gdouble
clt_share_within (const cvcore_clt_match * m, gint width, gint height, gint x0,
    gint x1, gdouble dx, gdouble dy, gdouble tolerance)
{
  const gint y0 = 2 + (gint) ceil (fabs (dy));
  const gint tiles_x = cvcore_clt_tiles (width);
  guint n = 0, within = 0;

  for (gint ty = 0; ty < cvcore_clt_tiles (height); ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      const cvcore_clt_match *t = &m[ty * tiles_x + tx];

      if (8 * tx - 8 < x0 || 8 * tx + 8 > x1 || 8 * ty - 8 < y0
          || 8 * ty + 8 > height - y0)
        continue;
      n++;
      within += hypot (t->dx - dx, t->dy - dy) <= tolerance;
    }
  return n ? (gdouble) within / n : 0.0;
}


/* The matches of @a's tiles in @b (host memory) through a pyramid of
 * @levels reductions. */
cvcore_clt_match *
clt_pyramid_correlate_on (cvcore_device * dev, cvcore_stream * st,
    const TestImage * a, const TestImage * b,
    const cvcore_clt_corr_params * params, gint levels)
{
  const gint w = a->image.width, h = a->image.height;
  const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles), *dev_matches;
  cvcore_clt_pyramid *pyramid;

  fail_unless_equals_int (cvcore_clt_pyramid_new (dev, w, h, levels,
          &pyramid), CVCORE_OK);
  fail_unless_equals_int (cvcore_device_alloc (dev, tiles *
          sizeof (cvcore_clt_match), (void **) &dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_pyramid_build (st, pyramid, 1,
          &a->image, 0), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_pyramid_build (st, pyramid, 0,
          &b->image, 0), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_pyramid_correlate (st, pyramid, 1, 0,
          &b->image, 0, params, dev_matches), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (st, matches, dev_matches,
          tiles * sizeof (cvcore_clt_match), CVCORE_COPY_DEVICE_TO_HOST),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (st), CVCORE_OK);
  cvcore_device_free (dev, dev_matches);
  cvcore_clt_pyramid_free (pyramid);
  return matches;
}


/* Whether tile @t of a @width x @height frame and its content moved by
 * up to @motion pixels stay @margin pixels inside the frame. Near the
 * edges, where a tile holds the frame's mirror image too, its content
 * and the mirror's move apart, and two peaks of nearly the same height
 * make the choice between them one of rounding. */
gboolean
clt_inner_tile (gint t, gint width, gint height, gdouble motion)
{
  const gint tx = t % cvcore_clt_tiles (width), ty = t /
      cvcore_clt_tiles (width);
  const gint margin = 10 + (gint) ceil (motion);

  return 8 * tx - 8 >= margin && 8 * tx + 8 <= width - margin
      && 8 * ty - 8 >= margin && 8 * ty + 8 <= height - margin;
}
