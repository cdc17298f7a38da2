/* Arithmetic shared by the CPU reference and the CUDA kernel of the
 * foveation, so that both pick the same filters and round the same way. */
#ifndef FOVEATE_COMMON_H
#define FOVEATE_COMMON_H

#include "convolve-common.h"
#include "cvfoveate.h"

/* a * b, never fused with a following addition. */
CV_HD float
cv_mul_rn (float a, float b)
{
#ifdef __CUDA_ARCH__
  return __fmul_rn (a, b);
#else
  return a * b;
#endif
}

/* The filter of fragment (@gx, @gy): the distance of its centre from the
 * fixation, against the plan's thresholds. */
CV_HD int
cv_fov_filter (const cvcore_fov_plan * plan, int gx, int gy)
{
  const float half = 0.5f * plan->fragment;
  const float dx = (float) (plan->origin_x + gx * plan->fragment) + half -
      plan->fix_x;
  const float dy = (float) (plan->origin_y + gy * plan->fragment) + half -
      plan->fix_y;
  const float d = sqrtf (cv_mul_rn (dx, dx) + cv_mul_rn (dy, dy));
  int f = 0;

  for (int k = 1; k < plan->n_filters; k++)
    if (d >= plan->threshold[k])
      f = k;
  return f;
}

/* A blurred sample, rounded half up (sums of non-negative taps are not
 * negative). */
CV_HD int
cv_fov_round (float v)
{
  const int r = (int) (v + 0.5f);

  return r > 255 ? 255 : r;
}

/* @i clamped to [0, @n). */
CV_HD int
cv_clamp_index (int i, int n)
{
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

#endif /* FOVEATE_COMMON_H */
