#ifndef __GST_CUDA_DOWNLOAD_H__
#define __GST_CUDA_DOWNLOAD_H__

#include "gstcudavisionbasetransform.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_DOWNLOAD (gst_cuda_vision_download_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionDownload, gst_cuda_vision_download, GST,
    CUDA_VISION_DOWNLOAD, GstCudaVisionBaseTransform);

G_END_DECLS

#endif /* __GST_CUDA_DOWNLOAD_H__ */
