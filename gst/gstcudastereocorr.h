#ifndef __GST_CUDA_STEREO_CORR_H__
#define __GST_CUDA_STEREO_CORR_H__

#include <gst/base/gstaggregator.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_STEREO_CORR (gst_cuda_stereo_corr_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaStereoCorr, gst_cuda_stereo_corr, GST,
    CUDA_STEREO_CORR, GstAggregator);

G_END_DECLS

#endif /* __GST_CUDA_STEREO_CORR_H__ */
