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

/* A kernel that occupies a stream for a given time, so that work queued
 * behind it starts only once all of it has been queued. */
#include <cuda_runtime.h>

#include "cvcore-private.h"
#include "launch.cuh"

namespace {

__device__ __forceinline__ unsigned long long
global_ns ()
{
  unsigned long long t;

  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void
wait_ns (unsigned long long ns)
{
  const unsigned long long start = global_ns ();

  while (global_ns () - start < ns)
    __nanosleep (1000);
}

} /* namespace */

extern "C" cvcore_status
cv_cuda_stream_delay (void *stream, double ms)
{
  wait_ns<<<1, 1, 0, (cudaStream_t) stream>>> ((unsigned long long) (ms * 1e6));
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
