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

#ifndef __GST_CUDA_VISION_PLUGIN_H__
#define __GST_CUDA_VISION_PLUGIN_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_CUDA_VISION_PLUGIN_NAME "cudavision"
/* Name of the other plugin that owns element name @name in the registry, or
 * NULL when the name is free or ours. */
gchar * gst_cuda_vision_name_owner (const gchar * name);

/* Registers the plugin's elements and memory types; tests of the internals
 * call it through gst_plugin_register_static(). */
gboolean gst_cuda_vision_plugin_init (GstPlugin * plugin);

G_END_DECLS

#endif /* __GST_CUDA_VISION_PLUGIN_H__ */
