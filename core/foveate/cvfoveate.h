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

/* cvfoveate: block-wise Gaussian foveation, the compute behind cudafoveate.
 *
 * Model (Geisler and Perry's contrast threshold): at eccentricity e degrees
 * the finest resolvable frequency is
 *   f_c = e2 / (alpha (e + e2)) ln(1 / ct0)   cycles per degree,
 * capped at the retina's f_max; in cycles per pixel f_p = 0.5 f_c / f_max,
 * and the Gaussian that cuts off there has sigma = strength / (2 pi f_p).
 * Where f_c reaches f_max (sigma at or under 1 / pi) pixels are copied: the
 * fovea. Eccentricity grows linearly with the distance from the fixation
 * point, the frame's half-diagonal mapping to corner_eccentricity.
 *
 * Block-wise rendering: the frame is tiled into square fragments, shifted
 * so that one fragment is centred on the fixation point; every fragment is
 * blurred with the one filter its centre's eccentricity calls for (a
 * separable Gaussian of ceil(6 sigma) taps, made odd, normalised), rows
 * first into float, then columns, edges clamped, rounded half up. Sigmas
 * are quantised (4 % steps, coarser for strong foveation) so that a bank of distinct filters serves the
 * frame; which filter a fragment takes is decided by comparing its centre's
 * distance with the plan's thresholds, the same float arithmetic on every
 * backend.
 */
#ifndef CVFOVEATE_H
#define CVFOVEATE_H

#include "cvcore.h"

CVCORE_BEGIN_DECLS

/* Bank limits. On CUDA a bank of up to CVCORE_FOVEATE_PARAM_TAPS taps
 * travels with each launch (constant memory); a larger one is copied to
 * device memory for the frame, without waiting for the device. */
#define CVCORE_FOVEATE_MAX_FILTERS 96
#define CVCORE_FOVEATE_PARAM_TAPS 6144
#define CVCORE_FOVEATE_MAX_TAPS 32768
/* On CUDA a fragment's float rows are kept in shared memory: whole, or
 * for wide filters in strips of columns (down to 8 columns, 104 KB at
 * this radius); its padded tile is loaded in bands of rows. */
#define CVCORE_FOVEATE_MAX_RADIUS 1600
/* Sigmas are quantised on a geometric scale of this ratio, or a coarser
 * one when the bank would not hold the filters otherwise. */
#define CVCORE_FOVEATE_SIGMA_RATIO 1.04
/* Blur-stack limits: levels at sigma steps of 2^(1/5) from 0.35 px, and
 * the octaves (halvings of the frame) they are kept at. */
#define CVCORE_FOVEATE_MAX_LEVELS 64
#define CVCORE_FOVEATE_MAX_OCTAVES 16
#define CVCORE_FOVEATE_STACK_TAPS 2048
/* How a plan renders the frame. Direct: every fragment (or, smooth, every
 * filter a fragment's pixels blend) runs its exact Gaussian, so the cost
 * grows with the blur. Stack: the frame is blurred once into a stack of
 * levels at geometric sigma steps, the wide ones at reduced resolution,
 * and each pixel blends the two levels around its sigma, so the cost does
 * not depend on the blur. Auto takes the direct rendering for block-wise
 * plans of narrow filters, where it is faster, and the stack otherwise.
 * Since: 0.1 */
typedef enum
{
  CVCORE_FOVEATE_RENDER_AUTO,
  CVCORE_FOVEATE_RENDER_DIRECT,
  CVCORE_FOVEATE_RENDER_STACK,
} cvcore_foveate_render;

/* One level of the blur stack: the frame blurred to @sigma (full-frame
 * pixels), kept at 1 / 2^@octave of the frame's resolution over
 * [x0, x1) x [y0, y1) of that octave's grid, from pixel @storage of the
 * stack's memory on: what rendering reads.
 * Since: 0.1 */
typedef struct
{
  float sigma, sigma_sq;
  int octave;
  int x0, y0, x1, y1;
  uint32_t storage;
} cvcore_foveate_level;

/* How a level is made: the Gaussian from its octave's base to its sigma,
 * in the octave's pixels, is taps[offset .. offset + 2 radius]; only
 * pixels whose centres lie @reach_lo to @reach_hi full-frame pixels from
 * the fixation are read.
 * Since: 0.1 */
typedef struct
{
  int radius, offset;
  float reach_lo, reach_hi;
} cvcore_foveate_level_making;

/* A halving of the frame, @width x @height: its base is the frame
 * blurred to 1.25 of its pixels, made from the octave before by
 * taps[offset .. offset + n_taps) and every other sample (octave 0's base
 * is the frame), from pixel @storage of the stack's memory on.
 * Since: 0.1 */
typedef struct
{
  int width, height;
  int offset, n_taps;
  size_t storage;
} cvcore_foveate_octave;

typedef struct
{
  double ct0;                   /* minimum contrast threshold */
  double alpha;                 /* spatial frequency decay constant */
  double e2;                    /* half-resolution eccentricity, degrees */
  double max_frequency;         /* f_max, cycles per degree */
  double corner_eccentricity;   /* degrees at the frame's half-diagonal */
  double strength;              /* sigma multiplier */
} cvcore_foveate_model;

/* The published defaults: ct0 1/64, alpha 0.106, e2 2.3, f_max 30 cycles
 * per degree, 100 degrees at the corner, strength 1.
 * Since: 0.1 */
void cvcore_foveate_model_init (cvcore_foveate_model * model);

/* Sigma in pixels at @eccentricity degrees; 0 in the fovea.
 * Since: 0.1 */
double cvcore_foveate_sigma (const cvcore_foveate_model * model,
    double eccentricity);

/* The blur stack of a plan.
 * Since: 0.1 */
typedef struct
{
  /* Sigma in pixels: the model's at distance d from the fixation,
   * sigma_offset + sigma_slope d, or with a map level l's, map_sigma l;
   * sigma_cutoff and under copy (the fovea). */
  float sigma_offset, sigma_slope, sigma_cutoff, map_sigma;
  int n_levels, n_octaves;
  cvcore_foveate_level level[CVCORE_FOVEATE_MAX_LEVELS];
  /* what rendering reads ends here (2 KB: a launch's parameters stay
   * small) */
  size_t pixels;                /* memory of the bases and levels */
  cvcore_foveate_level_making making[CVCORE_FOVEATE_MAX_LEVELS];
  cvcore_foveate_octave octave[CVCORE_FOVEATE_MAX_OCTAVES];
  float taps[CVCORE_FOVEATE_STACK_TAPS];
} cvcore_foveate_stack;

/* Everything a frame needs once the model, frame size, fragment size and
 * fixation are known.
 * Since: 0.1 */
typedef struct
{
  int width, height;            /* frame */
  int fragment;                 /* 8, 16 or 32 */
  int origin_x, origin_y;       /* top-left of fragment (0, 0), <= 0 */
  int grid_w, grid_h;           /* fragments across and down */
  float fix_x, fix_y;           /* fixation, pixels (may be outside) */
  /* A fragment whose centre lies d pixels from the fixation takes the
   * highest filter f with d >= threshold[f]; filter 0 (threshold 0) copies.
   * Thresholds rise with f. */
  int n_filters;
  double sigma_ratio;           /* quantisation step of the bank */
  float threshold[CVCORE_FOVEATE_MAX_FILTERS];
  float sigma[CVCORE_FOVEATE_MAX_FILTERS];      /* quantised, 0 for the copy */
  int radius[CVCORE_FOVEATE_MAX_FILTERS];       /* taps = 2 radius + 1 */
  int offset[CVCORE_FOVEATE_MAX_FILTERS];       /* first tap in taps[] */
  int max_radius;
  int n_taps;
  /* Smooth mode (set after cvcore_foveate_plan_init): every pixel blends the
   * two filters around its own distance (cv_foveate_blend) instead of taking
   * its fragment's. */
  bool smooth;
  /* Blur map (cvcore_foveate_plan_init_map), or NULL. With a map the
   * thresholds are levels: a fragment takes the last filter whose
   * threshold the level of the cell under its centre reaches. */
  const unsigned char *map;
  size_t map_pitch;
  int map_w, map_h;
  /* The bank's taps, last: the fields above and taps[0 .. n_taps) make a
   * whole plan, so that a copy of only that much is one. */
  float taps[CVCORE_FOVEATE_MAX_TAPS];
  /* After the bank, so that the fields the direct kernels take as
   * parameters (everything before taps) stay 1.6 KB. How the frame
   * renders (cvcore_foveate_plan_stacked). A bank the limits above would not
   * hold uncapped leaves the direct rendering capped. */
  cvcore_foveate_render render;
  bool bank_capped;
  cvcore_foveate_stack stack;
} cvcore_foveate_plan;

/* A blur map: the blur wanted over the visual field, level 0 (sharp) to
 * 255 (the model's blur at corner_eccentricity, times strength), sigma in
 * proportion. It is stretched to the frame's size and centred on the
 * fixation point (clamped beyond its edges), and takes the place of the
 * eccentricity model's falloff, so that any retina, symmetric or not, can
 * be rendered.
 * Since: 0.1 */
typedef struct
{
  const unsigned char *levels;  /* in the memory of the plan's device */
  size_t pitch;
  int width, height;
  bool used[256];               /* levels that occur: see cvcore_foveate_map_scan */
} cvcore_foveate_map;

/* Sets @map's used[] from a host copy of its levels.
 * Since: 0.1 */
void cvcore_foveate_map_scan (cvcore_foveate_map * map,
    const unsigned char *host_levels, size_t host_pitch);

/* Prepares a plan for a @width x @height frame with the fixation at
 * (@fix_x, @fix_y) in frame fractions (0..1 inside the frame, anything
 * outside allowed). Fails when the fragment size is not 8, 16 or 32 or the
 * bank would exceed the limits above.
 * Since: 0.1 */
cvcore_status cvcore_foveate_plan_init (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, int width, int height, int fragment,
    double fix_x, double fix_y);

/* As cvcore_foveate_plan_init, with the blur taken from @map (its levels must
 * stay valid while the plan is used); the bank holds one filter per
 * quantised sigma of the levels from the lowest to the highest that
 * occurs. In smooth mode each pixel blends the two filters around its
 * level, interpolated bilinearly between cell centres.
 * Since: 0.1 */
cvcore_status cvcore_foveate_plan_init_map (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, const cvcore_foveate_map * map,
    int width, int height, int fragment, double fix_x, double fix_y);

/* Whether cvcore_foveate renders @plan through the blur stack.
 * Since: 0.1 */
bool cvcore_foveate_plan_stacked (const cvcore_foveate_plan * plan);

/* Index of the filter of fragment (@gx, @gy).
 * Since: 0.1 */
int cvcore_foveate_fragment_filter (const cvcore_foveate_plan * plan, int gx,
    int gy);

/* Queues the foveation of 8-bit @src into @dst (same size and channels, not
 * the same memory) on @stream; channels whose bit is clear in
 * @channel_mask are copied.
 * Since: 0.1 */
cvcore_status cvcore_foveate (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned channel_mask,
    const cvcore_foveate_plan * plan);

/* cvcore_foveate () of a frame's @n_planes planes (1 to 4): plane p of @src
 * into plane p of @dst, with @channel_masks[p] and @plans[p]. On CUDA a
 * luma plane and its interleaved chroma plane (NV12's two) share one
 * launch where the block-wise tensor-core kernel takes both; the result is
 * the same as plane by plane.
 * Since: 0.1 */
cvcore_status cvcore_foveate_planes (cvcore_stream * stream, int n_planes,
    const cvcore_image * src, const cvcore_image * dst,
    const unsigned *channel_masks, const cvcore_foveate_plan * const *plans);

/* Per-pixel ("perfect") foveation, on the host: every pixel of 8-bit @src
 * blurred with the Gaussian of its own, unquantised sigma, cut at 4 sigma
 * (edges clamped, as in the block-wise rendering). Slow; the quality
 * reference that the renderings are measured against. Both images in host
 * memory.
 * Since: 0.1 */
cvcore_status cvcore_foveate_perfect (const cvcore_foveate_model * model,
    const cvcore_image * src, const cvcore_image * dst,
    unsigned channel_mask, double fix_x, double fix_y);

CVCORE_END_DECLS

#endif /* CVFOVEATE_H */
