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

/* Helpers shared by the benchmarks. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <glib.h>
#include <gst/video/video.h>

#include "cvcore.h"

typedef struct
{
  const gchar *name;
  gint width, height;
} BenchSize;

/* --sizes: names of the sizes to run, comma-separated (NULL: all). */
extern gchar *bench_size_list;

gboolean size_wanted (const BenchSize * size);

/* Prints @what with the core's last error and exits. */
void
die (const gchar * what)
    G_GNUC_NORETURN;

#define CORE_TRY(call) G_STMT_START { \
    if ((call) != CVCORE_OK) die (#call); \
  } G_STMT_END

     int compare_doubles (const void *a, const void *b);

/* Median over @reps samples of the ms one run of @work takes, each sample
 * timing @batch runs queued back to back between two events (so that
 * launch gaps and event resolution do not dominate short kernels). */
     typedef cvcore_status (*TimedWork) (cvcore_stream * stream, gpointer data);

     gdouble time_median_ms (cvcore_device * device, cvcore_stream * stream,
    TimedWork work, gpointer data, guint reps, guint batch);

/* Frames per second of `appsrc ! cudaupload ! BETWEEN ! cudadownload !
 * fakesink` with frames of @info from page-locked (@pinned) or pageable
 * memory, prepared before the clock starts. */
     gdouble pipeline_fps (const GstVideoInfo * info, gboolean pinned,
    const gchar * between);

/* The same at @count pipelines at once from recycled pageable buffers,
 * pipeline i on device first_device + i % n_devices ("@D" in @between
 * names it). */
     gdouble recycled_pipelines_fps (const GstVideoInfo * info,
    const gchar * between, guint count, gint first_device, guint n_devices);

/* --start-at: wall-clock time (g_get_real_time) at which timed work
 * starts, so that separate processes run together; 0: at once. */
     extern gint64 bench_start_at;
     void bench_wait_for_start (void);

     void bench_tonemap (cvcore_device * device);
     void bench_gabor (cvcore_device * device);
     void bench_clt (cvcore_device * device);
     void bench_phase_correlation (cvcore_device * device);
     void bench_rig_quad (cvcore_device * device);
     void bench_gpus (cvcore_backend backend, gint frames, gint device_id,
    gint pipelines, const gchar * case_name);

#endif /* BENCH_UTIL_H */
