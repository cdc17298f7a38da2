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

/* Helpers of the CLT core's matching tests (clt-correlate.c,
 * clt-pyramid.c, clt-fit.c): pictures moved by known motions, matches
 * read back, and the tiles to judge them by. */
#ifndef __CVTEST_CLT_MATCHING_H__
#define __CVTEST_CLT_MATCHING_H__

#include "cvtest.h"
#include "cvimage.h"
#include "cvclt.h"

G_BEGIN_DECLS

/* The forward transform of channel 0 of @a and the matches of its tiles
 * in @b (host memory, tiles_y x tiles_x). */
cvcore_clt_match *
clt_correlate_on (cvcore_device * dev, cvcore_stream * st, const TestImage * a,
    const TestImage * b, const cvcore_clt_corr_params * params);

/* A textured 16-bit picture. */
gdouble clt_texture_field (gdouble x, gdouble y);

/* A 16-bit picture with texture at every scale, as natural images have:
 * the coarse levels of a pyramid see it too. */
gdouble clt_natural_field (gdouble x, gdouble y);

/* @field moved by (@dx, @dy) where x < @split and by (@dx2, @dy2)
 * elsewhere, 16 bits. */
TestImage
clt_moved_image (cvcore_device * device, cvcore_stream * stream,
  gdouble (*field) (gdouble, gdouble), gint width, gint height, gint split,
    gdouble dx, gdouble dy, gdouble dx2, gdouble dy2);

/* Tiles whose 16x16 pixels lie inside [x0, x1) x [y0, height - y0) of
 * a frame, with y0 two pixels more than the motion (nearer to the edges
 * content comes in from outside): their largest error against the motion
 * (@dx, @dy). */
gdouble
clt_worst_error (const cvcore_clt_match * m, gint width, gint height, gint x0,
    gint x1, gdouble dx, gdouble dy, gdouble * min_confidence);

/* The share of the tiles that worst_error() looks at whose error is at
 * most @tolerance. */
gdouble
clt_share_within (const cvcore_clt_match * m, gint width, gint height, gint x0,
    gint x1, gdouble dx, gdouble dy, gdouble tolerance);

/* The matches of @a's tiles in @b (host memory) through a pyramid of
 * @levels reductions. */
cvcore_clt_match *clt_pyramid_correlate_on (cvcore_device * dev,
    cvcore_stream * st, const TestImage * a, const TestImage * b,
    const cvcore_clt_corr_params * params, gint levels);

/* Whether tile @t of a @width x @height frame and its content moved by
 * up to @motion pixels stay @margin pixels inside the frame. Near the
 * edges, where a tile holds the frame's mirror image too, its content
 * and the mirror's move apart, and two peaks of nearly the same height
 * make the choice between them one of rounding. */
gboolean clt_inner_tile (gint t, gint width, gint height, gdouble motion);

G_END_DECLS

#endif /* __CVTEST_CLT_MATCHING_H__ */
