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

/* tonemap: kernel time of cvcore_tonemap (luminance and key reduction, key
 * update, mapping; median of CUDA-event timings of 20 back-to-back frames)
 * on RGBA64_LE night scenes to RGBA, global and local, at 1920x1080, the
 * thesis' 2048x1536 and 3840x2160, next to the one-read-one-write floor (a
 * device-to-device copy of 12 bytes per pixel: 8 read, 4 written), the
 * thesis' 13.85 ms (2048x1536, GeForce 8800 GTX) and the frame rate of
 * `cudaupload ! cudatonemap ! cudadownload` from pinned frames; and 10-bit
 * PQ video (P010) to NV12 with the local operator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-util.h"
#include "cvtonemap.h"
#include "night-scene.h"

typedef struct
{
  cvcore_tonemap_frame src, dst;
  cvcore_tonemapper *tm;
  cvcore_tonemap_params params;
  void *floor_src, *floor_dst;
  size_t floor_bytes;
} TonemapJob;

static cvcore_status
run_tonemap (cvcore_stream * stream, gpointer data)
{
  TonemapJob *job = data;

  return cvcore_tonemap (stream, job->tm, &job->src, &job->dst, &job->params,
      1.0 / 30.0);
}

static cvcore_status
run_floor_copy (cvcore_stream * stream, gpointer data)
{
  TonemapJob *job = data;

  return cvcore_copy_async (stream, job->floor_dst, job->floor_src,
      job->floor_bytes, CVCORE_COPY_DEVICE_TO_DEVICE);
}

/* 10-bit PQ video to NV12, local operator: the decode and the conversion
 * on top of the RGBA64 case (kernel time only). */
static void
bench_hdr_video (cvcore_device * device, cvcore_stream * stream,
    TonemapJob * job, const gchar * name, gdouble floor_ms)
{
  const gint w = job->src.plane[0].width, h = job->src.plane[0].height;
  const gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  TonemapJob video = *job;
  gdouble ms;

  memset (&video.src, 0, sizeof (video.src));
  memset (&video.dst, 0, sizeof (video.dst));
  video.src.plane[0] = (cvcore_image) {
  NULL, 0, w, h, 1, CVCORE_SAMPLE_U16};
  video.src.plane[1] = (cvcore_image) {
  NULL, 0, cw, ch, 2, CVCORE_SAMPLE_U16};
  video.dst.plane[0] = (cvcore_image) {
  NULL, 0, w, h, 1, CVCORE_SAMPLE_U8};
  video.dst.plane[1] = (cvcore_image) {
  NULL, 0, cw, ch, 2, CVCORE_SAMPLE_U8};
  for (gint p = 0; p < 2; p++) {
    cvcore_image *s = &video.src.plane[p], *d = &video.dst.plane[p];

    CORE_TRY (cvcore_plane_alloc (device, (size_t) s->width * s->channels * 2,
            s->height, &s->data, &s->pitch));
    CORE_TRY (cvcore_plane_alloc (device, (size_t) d->width * d->channels,
            d->height, &d->data, &d->pitch));
    /* mid-grey codes (0x8080 >> 6 = 514) */
    CORE_TRY (cvcore_memset_2d_async (stream, s->data, s->pitch, 0x80,
            (size_t) s->width * s->channels * 2, s->height));
  }
  cvcore_tonemap_params_init (&video.params);
  cvcore_tonemap_source_init_bt2100 (&video.params.source,
      CVCORE_TONEMAP_YUV420_SEMI, CVCORE_TONEMAP_PQ, 6);
  video.params.output = CVCORE_TONEMAP_OUT_NV12;
  ms = time_median_ms (device, stream, run_tonemap, &video, 21, 20);
  printf ("| %s | local, P010 PQ to NV12 | %.4f | %.4f | %.2f | %.0f | - |\n",
      name, ms, floor_ms, ms / floor_ms, 13.85 / ms);
  fflush (stdout);
  for (gint p = 0; p < 2; p++) {
    cvcore_device_free (device, video.src.plane[p].data);
    cvcore_device_free (device, video.dst.plane[p].data);
  }
}

void
bench_tonemap (cvcore_device * device)
{
  static const BenchSize sizes[] = {
    {"1080p", 1920, 1080}, {"2048x1536", 2048, 1536}, {"4k", 3840, 2160},
  };
  const gdouble thesis_ms = 13.85;
  cvcore_stream *stream;
  TonemapJob job;

  memset (&job, 0, sizeof (job));
  CORE_TRY (cvcore_stream_new (device, &stream));
  printf ("| size | operator | ms | floor ms | ours / floor | thesis 13.85 ms "
      "/ ours | pipeline fps |\n|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s].width, h = sizes[s].height;
    guint16 *host;
    gdouble floor_ms;
#if GST_CHECK_VERSION (1, 20, 0)
    GstVideoInfo info;
#endif

    if (!size_wanted (&sizes[s]))
      continue;
    job.src.plane[0].width = job.dst.plane[0].width = w;
    job.src.plane[0].height = job.dst.plane[0].height = h;
    job.src.plane[0].channels = job.dst.plane[0].channels = 4;
    job.src.plane[0].sample = CVCORE_SAMPLE_U16;
    job.dst.plane[0].sample = CVCORE_SAMPLE_U8;
    CORE_TRY (cvcore_plane_alloc (device, (size_t) w * 8, h,
            &job.src.plane[0].data, &job.src.plane[0].pitch));
    CORE_TRY (cvcore_plane_alloc (device, (size_t) w * 4, h,
            &job.dst.plane[0].data, &job.dst.plane[0].pitch));
    host = g_new (guint16, (gsize) w * h * 4);
    night_scene_paint (host, (size_t) w * 8, w, h, 4, 1, 1.0);
    CORE_TRY (cvcore_copy_2d_async (stream, job.src.plane[0].data,
            job.src.plane[0].pitch, host, (size_t) w * 8, (size_t) w * 8, h,
            CVCORE_COPY_HOST_TO_DEVICE));
    CORE_TRY (cvcore_stream_synchronize (stream));
    g_free (host);
    CORE_TRY (cvcore_tonemapper_new (device, w, h, &job.tm));

    job.floor_bytes = (size_t) w *h * 6;
    CORE_TRY (cvcore_device_alloc (device, job.floor_bytes, &job.floor_src));
    CORE_TRY (cvcore_device_alloc (device, job.floor_bytes, &job.floor_dst));
    floor_ms = time_median_ms (device, stream, run_floor_copy, &job, 21, 20);

#if GST_CHECK_VERSION (1, 20, 0)
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA64_LE, w, h);
    GST_VIDEO_INFO_FPS_N (&info) = 30;
#endif
    for (gint op = 0; op < 2; op++) {
      gchar *between = g_strdup_printf ("cudatonemap operator=%s",
          op ? "local" : "global");
      gdouble ms, fps;

      cvcore_tonemap_params_init (&job.params);
      job.params.op = op ? CVCORE_TONEMAP_LOCAL : CVCORE_TONEMAP_GLOBAL;
      ms = time_median_ms (device, stream, run_tonemap, &job, 21, 20);
#if GST_CHECK_VERSION (1, 20, 0)
      fps = pipeline_fps (&info, TRUE, between);
#else
      fps = NAN;                /* RGBA64_LE caps came with GStreamer 1.20 */
#endif
      printf ("| %s | %s | %.4f | %.4f | %.2f | %.0f | %.0f |\n",
          sizes[s].name, op ? "local" : "global", ms, floor_ms, ms / floor_ms,
          thesis_ms / ms, fps);
      fflush (stdout);
      g_free (between);
    }
    bench_hdr_video (device, stream, &job, sizes[s].name, floor_ms);
    cvcore_tonemapper_free (job.tm);
    cvcore_device_free (device, job.floor_src);
    cvcore_device_free (device, job.floor_dst);
    cvcore_device_free (device, job.src.plane[0].data);
    cvcore_device_free (device, job.dst.plane[0].data);
  }
  cvcore_stream_free (stream);
}
