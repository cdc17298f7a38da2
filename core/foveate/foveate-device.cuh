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

/* What the foveation's CUDA kernels share: the plan as a launch parameter
 * and the tensor-core kernel's entry points. */
#ifndef FOVEATE_DEVICE_CUH
#define FOVEATE_DEVICE_CUH

#include <cstddef>
#include <cstring>
#include <cuda_runtime.h>

#include "cvcore-private.h"
#include "foveate-common.h"

namespace cv_foveate {

/* A plan as a launch parameter: its fields and its first TAPS taps, which
 * make a whole plan when its bank has no more (cvfoveate.h). */
template <int TAPS>
struct alignas (alignof (cvcore_foveate_plan)) PlanParam
{
  unsigned char
      bytes[offsetof (cvcore_foveate_plan, taps) + TAPS * sizeof (float)];

  /* @plan's fields and its first @taps (at most TAPS) taps */
  __host__ void
  set (const cvcore_foveate_plan *plan, int taps)
  {
    memcpy (bytes, plan,
        offsetof (cvcore_foveate_plan, taps) + (size_t) taps * sizeof (float));
  }

  __host__ __device__ const cvcore_foveate_plan &
  plan () const
  {
    return *reinterpret_cast<const cvcore_foveate_plan *> (bytes);
  }
};

/* the plan with a bank that fits the launch, for kernels that read taps */
typedef PlanParam<CVCORE_FOVEATE_PARAM_TAPS> ParamPlan;
/* the plan's fields alone (1.6 KB, not 26), for kernels that read none */
typedef PlanParam<0> ParamFields;

/* The shared memory the tensor-core kernel needs for @plan with @channels
 * per pixel, @mask's of them blurred; 0 when it cannot take the frame
 * (smooth mode, a bank in device memory, a device older than sm_80,
 * samples not aligned for whole-pixel loads, a set of blurred channels
 * other than all of 1 or 2, or 3 or 4 of 4, a frame of 2 GB or more, or
 * taps whose sums could overflow). */
size_t mma_shared_bytes (const cvcore_device *device,
    const cvcore_foveate_plan *plan, const cvcore_image *src,
    const cvcore_image *dst, unsigned mask);

/* Queues the block-wise foveation of @src into @dst by @plan on the tensor
 * cores, its filters' operands in @stream's scratch memory; @shared from
 * mma_shared_bytes (). */
cvcore_status launch_mma (cvcore_stream *stream, const cvcore_image *src,
    const cvcore_image *dst, unsigned mask, const cvcore_foveate_plan *plan,
    size_t shared);

/* Whether launch_mma_luma_chroma () takes the two planes of @src, a luma
 * plane of one channel and its chroma of two, all blurred, by @plans with
 * @shared from mma_shared_bytes () each. */
bool mma_luma_chroma_fits (const cvcore_image *src,
    const cvcore_foveate_plan *const *plans, const size_t *shared);

/* launch_mma () of both planes of @src into those of @dst, in one launch. */
cvcore_status launch_mma_luma_chroma (cvcore_stream *stream,
    const cvcore_image *src, const cvcore_image *dst,
    const cvcore_foveate_plan *const *plans, const size_t *shared);

} /* namespace cv_foveate */

#endif /* FOVEATE_DEVICE_CUH */
