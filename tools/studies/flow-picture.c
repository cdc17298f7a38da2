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

/* flow-picture: the picture of cudaphasecorr's vectors in docs/, and their
 * error on a natural image.
 *
 *   flow-picture IMAGE OUT.jpg
 *
 * The image's luma is turned by 1 degree and enlarged by 1 % about its
 * centre (Lanczos-3: bilinear resampling would shift high frequencies
 * less than low ones, and whitened correlation weighs them all), the
 * pair correlated tile by tile with cudaphasecorr's defaults, and the
 * vectors drawn as cudaphasecorr draw=true draws them (4 x their length,
 * tiles of at least cudaphasecorr's default min-confidence, 0.05) in
 * green on the turned frame, over the true motion of every tile in red:
 * where they agree only green shows.
 * Prints the error of the confident inner tiles against the true motion
 * at their centres. Runs on the backend that GST_CUDAVISION_BACKEND names
 * (cpu by default). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "cvclt.h"
#include "image-load.h"
#include "pictures.h"
#include "study-matching.h"

#define ANGLE (G_PI / 180.0)
#define ZOOM 1.01
/* cudaphasecorr's levels and min-confidence */
#define GST_CUDA_VISION_DEFAULT_LEVELS 4
#define GST_CUDA_VISION_DEFAULT_MIN_CONFIDENCE 0.05f

/* Where the content at (x, y) of the first frame is in the second. */
static void
moved (gdouble x, gdouble y, gint w, gint h, gdouble * mx, gdouble * my)
{
  const gdouble cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
  const gdouble dx = x - cx, dy = y - cy;

  *mx = cx + ZOOM * (cos (ANGLE) * dx - sin (ANGLE) * dy);
  *my = cy + ZOOM * (sin (ANGLE) * dx + cos (ANGLE) * dy);
}

int
main (int argc, char **argv)
{
  const gchar *name = g_getenv ("GST_CUDAVISION_BACKEND");
  const unsigned green[4] = { 0, 255, 0, 255 };
  const unsigned red[4] = { 255, 0, 0, 255 };
  cvcore_backend backend = CVCORE_BACKEND_CPU;
  cvcore_device *device;
  cvcore_stream *stream;
  cvcore_image a, b, out;
  cvcore_clt_corr_params params;
  cvcore_clt_match *matches, *dev_matches;
  guint8 *luma, *turned, *rgba;
  cvcore_clt_pyramid *pyramid;
  gint w, h, tiles_x, tiles_y, n = 0;
  gdouble sum = 0.0, worst = 0.0;

  gst_init (&argc, &argv);
  if (argc != 3 || (name && !cvcore_backend_from_string (name, &backend))) {
    fprintf (stderr, "usage: flow-picture IMAGE OUT.jpg\n");
    return 2;
  }
  if (!(luma = image_load_luma (argv[1], &w, &h)))
    return 1;
  tiles_x = cvcore_clt_tiles (w);
  tiles_y = cvcore_clt_tiles (h);
  /* the second frame: each pixel from where its content was */
  turned = g_new (guint8, w * h);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const gdouble cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
      const gdouble dx = (x - cx) / ZOOM, dy = (y - cy) / ZOOM;
      const gdouble sx = cx + cos (ANGLE) * dx + sin (ANGLE) * dy;
      const gdouble sy = cy - sin (ANGLE) * dx + cos (ANGLE) * dy;

      turned[y * w + x] = (guint8) CLAMP (floor (picture_resample (luma, w,
                  h, sx, sy) + 0.5), 0, 255);
    }

  study_check (cvcore_device_open (backend, 0, &device), "device");
  study_check (cvcore_stream_new (device, &stream), "stream");
  a = (cvcore_image) {
  NULL, 0, w, h, 1, CVCORE_SAMPLE_U8};
  b = a;
  out = (cvcore_image) {
  NULL, 0, w, h, 4, CVCORE_SAMPLE_U8};
  study_check (cvcore_plane_alloc (device, w, h, &a.data, &a.pitch), "alloc");
  study_check (cvcore_plane_alloc (device, w, h, &b.data, &b.pitch), "alloc");
  study_check (cvcore_plane_alloc (device, 4 * w, h, &out.data, &out.pitch),
      "alloc");
  study_check (cvcore_device_alloc (device,
          (gsize) tiles_x * tiles_y * sizeof (cvcore_clt_match),
          (void **) &dev_matches), "alloc");
  study_check (cvcore_copy_2d_async (stream, a.data, a.pitch, luma, w, w, h,
          CVCORE_COPY_HOST_TO_DEVICE), "upload");
  study_check (cvcore_copy_2d_async (stream, b.data, b.pitch, turned, w, w, h,
          CVCORE_COPY_HOST_TO_DEVICE), "upload");
  rgba = g_new (guint8, 4 * w * h);
  for (gint i = 0; i < w * h; i++) {
    memset (rgba + 4 * i, turned[i], 3);
    rgba[4 * i + 3] = 255;
  }
  study_check (cvcore_copy_2d_async (stream, out.data, out.pitch, rgba, 4 * w,
          4 * w, h, CVCORE_COPY_HOST_TO_DEVICE), "upload");

  cvcore_clt_corr_params_init (&params);
  matches = g_new (cvcore_clt_match, tiles_x * tiles_y);
  for (gint ty = 0; ty < tiles_y; ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      cvcore_clt_match *m = &matches[ty * tiles_x + tx];
      const gdouble x = cvcore_clt_tile_centre (tx), y =
          cvcore_clt_tile_centre (ty);
      gdouble mx, my;

      moved (x, y, w, h, &mx, &my);
      m->dx = (gfloat) (mx - x);
      m->dy = (gfloat) (my - y);
      m->confidence = 1.0f;
    }
  study_check (cvcore_copy_async (stream, dev_matches, matches,
          (gsize) tiles_x * tiles_y * sizeof (cvcore_clt_match),
          CVCORE_COPY_HOST_TO_DEVICE), "upload");
  study_check (cvcore_clt_draw_matches (stream, &out, dev_matches, 4.0, 0.0,
          red), "draw");
  study_check (cvcore_clt_pyramid_new (device, w, h,
          GST_CUDA_VISION_DEFAULT_LEVELS, &pyramid), "pyramid");
  study_check (cvcore_clt_pyramid_build (stream, pyramid, 0, &a, 0), "pyramid");
  study_check (cvcore_clt_pyramid_build (stream, pyramid, 1, &b, 0), "pyramid");
  study_check (cvcore_clt_pyramid_correlate (stream, pyramid, 0, 1, &b, 0,
          &params, dev_matches), "correlate");
  study_check (cvcore_clt_draw_matches (stream, &out, dev_matches, 4.0,
          GST_CUDA_VISION_DEFAULT_MIN_CONFIDENCE, green), "draw");
  study_check (cvcore_copy_async (stream, matches, dev_matches,
          (gsize) tiles_x * tiles_y * sizeof (cvcore_clt_match),
          CVCORE_COPY_DEVICE_TO_HOST), "download");
  study_check (cvcore_copy_2d_async (stream, rgba, 4 * w, out.data, out.pitch,
          4 * w, h, CVCORE_COPY_DEVICE_TO_HOST), "download");
  study_check (cvcore_stream_synchronize (stream), "synchronize");

  printf ("%dx%d, %s backend, error of the inner tiles against the true "
      "motion:\n", w, h, cvcore_backend_name (backend));
  for (gint k = 0; k < 4; k++) {
    const gdouble least = (gdouble[]){
      0.02, 0.05, 0.1, 0.2
    }[k];
    gdouble *errors = g_new (gdouble, tiles_x * tiles_y);

    n = 0;
    sum = worst = 0.0;
    for (gint ty = 2; ty < tiles_y - 2; ty++)
      for (gint tx = 2; tx < tiles_x - 2; tx++) {
        const cvcore_clt_match *m = &matches[ty * tiles_x + tx];
        const gdouble x = cvcore_clt_tile_centre (tx), y =
            cvcore_clt_tile_centre (ty);
        gdouble mx, my, e;

        if (m->confidence < least)
          continue;
        moved (x, y, w, h, &mx, &my);
        e = hypot (m->dx - (mx - x), m->dy - (my - y));
        sum += e;
        worst = MAX (worst, e);
        errors[n++] = e;
      }
    qsort (errors, n, sizeof (gdouble), study_compare_doubles);
    printf ("  confidence >= %.2f: %d of %d tiles, mean %.3f px, median "
        "%.3f px, 90th percentile %.3f px, worst %.3f px\n", least, n,
        (tiles_x - 4) * (tiles_y - 4), n ? sum / n : 0.0,
        n ? errors[n / 2] : 0.0, n ? errors[n * 9 / 10] : 0.0, worst);
    g_free (errors);
  }
  if (!image_save_jpeg (rgba, w, h, "RGBA", argv[2]))
    return 1;
  return 0;
}
