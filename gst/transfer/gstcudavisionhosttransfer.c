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

/* What the transfer elements share for frames in system memory: see the
 * header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionhosttransfer.h"
#include "gstcudavisionbasetransform.h"
#include "gstcudavisionformats.h"
#include "gstcudavisioninterop.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"

#define MAX_COPY_THREADS 32

enum
{
  OFFSET_COPY_THREADS,
  OFFSET_PIN_RECYCLED,
};

void
gst_cuda_vision_host_transfer_init (GstCudaVisionHostTransfer * self)
{
  self->copy_threads = 0;
  self->pin_recycled = TRUE;
}

void
gst_cuda_vision_host_transfer_install_properties (GObjectClass * klass,
    guint first_prop)
{
  /**
   * GstCudaVisionUpload:copy-threads:
   *
   * Frames in ordinary memory that cannot be page-locked go through
   * page-locked staging; this many threads copy their rows there (or back
   * out, for downloads) while the DMA of copied rows runs. 0 picks half
   * the processors, 1 to 8. Applies from the next frame.
   */
  g_object_class_install_property (klass, first_prop + OFFSET_COPY_THREADS,
      g_param_spec_uint ("copy-threads", "Copy threads",
          "Threads that copy rows of frames in ordinary memory to or from "
          "page-locked staging (0: half the processors, 1 to 8)",
          0, MAX_COPY_THREADS, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCudaVisionUpload:pin-recycled:
   *
   * Page-locks ordinary memory that comes a second time, such as the
   * buffers of a pool that upstream (or downstream, for downloads)
   * recycles: registering costs about a millisecond per 8 MB once, after
   * which every copy of that memory is an asynchronous DMA at the copy
   * engine's speed. Memory seen once is never registered. Registered
   * memory is unregistered when it is freed.
   */
  g_object_class_install_property (klass, first_prop + OFFSET_PIN_RECYCLED,
      g_param_spec_boolean ("pin-recycled", "Pin recycled memory",
          "Page-lock ordinary memory that comes again (a pool's buffers), "
          "so that its copies run as DMA at full speed", TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
}

gboolean
gst_cuda_vision_host_transfer_set_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    const GValue * value)
{
  gboolean known = TRUE;

  GST_OBJECT_LOCK (object);
  if (prop_id == first_prop + OFFSET_COPY_THREADS)
    self->copy_threads = g_value_get_uint (value);
  else if (prop_id == first_prop + OFFSET_PIN_RECYCLED)
    self->pin_recycled = g_value_get_boolean (value);
  else
    known = FALSE;
  GST_OBJECT_UNLOCK (object);
  return known;
}

gboolean
gst_cuda_vision_host_transfer_get_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    GValue * value)
{
  gboolean known = TRUE;

  GST_OBJECT_LOCK (object);
  if (prop_id == first_prop + OFFSET_COPY_THREADS)
    g_value_set_uint (value, self->copy_threads);
  else if (prop_id == first_prop + OFFSET_PIN_RECYCLED)
    g_value_set_boolean (value, self->pin_recycled);
  else
    known = FALSE;
  GST_OBJECT_UNLOCK (object);
  return known;
}

gboolean
gst_cuda_vision_host_transfer_pins_recycled (GObject * object,
    GstCudaVisionHostTransfer * self)
{
  gboolean pin;

  GST_OBJECT_LOCK (object);
  pin = self->pin_recycled;
  GST_OBJECT_UNLOCK (object);
  return pin;
}

GstCudaVisionRowCopier *
gst_cuda_vision_host_transfer_copier (GObject * object,
    GstCudaVisionHostTransfer * self, cvcore_device * device)
{
  guint threads;

  GST_OBJECT_LOCK (object);
  threads = self->copy_threads ? self->copy_threads :
      gst_cuda_vision_row_copier_default_threads ();
  GST_OBJECT_UNLOCK (object);
  if (self->copier && self->copier_threads != threads)
    g_clear_pointer (&self->copier, gst_cuda_vision_row_copier_free);
  if (self->copier == NULL) {
    self->copier = gst_cuda_vision_row_copier_new (device, threads);
    self->copier_threads = threads;
  }
  return self->copier;
}

void
gst_cuda_vision_host_transfer_clear (GstCudaVisionHostTransfer * self)
{
  g_clear_pointer (&self->copier, gst_cuda_vision_row_copier_free);
}

GstCaps *
gst_cuda_vision_transfer_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter,
    GstPadDirection host_side)
{
  GstCudaVisionBaseTransform *self = GST_CUDA_VISION_BASE_TRANSFORM (trans);
  GstCaps *ret;

  if (direction == host_side) {
    ret = gst_cuda_vision_base_transform_device_caps (self,
        gst_cuda_vision_caps_system_to_device (gst_caps_copy (caps)));
  } else {
    ret = gst_caps_merge (gst_cuda_vision_caps_for_features (caps,
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY, NULL, NULL),
        gst_cuda_vision_base_transform_device_caps (self,
            gst_caps_copy (caps)));
  }
  return gst_cuda_vision_caps_filter (ret, filter);
}

GstPadTemplate *
gst_cuda_vision_transfer_pad_template (const gchar * name,
    GstPadDirection direction, gboolean host)
{
  GstCaps *device = gst_cuda_vision_caps_add_cuda_memory (gst_caps_from_string
      (GST_CUDA_VISION_DEVICE_CAPS (GST_CUDA_VISION_TRANSFER_FORMATS) ";"
          GST_CUDA_VISION_BAYER_CAPS (GST_CAPS_FEATURE_MEMORY_CUDA_VISION)));
  GstCaps *caps = device;
  GstPadTemplate *templ;

  if (host)
    caps = gst_caps_merge (gst_caps_from_string (GST_VIDEO_CAPS_MAKE
            (GST_CUDA_VISION_TRANSFER_FORMATS) ";" GST_CUDA_VISION_BAYER_CAPS
            (GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY)), device);
  templ = gst_pad_template_new (name, direction, GST_PAD_ALWAYS, caps);
  gst_caps_unref (caps);
  return templ;
}
