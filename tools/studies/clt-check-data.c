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

/* clt-check-data: writes what tools/studies/clt-scipy-check.py compares with
 * scipy and scikit-image, computed by the core on the backend that
 * GST_CUDAVISION_BACKEND names (cuda by default):
 *
 *   clt-check-data DIR
 *
 * DIR/frames.u16: two 16-bit frames of 199x131, a textured picture and
 *   the same moved by (1.37, -0.61) pixels (sampled, not resampled);
 * DIR/forward.f32: the forward transform of the first frame
 *   (tiles_y x tiles_x x [layer][l][k] floats);
 * DIR/matches.f32: the phase correlation's matches, tiles_y x tiles_x x
 *   (dx, dy, confidence). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "cvclt.h"
#include "pictures.h"

#define W 199
#define H 131
#define DX 1.37
#define DY -0.61

static gdouble
texture (gdouble x, gdouble y)
{
  return 32768.0 + 600.0 * picture_texture (x, y);
}

static void
check (cvcore_status status, const gchar * what)
{
  if (status != CVCORE_OK) {
    fprintf (stderr, "clt-check-data: %s: %s\n", what, cvcore_last_error ());
    exit (1);
  }
}

static void
write_file (const gchar * dir, const gchar * name, gconstpointer data,
    gsize size)
{
  gchar *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  if (!g_file_set_contents (path, data, size, &error)) {
    fprintf (stderr, "clt-check-data: %s\n", error->message);
    exit (1);
  }
  g_free (path);
}

int
main (int argc, char **argv)
{
  const gchar *name = g_getenv ("GST_CUDAVISION_BACKEND");
  const gsize tiles = (gsize) cvcore_clt_tiles (W) * cvcore_clt_tiles (H);
  cvcore_backend backend = CVCORE_BACKEND_CUDA;
  guint16 *frames = g_new (guint16, 2 * W * H);
  gfloat *forward = g_new (gfloat, tiles * CVCORE_CLT_COEFFICIENTS);
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles);
  cvcore_device *device;
  cvcore_stream *stream;
  cvcore_image a, b;
  cvcore_clt_corr_params params;
  gfloat *dev_forward;
  cvcore_clt_match *dev_matches;

  if (argc != 2 || (name && !cvcore_backend_from_string (name, &backend))) {
    fprintf (stderr, "usage: clt-check-data DIR\n");
    return 2;
  }
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++) {
      frames[y * W + x] = (guint16) lround (texture (x, y));
      frames[W * H + y * W + x] = (guint16) lround (texture (x - DX, y - DY));
    }
  check (cvcore_device_open (backend, 0, &device), "device");
  check (cvcore_stream_new (device, &stream), "stream");
  a = (cvcore_image) {
  NULL, 0, W, H, 1, CVCORE_SAMPLE_U16};
  b = a;
  check (cvcore_plane_alloc (device, 2 * W, H, &a.data, &a.pitch), "alloc");
  check (cvcore_plane_alloc (device, 2 * W, H, &b.data, &b.pitch), "alloc");
  check (cvcore_copy_2d_async (stream, a.data, a.pitch, frames, 2 * W, 2 * W,
          H, CVCORE_COPY_HOST_TO_DEVICE), "upload");
  check (cvcore_copy_2d_async (stream, b.data, b.pitch, frames + W * H,
          2 * W, 2 * W, H, CVCORE_COPY_HOST_TO_DEVICE), "upload");
  check (cvcore_device_alloc (device, tiles * CVCORE_CLT_COEFFICIENTS *
          sizeof (gfloat), (void **) &dev_forward), "alloc");
  check (cvcore_device_alloc (device, tiles * sizeof (cvcore_clt_match),
          (void **) &dev_matches), "alloc");
  cvcore_clt_corr_params_init (&params);
  params.full_scale = 65535.0;
  check (cvcore_clt_forward (stream, &a, 0, 0, 0, dev_forward), "forward");
  check (cvcore_clt_correlate (stream, dev_forward, &b, 0, &params,
          dev_matches), "correlate");
  check (cvcore_copy_async (stream, forward, dev_forward, tiles *
          CVCORE_CLT_COEFFICIENTS * sizeof (gfloat),
          CVCORE_COPY_DEVICE_TO_HOST), "download");
  check (cvcore_copy_async (stream, matches, dev_matches, tiles *
          sizeof (cvcore_clt_match), CVCORE_COPY_DEVICE_TO_HOST), "download");
  check (cvcore_stream_synchronize (stream), "synchronize");
  write_file (argv[1], "frames.u16", frames, 2 * W * H * sizeof (guint16));
  write_file (argv[1], "forward.f32", forward, tiles *
      CVCORE_CLT_COEFFICIENTS * sizeof (gfloat));
  write_file (argv[1], "matches.f32", matches, tiles *
      sizeof (cvcore_clt_match));
  printf ("%s backend: %zu tiles written to %s\n",
      cvcore_backend_name (backend), tiles, argv[1]);
  cvcore_device_free (device, a.data);
  cvcore_device_free (device, b.data);
  cvcore_device_free (device, dev_forward);
  cvcore_device_free (device, dev_matches);
  cvcore_stream_free (stream);
  cvcore_device_close (device);
  g_free (frames);
  g_free (forward);
  g_free (matches);
  return 0;
}
