/* Helpers shared by the cudavision elements: plane geometry of a
 * GstVideoInfo and frame descriptors for the core. */
#ifndef __GST_CUDA_VISION_UTILS_H__
#define __GST_CUDA_VISION_UTILS_H__

#include <gst/video/video.h>
#include "cvcore.h"

G_BEGIN_DECLS

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

/* Per plane of @info, the bits of the interleaved channels that carry
 * colour: every component but the padding of RGBx/BGRx and, unless
 * @with_alpha, alpha. */
void gst_cuda_vision_channel_masks (const GstVideoInfo * info,
    gboolean with_alpha, guint masks[GST_VIDEO_MAX_PLANES]);

/* @plane of a mapped frame as a core image (@sample samples). */
void gst_cuda_vision_frame_plane (const GstVideoFrame * frame, guint plane,
    cvcore_sample sample, cvcore_image * image);

/* Installs a double property @prop_id on @gobject_class. */
void gst_cuda_vision_install_double (GObjectClass * gobject_class,
    guint prop_id, const gchar * name, const gchar * nick,
    const gchar * blurb, gdouble min, gdouble max, gdouble def,
    GParamFlags flags);

G_END_DECLS

#endif /* __GST_CUDA_VISION_UTILS_H__ */
