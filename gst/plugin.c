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

/* The cudavision plugin: CUDA video-processing elements that keep frames in
 * device memory between them. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudaconvolve.h"
#include "gstcudafoveate.h"
#include "gstcudatonemap.h"
#include "gstcudagabor.h"
#include "gstcudaclt.h"
#include "gstcudaphasecorr.h"
#include "gstcudavisioncorrelationmetaimpl.h"
#include "gstcudadownload.h"
#include "gstcudaupload.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionplugin.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_vision_plugin_debug);
#define GST_CAT_DEFAULT gst_cuda_vision_plugin_debug

gchar *
gst_cuda_vision_name_owner (const gchar * name)
{
  GstPluginFeature *feature =
      gst_registry_lookup_feature (gst_registry_get (), name);
  gchar *owner = NULL;

  if (feature) {
    const gchar *plugin = gst_plugin_feature_get_plugin_name (feature);

    if (plugin && g_strcmp0 (plugin, GST_CUDA_VISION_PLUGIN_NAME) != 0)
      owner = g_strdup (plugin);
    gst_object_unref (feature);
  }
  return owner;
}

/* gst_element_register() re-points an existing factory of the same name at
 * our type, whichever plugin owns it; nvcodec's cudaupload and cudadownload
 * would then create our elements under its pad templates. So a name that
 * another plugin owns is left to it, and the element stays reachable by its
 * alias, which is registered always. */
static gboolean
register_element (GstPlugin * plugin, const gchar * name, const gchar * alias,
    GType type)
{
  gchar *owner = gst_cuda_vision_name_owner (name);
  gboolean ok = gst_element_register (plugin, alias, GST_RANK_NONE, type);

  if (owner) {
    GST_WARNING ("the element name '%s' belongs to the '%s' plugin, which is "
        "also installed; this plugin's element stays reachable as '%s'",
        name, owner, alias);
    g_free (owner);
    return ok;
  }
  return gst_element_register (plugin, name, GST_RANK_NONE, type) && ok;
}

gboolean
gst_cuda_vision_plugin_init (GstPlugin * plugin)
{
  gboolean ok = TRUE;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_vision_plugin_debug, "cudavision", 0,
      "cudavision plugin");
  gst_cuda_vision_memory_init_once ();
  /* its debug category, for the context sharing that comes before any
   * device is made */
  g_type_ensure (GST_TYPE_CUDA_VISION_DEVICE);
  /* applications find the meta's API by name */
  gst_cuda_vision_correlation_meta_get_info ();
#if GST_CUDA_VISION_HAVE_CUSTOM_META
  gst_cuda_vision_correlation_custom_meta_get_info ();
#endif

  ok &= register_element (plugin, "cudaupload", "cudavisionupload",
      GST_TYPE_CUDA_VISION_UPLOAD);
  ok &= register_element (plugin, "cudadownload", "cudavisiondownload",
      GST_TYPE_CUDA_VISION_DOWNLOAD);
  ok &= gst_element_register (plugin, "cudaconvolve", GST_RANK_NONE,
      GST_TYPE_CUDA_VISION_CONVOLVE);
  ok &= gst_element_register (plugin, "cudafoveate", GST_RANK_NONE,
      GST_TYPE_CUDA_VISION_FOVEATE);
  ok &= gst_element_register (plugin, "cudatonemap", GST_RANK_NONE,
      GST_TYPE_CUDA_VISION_TONEMAP);
  ok &= gst_element_register (plugin, "cudagabor", GST_RANK_NONE,
      GST_TYPE_CUDA_VISION_GABOR);
  ok &= gst_element_register (plugin, "cudaclt", GST_RANK_NONE,
      GST_TYPE_CUDA_VISION_CLT);
  ok &= gst_element_register (plugin, "cudaphasecorr", GST_RANK_NONE,
      GST_TYPE_CUDA_VISION_PHASE_CORR);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudavision,
    "CUDA video processing that keeps frames in device memory",
    gst_cuda_vision_plugin_init, PACKAGE_VERSION, GST_LICENSE, GST_PACKAGE_NAME,
    GST_PACKAGE_ORIGIN)
