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

/* GstCudaVisionBaseTransform: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionbasetransform.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioncudastream.h"
#include "gstcudavisionformats.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionpeercopy.h"
#include "gstcudavisionplugin.h"
#include "gstcudavisionutils.h"
#include "gstcudavisionworktimer.h"

#include <time.h>

#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_base_transform_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_base_transform_debug

#define DEFAULT_DEVICE_ID 0

enum
{
  PROP_0,
  PROP_DEVICE_ID,
};

typedef struct
{
  gint device_id;               /* guarded by the object lock */
  GstCudaVisionDevice *device;  /* guarded by the object lock */
  cvcore_stream *stream;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gint warned_cuda_memory;
  /* the output is CUDAMemory that only a host wait orders */
  gboolean out_needs_host_wait;
  /* set while a frame is made whose device work the host waits for
   * before its buffers leave */
  gboolean finish_follows;
  /* frames from another device are copied here (streaming thread; made
   * on the first, freed at stop) */
  GstCudaVisionPeerCopy *peer_copy;
  /* whether the source pad's peer is ours (streaming thread) */
  GstCudaVisionPeerCache src_peer;
  /* what the streaming thread spent on frames, measured where the debug
   * level asks for it (set at start) and logged at stop */
  gboolean measuring;
  guint64 frames, thread_cpu_ns, wall_ns;
  /* the device time of each frame's work, where measuring */
  GstCudaVisionWorkTimer *work_timer;
} GstCudaVisionBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaVisionBaseTransform,
    gst_cuda_vision_base_transform, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstCudaVisionBaseTransform);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_base_transform_debug,
        "cudavisionbasetransform", 0, "cudavision base transform"));

#define PRIV(self) ((GstCudaVisionBaseTransformPrivate *) \
    gst_cuda_vision_base_transform_get_instance_private (self))

static void
gst_cuda_vision_base_transform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      PRIV (self)->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_vision_base_transform_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      g_value_set_int (value, PRIV (self)->device_id);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_vision_base_transform_set_context (GstElement * element,
    GstContext * context)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (element);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);

  GST_OBJECT_LOCK (self);
  gst_cuda_vision_handle_set_context (element, context, priv->device_id,
      &priv->device);
  GST_OBJECT_UNLOCK (self);

  GST_ELEMENT_CLASS (gst_cuda_vision_base_transform_parent_class)->set_context
      (element, context);
}

/* A device opened to answer a neighbour's query, for an element that then
 * never started. */
static void
gst_cuda_vision_base_transform_dispose (GObject * object)
{
  gst_clear_object (&PRIV (GST_CUDA_VISION_BASE_TRANSFORM (object))->device);
  G_OBJECT_CLASS (gst_cuda_vision_base_transform_parent_class)->dispose
      (object);
}

static gboolean
gst_cuda_vision_base_transform_start (GstBaseTransform * trans)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  priv->measuring = gst_debug_category_get_threshold (GST_CAT_DEFAULT)
      >= GST_LEVEL_INFO;
  /* The device arrives through set_context, which takes the object lock. */
  if (!gst_cuda_vision_open_stream (GST_ELEMENT_CAST (self), device_id,
          &priv->device, &priv->stream))
    return FALSE;
  if (priv->measuring)
    priv->work_timer = gst_cuda_vision_work_timer_new
        (gst_cuda_vision_device_get_core (priv->device));
  return TRUE;
}

static gboolean
gst_cuda_vision_base_transform_stop (GstBaseTransform * trans)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);

  if (priv->frames > 0)
    GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " frames, per frame %.1f us "
        "of the streaming thread's CPU in %.1f us", priv->frames,
        priv->thread_cpu_ns / 1e3 / priv->frames,
        priv->wall_ns / 1e3 / priv->frames);
  if (priv->work_timer) {
    guint timed;
    gdouble median_ms, p99_ms;

    if (gst_cuda_vision_work_timer_summarise (priv->work_timer, &timed,
            &median_ms, &p99_ms))
      GST_INFO_OBJECT (self, "device time of %u frames: median %.4f ms, "
          "p99 %.4f ms", timed, median_ms, p99_ms);
    g_clear_pointer (&priv->work_timer, gst_cuda_vision_work_timer_free);
  }
  priv->frames = priv->thread_cpu_ns = priv->wall_ns = 0;
  gst_cuda_vision_peer_cache_clear (&priv->src_peer);
  g_clear_pointer (&priv->peer_copy, gst_cuda_vision_peer_copy_free);
  gst_cuda_vision_close_stream (GST_ELEMENT_CAST (self), &priv->device,
      &priv->stream);
  return TRUE;
}

static guint64
thread_cpu_ns (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * G_GUINT64_CONSTANT (1000000000) + now.tv_nsec;
}

/* A neighbour that takes memory:CUDAMemory alone cannot negotiate with
 * the CPU backend: say why once, as negotiation alone would not. */
static void
explain_cuda_memory_refusal (GstCudaVisionBaseTransform * self, GstPad * pad)
{
  GstCaps *peer;

  if (gst_cuda_vision_caps_backend () != CVCORE_BACKEND_CPU
      || g_atomic_int_get (&PRIV (self)->warned_cuda_memory))
    return;
  peer = gst_pad_peer_query_caps (pad, NULL);
  if (gst_cuda_vision_caps_only_cuda_memory (peer)
      && g_atomic_int_compare_and_exchange (&PRIV (self)->warned_cuda_memory,
          0, 1))
    GST_ELEMENT_WARNING (self, CORE, NEGOTIATION,
        ("The cpu backend carries no memory:CUDAMemory"),
        ("GST_CUDAVISION_BACKEND=cpu keeps frames in host memory, which "
            "only memory:CUDAVisionMemory stands for; %" GST_PTR_FORMAT
            " wants memory:CUDAMemory: use the cuda backend or move frames "
            "through system memory", pad));
  gst_caps_unref (peer);
}

static gboolean
gst_cuda_vision_base_transform_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    explain_cuda_memory_refusal (self, direction == GST_PAD_SINK ?
        GST_BASE_TRANSFORM_SRC_PAD (trans) :
        GST_BASE_TRANSFORM_SINK_PAD (trans));
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    gint device_id;

    GST_OBJECT_LOCK (self);
    device_id = PRIV (self)->device_id;
    GST_OBJECT_UNLOCK (self);
    if (gst_cuda_vision_answer_context_query (GST_ELEMENT_CAST (self), query,
            direction, device_id, &PRIV (self)->device))
      return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_base_transform_parent_class)
      ->query (trans, direction, query);
}

static gboolean
gst_cuda_vision_base_transform_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformClass *klass =
      GST_CUDA_VISION_BASE_TRANSFORM_GET_CLASS (self);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);
  GstVideoInfo in_info, out_info;

  if (!gst_cuda_vision_video_info_from_caps (&in_info, incaps)) {
    gst_cuda_vision_post_caps_refusal (GST_ELEMENT (self), incaps);
    return FALSE;
  }
  if (!gst_cuda_vision_video_info_from_caps (&out_info, outcaps)) {
    gst_cuda_vision_post_caps_refusal (GST_ELEMENT (self), outcaps);
    return FALSE;
  }
  if (klass->set_info && !klass->set_info (self, incaps, &in_info, outcaps,
          &out_info))
    return FALSE;
  priv->in_info = in_info;
  priv->out_info = out_info;
  priv->out_needs_host_wait =
      gst_cuda_vision_cuda_caps_need_host_wait (outcaps);
  return TRUE;
}

/* Device work on CUDAMemory must be done before the frame leaves for an
 * element of another plugin, which knows nothing of our streams, and
 * before an input frame goes back to a pool of another plugin, whose owner
 * writes into it next without waiting for us; unless the memory names its
 * stream (1.24 and newer), which then takes the work over. Between our own
 * elements the events on the memories order everything on the device. */
static gboolean
input_must_finish (GstBuffer * input)
{
  return gst_cuda_vision_cuda_buffer_needs_host_wait (input)
      && !gst_cuda_vision_pool_is_ours (input->pool);
}

static gboolean
src_peer_is_ours (GstCudaVisionBaseTransform * self)
{
  return gst_cuda_vision_peer_cache_is_ours (&PRIV (self)->src_peer,
      GST_BASE_TRANSFORM_SRC_PAD (self));
}

static gboolean
output_must_finish (GstCudaVisionBaseTransform * self, GstBuffer * output)
{
  return gst_cuda_vision_cuda_buffer_needs_host_wait (output)
      && !src_peer_is_ours (self);
}

/* Known before the frame is made, from the input and the output caps. */
static gboolean
finish_follows (GstCudaVisionBaseTransform * self, GstBuffer * input)
{
  if (input == NULL || PRIV (self)->stream == NULL
      || gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    return FALSE;
  return input_must_finish (input) || (PRIV (self)->out_needs_host_wait
      && !src_peer_is_ours (self));
}

/* The base class checks the template only, which names CUDAMemory even
 * where the backend cannot carry it. */
static gboolean
gst_cuda_vision_base_transform_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  GstCaps *carried = gst_cuda_vision_caps_for_backend (gst_caps_ref (caps),
      gst_cuda_vision_caps_backend ());
  gboolean ok = !gst_caps_is_empty (carried);

  gst_caps_unref (carried);
  return ok && GST_BASE_TRANSFORM_CLASS
      (gst_cuda_vision_base_transform_parent_class)->accept_caps (trans,
      direction, caps);
}

static GstFlowReturn
frame_work_failed (GstCudaVisionBaseTransform * self, GstFlowReturn ret,
    GstBuffer ** outbuf)
{
  gst_clear_buffer (outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  return gst_cuda_vision_base_transform_core_error (self,
      "Device work on CUDA memory failed");
}

static GstFlowReturn
gst_cuda_vision_base_transform_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstBuffer *input = trans->queued_buf ? gst_buffer_ref (trans->queued_buf) :
      NULL;
  const gboolean measuring = PRIV (self)->measuring;
  guint64 cpu_start = measuring ? thread_cpu_ns () : 0;
  gint64 wall_start = measuring ? g_get_monotonic_time () : 0;
  GstFlowReturn ret;

  PRIV (self)->finish_follows = finish_follows (self, input);
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_base_transform_parent_class)
      ->generate_output (trans, outbuf);
  /* The output can also be CUDAMemory from a pool downstream, which the
   * caps do not tell: its marks were recorded, and are passed once the
   * host has waited. A failed frame is finished too: its uses went
   * unrecorded. */
  if (PRIV (self)->finish_follows) {
    if (cvcore_stream_finish (PRIV (self)->stream) != CVCORE_OK)
      ret = frame_work_failed (self, ret, outbuf);
  } else if (ret == GST_FLOW_OK && *outbuf && *outbuf != input
      && PRIV (self)->stream && output_must_finish (self, *outbuf)) {
    if (cvcore_stream_finish (PRIV (self)->stream) != CVCORE_OK) {
      ret = frame_work_failed (self, ret, outbuf);
    } else {
      gst_cuda_vision_cuda_buffer_use_finished (*outbuf, PRIV (self)->stream);
      if (input)
        gst_cuda_vision_cuda_buffer_use_finished (input, PRIV (self)->stream);
    }
  }
  PRIV (self)->finish_follows = FALSE;
  if (input && measuring) {
    PRIV (self)->frames++;
    PRIV (self)->thread_cpu_ns += thread_cpu_ns () - cpu_start;
    PRIV (self)->wall_ns += (g_get_monotonic_time () - wall_start) * 1000;
  }
  gst_clear_buffer (&input);
  return ret;
}

cvcore_backend
gst_cuda_vision_caps_backend (void)
{
  cvcore_backend backend = CVCORE_BACKEND_CUDA;

  /* a backend name that is wrong fails at start, with its own error */
  gst_cuda_vision_backend_from_env (&backend, NULL);
  return backend;
}

GstCaps *
gst_cuda_vision_base_transform_device_caps (GstCudaVisionBaseTransform *
    self, GstCaps * caps)
{
  return gst_cuda_vision_caps_both_device_features (caps,
      gst_cuda_vision_caps_backend ());
}

/* A frame from another device of the backend is copied to ours first, for
 * every element (and whether or not it works in place). */
static GstFlowReturn
gst_cuda_vision_base_transform_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCudaVisionBaseTransformPrivate *priv = PRIV (self);
  GstCudaVisionDevice *source = priv->device ?
      gst_cuda_vision_peer_copy_source (input, priv->device) : NULL;
  GError *error = NULL;

  if (source) {
    if (priv->peer_copy == NULL)
      priv->peer_copy = gst_cuda_vision_peer_copy_new ();
    input = gst_cuda_vision_peer_copy_buffer (priv->peer_copy, priv->device,
        source, &priv->in_info, input, &error);
    gst_object_unref (source);
    if (input == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot copy a frame from "
              "another device to device %d",
              gst_cuda_vision_device_get_id (priv->device)), ("%s",
              error->message));
      g_error_free (error);
      return GST_FLOW_ERROR;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_base_transform_parent_class)
      ->submit_input_buffer (trans, is_discont, input);
}

/* Upstream gets a pool of device memory on the element's device (but for
 * passthrough, where the query goes on downstream). */
static gboolean
gst_cuda_vision_base_transform_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaVisionBaseTransformPrivate *priv =
      PRIV (GST_CUDA_VISION_BASE_TRANSFORM (trans));

  if (decide_query == NULL)
    return GST_BASE_TRANSFORM_CLASS
        (gst_cuda_vision_base_transform_parent_class)->propose_allocation
        (trans, decide_query, query);
  return priv->device != NULL
      && gst_cuda_vision_propose_device_pool (priv->device, priv->stream,
      query);
}

/* Output in downstream's device pool where it suits, else in our own. */
static gboolean
gst_cuda_vision_base_transform_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaVisionBaseTransformPrivate *priv =
      PRIV (GST_CUDA_VISION_BASE_TRANSFORM (trans));

  return priv->device != NULL
      && gst_cuda_vision_decide_device_pool (priv->device, priv->stream, query);
}

/* As GstVideoFilter does: metas that say only that they describe video
 * (regions, captions and the like) stay true of the output, which has the
 * input's size; the default keeps only metas without tags. */
#ifdef HAVE_GST_ANALYTICS
/* GStreamer 1.26's tensor meta cannot copy itself: its tensors (the
 * content analysed, as cudaphasecorr's rig surfaces) are copied here. */
static void
copy_tensor_meta (GstBuffer * outbuf, GstMeta * meta)
{
  const GstTensorMeta *from = (const GstTensorMeta *) meta;
  GstTensor **tensors = g_new (GstTensor *, MAX (from->num_tensors, 1));

  for (gsize i = 0; i < from->num_tensors; i++)
    tensors[i] = gst_tensor_copy (from->tensors[i]);
  gst_tensor_meta_set (gst_buffer_add_tensor_meta (outbuf),
      from->num_tensors, tensors);
}
#endif

static gboolean
gst_cuda_vision_base_transform_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

#ifdef HAVE_GST_ANALYTICS
  if (meta->info->api == GST_TENSOR_META_API_TYPE
      && meta->info->transform_func == NULL) {
    copy_tensor_meta (outbuf, meta);
    /* done: nothing more to copy */
    return FALSE;
  }
#endif

  if (tags != NULL && g_strv_length ((gchar **) tags) == 1
      && gst_meta_api_type_has_tag (meta->info->api,
          g_quark_from_static_string (GST_META_TAG_VIDEO_STR)))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS
      (gst_cuda_vision_base_transform_parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

static void
gst_cuda_vision_base_transform_class_init (GstCudaVisionBaseTransformClass *
    klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_vision_base_transform_set_property;
  gobject_class->get_property = gst_cuda_vision_base_transform_get_property;
  gobject_class->dispose = gst_cuda_vision_base_transform_dispose;

  /**
   * GstCudaVisionBaseTransform:device-id:
   *
   * Index of the device to run on, in the backend selected by
   * GST_CUDAVISION_BACKEND. Elements of a pipeline with the same device-id
   * share one device through GstContext. With -1 the element takes the
   * device of its neighbours: an element of ours with a device-id, or one
   * of GStreamer's CUDA elements such as an NVDEC decoder, found through
   * context sharing (through other automatic elements too); device 0 when
   * none has one. Frames that arrive from another device are copied to the
   * element's device.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      gst_cuda_vision_device_id_param_spec (DEFAULT_DEVICE_ID));

  element_class->set_context = gst_cuda_vision_base_transform_set_context;

  trans_class->start = gst_cuda_vision_base_transform_start;
  trans_class->stop = gst_cuda_vision_base_transform_stop;
  trans_class->query = gst_cuda_vision_base_transform_query;
  trans_class->set_caps = gst_cuda_vision_base_transform_set_caps;
  trans_class->generate_output = gst_cuda_vision_base_transform_generate_output;
  trans_class->accept_caps = gst_cuda_vision_base_transform_accept_caps;
  trans_class->propose_allocation =
      gst_cuda_vision_base_transform_propose_allocation;
  trans_class->decide_allocation =
      gst_cuda_vision_base_transform_decide_allocation;
  trans_class->transform_meta = gst_cuda_vision_base_transform_transform_meta;
  trans_class->submit_input_buffer =
      gst_cuda_vision_base_transform_submit_input_buffer;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VISION_BASE_TRANSFORM, 0);
}

static void
gst_cuda_vision_base_transform_init (GstCudaVisionBaseTransform * self)
{
  PRIV (self)->device_id = DEFAULT_DEVICE_ID;
}

GstCudaVisionDevice *
gst_cuda_vision_base_transform_get_device (GstCudaVisionBaseTransform * self)
{
  return PRIV (self)->device;
}

cvcore_stream *
gst_cuda_vision_base_transform_get_stream (GstCudaVisionBaseTransform * self)
{
  return PRIV (self)->stream;
}

gboolean
gst_cuda_vision_base_transform_end_access (GstCudaVisionBaseTransform * self,
    GstMemory * mem)
{
  /* no one else gets CUDAMemory before the host has waited for this
   * frame's work: a mark would only cost the driver calls */
  if (PRIV (self)->finish_follows && !gst_is_cuda_vision_memory (mem))
    return TRUE;
  return gst_cuda_vision_device_memory_end_access (mem, PRIV (self)->device,
      PRIV (self)->stream);
}

gboolean
gst_cuda_vision_base_transform_end_access_waited (GstCudaVisionBaseTransform *
    self, GstMemory * mem)
{
  /* CUDAMemory keeps end_access's own rule */
  if (!gst_is_cuda_vision_memory (mem))
    return gst_cuda_vision_base_transform_end_access (self, mem);
  return gst_cuda_vision_device_memory_end_access_waited (mem,
      PRIV (self)->device, PRIV (self)->stream);
}

void
gst_cuda_vision_base_transform_work_begins (GstCudaVisionBaseTransform * self)
{
  if (PRIV (self)->work_timer)
    gst_cuda_vision_work_timer_begin (PRIV (self)->work_timer,
        PRIV (self)->stream);
}

void
gst_cuda_vision_base_transform_work_ends (GstCudaVisionBaseTransform * self)
{
  if (PRIV (self)->work_timer)
    gst_cuda_vision_work_timer_end (PRIV (self)->work_timer,
        PRIV (self)->stream);
}

void
gst_cuda_vision_base_transform_finish_work (GstCudaVisionBaseTransform * self)
{
  if (PRIV (self)->stream)
    cvcore_stream_synchronize (PRIV (self)->stream);
}

const GstVideoInfo *
gst_cuda_vision_base_transform_get_in_info (GstCudaVisionBaseTransform * self)
{
  return &PRIV (self)->in_info;
}

const GstVideoInfo *
gst_cuda_vision_base_transform_get_out_info (GstCudaVisionBaseTransform * self)
{
  return &PRIV (self)->out_info;
}

GstFlowReturn
gst_cuda_vision_base_transform_core_error (GstCudaVisionBaseTransform * self,
    const gchar * what)
{
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s", what), ("%s",
          cvcore_last_error ()));
  return GST_FLOW_ERROR;
}
