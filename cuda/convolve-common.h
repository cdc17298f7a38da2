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

/* floor(@v) for 0 <= @v < 2^23. On the GPU the float-to-integer converter
 * is a quarter-rate unit; adding 2^23 rounding toward zero leaves floor(v)
 * in the mantissa instead. */
CV_HD int
cv_floor_small (float v)
{
#ifdef __CUDA_ARCH__
  return __float_as_int (__fadd_rz (v, 8388608.0f)) - 0x4B000000;
#else
  return (int) floorf (v);
#endif
}

/* acc / divisor + bias, rounded half up and saturated, with @bias_half =
 * bias + 1/2 (rounded once, when the plan is made). The quotient comes
 * from the reciprocal (1 / divisor, rounded) and one correction step
 * (Markstein), which gives the correctly rounded quotient without a
 * division; CPU and GPU run the same steps. */
CV_HD int
cv_finish_float (float acc, float divisor, float reciprocal,
    float bias_half, int max_value)
{
#ifdef __CUDA_ARCH__
  const float q0 = __fmul_rn (acc, reciprocal);
#else
  const float q0 = acc * reciprocal;
#endif
  const float q = fmaf (fmaf (-q0, divisor, acc), reciprocal, q0);
  const float v = q + bias_half;

  return cv_floor_small (fminf (fmaxf (v, 0.0f), (float) max_value));
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
