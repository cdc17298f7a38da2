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

/* What cudaphasecorr's two files share: the element's fields, the
 * settings of one match, and the matching's entry points
 * (gstcudaphasecorrmatch.c), called by the element under its output
 * lock. */
#ifndef __GST_CUDA_PHASE_CORR_PRIVATE_H__
#define __GST_CUDA_PHASE_CORR_PRIVATE_H__

#include "gstcudaphasecorr.h"
#include "gstcudavisioncorrelator.h"
#include "gstcudavisiondevice.h"
#include "gstcudavisionutils.h"
#include "gstcudavisionviews.h"

/* GStreamer's analytics library (1.26 on): the rig's 2-D surfaces as a
 * GstTensorMeta. */
#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#define GST_CUDA_VISION_HAVE_TENSOR_META 1
#else
#define GST_CUDA_VISION_HAVE_TENSOR_META 0
#endif

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_vision_phase_corr_debug);

typedef enum
{
  GST_CUDA_VISION_PHASE_CORR_FLOW,
  GST_CUDA_VISION_PHASE_CORR_STEREO,
  GST_CUDA_VISION_PHASE_CORR_RIG,
} GstCudaVisionPhaseCorrMode;

/* The element has no thread of its own: a frame of flow, or a stereo pair
 * once its later view has come, is matched and pushed in the thread that
 * brought it. Whatever goes out (frames and serialized events) goes under
 * the output lock, so the two views' threads send it in order; the views'
 * own lock is taken inside the output lock or alone, never the other
 * way. */
struct _GstCudaVisionPhaseCorr
{
  GstElement parent;

  GstPad *sink;                 /* the video, or the left view */
  GstPad *src;

  /* properties, under the object lock */
  gint device_id;
  GstCudaVisionPhaseCorrMode mode;
  gdouble min_disparity, max_disparity, max_vertical_disparity;
  GstCudaVisionCorrelatorSettings settings;

  /* stereo and rig: the views' queued frames, view 0 the sink pad's */
  GstCudaVisionViews views;
  /* the other views' pads or NULL (stereo: 1, sink_right; rig: v,
   * sink_v), and whether there was one since start (then their going lets
   * view 0's frames pass unmatched); under the object lock */
  GstPad *view_pads[GST_CUDA_VISION_MAX_VIEWS];
  gboolean others_seen;
  /* rig: the cameras (property), or the file to read them from at start */
  cvcore_clt_rig rig;
  gchar *rig_location;
  /* rig: attach the tiles' 2-D surfaces as a GstTensorMeta */
  gboolean tensor_meta;
  /* stereo: the flushing seek sent up the views, and whether downstream
   * flushes for it; under the object lock */
  guint32 seek_seqnum;
  gboolean seek_flushing_downstream;

  /* between start and stop, under the output lock; the device also under
   * the object lock */
  GMutex output_lock;
  GstCudaVisionDevice *device;
  cvcore_stream *stream;
  GstVideoInfo info[GST_CUDA_VISION_MAX_VIEWS]; /* per view */
  gboolean have_info[GST_CUDA_VISION_MAX_VIEWS];
  /* rig: the cameras while running */
  cvcore_clt_rig active_rig;
  GstCudaVisionCorrelator corr;
  /* flow: index of the previous frame's coefficients in corr, or -1 */
  gint previous;
  /* flow: set by a flush, so the next frame starts over */
  gboolean restart;
  /* stereo and rig: whether view 0's frames pass unmatched, the others
   * gone */
  gboolean others_missing;
  /* whether the source pad's peer is ours */
  GstCudaVisionPeerCache src_peer;
};

/* The settings for one frame or pair, under the object lock. */
typedef struct
{
  GstCudaVisionCorrelatorSettings correlator;
  GstCudaVisionPhaseCorrMode mode;
  gdouble lo, hi;
  gboolean tensor_meta;
} MatchSettings;

/* The view a sink pad carries (0: the sink pad's). */
static inline guint
gst_cuda_vision_phase_corr_view_of_pad (GstPad * pad)
{
  return GPOINTER_TO_UINT (gst_pad_get_element_private (pad));
}

/* The pads' query and event functions (gstcudaphasecorrevents.c). */
gboolean gst_cuda_vision_phase_corr_sink_query (GstPad * pad,
    GstObject * parent, GstQuery * query);
gboolean gst_cuda_vision_phase_corr_src_query (GstPad * pad,
    GstObject * parent, GstQuery * query);
gboolean gst_cuda_vision_phase_corr_sink_event (GstPad * pad,
    GstObject * parent, GstEvent * event);
gboolean gst_cuda_vision_phase_corr_src_event (GstPad * pad,
    GstObject * parent, GstEvent * event);

/* Flow: @frame (taken) matched with the one before and pushed. */
GstFlowReturn gst_cuda_vision_phase_corr_output_flow (GstCudaVisionPhaseCorr *
    self, GstBuffer * frame, const GstCudaVisionCorrelatorSettings * settings);

/* Stereo and rig: every set of views that the frame just queued completes
 * matched and pushed. */
GstFlowReturn gst_cuda_vision_phase_corr_output_views (GstCudaVisionPhaseCorr *
    self, const MatchSettings * s);

G_END_DECLS

#endif /* __GST_CUDA_PHASE_CORR_PRIVATE_H__ */
