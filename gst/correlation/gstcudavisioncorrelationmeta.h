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

/* GstCudaVisionCorrelationMeta: per-tile motion or disparity that
 * cudaphasecorr attaches to the frames it passes on.
 *
 * Applications need not link anything: the meta's API type is registered
 * by name when the plugin loads, and gst_buffer_get_cuda_vision_correlation
 * _meta() below finds it through that name.
 *
 * The frame is covered by tiles_x x tiles_y tiles of tile_size pixels at a
 * stride of tile_stride; tile (tx, ty) covers pixels from (origin_x +
 * tx * tile_stride, origin_y + ty * tile_stride), so its centre is at
 * (tx * tile_stride, ty * tile_stride) for the usual origin (-8, -8),
 * counting pixels from their top left corners: where pixel (x, y) stands
 * for the point (x, y), the centre is (8 tx - 0.5, 8 ty - 0.5). A match
 * is the motion there, where the tile's window centres.
 * matches holds tiles_y rows of tiles_x entries:
 *
 *  - dx, dy: in mode flow, where the tile's content moved from the previous
 *    frame to this one, in pixels (right and down positive); in mode
 *    stereo, how far the tile's content lies to the left (dx) and down (dy)
 *    in the right view compared with the left view: the disparity; in
 *    mode rig, dx is the disparity in pixels per unit baseline (content at
 *    p in view 0 lies at p - dx (c_v - c_0) in the view whose camera is at
 *    c_v) and dy is 0.
 *  - confidence: the height of the normalised phase correlation's peak,
 *    near 0 where there is nothing to match and growing with the match
 *    and the tile's texture; on natural video a tile of 0.05 or more was
 *    within half a pixel of the truth 99 times in 100, one below 92 times
 *    (docs/benchmarks/clt.md). It is 0 where the match puts the tile's centre
 *    more than half a tile beyond the frame's edge: content that left the
 *    view, matched to the mirror of the edge.
 *
 * views is the number of views matched (flow 1, stereo 2, rig 2 to 8),
 * pairs the pairs of frames correlated (flow and stereo 1, a rig of n
 * views n (n - 1) / 2).
 *
 * motion_dx, motion_dy summarise the frame: the confidence-weighted
 * medians of dx and of dy over the motion_tiles tiles whose confidence
 * reaches the element's min-confidence (0 when there is none). A median,
 * unlike a mean, is not pulled away by the tiles that matched the wrong
 * content.
 *
 * Bindings (Python and others) cannot read this struct. With
 * cudaphasecorr's custom-meta=true each frame also carries a GstCustomMeta
 * named GST_CUDA_VISION_CORRELATION_CUSTOM_META whose structure has the
 * fields of the element's message: timestamp, tiles-x, tiles-y,
 * tile-stride, confident-tiles, views, pairs, motion-dx, motion-dy (the
 * motion above;
 * also as mean-dx, mean-dy, their former names, for one more release)
 * and matches, a GBytes of the tiles' float (dx, dy, confidence) triples in
 * the machine's byte order, tiles_y rows of tiles_x. In Python:
 * buffer.get_custom_meta ("GstCudaVisionCorrelationCustomMeta")
 * .get_structure () (examples/python/flow_numpy.py).
 */
#ifndef __GST_CUDA_VISION_CORRELATION_META_H__
#define __GST_CUDA_VISION_CORRELATION_META_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_CUDA_VISION_CORRELATION_META_API_NAME \
    "GstCudaVisionCorrelationMetaAPI"
#define GST_CUDA_VISION_CORRELATION_CUSTOM_META \
    "GstCudaVisionCorrelationCustomMeta"
/* What cudaphasecorr matched: frames in time, two views, or a rig's.
 * Since: 0.1 */
typedef enum
{
  GST_CUDA_VISION_CORRELATION_FLOW,
  GST_CUDA_VISION_CORRELATION_STEREO,
  GST_CUDA_VISION_CORRELATION_RIG,
} GstCudaVisionCorrelationMode;

/* One tile's match.
 * Since: 0.1 */
typedef struct
{
  gfloat dx, dy, confidence;
} GstCudaVisionTileMatch;

/* The meta (described at the top of this file).
 * Since: 0.1 */
typedef struct
{
  GstMeta meta;

  GstCudaVisionCorrelationMode mode;
  guint tiles_x, tiles_y;
  gint origin_x, origin_y;
  guint tile_size, tile_stride;
  GstCudaVisionTileMatch *matches;
  gfloat motion_dx, motion_dy;
  guint motion_tiles;
  guint views, pairs;
} GstCudaVisionCorrelationMeta;

/* The meta of @buffer, or NULL (also when the plugin is not loaded).
 * Since: 0.1 */
static inline GstCudaVisionCorrelationMeta *
gst_buffer_get_cuda_vision_correlation_meta (GstBuffer * buffer)
{
  GType api = g_type_from_name (GST_CUDA_VISION_CORRELATION_META_API_NAME);

  return api ? (GstCudaVisionCorrelationMeta *) gst_buffer_get_meta (buffer,
      api) : NULL;
}

/* The match of tile (@tx, @ty) of @meta.
 * Since: 0.1 */
static inline const GstCudaVisionTileMatch *
gst_cuda_vision_correlation_meta_tile (const GstCudaVisionCorrelationMeta *
    meta, guint tx, guint ty)
{
  g_return_val_if_fail (tx < meta->tiles_x && ty < meta->tiles_y, NULL);
  return &meta->matches[ty * meta->tiles_x + tx];
}

G_END_DECLS

#endif /* __GST_CUDA_VISION_CORRELATION_META_H__ */
