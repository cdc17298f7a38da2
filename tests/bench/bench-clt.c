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

/* clt: kernel time of cvcore_clt (median of CUDA-event timings of 20
 * back-to-back frames) per operation on GRAY8 and RGBA frames (three
 * colours processed) at 1080p and 4K, next to the one-read-one-write floor
 * (a device-to-device copy of the frame), and the pipeline rate of
 * `cudaupload ! cudaclt operation=shift ! cudadownload`. Then the seed's
 * workload: four 2592x1936 frames through forward transform, space-variant
 * deconvolution (a kernel node every 2 tiles, 16 pixels) and inverse, as
 * RGBA and as 8-bit Bayer mosaics (either mosaic method); the seed took 86.5 ms for four Bayer
 * frames on a GTX 1050 Ti. With it, the seed's quad: the four RGBA
 * frames (its views of a textured slanted plane) deconvolved, then their
 * six pairs correlated and combined per tile as cudaphasecorr mode=rig
 * does (4 levels, the fit), the rig's share beside the deconvolution
 * measured in the same run, and how far its disparities lie from the
 * plane's, and its time where every tile takes every refinement (converge
 * 0); then the same views as RGGB mosaics, deconvolved to grey
 * pictures, their luma and their green (the seed's own workload). Last,
 * phase correlation of a GRAY8 pair at 1080p and 5 MP (2592x1936), as
 * the element does it per frame: the frame's pyramid (reductions and
 * forward transforms) and the matching from the coarsest level (search
 * radius 7) on noise moved by a pixel each way, for the frame alone
 * without and with the lowpass, 4 levels with 2 refinements without the
 * fit of neighbouring matches, the default (with it) and 1 refinement,
 * and the pipeline rate
 * of `cudaupload !
 * cudaphasecorr ! cudadownload` (matches read back every frame). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-util.h"
#include "cvclt.h"

#define SEED_FRAMES 4
/* the seed's deconvolution of its four Bayer frames on a GTX 1050 Ti */
#define SEED_MS 86.5

/* the seed's square quad, camera centres in baselines */
static const gdouble quad_x[SEED_FRAMES] = { 0.0, 1.0, 0.0, 1.0 };
static const gdouble quad_y[SEED_FRAMES] = { 0.0, 0.0, 1.0, 1.0 };

typedef struct
{
  cvcore_image src[SEED_FRAMES], dst[SEED_FRAMES];
  gint frames;
  cvcore_clt_scratch *scratch;
  cvcore_clt_params params;
} CltJob;

static cvcore_status
run_clt (cvcore_stream * stream, gpointer data)
{
  CltJob *job = data;

  for (gint i = 0; i < job->frames; i++) {
    cvcore_status status = cvcore_clt (stream, job->scratch, &job->src[i],
        &job->dst[i], &job->params);

    if (status != CVCORE_OK)
      return status;
  }
  return CVCORE_OK;
}

static cvcore_status
run_copy (cvcore_stream * stream, gpointer data)
{
  CltJob *job = data;
  const cvcore_image *s = &job->src[0];

  return cvcore_copy_2d_async (stream, job->dst[0].data, job->dst[0].pitch,
      s->data, s->pitch, (size_t) s->width * s->channels, s->height,
      CVCORE_COPY_DEVICE_TO_DEVICE);
}

static void
alloc_frames (cvcore_device * device, cvcore_stream * stream, CltJob * job,
    gint frames, gint w, gint h, gint channels)
{
  job->frames = frames;
  for (gint i = 0; i < frames; i++) {
    job->src[i] = (cvcore_image) {
    NULL, 0, w, h, channels, CVCORE_SAMPLE_U8};
    job->dst[i] = job->src[i];
    CORE_TRY (cvcore_plane_alloc (device, (size_t) w * channels, h,
            &job->src[i].data, &job->src[i].pitch));
    CORE_TRY (cvcore_plane_alloc (device, (size_t) w * channels, h,
            &job->dst[i].data, &job->dst[i].pitch));
    CORE_TRY (cvcore_memset_2d_async (stream, job->src[i].data,
            job->src[i].pitch, 0x40 + 8 * i, (size_t) w * channels, h));
  }
  /* three colours of RGBA, and of a mosaic */
  CORE_TRY (cvcore_clt_scratch_new (device, w, h, 3, true, &job->scratch));
}

static void
free_frames (cvcore_device * device, CltJob * job)
{
  for (gint i = 0; i < job->frames; i++) {
    cvcore_device_free (device, job->src[i].data);
    cvcore_device_free (device, job->dst[i].data);
  }
  cvcore_clt_scratch_free (job->scratch);
}

/* The disparity of the plane that the quad's views show (fill_rig_views)
 * at row @y of frames @h rows high. */
static gdouble
rig_plane_disparity (gdouble y, gint h)
{
  return 2.0 + 4.0 * y / (h - 1);
}

/* The seed's quad looking at a textured plane that slants away from the
 * top of the frame to the bottom, disparity 2 to 6 pixels per baseline:
 * view v (its camera at @cx, @cy) shows at q what view 0 shows at q + D
 * (c_v - c_0), so the rig's tiles lie between pixels, as they do in use,
 * and match. The texture is a sum of plane waves, rendered at any
 * position without resampling; all three colours carry it, in RGBA or
 * through a mosaic (frames of one channel). */
static void
fill_rig_views (cvcore_stream * stream, CltJob * job, const gdouble * cx,
    const gdouble * cy)
{
  enum
  { WAVES = 12 };
  const gint w = job->src[0].width, h = job->src[0].height;
  const gint channels = job->src[0].channels;
  gdouble kx[WAVES], ky[WAVES], phase[WAVES];
  guint8 *host = g_malloc ((gsize) w * h * channels);
  GRand *rand = g_rand_new_with_seed (5);

  for (gint k = 0; k < WAVES; k++) {
    const gdouble angle = g_rand_double_range (rand, 0.0, G_PI);
    const gdouble cycles = g_rand_double_range (rand, 0.02, 0.3);

    kx[k] = 2.0 * G_PI * cycles * cos (angle);
    ky[k] = 2.0 * G_PI * cycles * sin (angle);
    phase[k] = g_rand_double_range (rand, 0.0, 2.0 * G_PI);
  }
  for (gint v = 0; v < job->frames; v++) {
    for (gint y = 0; y < h; y++) {
      const gdouble d = rig_plane_disparity (y, h);
      const gdouble sy = y + d * (cy[v] - cy[0]);

      for (gint x = 0; x < w; x++) {
        const gdouble sx = x + d * (cx[v] - cx[0]);
        gdouble value = 128.0;

        for (gint k = 0; k < WAVES; k++)
          value += 18.0 * sin (kx[k] * sx + ky[k] * sy + phase[k]);
        memset (host + ((gsize) y * w + x) * channels,
            (guint8) CLAMP (value + 0.5, 0.0, 255.0), channels);
      }
    }
    CORE_TRY (cvcore_copy_2d_async (stream, job->src[v].data,
            job->src[v].pitch, host, (size_t) w * channels,
            (size_t) w * channels, h, CVCORE_COPY_HOST_TO_DEVICE));
    CORE_TRY (cvcore_stream_synchronize (stream));
  }
  g_rand_free (rand);
  g_free (host);
}

/* A kernel set for @w x @h of 3 colours, every node the inverse of a
 * Gaussian blur a little different from its neighbours'. */
static void
load_kernels (cvcore_stream * stream, CltJob * job, gint w, gint h, gint stride)
{
  cvcore_clt_kernel_set *set;
  gdouble psf[7 * 7];

  CORE_TRY (cvcore_clt_kernel_set_new (w, h, stride, 3, &set));
  for (gint c = 0; c < 3; c++)
    for (gint ny = 0; ny < set->nodes_y; ny++)
      for (gint nx = 0; nx < set->nodes_x; nx++) {
        const gdouble sigma = 0.8 + 0.1 * c + 0.002 * (nx + ny);

        for (gint i = 0; i < 49; i++) {
          const gdouble dx = i % 7 - 3, dy = i / 7 - 3;

          psf[i] = exp (-(dx * dx + dy * dy) / (2 * sigma * sigma));
        }
        cvcore_clt_response_from_psf (psf, 7, 1e-2, TRUE,
            cvcore_clt_kernel_set_node (set, c, nx, ny));
      }
  CORE_TRY (cvcore_clt_set_kernels (job->scratch, stream, set));
  cvcore_clt_kernel_set_free (set);
}

static void
set_params (CltJob * job, cvcore_clt_operation op, gint channels)
{
  cvcore_clt_params_init (&job->params);
  job->params.operation = op;
  job->params.shift_x = 0.5;
  job->params.shift_y = -0.25;
  job->params.sigma = 1.5;
  job->params.channel_mask = channels == 4 ? 0x7 : 0x1;
  for (gint c = 0; c < 3; c++)
    job->params.kernel_channel[c] = c;
}

static void
bench_operations (cvcore_device * device, cvcore_stream * stream)
{
  static const BenchSize sizes[] = {
    {"1080p", 1920, 1080}, {"4k", 3840, 2160},
  };
  static const gchar *names[] = { "none", "shift", "lowpass", "deconvolve" };

  printf ("| size | format | operation | ms | floor ms | ours / floor | "
      "pipeline fps (shift) |\n|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (gint channels = 1; channels <= 4; channels += 3) {
      const gint w = sizes[s].width, h = sizes[s].height;
      GstVideoInfo info;
      CltJob job;
      gdouble floor_ms, fps;

      if (!size_wanted (&sizes[s]))
        continue;
      memset (&job, 0, sizeof (job));
      alloc_frames (device, stream, &job, 1, w, h, channels);
      load_kernels (stream, &job, w, h, 2);
      floor_ms = time_median_ms (device, stream, run_copy, &job, 21, 20);
      gst_video_info_set_format (&info, channels == 4 ?
          GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8, w, h);
      GST_VIDEO_INFO_FPS_N (&info) = 30;
      fps = pipeline_fps (&info, TRUE,
          "cudaclt operation=shift shift-x=0.5 shift-y=-0.25");
      for (gint op = 0; op < 4; op++) {
        gdouble ms;

        set_params (&job, (cvcore_clt_operation) op, channels);
        ms = time_median_ms (device, stream, run_clt, &job, 21, 20);
        printf ("| %s | %s | %s | %.4f | %.4f | %.1f | ", sizes[s].name,
            channels == 4 ? "RGBA" : "GRAY8", names[op], ms, floor_ms,
            ms / floor_ms);
        printf (op == 1 ? "%.0f |\n" : "|\n", fps);
        fflush (stdout);
      }
      free_frames (device, &job);
    }
}

typedef struct
{
  cvcore_image a, b;
  cvcore_clt_pyramid *pyramid;
  cvcore_clt_match *matches;
  cvcore_clt_corr_params params;
} CorrJob;

/* What the element does per frame: the frame's pyramid, and the previous
 * frame's matched in it. */
static cvcore_status
run_correlate (cvcore_stream * stream, gpointer data)
{
  CorrJob *job = data;

  return cvcore_clt_pyramid_build_and_correlate (stream, job->pyramid, 1, 0,
      &job->b, 0, &job->params, job->matches);
}

static void
bench_correlate (cvcore_device * device, cvcore_stream * stream)
{
  static const BenchSize sizes[] = {
    {"1080p", 1920, 1080}, {"5MP", 2592, 1936},
  };
  /* levels, refinements, lowpass, fit radius: the frame alone as before
   * levels and the lowpass existed, the frame alone with the lowpass, the
   * pyramid before the fit existed, the default, and a cheaper pyramid */
  static const gint settings[][4] = { {0, 2, 0, 0}, {0, 2, 1, 0},
  {4, 2, 1, 0}, {4, 2, 1, 3}, {4, 1, 1, 3}
  };

  printf ("\n| size | levels | refinements | lowpass | fit radius | pyramid + "
      "correlate ms | pipeline fps |\n|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s].width, h = sizes[s].height;
    const gsize tiles = (gsize) cvcore_clt_tiles (w) * cvcore_clt_tiles (h);
    GstVideoInfo info;
    CorrJob job;
    gdouble fps;

    if (!size_wanted (&sizes[s]))
      continue;
    memset (&job, 0, sizeof (job));
    job.a = (cvcore_image) {
    NULL, 0, w, h, 1, CVCORE_SAMPLE_U8};
    job.b = job.a;
    CORE_TRY (cvcore_plane_alloc (device, w, h, &job.a.data, &job.a.pitch));
    CORE_TRY (cvcore_plane_alloc (device, w, h, &job.b.data, &job.b.pitch));
    {
      /* texture that moved by a pixel each way: the fit's work depends on
       * the matches it finds */
      guint8 *noise = g_malloc ((gsize) w * (h + 1) + 1);

      for (gsize i = 0; i < (gsize) w * (h + 1) + 1; i++)
        noise[i] = (guint8) g_random_int_range (0, 256);
      CORE_TRY (cvcore_copy_2d_async (stream, job.a.data, job.a.pitch,
              noise + w + 1, w, w, h, CVCORE_COPY_HOST_TO_DEVICE));
      CORE_TRY (cvcore_copy_2d_async (stream, job.b.data, job.b.pitch, noise,
              w, w, h, CVCORE_COPY_HOST_TO_DEVICE));
      CORE_TRY (cvcore_stream_synchronize (stream));
      g_free (noise);
    }
    CORE_TRY (cvcore_device_alloc (device, tiles * sizeof (cvcore_clt_match),
            (void **) &job.matches));
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
    GST_VIDEO_INFO_FPS_N (&info) = 30;
    fps = pipeline_fps (&info, TRUE, "cudaphasecorr");
    for (guint k = 0; k < G_N_ELEMENTS (settings); k++) {
      CORE_TRY (cvcore_clt_pyramid_new (device, w, h, settings[k][0],
              &job.pyramid));
      CORE_TRY (cvcore_clt_pyramid_build (stream, job.pyramid, 1, &job.a, 0));
      cvcore_clt_corr_params_init (&job.params);
      job.params.refinements = settings[k][1];
      job.params.lowpass = settings[k][2];
      job.params.fit_radius = settings[k][3];
      printf ("| %s | %d | %d | %d | %d | %.4f | ", sizes[s].name,
          settings[k][0], settings[k][1], settings[k][2], settings[k][3],
          time_median_ms (device, stream, run_correlate, &job, 21, 20));
      printf (k == 3 ? "%.0f |\n" : "|\n", fps);
      fflush (stdout);
      CORE_TRY (cvcore_stream_synchronize (stream));
      cvcore_clt_pyramid_free (job.pyramid);
    }
    cvcore_device_free (device, job.a.data);
    cvcore_device_free (device, job.b.data);
    cvcore_device_free (device, job.matches);
  }
}

/* The seed's quad: its frames deconvolved, then its six pairs correlated
 * and combined (cudaphasecorr mode=rig's defaults: 4 levels, 2
 * refinements, the fit). */
typedef struct
{
  CltJob *clt;
  gint channel;                 /* of the deconvolved frames */
  cvcore_clt_rig_pyramid *pyramid;
  cvcore_clt_rig rig;
  cvcore_clt_corr_params params;
  cvcore_clt_match *matches;
} RigJob;

static cvcore_status
run_rig (cvcore_stream * stream, gpointer data)
{
  RigJob *job = data;
  cvcore_status status = run_clt (stream, job->clt);

  if (status != CVCORE_OK)
    return status;
  return cvcore_clt_rig_pyramid_correlate (stream, job->pyramid,
      job->clt->dst, job->channel, &job->rig, &job->params, job->matches, NULL);
}

/* Where the rig's time goes: its finest level alone (one launch, no
 * pyramid, no fit), with fewer refinements, a narrower search and fewer
 * pairs. */
static cvcore_status
run_rig_level (cvcore_stream * stream, gpointer data)
{
  RigJob *job = data;

  return cvcore_clt_rig_correlate (stream, job->clt->dst, job->channel,
      &job->rig, &job->params, job->matches, NULL);
}

static void
rig_level_costs (cvcore_device * device, cvcore_stream * stream, RigJob * job)
{
  const struct
  {
    const gchar *what;
    gint views, radius, refinements;
  } cases[] = {
    {"as the pyramid's finest level searches (4 views, radius 7, 2 "
          "refinements)", 4, 7, 2},
    {"no refinement", 4, 7, 0},
    {"radius 1, no refinement", 4, 1, 0},
    {"one pair (2 views), radius 7, 2 refinements", 2, 7, 2},
  };
  RigJob level = *job;

  printf ("The rig's finest level alone, one launch:");
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    level.rig.views = cases[c].views;
    level.params.search_radius = cases[c].radius;
    level.params.refinements = cases[c].refinements;
    printf ("%s %s %.3f ms", c ? ";" : "", cases[c].what,
        time_median_ms (device, stream, run_rig_level, &level, 11, 5));
    fflush (stdout);
  }
  printf ("\n");
}

/* The rig on @clt's frames, deconvolved in @deconvolve_ms; the rig
 * matches their @channel, which holds @what (the green of RGBA, as the
 * element takes RGB's luminance, or a grey picture). */
static void
bench_rig (cvcore_device * device, cvcore_stream * stream, CltJob * clt,
    gint channel, const gchar * what, gdouble deconvolve_ms)
{
  const gint w = clt->dst[0].width, h = clt->dst[0].height;
  const gint tiles_x = cvcore_clt_tiles (w), tiles = tiles_x *
      cvcore_clt_tiles (h);
  RigJob job = { clt, channel };
  cvcore_clt_match *found = g_new (cvcore_clt_match, tiles);
  gdouble ms, every_ms, default_converge, *errors = g_new (gdouble, tiles);
  gint kept = 0;

  cvcore_clt_corr_params_init (&job.params);
  job.params.initial_x = 4.0;
  default_converge = job.params.converge;
  CORE_TRY (cvcore_clt_rig_pyramid_new (device, w, h, 4, 4, &job.pyramid));
  CORE_TRY (cvcore_device_alloc (device, sizeof (cvcore_clt_match) * tiles,
          (void **) &job.matches));
  job.rig.views = SEED_FRAMES;
  memcpy (job.rig.x, quad_x, sizeof (quad_x));
  memcpy (job.rig.y, quad_y, sizeof (quad_y));
  job.params.converge = 0.0;
  every_ms = time_median_ms (device, stream, run_rig, &job, 11, 5);
  job.params.converge = default_converge;
  ms = time_median_ms (device, stream, run_rig, &job, 11, 5);
  /* what it found, against the plane's disparity at each tile's centre */
  CORE_TRY (cvcore_copy_async (stream, found, job.matches,
          sizeof (cvcore_clt_match) * tiles, CVCORE_COPY_DEVICE_TO_HOST));
  CORE_TRY (cvcore_stream_synchronize (stream));
  for (gint t = 0; t < tiles; t++)
    if (found[t].confidence > 0.0f)
      errors[kept++] = fabs (found[t].dx -
          rig_plane_disparity (cvcore_clt_tile_centre (t / tiles_x), h));
  qsort (errors, kept, sizeof (gdouble), compare_doubles);
  printf ("The seed's quad: the same, then its six pairs correlated and "
      "combined per tile from the %s", what);
  printf (" (4 levels, 2 refinements, the fit): %.3f ms, of "
      "which the rig %.3f ms (%.0fx the seed's deconvolution alone; %.3f ms "
      "where every tile takes every refinement, converge 0); %d of "
      "%d tiles kept, their disparity off by %.3f px at the median and %.3f "
      "at the 95th percentile\n", ms, ms - deconvolve_ms, SEED_MS / ms,
      every_ms, kept, tiles, kept ? errors[kept / 2] : 0.0,
      kept ? errors[kept * 95 / 100] : 0.0);
  rig_level_costs (device, stream, &job);
  CORE_TRY (cvcore_stream_synchronize (stream));
  g_free (errors);
  g_free (found);
  cvcore_device_free (device, job.matches);
  cvcore_clt_rig_pyramid_free (job.pyramid);
}

/* The seed's quad as 8-bit RGGB mosaics (the same views): with
 * @to_mosaics, deconvolved back to mosaics by either method; then to grey
 * pictures from @first_grey to green, each through the rig. */
static void
bench_mosaic_quad (cvcore_device * device, cvcore_stream * stream,
    gboolean to_mosaics, cvcore_clt_grey first_grey)
{
  static const gchar *grey_names[] = {
    [CVCORE_CLT_GREY_LUMA] = "luma",
    [CVCORE_CLT_GREY_GREEN] = "green",
  };
  CltJob job;
  gdouble ms;

  memset (&job, 0, sizeof (job));
  alloc_frames (device, stream, &job, SEED_FRAMES, 2592, 1936, 1);
  fill_rig_views (stream, &job, quad_x, quad_y);
  load_kernels (stream, &job, 2592, 1936, 2);
  set_params (&job, CVCORE_CLT_DECONVOLVE, 1);
  job.params.bayer = CVCORE_CLT_BAYER_RGGB;
  for (gint m = 0; to_mosaics && m < 2; m++) {
    job.params.mosaic_method = m ? CVCORE_CLT_MOSAIC_SPARSE :
        CVCORE_CLT_MOSAIC_INTERPOLATE;
    ms = time_median_ms (device, stream, run_clt, &job, 11, 5);
    printf ("The same on %d RGGB mosaics, %s, back to mosaics: %.3f ms "
        "(%.0fx the seed)\n", SEED_FRAMES, m ? "sparse colours (4 of 12 "
        "colour layers transformed)" : "each colour interpolated first", ms,
        SEED_MS / ms);
  }
  job.params.mosaic_method = CVCORE_CLT_MOSAIC_SPARSE;
  for (gint g = first_grey; g <= CVCORE_CLT_GREY_GREEN; g++) {
    job.params.grey = (cvcore_clt_grey) g;
    ms = time_median_ms (device, stream, run_clt, &job, 11, 5);
    printf ("The %d RGGB mosaics, sparse colours, to their %s: %.3f ms "
        "(%.0fx the seed)\n", SEED_FRAMES, grey_names[g], ms, SEED_MS / ms);
    bench_rig (device, stream, &job, 0, grey_names[g], ms);
  }
  free_frames (device, &job);
}

void
bench_clt (cvcore_device * device)
{
  cvcore_stream *stream;
  CltJob job;
  gdouble ms;

  CORE_TRY (cvcore_stream_new (device, &stream));
  bench_operations (device, stream);

  memset (&job, 0, sizeof (job));
  alloc_frames (device, stream, &job, SEED_FRAMES, 2592, 1936, 4);
  fill_rig_views (stream, &job, quad_x, quad_y);
  load_kernels (stream, &job, 2592, 1936, 2);
  set_params (&job, CVCORE_CLT_DECONVOLVE, 4);
  ms = time_median_ms (device, stream, run_clt, &job, 11, 5);
  printf ("\nThe seed's workload, %d frames of 2592x1936, 3 colours each "
      "(RGBA), forward + deconvolve + inverse: %.3f ms (seed: %.1f ms for "
      "Bayer frames on a GTX 1050 Ti, %.0fx)\n", SEED_FRAMES, ms, SEED_MS,
      SEED_MS / ms);
  bench_rig (device, stream, &job, 1, "green of RGBA", ms);
  free_frames (device, &job);
  bench_mosaic_quad (device, stream, TRUE, CVCORE_CLT_GREY_LUMA);
  bench_correlate (device, stream);
  cvcore_stream_free (stream);
}

void
bench_rig_quad (cvcore_device * device)
{
  cvcore_stream *stream;

  CORE_TRY (cvcore_stream_new (device, &stream));
  bench_mosaic_quad (device, stream, FALSE, CVCORE_CLT_GREY_GREEN);
  cvcore_stream_free (stream);
}

void
bench_phase_correlation (cvcore_device * device)
{
  cvcore_stream *stream;

  CORE_TRY (cvcore_stream_new (device, &stream));
  bench_correlate (device, stream);
  cvcore_stream_free (stream);
}
