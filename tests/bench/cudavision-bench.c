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

/* cudavision-bench: speed of the cudavision elements, printed next to peers
 * measured in the same run.
 *
 *   cudavision-bench transfer|copies|streams|convolve|foveate|tonemap|gabor|clt|correlate|rig|gpus
 *       [--frames N] [--sizes 1080p,4k] [--pipelines N] [--rate FPS]
 *
 * transfer: `appsrc ! cudaupload [! queue] ! cudadownload ! fakesink` frame
 * rate with pre-filled pinned buffers (from the pool cudaupload proposes),
 * with eight ordinary (pageable) buffers pushed in turn, as a source's
 * pool recycles them, and with one-off ordinary memory (a new GstMemory
 * every frame), against the serial PCIe floor: one pinned host-to-device
 * copy plus one device-to-host copy of the same bytes, timed with events
 * on one stream; and with downstream offering a pool of ordinary memory of
 * its own kind, which cudadownload downloads into.
 *
 * copies: the serial floor of each size and format, back to back and one
 * round trip per frame at --rate frames per second (--frames of them), in
 * device time and as the waiting host sees it: the latency benchmark's
 * copy floor.
 *
 * streams: aggregate frame rate of several `appsrc ! cudaupload !
 * cudafoveate ! cudadownload ! fakesink` pipelines running at once in this
 * process (run several processes for the other case).
 *
 * convolve: kernel time of cvcore_convolve (median of CUDA-event timings
 * of 20 back-to-back runs) for 3x3, 5x5, 15x15 and 31x31 kernels (integer
 * dense, integer rank-1, fractional dense) on RGBA (all four channels) and
 * GRAY8 frames, next to NPP's nppiFilterBorder on the same frames and taps
 * (when the toolkit's NPP library can be loaded) and to the
 * one-read-one-write floor: a device-to-device copy of the frame.
 *
 * foveate: kernel time of cvcore_foveate on RGBA frames (alpha copied) at
 * default and strong foveation (strength 1, 3 and 10), block-wise and
 * smooth, fixation at the centre and at a corner, 32-pixel fragments, by
 * the rendering the plan picks and by the direct one (fewer samples; not
 * for smooth strength 10, nor for banks too large), and with the fixation
 * moving every frame (so that every frame's filter bank is new), next to
 * the copy floor and to the published 1.65 ms (1920x1080 RGB, GTX 1060).
 *
 * tonemap, gabor, clt, gpus: see bench-tonemap.c, bench-gabor.c,
 * bench-clt.c, bench-gpus.c. correlate: clt's phase correlation rows
 * alone (--sizes 1080p,5MP). rig: clt's row of the seed's own workload
 * alone (its RGGB mosaics deconvolved to their green, then the rig).
 *
 * The backend is GST_CUDAVISION_BACKEND's (default cuda); on the CPU backend
 * the numbers are memcpy speeds and only say that the program works.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include "cvcore.h"
#include "cvconvolve.h"
#include "cvfoveate.h"
#include "bench-util.h"
#ifdef HAVE_NPP_PEER
#include "npp-peer.h"
#endif

#define BENCH_COMMANDS \
  "transfer|copies|streams|convolve|foveate|tonemap|gabor|clt|correlate|rig|gpus"

static const BenchSize all_sizes[] = {
  {"1080p", 1920, 1080},
  {"4k", 3840, 2160},
};

static const GstVideoFormat bench_formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12,
};

static gint n_frames = 300;
static gint n_pipelines = 0;
static gint copy_threads = 0;
static gint frame_rate = 60;
static gint gpus_device = -1;
static gchar *gpus_case = NULL;

/* Serial floor: ms for one H2D plus one D2H copy of @bytes from and to
 * pinned memory, the median of @reps round trips timed by events, one
 * every @pace_us (0: back to back). Where @host_ms is given, also the
 * median from queueing the first copy to the host's return from its wait
 * for the second, as a pipeline's thread sees it. */
static gdouble
serial_floor_ms (cvcore_device * device, gsize bytes, guint reps,
    gulong pace_us, gdouble * host_ms)
{
  cvcore_stream *stream;
  cvcore_event *start, *end;
  void *host_in, *host_out, *dev;
  gdouble *times = g_new (gdouble, reps), *host_times = g_new (gdouble, reps);
  gdouble median;

  CORE_TRY (cvcore_stream_new (device, &stream));
  CORE_TRY (cvcore_event_new (device, true, &start));
  CORE_TRY (cvcore_event_new (device, true, &end));
  CORE_TRY (cvcore_host_alloc (device, bytes, &host_in));
  CORE_TRY (cvcore_host_alloc (device, bytes, &host_out));
  CORE_TRY (cvcore_device_alloc (device, bytes, &dev));
  memset (host_in, 1, bytes);

  for (guint i = 0; i < reps + 3; i++) {
    gint64 queued;
    float ms;

    if (pace_us > 0)
      g_usleep (pace_us);
    queued = g_get_monotonic_time ();
    CORE_TRY (cvcore_event_record (start, stream));
    CORE_TRY (cvcore_copy_async (stream, dev, host_in, bytes,
            CVCORE_COPY_HOST_TO_DEVICE));
    CORE_TRY (cvcore_copy_async (stream, host_out, dev, bytes,
            CVCORE_COPY_DEVICE_TO_HOST));
    CORE_TRY (cvcore_event_record (end, stream));
    CORE_TRY (cvcore_event_synchronize (end));
    CORE_TRY (cvcore_event_elapsed_ms (start, end, &ms));
    if (i >= 3) {               /* warm-up */
      times[i - 3] = ms;
      host_times[i - 3] = (g_get_monotonic_time () - queued) / 1e3;
    }
  }
  qsort (times, reps, sizeof (gdouble), compare_doubles);
  median = times[reps / 2];
  if (host_ms) {
    qsort (host_times, reps, sizeof (gdouble), compare_doubles);
    *host_ms = host_times[reps / 2];
  }

  g_free (times);
  g_free (host_times);
  cvcore_device_free (device, dev);
  cvcore_host_free (device, host_in);
  cvcore_host_free (device, host_out);
  cvcore_event_free (start);
  cvcore_event_free (end);
  cvcore_stream_free (stream);
  return median;
}

/* The copies of one frame each way, as a live pipeline makes them: back
 * to back, and one round trip per frame at --rate, where the device idles
 * between frames; the latency benchmark's floor. */
static void
bench_copies (cvcore_device * device)
{
  const gulong pace_us = 1000000 / frame_rate;

  printf ("| size | format | MB/frame | back to back ms | at %d fps ms | "
      "at %d fps, host's view ms |\n", frame_rate, frame_rate);
  printf ("|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (all_sizes); s++) {
    if (!size_wanted (&all_sizes[s]))
      continue;
    for (guint f = 0; f < G_N_ELEMENTS (bench_formats); f++) {
      GstVideoInfo info;
      gdouble host_ms, paced_ms;

      gst_video_info_set_format (&info, bench_formats[f], all_sizes[s].width,
          all_sizes[s].height);
      paced_ms = serial_floor_ms (device, info.size, n_frames, pace_us,
          &host_ms);
      printf ("| %s | %s | %.2f | %.3f | %.3f | %.3f |\n", all_sizes[s].name,
          gst_video_format_to_string (bench_formats[f]), info.size / 1e6,
          serial_floor_ms (device, info.size, 21, 0, NULL), paced_ms, host_ms);
      fflush (stdout);
    }
  }
}

/* Where the frames the pipeline pushes live. */
typedef enum
{
  INPUT_PINNED,                 /* the page-locked pool cudaupload proposes */
  INPUT_RECYCLED,               /* eight ordinary buffers pushed in turn */
  INPUT_ONE_OFF,                /* a new memory every frame, never again */
} InputKind;

/* Frames the pipeline pushes, prepared before the clock starts. */
typedef struct
{
  GstBuffer *buffers[8];
  guint n;
  GstBufferPool *pool;
} FrameSet;

static void
fill_buffers_from_pool (FrameSet * set, GstElement * appsrc, GstCaps * caps)
{
  GstPad *pad = gst_element_get_static_pad (appsrc, "src");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstStructure *config;

  if (!gst_pad_peer_query (pad, query)
      || gst_query_get_n_allocation_pools (query) == 0) {
    fprintf (stderr, "cudavision-bench: cudaupload proposed no pool\n");
    exit (1);
  }
  gst_query_parse_nth_allocation_pool (query, 0, &set->pool, NULL, NULL, NULL);
  config = gst_buffer_pool_get_config (set->pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_set_config (set->pool, config);
  gst_buffer_pool_set_active (set->pool, TRUE);
  for (guint i = 0; i < set->n; i++) {
    GstMapInfo map;

    if (gst_buffer_pool_acquire_buffer (set->pool, &set->buffers[i], NULL)
        != GST_FLOW_OK) {
      fprintf (stderr, "cudavision-bench: no buffer from the pinned pool\n");
      exit (1);
    }
    gst_buffer_map (set->buffers[i], &map, GST_MAP_WRITE);
    memset (map.data, 17 * i, map.size);
    gst_buffer_unmap (set->buffers[i], &map);
  }
  gst_query_unref (query);
  gst_object_unref (pad);
}

static void
fill_pageable_buffers (FrameSet * set, const GstVideoInfo * info)
{
  for (guint i = 0; i < set->n; i++) {
    GstMapInfo map;

    set->buffers[i] = gst_buffer_new_allocate (NULL, info->size, NULL);
    gst_buffer_map (set->buffers[i], &map, GST_MAP_WRITE);
    memset (map.data, 17 * i, map.size);
    gst_buffer_unmap (set->buffers[i], &map);
  }
}

/* Frame @i as pushed: the set's buffer, or for one-off input a new
 * memory over its bytes, which no element has seen before. */
static GstBuffer *
frame_to_push (FrameSet * set, InputKind kind, guint i)
{
  GstBuffer *buffer = set->buffers[i % set->n];
  GstMapInfo map;
  GstBuffer *one_off;

  if (kind != INPUT_ONE_OFF)
    return gst_buffer_ref (buffer);
  gst_buffer_map (buffer, &map, GST_MAP_READ);
  one_off = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, map.data,
      map.size, 0, map.size, gst_buffer_ref (buffer),
      (GDestroyNotify) gst_buffer_unref);
  gst_buffer_unmap (buffer, &map);
  return one_off;
}

static void
free_frames (FrameSet * set)
{
  for (guint i = 0; i < set->n; i++)
    gst_buffer_unref (set->buffers[i]);
  if (set->pool) {
    gst_buffer_pool_set_active (set->pool, FALSE);
    gst_object_unref (set->pool);
  }
}

static void
fail_on_error (GstElement * pipeline, GstMessage * msg)
{
  GError *error = NULL;

  if (msg == NULL) {
    fprintf (stderr, "cudavision-bench: the pipeline timed out\n");
    exit (1);
  }
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    fprintf (stderr, "cudavision-bench: %s\n", error->message);
    exit (1);
  }
}

/* A pool of downstream's own kind (as a display sink offers), of ordinary
 * memory: cudadownload downloads into it. */
typedef GstVideoBufferPool SinkPool;
typedef GstVideoBufferPoolClass SinkPoolClass;
static GType sink_pool_get_type (void);
G_DEFINE_TYPE (SinkPool, sink_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static void
sink_pool_class_init (SinkPoolClass * klass)
{
}

static void
sink_pool_init (SinkPool * self)
{
}

static GstPadProbeReturn
offer_sink_pool (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool;
  GstCaps *caps;
  GstVideoInfo vinfo;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&vinfo, caps))
    return GST_PAD_PROBE_OK;
  pool = g_object_new (sink_pool_get_type (), NULL);
  gst_query_add_allocation_pool (query, pool, vinfo.size, 4, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return GST_PAD_PROBE_HANDLED;
}

/* One pipeline `appsrc ! cudaupload ! BETWEEN ! cudadownload ! fakesink`;
 * several run at once, each pushed from a thread of its own. */
typedef struct
{
  const GstVideoInfo *info;
  InputKind kind;
  /* downstream offers a pool of ordinary memory of its own */
  gboolean sink_pool;
  const gchar *between;
  /* the device of every element: "@D" in between stands for it */
  gint device_id;
  GstElement *pipeline, *src;
  GstBus *bus;
  FrameSet set;
  gint64 start, end;
} PipelineRun;

/* Builds the pipeline and negotiates it with a first frame, so that
 * cudaupload can propose its pool. */
static void
pipeline_prepare (PipelineRun * run)
{
  gchar **parts = g_strsplit (run->between, "@D", -1);
  gchar *device = g_strdup_printf ("%d", run->device_id);
  gchar *between = g_strjoinv (device, parts);
  /* the names no other plugin owns */
  gchar *desc = g_strdup_printf ("appsrc name=src format=time "
      "max-buffers=4 block=true ! cudavisionupload device-id=%d "
      "copy-threads=%d %s %s ! cudavisiondownload device-id=%d "
      "copy-threads=%d ! fakesink name=sink sync=false", run->device_id,
      copy_threads, between[0] ? "!" : "", between, run->device_id,
      copy_threads);
  GstCaps *caps = gst_video_info_to_caps (run->info);
  GstBuffer *warm = gst_buffer_new_allocate (NULL, run->info->size, NULL);
  GstMessage *msg;

  run->pipeline = gst_parse_launch (desc, NULL);
  run->src = gst_bin_get_by_name (GST_BIN (run->pipeline), "src");
  if (run->sink_pool) {
    GstElement *sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");
    GstPad *pad = gst_element_get_static_pad (sink, "sink");

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
        offer_sink_pool, NULL, NULL);
    gst_object_unref (pad);
    gst_object_unref (sink);
  }
  run->bus = gst_element_get_bus (run->pipeline);
  run->set.n = 8;
  g_object_set (run->src, "caps", caps, NULL);
  gst_element_set_state (run->pipeline, GST_STATE_PLAYING);
  GST_BUFFER_PTS (warm) = 0;
  gst_app_src_push_buffer (GST_APP_SRC (run->src), warm);
  msg = gst_bus_timed_pop_filtered (run->bus, 10 * GST_SECOND,
      GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  fail_on_error (run->pipeline, msg);
  gst_message_unref (msg);
  if (run->kind == INPUT_PINNED)
    fill_buffers_from_pool (&run->set, run->src, caps);
  else
    fill_pageable_buffers (&run->set, run->info);
  gst_caps_unref (caps);
  g_free (desc);
  g_free (between);
  g_free (device);
  g_strfreev (parts);
}

static gpointer
pipeline_push (gpointer data)
{
  PipelineRun *run = data;
  GstMessage *msg;

  bench_wait_for_start ();
  run->start = g_get_monotonic_time ();
  for (gint i = 0; i < n_frames; i++) {
    /* pushing a shared buffer is fine: the elements only read it */
    gst_app_src_push_buffer (GST_APP_SRC (run->src),
        frame_to_push (&run->set, run->kind, i));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (run->src));
  msg = gst_bus_timed_pop_filtered (run->bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  run->end = g_get_monotonic_time ();
  fail_on_error (run->pipeline, msg);
  gst_message_unref (msg);
  return NULL;
}

static void
pipeline_finish (PipelineRun * run)
{
  gst_element_set_state (run->pipeline, GST_STATE_NULL);
  free_frames (&run->set);
  gst_object_unref (run->bus);
  gst_object_unref (run->src);
  gst_object_unref (run->pipeline);
}

/* Aggregate frames per second of @count pipelines run at once, pipeline i
 * on device first_device + i % n_devices. */
static gdouble
pipelines_fps_on (const GstVideoInfo * info, InputKind kind,
    gboolean sink_pool, const gchar * between, guint count, gint first_device,
    guint n_devices)
{
  PipelineRun *runs = g_new0 (PipelineRun, count);
  GThread **threads = g_new0 (GThread *, count);
  gint64 first_start = G_MAXINT64, last_end = 0;

  for (guint i = 0; i < count; i++) {
    runs[i].info = info;
    runs[i].kind = kind;
    runs[i].sink_pool = sink_pool;
    runs[i].between = between;
    runs[i].device_id = first_device + (gint) (i % n_devices);
    pipeline_prepare (&runs[i]);
  }
  for (guint i = 0; i < count; i++)
    threads[i] = g_thread_new ("bench-pipeline", pipeline_push, &runs[i]);
  for (guint i = 0; i < count; i++) {
    g_thread_join (threads[i]);
    first_start = MIN (first_start, runs[i].start);
    last_end = MAX (last_end, runs[i].end);
    pipeline_finish (&runs[i]);
  }
  g_free (threads);
  g_free (runs);
  return count * n_frames * 1e6 / (gdouble) (last_end - first_start);
}

static gdouble
pipelines_fps (const GstVideoInfo * info, InputKind kind, gboolean sink_pool,
    const gchar * between, guint count)
{
  return pipelines_fps_on (info, kind, sink_pool, between, count, 0, 1);
}

gdouble
recycled_pipelines_fps (const GstVideoInfo * info, const gchar * between,
    guint count, gint first_device, guint n_devices)
{
  return pipelines_fps_on (info, INPUT_RECYCLED, FALSE, between, count,
      first_device, n_devices);
}

gdouble
pipeline_fps (const GstVideoInfo * info, gboolean pinned, const gchar * between)
{
  return pipelines_fps (info, pinned ? INPUT_PINNED : INPUT_RECYCLED, FALSE,
      between, 1);
}

static void
bench_transfer (cvcore_device * device)
{
  const gchar *queue = "queue max-size-buffers=3";
  const InputKind kinds[] = { INPUT_PINNED, INPUT_RECYCLED, INPUT_ONE_OFF };

  printf ("| size | format | MB/frame | serial floor fps | pinned fps | "
      "ratio | pinned+queue fps | ratio | recycled pageable fps | ratio | "
      "recycled pageable+queue fps | ratio | one-off pageable fps | ratio | "
      "one-off pageable+queue fps | ratio | pinned in, downstream's pageable "
      "pool out fps | ratio | the same+queue fps | ratio |\n");
  printf ("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
      "---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (all_sizes); s++) {
    if (!size_wanted (&all_sizes[s]))
      continue;
    for (guint f = 0; f < G_N_ELEMENTS (bench_formats); f++) {
      GstVideoInfo info;
      gdouble floor_fps;

      gst_video_info_set_format (&info, bench_formats[f], all_sizes[s].width,
          all_sizes[s].height);
      GST_VIDEO_INFO_FPS_N (&info) = 30;
      floor_fps = 1000.0 / serial_floor_ms (device, info.size, 21, 0, NULL);
      printf ("| %s | %s | %.2f | %.0f |", all_sizes[s].name,
          gst_video_format_to_string (bench_formats[f]), info.size / 1e6,
          floor_fps);
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++) {
        for (guint q = 0; q < 2; q++) {
          gdouble fps = pipelines_fps (&info, kinds[k], FALSE,
              q ? queue : "", 1);

          printf (" %.0f | %.2f |", fps, fps / floor_fps);
          fflush (stdout);
        }
      }
      for (guint q = 0; q < 2; q++) {
        gdouble fps = pipelines_fps (&info, INPUT_PINNED, TRUE,
            q ? queue : "", 1);

        printf (" %.0f | %.2f |", fps, fps / floor_fps);
        fflush (stdout);
      }
      printf ("\n");
    }
  }
}

/* Many streams on one GPU: 1, 2, 4 and 8 pipelines (or --pipelines N) in
 * this process at once, `upload ! cudafoveate ! download` at 1080p RGBA
 * from recycled ordinary buffers, with and without queues around the
 * filter. */
static void
bench_streams (cvcore_device * device, guint only_count)
{
  const guint counts[] = { 1, 2, 4, 8 };
  GstVideoInfo info;

  (void) device;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 1920, 1080);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  printf ("| pipelines in one process | aggregate fps | with queues, "
      "aggregate fps |\n");
  printf ("|---|---|---|\n");
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++) {
    if (only_count && counts[c] != only_count)
      continue;
    printf ("| %u | %.0f | %.0f |\n", counts[c], pipelines_fps (&info,
            INPUT_RECYCLED, FALSE, "cudafoveate", counts[c]),
        pipelines_fps (&info, INPUT_RECYCLED, FALSE, "queue "
            "max-size-buffers=3 ! cudafoveate ! queue max-size-buffers=3",
            counts[c]));
    fflush (stdout);
  }
}

typedef struct
{
  cvcore_image src, dst;
  cvcore_convolve_plan plan;
  void *scratch;
#ifdef HAVE_NPP_PEER
  NppPeer *npp;
#endif
} ConvolveJob;

static cvcore_status
run_convolve (cvcore_stream * stream, gpointer data)
{
  ConvolveJob *job = data;

  return cvcore_convolve (stream, &job->src, &job->dst, 0xf, &job->plan,
      job->scratch);
}

#ifdef HAVE_NPP_PEER
static cvcore_status
run_npp (cvcore_stream * stream, gpointer data)
{
  ConvolveJob *job = data;

  (void) stream;
  return npp_peer_filter (job->npp, &job->src, &job->dst);
}
#endif

static cvcore_status
run_copy (cvcore_stream * stream, gpointer data)
{
  ConvolveJob *job = data;

  return cvcore_copy_2d_async (stream, job->dst.data, job->dst.pitch,
      job->src.data, job->src.pitch, (size_t) job->src.width *
      job->src.channels, job->src.height, CVCORE_COPY_DEVICE_TO_DEVICE);
}

typedef enum
{
  TAPS_DENSE,                   /* whole numbers, not rank 1 */
  TAPS_RANK_ONE,                /* outer product of two integer rows */
  TAPS_FRACTIONAL,              /* not rank 1, not whole numbers */
  N_TAP_KINDS
} TapKind;

static const gchar *tap_kind_names[] = { "dense", "rank-1", "dense frac." };

static void
bench_taps (cvcore_convolve_taps * taps, gint size, TapKind kind)
{
  guint32 x = 99;

  taps->width = taps->height = size;
  for (gint j = 0; j < size; j++)
    for (gint i = 0; i < size; i++) {
      x = x * 1664525u + 1013904223u;
      taps->taps[j * size + i] = kind == TAPS_RANK_ONE ?
          (gfloat) ((i % 5) + 1) * ((j % 3) + 1) : kind == TAPS_DENSE ?
          (gfloat) (x >> 28) + 1.0f : (gfloat) (x >> 22) / 1000.0f + 0.01f;
    }
}

/* One table row: our kernel time, NPP's on the same frames and taps, and
 * the copy floor. */
static void
bench_convolve_case (cvcore_device * device, cvcore_stream * stream,
    ConvolveJob * job, const gchar * size_name, gint kernel_size,
    TapKind kind, gdouble floor_ms)
{
  cvcore_convolve_taps taps;
  gdouble ms, npp_ms = 0.0;

  bench_taps (&taps, kernel_size, kind);
  CORE_TRY (cvcore_convolve_plan_init (&job->plan, &taps, -1, -1, 0.0, 0.0,
          CVCORE_BORDER_CLAMP, 0.0, CVCORE_SAMPLE_U8));
  ms = time_median_ms (device, stream, run_convolve, job, 21, 20);
#ifdef HAVE_NPP_PEER
  if (job->npp) {
    CORE_TRY (npp_peer_set_taps (job->npp, &taps));
    npp_ms = time_median_ms (device, stream, run_npp, job, 21, 20);
  }
#endif
  printf ("| %s | %s | %dx%d | %s | %.4f | ", size_name,
      job->src.channels == 4 ? "RGBA" : "GRAY8", kernel_size, kernel_size,
      tap_kind_names[kind], ms);
  if (npp_ms > 0.0)
    printf ("%.4f | %.2f | ", npp_ms, npp_ms / ms);
  else
    printf ("- | - | ");
  printf ("%.4f | %.2f |\n", floor_ms, ms / floor_ms);
  fflush (stdout);
}

static void
bench_convolve (cvcore_device * device)
{
  static const gint kernel_sizes[] = { 3, 5, 15, 31 };
  cvcore_stream *stream;
  ConvolveJob job = { {0} };

  CORE_TRY (cvcore_stream_new (device, &stream));
#ifdef HAVE_NPP_PEER
  if (cvcore_device_backend (device) == CVCORE_BACKEND_CUDA)
    job.npp = npp_peer_open (stream);
#endif
  printf ("| size | format | kernel | taps | ms | NPP ms | NPP / ours | "
      "floor ms | ours / floor |\n|---|---|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (all_sizes); s++) {
    if (!size_wanted (&all_sizes[s]))
      continue;
    for (gint channels = 4; channels >= 1; channels -= 3) {
      gdouble floor_ms;
      size_t scratch_size;

      job.src.width = all_sizes[s].width;
      job.src.height = all_sizes[s].height;
      job.src.channels = channels;
      job.src.sample = CVCORE_SAMPLE_U8;
      CORE_TRY (cvcore_plane_alloc (device, (size_t) job.src.width * channels,
              job.src.height, &job.src.data, &job.src.pitch));
      job.dst = job.src;
      CORE_TRY (cvcore_plane_alloc (device, (size_t) job.src.width * channels,
              job.src.height, &job.dst.data, &job.dst.pitch));
      scratch_size = cvcore_convolve_scratch_size (device, job.src.width,
          job.src.height, channels);
      job.scratch = NULL;
      if (scratch_size > 0)
        CORE_TRY (cvcore_device_alloc (device, scratch_size, &job.scratch));
      CORE_TRY (cvcore_memset_2d_async (stream, job.src.data, job.src.pitch,
              0x40, (size_t) job.src.width * channels, job.src.height));
      floor_ms = time_median_ms (device, stream, run_copy, &job, 21, 20);

      for (guint k = 0; k < G_N_ELEMENTS (kernel_sizes); k++)
        for (gint kind = 0; kind < N_TAP_KINDS; kind++)
          bench_convolve_case (device, stream, &job, all_sizes[s].name,
              kernel_sizes[k], kind, floor_ms);
      cvcore_device_free (device, job.src.data);
      cvcore_device_free (device, job.dst.data);
      cvcore_device_free (device, job.scratch);
    }
  }
#ifdef HAVE_NPP_PEER
  npp_peer_close (job.npp);
#endif
  cvcore_stream_free (stream);
}

/* the paper's kernel time (1920x1080 RGB, GTX 1060) */
static const gdouble foveation_published_ms = 1.65;

typedef struct
{
  cvcore_image src, dst;
  cvcore_foveate_plan plan;
  /* a gaze that moves: frames alternate plan and moved */
  cvcore_foveate_plan moved;
  gboolean turn;
#ifdef HAVE_NPP_PEER
  NppPeer *npp;
#endif
} FoveateJob;

#ifdef HAVE_NPP_PEER
static cvcore_status
run_npp_gauss (cvcore_stream * stream, gpointer data)
{
  FoveateJob *job = data;

  (void) stream;
  return npp_peer_gauss (job->npp, &job->src, &job->dst);
}
#endif

/* After a size's table: NPP's separable Gaussian at the largest sigma of
 * the default plan (centre fixation), and the frame rate of
 * `cudaupload ! cudafoveate ! cudadownload`. */
static void
foveate_peers (cvcore_device * device, cvcore_stream * stream,
    FoveateJob * job, const BenchSize * size)
{
  cvcore_foveate_model model;
  GstVideoInfo info;
  gchar *between;

  cvcore_foveate_model_init (&model);
  CORE_TRY (cvcore_foveate_plan_init (&job->plan, &model, job->src.width,
          job->src.height, 32, 0.5, 0.5));
#ifdef HAVE_NPP_PEER
  if (job->npp) {
    const int f = job->plan.n_filters - 1;

    if (npp_peer_set_gauss (job->npp, job->plan.taps + job->plan.offset[f],
            2 * job->plan.radius[f] + 1) == CVCORE_OK)
      printf ("\n%s: NPP nppiFilterGaussAdvancedBorder (RGBA, whole frame) "
          "at the largest sigma, %.1f (%d taps): %.4f ms\n", size->name,
          job->plan.sigma[f], 2 * job->plan.radius[f] + 1,
          time_median_ms (device, stream, run_npp_gauss, job, 21, 20));
  }
#endif
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, job->src.width,
      job->src.height);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  /* without a queue one thread queues a frame's upload and kernel, then
   * waits for its download; with one, the next frame's copies overlap */
  for (gint n = 0; n < 4; n++) {
    between = g_strdup_printf ("cudafoveate mode=%s%s", n % 2 ? "smooth" :
        "blockwise", n < 2 ? "" : " ! queue max-size-buffers=3");
    printf ("%s: `cudaupload ! %s ! cudadownload`, pinned RGBA: %.0f fps\n",
        size->name, between, pipeline_fps (&info, TRUE, between));
    g_free (between);
  }
  printf ("\n");
  fflush (stdout);
}

static cvcore_status
run_foveate (cvcore_stream * stream, gpointer data)
{
  FoveateJob *job = data;

  return cvcore_foveate (stream, &job->src, &job->dst, 0x7, &job->plan);
}

static cvcore_status
run_foveate_moving (cvcore_stream * stream, gpointer data)
{
  FoveateJob *job = data;

  job->turn = !job->turn;
  return cvcore_foveate (stream, &job->src, &job->dst, 0x7,
      job->turn ? &job->moved : &job->plan);
}

/* The default plan's frames with the fixation moving between the centre
 * and (0.45, 0.45) each frame: their banks differ, so every frame makes
 * its filters' operands afresh. */
static void
foveate_moving (cvcore_device * device, cvcore_stream * stream,
    FoveateJob * job, const BenchSize * size, gdouble floor_ms)
{
  cvcore_foveate_model model;
  gdouble ms;

  cvcore_foveate_model_init (&model);
  CORE_TRY (cvcore_foveate_plan_init (&job->plan, &model, job->src.width,
          job->src.height, 32, 0.5, 0.5));
  CORE_TRY (cvcore_foveate_plan_init (&job->moved, &model, job->src.width,
          job->src.height, 32, 0.45, 0.45));
  ms = time_median_ms (device, stream, run_foveate_moving, job, 21, 20);
  printf ("| %s | block-wise | 1 | moving: centre, (0.45, 0.45) in turn%s | "
      "%d, %d | %d, %d | %.4f | %.4f | %.2f | %.1f |\n", size->name,
      job->plan.n_taps == job->moved.n_taps && memcmp (job->plan.taps,
          job->moved.taps, job->plan.n_taps * sizeof (float)) == 0 ?
      " (one bank)" : "", job->plan.n_filters - 1, job->moved.n_filters - 1,
      job->plan.max_radius, job->moved.max_radius, ms, floor_ms,
      ms / floor_ms, foveation_published_ms / ms);
  fflush (stdout);
}

static cvcore_status
run_foveate_copy (cvcore_stream * stream, gpointer data)
{
  FoveateJob *job = data;

  return cvcore_copy_2d_async (stream, job->dst.data, job->dst.pitch,
      job->src.data, job->src.pitch, (size_t) job->src.width * 4,
      job->src.height, CVCORE_COPY_DEVICE_TO_DEVICE);
}

static void
bench_foveate (cvcore_device * device)
{
  /* strength 10: a direct bank beyond the launch, in device memory */
  static const gdouble strengths[] = { 1.0, 3.0, 10.0 };
  static const gdouble fixations[][2] = { {0.5, 0.5}, {0.0, 0.0} };
  cvcore_stream *stream;
  FoveateJob *job = g_new0 (FoveateJob, 1);

  CORE_TRY (cvcore_stream_new (device, &stream));
#ifdef HAVE_NPP_PEER
  if (cvcore_device_backend (device) == CVCORE_BACKEND_CUDA)
    job->npp = npp_peer_open (stream);
#endif
  for (guint s = 0; s < G_N_ELEMENTS (all_sizes); s++) {
    gdouble floor_ms;

    if (!size_wanted (&all_sizes[s]))
      continue;
    printf ("| size | mode | strength | fixation | rendering | filters, "
        "largest radius | levels | ms | direct ms | direct / ours | "
        "floor ms | ours / floor | published 1.65 ms / ours |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    job->src.width = all_sizes[s].width;
    job->src.height = all_sizes[s].height;
    job->src.channels = 4;
    job->src.sample = CVCORE_SAMPLE_U8;
    CORE_TRY (cvcore_plane_alloc (device, (size_t) job->src.width * 4,
            job->src.height, &job->src.data, &job->src.pitch));
    job->dst = job->src;
    CORE_TRY (cvcore_plane_alloc (device, (size_t) job->src.width * 4,
            job->src.height, &job->dst.data, &job->dst.pitch));
    CORE_TRY (cvcore_memset_2d_async (stream, job->src.data, job->src.pitch,
            0x40, (size_t) job->src.width * 4, job->src.height));
    floor_ms = time_median_ms (device, stream, run_foveate_copy, job, 21, 20);
    for (gint smooth = 0; smooth < 2; smooth++)
      for (guint k = 0; k < G_N_ELEMENTS (strengths); k++)
        for (guint f = 0; f < G_N_ELEMENTS (fixations); f++) {
          const gchar *mode = smooth ? "smooth" : "block-wise";
          cvcore_foveate_model model;
          gdouble ms, direct_ms = 0.0;

          cvcore_foveate_model_init (&model);
          model.strength = strengths[k];
          CORE_TRY (cvcore_foveate_plan_init (&job->plan, &model,
                  job->src.width, job->src.height, 32, fixations[f][0],
                  fixations[f][1]));
          job->plan.smooth = smooth;
          ms = time_median_ms (device, stream, run_foveate, job, 21, 20);
          /* the direct rendering, where it takes less than seconds */
          if (!(smooth && strengths[k] > 3.0) && !job->plan.bank_capped) {
            job->plan.render = CVCORE_FOVEATE_RENDER_DIRECT;
            direct_ms = time_median_ms (device, stream, run_foveate, job, 7, 3);
            job->plan.render = CVCORE_FOVEATE_RENDER_AUTO;
          }
          printf ("| %s | %s | %g | %s | %s | %d, %d%s | %d | %.4f | ",
              all_sizes[s].name, mode, strengths[k],
              f == 0 ? "centre" : "corner",
              cvcore_foveate_plan_stacked (&job->plan) ? "stack" : "direct",
              job->plan.n_filters - 1, job->plan.max_radius,
              job->plan.n_taps >
              CVCORE_FOVEATE_PARAM_TAPS ? " (device memory)" : "",
              job->plan.stack.n_levels, ms);
          if (direct_ms > 0.0)
            printf ("%.4f | %.2f | ", direct_ms, direct_ms / ms);
          else
            printf ("- | - | ");
          printf ("%.4f | %.2f | %.1f |\n", floor_ms, ms / floor_ms,
              foveation_published_ms / ms);
          fflush (stdout);
        }
    foveate_moving (device, stream, job, &all_sizes[s], floor_ms);
    foveate_peers (device, stream, job, &all_sizes[s]);
    cvcore_device_free (device, job->src.data);
    cvcore_device_free (device, job->dst.data);
  }
#ifdef HAVE_NPP_PEER
  npp_peer_close (job->npp);
#endif
  g_free (job);
  cvcore_stream_free (stream);
}

int
main (int argc, char **argv)
{
  const gchar *backend_name = g_getenv ("GST_CUDAVISION_BACKEND");
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &n_frames, "Frames per run", "N"},
    {"sizes", 's', 0, G_OPTION_ARG_STRING, &bench_size_list,
        "Sizes to run (1080p,4k)", "LIST"},
    {"pipelines", 'p', 0, G_OPTION_ARG_INT, &n_pipelines,
        "streams: only this many pipelines (1, 2, 4 or 8)", "N"},
    {"rate", 'r', 0, G_OPTION_ARG_INT, &frame_rate,
          "copies: frames per second of the paced round trips (1 to 1000)",
        "FPS"},
    {"copy-threads", 't', 0, G_OPTION_ARG_INT, &copy_threads,
        "copy-threads of the upload and the download (0: theirs)", "N"},
    {"device", 'd', 0, G_OPTION_ARG_INT, &gpus_device,
        "gpus: run --pipelines of --case on this device only", "D"},
    {"case", 'c', 0, G_OPTION_ARG_STRING, &gpus_case,
        "gpus: transfer or compute (default both)", "CASE"},
    {"start-at", 0, 0, G_OPTION_ARG_INT64, &bench_start_at,
        "gpus --device: start timing at this g_get_real_time ()", "US"},
    {NULL}
  };
  GOptionContext *options = g_option_context_new (BENCH_COMMANDS);
  GError *error = NULL;
  cvcore_backend backend;
  cvcore_device *device;
  gchar date[32];
  time_t now = time (NULL);

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &error)) {
    fprintf (stderr, "cudavision-bench: %s\n", error->message);
    return 2;
  }
  g_option_context_free (options);
  if (argc != 2 || (strcmp (argv[1], "transfer") != 0
          && strcmp (argv[1], "copies") != 0
          && strcmp (argv[1], "streams") != 0
          && strcmp (argv[1], "convolve") != 0
          && strcmp (argv[1], "foveate") != 0
          && strcmp (argv[1], "tonemap") != 0
          && strcmp (argv[1], "gabor") != 0 && strcmp (argv[1], "clt") != 0
          && strcmp (argv[1], "correlate") != 0
          && strcmp (argv[1], "rig") != 0 && strcmp (argv[1], "gpus") != 0)) {
    fprintf (stderr, "usage: cudavision-bench " BENCH_COMMANDS " "
        "[--frames N] [--sizes 1080p,4k] [--pipelines N] [--rate FPS]\n");
    return 2;
  }
  if (frame_rate < 1 || frame_rate > 1000 || n_frames < 1) {
    fprintf (stderr, "cudavision-bench: --rate takes 1 to 1000, --frames "
        "1 or more\n");
    return 2;
  }
  if (!cvcore_backend_from_string (backend_name, &backend)) {
    fprintf (stderr, "cudavision-bench: unknown backend '%s'\n", backend_name);
    return 2;
  }
  if (cvcore_device_open (backend, 0, &device) != CVCORE_OK)
    die ("cannot open device 0");

  strftime (date, sizeof (date), "%Y-%m-%d", localtime (&now));
  printf ("# cudavision-bench %s: device '%s' (%s backend), %s, %d frames "
      "per run\n\n", argv[1], cvcore_device_name (device),
      cvcore_backend_name (backend), date, n_frames);
  if (strcmp (argv[1], "transfer") == 0)
    bench_transfer (device);
  else if (strcmp (argv[1], "copies") == 0)
    bench_copies (device);
  else if (strcmp (argv[1], "streams") == 0)
    bench_streams (device, (guint) MAX (n_pipelines, 0));
  else if (strcmp (argv[1], "convolve") == 0)
    bench_convolve (device);
  else if (strcmp (argv[1], "foveate") == 0)
    bench_foveate (device);
  else if (strcmp (argv[1], "tonemap") == 0)
    bench_tonemap (device);
  else if (strcmp (argv[1], "gabor") == 0)
    bench_gabor (device);
  else if (strcmp (argv[1], "correlate") == 0)
    bench_phase_correlation (device);
  else if (strcmp (argv[1], "rig") == 0)
    bench_rig_quad (device);
  else if (strcmp (argv[1], "gpus") == 0)
    bench_gpus (backend, n_frames, gpus_device, n_pipelines, gpus_case);
  else
    bench_clt (device);
  cvcore_device_close (device);
  return 0;
}
