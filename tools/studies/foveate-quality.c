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

/* foveate-quality: how close block-wise foveation comes to per-pixel
 * ("perfect") foveation, by SSIM.
 *
 *   foveate-quality [--strength S] [--fixation X,Y] [--maps DIR] image...
 *
 * Each image is decoded to 8-bit luma, foveated (the CPU reference, which
 * the CUDA kernels match within one unit) block-wise at fragment sizes 8,
 * 16 and 32 and in smooth mode, each rendered directly and through the
 * blur stack, and per pixel with every pixel's own sigma; the SSIM
 * map between the two (11x11 Gaussian window, sigma 1.5, the usual
 * constants) is summarised as its mean, the mean of its worst 32x32
 * region and the share of pixels at or above 0.99.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include "cvfoveate.h"
#include "image-load.h"

#define REGION 32

static gdouble strength = 1.0;
static gchar *fixation = NULL;
static gchar *maps_dir = NULL;

/* The SSIM map as a grey picture, 0.9 and below black, 1.0 white. */
static void
save_map (const gdouble * map, gint w, gint h, const gchar * name,
    const gchar * rendering)
{
  guint8 *grey = g_malloc ((gsize) w * h);
  gchar *file = g_strdup_printf ("ssim-%s-%s.jpg", name, rendering);
  gchar *path = g_build_filename (maps_dir, file, NULL);

  for (gsize i = 0; i < (gsize) w * h; i++)
    grey[i] = (guint8) (255.0 * CLAMP ((map[i] - 0.9) / 0.1, 0.0, 1.0) + 0.5);
  for (gchar * c = path + strlen (maps_dir); *c; c++)
    if (*c == ' ')
      *c = '-';
  if (image_save_jpeg (grey, w, h, "GRAY8", path))
    g_printerr ("wrote %s\n", path);
  g_free (path);
  g_free (file);
  g_free (grey);
}

/* @in blurred with the 11-tap Gaussian of sigma 1.5 along x then y, edges
 * clamped, into @out. */
static void
ssim_window (const gdouble * in, gdouble * out, gdouble * tmp, gint w, gint h)
{
  gdouble g[11], sum = 0.0;

  for (gint i = 0; i < 11; i++)
    sum += g[i] = exp (-(i - 5) * (i - 5) / (2.0 * 1.5 * 1.5));
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      gdouble acc = 0.0;

      for (gint i = 0; i < 11; i++)
        acc += g[i] * in[y * w + CLAMP (x + i - 5, 0, w - 1)];
      tmp[y * w + x] = acc / sum;
    }
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      gdouble acc = 0.0;

      for (gint i = 0; i < 11; i++)
        acc += g[i] * tmp[CLAMP (y + i - 5, 0, h - 1) * w + x];
      out[y * w + x] = acc / sum;
    }
}

/* The SSIM map of @a against @b into @map. */
static void
ssim_map (const guint8 * a, const guint8 * b, gint w, gint h, gdouble * map)
{
  const gsize n = (gsize) w * h;
  const gdouble c1 = pow (0.01 * 255, 2), c2 = pow (0.03 * 255, 2);
  gdouble *in = g_new (gdouble, n), *tmp = g_new (gdouble, n);
  gdouble *mu_a = g_new (gdouble, n), *mu_b = g_new (gdouble, n);
  gdouble *aa = g_new (gdouble, n), *bb = g_new (gdouble, n);
  gdouble *ab = g_new (gdouble, n);

  for (gsize i = 0; i < n; i++)
    in[i] = a[i];
  ssim_window (in, mu_a, tmp, w, h);
  for (gsize i = 0; i < n; i++)
    in[i] = b[i];
  ssim_window (in, mu_b, tmp, w, h);
  for (gsize i = 0; i < n; i++)
    in[i] = (gdouble) a[i] * a[i];
  ssim_window (in, aa, tmp, w, h);
  for (gsize i = 0; i < n; i++)
    in[i] = (gdouble) b[i] * b[i];
  ssim_window (in, bb, tmp, w, h);
  for (gsize i = 0; i < n; i++)
    in[i] = (gdouble) a[i] * b[i];
  ssim_window (in, ab, tmp, w, h);
  for (gsize i = 0; i < n; i++) {
    const gdouble va = aa[i] - mu_a[i] * mu_a[i];
    const gdouble vb = bb[i] - mu_b[i] * mu_b[i];
    const gdouble cov = ab[i] - mu_a[i] * mu_b[i];

    map[i] = (2 * mu_a[i] * mu_b[i] + c1) * (2 * cov + c2) /
        ((mu_a[i] * mu_a[i] + mu_b[i] * mu_b[i] + c1) * (va + vb + c2));
  }
  g_free (in);
  g_free (tmp);
  g_free (mu_a);
  g_free (mu_b);
  g_free (aa);
  g_free (bb);
  g_free (ab);
}

/* Mean, worst REGION x REGION mean and share >= 0.99 of @map. */
static void
summarise (const gdouble * map, gint w, gint h, gdouble * mean,
    gdouble * worst, gdouble * share)
{
  gsize good = 0;
  gdouble total = 0.0;

  *worst = 1.0;
  for (gint ry = 0; ry < h; ry += REGION)
    for (gint rx = 0; rx < w; rx += REGION) {
      gdouble sum = 0.0;
      gint count = 0;

      for (gint y = ry; y < MIN (ry + REGION, h); y++)
        for (gint x = rx; x < MIN (rx + REGION, w); x++, count++)
          sum += map[y * w + x];
      *worst = MIN (*worst, sum / count);
    }
  for (gsize i = 0; i < (gsize) w * h; i++) {
    total += map[i];
    good += map[i] >= 0.99;
  }
  *mean = total / ((gsize) w * h);
  *share = (gdouble) good / ((gsize) w * h);
}

static gboolean
evaluate (cvcore_stream * stream, const gchar * path, gdouble fx, gdouble fy)
{
  cvcore_foveate_model model;
  cvcore_image src = { 0 }, block = { 0 }, perfect = { 0 };
  gint w, h;
  guint8 *luma = image_load_luma (path, &w, &h);
  gdouble *map;
  const gchar *name = strrchr (path, '/') ? strrchr (path, '/') + 1 : path;
  gboolean ok = TRUE;

  if (!luma)
    return FALSE;
  cvcore_foveate_model_init (&model);
  model.strength = strength;
  src.data = luma;
  src.pitch = w;
  src.width = w;
  src.height = h;
  src.channels = 1;
  src.sample = CVCORE_SAMPLE_U8;
  block = perfect = src;
  block.data = g_malloc ((gsize) w * h);
  perfect.data = g_malloc ((gsize) w * h);
  map = g_new (gdouble, (gsize) w * h);
  if (cvcore_foveate_perfect (&model, &src, &perfect, 1, fx, fy) != CVCORE_OK) {
    g_printerr ("%s: %s\n", path, cvcore_last_error ());
    ok = FALSE;
  }
  /* block-wise at 8, 16 and 32, then smooth (32-pixel fragments); each
   * directly, then through the stack */
  for (gint n = 0; n < 8 && ok; n++) {
    const gint run = n % 4;
    const gboolean stacked = n >= 4;
    const gint fragment = run < 3 ? 8 << run : 32;
    cvcore_foveate_plan *plan = g_new (cvcore_foveate_plan, 1);
    gdouble mean, worst, share;

    if (cvcore_foveate_plan_init (plan, &model, w, h, fragment, fx,
            fy) != CVCORE_OK) {
      g_printerr ("%s: %s\n", path, cvcore_last_error ());
      g_free (plan);
      ok = FALSE;
      break;
    }
    plan->smooth = run == 3;
    plan->render = stacked ? CVCORE_FOVEATE_RENDER_STACK :
        CVCORE_FOVEATE_RENDER_DIRECT;
    if (cvcore_foveate (stream, &src, &block, 1, plan) != CVCORE_OK) {
      g_printerr ("%s: %s\n", path, cvcore_last_error ());
      g_free (plan);
      ok = FALSE;
      break;
    }
    ssim_map (block.data, perfect.data, w, h, map);
    summarise (map, w, h, &mean, &worst, &share);
    if (maps_dir && (run == 2 || run == 3))
      save_map (map, w, h, name, (const gchar *[]) {
          "block 32", "smooth", "stack block 32", "stack smooth"
          }
        [2 * stacked + (run == 3)]);
    printf ("| %s | %dx%d | %g | %s %s | %d | %.4f | %.4f | %.1f %% |\n",
        name, w, h, strength, stacked ? "stack" : "direct", (const gchar *[]) {
          "block 8", "block 16", "block 32", "smooth"
        }[run],
        stacked ? plan->stack.n_levels : plan->n_filters - 1, mean, worst,
        100.0 * share);
    fflush (stdout);
    g_free (plan);
  }
  g_free (map);
  g_free (block.data);
  g_free (perfect.data);
  g_free (luma);
  return ok;
}

/* --strength within cudafoveate's range and --fixation inside the frame,
 * where the per-pixel reference takes seconds; FALSE after saying what is
 * wrong. */
static gboolean
check_arguments (gdouble * fx, gdouble * fy)
{
  gint used = 0;

  if (!(strength >= 0.05 && strength <= 10.0)) {
    g_printerr ("foveate-quality: --strength must be 0.05 to 10 (got %g)\n",
        strength);
    return FALSE;
  }
  if (fixation && (sscanf (fixation, "%lf,%lf%n", fx, fy, &used) != 2
          || fixation[used] || !(*fx >= 0.0 && *fx <= 1.0)
          || !(*fy >= 0.0 && *fy <= 1.0))) {
    g_printerr ("foveate-quality: --fixation must be X,Y, each 0 to 1 "
        "(got '%s')\n", fixation);
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"strength", 's', 0, G_OPTION_ARG_DOUBLE, &strength,
        "Sigma multiplier (default 1)", "S"},
    {"fixation", 'f', 0, G_OPTION_ARG_STRING, &fixation,
          "Fixation as fractions of width and height (default 0.5,0.5)",
        "X,Y"},
    {"maps", 'm', 0, G_OPTION_ARG_STRING, &maps_dir,
        "Also write the SSIM maps of block-wise (32) and smooth rendering, "
          "direct and stacked, to DIR as ssim-IMAGE-RENDERING.jpg", "DIR"},
    {NULL}
  };
  GOptionContext *options = g_option_context_new ("image...");
  GError *error = NULL;
  cvcore_device *device;
  cvcore_stream *stream;
  gdouble fx = 0.5, fy = 0.5;
  gint status = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &error) || argc < 2
      || !check_arguments (&fx, &fy)) {
    g_printerr ("usage: foveate-quality [--strength S] [--fixation X,Y] "
        "[--maps DIR] image...\n");
    g_clear_error (&error);
    g_option_context_free (options);
    g_free (fixation);
    g_free (maps_dir);
    return 2;
  }
  g_option_context_free (options);
  if (cvcore_device_open (CVCORE_BACKEND_CPU, 0, &device) != CVCORE_OK
      || cvcore_stream_new (device, &stream) != CVCORE_OK) {
    g_printerr ("foveate-quality: %s\n", cvcore_last_error ());
    g_free (fixation);
    g_free (maps_dir);
    return 1;
  }
  printf ("| image | size | strength | rendering | filters or levels | "
      "mean SSIM | "
      "worst %dx%d region | pixels >= 0.99 |\n|---|---|---|---|---|---|---|"
      "---|\n", REGION, REGION);
  for (gint i = 1; i < argc; i++)
    if (!evaluate (stream, argv[i], fx, fy))
      status = 1;
  cvcore_stream_free (stream);
  cvcore_device_close (device);
  g_free (fixation);
  g_free (maps_dir);
  return status;
}
