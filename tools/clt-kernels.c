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

/* cudavision-clt-kernels: makes a kernel set for `cudaclt
 * operation=deconvolve` (the file format is in core/clt/cvclt.h).
 *
 *   cudavision-clt-kernels --width 1920 --height 1080 --gaussian 1.2,2.0 \
 *       --output lens.kernels
 *   cudavision-clt-kernels --width 640 --height 480 --psf psf.txt \
 *       --output psf.kernels
 *
 * Each node's kernel is the regularised inverse of a point-spread
 * function: either a Gaussian blur model whose sigma grows from the
 * centre of the frame to its corners (the usual lens), optionally
 * scaled per colour, or a measured PSF read from a text file (rows of
 * numbers, square, odd or even size), the same everywhere. --blur stores
 * the blur itself instead, to simulate it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "cvclt.h"
#include "pictures.h"

static gint width, height, stride = 8, channels = 1;
static gchar *gaussian, *psf_path, *output, *colour_scales;
static gdouble noise = 1e-3;
static gboolean blur;

static GOptionEntry entries[] = {
  {"width", 0, 0, G_OPTION_ARG_INT, &width, "Frame width", "W"},
  {"height", 0, 0, G_OPTION_ARG_INT, &height, "Frame height", "H"},
  {"stride", 0, 0, G_OPTION_ARG_INT, &stride,
      "Tiles from one node to the next (8 pixels each; default 8)", "S"},
  {"gaussian", 0, 0, G_OPTION_ARG_STRING, &gaussian,
        "Gaussian blur, sigma at the centre[,at the corners] in pixels",
      "S0[,S1]"},
  {"colour-scales", 0, 0, G_OPTION_ARG_STRING, &colour_scales,
        "Three channels (R, G, B) whose Gaussian sigmas are scaled by these",
      "R,G,B"},
  {"psf", 0, 0, G_OPTION_ARG_FILENAME, &psf_path,
      "Text file of a measured point-spread function", "FILE"},
  {"noise", 0, 0, G_OPTION_ARG_DOUBLE, &noise,
      "Regulariser of the inverse (default 0.001; 0 inverts exactly)", "N"},
  {"blur", 0, 0, G_OPTION_ARG_NONE, &blur,
      "Store the blur itself, not its inverse", NULL},
  {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Kernel set to write",
      "FILE"},
  {NULL}
};

/* The largest blur modelled: the kernels cover a 16-pixel tile, and a
 * Gaussian wider than this is a flat response there. */
#define MAX_SIGMA 32.0
/* The largest PSF file read: 64x64 numbers with room for their digits. */
#define MAX_PSF_BYTES (1 << 20)

/* Parses @text as 1 to @max comma-separated finite numbers, each above 0,
 * into @values; the count, or 0 when anything else is there. */
static gint
parse_positive_list (const gchar * text, gdouble * values, gint max)
{
  gchar **parts = g_strsplit (text, ",", -1);
  gint n = (gint) g_strv_length (parts);

  if (n > max)
    n = 0;
  for (gint i = 0; i < n; i++) {
    gchar *end;

    values[i] = g_ascii_strtod (parts[i], &end);
    if (end == parts[i] || *end || !isfinite (values[i]) || !(values[i] > 0.0))
      n = 0;
  }
  g_strfreev (parts);
  return n;
}

/* A square PSF from @path into @size and a new array: a regular file of
 * at most MAX_PSF_BYTES, of a positive finite sum. */
static gdouble *
read_psf (const gchar * path, gint * size)
{
  gchar *text = NULL, **tokens;
  GPtrArray *values = g_ptr_array_new ();
  gdouble *psf = NULL, sum = 0.0;
  GError *error = NULL;
  GStatBuf st;
  guint n;

  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode)
      || st.st_size > MAX_PSF_BYTES) {
    fprintf (stderr, "cudavision-clt-kernels: %s is not a readable file of "
        "at most %d bytes\n", path, MAX_PSF_BYTES);
    g_ptr_array_free (values, TRUE);
    return NULL;
  }
  if (!g_file_get_contents (path, &text, NULL, &error)) {
    fprintf (stderr, "cudavision-clt-kernels: %s\n", error->message);
    g_error_free (error);
    g_ptr_array_free (values, TRUE);
    return NULL;
  }
  tokens = g_strsplit_set (text, " \t\r\n,;", -1);
  for (gchar ** t = tokens; *t; t++)
    if (**t)
      g_ptr_array_add (values, *t);
  n = values->len;
  *size = (gint) lround (sqrt (n));
  if (n == 0 || (guint) (*size * *size) != n || *size > 64) {
    fprintf (stderr, "cudavision-clt-kernels: %s holds %u numbers, not a "
        "square of at most 64x64\n", path, n);
  } else {
    psf = g_new (gdouble, n);
    for (guint i = 0; i < n; i++) {
      gchar *end;

      psf[i] = g_ascii_strtod (g_ptr_array_index (values, i), &end);
      if (*end || !isfinite (psf[i])) {
        fprintf (stderr, "cudavision-clt-kernels: %s: '%s' is not a number\n",
            path, (gchar *) g_ptr_array_index (values, i));
        g_clear_pointer (&psf, g_free);
        break;
      }
      sum += psf[i];
    }
    if (psf && !(sum > 0.0 && isfinite (sum))) {
      fprintf (stderr, "cudavision-clt-kernels: %s: the PSF's sum is %g, "
          "not above 0\n", path, sum);
      g_clear_pointer (&psf, g_free);
    }
  }
  g_ptr_array_free (values, TRUE);
  g_strfreev (tokens);
  g_free (text);
  return psf;
}

/* Fills @set's nodes from the measured PSF, or else from the Gaussian
 * model of @sigma (centre, corners) scaled per channel by @scale. */
static void
fill_kernel_set (cvcore_clt_kernel_set * set, const gdouble * measured,
    gint measured_size, const gdouble * sigma, const gdouble * scale)
{
  for (gint c = 0; c < set->channels; c++)
    for (gint ny = 0; ny < set->nodes_y; ny++)
      for (gint nx = 0; nx < set->nodes_x; nx++) {
        gfloat *node = cvcore_clt_kernel_set_node (set, c, nx, ny);

        if (measured) {
          cvcore_clt_response_from_psf (measured, measured_size, noise,
              !blur, node);
        } else {
          /* the node's distance from the centre, 0 .. 1 at the corners */
          const gdouble x = nx * stride * 8.0 - 8.0, y = ny * stride * 8.0
              - 8.0;
          const gdouble r = MIN (1.0, hypot (x - width / 2.0,
                  y - height / 2.0) / hypot (width / 2.0, height / 2.0));
          const gdouble s = scale[c] * (sigma[0] + (sigma[1] - sigma[0]) * r);
          const gint size = 2 * (gint) ceil (3.0 * s) + 1;
          gdouble *psf = g_new (gdouble, size * size);

          picture_gaussian_psf (s, size, psf);
          cvcore_clt_response_from_psf (psf, size, noise, !blur, node);
          g_free (psf);
        }
      }
}

/* Whether every value of @set is a finite number. */
static gboolean
kernel_set_is_finite (const cvcore_clt_kernel_set * set)
{
  const gsize n = (gsize) set->channels * set->nodes_y * set->nodes_x * 256;

  for (gsize i = 0; i < n; i++)
    if (!isfinite (set->data[i]))
      return FALSE;
  return TRUE;
}

/* The checks of the arguments; FALSE after saying what is wrong. */
static gboolean
check_arguments (gdouble * sigma, gdouble * scale)
{
  gint n;

  if (width < 1 || height < 1 || output == NULL || (!gaussian == !psf_path)) {
    fprintf (stderr, "cudavision-clt-kernels: give --width, --height, "
        "--output and one of --gaussian, --psf (see --help)\n");
    return FALSE;
  }
  if (width > 65536 || height > 65536) {
    fprintf (stderr, "cudavision-clt-kernels: --width and --height must be "
        "1 to 65536 (got %dx%d)\n", width, height);
    return FALSE;
  }
  if (stride < 1 || stride > 4096) {
    fprintf (stderr, "cudavision-clt-kernels: --stride must be 1 to 4096 "
        "tiles (got %d)\n", stride);
    return FALSE;
  }
  if (!isfinite (noise) || noise < 0.0) {
    fprintf (stderr, "cudavision-clt-kernels: --noise must be a finite "
        "number of 0 or more (got %g)\n", noise);
    return FALSE;
  }
  if (colour_scales) {
    if (parse_positive_list (colour_scales, scale, 3) != 3) {
      fprintf (stderr, "cudavision-clt-kernels: bad --colour-scales '%s': "
          "three numbers above 0\n", colour_scales);
      return FALSE;
    }
    channels = 3;
  }
  if (gaussian) {
    n = parse_positive_list (gaussian, sigma, 2);
    if (n == 1)
      sigma[1] = sigma[0];
    for (gint c = 0; c < channels && n > 0; c++)
      if (MAX (sigma[0], sigma[1]) * scale[c] > MAX_SIGMA)
        n = 0;
    if (n == 0) {
      fprintf (stderr, "cudavision-clt-kernels: bad --gaussian '%s': one or "
          "two sigmas above 0, at most %g pixels with the colour scales\n",
          gaussian, MAX_SIGMA);
      return FALSE;
    }
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionContext *context = g_option_context_new ("- make a CLT kernel set");
  GError *error = NULL;
  gdouble sigma[2] = { 0.0, 0.0 }, scale[3] = { 1.0, 1.0, 1.0 };
  cvcore_clt_kernel_set *set = NULL;
  gdouble *measured = NULL;
  gint measured_size = 0, status = 2;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error)) {
    fprintf (stderr, "cudavision-clt-kernels: %s\n", error->message);
    g_error_free (error);
    goto done;
  }
  if (!check_arguments (sigma, scale))
    goto done;
  status = 1;
  if (psf_path && !(measured = read_psf (psf_path, &measured_size)))
    goto done;
  if (cvcore_clt_kernel_set_new (width, height, stride, channels, &set)
      != CVCORE_OK) {
    fprintf (stderr, "cudavision-clt-kernels: %s\n", cvcore_last_error ());
    status = 2;
    goto done;
  }
  fill_kernel_set (set, measured, measured_size, sigma, scale);
  if (!kernel_set_is_finite (set)) {
    fprintf (stderr, "cudavision-clt-kernels: the PSF has frequencies of "
        "no response, which --noise 0 cannot invert: give a --noise above "
        "0\n");
    goto done;
  }
  if (cvcore_clt_kernel_set_save (set, output) != CVCORE_OK) {
    fprintf (stderr, "cudavision-clt-kernels: %s\n", cvcore_last_error ());
    goto done;
  }
  printf ("%s: %d x %d nodes of %d channel(s) for %dx%d frames\n", output,
      set->nodes_x, set->nodes_y, channels, width, height);
  status = 0;
done:
  if (set)
    cvcore_clt_kernel_set_free (set);
  g_free (measured);
  g_free (gaussian);
  g_free (psf_path);
  g_free (output);
  g_free (colour_scales);
  g_option_context_free (context);
  return status;
}
