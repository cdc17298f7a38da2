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

/* A camera rig's geometry as text: each camera's centre in baseline units
 * (x right, y down), one camera per line or per ';'-separated entry, its
 * x and y apart by ',' or spaces; '#' starts a comment to the end of the
 * line. The seed's square quad: "0,0; 1,0; 0,1; 1,1". */
#ifndef __GST_CUDA_VISION_RIG_H__
#define __GST_CUDA_VISION_RIG_H__

#include <gst/gst.h>

#include "cvclt.h"

G_BEGIN_DECLS

#define GST_CUDA_VISION_RIG_QUAD "0,0; 1,0; 0,1; 1,1"
/* Parses @text into @rig's cameras (its chosen pairs stay): 2 to
 * CVCORE_CLT_MAX_VIEWS cameras, each within 1000 baselines of the origin,
 * no two within 0.001 of each other. FALSE with a message in *@error
 * otherwise, @rig untouched. */
gboolean gst_cuda_vision_rig_parse (const gchar * text,
    cvcore_clt_rig * rig, gchar ** error);

/* Reads and parses the file at @location. */
gboolean gst_cuda_vision_rig_load (const gchar * location,
    cvcore_clt_rig * rig, gchar ** error);

/* @rig as text that parses back to it. */
gchar *gst_cuda_vision_rig_to_string (const cvcore_clt_rig * rig);

/* Parses the pairs of views a rig correlates into @rig's pairs: empty for
 * every pair, or "i-j" entries apart by ';' or ',' (views as counted in
 * the rig, 0 to 7), no pair twice. FALSE with a message in *@error
 * otherwise, @rig untouched. */
gboolean gst_cuda_vision_rig_parse_pairs (const gchar * text,
    cvcore_clt_rig * rig, gchar ** error);


/* @rig's chosen pairs as text that parses back to them ("" for every
 * pair). */
gchar *gst_cuda_vision_rig_pairs_to_string (const cvcore_clt_rig * rig);

/* The cameras of @rig whose views are @present, in order, into @out, with
 * the chosen pairs of two present views; FALSE when pairs were chosen and
 * none of them is left. */
gboolean gst_cuda_vision_rig_select (const cvcore_clt_rig * rig,
    const gboolean * present, cvcore_clt_rig * out);

G_END_DECLS

#endif /* __GST_CUDA_VISION_RIG_H__ */
