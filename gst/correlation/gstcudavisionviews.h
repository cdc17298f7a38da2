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

/* Frames of several views of one scene (left and right, or a rig's
 * cameras) that come on their own threads, queued and paired by
 * timestamp. Each view queues a few frames; the views' first frames pair
 * when they lie within half a frame of each other, otherwise the earliest
 * of them is dropped, with one warning for the stream and a count. A view
 * whose queue is full waits, in its own thread, until a pair takes a frame
 * or it is flushed; a serialized event waits until the frames before it
 * have paired. While a flushing seek is on its way up the views, nothing
 * pairs and no event passes until every view has flushed: the frames queued
 * before their flush are not of the new position. Everything here is under
 * the set's own lock. */
#ifndef __GST_CUDA_VISION_VIEWS_H__
#define __GST_CUDA_VISION_VIEWS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_CUDA_VISION_MAX_VIEWS 8
/* Frames a view may queue while it waits for the others' of the same time
 * (live cameras differ in latency by a frame or two). */
#define GST_CUDA_VISION_VIEW_QUEUE 3
typedef struct
{
  /* oldest first */
  GQueue frames;
  /* it has a pad: frames come, or may */
  gboolean present;
  /* it has ended: no frame comes after those queued */
  gboolean eos;
  /* a flush or a stop: its frames are refused */
  gboolean flushing;
  /* a flushing seek went upstream of it, and its flush has not ended */
  gboolean seeking;
} GstCudaVisionView;

typedef struct
{
  GMutex lock;
  GCond cond;
  guint n_views;
  GstCudaVisionView views[GST_CUDA_VISION_MAX_VIEWS];
  /* frames dropped unpaired since the last reset */
  guint dropped;
} GstCudaVisionViews;

typedef enum
{
  /* every view's first frame is taken: they pair */
  GST_CUDA_VISION_VIEWS_PAIRED,
  /* a view has no frame yet */
  GST_CUDA_VISION_VIEWS_WAIT,
  /* a view has ended, or has no pad: nothing more pairs */
  GST_CUDA_VISION_VIEWS_ENDED,
} GstCudaVisionViewsResult;

void gst_cuda_vision_views_init (GstCudaVisionViews * self, guint n_views);
void gst_cuda_vision_views_clear (GstCudaVisionViews * self);

/* Drops every frame and sets every view flushing or not, waking those
 * that wait; the drop count starts again with a reset to not flushing. */
void gst_cuda_vision_views_reset (GstCudaVisionViews * self, gboolean flushing);

/* A pad for @view came, or went (its frames dropped, its waits woken). */
void gst_cuda_vision_views_set_present (GstCudaVisionViews * self,
    guint view, gboolean present);
gboolean gst_cuda_vision_views_is_present (GstCudaVisionViews * self,
    guint view);

void gst_cuda_vision_views_flush_start (GstCudaVisionViews * self, guint view);
/* TRUE when a view still waits for the flush of a seek. */
gboolean gst_cuda_vision_views_flush_stop (GstCudaVisionViews * self,
    guint view);

/* A flushing seek goes upstream of every present view. */
void gst_cuda_vision_views_begin_seek (GstCudaVisionViews * self);
/* @view's upstream has answered the seek: a view that has not started
 * flushing by then will not. TRUE when a view still waits for its flush. */
gboolean gst_cuda_vision_views_seek_answered (GstCudaVisionViews * self,
    guint view);

/* Queues @frame (taken) on @view, first waiting for room while a pair may
 * still come: GST_FLOW_FLUSHING when the view is flushing. */
GstFlowReturn gst_cuda_vision_views_queue (GstCudaVisionViews * self,
    guint view, GstBuffer * frame);

/* Waits until @view's queued frames have paired, or drops them when they
 * cannot; then with @end marks the view ended. FALSE when it is
 * flushing. */
gboolean gst_cuda_vision_views_drain (GstCudaVisionViews * self,
    guint view, gboolean end);

/* The first frame of every present view into @frames (n_views, NULL for
 * views without a pad) when they pair (the views' @names in the warning,
 * @info's frame rate for the tolerance). */
GstCudaVisionViewsResult gst_cuda_vision_views_take (GstCudaVisionViews *
    self, GstElement * element, const gchar * const *names,
    const GstVideoInfo * info, GstBuffer ** frames);

/* @view's first frame, alone, or NULL. */
GstBuffer *gst_cuda_vision_views_pop (GstCudaVisionViews * self, guint view);

G_END_DECLS

#endif /* __GST_CUDA_VISION_VIEWS_H__ */
