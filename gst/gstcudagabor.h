#ifndef __GST_CUDA_GABOR_H__
#define __GST_CUDA_GABOR_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_GABOR (gst_cuda_gabor_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaGabor, gst_cuda_gabor, GST, CUDA_GABOR,
    GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_GABOR_H__ */
