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

/* What cudaupload and cudadownload share for frames in ordinary system
 * memory: their two properties, and the row copier they configure. */
#ifndef __GST_CUDA_VISION_HOST_TRANSFER_H__
#define __GST_CUDA_VISION_HOST_TRANSFER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include "gstcudavisionrowcopier.h"

G_BEGIN_DECLS

typedef struct
{
  /* properties, under the element's object lock */
  guint copy_threads;
  gboolean pin_recycled;

  /* streaming thread only */
  GstCudaVisionRowCopier *copier;
  guint copier_threads;
} GstCudaVisionHostTransfer;

void gst_cuda_vision_host_transfer_init (GstCudaVisionHostTransfer * self);
/* Installs "copy-threads" and "pin-recycled" as @first_prop and the next. */
void gst_cuda_vision_host_transfer_install_properties (GObjectClass * klass,
    guint first_prop);
/* FALSE when @prop_id is none of the two. */
gboolean gst_cuda_vision_host_transfer_set_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    const GValue * value);
gboolean gst_cuda_vision_host_transfer_get_property (GObject * object,
    GstCudaVisionHostTransfer * self, guint first_prop, guint prop_id,
    GValue * value);

gboolean gst_cuda_vision_host_transfer_pins_recycled (GObject * object,
    GstCudaVisionHostTransfer * self);
/* The copier with the threads the property asks for now. */
GstCudaVisionRowCopier *gst_cuda_vision_host_transfer_copier (GObject *
    object, GstCudaVisionHostTransfer * self, cvcore_device * device);
void gst_cuda_vision_host_transfer_clear (GstCudaVisionHostTransfer * self);

/* transform_caps of the transfer elements, whose host side is the pad of
 * direction @host_side: from the host side, the device side's caps (device
 * memory that comes in stays as it is first); from the device side, the
 * host side's (system memory first). */
GstCaps *gst_cuda_vision_transfer_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter,
    GstPadDirection host_side);

/* Pad templates of cudaupload and cudadownload: the host side in system
 * memory, the device side in memory:CUDAVisionMemory and, where built,
 * memory:CUDAMemory; with @host, a host side that also takes the device
 * side's caps (passed through). */
GstPadTemplate *gst_cuda_vision_transfer_pad_template (const gchar * name,
    GstPadDirection direction, gboolean host);

G_END_DECLS

#endif /* __GST_CUDA_VISION_HOST_TRANSFER_H__ */
