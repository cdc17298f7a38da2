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

/* Warp-level tensor-core pieces shared by the kernels that multiply
 * half-precision operands into float sums (m16n8k16) or 8-bit ones into
 * integer sums (m16n8k32, see mma_u8), sm_80 and later.
 *
 * Fragment layout of m16n8k16 (group = lane / 4, pair = 2 (lane % 4)):
 * A register 0 holds row group, columns pair and pair + 1; register 1 row
 * group + 8; registers 2 and 3 the same rows 8 columns on. B register 0
 * holds rows pair and pair + 1 of column group, register 1 those rows + 8.
 * Accumulator element q is row group (+ 8 for q >= 2), column
 * pair + (q & 1). */
#ifndef MMA_DEVICE_CUH
#define MMA_DEVICE_CUH

#include <cuda_fp16.h>

namespace cv_mma {

__device__ __forceinline__ unsigned
pack_halves (__half lo, __half hi)
{
  return (unsigned) __half_as_ushort (lo)
      | ((unsigned) __half_as_ushort (hi) << 16);
}

/* @w0 and @w1 as two half pairs whose sum keeps about 22 significant bits:
 * the nearest halves, then what they missed. */
__device__ __forceinline__ void
split_pair (float w0, float w1, unsigned *high, unsigned *low)
{
  const __half h0 = __float2half_rn (w0), h1 = __float2half_rn (w1);

  *high = pack_halves (h0, h1);
  *low = pack_halves (__float2half_rn (w0 - __half2float (h0)),
      __float2half_rn (w1 - __half2float (h1)));
}

/* Four 8x8 matrices of 16-bit elements (rows of 16 bytes); lanes 8 i to
 * 8 i + 7 address the rows of matrix i. */
__device__ __forceinline__ void
load_matrices (const void *row, unsigned r[4])
{
  const unsigned address = (unsigned) __cvta_generic_to_shared (row);

  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

/* d += a b; callers launch it on sm_80 and later only. */
__device__ __forceinline__ void
mma (float d[4], const unsigned a[4], unsigned b0, unsigned b1)
{
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap ();
#endif
}

/* d += a b over 8-bit unsigned operands (m16n8k32: each register holds
 * four neighbouring k of a row of A or a column of B, the first in the
 * lowest byte; register 1 of A rows + 8, registers 2 and 3 the same rows
 * 16 k on, register 1 of B 16 k on); exact sums; sm_80 and later. */
__device__ __forceinline__ void
mma_u8 (int d[4], const unsigned a[4], unsigned b0, unsigned b1)
{
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap ();
#endif
}

} /* namespace cv_mma */

#endif /* MMA_DEVICE_CUH */
