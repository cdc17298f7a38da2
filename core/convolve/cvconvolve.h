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

/* cvconvolve: 2-D convolution of image planes, the compute behind
 * cudaconvolve.
 *
 * Taps are applied as written (correlation, as in OpenCV's filter2D): the
 * output at (x, y) is sum over (i, j) of taps[j][i] * in(x + i - anchor_x,
 * y + j - anchor_y), divided by the divisor, plus the bias, rounded half up
 * and saturated to the sample range. Pixels outside the plane come from the
 * border mode.
 *
 * Exactness: with integer taps whose worst-case sum fits 24 bits for the
 * sample type, accumulation in float is exact in any order, so CUDA and the
 * CPU reference agree bit for bit; with larger integer sums both accumulate
 * in double, also exactly. Fractional taps accumulate in float: results may
 * differ by one unit between backends.
 */
#ifndef CVCONVOLVE_H
#define CVCONVOLVE_H

#include "cvcore.h"

CVCORE_BEGIN_DECLS

#define CVCORE_CONVOLVE_MAX_SIZE 63
#define CVCORE_CONVOLVE_MAX_TAPS (CVCORE_CONVOLVE_MAX_SIZE * CVCORE_CONVOLVE_MAX_SIZE)
/* Largest tap magnitude the parser takes: keeps every sum finite. */
#define CVCORE_CONVOLVE_MAX_TAP 1e6
typedef enum
{
  CVCORE_BORDER_CLAMP,          /* aaa|abcd|ddd */
  CVCORE_BORDER_MIRROR,         /* cb|abcd|cb: reflection without repeat */
  CVCORE_BORDER_WRAP,           /* cd|abcd|ab */
  CVCORE_BORDER_CONSTANT,       /* vv|abcd|vv */
} cvcore_border;

typedef struct
{
  int width, height;
  float taps[CVCORE_CONVOLVE_MAX_TAPS]; /* row-major */
} cvcore_convolve_taps;

/* Parses rows of numbers separated by ';' (numbers by spaces, tabs or
 * commas), e.g. "1 2 1; 2 4 2; 1 2 1". Every row must have the same count,
 * at most CVCORE_CONVOLVE_MAX_SIZE rows and columns, each number finite and at
 * most CVCORE_CONVOLVE_MAX_TAP in magnitude. On failure returns false and says
 * why in @error.
 * Since: 0.1 */
bool cvcore_convolve_taps_parse (const char *text, cvcore_convolve_taps * taps,
    char *error, size_t error_size);

/* Everything a convolution needs, prepared once and used per frame.
 * Since: 0.1 */
typedef struct
{
  int width, height, anchor_x, anchor_y;
  float taps[CVCORE_CONVOLVE_MAX_TAPS];
  float divisor, bias;
  float reciprocal;             /* 1 / divisor */
  float bias_half;              /* bias + 1/2 */
  cvcore_border border;
  float border_value;
  bool use_double;              /* accumulate in double (large integer sums) */
  bool separable;               /* taps[j][i] == column[j] * row[i] */
  float row[CVCORE_CONVOLVE_MAX_SIZE];
  float column[CVCORE_CONVOLVE_MAX_SIZE];
} cvcore_convolve_plan;

/* Prepares a plan. @anchor_x/@anchor_y < 0 mean the centre (width / 2);
 * @divisor 0 means the sum of the taps, or 1 when that is 0. Fails on an
 * anchor outside the kernel.
 * Since: 0.1 */
cvcore_status cvcore_convolve_plan_init (cvcore_convolve_plan * plan,
    const cvcore_convolve_taps * taps, int anchor_x, int anchor_y,
    double divisor, double bias, cvcore_border border, double border_value,
    cvcore_sample sample);

/* Bytes of scratch memory cvcore_convolve() needs on @device for planes of
 * @width x @height x @channels: the CPU reference's separable intermediate;
 * 0 on CUDA, whose kernels keep theirs in shared memory.
 * Since: 0.1 */
size_t cvcore_convolve_scratch_size (const cvcore_device * device, int width,
    int height, int channels);

/* Queues the convolution of @src into @dst (same size, channels and sample
 * type, not the same memory) on @stream. Channels whose bit is clear in
 * @channel_mask are copied unchanged. @scratch holds at least
 * cvcore_convolve_scratch_size() bytes of the device's memory (NULL when
 * that is 0).
 * Since: 0.1 */
cvcore_status cvcore_convolve (cvcore_stream * stream,
    const cvcore_image * src, const cvcore_image * dst,
    unsigned channel_mask, const cvcore_convolve_plan * plan, void *scratch);

CVCORE_END_DECLS

#endif /* CVCONVOLVE_H */
