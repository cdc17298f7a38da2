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

/* The host side of a launch, the same in every operation's .cu file: the
 * device's context, the stream, the shared-memory opt-in and the check
 * after queueing. */
#ifndef CV_LAUNCH_CUH
#define CV_LAUNCH_CUH

#include <cuda_runtime.h>

#include "cvcore-private.h"

/* The CUDA stream behind @stream. */
static inline cudaStream_t
cv_cuda_stream (const cvcore_stream *stream)
{
  return static_cast<cudaStream_t> (cvcore_stream_handle (stream));
}

/* Lets @kernel take @shared bytes of dynamic shared memory per block, as
 * far as the device allows: past 48 KiB a kernel must opt in. */
template <typename Kernel>
static inline cvcore_status
cv_cuda_opt_in (const cvcore_device *device, Kernel kernel, size_t shared)
{
  if (shared > 48 * 1024)
    return cv_cuda_set_attribute (device,
        reinterpret_cast<const void *> (kernel),
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared);
  return CVCORE_OK;
}

/* cv_cuda_opt_in(), with an error naming the tile (@what) where @shared is
 * past the device's limit. */
template <typename Kernel>
static inline cvcore_status
cv_cuda_use_shared (const cvcore_device *device, Kernel kernel, size_t shared,
    const char *what)
{
  if (shared > device->shared_per_block_optin)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s of %zu bytes exceeds the device's shared memory", what, shared);
  return cv_cuda_opt_in (device, kernel, shared);
}

/* Lets @kernel's blocks keep most of an SM's memory as shared memory, for
 * more of them an SM where each takes much of it. */
template <typename Kernel>
static inline cvcore_status
cv_cuda_prefer_shared (const cvcore_device *device, Kernel kernel)
{
  return cv_cuda_set_attribute (device, reinterpret_cast<const void *> (kernel),
      cudaFuncAttributePreferredSharedMemoryCarveout,
      cudaSharedmemCarveoutMaxShared);
}

/* After queueing a kernel: a bad configuration fails here, not later. */
#define CV_CUDA_LAUNCHED() CUDA_TRY (cudaGetLastError ())

/* Launches @kernel on @stream; with @after_kernel, behind the kernel
 * queued just before it on that stream (programmatic dependent launch,
 * sm_90 and newer): the GPU readies it while that kernel runs and starts
 * its blocks as that kernel's last ones finish, without a launch's round
 * trip between the two. Such a @kernel must call cv_grid_wait() before it
 * reads or writes memory that kernel uses. Elsewhere, and without
 * @after_kernel (the stream's last work may be a copy or an event), an
 * ordinary launch. */
template <typename... Params, typename... Args>
static inline cudaError_t
cv_cuda_launch_chained (const cvcore_stream *stream, bool after_kernel,
    void (*kernel) (Params...), dim3 grid, dim3 block, Args... args)
{
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute overlap = {};

  config.gridDim = grid;
  config.blockDim = block;
  config.stream = cv_cuda_stream (stream);
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  if (after_kernel && cvcore_stream_device (stream)->compute_capability >= 90) {
    config.attrs = &overlap;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx (&config, kernel, args...);
}

/* In a kernel that cv_cuda_launch_chained() queued: waits until the
 * kernel before it has finished and its writes are visible; at once
 * otherwise. */
__device__ __forceinline__ void
cv_grid_wait (void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

#endif /* CV_LAUNCH_CUH */
