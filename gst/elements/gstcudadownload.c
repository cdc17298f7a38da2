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

/**
 * SECTION:element-cudadownload
 * @title: cudadownload
 *
 * Moves raw video from device memory, cudavision's own
 * (`memory:CUDAVisionMemory`) or GStreamer's (`memory:CUDAMemory`), back to
 * system memory, or on the device into the other device memory.
 *
 * Output buffers come from a pool of page-locked memory, so the copy runs
 * at the copy engine's full speed; the element waits for it before pushing,
 * the one place where a cudavision pipeline synchronises with the host.
 * When downstream offers a pool of its own kind (a display sink's shared
 * memory, say), frames are downloaded into its buffers instead: those that
 * come a second time are page-locked then
 * (#GstCudaVisionDownload:pin-recycled), and the others are copied out of
 * page-locked staging by several threads
 * (#GstCudaVisionDownload:copy-threads), each piece as soon as its DMA is
 * done.
 * Upstream filters are offered device pools. When downstream accepts device
 * memory the element passes frames through.
 *
 * Also registered as `cudavisiondownload`, which names this element even
 * when another plugin owns the name `cudadownload`.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 ! cudaupload ! cudadownload ! pngenc ! filesink location=frame.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudadownload.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisionframe.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionhostmemory.h"
#include "gstcudavisionhosttransfer.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_download_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_download_debug

struct _GstCudaVisionDownload
{
  GstCudaVisionBaseTransform parent;

  GstCudaVisionHostTransfer host;
  /* page-locked, for output buffers the copy engine cannot reach */
  void *staging;
  gsize staging_size;
};

enum
{
  PROP_0,
  PROP_HOST_TRANSFER,
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionDownload, gst_cuda_vision_download,
    GST_TYPE_CUDA_VISION_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_download_debug,
        "cudavisiondownload", 0, "cudavision download to system memory"));

static GstCaps *
gst_cuda_vision_download_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  /* System memory first: with a downstream that takes anything, such as
   * fakesink, the element downloads rather than passing through. */
  return gst_cuda_vision_transfer_transform_caps (trans, direction, caps,
      filter, GST_PAD_SRC);
}

/* A pool of downstream's own kind holds frames where downstream needs them
 * (shared or display memory, say): downloading into it saves downstream a
 * copy. A plain pool holds nothing that page-locked memory would not.
 * TRUE when the query keeps downstream's pool, configured. */
static gboolean
downstream_keeps_own_pool (GstBaseTransform * trans, GstQuery * query,
    GstCaps * caps, const GstVideoInfo * info)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size, min, max;
  GType type;

  if (gst_query_get_n_allocation_pools (query) == 0)
    return FALSE;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool == NULL)
    return FALSE;
  type = G_OBJECT_TYPE (pool);
  if (type == GST_TYPE_BUFFER_POOL || type == GST_TYPE_VIDEO_BUFFER_POOL) {
    gst_object_unref (pool);
    return FALSE;
  }
  size = MAX (size, info->size);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_INFO_OBJECT (trans, "%" GST_PTR_FORMAT " refused the configuration;"
        " downloading into page-locked memory", pool);
    gst_object_unref (pool);
    return FALSE;
  }
  GST_INFO_OBJECT (trans, "downloading into downstream's %" GST_PTR_FORMAT,
      pool);
  gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_cuda_vision_download_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaVisionDevice *device =
      gst_cuda_vision_base_transform_get_device (BASE (trans));
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  GstVideoInfo info;
  guint min = 0;
  gboolean video_meta;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || device == NULL
      || !gst_cuda_vision_video_info_from_caps (&info, caps))
    return FALSE;
  /* into the other device memory: copied on the device */
  if (!gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return gst_cuda_vision_decide_device_pool (device,
        gst_cuda_vision_base_transform_get_stream (BASE (trans)), query);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, NULL);
  /* no GstVideoMeta describes a Bayer mosaic (see cudaupload) */
  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL) && gst_cuda_vision_caps_bayer_pattern (caps) == 0;
  if (video_meta && downstream_keeps_own_pool (trans, query, caps, &info))
    return TRUE;

  pool = gst_cuda_vision_host_pool_new (device, caps, &info, min, video_meta);
  if (pool == NULL)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, info.size, min, 0);
  else
    gst_query_add_allocation_pool (query, pool, info.size, min, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Into page-locked memory, ours or registered, the DMA writes the frame
 * itself, and *@wait_follows says that the caller must wait for it (after
 * its own driver calls, which then cost the frame nothing); into other
 * memory it goes through staging, waited for here. The frame leaves for
 * the host: this is where a cudavision pipeline waits. */
static cvcore_status
download_to_host (GstCudaVisionDownload * self, cvcore_stream * stream,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame,
    gboolean * wait_follows)
{
  GstCudaVisionDevice *device =
      gst_cuda_vision_base_transform_get_device (BASE (self));
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  gsize size = in_frame->map[0].size;
  cvcore_status status;

  if (gst_cuda_vision_host_frame_dma_ready (device, out_frame,
          gst_cuda_vision_host_transfer_pins_recycled (G_OBJECT (self),
              &self->host))) {
    status = gst_cuda_vision_copy_frame_async (stream, out_frame, in_frame,
        CVCORE_COPY_DEVICE_TO_HOST);
    *wait_follows = status == CVCORE_OK;
    return status;
  }
  if (self->staging_size < size) {
    cvcore_host_free (core, self->staging);
    self->staging = NULL;
    self->staging_size = 0;
    status = cvcore_host_alloc (core, size, &self->staging);
    if (status != CVCORE_OK)
      return status;
    self->staging_size = size;
  }
  return gst_cuda_vision_row_copier_download
      (gst_cuda_vision_host_transfer_copier (G_OBJECT (self), &self->host,
          core), stream, in_frame->map[0].data, &in_frame->info,
      self->staging, out_frame);
}

static gboolean
gst_cuda_vision_download_stop (GstBaseTransform * trans)
{
  GstCudaVisionDownload *self = GST_CUDA_VISION_DOWNLOAD (trans);
  GstCudaVisionDevice *device =
      gst_cuda_vision_base_transform_get_device (BASE (self));

  gst_cuda_vision_host_transfer_clear (&self->host);
  if (device && self->staging)
    cvcore_host_free (gst_cuda_vision_device_get_core (device), self->staging);
  self->staging = NULL;
  self->staging_size = 0;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_download_parent_class)->stop
      (trans);
}

static void
gst_cuda_vision_download_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionDownload *self = GST_CUDA_VISION_DOWNLOAD (object);

  if (!gst_cuda_vision_host_transfer_set_property (object, &self->host,
          PROP_HOST_TRANSFER, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cuda_vision_download_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionDownload *self = GST_CUDA_VISION_DOWNLOAD (object);

  if (!gst_cuda_vision_host_transfer_get_property (object, &self->host,
          PROP_HOST_TRANSFER, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static GstFlowReturn
gst_cuda_vision_download_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaVisionDownload *self = GST_CUDA_VISION_DOWNLOAD (trans);
  cvcore_stream *stream = gst_cuda_vision_base_transform_get_stream (BASE
      (self));
  GstCudaVisionDevice *device =
      gst_cuda_vision_base_transform_get_device (BASE (self));
  GstMemory *in_mem = gst_buffer_peek_memory (inbuf, 0);
  GstMemory *out_mem = gst_buffer_peek_memory (outbuf, 0);
  gboolean to_device = gst_cuda_vision_is_device_memory (out_mem);
  const gchar *refusal = gst_buffer_n_memory (inbuf) != 1 ?
      "it is not one memory block" :
      gst_cuda_vision_device_memory_refusal (in_mem, device);
  GstVideoFrame in_frame, out_frame;
  gchar *map_refusal = NULL;
  cvcore_status status;
  gboolean ordered, ended, wait_follows = FALSE;

  if (refusal == NULL && to_device)
    refusal = gst_cuda_vision_device_memory_refusal (out_mem, device);
  if (refusal) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot download the frame: %s", refusal),
        ("buffer %" GST_PTR_FORMAT, inbuf));
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_vision_video_frame_map (&in_frame,
          gst_cuda_vision_base_transform_get_in_info (BASE (self)), inbuf,
          GST_MAP_READ | GST_MAP_CUDA_VISION, &map_refusal)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot map a device frame: %s",
            map_refusal), ("buffer %" GST_PTR_FORMAT, inbuf));
    g_free (map_refusal);
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_vision_video_frame_map (&out_frame,
          gst_cuda_vision_base_transform_get_out_info (BASE (self)), outbuf,
          GST_MAP_WRITE | (to_device ? GST_MAP_CUDA_VISION : 0),
          &map_refusal)) {
    gst_video_frame_unmap (&in_frame);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot map the output "
            "frame: %s", map_refusal), ("buffer %" GST_PTR_FORMAT, outbuf));
    g_free (map_refusal);
    return GST_FLOW_ERROR;
  }

  ordered = gst_cuda_vision_device_memory_begin_access (in_mem, stream)
      && (!to_device
      || gst_cuda_vision_device_memory_begin_access (out_mem, stream));
  if (!ordered)
    status = CVCORE_ERROR_RUNTIME;
  else if (to_device)
    status = gst_cuda_vision_copy_frame_async (stream, &out_frame, &in_frame,
        CVCORE_COPY_DEVICE_TO_DEVICE);
  else
    status = download_to_host (self, stream, &in_frame, &out_frame,
        &wait_follows);
  if (status == CVCORE_OK && wait_follows)
    status = cvcore_stream_synchronize (stream);
  /* After the host's wait the read is known complete: no mark to queue
   * for the input's next writer, nor a wait for it to queue. */
  if (status == CVCORE_OK && wait_follows)
    ended = gst_cuda_vision_base_transform_end_access_waited (BASE (self),
        in_mem);
  else
    ended = gst_cuda_vision_base_transform_end_access (BASE (self), in_mem)
        && (!to_device
        || gst_cuda_vision_base_transform_end_access (BASE (self), out_mem));
  if (!ended)
    status = CVCORE_ERROR_RUNTIME;

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (status != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Download failed");
  return GST_FLOW_OK;
}

static void
gst_cuda_vision_download_class_init (GstCudaVisionDownloadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_vision_download_set_property;
  gobject_class->get_property = gst_cuda_vision_download_get_property;
  gst_cuda_vision_host_transfer_install_properties (gobject_class,
      PROP_HOST_TRANSFER);

  gst_element_class_add_pad_template (element_class,
      gst_cuda_vision_transfer_pad_template ("sink", GST_PAD_SINK, FALSE));
  gst_element_class_add_pad_template (element_class,
      gst_cuda_vision_transfer_pad_template ("src", GST_PAD_SRC, TRUE));
  gst_element_class_set_static_metadata (element_class,
      "CUDA vision download", "Filter/Video/Hardware",
      "Downloads raw video from device memory to system memory",
      "gst-cuda-vision developers");

  trans_class->passthrough_on_same_caps = TRUE;
  trans_class->transform_caps = gst_cuda_vision_download_transform_caps;
  trans_class->decide_allocation = gst_cuda_vision_download_decide_allocation;
  trans_class->transform = gst_cuda_vision_download_transform;
  trans_class->stop = gst_cuda_vision_download_stop;
}

static void
gst_cuda_vision_download_init (GstCudaVisionDownload * self)
{
  gst_cuda_vision_host_transfer_init (&self->host);
}
