/* What the tone mapping's dispatcher hands its CUDA kernels. */
#ifndef TONEMAP_PRIVATE_H
#define TONEMAP_PRIVATE_H

#include "cvtonemap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Partial sums of the key reduction: one triple (sum, min, max of the
 * logarithms) per block, at most this many blocks. */
#define CV_TM_MAX_PARTIALS 1024

typedef struct
{
  float *luminance;             /* Lw of every pixel (local operator) */
  size_t luminance_pitch;
  double *partials;             /* CV_TM_MAX_PARTIALS * 3 */
  cvcore_tm_key *key;           /* the adapted key, updated per frame */
  unsigned char *rgba;          /* NV12 output: the frame before conversion */
  size_t rgba_pitch;
} cv_tm_scratch;

#ifdef CVCORE_HAVE_CUDA
cvcore_status cvcore_cuda_tonemap (cvcore_stream * stream,
    const cv_tm_scratch * scratch, const cvcore_tm_frame * src,
    const cvcore_tm_frame * dst, const cvcore_tm_params * params, double dt,
    bool reset);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TONEMAP_PRIVATE_H */
