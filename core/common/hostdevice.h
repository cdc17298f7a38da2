/* What the CPU reference and the CUDA kernels of every operation share:
 * functions marked CV_HD compile for both, so that both backends run the
 * same arithmetic. Each operation's X-common.h builds on this. */
#ifndef CV_HOSTDEVICE_H
#define CV_HOSTDEVICE_H

#ifdef __CUDACC__
#define CV_HD __host__ __device__ __forceinline__
#else
#define CV_HD static inline
#endif

#define CV_PI 3.14159265358979323846

/* Index of position @i of a row of @n samples mirrored at its ends without
 * repeating them (cb|abcd|cb). */
CV_HD int
cv_mirror_index (int i, int n)
{
  const int period = 2 * n - 2;

  /* the common case without a division */
  if (i >= 0 && i < n)
    return i;
  if (n == 1)
    return 0;
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}

#endif /* CV_HOSTDEVICE_H */
