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

/* rig-quality: how well cudaphasecorr's rig mode finds known depth in
 * views of a camera rig rendered from photographs, against the pairs of
 * the same rig.
 *
 *   rig-quality [--size WxH] [--levels N] [--refinements N]
 *               [--converge P] [--fit-radius R] [--fat-zero F] [--lowpass S]
 *               [--min-confidence C] [--noise S] [--case N]
 *               [--mosaic green|luma] image...
 *
 * The rig is the seed's square quad: cameras at (0,0), (1,0), (0,1) and
 * (1,1) baselines, with every pair or its four sides alone. Each image's luma, scaled to the size (default
 * 640x480), is a scene seen by camera 0; a case gives its disparity D
 * (pixels per unit baseline) at every point of view 0, and view v shows
 * the point of view 0 at p where p - D (p) (c_v - c_0) falls on its
 * pixel, made as a sensor makes it (the mean of 4 x 4 points over the
 * pixel's area, Lanczos-3 from the photograph). Cases:
 *
 *  - planes at disparity 0.7, 3.3 and 9.4;
 *  - a ramp from 0 at the top to 12 at the bottom;
 *  - an occluding edge: the right half at 6 in front of the left at 2;
 *  - a plane at 3.3 with noise (sigma 2 levels, or --noise) and
 *    per-camera gains of 0.9 to 1.1;
 *  - a texture that repeats along the horizontal baseline: the
 *    photograph's columns repeated every 6 pixels, at disparity 2.
 *
 * Tiles count where their content stays 2 pixels inside every view, and
 * are textured where view 0's tile varies by at least 4 levels. For the
 * quad (both ways) and for each pair with camera 0 (horizontal, vertical, diagonal)
 * it prints the share of textured tiles kept (confidence of at least
 * cudaphasecorr's default 0.05) and, over the kept ones, the median and
 * 95th percentile of the disparity's error, and the share of all textured
 * tiles within 0.5 of the truth whatever their confidence. Runs on the
 * backend GST_CUDAVISION_BACKEND names (cpu by default).
 *
 * It first prints how far the quad can gain on each pair where every view
 * carries its own noise (print_bounds()), and last, for each case, the
 * quad's 95th percentile over its best pair's.
 *
 * With --mosaic each view is rendered in colour and seen through an RGGB
 * mosaic (each site its colour, noise per site), then cudaclt's sparse
 * method makes the grey picture the rig matches (`mosaic-grey`: the
 * green, or the luma); the tiles counted are those of the grey render. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "cvclt.h"
#include "image-load.h"
#include "pictures.h"
#include "study-matching.h"

#define CASES 7
#define VIEWS 4
#define TEXTURED 4.0

static gint levels = 4;
/* the core's defaults, as the options leave them */
static cvcore_clt_corr_params correlation;
static gdouble min_confidence = 0.05;
static gdouble noise = 2.0;
static gchar *size = NULL;
/* G_MININT: every case */
static gint only_case = G_MININT;
static gchar *mosaic = NULL;
static cvcore_clt_grey mosaic_grey = CVCORE_CLT_GREY_NONE;

typedef enum
{
  PLANE, RAMP, EDGE, PERIODIC
} SceneKind;

typedef struct
{
  const gchar *name;
  SceneKind kind;
  gdouble d;                    /* a plane's disparity */
  gboolean noisy;
} RigCase;

static const RigCase cases[CASES] = {
  {"plane at 0.7", PLANE, 0.7}, {"plane at 3.3", PLANE, 3.3},
  {"plane at 9.4", PLANE, 9.4}, {"ramp 0..12", RAMP},
  {"edge: 6 in front of 2", EDGE}, {"plane at 3.3, noise, gains", PLANE,
      3.3, TRUE},
  {"repeats every 6 px along x, at 2", PERIODIC, 2.0},
};

/* The quad's cameras, and the rigs compared: the quad and its pairs with
 * camera 0. */
static const gdouble cam_x[VIEWS] = { 0.0, 1.0, 0.0, 1.0 };
static const gdouble cam_y[VIEWS] = { 0.0, 0.0, 1.0, 1.0 };

typedef struct
{
  const gchar *name;
  gint views;
  gint cameras[VIEWS];
  /* the pairs chosen (0: every pair) */
  gint pairs;
  guint8 pair[6][2];
} RigChoice;

static const RigChoice choices[] = {
  {"quad", 4, {0, 1, 2, 3}},
  {"quad, sides alone", 4, {0, 1, 2, 3}, 4, {{0, 1}, {2, 3}, {0, 2}, {1, 3}}},
  {"horizontal pair", 2, {0, 1}}, {"vertical pair", 2, {0, 2}},
  {"diagonal pair", 2, {0, 3}},
};

/* The disparity at (@x, @y) of view 0. */
static gdouble
disparity (const RigCase * c, gdouble x, gdouble y, gint w, gint h)
{
  switch (c->kind) {
    case RAMP:
      return 12.0 * y / (h - 1);
    case EDGE:
      return x < w / 2 ? 2.0 : 6.0;
    default:
      return c->d;
  }
}

/* The point of view 0 that camera @v sees at (@x, @y): p with p - D (p) b
 * = q. The front surface wins where two could be seen. */
static void
scene_point (const RigCase * c, gint v, gdouble x, gdouble y, gint w, gint h,
    gdouble * px, gdouble * py)
{
  const gdouble bx = cam_x[v] - cam_x[0], by = cam_y[v] - cam_y[0];

  if (c->kind == EDGE) {
    const gdouble front_x = x + 6.0 * bx;

    if (front_x >= w / 2) {
      *px = front_x;
      *py = y + 6.0 * by;
    } else {
      *px = x + 2.0 * bx;
      *py = y + 2.0 * by;
    }
    return;
  }
  if (c->kind == RAMP) {
    /* D = k y: p_y (1 - k b_y) = q_y */
    const gdouble k = 12.0 / (h - 1);

    *py = y / (1.0 - k * by);
    *px = x + k * *py * bx;
    return;
  }
  *px = x + c->d * bx;
  *py = y + c->d * by;
}

/* The photograph's luma at (@x, @y) of the scene, scaled to @w x @h; for
 * the periodic case its columns repeat every 6 pixels. */
static gdouble
scene_luma (const RigCase * c, const guint8 * luma, gint lw, gint lh, gint w,
    gint h, gdouble x, gdouble y)
{
  if (c->kind == PERIODIC)
    x = fmod (fmod (x, 6.0) + 6.0, 6.0) + w / 2;
  return picture_resample (luma, lw, lh, (x + 0.5) * lw / w - 0.5,
      (y + 0.5) * lh / h - 0.5);
}

/* Pixel (@x, @y) of view @v: the mean of 4 x 4 points over its area, in
 * the photograph's plane @luma (its luma or a colour). */
static gdouble
sensor (const RigCase * c, gint v, const guint8 * luma, gint lw, gint lh,
    gint w, gint h, gint x, gint y)
{
  gdouble sum = 0.0;

  for (gint j = 0; j < 4; j++)
    for (gint i = 0; i < 4; i++) {
      gdouble px, py;

      scene_point (c, v, x + (i - 1.5) / 4.0, y + (j - 1.5) / 4.0, w, h, &px,
          &py);
      sum += scene_luma (c, luma, lw, lh, w, h, px, py);
    }
  return sum / 16.0;
}

/* Whether tile (@tx, @ty)'s content stays 2 pixels inside every view. */
static gboolean
tile_inside (const RigCase * c, gint tx, gint ty, gint w, gint h)
{
  const gdouble d =
      disparity (c, cvcore_clt_tile_centre (tx), cvcore_clt_tile_centre (ty), w,
      h);

  for (gint v = 0; v < VIEWS; v++) {
    const gdouble x = cvcore_clt_tile_centre (tx) - d * (cam_x[v] - cam_x[0]);
    const gdouble y = cvcore_clt_tile_centre (ty) - d * (cam_y[v] - cam_y[0]);

    if (x - 10.0 < 0.0 || y - 10.0 < 0.0 || x + 10.0 > w - 1
        || y + 10.0 > h - 1)
      return FALSE;
  }
  return TRUE;
}

/* The spread of a rig's cameras: the sum of their squared distances from
 * their mean, in squared baselines. Where each view carries independent
 * noise of one variance on a texture alike in every direction, the
 * Fisher information of a common disparity grows with it, and the least
 * standard error an unbiased estimate can reach (the Cramer-Rao bound)
 * falls with its square root: a rig's bound is sqrt(pair's spread /
 * rig's spread) times a pair's. */
static gdouble
camera_spread (const RigChoice * choice)
{
  gdouble mx = 0.0, my = 0.0, spread = 0.0;

  for (gint v = 0; v < choice->views; v++) {
    mx += cam_x[choice->cameras[v]] / choice->views;
    my += cam_y[choice->cameras[v]] / choice->views;
  }
  for (gint v = 0; v < choice->views; v++) {
    const gdouble dx = cam_x[choice->cameras[v]] - mx;
    const gdouble dy = cam_y[choice->cameras[v]] - my;

    spread += dx * dx + dy * dy;
  }
  return spread;
}

/* The quad's least standard error over each pair's least, from their
 * spreads. */
static void
print_bounds (void)
{
  const gdouble quad = camera_spread (&choices[0]);

  printf ("Where each view carries its own noise, the least error the quad "
      "can reach over the least each pair can reach:\n\n"
      "| pair | spread | quad's least over pair's least |\n|---|---|---|\n");
  for (guint r = 0; r < G_N_ELEMENTS (choices); r++)
    if (choices[r].views == 2)
      printf ("| %s | %.2f | %.2f |\n", choices[r].name,
          camera_spread (&choices[r]), sqrt (camera_spread (&choices[r]) /
              quad));
  printf ("\nThe quad's spread: %.2f.\n\n", quad);
}

/* One rig of one case: prints its row and returns the 95th percentile of
 * its kept textured tiles' errors (NAN where none is kept). */
static gdouble
run_choice (cvcore_device * device, cvcore_stream * stream,
    const RigChoice * choice, const RigCase * c, cvcore_image * views,
    const guint8 * first, gint w, gint h, const gchar * image)
{
  const gint tiles_x = cvcore_clt_tiles (w), tiles_y = cvcore_clt_tiles (h);
  const gsize tiles = (gsize) tiles_x * tiles_y;
  cvcore_clt_match *dev, *m = g_new (cvcore_clt_match, tiles);
  gdouble *errors = g_new (gdouble, tiles);
  cvcore_clt_corr_params params;
  cvcore_clt_rig rig = { choice->views };
  cvcore_image chosen[VIEWS];
  cvcore_clt_rig_pyramid *pyramid;
  guint textured = 0, kept = 0, right = 0;
  gdouble p95;

  rig.pairs = choice->pairs;
  memcpy (rig.pair, choice->pair, sizeof (choice->pair));
  for (gint v = 0; v < choice->views; v++) {
    rig.x[v] = cam_x[choice->cameras[v]];
    rig.y[v] = cam_y[choice->cameras[v]];
    chosen[v] = views[choice->cameras[v]];
  }
  params = correlation;
  /* cudaphasecorr mode=rig with min-disparity=0 max-disparity=12 */
  params.initial_x = 6.0;
  params.search_radius = CVCORE_CLT_MAX_SEARCH;
  study_check (cvcore_clt_rig_pyramid_new (device, w, h, levels, rig.views,
          &pyramid), "pyramid");
  study_check (cvcore_device_alloc (device, tiles * sizeof (*m),
          (void **) &dev), "alloc");
  study_check (cvcore_clt_rig_pyramid_correlate (stream, pyramid, chosen, 0,
          &rig, &params, dev, NULL), "rig correlation");
  study_check (cvcore_copy_async (stream, m, dev, tiles * sizeof (*m),
          CVCORE_COPY_DEVICE_TO_HOST), "copy");
  study_check (cvcore_stream_synchronize (stream), "sync");
  for (gint ty = 0; ty < tiles_y; ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      const cvcore_clt_match *t = &m[ty * tiles_x + tx];
      gdouble e;

      if (!tile_inside (c, tx, ty, w, h)
          || study_tile_deviation (first, w, 8 * tx, 8 * ty) < TEXTURED)
        continue;
      textured++;
      e = fabs (t->dx - disparity (c, cvcore_clt_tile_centre (tx),
              cvcore_clt_tile_centre (ty), w, h));
      right += e <= 0.5;
      if (t->confidence >= min_confidence)
        errors[kept++] = e;
    }
  qsort (errors, kept, sizeof (gdouble), study_compare_doubles);
  p95 = kept ? errors[MIN (kept - 1, (guint) ceil (0.95 * kept) - 1)] : NAN;
  printf ("| %s | %s | %s | %.1f %% | %.3f | %.3f | %.1f %% |\n", image,
      c->name, choice->name, textured ? 100.0 * kept / textured : 0.0,
      kept ? errors[kept / 2] : NAN, p95,
      textured ? 100.0 * right / textured : 0.0);
  cvcore_device_free (device, dev);
  cvcore_clt_rig_pyramid_free (pyramid);
  g_free (errors);
  g_free (m);
  return p95;
}

/* The quad against the best of its pairs, a row of @summary, from each
 * choice's 95th percentile in @p95; no ratio where the best pair's error
 * rounds to 0.000 in the table. */
static void
add_summary (GString * summary, const gchar * image, const RigCase * c,
    const gdouble p95[])
{
  gint best = -1;

  for (guint r = 0; r < G_N_ELEMENTS (choices); r++)
    if (choices[r].views == 2 && !isnan (p95[r])
        && (best < 0 || p95[r] < p95[best]))
      best = r;
  g_string_append_printf (summary, "| %s | %s | %.3f | ", image, c->name,
      p95[0]);
  if (best < 0) {
    g_string_append (summary, "- | - | - |\n");
    return;
  }
  g_string_append_printf (summary, "%s | %.3f | ", choices[best].name,
      p95[best]);
  if (p95[best] >= 0.0005)
    g_string_append_printf (summary, "%.2f |\n", p95[0] / p95[best]);
  else
    g_string_append (summary, "- |\n");
}

/* Grey view @view made from the RGGB mosaic @sites as --mosaic says. */
static void
grey_from_mosaic (cvcore_device * device, cvcore_stream * stream,
    const guint8 * sites, const cvcore_image * view)
{
  const gint w = view->width, h = view->height;
  cvcore_image src = { NULL, 0, w, h, 1, CVCORE_SAMPLE_U8 };
  cvcore_clt_scratch *clt;
  cvcore_clt_params params;

  study_check (cvcore_plane_alloc (device, w, h, &src.data, &src.pitch),
      "alloc");
  study_check (cvcore_copy_2d_async (stream, src.data, src.pitch, sites, w, w,
          h, CVCORE_COPY_HOST_TO_DEVICE), "upload");
  study_check (cvcore_clt_scratch_new (device, w, h, 3, true, &clt), "scratch");
  cvcore_clt_params_init (&params);
  params.bayer = CVCORE_CLT_BAYER_RGGB;
  params.grey = mosaic_grey;
  study_check (cvcore_clt (stream, clt, &src, view, &params), "mosaic");
  study_check (cvcore_stream_synchronize (stream), "sync");
  cvcore_clt_scratch_free (clt);
  cvcore_device_free (device, src.data);
}

/* The views of one case of one image (@rgb: its colour planes, for
 * --mosaic), then every rig's row; the quad against its best pair goes to
 * @summary. */
static void
run_case (cvcore_device * device, cvcore_stream * stream, const RigCase * c,
    const guint8 * luma, const guint8 * rgb, gint lw, gint lh, gint w, gint h,
    const gchar * image, GString * summary)
{
  gdouble p95[G_N_ELEMENTS (choices)];
  static const gdouble gains[VIEWS] = { 1.0, 0.9, 1.1, 0.95 };
  GRand *rand = g_rand_new_with_seed (7);
  cvcore_image views[VIEWS];
  guint8 *frames[VIEWS], *sites = rgb ? g_new (guint8, w * h) : NULL;

  for (gint v = 0; v < VIEWS; v++) {
    gdouble *clean = g_new (gdouble, w * h);
    gdouble *site = rgb ? g_new (gdouble, w * h) : NULL;

    frames[v] = g_new (guint8, w * h);
#pragma omp parallel for
    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++) {
        /* RGGB: red, green / green, blue */
        const gint colour = (y & 1) + (x & 1);

        clean[y * w + x] = sensor (c, v, luma, lw, lh, w, h, x, y);
        if (rgb)
          site[y * w + x] = sensor (c, v, rgb + (gsize) colour * lw * lh, lw,
              lh, w, h, x, y);
      }
    for (gint i = 0; i < w * h; i++) {
      const gdouble s = c->noisy ? clean[i] * gains[v] +
          noise * study_gaussian (rand) : clean[i];

      frames[v][i] = (guint8) CLAMP (floor (s + 0.5), 0, 255);
    }
    /* the sites draw noise of their own, as a colour sensor's do */
    for (gint i = 0; rgb && i < w * h; i++) {
      const gdouble s = c->noisy ? site[i] * gains[v] +
          noise * study_gaussian (rand) : site[i];

      sites[i] = (guint8) CLAMP (floor (s + 0.5), 0, 255);
    }
    g_free (site);
    g_free (clean);
    views[v] = (cvcore_image) {
    NULL, 0, w, h, 1, CVCORE_SAMPLE_U8};
    study_check (cvcore_plane_alloc (device, w, h, &views[v].data,
            &views[v].pitch), "alloc");
    if (rgb)
      grey_from_mosaic (device, stream, sites, &views[v]);
    else
      study_check (cvcore_copy_2d_async (stream, views[v].data,
              views[v].pitch, frames[v], w, w, h, CVCORE_COPY_HOST_TO_DEVICE),
          "upload");
  }
  g_free (sites);
  for (guint r = 0; r < G_N_ELEMENTS (choices); r++)
    p95[r] = run_choice (device, stream, &choices[r], c, views, frames[0], w,
        h, image);
  add_summary (summary, image, c, p95);
  for (gint v = 0; v < VIEWS; v++) {
    cvcore_device_free (device, views[v].data);
    g_free (frames[v]);
  }
  g_rand_free (rand);
}

/* The frame size from --size and the case from --case, checked; FALSE
 * after saying what is wrong. */
static gboolean
check_arguments (gint * w, gint * h)
{
  if (!study_check_size_and_case ("rig-quality", size, 96, only_case, CASES,
          w, h))
    return FALSE;
  if (levels < 0 || levels > CVCORE_CLT_MAX_LEVELS
      || !(noise >= 0.0 && noise <= 64.0)) {
    fprintf (stderr, "rig-quality: --levels must be 0 to %d, --noise 0 to "
        "64\n", CVCORE_CLT_MAX_LEVELS);
    return FALSE;
  }
  if (mosaic && g_strcmp0 (mosaic, "green") && g_strcmp0 (mosaic, "luma")) {
    fprintf (stderr, "rig-quality: --mosaic is green or luma\n");
    return FALSE;
  }
  if (mosaic)
    mosaic_grey = strcmp (mosaic, "green") ? CVCORE_CLT_GREY_LUMA :
        CVCORE_CLT_GREY_GREEN;
  return study_check_correlation ("rig-quality", &correlation);
}

int
main (int argc, char **argv)
{
  static GOptionEntry entries[] = {
    {"levels", 0, 0, G_OPTION_ARG_INT, &levels, "Pyramid reductions", "N"},
    {"min-confidence", 0, 0, G_OPTION_ARG_DOUBLE, &min_confidence,
        "Confidence a tile needs to be kept", "C"},
    {"noise", 0, 0, G_OPTION_ARG_DOUBLE, &noise,
        "Standard deviation of the noisy case's noise, in levels", "S"},
    {"size", 0, 0, G_OPTION_ARG_STRING, &size, "Frame size", "WxH"},
    {"case", 0, 0, G_OPTION_ARG_INT, &only_case,
        "Only this case, counted from 0", "N"},
    {"mosaic", 0, 0, G_OPTION_ARG_STRING, &mosaic,
          "Views seen through an RGGB mosaic, matched on its green or luma",
        "green|luma"},
    {NULL}
  };
  const gchar *name = g_getenv ("GST_CUDAVISION_BACKEND");
  cvcore_backend backend = CVCORE_BACKEND_CPU;
  GOptionContext *ctx = g_option_context_new ("IMAGE... - a rig's "
      "disparity against known depth");
  GError *error = NULL;
  gint w = 640, h = 480, status = 0;
  cvcore_device *device;
  cvcore_stream *stream;
  GString *summary;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx,
      study_correlation_options (&correlation), NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc < 2
      || !check_arguments (&w, &h)
      || (name && !cvcore_backend_from_string (name, &backend))) {
    fprintf (stderr, "usage: rig-quality [--size WxH] [--levels N] "
        "[--refinements N] [--converge P] [--fit-radius R] [--fat-zero F] "
        "[--lowpass S] "
        "[--min-confidence C] [--noise S] [--case N] [--mosaic green|luma] "
        "image...\n");
    g_clear_error (&error);
    g_option_context_free (ctx);
    g_free (size);
    g_free (mosaic);
    return 2;
  }
  g_option_context_free (ctx);
  setvbuf (stdout, NULL, _IOLBF, 0);
  print_bounds ();
  study_check (cvcore_device_open (backend, 0, &device), "device");
  study_check (cvcore_stream_new (device, &stream), "stream");
  printf ("%dx%d, %s backend, %d pyramid levels, kept: confidence >= %.2f%s"
      "%s\n\n| image | depth | rig | textured kept | median | 95th "
      "percentile | textured within 0.5 |\n|---|---|---|---|---|---|---|\n",
      w, h, cvcore_backend_name (backend), levels, min_confidence,
      mosaic ? ", views through an RGGB mosaic, matched on its " : "",
      mosaic ? mosaic : "");
  summary = g_string_new (NULL);
  for (gint i = 1; i < argc && status == 0; i++) {
    gint lw, lh;
    guint8 *luma = image_load_luma (argv[i], &lw, &lh);
    guint8 *rgb = mosaic ? image_load_rgb_planes (argv[i], &lw, &lh) : NULL;
    gchar *base = g_path_get_basename (argv[i]);

    if (!luma || (mosaic && !rgb))
      status = 1;
    for (gint c = 0; status == 0 && c < CASES; c++)
      if (only_case == G_MININT || only_case == c)
        run_case (device, stream, &cases[c], luma, rgb, lw, lh, w, h, base,
            summary);
    g_free (base);
    g_free (rgb);
    g_free (luma);
  }
  printf ("\nThe quad's 95th percentile against its best pair's:\n\n"
      "| image | depth | quad | best pair | its 95th percentile | quad over "
      "best pair |\n|---|---|---|---|---|---|\n%s", summary->str);
  g_string_free (summary, TRUE);
  cvcore_stream_free (stream);
  cvcore_device_close (device);
  g_free (size);
  g_free (mosaic);
  return status;
}
