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

/* gabor-response: the complex Gabor response of an image's luma, for
 * checking the filter against other implementations
 * (tools/studies/gabor-opencv-check.py).
 *
 *   gabor-response IMAGE SIGMA WAVELENGTH DEGREES recursive|fir OUT
 *
 * Runs cvcore_gabor() on the backend GST_CUDAVISION_BACKEND names (default
 * cuda) with luma scaled to 0..1, one orientation, and writes the
 * DC-compensated response (the filter's response to a flat image, times
 * the same method's Gaussian of the image, subtracted) to OUT as width x
 * height pairs of little-endian float32 (real, imaginary); prints
 * "WIDTH HEIGHT".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvgabor.h"
#include "image-load.h"

static void
check (cvcore_status status, const gchar * what)
{
  if (status != CVCORE_OK) {
    g_printerr ("gabor-response: %s: %s\n", what, cvcore_last_error ());
    exit (1);
  }
}

int
main (int argc, char **argv)
{
  const gchar *backend_name = g_getenv ("GST_CUDAVISION_BACKEND");
  cvcore_backend backend = CVCORE_BACKEND_CUDA;
  cvcore_gabor_params params;
  cvcore_device *device;
  cvcore_stream *stream;
  cvcore_gabor_scratch *scratch;
  cvcore_image src, dst;
  guint8 *luma;
  gfloat *response;
  gint w, h;
  FILE *out;

  gst_init (&argc, &argv);
  if (argc != 7 || (strcmp (argv[5], "recursive") != 0
          && strcmp (argv[5], "fir") != 0)) {
    g_printerr ("usage: gabor-response IMAGE SIGMA WAVELENGTH DEGREES "
        "recursive|fir OUT\n");
    return 2;
  }
  if (backend_name && !cvcore_backend_from_string (backend_name, &backend)) {
    g_printerr ("gabor-response: unknown backend '%s'\n", backend_name);
    return 2;
  }
  luma = image_load_luma (argv[1], &w, &h);
  if (luma == NULL)
    return 1;
  cvcore_gabor_params_init (&params);
  params.sigma = g_ascii_strtod (argv[2], NULL);
  params.wavelength = g_ascii_strtod (argv[3], NULL);
  params.orientation = g_ascii_strtod (argv[4], NULL);
  params.method = strcmp (argv[5], "fir") == 0 ? CVCORE_GABOR_FIR :
      CVCORE_GABOR_RECURSIVE;

  check (cvcore_device_open (backend, 0, &device), "device");
  check (cvcore_stream_new (device, &stream), "stream");
  check (cvcore_gabor_scratch_new (device, w, h, 1, &scratch), "scratch");
  src = (cvcore_image) {
  NULL, 0, w, h, 1, CVCORE_SAMPLE_U8};
  dst = src;
  check (cvcore_plane_alloc (device, w, h, &src.data, &src.pitch), "plane");
  check (cvcore_plane_alloc (device, w, h, &dst.data, &dst.pitch), "plane");
  check (cvcore_copy_2d_async (stream, src.data, src.pitch, luma, w, w, h,
          CVCORE_COPY_HOST_TO_DEVICE), "upload");
  check (cvcore_gabor (stream, scratch, &src, &dst, &params), "filter");
  response = g_new (gfloat, 2 * (gsize) w * h);
  check (cvcore_gabor_response (scratch, stream, 0, response), "response");

  out = fopen (argv[6], "wb");
  if (out == NULL || fwrite (response, sizeof (gfloat), 2 * (gsize) w * h,
          out) != 2 * (gsize) w * h) {
    g_printerr ("gabor-response: cannot write %s\n", argv[6]);
    return 1;
  }
  fclose (out);
  g_print ("%d %d\n", w, h);
  cvcore_device_free (device, src.data);
  cvcore_device_free (device, dst.data);
  cvcore_gabor_scratch_free (scratch);
  cvcore_stream_free (stream);
  cvcore_device_close (device);
  g_free (response);
  g_free (luma);
  return 0;
}
