#ifndef __GST_CUDA_UPLOAD_H__
#define __GST_CUDA_UPLOAD_H__

#include "gstcudavisionbasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_UPLOAD (gst_cuda_vision_upload_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionUpload, gst_cuda_vision_upload, GST,
    CUDA_VISION_UPLOAD, GstCudaVisionBaseTransform);

G_END_DECLS

#endif /* __GST_CUDA_UPLOAD_H__ */
