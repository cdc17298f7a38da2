#ifndef __GST_CUDA_VISION_FOVEATE_H__
#define __GST_CUDA_VISION_FOVEATE_H__

#include "gstcudavisionfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_FOVEATE (gst_cuda_vision_foveate_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionFoveate, gst_cuda_vision_foveate, GST,
    CUDA_VISION_FOVEATE, GstCudaVisionFilter);

G_END_DECLS

#endif /* __GST_CUDA_VISION_FOVEATE_H__ */
