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
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"

gchar *bench_size_list = NULL;
gint64 bench_start_at = 0;

void
bench_wait_for_start (void)
{
  gint64 wait = bench_start_at - g_get_real_time ();

  if (wait > 0)
    g_usleep (wait);
}

void
die (const gchar * what)
{
  fprintf (stderr, "cudavision-bench: %s: %s\n", what, cvcore_last_error ());
  exit (1);
}

int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

/* Median over @reps samples of the ms one run of @work takes on the device,
 * each sample timing @batch runs queued back to back between two events.
 * The batch is queued behind a wait on the device, so that the host's cost
 * of queueing (which can exceed a short kernel's run time) does not show as
 * gaps between the runs; a sample whose start event had already passed when
 * its last run was queued is taken again behind a longer wait (up to 32 ms:
 * work that waits for the device on the host cannot be helped). */
gdouble
time_median_ms (cvcore_device * device, cvcore_stream * stream,
    TimedWork work, gpointer data, guint reps, guint batch)
{
  cvcore_event *start, *end;
  gdouble *times, median, hold_ms = 0.5;

  /* The CPU backend's numbers only show that the program works. */
  if (cvcore_device_backend (device) == CVCORE_BACKEND_CPU)
    reps = batch = 1;
  times = g_new (gdouble, reps);

  CORE_TRY (cvcore_event_new (device, true, &start));
  CORE_TRY (cvcore_event_new (device, true, &end));
  for (guint i = 0; i < reps + 2;) {
    gboolean queued_in_time;
    float ms;

    CORE_TRY (cvcore_stream_delay (stream, hold_ms));
    CORE_TRY (cvcore_event_record (start, stream));
    for (guint b = 0; b < batch; b++)
      CORE_TRY (work (stream, data));
    CORE_TRY (cvcore_event_record (end, stream));
    queued_in_time = cvcore_event_query (start) == CVCORE_ERROR_NOT_READY;
    CORE_TRY (cvcore_event_synchronize (end));
    CORE_TRY (cvcore_event_elapsed_ms (start, end, &ms));
    if (!queued_in_time && cvcore_device_backend (device) ==
        CVCORE_BACKEND_CUDA && hold_ms < 16.0) {
      hold_ms *= 2.0;
      continue;
    }
    if (i >= 2)
      times[i - 2] = ms / batch;
    i++;
  }
  qsort (times, reps, sizeof (gdouble), compare_doubles);
  median = times[reps / 2];
  g_free (times);
  cvcore_event_free (start);
  cvcore_event_free (end);
  return median;
}

gboolean
size_wanted (const BenchSize * size)
{
  gchar **names;
  gboolean wanted = FALSE;

  if (bench_size_list == NULL)
    return TRUE;
  names = g_strsplit (bench_size_list, ",", -1);
  for (guint i = 0; names[i]; i++)
    wanted |= g_ascii_strcasecmp (names[i], size->name) == 0;
  g_strfreev (names);
  return wanted;
}
