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

/* tonemap-study: the figures behind the tone mapping's documentation, from
 * the CPU reference (no GPU needed).
 *
 *   tonemap-study pictures DIR   global vs local on the night scene
 *                                (DIR/tonemap-night.jpg) and the log-average
 *                                under adaptation (DIR/tonemap-adaptation.svg)
 *   tonemap-study precision      error of box averages from summed-area
 *                                tables kept in float or double, whole-frame
 *                                or per tile, against direct sums, on a 4K
 *                                night scene
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/app.h>

#include "cvtonemap.h"
#include "night-scene.h"
#include "image-load.h"

#define TILE 64

static void
check (cvcore_status status, const gchar * what)
{
  if (status != CVCORE_OK) {
    g_printerr ("tonemap-study: %s: %s\n", what, cvcore_last_error ());
    exit (1);
  }
}

/* Tone maps a 16-bit RGBA night frame on the CPU reference into @out
 * (8-bit RGBA, @out_pitch bytes a row); returns its adaptation. */
static cvcore_tonemap_adaptation
tonemap_frame (cvcore_stream * stream, cvcore_tonemapper * tm,
    guint16 * rgba, gint w, gint h, guint8 * out, gsize out_pitch,
    const cvcore_tonemap_params * params, gdouble dt)
{
  cvcore_tonemap_frame src = { {{rgba, (gsize) w * 8, w, h, 4, CVCORE_SAMPLE_U16}}
  };
  cvcore_tonemap_frame dst = { {{out, out_pitch, w, h, 4, CVCORE_SAMPLE_U8}} };
  cvcore_tonemap_adaptation adapted;

  check (cvcore_tonemap (stream, tm, &src, &dst, params, dt), "tonemap");
  check (cvcore_tonemapper_adaptation (tm, stream, &adapted), "adaptation");
  return adapted;
}

/* Global (left) and local (right) side by side. */
static void
night_pictures (cvcore_device * cpu, cvcore_stream * stream, const gchar * dir)
{
  const gint w = 640, h = 360;
  guint16 *rgba = g_new (guint16, (gsize) w * h * 4);
  guint8 *pair = g_new (guint8, (gsize) w * h * 8);
  cvcore_tonemapper *tm;
  cvcore_tonemap_params params;
  gchar *path = g_build_filename (dir, "tonemap-night.jpg", NULL);

  night_scene_paint (rgba, (gsize) w * 8, w, h, 4, 1, 1.0);
  check (cvcore_tonemapper_new (cpu, w, h, &tm), "tone mapper");
  for (gint op = 0; op < 2; op++) {
    cvcore_tonemap_params_init (&params);
    params.op = op ? CVCORE_TONEMAP_LOCAL : CVCORE_TONEMAP_GLOBAL;
    tonemap_frame (stream, tm, rgba, w, h, pair + op * w * 4, (gsize) w * 8,
        &params, 0.0);
  }
  if (!image_save_jpeg (pair, 2 * w, h, "RGBA", path))
    exit (1);
  g_print ("wrote %s\n", path);
  cvcore_tonemapper_free (tm);
  g_free (path);
  g_free (pair);
  g_free (rgba);
}

/* Oncoming headlights fade in over frames 30-40 and out over 100-110, at
 * 30 fps: the frame's own log-average and the one adapted with a 0.5 s time
 * constant, as an SVG plot of ln Lbar over time. */
static void
adaptation_plot (cvcore_device * cpu, cvcore_stream * stream, const gchar * dir)
{
  const gint w = 320, h = 180, frames = 150;
  const gdouble tau = 0.5, dt = 1.0 / 30.0;
  guint16 *rgba = g_new (guint16, (gsize) w * h * 4);
  guint8 *out = g_new (guint8, (gsize) w * h * 4);
  gdouble own[150], adapted[150], lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  cvcore_tonemapper *plain, *slow;
  cvcore_tonemap_params params;
  gchar *path = g_build_filename (dir, "tonemap-adaptation.svg", NULL);
  FILE *f;

  check (cvcore_tonemapper_new (cpu, w, h, &plain), "tone mapper");
  check (cvcore_tonemapper_new (cpu, w, h, &slow), "tone mapper");
  cvcore_tonemap_params_init (&params);
  for (gint n = 0; n < frames; n++) {
    const gdouble light = CLAMP ((n - 30) / 10.0, 0.0, 1.0) -
        CLAMP ((n - 100) / 10.0, 0.0, 1.0);

    night_scene_paint (rgba, (gsize) w * 8, w, h, 4, n, light);
    params.adaptation_time = 0.0;
    own[n] = tonemap_frame (stream, plain, rgba, w, h, out, (gsize) w * 4,
        &params, dt).log_average;
    params.adaptation_time = tau;
    adapted[n] = tonemap_frame (stream, slow, rgba, w, h, out, (gsize) w * 4,
        &params, dt).log_average;
    lo = MIN (lo, MIN (own[n], adapted[n]));
    hi = MAX (hi, MAX (own[n], adapted[n]));
  }

  f = fopen (path, "w");
  if (f == NULL) {
    g_printerr ("tonemap-study: cannot write %s\n", path);
    exit (1);
  }
  fprintf (f, "<svg xmlns='http://www.w3.org/2000/svg' width='640' "
      "height='300' font-family='sans-serif' font-size='12'>\n"
      "<rect width='640' height='300' fill='white'/>\n"
      "<line x1='50' y1='260' x2='620' y2='260' stroke='black'/>\n"
      "<line x1='50' y1='20' x2='50' y2='260' stroke='black'/>\n"
      "<text x='300' y='290'>time (s), 30 fps</text>\n"
      "<text x='5' y='15'>ln Lbar</text>\n"
      "<text x='55' y='275'>0</text><text x='600' y='275'>5</text>\n"
      "<text x='8' y='260'>%.2f</text><text x='8' y='30'>%.2f</text>\n",
      lo, hi);
  for (gint k = 0; k < 2; k++) {
    const gdouble *v = k ? adapted : own;

    fprintf (f, "<polyline fill='none' stroke='%s' stroke-width='2' "
        "points='", k ? "#c03000" : "#3060c0");
    for (gint n = 0; n < frames; n++)
      fprintf (f, "%.1f,%.1f ", 50.0 + 570.0 * n / (frames - 1),
          260.0 - 240.0 * (v[n] - lo) / (hi - lo));
    fprintf (f, "'/>\n");
  }
  fprintf (f, "<text x='400' y='60' fill='#3060c0'>each frame's own"
      "</text>\n<text x='400' y='80' fill='#c03000'>adapted, 0.5 s</text>\n"
      "</svg>\n");
  fclose (f);
  g_print ("wrote %s\n", path);
  cvcore_tonemapper_free (plain);
  cvcore_tonemapper_free (slow);
  g_free (path);
  g_free (out);
  g_free (rgba);
}

/* --- precision ---------------------------------------------------------- */

typedef enum
{
  WHOLE_FLOAT, TILE_FLOAT, WHOLE_DOUBLE, TILE_DOUBLE, N_SCHEMES
} Scheme;

static const gchar *scheme_names[N_SCHEMES] = {
  "whole-frame float SAT", "per-tile float SAT", "whole-frame double SAT",
  "per-tile double SAT (ours)",
};

/* Sum of @l over the box [x0, x1] x [y0, y1] as scheme @s computes it: a
 * table over the frame, or over the 64-pixel tile of (@cx, @cy) and an
 * apron of @r, built in the scheme's precision. */
static gdouble
box_sum (const gdouble * l, gint w, gint h, Scheme s, gint cx, gint cy,
    gint r, gint x0, gint x1, gint y0, gint y1, gpointer * cache)
{
  const gboolean tiled = s == TILE_FLOAT || s == TILE_DOUBLE;
  const gboolean single = s == WHOLE_FLOAT || s == TILE_FLOAT;
  const gint ox = tiled ? cx / TILE * TILE - r : 0;
  const gint oy = tiled ? cy / TILE * TILE - r : 0;
  const gint n = tiled ? TILE + 2 * r : 0;
  const gint tw = tiled ? n : w, th = tiled ? n : h;
  gint *key = cache[1];

  /* (re)build the table when the tile changes */
  if (cache[0] == NULL || key[0] != ox || key[1] != oy) {
    gdouble *t;

    g_free (cache[0]);
    t = cache[0] = g_new0 (gdouble, (gsize) (tw + 1) * (th + 1));
    key[0] = ox;
    key[1] = oy;
    for (gint i = 0; i < th; i++)
      for (gint j = 0; j < tw; j++) {
        const gint x = ox + j, y = oy + i;
        const gdouble v = x >= 0 && x < w && y >= 0 && y < h ?
            l[(gsize) y * w + x] : 0.0;
        gdouble *cell = t + (gsize) (i + 1) * (tw + 1) + j + 1;

        if (single)
          *cell = (gfloat) ((gfloat) ((gfloat) v + (gfloat) cell[-1]) +
              (gfloat) ((gfloat) cell[-(tw + 1)] -
                  (gfloat) cell[-(tw + 1) - 1]));
        else
          *cell = v + cell[-1] + (cell[-(tw + 1)] - cell[-(tw + 1) - 1]);
      }
  }
  {
    const gdouble *t = cache[0];
    const gint a0 = (y0 - oy) * (tw + 1), a1 = (y1 - oy + 1) * (tw + 1);
    const gint b0 = x0 - ox, b1 = x1 - ox + 1;

    if (single)
      return (gfloat) ((gfloat) ((gfloat) t[a1 + b1] - (gfloat) t[a0 + b1]) -
          (gfloat) ((gfloat) t[a1 + b0] - (gfloat) t[a0 + b0]));
    return t[a1 + b1] - t[a0 + b1] - t[a1 + b0] + t[a0 + b0];
  }
}

static int
compare_doubles (const void *a, const void *b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

static void
precision_table (cvcore_device * cpu, cvcore_stream * stream)
{
  const gint w = 3840, h = 2160, step = 8, r = 19;
  guint16 *rgba = g_new (guint16, (gsize) w * h * 4);
  guint8 *out = g_new (guint8, (gsize) w * h * 4);
  gdouble *l = g_new (gdouble, (gsize) w * h);
  cvcore_tonemapper *tm;
  cvcore_tonemap_params params;
  cvcore_tonemap_adaptation adapted;
  gsize n_samples = 0, cap = (gsize) (w / step + 1) * (h / step + 1) * 7;
  gdouble *errors[N_SCHEMES];

  night_scene_paint (rgba, (gsize) w * 8, w, h, 4, 3, 1.0);
  check (cvcore_tonemapper_new (cpu, w, h, &tm), "tone mapper");
  cvcore_tonemap_params_init (&params);
  adapted = tonemap_frame (stream, tm, rgba, w, h, out, (gsize) w * 4, &params,
      0.0);
  cvcore_tonemapper_free (tm);
  for (gsize i = 0; i < (gsize) w * h; i++)
    l[i] = adapted.scale * (0.2126 * rgba[4 * i] + 0.7152 * rgba[4 * i + 1] +
        0.0722 * rgba[4 * i + 2]) / 65535.0;

  for (gint s = 0; s < N_SCHEMES; s++)
    errors[s] = g_new (gdouble, cap);
  /* Column-major walk so that per-tile tables are rebuilt once per tile
   * column and row change, not per sample. */
  for (gint s = 0; s < N_SCHEMES; s++) {
    gpointer cache[2] = { NULL, g_new0 (gint, 2) };
    gsize k = 0;

    ((gint *) cache[1])[0] = G_MININT;
    for (gint ty = 0; ty < h; ty += TILE)
      for (gint tx = 0; tx < w; tx += TILE)
        for (gint y = ty; y < MIN (ty + TILE, h); y += step)
          for (gint x = tx; x < MIN (tx + TILE, w); x += step)
            for (gint i = 1; i < CVCORE_TONEMAP_MAX_SCALES; i++) {
              const gint hw = cvcore_tonemap_box_edge (i) / 2;
              const gint x0 = MAX (x - hw, 0), x1 = MIN (x + hw, w - 1);
              const gint y0 = MAX (y - hw, 0), y1 = MIN (y + hw, h - 1);
              long double exact = 0.0L;
              gdouble got;

              for (gint yy = y0; yy <= y1; yy++)
                for (gint xx = x0; xx <= x1; xx++)
                  exact += l[(gsize) yy * w + xx];
              got = box_sum (l, w, h, s, x, y, r, x0, x1, y0, y1, cache);
              errors[s][k++] = fabsl ((got - exact) / exact);
            }
    n_samples = k;
    g_free (cache[0]);
    g_free (cache[1]);
  }

  g_print ("Box averages of the scaled luminance of a 3840x2160 night scene "
      "(%" G_GSIZE_FORMAT " boxes, every 8th pixel, 7 sizes), relative error "
      "against direct sums:\n\n| table | median | 99.9th percentile | "
      "largest |\n|---|---|---|---|\n", n_samples);
  for (gint s = 0; s < N_SCHEMES; s++) {
    qsort (errors[s], n_samples, sizeof (gdouble), compare_doubles);
    g_print ("| %s | %.1e | %.1e | %.1e |\n", scheme_names[s],
        errors[s][n_samples / 2], errors[s][n_samples - n_samples / 1000 - 1],
        errors[s][n_samples - 1]);
    g_free (errors[s]);
  }
  g_free (l);
  g_free (out);
  g_free (rgba);
}

int
main (int argc, char **argv)
{
  cvcore_device *cpu;
  cvcore_stream *stream;

  gst_init (&argc, &argv);
  if (argc < 2 || (strcmp (argv[1], "pictures") == 0 && argc != 3)
      || (strcmp (argv[1], "pictures") != 0
          && strcmp (argv[1], "precision") != 0)) {
    g_printerr ("usage: tonemap-study pictures DIR | precision\n");
    return 2;
  }
  check (cvcore_device_open (CVCORE_BACKEND_CPU, 0, &cpu), "CPU device");
  check (cvcore_stream_new (cpu, &stream), "stream");
  if (strcmp (argv[1], "pictures") == 0) {
    night_pictures (cpu, stream, argv[2]);
    adaptation_plot (cpu, stream, argv[2]);
  } else {
    precision_table (cpu, stream);
  }
  cvcore_stream_free (stream);
  cvcore_device_close (cpu);
  return 0;
}
