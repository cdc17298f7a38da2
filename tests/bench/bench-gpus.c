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

/* cudavision-bench gpus: how throughput grows with the GPUs of one host.
 *
 * The floor: a thread per GPU copies a 1080p RGBA frame up and down, over
 * and over, from and into page-locked memory, up and down on two streams
 * so that they overlap as a pipeline's upload and download do. Round trips
 * per second on one GPU, with two threads on one GPU, and on 2..N GPUs.
 *
 * The pipelines, in this process, each pushed by its own thread from
 * recycled pageable 1080p RGBA frames: transfer-bound
 * `cudaupload ! queue ! cudafoveate ! queue ! cudadownload`, and
 * compute-bound with four `cudaconvolve` of a dense 31x31 kernel between
 * the queues instead; on one GPU and spread over 2..N GPUs, next to the
 * floor's ratio for as many GPUs.
 *
 * Peer copies from device 1 to device 0: the rate of one large copy, and
 * of frames copied as the elements copy them.
 *
 * With --device D, one process's share of a run of separate processes:
 * --pipelines P pipelines of --case on device D, timed from --start-at;
 * prints "fps F". scripts/gpu-scaling.sh starts such processes and sums. */
#include <stdio.h>
#include <string.h>

#include <gst/app/app.h>

#include "bench-util.h"

#define FRAME_BYTES (1920 * 1080 * 4)
#define KERNEL_SIZE 31

/* Threads that start their timed loops together. */
typedef struct
{
  GMutex lock;
  GCond all_ready;
  guint waiting, count;
} StartLine;

static void
start_line_wait (StartLine * line)
{
  g_mutex_lock (&line->lock);
  if (++line->waiting == line->count)
    g_cond_broadcast (&line->all_ready);
  while (line->waiting < line->count)
    g_cond_wait (&line->all_ready, &line->lock);
  g_mutex_unlock (&line->lock);
}

typedef struct
{
  cvcore_backend backend;
  gint device_id;
  guint round_trips;
  /* host frames each way, used in turn */
  guint n_buffers;
  StartLine *line;
  gint64 start, end;
} CopyRun;

static gpointer
copy_floor_thread (gpointer data)
{
  CopyRun *run = data;
  cvcore_device *device;
  cvcore_stream *up, *down;
  void *host_in[8], *host_out[8], *device_in, *device_out;
  guint n = CLAMP (run->n_buffers, 1, G_N_ELEMENTS (host_in));

  CORE_TRY (cvcore_device_open (run->backend, run->device_id, &device));
  CORE_TRY (cvcore_stream_new (device, &up));
  CORE_TRY (cvcore_stream_new (device, &down));
  for (guint b = 0; b < n; b++) {
    CORE_TRY (cvcore_host_alloc (device, FRAME_BYTES, &host_in[b]));
    CORE_TRY (cvcore_host_alloc (device, FRAME_BYTES, &host_out[b]));
    memset (host_in[b], 3, FRAME_BYTES);
    memset (host_out[b], 0, FRAME_BYTES);
  }
  CORE_TRY (cvcore_device_alloc (device, FRAME_BYTES, &device_in));
  CORE_TRY (cvcore_device_alloc (device, FRAME_BYTES, &device_out));
  /* warm both directions before the clock starts */
  CORE_TRY (cvcore_copy_async (up, device_in, host_in[0], FRAME_BYTES,
          CVCORE_COPY_HOST_TO_DEVICE));
  CORE_TRY (cvcore_copy_async (down, host_out[0], device_out, FRAME_BYTES,
          CVCORE_COPY_DEVICE_TO_HOST));
  CORE_TRY (cvcore_stream_synchronize (up));
  CORE_TRY (cvcore_stream_synchronize (down));

  start_line_wait (run->line);
  run->start = g_get_monotonic_time ();
  for (guint i = 0; i < run->round_trips; i++) {
    CORE_TRY (cvcore_copy_async (up, device_in, host_in[i % n], FRAME_BYTES,
            CVCORE_COPY_HOST_TO_DEVICE));
    CORE_TRY (cvcore_copy_async (down, host_out[i % n], device_out,
            FRAME_BYTES, CVCORE_COPY_DEVICE_TO_HOST));
  }
  CORE_TRY (cvcore_stream_synchronize (up));
  CORE_TRY (cvcore_stream_synchronize (down));
  run->end = g_get_monotonic_time ();

  cvcore_device_free (device, device_in);
  cvcore_device_free (device, device_out);
  for (guint b = 0; b < n; b++) {
    cvcore_host_free (device, host_in[b]);
    cvcore_host_free (device, host_out[b]);
  }
  cvcore_stream_free (up);
  cvcore_stream_free (down);
  cvcore_device_close (device);
  return NULL;
}

/* Round trips per second of @n_threads copying threads, thread i on device
 * i % @n_devices. */
static gdouble
copy_floor (cvcore_backend backend, guint n_threads, guint n_devices,
    guint n_buffers, guint round_trips)
{
  StartLine line = {.count = n_threads };
  CopyRun *runs = g_new0 (CopyRun, n_threads);
  GThread **threads = g_new0 (GThread *, n_threads);
  gint64 first_start = G_MAXINT64, last_end = 0;

  g_mutex_init (&line.lock);
  g_cond_init (&line.all_ready);
  for (guint i = 0; i < n_threads; i++) {
    runs[i] = (CopyRun) {
    .backend = backend,.device_id = (gint) (i % n_devices),.round_trips =
          round_trips,.n_buffers = n_buffers,.line = &line};
    threads[i] = g_thread_new ("copy-floor", copy_floor_thread, &runs[i]);
  }
  for (guint i = 0; i < n_threads; i++) {
    g_thread_join (threads[i]);
    first_start = MIN (first_start, runs[i].start);
    last_end = MAX (last_end, runs[i].end);
  }
  g_mutex_clear (&line.lock);
  g_cond_clear (&line.all_ready);
  g_free (threads);
  g_free (runs);
  return n_threads * (gdouble) round_trips *1e6 / (last_end - first_start);
}

/* Four cudaconvolve of one dense (not separable) 31x31 integer kernel,
 * between queues. */
static gchar *
compute_bound_between (void)
{
  GString *taps = g_string_new (NULL), *between = g_string_new (NULL);

  for (gint y = 0; y < KERNEL_SIZE; y++) {
    for (gint x = 0; x < KERNEL_SIZE; x++)
      g_string_append_printf (taps, "%d%s", 1 + (x * 7 + y * y * 3) % 5,
          x + 1 < KERNEL_SIZE ? " " : "");
    if (y + 1 < KERNEL_SIZE)
      g_string_append (taps, ";");
  }
  /* queues let one pipeline's copies overlap its kernels: without them
   * its one thread waits for each frame's download before the next
   * upload, and a GPU needs two pipelines to be kept busy */
  g_string_append (between, "queue max-size-buffers=3");
  for (gint i = 0; i < 4; i++)
    g_string_append_printf (between, " ! cudaconvolve device-id=@D "
        "kernel=\"%s\"", taps->str);
  g_string_append (between, " ! queue max-size-buffers=3");
  g_string_free (taps, TRUE);
  return g_string_free (between, FALSE);
}

static const gchar *const transfer_bound_between =
    "queue max-size-buffers=3 ! cudafoveate device-id=@D ! "
    "queue max-size-buffers=3";

static const gchar *
between_of_case (const gchar * case_name, gchar ** compute)
{
  if (g_strcmp0 (case_name, "compute") == 0) {
    if (*compute == NULL)
      *compute = compute_bound_between ();
    return *compute;
  }
  if (g_strcmp0 (case_name, "transfer") == 0)
    return transfer_bound_between;
  fprintf (stderr, "cudavision-bench: --case is transfer or compute, not "
      "'%s'\n", case_name);
  exit (2);
}

/* The floor with one host frame each way (which the host's caches may
 * hold) and with eight, used in turn as a pipeline's pools recycle them
 * (@floor: the latter, by GPU count). */
static void
print_floor (cvcore_backend backend, gint n_gpus, gint frames, gdouble * floor)
{
  const guint buffers[] = { 1, 8 };

  printf ("| copying threads | GPUs | host frames each way | round trips per "
      "second | against one GPU |\n|---|---|---|---|---|\n");
  for (guint b = 0; b < G_N_ELEMENTS (buffers); b++) {
    gdouble one = copy_floor (backend, 1, 1, buffers[b], frames), shared;

    printf ("| 1 | 1 | %u | %.0f | 1.00 |\n", buffers[b], one);
    shared = copy_floor (backend, 2, 1, buffers[b], frames);
    printf ("| 2 | 1 | %u | %.0f | %.2f |\n", buffers[b], shared, shared / one);
    floor[1] = one;
    for (gint n = 2; n <= n_gpus; n++) {
      floor[n] = copy_floor (backend, n, n, buffers[b], frames);
      printf ("| %d | %d | %u | %.0f | %.2f |\n", n, n, buffers[b], floor[n],
          floor[n] / one);
    }
    fflush (stdout);
  }
}

static GstElement *
start_pipeline (const gchar * description, const GstVideoInfo * info,
    gboolean device_memory)
{
  GstElement *pipeline = gst_parse_launch (description, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstCaps *caps = gst_video_info_to_caps (info);

  if (device_memory)
    gst_caps_set_features_simple (caps,
        gst_caps_features_new ("memory:CUDAVisionMemory", NULL));
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    die (description);
  gst_caps_unref (caps);
  gst_object_unref (src);
  return pipeline;
}

static void
push_frame (GstElement * pipeline, GstBuffer * buffer, guint i)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");

  buffer = gst_buffer_copy (buffer);    /* shares the memory */
  GST_BUFFER_PTS (buffer) = i * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  if (gst_app_src_push_buffer (GST_APP_SRC (src), buffer) != GST_FLOW_OK)
    die ("a frame was refused");
  gst_object_unref (src);
}

/* @n frames of @info in our memory on @device, uploaded by the element. */
static void
frames_on_device (const GstVideoInfo * info, gint device, GstBuffer ** frames,
    guint n)
{
  gchar *description = g_strdup_printf ("appsrc name=src ! cudavisionupload "
      "device-id=%d ! video/x-raw(memory:CUDAVisionMemory) ! appsink "
      "name=sink sync=false", device);
  GstElement *pipeline = start_pipeline (description, info, FALSE);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

  for (guint i = 0; i < n; i++) {
    GstBuffer *host = gst_buffer_new_allocate (NULL, info->size, NULL);
    GstSample *sample;

    gst_buffer_memset (host, 0, 40 + i, info->size);
    push_frame (pipeline, host, i);
    gst_buffer_unref (host);
    sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    if (sample == NULL)
      die ("no frame came out of the upload");
    frames[i] = gst_buffer_ref (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (description);
}

/* Frames per second of `appsrc ! cudavisiondownload device-id=@device !
 * fakesink` in device memory, fed @frames in turn: a passthrough that only
 * copies frames of another device, timed until the pipeline has stopped
 * (and its queued copies finished). */
static gdouble
element_fps (const GstVideoInfo * info, GstBuffer ** frames, guint n,
    gint device, guint count)
{
  gchar *description = g_strdup_printf ("appsrc name=src max-buffers=4 "
      "block=true ! cudavisiondownload device-id=%d ! "
      "video/x-raw(memory:CUDAVisionMemory) ! fakesink sync=false", device);
  GstElement *pipeline = start_pipeline (description, info, TRUE);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gint64 start, elapsed;

  push_frame (pipeline, frames[0], 0);  /* negotiates and opens */
  start = g_get_monotonic_time ();
  for (guint i = 1; i <= count; i++)
    push_frame (pipeline, frames[i % n], i);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    die (description);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  elapsed = g_get_monotonic_time () - start;
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (description);
  return count * 1e6 / elapsed;
}

/* Frames from device 1 through a passthrough element on device 0, which
 * copies them, against the same element on device 1 (no copy: the
 * pipeline's own rate), at 1080p, 4K and 8K RGBA. */
static void
print_element_peer_copies (gint frames, gdouble floor_gbps)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160}, {7680, 4320} };

  printf ("\n| frame | on the frames' own device (no copy), fps | on the "
      "other device, fps | copied GB/s | against the floor |\n"
      "|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    GstBuffer *on_one[4];
    GstVideoInfo info;
    guint count = MAX (frames >> (2 * s), 2);
    gdouble same, across;

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, sizes[s][0],
        sizes[s][1]);
    GST_VIDEO_INFO_FPS_N (&info) = 30;
    frames_on_device (&info, 1, on_one, G_N_ELEMENTS (on_one));
    same = element_fps (&info, on_one, G_N_ELEMENTS (on_one), 1, count);
    across = element_fps (&info, on_one, G_N_ELEMENTS (on_one), 0, count);
    printf ("| %dx%d RGBA | %.0f | %.0f | %.1f | %.2f |\n", sizes[s][0],
        sizes[s][1], same, across, across * info.size / 1e9,
        across * info.size / 1e9 / floor_gbps);
    fflush (stdout);
    for (guint i = 0; i < G_N_ELEMENTS (on_one); i++)
      gst_buffer_unref (on_one[i]);
  }
}

/* Frames copied as the elements copy them: one pitched 2-D peer copy a
 * frame on a stream, queued back to back with no host wait between them,
 * timed with events around the whole run. */
static void
print_queued_frame_copies (cvcore_stream * stream, cvcore_event * start,
    cvcore_event * end, cvcore_device * to, void *dst, cvcore_device * from,
    void *src, gint frames, gdouble floor_gbps)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160}, {7680, 4320} };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const size_t row = (size_t) sizes[s][0] * 4, rows = sizes[s][1];
    const size_t pitch = cvcore_pitch_for_width (to, row);
    const gint count = MAX (frames >> (2 * s), 4);
    gdouble gbps;
    float ms;

    CORE_TRY (cvcore_event_record (start, stream));
    for (gint i = 0; i < count; i++)
      CORE_TRY (cvcore_copy_2d_peer_async (stream, dst, pitch, from, src,
              pitch, row, rows));
    CORE_TRY (cvcore_event_record (end, stream));
    CORE_TRY (cvcore_event_synchronize (end));
    CORE_TRY (cvcore_event_elapsed_ms (start, end, &ms));
    gbps = (gdouble) count *row * rows / (ms * 1e6);
    printf ("| %dx%d RGBA frames, pitched, queued as the elements queue "
        "them | %.1f | %.2f |\n", sizes[s][0], sizes[s][1], gbps,
        gbps / floor_gbps);
  }
}

/* GB/s of peer copies from device 1 to device 0: the floor, one 256 MB
 * copy timed with events, and frames as the elements copy them (a 1080p
 * RGBA frame with pitched rows, the host waiting for each). */
static void
print_peer_copies (cvcore_backend backend, gint frames)
{
  const gsize big = 256 << 20, row = 1920 * 4, rows = 1080;
  cvcore_device *to, *from;
  cvcore_stream *stream;
  cvcore_event *start, *end;
  void *src, *dst;
  size_t pitch;
  gdouble floor_gbps, frame_gbps;
  gint64 begin;
  float ms;

  CORE_TRY (cvcore_device_open (backend, 0, &to));
  CORE_TRY (cvcore_device_open (backend, 1, &from));
  CORE_TRY (cvcore_stream_new (to, &stream));
  CORE_TRY (cvcore_event_new (to, true, &start));
  CORE_TRY (cvcore_event_new (to, true, &end));
  CORE_TRY (cvcore_device_alloc (from, big, &src));
  CORE_TRY (cvcore_device_alloc (to, big, &dst));
  CORE_TRY (cvcore_device_enable_peer_access (to, from));
  for (gint i = 0; i < 2; i++) {        /* the first warms the link */
    CORE_TRY (cvcore_event_record (start, stream));
    CORE_TRY (cvcore_copy_2d_peer_async (stream, dst, big, from, src, big,
            big, 1));
    CORE_TRY (cvcore_event_record (end, stream));
    CORE_TRY (cvcore_event_synchronize (end));
  }
  CORE_TRY (cvcore_event_elapsed_ms (start, end, &ms));
  floor_gbps = big / (ms * 1e6);

  pitch = cvcore_pitch_for_width (to, row);
  begin = g_get_monotonic_time ();
  for (gint i = 0; i < frames; i++) {
    CORE_TRY (cvcore_copy_2d_peer_async (stream, dst, pitch, from, src, pitch,
            row, rows));
    CORE_TRY (cvcore_stream_synchronize (stream));
  }
  frame_gbps = (gdouble) frames *row * rows /
      ((g_get_monotonic_time () - begin) * 1e3);
  printf ("\n| peer copies, device 1 to 0 | GB/s | against the floor |\n"
      "|---|---|---|\n| one 256 MB copy (the floor) | %.1f | 1.00 |\n"
      "| 1080p RGBA frames, pitched, the host waiting for each | %.1f | "
      "%.2f |\n", floor_gbps, frame_gbps, frame_gbps / floor_gbps);
  print_queued_frame_copies (stream, start, end, to, dst, from, src, frames,
      floor_gbps);
  fflush (stdout);
  print_element_peer_copies (frames, floor_gbps);

  cvcore_device_free (from, src);
  cvcore_device_free (to, dst);
  cvcore_event_free (start);
  cvcore_event_free (end);
  cvcore_stream_free (stream);
  cvcore_device_close (from);
  cvcore_device_close (to);
}

void
bench_gpus (cvcore_backend backend, gint frames, gint device_id,
    gint pipelines, const gchar * case_name)
{
  const gchar *cases[] = { "transfer", "compute" };
  const guint counts[] = { 2, 4, 8 };
  gchar *compute = NULL;
  gdouble floor[9] = { 0 };
  GstVideoInfo info;
  gint n_gpus;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 1920, 1080);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  if (device_id >= 0) {
    printf ("fps %.1f\n", recycled_pipelines_fps (&info,
            between_of_case (case_name, &compute), MAX (pipelines, 1),
            device_id, 1));
    g_free (compute);
    return;
  }

  CORE_TRY (cvcore_device_count (backend, &n_gpus));
  n_gpus = CLAMP (n_gpus, 1, 8);
  print_floor (backend, n_gpus, frames, floor);
  if (n_gpus >= 2)
    print_peer_copies (backend, frames);
  printf ("\n| pipelines | GPUs | case | fps | against one GPU | the floor's "
      "ratio | share of the floor's ratio |\n|---|---|---|---|---|---|---|\n");
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    const gchar *between = between_of_case (cases[c], &compute);

    if (case_name && g_strcmp0 (case_name, cases[c]) != 0)
      continue;
    for (guint k = 0; k < G_N_ELEMENTS (counts); k++) {
      gdouble one;

      if (pipelines > 0 && counts[k] != (guint) pipelines)
        continue;
      one = recycled_pipelines_fps (&info, between, counts[k], 0, 1);
      printf ("| %u | 1 | %s | %.0f | 1.00 | 1.00 | |\n", counts[k],
          cases[c], one);
      fflush (stdout);
      for (gint n = 2; n <= n_gpus && (guint) n <= counts[k]; n *= 2) {
        gdouble fps = recycled_pipelines_fps (&info, between, counts[k], 0, n);

        printf ("| %u | %d | %s | %.0f | %.2f | %.2f | %.2f |\n", counts[k],
            n, cases[c], fps, fps / one, floor[n] / floor[1],
            fps / one / (floor[n] / floor[1]));
        fflush (stdout);
      }
    }
  }
  g_free (compute);
}
