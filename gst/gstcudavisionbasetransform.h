/* GstCudaVisionBaseTransform: what every cudavision transform shares: the
 * device (chosen by device-id and shared through GstContext), the element's
 * stream, and the negotiated video infos. */
#ifndef __GST_CUDA_VISION_BASE_TRANSFORM_H__
#define __GST_CUDA_VISION_BASE_TRANSFORM_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include "gstcudavisiondevice.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_BASE_TRANSFORM \
    (gst_cuda_vision_base_transform_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaVisionBaseTransform,
    gst_cuda_vision_base_transform, GST, CUDA_VISION_BASE_TRANSFORM,
    GstBaseTransform);

struct _GstCudaVisionBaseTransformClass
{
  GstBaseTransformClass parent_class;

  /* Called after the caps are parsed into in_info and out_info. */
    gboolean (*set_info) (GstCudaVisionBaseTransform * self, GstCaps * incaps,
      GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info);
};

/* Valid between start() and stop(). */
GstCudaVisionDevice *gst_cuda_vision_base_transform_get_device
    (GstCudaVisionBaseTransform * self);
cvcore_stream *gst_cuda_vision_base_transform_get_stream
    (GstCudaVisionBaseTransform * self);
/* Ends a use of @mem on the element's stream, begun with
 * gst_cuda_vision_device_memory_begin_access (). */
gboolean gst_cuda_vision_base_transform_end_access (GstCudaVisionBaseTransform
    * self, GstMemory * mem);
/* Waits until the work the element queued is done (nothing outside start()
 * .. stop()), before memory that work uses is freed. */
void gst_cuda_vision_base_transform_finish_work (GstCudaVisionBaseTransform *
    self);
/* Valid after caps are set. */
const GstVideoInfo *gst_cuda_vision_base_transform_get_in_info
    (GstCudaVisionBaseTransform * self);
const GstVideoInfo *gst_cuda_vision_base_transform_get_out_info
    (GstCudaVisionBaseTransform * self);

/* The backend the elements run on, from the environment (also before a
 * device is open, as caps queries come). */
cvcore_backend gst_cuda_vision_caps_backend (void);

/* transform_caps of the device side: @caps (taken) with every structure in
 * both device memory features, its own first, as far as the backend
 * carries them. (A CPU backend whose neighbour takes memory:CUDAMemory
 * alone says once, in a warning, why they cannot negotiate.) */
GstCaps *gst_cuda_vision_base_transform_device_caps (GstCudaVisionBaseTransform
    * self, GstCaps * caps);

/* transform_caps of the transfer elements, whose host side is the pad of
 * direction @host_side: from the host side, the device side's caps (device
 * memory that comes in stays as it is first); from the device side, the
 * host side's (system memory first). */
GstCaps *gst_cuda_vision_transfer_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter,
    GstPadDirection host_side);

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

/* Posts an element error for a failed core call, with the core's message
 * as debug text, and returns GST_FLOW_ERROR. */
GstFlowReturn gst_cuda_vision_base_transform_core_error
    (GstCudaVisionBaseTransform * self, const gchar * what);

G_END_DECLS

#endif /* __GST_CUDA_VISION_BASE_TRANSFORM_H__ */
