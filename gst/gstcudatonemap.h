#ifndef __GST_CUDA_TONEMAP_H__
#define __GST_CUDA_TONEMAP_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_TONEMAP (gst_cuda_tonemap_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTonemap, gst_cuda_tonemap, GST, CUDA_TONEMAP,
    GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_TONEMAP_H__ */
