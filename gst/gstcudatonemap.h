#ifndef __GST_CUDA_VISION_TONEMAP_H__
#define __GST_CUDA_VISION_TONEMAP_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_TONEMAP (gst_cuda_vision_tonemap_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionTonemap, gst_cuda_vision_tonemap, GST,
    CUDA_VISION_TONEMAP, GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_TONEMAP_H__ */
