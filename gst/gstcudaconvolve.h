#ifndef __GST_CUDA_VISION_CONVOLVE_H__
#define __GST_CUDA_VISION_CONVOLVE_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_CONVOLVE (gst_cuda_vision_convolve_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionConvolve, gst_cuda_vision_convolve, GST,
    CUDA_VISION_CONVOLVE, GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_CONVOLVE_H__ */
