/* Raw video formats that cudaupload and cudadownload move. */
#ifndef __GST_CUDA_VISION_FORMATS_H__
#define __GST_CUDA_VISION_FORMATS_H__

#include "gstcudavisionmemory.h"

#define GST_CUDA_VISION_TRANSFER_FORMATS \
    "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, GRAY8, GRAY16_LE, " \
    "I420, NV12, Y444, RGBA64_LE, P010_10LE, I420_10LE }"

#define GST_CUDA_VISION_DEVICE_CAPS(formats) \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CUDA_VISION, \
        formats)

/* Pad templates of cudaupload and cudadownload: the host side in system
 * memory, the device side in memory:CUDAVisionMemory and, where built,
 * memory:CUDAMemory; with @host, a host side that also takes the device
 * side's caps (passed through). */
GstPadTemplate *gst_cuda_vision_transfer_pad_template (const gchar * name,
    GstPadDirection direction, gboolean host);

#endif /* __GST_CUDA_VISION_FORMATS_H__ */
