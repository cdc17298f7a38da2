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


/* Device time of each frame's work: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionworktimer.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_work_timer_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_work_timer_debug

/* Frames in flight that can be timed at once: a pipeline keeps a few. */
#define SLOTS 8

typedef struct
{
  cvcore_event *start, *end;
  gboolean pending;
} TimerSlot;

struct _GstCudaVisionWorkTimer
{
  TimerSlot slots[SLOTS];
  guint next;
  /* the slot that begin() took, or -1 when this frame goes untimed */
  gint current;
  GArray *times_ms;             /* gdouble */
};

static void
debug_init_once (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_work_timer_debug,
        "cudavisionworktimer", 0, "cudavision device time of frames");
    g_once_init_leave (&done, 1);
  }
}

GstCudaVisionWorkTimer *
gst_cuda_vision_work_timer_new (cvcore_device * device)
{
  GstCudaVisionWorkTimer *timer = g_new0 (GstCudaVisionWorkTimer, 1);
  guint i;

  debug_init_once ();
  timer->current = -1;
  timer->times_ms = g_array_new (FALSE, FALSE, sizeof (gdouble));
  for (i = 0; i < SLOTS; i++) {
    if (cvcore_event_new (device, true, &timer->slots[i].start) != CVCORE_OK
        || cvcore_event_new (device, true, &timer->slots[i].end) != CVCORE_OK) {
      GST_WARNING ("no timing events: %s", cvcore_last_error ());
      gst_cuda_vision_work_timer_free (timer);
      return NULL;
    }
  }
  return timer;
}

void
gst_cuda_vision_work_timer_free (GstCudaVisionWorkTimer * timer)
{
  guint i;

  for (i = 0; i < SLOTS; i++) {
    g_clear_pointer (&timer->slots[i].start, cvcore_event_free);
    g_clear_pointer (&timer->slots[i].end, cvcore_event_free);
  }
  g_array_unref (timer->times_ms);
  g_free (timer);
}

/* Keeps a pending pair's time once the device has passed it (or, when
 * @wait, after waiting for it); a failed read drops the pair. */
static void
collect (GstCudaVisionWorkTimer * timer, TimerSlot * slot, gboolean wait)
{
  cvcore_status status;
  float ms;

  if (!slot->pending)
    return;
  status = wait ? cvcore_event_synchronize (slot->end)
      : cvcore_event_query (slot->end);
  if (status == CVCORE_ERROR_NOT_READY)
    return;
  slot->pending = FALSE;
  if (status == CVCORE_OK
      && cvcore_event_elapsed_ms (slot->start, slot->end, &ms) == CVCORE_OK) {
    gdouble value = ms;

    g_array_append_val (timer->times_ms, value);
  } else {
    GST_DEBUG ("a frame's time is lost: %s", cvcore_last_error ());
  }
}

void
gst_cuda_vision_work_timer_begin (GstCudaVisionWorkTimer * timer,
    cvcore_stream * stream)
{
  TimerSlot *slot = &timer->slots[timer->next];

  timer->current = -1;
  collect (timer, slot, FALSE);
  if (slot->pending || cvcore_event_record (slot->start, stream) != CVCORE_OK)
    return;
  timer->current = timer->next;
  timer->next = (timer->next + 1) % SLOTS;
}

void
gst_cuda_vision_work_timer_end (GstCudaVisionWorkTimer * timer,
    cvcore_stream * stream)
{
  guint i;

  if (timer->current >= 0
      && cvcore_event_record (timer->slots[timer->current].end,
          stream) == CVCORE_OK)
    timer->slots[timer->current].pending = TRUE;
  timer->current = -1;
  for (i = 0; i < SLOTS; i++)
    collect (timer, &timer->slots[i], FALSE);
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

gboolean
gst_cuda_vision_work_timer_summarise (GstCudaVisionWorkTimer * timer,
    guint * frames, gdouble * median_ms, gdouble * p99_ms)
{
  GArray *times = timer->times_ms;
  guint i;

  for (i = 0; i < SLOTS; i++)
    collect (timer, &timer->slots[i], TRUE);
  *frames = times->len;
  if (times->len == 0)
    return FALSE;
  g_array_sort (times, compare_doubles);
  *median_ms = g_array_index (times, gdouble, (times->len - 1) / 2);
  /* the nearest rank, as the latency benchmark's summaries take it */
  *p99_ms = g_array_index (times, gdouble,
      MIN (times->len - 1, (guint) (times->len * 0.99 + 0.999) - 1));
  g_array_set_size (times, 0);
  return TRUE;
}
