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

/* The motion-field fit on CUDA, a thread per tile. */
#include "clt-common.h"
#include "clt-fit-common.h"
#include "clt-private.h"
#include "launch.cuh"

namespace {

__global__ void
clt_fit (const cvcore_clt_match *matches, const float *shapes, int width,
    int height, int radius, bool isotropic, cvcore_clt_match *fitted)
{
  const int tile = blockIdx.x * blockDim.x + threadIdx.x;

  if (tile < cv_clt_tiles (width) * cv_clt_tiles (height))
    fitted[tile] = cv_clt_fit_match (matches, shapes, width, height, radius,
        isotropic, tile);
}

} /* namespace */

extern "C" cvcore_status
cv_clt_fit_cuda (cvcore_stream *stream, const float *shapes,
    const cvcore_clt_match *matches, int width, int height, int radius,
    bool isotropic, cvcore_clt_match *fitted)
{
  cudaStream_t cs = cv_cuda_stream (stream);
  const int tiles_x = cv_clt_tiles (width), tiles_y = cv_clt_tiles (height);

  CUDA_BIND (cvcore_stream_device (stream));
  clt_fit<<<(tiles_x * tiles_y + 127) / 128, 128, 0, cs>>> (matches, shapes,
      width, height, radius, isotropic, fitted);
  CV_CUDA_LAUNCHED ();
  return CVCORE_OK;
}
