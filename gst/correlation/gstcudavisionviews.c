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


/* Views of one scene queued and paired by timestamp: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionviews.h"

void
gst_cuda_vision_views_init (GstCudaVisionViews * self, guint n_views)
{
  g_return_if_fail (n_views <= GST_CUDA_VISION_MAX_VIEWS);
  memset (self, 0, sizeof (*self));
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->n_views = n_views;
}

static void
drop_frames (GstCudaVisionView * view)
{
  g_queue_clear_full (&view->frames, (GDestroyNotify) gst_buffer_unref);
}

void
gst_cuda_vision_views_clear (GstCudaVisionViews * self)
{
  for (guint v = 0; v < self->n_views; v++)
    drop_frames (&self->views[v]);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
}

void
gst_cuda_vision_views_reset (GstCudaVisionViews * self, gboolean flushing)
{
  g_mutex_lock (&self->lock);
  for (guint v = 0; v < self->n_views; v++) {
    drop_frames (&self->views[v]);
    self->views[v].eos = FALSE;
    self->views[v].flushing = flushing;
    self->views[v].seeking = FALSE;
  }
  if (!flushing)
    self->dropped = 0;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

void
gst_cuda_vision_views_set_present (GstCudaVisionViews * self, guint view,
    gboolean present)
{
  GstCudaVisionView *v = &self->views[view];

  g_mutex_lock (&self->lock);
  drop_frames (v);
  v->present = present;
  v->eos = FALSE;
  v->flushing = !present;
  v->seeking = FALSE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

gboolean
gst_cuda_vision_views_is_present (GstCudaVisionViews * self, guint view)
{
  gboolean present;

  g_mutex_lock (&self->lock);
  present = self->views[view].present;
  g_mutex_unlock (&self->lock);
  return present;
}

void
gst_cuda_vision_views_flush_start (GstCudaVisionViews * self, guint view)
{
  g_mutex_lock (&self->lock);
  self->views[view].flushing = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static gboolean
any_seeking (GstCudaVisionViews * self)
{
  for (guint v = 0; v < self->n_views; v++)
    if (self->views[v].present && self->views[v].seeking)
      return TRUE;
  return FALSE;
}

gboolean
gst_cuda_vision_views_flush_stop (GstCudaVisionViews * self, guint view)
{
  gboolean seeking;

  g_mutex_lock (&self->lock);
  drop_frames (&self->views[view]);
  self->views[view].eos = FALSE;
  self->views[view].flushing = FALSE;
  self->views[view].seeking = FALSE;
  seeking = any_seeking (self);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return seeking;
}

void
gst_cuda_vision_views_begin_seek (GstCudaVisionViews * self)
{
  g_mutex_lock (&self->lock);
  for (guint v = 0; v < self->n_views; v++)
    self->views[v].seeking = self->views[v].present;
  g_mutex_unlock (&self->lock);
}

gboolean
gst_cuda_vision_views_seek_answered (GstCudaVisionViews * self, guint view)
{
  gboolean seeking;

  g_mutex_lock (&self->lock);
  if (!self->views[view].flushing)
    self->views[view].seeking = FALSE;
  seeking = any_seeking (self);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return seeking;
}

/* Whether @view's queued frames may still find their pair: another view
 * is there, and none has ended (a flushing one comes back). */
static gboolean
may_pair (GstCudaVisionViews * self, guint view)
{
  guint others = 0;

  for (guint v = 0; v < self->n_views; v++) {
    GstCudaVisionView *other = &self->views[v];

    if (v == view || !other->present)
      continue;
    if (other->eos && g_queue_is_empty (&other->frames))
      return FALSE;
    others++;
  }
  return others > 0;
}

GstFlowReturn
gst_cuda_vision_views_queue (GstCudaVisionViews * self, guint view,
    GstBuffer * frame)
{
  GstCudaVisionView *v = &self->views[view];

  g_mutex_lock (&self->lock);
  while (!v->flushing && g_queue_get_length (&v->frames) >=
      GST_CUDA_VISION_VIEW_QUEUE && may_pair (self, view))
    g_cond_wait (&self->cond, &self->lock);
  if (v->flushing) {
    g_mutex_unlock (&self->lock);
    gst_buffer_unref (frame);
    return GST_FLOW_FLUSHING;
  }
  g_queue_push_tail (&v->frames, frame);
  g_mutex_unlock (&self->lock);
  return GST_FLOW_OK;
}

gboolean
gst_cuda_vision_views_drain (GstCudaVisionViews * self, guint view,
    gboolean end)
{
  GstCudaVisionView *v = &self->views[view];
  gboolean flushing;

  g_mutex_lock (&self->lock);
  while (!v->flushing && (any_seeking (self)
          || (!g_queue_is_empty (&v->frames) && may_pair (self, view))))
    g_cond_wait (&self->cond, &self->lock);
  flushing = v->flushing;
  if (!flushing) {
    drop_frames (v);
    v->eos |= end;
    g_cond_broadcast (&self->cond);
  }
  g_mutex_unlock (&self->lock);
  return !flushing;
}

static GstClockTime
tolerance_of (const GstVideoInfo * info)
{
  if (GST_VIDEO_INFO_FPS_N (info) > 0)
    return gst_util_uint64_scale (GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
        2 * GST_VIDEO_INFO_FPS_N (info));
  return GST_MSECOND;
}

/* Under the lock: PAIRED, WAIT or ENDED as the header says, or FALSE
 * in *@paired after dropping the earliest first frame, which pairs with
 * none. */
static GstCudaVisionViewsResult
check_first_frames (GstCudaVisionViews * self, GstElement * element,
    const gchar * const *names, const GstVideoInfo * info, gboolean * paired)
{
  const GstClockTime tolerance = tolerance_of (info);
  GstClockTime earliest = GST_CLOCK_TIME_NONE, latest = 0;
  guint first = 0, last = 0, present = 0;

  *paired = TRUE;
  if (any_seeking (self))
    return GST_CUDA_VISION_VIEWS_WAIT;
  for (guint v = 0; v < self->n_views; v++) {
    GstCudaVisionView *view = &self->views[v];
    GstClockTime t;

    if (!view->present)
      continue;
    present++;
    if (g_queue_is_empty (&view->frames))
      return view->eos ? GST_CUDA_VISION_VIEWS_ENDED :
          GST_CUDA_VISION_VIEWS_WAIT;
    /* a frame without a time pairs with any */
    t = GST_BUFFER_PTS (g_queue_peek_head (&view->frames));
    if (!GST_CLOCK_TIME_IS_VALID (t))
      continue;
    if (!GST_CLOCK_TIME_IS_VALID (earliest) || t < earliest) {
      earliest = t;
      first = v;
    }
    if (t >= latest) {
      latest = t;
      last = v;
    }
  }
  if (present < 2)
    return GST_CUDA_VISION_VIEWS_ENDED;
  if (!GST_CLOCK_TIME_IS_VALID (earliest) || latest - earliest <= tolerance)
    return GST_CUDA_VISION_VIEWS_PAIRED;

  GST_DEBUG_OBJECT (element, "dropping an unpaired %s frame", names[first]);
  if (self->dropped++ == 0)
    GST_ELEMENT_WARNING (element, STREAM, FAILED,
        ("The %s and %s frames do not pair: unpaired frames are dropped",
            names[first], names[last]),
        ("%s at %" GST_TIME_FORMAT ", %s at %" GST_TIME_FORMAT ": %.3f ms "
            "apart, more than the %.3f ms (half a frame) that pairs them",
            names[first], GST_TIME_ARGS (earliest), names[last],
            GST_TIME_ARGS (latest), (gdouble) (latest - earliest) /
            GST_MSECOND, (gdouble) tolerance / GST_MSECOND));
  gst_buffer_unref (g_queue_pop_head (&self->views[first].frames));
  *paired = FALSE;
  return GST_CUDA_VISION_VIEWS_WAIT;
}

GstCudaVisionViewsResult
gst_cuda_vision_views_take (GstCudaVisionViews * self, GstElement * element,
    const gchar * const *names, const GstVideoInfo * info, GstBuffer ** frames)
{
  GstCudaVisionViewsResult result;
  gboolean paired;

  g_mutex_lock (&self->lock);
  do
    result = check_first_frames (self, element, names, info, &paired);
  while (!paired);
  for (guint v = 0; v < self->n_views; v++)
    frames[v] = result == GST_CUDA_VISION_VIEWS_PAIRED
        && self->views[v].present ?
        g_queue_pop_head (&self->views[v].frames) : NULL;
  /* room in the queues, or frames gone */
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return result;
}

GstBuffer *
gst_cuda_vision_views_pop (GstCudaVisionViews * self, guint view)
{
  GstBuffer *frame;

  g_mutex_lock (&self->lock);
  frame = g_queue_pop_head (&self->views[view].frames);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return frame;
}
