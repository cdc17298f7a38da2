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

/* Helpers shared by the cudavision elements: plane geometry of a
 * GstVideoInfo and frame descriptors for the core. */
#ifndef __GST_CUDA_VISION_UTILS_H__
#define __GST_CUDA_VISION_UTILS_H__

#include <gst/video/video.h>
#include "cvcore.h"

G_BEGIN_DECLS

/* Flags of the elements' properties: they may change while playing, and
 * CONTROLLABLE ones may also move per frame under a GstController. */
#define GST_CUDA_VISION_PARAM_FLAGS \
    (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)
#define GST_CUDA_VISION_PARAM_CONTROLLABLE \
    (GST_CUDA_VISION_PARAM_FLAGS | GST_PARAM_CONTROLLABLE)
/* Bytes of pixel data in one row of @plane (no padding). */
gsize gst_cuda_vision_plane_row_bytes (const GstVideoInfo * info,
    guint plane);
/* Rows of @plane. */
guint gst_cuda_vision_plane_rows (const GstVideoInfo * info, guint plane);

/* Queues a copy of every plane of @src to @dst on @stream; both frames are
 * mapped, with device or host pointers as @kind says. */
cvcore_status gst_cuda_vision_copy_frame_async (cvcore_stream * stream,
    GstVideoFrame * dst, const GstVideoFrame * src, cvcore_copy_kind kind);

/* The structures of @caps with memory feature @first, followed by the same
 * with @second when it is not NULL, intersected with @filter when given:
 * transform_caps of the elements that move frames between memories. */
GstCaps *gst_cuda_vision_caps_for_features (const GstCaps * caps,
    const gchar * first, const gchar * second, GstCaps * filter);

/* @caps (taken) with the structures in system memory moved into
 * memory:CUDAVisionMemory; those in device memory stay as they are. */
GstCaps *gst_cuda_vision_caps_system_to_device (GstCaps * caps);

/* @caps (taken) intersected with @filter, first in @filter's order, when
 * @filter is given: the end of every transform_caps. */
GstCaps *gst_cuda_vision_caps_filter (GstCaps * caps, GstCaps * filter);

/* Per plane of @info, the bits of the interleaved channels that carry
 * colour: every component but the padding of RGBx/BGRx and, unless
 * @with_alpha, alpha. */
void gst_cuda_vision_channel_masks (const GstVideoInfo * info,
    gboolean with_alpha, guint masks[GST_VIDEO_MAX_PLANES]);

/* @plane of a mapped frame as a core image (@sample samples). */
void gst_cuda_vision_frame_plane (const GstVideoFrame * frame, guint plane,
    cvcore_sample sample, cvcore_image * image);

/* Bayer mosaics (video/x-bayer) that the elements carry: 8-bit and
 * 16-bit little-endian, the pattern read from the top-left 2x2 cell. */
#define GST_CUDA_VISION_BAYER_FORMATS \
    "{ bggr, rggb, grbg, gbrg, bggr16le, rggb16le, grbg16le, gbrg16le }"
#define GST_CUDA_VISION_BAYER_CAPS(features) \
    "video/x-bayer(" features "), format=(string)" \
    GST_CUDA_VISION_BAYER_FORMATS ", width=(int)[1, 32767], " \
    "height=(int)[1, 32767], framerate=(fraction)[0/1, 2147483647/1]"


/* gst_video_info_from_caps(), and for a Bayer mosaic the layout of its
 * samples: GRAY8 or GRAY16_LE of the same size and rate (rows padded to 4
 * bytes, as GStreamer's bayer elements lay them out). Interlaced video is
 * refused: the elements process whole progressive frames. */
gboolean gst_cuda_vision_video_info_from_caps (GstVideoInfo * info,
    const GstCaps * caps);
/* Posts the error of @element's refusal of @caps, which
 * gst_cuda_vision_video_info_from_caps() did not take: interlaced video
 * named as such. */
void gst_cuda_vision_post_caps_refusal (GstElement * element,
    const GstCaps * caps);
/* The Bayer pattern of @caps as the colours (0 red, 1 green, 2 blue) of
 * its top-left 2x2 cell, row by row, packed 2 bits each; 0 when @caps are
 * not a mosaic. */
guint gst_cuda_vision_caps_bayer_pattern (const GstCaps * caps);

/* Installs a double property @prop_id on @gobject_class. */
/* The enum type @name of @values, registered at the first call (@type, a
 * static of the caller, keeps it). */
GType gst_cuda_vision_enum_type (GType * type, const gchar * name,
    const GEnumValue * values);

void gst_cuda_vision_install_double (GObjectClass * gobject_class,
    guint prop_id, const gchar * name, const gchar * nick,
    const gchar * blurb, gdouble min, gdouble max, gdouble def,
    GParamFlags flags);

/* TRUE when @pad's peer belongs to a cudavision element, which orders its
 * device work after ours without waiting on the host. */
gboolean gst_cuda_vision_pad_peer_is_ours (GstPad * pad);

/* gst_cuda_vision_pad_peer_is_ours () of a pad that every frame asks:
 * looked up again only when the peer changes, which the cache holds. Used
 * from one thread; cleared at stop. */
typedef struct
{
  GstPad *peer;
  gboolean ours;
} GstCudaVisionPeerCache;

gboolean gst_cuda_vision_peer_cache_is_ours (GstCudaVisionPeerCache * cache,
    GstPad * pad);
void gst_cuda_vision_peer_cache_clear (GstCudaVisionPeerCache * cache);

G_END_DECLS

#endif /* __GST_CUDA_VISION_UTILS_H__ */
