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

/* Arithmetic of the tone mapping shared by the CPU reference and the CUDA
 * kernels: the log-average, its adaptation, the exposure and the local scale
 * selection, all in double precision on both. */
#ifndef TONEMAP_COMMON_H
#define TONEMAP_COMMON_H

#include <math.h>

#include "hostdevice.h"
#include "cvtonemap.h"

/* Box edges of the pyramid: the pixel, then steps of about 1.6 (the
 * scales of Linnemann et al. that the thesis uses). */
#define CV_TONEMAP_EDGES { 1, 3, 5, 7, 11, 17, 25, 39 }

CV_HD int
cv_tonemap_edge (int i)
{
  const int edges[CVCORE_TONEMAP_MAX_SCALES] = CV_TONEMAP_EDGES;

  return edges[i];
}

/* Largest box half-width a frame's pyramid reaches. */
CV_HD int
cv_tonemap_max_radius (const cvcore_tonemap_params * params)
{
  return params->op == CVCORE_TONEMAP_LOCAL ?
      cv_tonemap_edge (params->scales - 1) / 2 : 0;
}

CV_HD void
cv_tonemap_weights (cvcore_tonemap_primaries primaries, double w[3])
{
  if (primaries == CVCORE_TONEMAP_BT2020) {
    w[0] = 0.2627;
    w[1] = 0.6780;
    w[2] = 0.0593;
  } else {
    w[0] = 0.2126;
    w[1] = 0.7152;
    w[2] = 0.0722;
  }
}

/* Linear BT.2020 RGB to linear BT.709 RGB (ITU-R BT.2087), row @r. */
CV_HD void
cv_tonemap_bt2020_to_bt709 (int r, double m[3])
{
  const double rows[3][3] = {
    {1.660491, -0.587641, -0.072850},
    {-0.124550, 1.132900, -0.008349},
    {-0.018151, -0.100579, 1.118730},
  };

  m[0] = rows[r][0];
  m[1] = rows[r][1];
  m[2] = rows[r][2];
}

/* Constants of the transfer functions: SMPTE ST 2084 (PQ), whose 1.0 is
 * 10000 cd/m^2 (CV_PQ_SCALE brings it to 1.0 = 100 cd/m^2), and ARIB
 * STD-B67 (HLG). */
#define CV_PQ_M1 (2610.0 / 16384.0)
#define CV_PQ_M2 (2523.0 / 4096.0 * 128.0)
#define CV_PQ_C1 (3424.0 / 4096.0)
#define CV_PQ_C2 (2413.0 / 4096.0 * 32.0)
#define CV_PQ_C3 (2392.0 / 4096.0 * 32.0)
#define CV_PQ_SCALE 100.0
#define CV_HLG_A 0.17883277
#define CV_HLG_B 0.28466892
#define CV_HLG_C 0.55991073

/* BT.709 Y'CbCr of the NV12 output, limited range. */
#define CV_NV12_KR 0.2126
#define CV_NV12_KB 0.0722

/* @state moves towards @now with time constant @tau; a reset or no
 * adaptation takes @now. */
CV_HD double
cv_tonemap_adapt (double state, double now, double dt, double tau, bool reset)
{
  if (reset || !(tau > 0.0))
    return now;
  if (!(dt > 0.0))
    return state;
  return state + (now - state) * (1.0 - exp (-dt / tau));
}

/* The frame's log-average and exposure from the sums of its logarithms, adapted from @prev
 * (ignored on @reset). */
CV_HD void
cv_tonemap_update_adaptation (const cvcore_tonemap_params * params,
    double log_sum, double log_min, double log_max, double n, double dt,
    bool reset, const cvcore_tonemap_adaptation * prev,
    cvcore_tonemap_adaptation * adapted)
{
  double spread;

  adapted->log_average = cv_tonemap_adapt (prev->log_average, log_sum / n, dt,
      params->adaptation_time, reset);
  adapted->log_min = cv_tonemap_adapt (prev->log_min, log_min, dt,
      params->adaptation_time, reset);
  adapted->log_max = cv_tonemap_adapt (prev->log_max, log_max, dt,
      params->adaptation_time, reset);
  adapted->exposure = params->key;
  spread = adapted->log_max - adapted->log_min;
  if (params->auto_key && spread > 1e-9)
    adapted->exposure = params->key * pow (4.0, (2.0 * adapted->log_average -
            adapted->log_min - adapted->log_max) / spread);
  adapted->scale = adapted->exposure / exp (adapted->log_average);
}

/* Reinhard's global curve; an infinite white point gives L / (1 + L). */
CV_HD double
cv_tonemap_global (double l, double white)
{
  return l * (1.0 + l / (white * white)) / (1.0 + l);
}

/* 1 / edge^2 of box @i. */
CV_HD double
cv_tonemap_inverse_area (int i)
{
  const double inverse[CVCORE_TONEMAP_MAX_SCALES] =
      { 1.0, 1.0 / 9.0, 1.0 / 25.0,
    1.0 / 49.0, 1.0 / 121.0, 1.0 / 289.0, 1.0 / 625.0, 1.0 / 1521.0
  };

  return inverse[i];
}

/* Whether the walk up the pyramid goes on past centre box @i (average
 * @vc) to the next (@vs): the centre-surround activity
 * W = (vc - vs) / (2^phi a / s_i^2 + vc) stays under epsilon. Written
 * without the division: the denominator is positive. @threshold_scale is
 * 2^phi a. */
CV_HD bool
cv_tonemap_keeps_walking (double vc, double vs, int i, double threshold_scale,
    double epsilon)
{
  return fabs (vc - vs) <
      epsilon * (threshold_scale * cv_tonemap_inverse_area (i)
      + vc);
}

#endif /* TONEMAP_COMMON_H */
