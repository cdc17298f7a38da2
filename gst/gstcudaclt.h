#ifndef __GST_CUDA_CLT_H__
#define __GST_CUDA_CLT_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_CLT (gst_cuda_clt_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaClt, gst_cuda_clt, GST, CUDA_CLT,
    GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_CLT_H__ */
