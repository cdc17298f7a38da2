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

/* flow-quality: how well cudaphasecorr's tile matching finds known motion
 * in natural photographs.
 *
 *   flow-quality [--levels N] [--refinements N] [--converge P] [--lowpass S]
 *                [--fat-zero F] [--fit-radius R]
 *                [--min-confidence C] [--max-vertical-disparity D]
 *                [--size WxH]
 *                [--dump DIR] [--case N] [--keep-left-frame] image...
 *
 * Each image's luma, scaled to the size (default 1280x720), gives a first
 * frame and, for each case, a second frame whose every pixel is taken from
 * where the case's motion brought it. Both are made as a sensor makes
 * them: each pixel the mean of 4 x 4 points over its area (Lanczos-3
 * from the photograph), so that they differ by the motion alone. Cases:
 *
 *  - translations of 0.1 to 16 pixels;
 *  - a turn with a zoom about the centre;
 *  - two halves moving apart;
 *  - a stereo pair: horizontal disparity growing from 0 at the top to 64
 *    pixels at the bottom, searched around the range's centre, and with
 *    the limit on vertical disparity, as mode=stereo does;
 *  - a translation with noise and a brightness change.
 *
 * Tiles count where both frames hold their content; they are textured
 * where the first frame's tile varies (standard deviation of at least 4
 * levels) and flat below 1; occluded tiles are those whose content left
 * the frame. For each case it prints the share of textured, flat and
 * occluded tiles that the confidence threshold (cudaphasecorr's default,
 * 0.05) keeps, the 20th percentile of the textured tiles' confidence and
 * the highest of the flat ones', the end-point error of the kept tiles
 * and the GPU time of the pyramid and matching, then, over every case,
 * how often a tile of each confidence lies within 0.5 and 0.1 pixels of
 * the truth. With --dump, the frames (8-bit, raw) and each tile's truth
 * and match go to DIR for tools/studies/flow-peers.py and tools/studies/flow-errors.py.
 * Runs on the backend GST_CUDAVISION_BACKEND names (cpu by default), with
 * cudaphasecorr's defaults unless told otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "cvclt.h"
#include "image-load.h"
#include "pictures.h"
#include "study-matching.h"

#define CASES 13
#define BINS 7

static const gdouble bin_edges[BINS + 1] = { 0.0, 0.05, 0.1, 0.15, 0.2, 0.3,
  0.5, 1.01
};

static gint levels = 4;
/* the core's defaults, as the options leave them */
static cvcore_clt_corr_params correlation;
static gdouble min_confidence = 0.05;
static gchar *size = NULL;
static gchar *dump_dir = NULL;
/* G_MININT: every case */
static gint only_case = G_MININT;
static gboolean keep_left_frame = FALSE;
/* cudaphasecorr's default in mode=stereo */
static gdouble max_vertical_disparity = 2.0;

typedef struct
{
  const gchar *name;
  gint kind;                    /* 0 translation, 1 turn, 2 halves, 3 stereo */
  gdouble dx, dy;
  gboolean noisy;
} FlowCase;

static const FlowCase cases[CASES] = {
  {"translation 0.1", 0, 0.08, -0.06}, {"translation 0.5", 0, 0.4, -0.3},
  {"translation 1.25", 0, 1.0, -0.75}, {"translation 2.5", 0, 2.0, -1.5},
  {"translation 5", 0, -4.0, 3.0}, {"translation 8", 0, 6.4, 4.8},
  {"translation 12", 0, -9.6, -7.2}, {"translation 16", 0, 12.8, -9.6},
  {"turn 1.5 deg, zoom 1.02", 1}, {"halves (6, 2) and (-4, -3)", 2},
  {"stereo 0..64", 3}, {"translation 3.9, noise, +15 % light", 0, 3.3,
      -2.1, TRUE},
  {"still", 0, 0.0, 0.0},
};

/* Where the first frame's content at (x, y) is in the second. */
static void
moved (const FlowCase * c, gdouble x, gdouble y, gint w, gint h,
    gdouble * mx, gdouble * my)
{
  const gdouble cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
  const gdouble turn = 1.5 * G_PI / 180.0, zoom = 1.02;

  switch (c->kind) {
    case 1:
      *mx = cx + zoom * (cos (turn) * (x - cx) - sin (turn) * (y - cy));
      *my = cy + zoom * (sin (turn) * (x - cx) + cos (turn) * (y - cy));
      break;
    case 2:
      *mx = x + (x < w / 2 ? 6.0 : -4.0);
      *my = y + (x < w / 2 ? 2.0 : -3.0);
      break;
    case 3:
      *mx = x - 64.0 * y / (h - 1);
      *my = y;
      break;
    default:
      *mx = x + c->dx;
      *my = y + c->dy;
  }
}

/* Where the second frame's pixel (x, y) comes from in the first. */
static void
source (const FlowCase * c, gdouble x, gdouble y, gint w, gint h,
    gdouble * sx, gdouble * sy)
{
  const gdouble cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
  const gdouble turn = 1.5 * G_PI / 180.0, zoom = 1.02;

  switch (c->kind) {
    case 1:
      *sx = cx + (cos (turn) * (x - cx) + sin (turn) * (y - cy)) / zoom;
      *sy = cy + (-sin (turn) * (x - cx) + cos (turn) * (y - cy)) / zoom;
      break;
    case 2:
      /* the halves meet where they moved to */
      *sx = x - (x < w / 2 + 1.0 ? 6.0 : -4.0);
      *sy = y - (x < w / 2 + 1.0 ? 2.0 : -3.0);
      break;
    case 3:
      *sx = x + 64.0 * y / (h - 1);
      *sy = y;
      break;
    default:
      *sx = x - c->dx;
      *sy = y - c->dy;
  }
}

/* Pixel (@x, @y) of a frame of @w x @h, the photograph @luma scaled to
 * it, as a sensor sees it after @c's motion: the mean of 4 x 4 points
 * over the pixel's area, each from where its content came from, moved by
 * @e. Both frames are sampled the same way, so their difference is the
 * motion alone. With no case, the first frame. */
static gdouble
sensor (const FlowCase * c, const guint8 * luma, gint lw, gint lh, gint w,
    gint h, const gdouble e[2], gint x, gint y)
{
  gdouble v = 0.0;

  for (gint j = 0; j < 4; j++)
    for (gint i = 0; i < 4; i++) {
      gdouble sx = x + (i - 1.5) / 4.0, sy = y + (j - 1.5) / 4.0;

      if (c)
        source (c, sx, sy, w, h, &sx, &sy);
      v += picture_resample (luma, lw, lh, (sx - e[0] + 0.5) * lw / w - 0.5,
          (sy - e[1] + 0.5) * lh / h - 0.5);
    }
  return v / 16.0;
}

static guint8
to_sample (gdouble v)
{
  return (guint8) CLAMP (floor (v + 0.5), 0, 255);
}

typedef struct
{
  guint n[BINS], within_half[BINS], within_tenth[BINS];
} Reliability;

static void
write_file (const gchar * name, gconstpointer data, gsize size_bytes)
{
  gchar *path = g_build_filename (dump_dir, name, NULL);
  GError *error = NULL;

  if (!g_file_set_contents (path, data, size_bytes, &error)) {
    fprintf (stderr, "flow-quality: %s\n", error->message);
    exit (1);
  }
  g_free (path);
}

/* One case of one image: prints its line, adds to @rel. */
static void
run_case (cvcore_stream * stream, cvcore_clt_pyramid * pyramid,
    const cvcore_image * a_img, const cvcore_image * b_img,
    cvcore_clt_match * dev_matches, cvcore_event * start, cvcore_event * end,
    const guint8 * first, guint8 * second, const guint8 * luma, gint lw,
    gint lh, gint w, gint h, const gdouble e[2], guint index,
    guint image_index, Reliability * rel)
{
  const FlowCase *c = &cases[index];
  const gint tiles_x = cvcore_clt_tiles (w), tiles_y = cvcore_clt_tiles (h);
  cvcore_clt_match *matches = g_new (cvcore_clt_match, tiles_x * tiles_y);
  gdouble *errors = g_new (gdouble, tiles_x * tiles_y);
  GString *truth = g_string_new (NULL);
  cvcore_clt_corr_params params;
  GRand *rand = g_rand_new_with_seed (index + 1);
  gdouble *textured_conf = g_new (gdouble, tiles_x * tiles_y);
  guint textured = 0, textured_kept = 0, flat = 0, flat_kept = 0, n = 0;
  guint occluded = 0, occluded_kept = 0;
  gdouble flat_conf = 0.0;
  gfloat ms;

#pragma omp parallel for
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      second[y * w + x] = to_sample (sensor (c, luma, lw, lh, w, h, e, x, y));
  if (c->noisy)
    for (gint i = 0; i < w * h; i++)
      second[i] = to_sample (1.15 * second[i] + 3.0 * study_gaussian (rand));
  study_check (cvcore_copy_2d_async (stream, b_img->data, b_img->pitch, second,
          w, w, h, CVCORE_COPY_HOST_TO_DEVICE), "upload");
  params = correlation;
  params.keep_left_frame = keep_left_frame;
  if (c->kind == 3) {
    params.initial_x = -32.0;
    params.max_dy = max_vertical_disparity;
  }
  study_check (cvcore_event_record (start, stream), "event");
  study_check (cvcore_clt_pyramid_build_and_correlate (stream, pyramid, 1, 0,
          b_img, 0, &params, dev_matches), "build and correlate");
  study_check (cvcore_event_record (end, stream), "event");
  study_check (cvcore_copy_async (stream, matches, dev_matches,
          (gsize) tiles_x * tiles_y * sizeof (cvcore_clt_match),
          CVCORE_COPY_DEVICE_TO_HOST), "download");
  study_check (cvcore_stream_synchronize (stream), "synchronize");
  study_check (cvcore_event_elapsed_ms (start, end, &ms), "timing");

  for (gint ty = 0; ty < tiles_y; ty++)
    for (gint tx = 0; tx < tiles_x; tx++) {
      const cvcore_clt_match *m = &matches[ty * tiles_x + tx];
      const gdouble x = cvcore_clt_tile_centre (tx), y =
          cvcore_clt_tile_centre (ty);
      gdouble mx, my, err, dev;
      gboolean inside, kept = m->confidence >= min_confidence;
      gint bin = 0;

      moved (c, x, y, w, h, &mx, &my);
      inside = x >= 10 && y >= 10 && x < w - 10 && y < h - 10
          && mx >= 10 && my >= 10 && mx < w - 10 && my < h - 10
          && (c->kind != 2 || fabs (x - w / 2) > 24);
      /* content that left the frame: nothing to match */
      if (x >= 10 && y >= 10 && x < w - 10 && y < h - 10
          && (mx < -8 || my < -8 || mx > w + 7 || my > h + 7)) {
        occluded++;
        occluded_kept += kept;
      }
      if (dump_dir)
        g_string_append_printf (truth, "%d %d %.4f %.4f %d %.4f %.4f %.4f\n",
            tx, ty, mx - x, my - y, inside, m->dx, m->dy, m->confidence);
      if (!inside)
        continue;
      dev = study_tile_deviation (first, w, (gint) (x + 0.5), (gint) (y + 0.5));
      err = hypot (m->dx - (mx - x), m->dy - (my - y));
      while (bin < BINS - 1 && m->confidence >= bin_edges[bin + 1])
        bin++;
      rel->n[bin]++;
      rel->within_half[bin] += err <= 0.5;
      rel->within_tenth[bin] += err <= 0.1;
      if (dev >= 4.0) {
        textured_conf[textured++] = m->confidence;
        textured_kept += kept;
      } else if (dev < 1.0) {
        flat++;
        flat_kept += kept;
        flat_conf = MAX (flat_conf, m->confidence);
      }
      if (kept)
        errors[n++] = err;
    }
  qsort (errors, n, sizeof (gdouble), study_compare_doubles);
  qsort (textured_conf, textured, sizeof (gdouble), study_compare_doubles);
  printf ("| %u | %s | %.1f %% of %u | %.3f | %.1f %% of %u | %.3f | "
      "%.1f %% of %u | %.3f | %.3f | %.3f | %.3f |\n", image_index, c->name,
      textured ? 100.0 * textured_kept / textured : 0.0, textured,
      textured ? textured_conf[textured / 5] : NAN,
      flat ? 100.0 * flat_kept / flat : 0.0, flat, flat_conf,
      occluded ? 100.0 * occluded_kept / occluded : 0.0, occluded,
      n ? errors[n / 2] : NAN, n ? errors[(gsize) (0.95 * (n - 1))] : NAN,
      n ? errors[n - 1] : NAN, ms);
  if (dump_dir) {
    gchar *name = g_strdup_printf ("%u-%02u.b.gray", image_index, index);

    write_file (name, second, (gsize) w * h);
    g_free (name);
    name = g_strdup_printf ("%u-%02u.truth", image_index, index);
    write_file (name, truth->str, truth->len);
    g_free (name);
  }
  g_string_free (truth, TRUE);
  g_rand_free (rand);
  g_free (textured_conf);
  g_free (errors);
  g_free (matches);
}

int
main (int argc, char **argv)
{
  static GOptionEntry entries[] = {
    {"levels", 0, 0, G_OPTION_ARG_INT, &levels, "Pyramid reductions", "N"},
    {"min-confidence", 0, 0, G_OPTION_ARG_DOUBLE, &min_confidence,
        "Confidence a tile needs to be kept", "C"},
    {"max-vertical-disparity", 0, 0, G_OPTION_ARG_DOUBLE,
        &max_vertical_disparity, "Stereo: farthest up or down a kept match "
          "may lie (negative: any)", "D"},
    {"size", 0, 0, G_OPTION_ARG_STRING, &size, "Frame size", "WxH"},
    {"dump", 0, 0, G_OPTION_ARG_FILENAME, &dump_dir,
        "Write frames and truth here", "DIR"},
    {"case", 0, 0, G_OPTION_ARG_INT, &only_case,
        "Only the motion of this row, counted from 0", "N"},
    {"keep-left-frame", 0, 0, G_OPTION_ARG_NONE, &keep_left_frame,
        "Keep the confidence of tiles matched beyond the frame's edge", NULL},
    {NULL}
  };
  const gchar *name = g_getenv ("GST_CUDAVISION_BACKEND");
  cvcore_backend backend = CVCORE_BACKEND_CPU;
  GOptionContext *ctx = g_option_context_new ("IMAGE... - tile motion "
      "against known motion");
  GError *error = NULL;
  Reliability rel = { {0} };
  gint w = 1280, h = 720, status = 0;
  cvcore_device *device;
  cvcore_stream *stream;
  cvcore_event *start, *end;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx,
      study_correlation_options (&correlation), NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc < 2
      || !study_check_size_and_case ("flow-quality", size, 64, only_case,
          CASES, &w, &h)
      || !study_check_correlation ("flow-quality", &correlation)
      || (name && !cvcore_backend_from_string (name, &backend))) {
    fprintf (stderr, "usage: flow-quality [--levels N] [--refinements N] "
        "[--converge P] [--lowpass S] [--fat-zero F] [--fit-radius R] [--min-confidence C] [--size WxH] "
        "[--dump DIR] [--case N] [--keep-left-frame] image...\n");
    g_clear_error (&error);
    g_option_context_free (ctx);
    g_free (size);
    g_free (dump_dir);
    return 2;
  }
  g_option_context_free (ctx);
  setvbuf (stdout, NULL, _IOLBF, 0);
  study_check (cvcore_device_open (backend, 0, &device), "device");
  study_check (cvcore_stream_new (device, &stream), "stream");
  study_check (cvcore_event_new (device, true, &start), "event");
  study_check (cvcore_event_new (device, true, &end), "event");
  printf ("%dx%d, %s backend, %d pyramid levels, kept: confidence >= %.2f\n\n"
      "| image | motion | textured kept | textured 20th percentile "
      "confidence | flat kept | flat highest confidence | occluded kept | "
      "median px | 95th percentile px | worst px | ms |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n",
      w, h, cvcore_backend_name (backend), levels, min_confidence);
  for (gint i = 1; i < argc; i++) {
    const gdouble e[2] = { 0.37, 0.21 };
    gint lw, lh;
    guint8 *luma = image_load_luma (argv[i], &lw, &lh);
    guint8 *first, *second;
    cvcore_image a_img = { NULL, 0, w, h, 1, CVCORE_SAMPLE_U8 }, b_img;
    cvcore_clt_pyramid *pyramid;
    cvcore_clt_match *dev_matches;

    if (!luma) {
      status = 1;
      break;
    }
    first = g_new (guint8, w * h);
    second = g_new (guint8, w * h);
#pragma omp parallel for
    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++)
        first[y * w + x] = to_sample (sensor (NULL, luma, lw, lh, w, h, e,
                x, y));
    b_img = a_img;
    study_check (cvcore_plane_alloc (device, w, h, &a_img.data, &a_img.pitch),
        "alloc");
    study_check (cvcore_plane_alloc (device, w, h, &b_img.data, &b_img.pitch),
        "alloc");
    study_check (cvcore_device_alloc (device, (gsize) cvcore_clt_tiles (w) *
            cvcore_clt_tiles (h) * sizeof (cvcore_clt_match),
            (void **) &dev_matches), "alloc");
    study_check (cvcore_clt_pyramid_new (device, w, h, levels, &pyramid),
        "pyramid");
    study_check (cvcore_copy_2d_async (stream, a_img.data, a_img.pitch, first,
            w, w, h, CVCORE_COPY_HOST_TO_DEVICE), "upload");
    study_check (cvcore_clt_pyramid_build (stream, pyramid, 1, &a_img, 0),
        "build");
    if (dump_dir) {
      gchar *file = g_strdup_printf ("%d.a.gray", i);
      gchar *frame_size = g_strdup_printf ("%d %d\n", w, h);

      write_file (file, first, (gsize) w * h);
      write_file ("size", frame_size, strlen (frame_size));
      g_free (frame_size);
      g_free (file);
    }
    for (guint c = 0; c < CASES; c++)
      if (only_case == G_MININT || only_case == (gint) c)
        run_case (stream, pyramid, &a_img, &b_img, dev_matches, start, end,
            first, second, luma, lw, lh, w, h, e, c, i, &rel);
    cvcore_clt_pyramid_free (pyramid);
    cvcore_device_free (device, dev_matches);
    cvcore_device_free (device, a_img.data);
    cvcore_device_free (device, b_img.data);
    g_free (first);
    g_free (second);
    g_free (luma);
  }
  if (status == 0) {
    printf ("\n| confidence | tiles | within 0.5 px | within 0.1 px |\n"
        "|---|---|---|---|\n");
    for (gint b = 0; b < BINS; b++)
      printf ("| %.2f - %.2f | %u | %.1f %% | %.1f %% |\n", bin_edges[b],
          MIN (bin_edges[b + 1], 1.0), rel.n[b],
          rel.n[b] ? 100.0 * rel.within_half[b] / rel.n[b] : 0.0,
          rel.n[b] ? 100.0 * rel.within_tenth[b] / rel.n[b] : 0.0);
  }
  cvcore_event_free (start);
  cvcore_event_free (end);
  cvcore_stream_free (stream);
  cvcore_device_close (device);
  g_free (size);
  g_free (dump_dir);
  return status;
}
