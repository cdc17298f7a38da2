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

/* The Gabor filter's coefficients, shared by the CPU reference and the
 * CUDA kernels. */
#ifndef GABOR_COMMON_H
#define GABOR_COMMON_H

#include "cvgabor.h"
#include "hostdevice.h"

CVCORE_BEGIN_DECLS

/* Filters of a call: the bank's orientations, then the Gaussian (no
 * modulation) that removes their DC response. */
#define CV_GABOR_MAX_FILTERS (CVCORE_GABOR_MAX_ORIENTATIONS + 1)
/* One direction (rows or columns) of one filter: causal feedback c[k]
 * (complex, for w[n - 1 - k]), anticausal d[k] (for out[n + 1 + k]), and
 * the factors that give each pass its steady state on a constant line.
 * CUDA runs each pass as three first-order sections in cascade, the same
 * filter: in single precision the direct form loses up to 1e-2 of the
 * response at large sigma, where the poles crowd near 1, the cascade
 * about 1e-6. */
/* CUDA runs each line as segments in parallel (see gabor.cu): few when
 * there are few lines, many when there are enough lines to fill the GPU
 * even so. */
#define CV_GABOR_SEGMENTS_FEW 16
#define CV_GABOR_SEGMENTS_MANY 32
typedef struct
{
  double omega;                 /* angular frequency along the direction */
  double c[3][2], d[3][2];
  double causal_init[2], anticausal_init[2];
  /* the cascade: pole[0][k] causal, pole[1][k] anticausal; section k's
   * state on a constant line of 1, init[dir][k] */
  double pole[2][3][2];
  double init[2][3][2];
  /* jump[m][dir]: the sections' states after a segment's samples with
   * zero input, from the states before it: the one-step transition to the
   * power of the segment length, with few (m = 0) or many (m = 1)
   * segments (CUDA only). Lower triangular: section k hears only sections
   * 0..k. */
  double jump[2][2][3][3][2];
} cv_gabor_pass;

typedef struct
{
  int n_filters;                /* orientations + 1 */
  int orientations;
  cvcore_gabor_method method;
  double sigma;
  double b;                     /* Young-van Vliet gain B */
  int radius;                   /* FIR: taps -radius..radius */
  cv_gabor_pass rows[CV_GABOR_MAX_FILTERS], cols[CV_GABOR_MAX_FILTERS];
  double dc[CV_GABOR_MAX_FILTERS];      /* response to a flat image */
  /* Orientations theta and 180 - theta filter rows at opposite
   * frequencies, so on a real image one's row response is the other's
   * conjugate: CUDA filters the rows of the row_passes[0..n_row_passes)
   * filters only, and writes filter f's rows, conjugated, for filter
   * row_mirror[f] too (-1: none). */
  int n_row_passes;
  int row_passes[CV_GABOR_MAX_FILTERS];
  int row_mirror[CV_GABOR_MAX_FILTERS];
} cv_gabor_plan;

/* CUDA scratch: the filters' planes (height x width each; the Gaussian's
 * real, the others complex), an auxiliary stack as large (transposed
 * planes for the recursive rows, width x height, or the FIR's row pass)
 * and the FIR taps. */
typedef struct
{
  void *planes;
  size_t plane_pitch;
  void *aux;
  size_t aux_pitch;             /* of the transposed layout */
  float *taps;
} cv_gabor_device_scratch;

/* Fills @plan for @params (valid); FIR taps are made by each backend from
 * sigma, radius and the passes' omega. */
void cv_gabor_plan_init (cv_gabor_plan * plan,
    const cvcore_gabor_params * params);

/* The segment jumps of lines of @width (rows) and @height (columns). */
void cv_gabor_plan_segments (cv_gabor_plan * plan, int width, int height);

/* Samples per segment of a line of @n in @segments segments; of a row (not
 * a column) when @row: then a multiple of 4, so that a segment of a row of
 * 8-bit samples starts on a 4-byte word (the last segments may be short
 * or empty). */
CV_HD int
cv_gabor_segment_length (int n, int segments, int row)
{
  const int len = (n + segments - 1) / segments;

  return row ? (len + 3) / 4 * 4 : len;
}

CVCORE_END_DECLS

#endif /* GABOR_COMMON_H */
