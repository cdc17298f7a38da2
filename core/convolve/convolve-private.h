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

/* The convolution's backend entry points, called by its dispatch
 * (convolve.c): the CPU reference (convolve-cpu.c) and the kernels' host
 * side (convolve.cu). */
#ifndef CONVOLVE_PRIVATE_H
#define CONVOLVE_PRIVATE_H

#include "cvconvolve.h"

CVCORE_BEGIN_DECLS

/* @scratch holds width x height x channels floats for a separable plan. */
cvcore_status cv_convolve_cpu (const cvcore_image * src,
    const cvcore_image * dst, unsigned channel_mask,
    const cvcore_convolve_plan * plan, void *scratch);
cvcore_status cv_convolve_cuda (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst, unsigned channel_mask,
    const cvcore_convolve_plan * plan);

CVCORE_END_DECLS

#endif /* CONVOLVE_PRIVATE_H */
