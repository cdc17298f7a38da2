#ifndef __GST_CUDA_VISION_CLT_H__
#define __GST_CUDA_VISION_CLT_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_CLT (gst_cuda_vision_clt_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionClt, gst_cuda_vision_clt, GST,
    CUDA_VISION_CLT, GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_CLT_H__ */
