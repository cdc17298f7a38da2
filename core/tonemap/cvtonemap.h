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

/* cvtonemap: photographic tone reproduction (Reinhard et al. 2002) with
 * box-filter dodging-and-burning on summed-area tables (Slomp and
 * Oliveira 2008), the compute behind cudatonemap.
 *
 * Per frame:
 *  1. world luminance Lw of every pixel (linear light, the weights of the
 *     frame's primaries), and the log-average
 *     Lbar = exp (mean (ln (delta + Lw))), with the extremes of
 *     ln (delta + Lw) for the automatic exposure;
 *  2. the log-average and extremes adapt over time: the three logarithms move towards the
 *     frame's with time constant adaptation_time (seconds);
 *  3. the exposure a is `key`, or with auto_key
 *     key * 4^((2 ln Lbar - ln Lmin - ln Lmax) / (ln Lmax - ln Lmin))
 *     (Reinhard's 2002 estimate, with `key` as its middle grey);
 *  4. scaled luminance L = a / Lbar * Lw, then
 *     global: Ld = L (1 + L / white^2) / (1 + L);
 *     local:  centre-surround activity between boxes of growing edge s_i
 *             (1, 3, 5, 7, 11, 17, 25, 39 pixels, clipped to the frame),
 *             W_i = (V_i - V_i+1) / (2^phi a / s_i^2 + V_i); the pyramid
 *             is walked up from the pixel itself (V_0 = L) while |W_i| <
 *             epsilon, and Ld = L / (1 + V) with V the centre where it
 *             stopped (at most the second largest box);
 *  5. colour: C_out = (C / Lw)^saturation * Ld, clamped to [0, 1], sRGB
 *     encoded to 8 bits (RGBA, BGRx, or NV12 through the BT.709 matrix).
 *
 * Sources: linear RGB or luminance, or PQ / HLG coded RGB or 4:2:0 Y'CbCr
 * (10-bit HDR video), decoded to linear light; BT.2020 colours are
 * converted to BT.709.
 *
 * The CUDA backend keeps everything on the device: the log-average and
 * its adaptation state never come back to the host. Box sums come from
 * summed-area tables of the scaled luminance built per tile in shared
 * memory, in double precision, so that a dark pixel beside a headlight
 * 1e5 times brighter still gets an accurate box average. The CPU backend
 * is the reference: the same operator in double precision.
 */
#ifndef CVTONEMAP_H
#define CVTONEMAP_H

#include "cvcore.h"

CVCORE_BEGIN_DECLS

#define CVCORE_TONEMAP_MAX_SCALES 8
typedef enum
{
  CVCORE_TONEMAP_GLOBAL,
  CVCORE_TONEMAP_LOCAL,
} cvcore_tonemap_operator;

/* Primaries of the source's RGB; BT.2020 colours are converted to BT.709
 * (the output's) in linear light.
 * Since: 0.1 */
typedef enum
{
  CVCORE_TONEMAP_BT709,
  CVCORE_TONEMAP_BT2020,
} cvcore_tonemap_primaries;

/* How source samples become light: as they are (linear), or through the
 * SMPTE ST 2084 (PQ) or ARIB STD-B67 (HLG) electro-optical transfer. PQ
 * gives 1.0 for 100 cd/m^2 (10000 cd/m^2 is 100.0); HLG gives scene light,
 * 1.0 at the signal's peak.
 * Since: 0.1 */
typedef enum
{
  CVCORE_TONEMAP_LINEAR,
  CVCORE_TONEMAP_PQ,
  CVCORE_TONEMAP_HLG,
} cvcore_tonemap_transfer;

typedef enum
{
  CVCORE_TONEMAP_PACKED,        /* plane 0: luminance, or R, G, B, A */
  CVCORE_TONEMAP_YUV420_SEMI,   /* Y', then Cb Cr interleaved at half size */
  CVCORE_TONEMAP_YUV420,        /* Y', Cb, Cr, chroma at half size */
} cvcore_tonemap_layout;

/* What the source frames hold.
 * Since: 0.1 */
typedef struct
{
  cvcore_tonemap_layout layout;
  cvcore_tonemap_transfer transfer;
  cvcore_tonemap_primaries primaries;
  /* Y'CbCr layouts: samples are shifted right by `shift` into code values;
   * Y' = (code - y_offset) / y_range, Cb, Cr = (code - c_offset) /
   * c_range; R'G'B' from Y'CbCr with the matrix of coefficients kr, kb.
   * Chroma of a pixel: its 2x2 block's sample. */
  int shift;
  double y_offset, y_range, c_offset, c_range;
  double kr, kb;
} cvcore_tonemap_source;

typedef enum
{
  CVCORE_TONEMAP_OUT_RGBA,
  CVCORE_TONEMAP_OUT_BGRX,
  /* 8-bit Y' plane and interleaved Cb Cr plane at half size: the sRGB
   * encoded R'G'B' through the BT.709 matrix, limited range; chroma is the
   * mean of each 2x2 block. */
  CVCORE_TONEMAP_OUT_NV12,
} cvcore_tonemap_output;

/* A frame's planes (1 for packed layouts and RGBA/BGRx, 2 for NV12 and
 * semi-planar Y'CbCr, 3 for planar Y'CbCr).
 * Since: 0.1 */
typedef struct
{
  cvcore_image plane[3];
} cvcore_tonemap_frame;

typedef struct
{
  cvcore_tonemap_operator op;
  double key;                   /* a: exposure, middle grey (0.18) */
  bool auto_key;
  double delta;                 /* offset inside the log-average */
  double white_point;           /* global: smallest L mapped to white */
  int scales;                   /* local: boxes in the pyramid, 2..8 */
  double phi;                   /* local: sharpening */
  double epsilon;               /* local: activity threshold */
  double saturation;            /* colour exponent */
  double input_scale;           /* linear light of a full-scale sample */
  double adaptation_time;       /* seconds; 0 follows each frame */
  cvcore_tonemap_source source;
  cvcore_tonemap_output output;
} cvcore_tonemap_params;

/* The adaptation after a frame: what the operator used. Throughout, "key"
 * is only Reinhard's key value (params.key, the middle grey).
 * Since: 0.1 */
typedef struct
{
  double log_average;           /* adapted ln Lbar */
  double log_min, log_max;      /* adapted extremes of ln (delta + Lw) */
  double exposure;              /* a */
  double scale;                 /* a / Lbar */
} cvcore_tonemap_adaptation;

/* Defaults of the thesis: local, key 0.18, delta 1e-4, white infinite,
 * 8 scales, phi 8, epsilon 0.025, saturation 1, input scale 1, no
 * adaptation; packed linear BT.709 source, RGBA output.
 * Since: 0.1 */
void cvcore_tonemap_params_init (cvcore_tonemap_params * params);

/* A 10-bit BT.2100 source (BT.2020 primaries and Y'CbCr matrix, limited
 * range) of @layout and @transfer, samples shifted left by @shift (6 for
 * P010, 0 for I420_10LE).
 * Since: 0.1 */
void cvcore_tonemap_source_init_bt2100 (cvcore_tonemap_source * source,
    cvcore_tonemap_layout layout, cvcore_tonemap_transfer transfer, int shift);

/* Edge, in pixels, of box @i of the pyramid (0 is the pixel itself).
 * Since: 0.1 */
int cvcore_tonemap_box_edge (int i);

/* Device scratch and adaptation state for frames of one size.
 * Since: 0.1 */
typedef struct cvcore_tonemapper cvcore_tonemapper;

cvcore_status cvcore_tonemapper_new (cvcore_device * device, int width,
    int height, cvcore_tonemapper ** tonemapper);
void cvcore_tonemapper_free (cvcore_tonemapper * tonemapper);
/* The next frame starts the adaptation afresh (after a flush or seek).
 * Since: 0.1 */
void cvcore_tonemapper_reset (cvcore_tonemapper * tonemapper);

/* Queues the tone mapping of @src (as params->source says; 8 or 16-bit
 * samples) into 8-bit @dst (as params->output says) on @stream. @dt is the
 * time since the previous frame in seconds (used only with adaptation).
 * Since: 0.1 */
cvcore_status cvcore_tonemap (cvcore_stream * stream,
    cvcore_tonemapper * tonemapper, const cvcore_tonemap_frame * src,
    const cvcore_tonemap_frame * dst, const cvcore_tonemap_params * params,
    double dt);

/* The adaptation after the last frame queued; waits for @stream.
 * Since: 0.1 */
cvcore_status cvcore_tonemapper_adaptation (cvcore_tonemapper * tonemapper,
    cvcore_stream * stream, cvcore_tonemap_adaptation * adapted);

CVCORE_END_DECLS

#endif /* CVTONEMAP_H */
