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

/* gabor: kernel time of cvcore_gabor (median of CUDA-event timings of 20
 * back-to-back frames) on GRAY8 frames to GRAY8 magnitude, recursive and
 * FIR, one orientation and a bank of 8, sigma 2, 8 and 32, at 1080p and
 * 4K; next to the one-read-one-write floor (a device-to-device copy of the
 * frame) and the seed's 31 fps at 640x480 (GPU shader implementation,
 * recursive, one orientation). Then, at sigma 2, the real part alone as a
 * dense 2-D FIR (17x17 taps) through cvcore_convolve and NPP's
 * nppiFilterBorder32f, for scale. */
#include <stdio.h>
#include <string.h>

#include <math.h>

#include "bench-util.h"
#include "cvconvolve.h"
#include "cvgabor.h"
#ifdef HAVE_NPP_PEER
#include "npp-peer.h"
#endif

typedef struct
{
  cvcore_image src, dst;
  cvcore_gabor_scratch *scratch;
  cvcore_gabor_params params;
  cvcore_convolve_plan conv;
  void *conv_scratch;
#ifdef HAVE_NPP_PEER
  NppPeer *npp;
#endif
} GaborJob;

static cvcore_status
run_convolve (cvcore_stream * stream, gpointer data)
{
  GaborJob *job = data;

  return cvcore_convolve (stream, &job->src, &job->dst, 0x1, &job->conv,
      job->conv_scratch);
}

#ifdef HAVE_NPP_PEER
static cvcore_status
run_npp (cvcore_stream * stream, gpointer data)
{
  GaborJob *job = data;

  (void) stream;
  return npp_peer_filter (job->npp, &job->src, &job->dst);
}
#endif

/* The real part of the sigma 2, wavelength 8, orientation 0 Gabor, sampled
 * over 4 sigma, as a dense kernel. */
static void
real_part_taps (cvcore_convolve_taps * taps)
{
  const gdouble sigma = 2.0, omega = 2.0 * G_PI / 8.0;
  const gint r = 8;

  taps->width = taps->height = 2 * r + 1;
  for (gint y = -r; y <= r; y++)
    for (gint x = -r; x <= r; x++)
      taps->taps[(y + r) * taps->width + x + r] = (float) (exp (-(x * x +
                  y * y) / (2.0 * sigma * sigma)) / (2.0 * G_PI * sigma *
              sigma) * cos (omega * x));
}

static void
fir_peers (cvcore_device * device, cvcore_stream * stream, GaborJob * job,
    const BenchSize * size)
{
  const size_t scratch = cvcore_convolve_scratch_size (device,
      job->src.width, job->src.height, 1);
  cvcore_convolve_taps taps;

  real_part_taps (&taps);
  job->conv_scratch = NULL;
  if (scratch > 0)
    CORE_TRY (cvcore_device_alloc (device, scratch, &job->conv_scratch));
  CORE_TRY (cvcore_convolve_plan_init (&job->conv, &taps, -1, -1, 1.0, 128.0,
          CVCORE_BORDER_CLAMP, 0.0, CVCORE_SAMPLE_U8));
  printf ("\n%s, sigma 2, real part only as a 17x17 FIR: cvcore_convolve "
      "(rank 1, two passes) %.4f ms", size->name, time_median_ms (device,
          stream, run_convolve, job, 21, 20));
#ifdef HAVE_NPP_PEER
  if (job->npp && npp_peer_set_taps (job->npp, &taps) == CVCORE_OK)
    printf (", NPP nppiFilterBorder32f (dense) %.4f ms", time_median_ms (device,
            stream, run_npp, job, 21, 20));
#endif
  printf ("\n\n");
  fflush (stdout);
  cvcore_device_free (device, job->conv_scratch);
}

static cvcore_status
run_gabor (cvcore_stream * stream, gpointer data)
{
  GaborJob *job = data;

  return cvcore_gabor (stream, job->scratch, &job->src, &job->dst,
      &job->params);
}

static cvcore_status
run_copy (cvcore_stream * stream, gpointer data)
{
  GaborJob *job = data;

  return cvcore_copy_2d_async (stream, job->dst.data, job->dst.pitch,
      job->src.data, job->src.pitch, (size_t) job->src.width,
      job->src.height, CVCORE_COPY_DEVICE_TO_DEVICE);
}

void
bench_gabor (cvcore_device * device)
{
  static const BenchSize sizes[] = {
    {"1080p", 1920, 1080}, {"4k", 3840, 2160},
  };
  static const gdouble sigmas[] = { 2.0, 8.0, 32.0 };
  /* orientations and the first one: a bank of 8 from 0 degrees shares
   * three row passes between mirrored orientations, one from 10 degrees
   * none */
  static const struct
  {
    gint count;
    gdouble start;
  } banks[] = { {1, 0.0}, {8, 0.0}, {8, 10.0} };
  /* the seed: 31 frames per second at 640x480 */
  const gdouble seed_ms_per_mpixel = 1000.0 / 31.0 / (640.0 * 480.0 / 1e6);
  cvcore_stream *stream;
  GaborJob job;

  memset (&job, 0, sizeof (job));
  CORE_TRY (cvcore_stream_new (device, &stream));
#ifdef HAVE_NPP_PEER
  if (cvcore_device_backend (device) == CVCORE_BACKEND_CUDA)
    job.npp = npp_peer_open (stream);
#endif
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s].width, h = sizes[s].height;
    gdouble floor_ms;

    if (!size_wanted (&sizes[s]))
      continue;
    printf ("| size | orientations (first) | sigma | method | ms | floor ms | "
        "ours / floor | seed's rate / ours (per pixel) |\n"
        "|---|---|---|---|---|---|---|---|\n");
    job.src = (cvcore_image) {
    NULL, 0, w, h, 1, CVCORE_SAMPLE_U8};
    job.dst = job.src;
    CORE_TRY (cvcore_plane_alloc (device, w, h, &job.src.data, &job.src.pitch));
    CORE_TRY (cvcore_plane_alloc (device, w, h, &job.dst.data, &job.dst.pitch));
    CORE_TRY (cvcore_memset_2d_async (stream, job.src.data, job.src.pitch,
            0x40, w, h));
    CORE_TRY (cvcore_gabor_scratch_new (device, w, h, 8, &job.scratch));
    floor_ms = time_median_ms (device, stream, run_copy, &job, 21, 20);
    for (guint b = 0; b < G_N_ELEMENTS (banks); b++)
      for (guint k = 0; k < G_N_ELEMENTS (sigmas); k++)
        for (gint m = 0; m < (banks[b].start == 0.0 ? 2 : 1); m++) {
          gdouble ms;

          cvcore_gabor_params_init (&job.params);
          job.params.orientations = banks[b].count;
          job.params.orientation = banks[b].start;
          job.params.sigma = sigmas[k];
          job.params.method = m ? CVCORE_GABOR_FIR : CVCORE_GABOR_RECURSIVE;
          ms = time_median_ms (device, stream, run_gabor, &job, 11, 10);
          printf ("| %s | %d (%g) | %g | %s | %.4f | %.4f | %.1f | %.0f |\n",
              sizes[s].name, banks[b].count, banks[b].start, sigmas[k],
              m ? "fir" : "recursive", ms, floor_ms, ms / floor_ms,
              seed_ms_per_mpixel * w * h / 1e6 / ms);
          fflush (stdout);
        }
    fir_peers (device, stream, &job, &sizes[s]);
    cvcore_gabor_scratch_free (job.scratch);
    cvcore_device_free (device, job.src.data);
    cvcore_device_free (device, job.dst.data);
  }
#ifdef HAVE_NPP_PEER
  npp_peer_close (job.npp);
#endif
  cvcore_stream_free (stream);
}
