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

/* For test programs that link the plugin's objects: the plugin registered
 * statically, so that its types and its core are the ones the program
 * links. */
#ifndef CVTEST_LINKED_H
#define CVTEST_LINKED_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Registers the plugin "cudavision"; FALSE when it cannot be. */
gboolean cvtest_register_linked_plugin (void);

/* Pushes a 64x48 I420 device frame in @feature's memory (ours or
 * memory:CUDAMemory) through `cudaconvolve preset=identity !
 * cudavisiondownload`, laid out as GStreamer 1.24.0 to 1.24.3 lay out
 * CUDA memory (the V plane half a pitch further on than the caps say) and
 * described by its video meta, and checks every output row against the
 * planes where the meta puts them. */
void cvtest_assert_meta_layout_followed (const gchar * feature);

G_END_DECLS

#endif /* CVTEST_LINKED_H */
