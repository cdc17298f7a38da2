#ifndef __GST_CUDA_VISION_GABOR_H__
#define __GST_CUDA_VISION_GABOR_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_GABOR (gst_cuda_vision_gabor_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionGabor, gst_cuda_vision_gabor, GST,
    CUDA_VISION_GABOR, GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_GABOR_H__ */
