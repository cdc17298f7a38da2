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
 * SECTION:element-cudaupload
 * @title: cudaupload
 *
 * Moves raw video from system memory into device memory, where the other
 * cudavision elements work on it without host round trips: cudavision's
 * own (`memory:CUDAVisionMemory`) or, built with gst-plugins-bad's CUDA
 * library, GStreamer's (`memory:CUDAMemory`) in the pipeline's shared CUDA
 * context. Frames in one device memory are copied on the device into the
 * other when downstream wants that; in the memory downstream wants, they
 * pass through.
 *
 * Upstream is offered a pool of page-locked buffers in the ALLOCATION
 * query: a producer that takes it writes frames straight into memory the
 * copy engine reads, and the upload is an asynchronous DMA. Ordinary
 * memory that comes a second time (the buffers of a source's own pool) is
 * page-locked then, and its uploads are DMA from there on
 * (#GstCudaVisionUpload:pin-recycled). Other frames are copied through a
 * ring of page-locked staging buffers, by several threads
 * (#GstCudaVisionUpload:copy-threads), piece by piece, each piece's DMA
 * starting as soon as it is staged.
 * Nothing waits on the host: the copy is queued on the element's stream and
 * the next element's stream waits for it on the device, so the upload of
 * one frame overlaps the processing of the previous one (with a queue
 * between the elements, also across threads). A frame in GStreamer's CUDA
 * memory leaves for an element of another plugin only once its copy is
 * done.
 *
 * Also registered as `cudavisionupload`, which names this element even when
 * another plugin owns the name `cudaupload`.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! cudaupload ! cudadownload ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaupload.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisionframe.h"
#include "gstcudavisionformats.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionhostmemory.h"
#include "gstcudavisionhosttransfer.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_upload_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_upload_debug

/* Copies in flight at most; the oldest is waited for when all are busy. */
#define N_SLOTS 4

typedef struct
{
  cvcore_event *done;
  /* a copy was queued since the last wait for @done */
  gboolean in_flight;
  /* Page-locked input that the copy engine may still be reading. */
  GstBuffer *held;
  /* Page-locked copy of pageable input, in the output memory's layout. */
  void *staging;
  gsize staging_size;
} UploadSlot;

struct _GstCudaVisionUpload
{
  GstCudaVisionBaseTransform parent;

  UploadSlot slots[N_SLOTS];
  guint next_slot;
  GstCudaVisionHostTransfer host;
};

enum
{
  PROP_0,
  PROP_HOST_TRANSFER,
};

#define BASE(self) GST_CUDA_VISION_BASE_TRANSFORM (self)
#define CORE(self) gst_cuda_vision_device_get_core ( \
    gst_cuda_vision_base_transform_get_device (BASE (self)))

G_DEFINE_TYPE_WITH_CODE (GstCudaVisionUpload, gst_cuda_vision_upload,
    GST_TYPE_CUDA_VISION_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_upload_debug, "cudavisionupload",
        0, "cudavision upload to device memory"));

/* Waits for the slot's last copy and lets go of what it kept alive. */
static gboolean
release_slot (GstCudaVisionUpload * self, UploadSlot * slot)
{
  gboolean ok = TRUE;

  if (slot->in_flight && cvcore_event_synchronize (slot->done) != CVCORE_OK) {
    GST_ERROR_OBJECT (self, "waiting for an upload failed: %s",
        cvcore_last_error ());
    ok = FALSE;
  }
  slot->in_flight = FALSE;
  gst_clear_buffer (&slot->held);
  return ok;
}

static gboolean
release_all_slots (GstCudaVisionUpload * self)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < N_SLOTS; i++)
    ok &= release_slot (self, &self->slots[i]);
  return ok;
}

static void
free_staging (GstCudaVisionUpload * self)
{
  for (guint i = 0; i < N_SLOTS; i++) {
    if (self->slots[i].staging) {
      cvcore_host_free (CORE (self), self->slots[i].staging);
      self->slots[i].staging = NULL;
      self->slots[i].staging_size = 0;
    }
  }
}

static gboolean
gst_cuda_vision_upload_start (GstBaseTransform * trans)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (trans);

  if (!GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_upload_parent_class)->start
      (trans))
    return FALSE;
  for (guint i = 0; i < N_SLOTS; i++) {
    if (cvcore_event_new (CORE (self), false, &self->slots[i].done)
        != CVCORE_OK) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Cannot create upload events"), ("%s", cvcore_last_error ()));
      return FALSE;
    }
  }
  self->next_slot = 0;
  return TRUE;
}

static gboolean
gst_cuda_vision_upload_stop (GstBaseTransform * trans)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (trans);

  if (gst_cuda_vision_base_transform_get_device (BASE (self))) {
    release_all_slots (self);
    free_staging (self);
    gst_cuda_vision_host_transfer_clear (&self->host);
    for (guint i = 0; i < N_SLOTS; i++) {
      cvcore_event_free (self->slots[i].done);
      self->slots[i].done = NULL;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_upload_parent_class)->stop
      (trans);
}

static gboolean
gst_cuda_vision_upload_set_info (GstCudaVisionBaseTransform * base,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (base);

  /* Staging buffers hold the old size; drop them once nothing reads them. */
  release_all_slots (self);
  free_staging (self);
  return TRUE;
}

static gboolean
gst_cuda_vision_upload_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (trans);

  /* Hand held input back to upstream's pool at once on a flush. */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP
      && gst_cuda_vision_base_transform_get_device (BASE (self)))
    release_all_slots (self);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_upload_parent_class)
      ->sink_event (trans, event);
}

static GstCaps *
gst_cuda_vision_upload_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  /* Device memory on the sink stays in its own memory first, and passes
   * through; system memory is what the element is for. */
  return gst_cuda_vision_transfer_transform_caps (trans, direction, caps,
      filter, GST_PAD_SINK);
}

static gboolean
gst_cuda_vision_upload_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaVisionDevice *device =
      gst_cuda_vision_base_transform_get_device (BASE (trans));
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocator *allocator = NULL;
  GstCaps *caps = NULL;
  GstVideoInfo info;
  gboolean video_meta;

  gst_query_parse_allocation (query, &caps, NULL);
  /* passthrough, or device memory in another feature than the output's
   * (copied on the device): the base class's answer */
  if (decide_query == NULL || caps == NULL
      || !gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_vision_upload_parent_class)
        ->propose_allocation (trans, decide_query, query);
  if (device == NULL || !gst_cuda_vision_video_info_from_caps (&info, caps))
    return FALSE;

  /* A GstVideoMeta cannot describe a Bayer mosaic (its format would be
   * ENCODED, which no video frame maps): mosaics go without. */
  video_meta = gst_cuda_vision_caps_bayer_pattern (caps) == 0;
  pool = gst_cuda_vision_host_pool_new (device, caps, &info, 0, video_meta);
  if (pool == NULL)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
  if (allocator)
    gst_query_add_allocation_param (query, allocator, NULL);
  if (video_meta)
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_structure_free (config);
  gst_object_unref (pool);
  GST_DEBUG_OBJECT (trans, "proposed a page-locked pool upstream");
  return TRUE;
}

static cvcore_status
upload_frame (GstCudaVisionUpload * self, UploadSlot * slot, GstBuffer * inbuf,
    gboolean from_device, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  cvcore_stream *stream = gst_cuda_vision_base_transform_get_stream (BASE
      (self));
  gsize size = out_frame->map[0].memory->size;
  cvcore_status status;

  if (from_device) {
    /* one device memory into the other */
    status = gst_cuda_vision_copy_frame_async (stream, out_frame, in_frame,
        CVCORE_COPY_DEVICE_TO_DEVICE);
  } else if (gst_cuda_vision_host_frame_dma_ready
      (gst_cuda_vision_base_transform_get_device (BASE (self)), in_frame,
          gst_cuda_vision_host_transfer_pins_recycled (G_OBJECT (self),
              &self->host))) {
    GST_LOG_OBJECT (self, "copying %" GST_PTR_FORMAT " by DMA (%s)", inbuf,
        gst_cuda_vision_buffer_is_pinned (inbuf) ? "page-locked" :
        "registered");
    status = gst_cuda_vision_copy_frame_async (stream, out_frame, in_frame,
        CVCORE_COPY_HOST_TO_DEVICE);
    slot->held = gst_buffer_ref (inbuf);
  } else {
    GST_LOG_OBJECT (self, "staging %" GST_PTR_FORMAT, inbuf);
    if (slot->staging_size < size) {
      cvcore_host_free (CORE (self), slot->staging);
      slot->staging = NULL;
      slot->staging_size = 0;
      status = cvcore_host_alloc (CORE (self), size, &slot->staging);
      if (status != CVCORE_OK)
        return status;
      slot->staging_size = size;
    }
    status = gst_cuda_vision_row_copier_upload
        (gst_cuda_vision_host_transfer_copier (G_OBJECT (self), &self->host,
            CORE (self)), stream, in_frame, slot->staging,
        out_frame->map[0].data, &out_frame->info);
  }
  if (status == CVCORE_OK)
    status = cvcore_event_record (slot->done, stream);
  slot->in_flight = status == CVCORE_OK;
  return status;
}

/* Maps the input as the caps lay it out; a buffer without a video meta
 * whose size is that of rows without padding (a Bayer mosaic from an
 * application, say) is mapped so. An error says the sizes expected. */
static gboolean
map_input (GstCudaVisionUpload * self, GstBuffer * inbuf,
    gboolean from_device, GstVideoFrame * frame)
{
  const GstVideoInfo *info =
      gst_cuda_vision_base_transform_get_in_info (BASE (self));
  const GstMapFlags flags = GST_MAP_READ |
      (from_device ? GST_MAP_CUDA_VISION : 0);
  const gsize size = gst_buffer_get_size (inbuf);
  GstVideoInfo packed = *info;
  gsize packed_size = 0;
  gchar *refusal = NULL;

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    packed.stride[p] = (gint) gst_cuda_vision_plane_row_bytes (info, p);
    packed.offset[p] = packed_size;
    packed_size += (gsize) packed.stride[p] *
        gst_cuda_vision_plane_rows (info, p);
  }
  packed.size = packed_size;
  if (gst_buffer_get_video_meta (inbuf) == NULL && size < info->size
      && size == packed_size && !from_device)
    info = &packed;
  if (gst_cuda_vision_video_frame_map (frame, info, inbuf, flags, &refusal))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot map the input frame: %s",
          refusal), ("rows unpadded, the caps need %" G_GSIZE_FORMAT " bytes",
          packed_size));
  g_free (refusal);
  return FALSE;
}

static gboolean
check_memory (GstCudaVisionUpload * self, GstMemory * mem, const gchar * what)
{
  const gchar *refusal = gst_cuda_vision_device_memory_refusal (mem,
      gst_cuda_vision_base_transform_get_device (BASE (self)));

  if (refusal == NULL)
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot upload %s: %s", what,
          refusal), (NULL));
  return FALSE;
}

static GstFlowReturn
gst_cuda_vision_upload_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (trans);
  cvcore_stream *stream = gst_cuda_vision_base_transform_get_stream (BASE
      (self));
  UploadSlot *slot = &self->slots[self->next_slot];
  GstVideoFrame in_frame, out_frame;
  GstMemory *out_mem = gst_buffer_peek_memory (outbuf, 0);
  GstMemory *in_mem = gst_buffer_n_memory (inbuf) == 1 ?
      gst_buffer_peek_memory (inbuf, 0) : NULL;
  gboolean from_device = in_mem && gst_cuda_vision_is_device_memory (in_mem);
  cvcore_status status;
  gboolean ordered;

  self->next_slot = (self->next_slot + 1) % N_SLOTS;
  if (!release_slot (self, slot))
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Upload failed");

  if (!check_memory (self, out_mem, "into the output frame")
      || (from_device && !check_memory (self, in_mem, "from the input frame")))
    return GST_FLOW_ERROR;
  if (!map_input (self, inbuf, from_device, &in_frame))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&out_frame,
          (GstVideoInfo *) gst_cuda_vision_base_transform_get_out_info (BASE
              (self)), outbuf, GST_MAP_WRITE | GST_MAP_CUDA_VISION)) {
    gst_video_frame_unmap (&in_frame);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot map a device frame"),
        (NULL));
    return GST_FLOW_ERROR;
  }

  ordered = gst_cuda_vision_device_memory_begin_access (out_mem, stream)
      && (!from_device
      || gst_cuda_vision_device_memory_begin_access (in_mem, stream));
  status = ordered ? upload_frame (self, slot, inbuf, from_device, &in_frame,
      &out_frame) : CVCORE_ERROR_RUNTIME;
  /* record even after a failure: the chain of uses must stay unbroken */
  if (!gst_cuda_vision_base_transform_end_access (BASE (self), out_mem)
      || (from_device
          && !gst_cuda_vision_base_transform_end_access (BASE (self), in_mem)))
    status = CVCORE_ERROR_RUNTIME;

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  /* The slot the next frame takes holds the oldest copy, long done: waited
   * for here, once this frame's copy is on its way, rather than before it
   * (a driver call costs tens of microseconds to a thread that slept). */
  if (status == CVCORE_OK
      && !release_slot (self, &self->slots[self->next_slot]))
    status = CVCORE_ERROR_RUNTIME;
  if (status != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error (BASE (self),
        "Upload failed");
  return GST_FLOW_OK;
}

static void
gst_cuda_vision_upload_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (object);

  if (!gst_cuda_vision_host_transfer_set_property (object, &self->host,
          PROP_HOST_TRANSFER, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cuda_vision_upload_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaVisionUpload *self = GST_CUDA_VISION_UPLOAD (object);

  if (!gst_cuda_vision_host_transfer_get_property (object, &self->host,
          PROP_HOST_TRANSFER, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cuda_vision_upload_class_init (GstCudaVisionUploadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_vision_upload_set_property;
  gobject_class->get_property = gst_cuda_vision_upload_get_property;
  gst_cuda_vision_host_transfer_install_properties (gobject_class,
      PROP_HOST_TRANSFER);

  gst_element_class_add_pad_template (element_class,
      gst_cuda_vision_transfer_pad_template ("sink", GST_PAD_SINK, TRUE));
  gst_element_class_add_pad_template (element_class,
      gst_cuda_vision_transfer_pad_template ("src", GST_PAD_SRC, FALSE));
  gst_element_class_set_static_metadata (element_class,
      "CUDA vision upload", "Filter/Video/Hardware",
      "Uploads raw video from system memory to device memory",
      "gst-cuda-vision developers");

  trans_class->passthrough_on_same_caps = TRUE;
  trans_class->start = gst_cuda_vision_upload_start;
  trans_class->stop = gst_cuda_vision_upload_stop;
  trans_class->sink_event = gst_cuda_vision_upload_sink_event;
  trans_class->transform_caps = gst_cuda_vision_upload_transform_caps;
  trans_class->propose_allocation = gst_cuda_vision_upload_propose_allocation;
  trans_class->transform = gst_cuda_vision_upload_transform;

  GST_CUDA_VISION_BASE_TRANSFORM_CLASS (klass)->set_info =
      gst_cuda_vision_upload_set_info;
}

static void
gst_cuda_vision_upload_init (GstCudaVisionUpload * self)
{
  gst_cuda_vision_host_transfer_init (&self->host);
}
