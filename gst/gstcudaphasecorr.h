#ifndef __GST_CUDA_VISION_PHASE_CORR_H__
#define __GST_CUDA_VISION_PHASE_CORR_H__

#include <gst/base/gstaggregator.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VISION_PHASE_CORR (gst_cuda_vision_phase_corr_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVisionPhaseCorr, gst_cuda_vision_phase_corr, GST,
    CUDA_VISION_PHASE_CORR, GstAggregator);

G_END_DECLS

#endif /* __GST_CUDA_VISION_PHASE_CORR_H__ */
