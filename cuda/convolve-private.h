/* The CUDA side of the convolution, called by the dispatcher. */
#ifndef CONVOLVE_PRIVATE_H
#define CONVOLVE_PRIVATE_H

#include "cvconvolve.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CVCORE_HAVE_CUDA
cvcore_status cvcore_cuda_convolve (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned channel_mask,
    const cvcore_conv_plan * plan);
#endif

#ifdef __cplusplus
}
#endif

#endif /* CONVOLVE_PRIVATE_H */
