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

/* The tone mapping's per-size state and its backend entry points, called
 * by its dispatch (tonemap.c): the CPU reference (tonemap-cpu.c) and the
 * kernels' host side (tonemap.cu). */
#ifndef TONEMAP_PRIVATE_H
#define TONEMAP_PRIVATE_H

#include "cvtonemap.h"

CVCORE_BEGIN_DECLS

/* Partial sums of the log-average reduction: one triple (sum, min, max of the
 * logarithms) per block, at most this many blocks. */
#define CV_TONEMAP_MAX_PARTIALS 1024
typedef struct
{
  float *luminance;             /* Lw of every pixel (local operator) */
  size_t luminance_pitch;
  double *partials;             /* CV_TONEMAP_MAX_PARTIALS * 3 */
  cvcore_tonemap_adaptation *adaptation;        /* updated per frame */
  unsigned char *rgba;          /* NV12 output: the frame before conversion */
  size_t rgba_pitch;
} cv_tonemap_scratch;

struct cvcore_tonemapper
{
  cvcore_device *device;
  int width, height;
  cv_tonemap_scratch scratch;   /* device memory (CUDA) */
  bool reset;                   /* the next frame starts afresh */
  /* CPU reference */
  double *luminance;            /* Lw, width x height */
  double *row_sums;             /* prefix sums of L per row, (width + 1) x height */
  unsigned char *rgba;          /* the output before NV12 conversion */
  cvcore_tonemap_adaptation adapted;
};

/* Both leave tm->reset to the dispatch. */
cvcore_status cv_tonemap_cpu (cvcore_tonemapper * tm,
    const cvcore_tonemap_frame * src, const cvcore_tonemap_frame * dst,
    const cvcore_tonemap_params * params, double dt);
/* Makes scratch->rgba at the first NV12 frame. */
cvcore_status cv_tonemap_cuda (cvcore_stream * stream,
    cv_tonemap_scratch * scratch, const cvcore_tonemap_frame * src,
    const cvcore_tonemap_frame * dst, const cvcore_tonemap_params * params,
    double dt, bool reset);

CVCORE_END_DECLS

#endif /* TONEMAP_PRIVATE_H */
