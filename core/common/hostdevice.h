/* gst-cuda-vision
 * Copyright (C) 2026 The gst-cuda-vision authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version. It is distributed in the hope that it
 * will be useful, but WITHOUT ANY WARRANTY; see the GNU Lesser General
 * Public License (COPYING) for more details.
 */

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

/* @i clamped to [0, @n). */
CV_HD int
cv_clamp_index (int i, int n)
{
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Index of position @i of a row of @n samples mirrored at its ends without
 * repeating them (cb|abcd|cb); it keeps the parity of @i (but for @n = 1),
 * and with it the colour of a mosaic's site. */
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

/* @n / @d, rounded as IEEE division, where @d, @n and the quotient are
 * normal floats. On the device, the division's own steps without its
 * check for the other cases, which leads to a call that every division
 * pays for in branches; the same bits wherever the check would pass. */
CV_HD float
cv_divide_normal (float n, float d)
{
#ifdef __CUDA_ARCH__
  float y;

asm ("rcp.approx.ftz.f32 %0, %1;": "=f" (y):"f" (d));
  y = fmaf (fmaf (-d, y, 1.0f), y, y);
  {
    const float q = n * y;

    return fmaf (fmaf (-d, q, n), y, q);
  }
#else
  return n / d;
#endif
}

#endif /* CV_HOSTDEVICE_H */
