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

/* cudaphasecorr's pads: the context, allocation and caps queries, the
 * views' caps and flushes, and the flushing seek sent up every view. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaphasecorrprivate.h"
#include "gstcudavisionbasetransform.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisionformats.h"
#include "gstcudavisioninterop.h"

#define GST_CAT_DEFAULT gst_cuda_vision_phase_corr_debug

static gboolean
handle_context_query (GstCudaVisionPhaseCorr * self, GstQuery * query,
    GstPadDirection from)
{
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  return gst_cuda_vision_answer_context_query (GST_ELEMENT (self), query,
      from, device_id, &self->device);
}

/* The template's caps, as far as the backend carries their memories. */
static gboolean
answer_caps_query (GstPad * pad, GstQuery * query)
{
  GstCaps *caps =
      gst_cuda_vision_caps_for_backend (gst_pad_get_pad_template_caps (pad),
      gst_cuda_vision_caps_backend ());
  GstCaps *filter = NULL;

  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    gst_query_parse_accept_caps (query, &filter);
    gst_query_set_accept_caps_result (query, gst_caps_is_subset (filter, caps));
  } else {
    gst_query_parse_caps (query, &filter);
    caps = gst_cuda_vision_caps_filter (caps, filter);
    gst_query_set_caps_result (query, caps);
  }
  gst_caps_unref (caps);
  return TRUE;
}

gboolean
gst_cuda_vision_phase_corr_sink_query (GstPad * pad, GstObject * parent,
    GstQuery * query)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (parent);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && handle_context_query (self, query, GST_PAD_SINK))
    return TRUE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)
    return self->device && gst_cuda_vision_propose_device_pool (self->device,
        self->stream, query);
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS
      || GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    return answer_caps_query (pad, query);
  return gst_pad_query_default (pad, parent, query);
}

/* LATENCY goes upstream to every view (the default): a pair leaves when
 * its later view comes, so the element adds nothing to theirs. */
gboolean
gst_cuda_vision_phase_corr_src_query (GstPad * pad, GstObject * parent,
    GstQuery * query)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (parent);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && handle_context_query (self, query, GST_PAD_SRC))
    return TRUE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS
      || GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS)
    return answer_caps_query (pad, query);
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)
    return FALSE;
  return gst_pad_query_default (pad, parent, query);
}

static gboolean
set_input_caps (GstCudaVisionPhaseCorr * self, guint view, GstCaps * caps)
{
  self->have_info[view] =
      gst_cuda_vision_video_info_from_caps (&self->info[view], caps);
  if (!self->have_info[view]) {
    gst_cuda_vision_post_caps_refusal (GST_ELEMENT (self), caps);
    return FALSE;
  }
  if (view == 0) {
    gst_cuda_vision_correlator_set_info (&self->corr, &self->info[0],
        self->stream);
    self->previous = -1;
  }
  return TRUE;
}

/* Stereo: ends the seek once no view waits for its flush, with a
 * flush stop downstream (@flush_stop, taken, or a new one) if it flushed,
 * under the output lock. */
static gboolean
end_seek (GstCudaVisionPhaseCorr * self, GstEvent * flush_stop)
{
  gboolean flushing;
  guint32 seqnum;

  GST_OBJECT_LOCK (self);
  flushing = self->seek_flushing_downstream;
  seqnum = self->seek_seqnum;
  self->seek_flushing_downstream = FALSE;
  self->seek_seqnum = GST_SEQNUM_INVALID;
  GST_OBJECT_UNLOCK (self);
  if (!flushing) {
    if (flush_stop)
      gst_event_unref (flush_stop);
    return TRUE;
  }
  if (flush_stop == NULL) {
    flush_stop = gst_event_new_flush_stop (TRUE);
    gst_event_set_seqnum (flush_stop, seqnum);
  }
  return gst_pad_push_event (self->src, flush_stop);
}

static gboolean
is_seek_flush (GstCudaVisionPhaseCorr * self, GstEvent * event)
{
  gboolean ours;

  GST_OBJECT_LOCK (self);
  ours = self->seek_seqnum != GST_SEQNUM_INVALID
      && gst_event_get_seqnum (event) == self->seek_seqnum;
  GST_OBJECT_UNLOCK (self);
  return ours;
}

/* @view's upstream has answered @seek. The output lock keeps the views'
 * events from going out before the flush stop; it is taken only when
 * downstream flushes, as otherwise a thread may hold it while its frame
 * waits downstream for the seek to return. */
static void
answered_seek (GstCudaVisionPhaseCorr * self, guint view, GstEvent * seek)
{
  gboolean flushing;

  GST_OBJECT_LOCK (self);
  flushing = self->seek_flushing_downstream;
  GST_OBJECT_UNLOCK (self);
  if (flushing)
    g_mutex_lock (&self->output_lock);
  if (!gst_cuda_vision_views_seek_answered (&self->views, view)
      && is_seek_flush (self, seek))
    end_seek (self, NULL);
  if (flushing)
    g_mutex_unlock (&self->output_lock);
}

/* Stereo: a flushing seek goes up every view. Downstream flushes once,
 * from the first view's flush start to the last view's flush stop, so that
 * no frame waits downstream while another view's upstream stops its
 * thread, and no pair goes out between the views' flushes. */
static gboolean
seek_views (GstCudaVisionPhaseCorr * self, GstEvent * seek)
{
  GstPad *pads[GST_CUDA_VISION_MAX_VIEWS];
  gboolean handled = FALSE;

  GST_OBJECT_LOCK (self);
  pads[0] = gst_object_ref (self->sink);
  for (guint v = 1; v < GST_CUDA_VISION_MAX_VIEWS; v++)
    pads[v] = self->view_pads[v] ? gst_object_ref (self->view_pads[v]) : NULL;
  self->seek_seqnum = gst_event_get_seqnum (seek);
  self->seek_flushing_downstream = FALSE;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_vision_views_begin_seek (&self->views);
  for (guint v = 0; v < G_N_ELEMENTS (pads); v++) {
    if (pads[v] == NULL)
      continue;
    handled |= gst_pad_push_event (pads[v], gst_event_ref (seek));
    answered_seek (self, v, seek);
    gst_object_unref (pads[v]);
  }
  gst_event_unref (seek);
  return handled;
}

gboolean
gst_cuda_vision_phase_corr_src_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (parent);
  GstSeekFlags flags = 0;
  gboolean views;

  GST_OBJECT_LOCK (self);
  views = self->mode != GST_CUDA_VISION_PHASE_CORR_FLOW;
  GST_OBJECT_UNLOCK (self);
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK)
    gst_event_parse_seek (event, NULL, NULL, &flags, NULL, NULL, NULL, NULL);
  if (views && (flags & GST_SEEK_FLAG_FLUSH))
    return seek_views (self, event);
  return gst_pad_event_default (pad, parent, event);
}

/* The flush of a seek sent up the views goes downstream once; otherwise a
 * flush of the sink pad goes downstream and the right view's is its own. */
static gboolean
handle_flush (GstCudaVisionPhaseCorr * self, guint view, GstEvent * event)
{
  const gboolean seek_flush = is_seek_flush (self, event);
  gboolean forward = !seek_flush && view == 0;
  gboolean ok = TRUE;

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START) {
    gst_cuda_vision_views_flush_start (&self->views, view);
    if (seek_flush) {
      GST_OBJECT_LOCK (self);
      forward = !self->seek_flushing_downstream;
      self->seek_flushing_downstream = TRUE;
      GST_OBJECT_UNLOCK (self);
    }
    if (forward)
      return gst_pad_push_event (self->src, event);
    gst_event_unref (event);
    return TRUE;
  }
  g_mutex_lock (&self->output_lock);
  /* flow starts over */
  self->restart |= view == 0;
  if (!gst_cuda_vision_views_flush_stop (&self->views, view) && seek_flush)
    ok = end_seek (self, event);
  else if (forward)
    ok = gst_pad_push_event (self->src, event);
  else
    gst_event_unref (event);
  g_mutex_unlock (&self->output_lock);
  return ok;
}

/* Serialized events follow the frames queued before them; those of the
 * sink pad go downstream, those of the right view are kept or dropped. */
gboolean
gst_cuda_vision_phase_corr_sink_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstCudaVisionPhaseCorr *self = GST_CUDA_VISION_PHASE_CORR (parent);
  const guint view = gst_cuda_vision_phase_corr_view_of_pad (pad);
  gboolean ok = TRUE;

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START
      || GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    return handle_flush (self, view, event);
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    if (!gst_cuda_vision_views_drain (&self->views, view,
            GST_EVENT_TYPE (event) == GST_EVENT_EOS)) {
      gst_event_unref (event);
      return FALSE;
    }
    g_mutex_lock (&self->output_lock);
    if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
      GstCaps *caps;

      gst_event_parse_caps (event, &caps);
      ok = set_input_caps (self, view, caps);
    }
    ok = ok && (view != 0 || gst_pad_push_event (self->src,
            gst_event_ref (event)));
    g_mutex_unlock (&self->output_lock);
    gst_event_unref (event);
    return ok;
  }
  if (view != 0) {
    gst_event_unref (event);
    return TRUE;
  }
  return gst_pad_push_event (self->src, event);
}
