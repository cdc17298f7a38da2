/* Arithmetic shared by the CPU reference and the CUDA kernels of the
 * convolution, so that both compute the same thing. */
#ifndef CONVOLVE_COMMON_H
#define CONVOLVE_COMMON_H

#include <math.h>

#include "cvconvolve.h"

#ifdef __CUDACC__
#define CV_HD __host__ __device__ __forceinline__
#else
#define CV_HD static inline
#endif

/* Index of the sample that stands for position @i of a row or column of
 * @n samples, or -1 for the constant border. */
CV_HD int
cv_border_index (int i, int n, cvcore_border border)
{
  if (i >= 0 && i < n)
    return i;
  switch (border) {
    case CVCORE_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case CVCORE_BORDER_MIRROR:{
      int period = 2 * n - 2;

      if (n == 1)
        return 0;
      i %= period;
      if (i < 0)
        i += period;
      return i < n ? i : period - i;
    }
    case CVCORE_BORDER_WRAP:
      i %= n;
      return i < 0 ? i + n : i;
    case CVCORE_BORDER_CONSTANT:
    default:
      return -1;
  }
}

CV_HD int
cv_sample_max (cvcore_sample sample)
{
  return sample == CVCORE_SAMPLE_U8 ? 255 : 65535;
}

/* acc / divisor + bias, rounded half up and saturated. */
CV_HD int
cv_finish_float (float acc, float divisor, float bias, int max_value)
{
  float v = floorf (acc / divisor + bias + 0.5f);

  return v <= 0.0f ? 0 : v >= (float) max_value ? max_value : (int) v;
}

CV_HD int
cv_finish_double (double acc, float divisor, float bias, int max_value)
{
  double v = floor (acc / (double) divisor + (double) bias + 0.5);

  return v <= 0.0 ? 0 : v >= (double) max_value ? max_value : (int) v;
}

/* What a row of constant border contributes in the separable path's second
 * pass: the row taps applied to border_value, summed in this order. */
CV_HD float
cv_border_row_sum (const cvcore_conv_plan * plan)
{
  float sum = 0.0f;

  for (int i = 0; i < plan->width; i++)
    sum += plan->row[i] * plan->border_value;
  return sum;
}

#endif /* CONVOLVE_COMMON_H */
