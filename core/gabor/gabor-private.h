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

/* The Gabor filtering's scratch and its backend entry points, called by
 * its dispatch (gabor.c): the CPU reference (gabor-cpu.c) and the kernels'
 * host side (gabor.cu). */
#ifndef GABOR_PRIVATE_H
#define GABOR_PRIVATE_H

#include "gabor-common.h"
#include "cvcore-private.h"

CVCORE_BEGIN_DECLS

struct cvcore_gabor_scratch
{
  cvcore_device *device;
  int width, height, max_filters;
  /* complex planes, one per filter: float on CUDA, double on the CPU */
  void *planes;
  size_t plane_pitch;           /* bytes between rows */
  cv_gabor_device_scratch dev;  /* CUDA: the planes and the rest */
  cv_gabor_plan plan;
  cvcore_gabor_params planned;  /* what the plan was made for */
  bool plan_valid;
};

cvcore_status cv_gabor_cpu (cvcore_gabor_scratch * g,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_gabor_params * params, const cv_gabor_plan * plan);
cvcore_status cv_gabor_cuda (cvcore_stream * stream,
    const cv_gabor_device_scratch * scratch, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_gabor_params * params,
    const cv_gabor_plan * plan);

/* Filter @o's response, less the Gaussian's share, as (re, im) floats. */
cvcore_status cv_gabor_response_cpu (const cvcore_gabor_scratch * g, int o,
    float *re_im);
cvcore_status cv_gabor_response_cuda (const cvcore_gabor_scratch * g,
    cvcore_stream * stream, int o, float *re_im);

CVCORE_END_DECLS

#endif /* GABOR_PRIVATE_H */
