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

/* cvgabor: Gabor filtering of a frame's luminance, the compute behind
 * cudagabor.
 *
 * The complex Gabor of isotropic Gaussian envelope sigma, wavelength lambda
 * and orientation theta, g (x, y) = G (x) G (y) e^{j (wx x + wy y)} with
 * (wx, wy) = 2 pi / lambda (cos theta, sin theta), separates into a 1-D
 * complex Gabor along rows then one along columns. Two methods:
 *
 *  - recursive (Young, van Vliet and van Ginkel 2002): each 1-D pass is the
 *    third-order Young-van Vliet recursive Gaussian (coefficients from
 *    sigma through q) with its poles rotated by e^{j w}: a causal pass with
 *    feedback a_k e^{j k w}, then an anticausal one with a_k e^{-j k w}.
 *    Lines start in the steady state of a constant extension of their
 *    first (last) sample, so a constant line gives its exact response. The
 *    cost per pixel does not depend on sigma.
 *  - fir: the sampled Gabor, truncated at 4 sigma, separable complex
 *    convolution with edges clamped.
 *
 * DC: the real part of a Gabor answers flat regions with K = the filter's
 * response at frequency 0. Both methods subtract K times the same method's
 * Gaussian (the filter without modulation) of the frame, so a flat image
 * gives zero response everywhere, borders included.
 *
 * A bank of `orientations` evenly spaced orientations from theta is
 * computed in one call; the output is per pixel the magnitude (energy over
 * the bank), the real or imaginary part or the phase of the strongest
 * orientation, or the index of the strongest orientation; or, on a
 * 4-channel output, the magnitudes of the first four orientations.
 */
#ifndef CVGABOR_H
#define CVGABOR_H

#include "cvcore.h"

CVCORE_BEGIN_DECLS

#define CVCORE_GABOR_MAX_ORIENTATIONS 16
#define CVCORE_GABOR_MIN_SIGMA 0.5
#define CVCORE_GABOR_MAX_SIGMA 64.0
typedef enum
{
  CVCORE_GABOR_RECURSIVE,
  CVCORE_GABOR_FIR,
} cvcore_gabor_method;

typedef enum
{
  CVCORE_GABOR_MAGNITUDE,
  CVCORE_GABOR_REAL,
  CVCORE_GABOR_IMAGINARY,
  CVCORE_GABOR_PHASE,
  CVCORE_GABOR_MAX_ORIENTATION,
} cvcore_gabor_output;

typedef struct
{
  double sigma;                 /* envelope, pixels */
  double wavelength;            /* pixels per cycle (>= 2) */
  double orientation;           /* degrees, of the first orientation */
  int orientations;             /* 1..16, spread over 180 degrees */
  cvcore_gabor_method method;
  cvcore_gabor_output output;
  double gain;                  /* response 1.0 maps to gain * full scale */
  /* Luminance of an interleaved source: sum of weight[c] * channel c. */
  double weight[4];
} cvcore_gabor_params;

/* Defaults: sigma 4, wavelength 8, orientation 0, 1 orientation,
 * recursive, magnitude, gain 1, weights of a 1-channel source.
 * Since: 0.1 */
void cvcore_gabor_params_init (cvcore_gabor_params * params);

/* Scratch for frames of one size and up to @max_orientations.
 * Since: 0.1 */
typedef struct cvcore_gabor_scratch cvcore_gabor_scratch;

cvcore_status cvcore_gabor_scratch_new (cvcore_device * device, int width,
    int height, int max_orientations, cvcore_gabor_scratch ** gabor);
void cvcore_gabor_scratch_free (cvcore_gabor_scratch * gabor);

/* Queues the filtering of @src (8 or 16-bit, 1 to 4 interleaved channels
 * combined by params->weight; full scale is 1.0) into @dst (1 channel of 8
 * or 16 bits, or 4 channels of 8 bits: four orientations' magnitudes) on
 * @stream.
 * Since: 0.1 */
cvcore_status cvcore_gabor (cvcore_stream * stream,
    cvcore_gabor_scratch * gabor, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_gabor_params * params);

/* The DC-compensated complex response of orientation @o from the last
 * call, as width x height pairs (real, imaginary) on the host; waits for
 * @stream.
 * Since: 0.1 */
cvcore_status cvcore_gabor_response (cvcore_gabor_scratch * gabor,
    cvcore_stream * stream, int o, float *re_im);

/* 1-D impulse response of the recursive complex Gabor (sigma, angular
 * frequency @omega) at taps -@radius..@radius, in double precision, into
 * @re_im (2 (2 radius + 1) values): for accuracy studies.
 * Since: 0.1 */
void cvcore_gabor_impulse_1d (double sigma, double omega, int radius,
    double *re_im);

CVCORE_END_DECLS

#endif /* CVGABOR_H */
