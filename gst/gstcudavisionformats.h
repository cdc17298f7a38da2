/* Raw video formats that cudaupload and cudadownload move. */
#ifndef __GST_CUDA_VISION_FORMATS_H__
#define __GST_CUDA_VISION_FORMATS_H__

#include "gstcudavisionmemory.h"

/* RGBA64_LE came with GStreamer 1.20: built against an older release, the
 * templates leave it out. An item of a format list, followed by others. */
#if GST_CHECK_VERSION (1, 20, 0)
#define GST_CUDA_VISION_RGBA64_ITEM "RGBA64_LE, "
#else
#define GST_CUDA_VISION_RGBA64_ITEM ""
#endif

#define GST_CUDA_VISION_TRANSFER_FORMATS \
    "{ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, GRAY8, GRAY16_LE, " \
    "I420, NV12, Y444, " GST_CUDA_VISION_RGBA64_ITEM "P010_10LE, I420_10LE }"

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
