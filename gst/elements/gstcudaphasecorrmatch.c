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

/* cudaphasecorr's matching: frames mapped and matched on the device (flow,
 * a stereo pair, a rig's views), the results drawn and attached, the
 * frame pushed; all under the element's output lock. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaphasecorrprivate.h"
#include "gstcudavisioncorrelationmetaimpl.h"
#include "gstcudavisionframe.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionrig.h"

#include <math.h>

#define GST_CAT_DEFAULT gst_cuda_vision_phase_corr_debug

/* the meta's matches are the core's, copied whole */
G_STATIC_ASSERT (sizeof (GstCudaVisionTileMatch) == sizeof (cvcore_clt_match));

static gboolean
map_input (GstCudaVisionPhaseCorr * self, GstBuffer * buffer, gint input,
    GstMapFlags flags, GstVideoFrame * frame)
{
  const gchar *refusal = gst_buffer_n_memory (buffer) != 1 ?
      "it is not one memory block" :
      gst_cuda_vision_device_memory_refusal (gst_buffer_peek_memory (buffer,
          0), self->device);

  gchar *map_refusal = NULL;

  if (refusal == NULL && gst_cuda_vision_video_frame_map (frame,
          &self->info[input], buffer, flags | GST_MAP_CUDA_VISION,
          &map_refusal))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("Cannot use the frame of view %d: %s", input,
          refusal ? refusal : map_refusal), (NULL));
  g_free (map_refusal);
  return FALSE;
}

/* Ends the matching's uses of @n frames' memories @mem: recorded on the
 * stream, even after a failure (the chain of uses must stay unbroken),
 * or, where the host has waited for the stream since (@waited), settled
 * where no other stream used them since: the next users queue no wait. */
static gboolean
end_uses (GstCudaVisionPhaseCorr * self, GstMemory ** mem, guint n,
    gboolean waited)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++) {
    if (waited)
      ok &= gst_cuda_vision_device_memory_end_access_waited (mem[i],
          self->device, self->stream);
    else
      ok &= gst_cuda_vision_device_memory_end_access (mem[i], self->device,
          self->stream);
  }
  return ok;
}

/* Flow: this frame's pyramid, then the previous frame's matched in it.
 * TRUE with *matched when there was a previous frame and the matches are
 * read back. */
static gboolean
match_flow (GstCudaVisionPhaseCorr * self, GstBuffer * frame,
    const cvcore_clt_corr_params * params, gboolean * matched)
{
  GstMemory *mem = gst_buffer_peek_memory (frame, 0);
  const gint current = self->previous == 0 ? 1 : 0;
  GstVideoFrame video;
  cvcore_image image;
  gboolean ok;

  *matched = FALSE;
  if (!map_input (self, frame, 0, GST_MAP_READ, &video))
    return FALSE;
  gst_cuda_vision_correlator_image (&self->corr, &video, &image);
  ok = gst_cuda_vision_device_memory_begin_access (mem, self->stream)
      && (self->previous < 0
      ? cvcore_clt_pyramid_build (self->stream, self->corr.pyramid, current,
          &image, self->corr.channel)
      : cvcore_clt_pyramid_build_and_correlate (self->stream,
          self->corr.pyramid, self->previous, current, &image,
          self->corr.channel, params, self->corr.matches)) == CVCORE_OK;
  if (ok && self->previous >= 0) {
    ok = gst_cuda_vision_correlator_read (&self->corr,
        self->stream) == CVCORE_OK;
    *matched = ok;
  }
  ok &= end_uses (self, &mem, 1, *matched);
  gst_video_frame_unmap (&video);
  self->previous = ok ? current : -1;
  if (!ok)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Phase correlation failed"),
        ("%s", cvcore_last_error ()));
  return ok;
}

/* Stereo: both views' pyramids, the left matched in the right, the
 * matches read back as disparities. */
static gboolean
match_stereo (GstCudaVisionPhaseCorr * self, GstBuffer * left,
    GstBuffer * right, const cvcore_clt_corr_params * params)
{
  GstMemory *mem[2] = { gst_buffer_peek_memory (left, 0),
    gst_buffer_peek_memory (right, 0)
  };
  GstVideoFrame frame[2];
  cvcore_image image[2];
  gboolean ok, read;

  if (!map_input (self, left, 0, GST_MAP_READ, &frame[0]))
    return FALSE;
  if (!map_input (self, right, 1, GST_MAP_READ, &frame[1])) {
    gst_video_frame_unmap (&frame[0]);
    return FALSE;
  }
  for (gint v = 0; v < 2; v++)
    gst_cuda_vision_correlator_image (&self->corr, &frame[v], &image[v]);
  ok = gst_cuda_vision_device_memory_begin_access (mem[0], self->stream)
      && gst_cuda_vision_device_memory_begin_access (mem[1], self->stream)
      && cvcore_clt_pyramid_build (self->stream, self->corr.pyramid, 0,
      &image[0], self->corr.channel) == CVCORE_OK
      && cvcore_clt_pyramid_build_and_correlate (self->stream,
      self->corr.pyramid, 0, 1, &image[1], self->corr.channel, params,
      self->corr.matches) == CVCORE_OK;
  read = ok && gst_cuda_vision_correlator_read (&self->corr,
      self->stream) == CVCORE_OK;
  ok = end_uses (self, mem, 2, read) && read;
  gst_video_frame_unmap (&frame[1]);
  gst_video_frame_unmap (&frame[0]);
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Stereo matching failed"),
        ("%s", cvcore_last_error ()));
    return FALSE;
  }
  for (gint t = 0; t < self->corr.tiles_x * self->corr.tiles_y; t++)
    self->corr.host_matches[t].dx = -self->corr.host_matches[t].dx;
  return TRUE;
}

/* A copy of @in with the vectors drawn on it. */
static GstBuffer *
draw_copy (GstCudaVisionPhaseCorr * self, GstBuffer * in, gdouble scale,
    gdouble min_confidence)
{
  GstBuffer *out = gst_buffer_copy_deep (in);
  GstVideoFrame frame;
  cvcore_image image;
  gboolean ok;

  if (out == NULL || !map_input (self, out, 0, GST_MAP_READWRITE, &frame)) {
    gst_clear_buffer (&out);
    return NULL;
  }
  gst_cuda_vision_correlator_image (&self->corr, &frame, &image);
  ok = gst_cuda_vision_device_memory_begin_access (frame.map[0].memory,
      self->stream)
      && cvcore_clt_draw_matches (self->stream, &image, self->corr.matches,
      scale, min_confidence, self->corr.colour) == CVCORE_OK;
  ok &=
      gst_cuda_vision_device_memory_end_access (frame.map[0].memory,
      self->device, self->stream);
  gst_video_frame_unmap (&frame);
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Drawing failed"),
        ("%s", cvcore_last_error ()));
    gst_clear_buffer (&out);
  }
  return out;
}

/* Elements of other plugins know nothing of our stream: work queued on
 * CUDAMemory is done before they get it. */
static GstFlowReturn
push_frame (GstCudaVisionPhaseCorr * self, GstBuffer * out)
{
  if (gst_cuda_vision_cuda_buffer_needs_host_wait (out)
      && !gst_cuda_vision_peer_cache_is_ours (&self->src_peer, self->src)) {
    if (cvcore_stream_finish (self->stream) != CVCORE_OK) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Device work on CUDA memory failed"), ("%s", cvcore_last_error ()));
      gst_buffer_unref (out);
      return GST_FLOW_ERROR;
    }
    /* later uses of the frame need not wait for ours on the device */
    gst_cuda_vision_cuda_buffer_use_finished (out, self->stream);
  }
  return gst_pad_push (self->src, out);
}

#if GST_CUDA_VISION_HAVE_TENSOR_META
/* The rig's 2-D surfaces, @data (taken), as a tensor of tiles_y x tiles_x
 * x side x side 32-bit floats on @out. */
static void
add_tensor_meta (GstCudaVisionPhaseCorr * self, GstBuffer * out,
    GstBuffer * data)
{
  gsize dims[4] = { self->corr.tiles_y, self->corr.tiles_x,
    CVCORE_CLT_RIG_SURFACE, CVCORE_CLT_RIG_SURFACE
  };
  GstTensor **tensors = g_new (GstTensor *, 1);

  tensors[0] = gst_tensor_new_simple (g_quark_from_static_string
      ("cudavision-rig-correlation"), GST_TENSOR_DATA_TYPE_FLOAT32, data,
      GST_TENSOR_DIM_ORDER_ROW_MAJOR, G_N_ELEMENTS (dims), dims);
  gst_tensor_meta_set (gst_buffer_add_tensor_meta (out), 1, tensors);
}
#endif

/* Passes @in (taken) on, with this frame's matches when @matched: drawn,
 * in a meta, in a message; with the rig's 2-D @surfaces (taken, or NULL)
 * in a tensor meta. */
static GstFlowReturn
finish_frame (GstCudaVisionPhaseCorr * self, GstBuffer * in, gboolean matched,
    GstCudaVisionCorrelationMode mode,
    const GstCudaVisionCorrelatorSettings * settings, GstBuffer * surfaces)
{
  GstBuffer *out;
  gdouble dx, dy;
  guint confident;

  if (!matched)
    return push_frame (self, in);
  if (settings->draw) {
    out = draw_copy (self, in, settings->draw_scale, settings->min_confidence);
    gst_buffer_unref (in);
    if (out == NULL) {
      gst_clear_buffer (&surfaces);
      return GST_FLOW_ERROR;
    }
  } else {
    out = gst_buffer_make_writable (in);
  }
  confident = gst_cuda_vision_correlator_motion (&self->corr,
      settings->min_confidence, &dx, &dy);
  gst_buffer_add_cuda_vision_correlation_meta (out, mode, self->corr.views,
      self->corr.pairs, self->corr.tiles_x,
      self->corr.tiles_y,
      (const GstCudaVisionTileMatch *) self->corr.host_matches, dx, dy,
      confident);
#if GST_CUDA_VISION_HAVE_CUSTOM_META
  if (settings->custom_meta)
    gst_cuda_vision_correlator_fill (&self->corr,
        gst_custom_meta_get_structure (gst_buffer_add_custom_meta (out,
                GST_CUDA_VISION_CORRELATION_CUSTOM_META)), GST_BUFFER_PTS (out),
        dx, dy, confident);
#endif
#if GST_CUDA_VISION_HAVE_TENSOR_META
  if (surfaces)
    add_tensor_meta (self, out, surfaces);
#else
  gst_clear_buffer (&surfaces);
#endif
  if (settings->post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        gst_cuda_vision_correlator_message (&self->corr, GST_OBJECT (self),
            "cudaphasecorr", GST_BUFFER_PTS (out), dx, dy, confident));
  return push_frame (self, out);
}

/* With new buffers (the first frame, or other levels) the next frame
 * of flow has no previous one. */
static gboolean
ensure_buffers (GstCudaVisionPhaseCorr * self, gint levels, gint rig_views)
{
  gboolean fresh;

  if (gst_cuda_vision_correlator_ensure (&self->corr,
          gst_cuda_vision_device_get_core (self->device), levels, rig_views,
          self->stream, &fresh) == CVCORE_OK) {
    if (fresh)
      self->previous = -1;
    return TRUE;
  }
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Cannot allocate phase correlation buffers"),
      ("%s", cvcore_last_error ()));
  return FALSE;
}

/* Flow, under the output lock: @frame (taken) matched with the one
 * before. */
GstFlowReturn
gst_cuda_vision_phase_corr_output_flow (GstCudaVisionPhaseCorr * self,
    GstBuffer * frame, const GstCudaVisionCorrelatorSettings * settings)
{
  cvcore_clt_corr_params params = settings->params;
  gboolean matched;

  if (self->restart || GST_BUFFER_FLAG_IS_SET (frame, GST_BUFFER_FLAG_DISCONT))
    self->previous = -1;
  self->restart = FALSE;
  params.full_scale = self->corr.full_scale;
  self->corr.views = self->corr.pairs = 1;
  if (!self->have_info[0] || !ensure_buffers (self, settings->levels, 0)
      || !match_flow (self, frame, &params, &matched)) {
    gst_buffer_unref (frame);
    return GST_FLOW_ERROR;
  }
  return finish_frame (self, frame, matched, GST_CUDA_VISION_CORRELATION_FLOW,
      settings, NULL);
}

/* Whether view @view's frames are of view 0's format and size; posts
 * the error when not. */
static gboolean
same_geometry (GstCudaVisionPhaseCorr * self, guint view)
{
  const GstVideoInfo *a = &self->info[0], *b = &self->info[view];

  if (self->have_info[0] && self->have_info[view]
      && GST_VIDEO_INFO_FORMAT (a) == GST_VIDEO_INFO_FORMAT (b)
      && GST_VIDEO_INFO_WIDTH (a) == GST_VIDEO_INFO_WIDTH (b)
      && GST_VIDEO_INFO_HEIGHT (a) == GST_VIDEO_INFO_HEIGHT (b))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("The views differ in format or size"),
      ("view 0 %s %dx%d, view %u %s %dx%d",
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (a)),
          GST_VIDEO_INFO_WIDTH (a), GST_VIDEO_INFO_HEIGHT (a), view,
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (b)),
          GST_VIDEO_INFO_WIDTH (b), GST_VIDEO_INFO_HEIGHT (b)));
  return FALSE;
}

static void
unref_frames (GstBuffer ** frames)
{
  for (guint v = 0; v < GST_CUDA_VISION_MAX_VIEWS; v++)
    gst_clear_buffer (&frames[v]);
}

/* Stereo, under the output lock: a pair (both taken) matched. */
static GstFlowReturn
output_pair (GstCudaVisionPhaseCorr * self, GstBuffer * left_frame,
    GstBuffer * right_frame, const MatchSettings * s)
{
  cvcore_clt_corr_params params = s->correlator.params;
  gboolean ok;

  if (!same_geometry (self, 1)) {
    gst_buffer_unref (left_frame);
    gst_buffer_unref (right_frame);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* the right view's content lies the disparity to the left */
  params.initial_x = -(s->lo + s->hi) / 2.0;
  params.search_radius = CLAMP ((gint) ceil ((s->hi - s->lo) / 2.0) + 1, 1,
      CVCORE_CLT_MAX_SEARCH);
  params.full_scale = self->corr.full_scale;
  self->corr.views = 2;
  self->corr.pairs = 1;
  ok = ensure_buffers (self, s->correlator.levels, 0)
      && match_stereo (self, left_frame, right_frame, &params);
  gst_buffer_unref (right_frame);
  if (!ok) {
    gst_buffer_unref (left_frame);
    return GST_FLOW_ERROR;
  }
  return finish_frame (self, left_frame, TRUE,
      GST_CUDA_VISION_CORRELATION_STEREO, &s->correlator, NULL);
}

static gsize
surfaces_bytes (GstCudaVisionPhaseCorr * self)
{
  return (gsize) self->corr.tiles_x * self->corr.tiles_y *
      CVCORE_CLT_RIG_SURFACE * CVCORE_CLT_RIG_SURFACE * sizeof (gfloat);
}

/* Rig: room on the device for the tiles' 2-D surfaces. */
static gboolean
ensure_surfaces (GstCudaVisionPhaseCorr * self)
{
  if (self->corr.surfaces || cvcore_device_alloc (self->corr.core,
          surfaces_bytes (self), (void **) &self->corr.surfaces) == CVCORE_OK)
    return TRUE;
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Cannot allocate the correlation surfaces"),
      ("%s", cvcore_last_error ()));
  return FALSE;
}

/* Rig: the tiles' 2-D surfaces' copy into a new buffer, queued; the
 * buffer, mapped into @map until the stream has done it, or NULL. */
static GstBuffer *
queue_surfaces_read (GstCudaVisionPhaseCorr * self, GstMapInfo * map)
{
  GstBuffer *data = gst_buffer_new_allocate (NULL, surfaces_bytes (self),
      NULL);

  if (data == NULL || !gst_buffer_map (data, map, GST_MAP_WRITE)) {
    gst_clear_buffer (&data);
    return NULL;
  }
  if (cvcore_copy_async (self->stream, map->data, self->corr.surfaces,
          map->size, CVCORE_COPY_DEVICE_TO_HOST) != CVCORE_OK) {
    gst_buffer_unmap (data, map);
    gst_clear_buffer (&data);
  }
  return data;
}

/* Rig, under the output lock: the views' frames (taken; NULL where a view
 * has no pad) matched together, per tile one disparity per unit
 * baseline; view 0's frame goes on. */
static GstFlowReturn
output_rig (GstCudaVisionPhaseCorr * self, GstBuffer ** frames,
    const MatchSettings * s)
{
  cvcore_clt_corr_params params = s->correlator.params;
  GstVideoFrame video[GST_CUDA_VISION_MAX_VIEWS];
  cvcore_image images[GST_CUDA_VISION_MAX_VIEWS];
  GstMemory *mem[GST_CUDA_VISION_MAX_VIEWS];
  gboolean present[GST_CUDA_VISION_MAX_VIEWS];
  guint n = 0, last = 0;
  cvcore_clt_rig rig;
  GstBuffer *surfaces = NULL;
  GstMapInfo surfaces_map;
  gboolean ok = TRUE, read;
  gdouble longest = 0.0;

  for (guint v = 0; v < GST_CUDA_VISION_MAX_VIEWS; v++) {
    present[v] = frames[v] != NULL;
    last = present[v] ? v : last;
    ok = ok && (!present[v] || same_geometry (self, v));
  }
  if (!ok || last >= (guint) self->active_rig.views) {
    if (ok)
      GST_ELEMENT_ERROR (self, CORE, PAD, ("The rig has no camera for "
              "sink_%u", last), (NULL));
    unref_frames (frames);
    return ok ? GST_FLOW_ERROR : GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_cuda_vision_rig_select (&self->active_rig, present, &rig)) {
    GST_ELEMENT_ERROR (self, CORE, PAD, ("None of rig-pairs has both its "
            "views"), ("a view's pad was released"));
    unref_frames (frames);
    return GST_FLOW_ERROR;
  }
  longest = cvcore_clt_rig_longest (&rig);
  /* as stereo: the range's middle, and its half plus a pixel along the
   * longest baseline */
  params.initial_x = (s->lo + s->hi) / 2.0;
  params.search_radius = CLAMP ((gint) ceil ((s->hi - s->lo) / 2.0 *
          longest) + 1, 1, CVCORE_CLT_MAX_SEARCH);
  params.full_scale = self->corr.full_scale;
  self->corr.views = rig.views;
  self->corr.pairs = cvcore_clt_rig_pairs (&rig);
  ok = ensure_buffers (self, s->correlator.levels, rig.views)
      && (!s->tensor_meta || ensure_surfaces (self));
  for (guint v = 0; ok && v < GST_CUDA_VISION_MAX_VIEWS; v++) {
    if (!present[v])
      continue;
    if (!map_input (self, frames[v], v, GST_MAP_READ, &video[n])) {
      ok = FALSE;
      break;
    }
    mem[n] = gst_buffer_peek_memory (frames[v], 0);
    gst_cuda_vision_correlator_image (&self->corr, &video[n], &images[n]);
    n++;
  }
  for (guint i = 0; ok && i < n; i++)
    ok = gst_cuda_vision_device_memory_begin_access (mem[i], self->stream);
  ok = ok && cvcore_clt_rig_pyramid_correlate (self->stream,
      self->corr.rig_pyramid, images, self->corr.channel, &rig, &params,
      self->corr.matches, s->tensor_meta ? self->corr.surfaces : NULL) ==
      CVCORE_OK;
  /* queued before the matches' read, whose wait covers both */
  if (ok && s->tensor_meta)
    ok = (surfaces = queue_surfaces_read (self, &surfaces_map)) != NULL;
  read = ok && gst_cuda_vision_correlator_read (&self->corr,
      self->stream) == CVCORE_OK;
  ok = end_uses (self, mem, n, read) && read;
  for (guint i = 0; i < n; i++)
    gst_video_frame_unmap (&video[i]);
  if (surfaces) {
    /* the copy may still be queued after a failure */
    if (!ok)
      cvcore_stream_synchronize (self->stream);
    gst_buffer_unmap (surfaces, &surfaces_map);
  }
  if (!ok) {
    gst_clear_buffer (&surfaces);
    if (n == (guint) rig.views)
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Rig matching failed"),
          ("%s", cvcore_last_error ()));
    unref_frames (frames);
    return GST_FLOW_ERROR;
  }
  for (guint v = 1; v < GST_CUDA_VISION_MAX_VIEWS; v++)
    gst_clear_buffer (&frames[v]);
  return finish_frame (self, frames[0], TRUE, GST_CUDA_VISION_CORRELATION_RIG,
      &s->correlator, surfaces);
}

/* Under the output lock, every other view gone: view 0's frames pass
 * unmatched (an error if there never was another view). */
static GstFlowReturn
output_alone (GstCudaVisionPhaseCorr * self, const MatchSettings * s)
{
  const gboolean rig = s->mode == GST_CUDA_VISION_PHASE_CORR_RIG;
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean others_seen;
  GstBuffer *frame;

  GST_OBJECT_LOCK (self);
  others_seen = self->others_seen;
  GST_OBJECT_UNLOCK (self);
  if (!others_seen) {
    GST_ELEMENT_ERROR (self, CORE, PAD, ("mode=%s needs %s",
            rig ? "rig" : "stereo", rig ? "the other views on sink_%u pads" :
            "the right view on a sink_right pad"), (NULL));
    return GST_FLOW_ERROR;
  }
  while (ret == GST_FLOW_OK
      && (frame = gst_cuda_vision_views_pop (&self->views, 0))) {
    if (!self->others_missing)
      GST_ELEMENT_WARNING (self, STREAM, FAILED, ("%s", rig ?
              "The other views have gone: frames pass unmatched until new "
              "sink_%u pads come" : "The right view has gone: left frames "
              "pass unmatched until a new sink_right pad comes"), (NULL));
    self->others_missing = TRUE;
    ret = finish_frame (self, frame, FALSE, rig ?
        GST_CUDA_VISION_CORRELATION_RIG : GST_CUDA_VISION_CORRELATION_STEREO,
        &s->correlator, NULL);
  }
  return ret;
}

static gboolean
others_present (GstCudaVisionPhaseCorr * self)
{
  for (guint v = 1; v < GST_CUDA_VISION_MAX_VIEWS; v++)
    if (gst_cuda_vision_views_is_present (&self->views, v))
      return TRUE;
  return FALSE;
}

/* Stereo and rig, under the output lock: every set of views that the
 * frame just queued completes goes out. */
GstFlowReturn
gst_cuda_vision_phase_corr_output_views (GstCudaVisionPhaseCorr * self,
    const MatchSettings * s)
{
  static const gchar *const stereo_names[GST_CUDA_VISION_MAX_VIEWS] = {
    "left", "right"
  };
  static const gchar *const rig_names[GST_CUDA_VISION_MAX_VIEWS] = {
    "sink", "sink_1", "sink_2", "sink_3", "sink_4", "sink_5", "sink_6",
    "sink_7"
  };
  const gboolean rig = s->mode == GST_CUDA_VISION_PHASE_CORR_RIG;
  GstFlowReturn ret = GST_FLOW_OK;
  GstCudaVisionViewsResult result;
  GstBuffer *frames[GST_CUDA_VISION_MAX_VIEWS];

  while (ret == GST_FLOW_OK) {
    if (!others_present (self))
      return output_alone (self, s);
    result = gst_cuda_vision_views_take (&self->views, GST_ELEMENT (self),
        rig ? rig_names : stereo_names, &self->info[0], frames);
    if (result == GST_CUDA_VISION_VIEWS_WAIT)
      break;
    if (result == GST_CUDA_VISION_VIEWS_ENDED)
      return GST_FLOW_EOS;
    self->others_missing = FALSE;
    if (rig)
      ret = output_rig (self, frames, s);
    else
      ret = output_pair (self, frames[0], frames[1], s);
  }
  return ret;
}
