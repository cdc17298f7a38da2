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

/* Arithmetic of the blur-stack foveation shared by the CPU reference and
 * the CUDA kernels: the same float operations in the same order, so that
 * both backends make the same levels and the same output. */
#ifndef FOVEATE_STACK_COMMON_H
#define FOVEATE_STACK_COMMON_H

#include "foveate-common.h"

#include <stdint.h>

/* Levels and bases hold samples times 256 in 16 bits. */
#define CV_FOVEATE_STACK_ONE 256.0f
/* Levels' sigmas step by a fifth of an octave. */
#define CV_FOVEATE_STACK_LEVELS_PER_OCTAVE 5

/* 2^-@octave, exactly. */
CV_HD float
cv_foveate_octave_scale (int octave)
{
#ifdef __CUDA_ARCH__
  return __int_as_float ((127 - octave) << 23);
#else
  return ldexpf (1.0f, -octave);
#endif
}

/* Centre of pixel @i of octave @octave, in full-frame pixels. */
CV_HD float
cv_foveate_octave_centre (int i, int octave)
{
  return ((float) i + 0.5f) * (float) (1 << octave) - 0.5f;
}

/* A reach that bounds nothing */
#define CV_FOVEATE_STACK_FAR 1e30f

/* One pass of the stack: the blurred, possibly halved, copy of @src into
 * the rectangle [x0, x1) x [y0, y1) of @dst's grid. Output (X, Y) sums
 * taps[i] taps[j] src(step Y + first + i, step X + first + j), rows first,
 * edges clamped. */
typedef struct
{
  const void *src;
  bool src_bytes;               /* 8-bit samples, else 16-bit ones */
  size_t src_pitch;             /* samples */
  /* the source holds columns [src_x0, src_x0 + src_w) and rows likewise
   * of its grid, reads beyond clamped to them */
  int src_x0, src_y0, src_w, src_h;
  uint16_t *dst;
  size_t dst_pitch;             /* samples */
  int x0, y0, x1, y1;
  int step, first, n_taps;
  int taps;                     /* offset in the stack's taps */
  /* output pixels whose centres (full-frame pixels, octave @octave) lie
   * outside [reach_lo, reach_hi] from the fixation may be left out */
  int octave;
  float reach_lo, reach_hi, fix_x, fix_y;
  /* block-wise: only fragments whose centres lie [centre_lo, centre_hi]
   * from the fixation read the output, so a tile that no such fragment's
   * pixels read may be left out too */
  float centre_lo, centre_hi;
} cv_foveate_stack_pass;

/* Whether output pixel (@X, @Y) of @pass may be left out. */
CV_HD bool
cv_foveate_stack_unread (const cv_foveate_stack_pass * pass, int X, int Y)
{
  const float dx = cv_foveate_octave_centre (X, pass->octave) - pass->fix_x;
  const float dy = cv_foveate_octave_centre (Y, pass->octave) - pass->fix_y;
  const float d = sqrtf (cv_mul_rn (dx, dx) + cv_mul_rn (dy, dy));

  return d < pass->reach_lo || d > pass->reach_hi;
}

CV_HD float
cv_foveate_stack_load (const cv_foveate_stack_pass * pass, int row, int col,
    int c, int channels)
{
  const size_t i = (size_t) cv_clamp_index (row - pass->src_y0,
      pass->src_h) * pass->src_pitch + (size_t) cv_clamp_index (col -
      pass->src_x0, pass->src_w) * channels + c;

  return pass->src_bytes ? (float) ((const unsigned char *) pass->src)[i] :
      (float) ((const uint16_t *) pass->src)[i];
}

/* A pass's sum as a stored sample: 8-bit sources scale to the stack's
 * fixed point. */
CV_HD uint16_t
cv_foveate_stack_store (const cv_foveate_stack_pass * pass, float sum)
{
  const float v = pass->src_bytes ? cv_mul_rn (sum, CV_FOVEATE_STACK_ONE) : sum;
  const int r = (int) (v + 0.5f);

  return (uint16_t) (r > 65535 ? 65535 : r < 0 ? 0 : r);
}

/* Sigma of the point (@dx, @dy) from the fixation: the map's at its
 * @level when @plan has one, else the model's; 0 where the pixel is
 * copied. */
CV_HD float
cv_foveate_stack_point_sigma (const cvcore_foveate_plan * plan,
    const cvcore_foveate_stack * stack, float dx, float dy, float level)
{
  const float d = sqrtf (cv_mul_rn (dx, dx) + cv_mul_rn (dy, dy));
  const float s = stack->sigma_offset + cv_mul_rn (stack->sigma_slope, d);

  if (plan->map)
    return cv_mul_rn (level, stack->map_sigma);
  return s > stack->sigma_cutoff ? s : 0.0f;
}

/* Sigma at pixel (@x, @y) in smooth mode. */
CV_HD float
cv_foveate_stack_pixel_sigma (const cvcore_foveate_plan * plan,
    const cvcore_foveate_stack * stack, int x, int y)
{
  return cv_foveate_stack_point_sigma (plan, stack, (float) x + 0.5f -
      plan->fix_x, (float) y + 0.5f - plan->fix_y, plan->map ?
      cv_foveate_map_level (plan, x, y) : 0.0f);
}

/* Sigma of fragment (@gx, @gy) block-wise: that of its centre, or of the
 * map cell under it. */
CV_HD float
cv_foveate_stack_fragment_sigma (const cvcore_foveate_plan * plan,
    const cvcore_foveate_stack * stack, int gx, int gy)
{
  float dx, dy;

  cv_foveate_fragment_centre (plan, gx, gy, &dx, &dy);
  return cv_foveate_stack_point_sigma (plan, stack, dx, dy, plan->map ?
      cv_foveate_map_cell_at (plan, dx, dy) : 0.0f);
}

/* Sigma of pixel (@x, @y) by the plan's mode. */
CV_HD float
cv_foveate_stack_sigma (const cvcore_foveate_plan * plan,
    const cvcore_foveate_stack * stack, int x, int y)
{
  if (plan->smooth)
    return cv_foveate_stack_pixel_sigma (plan, stack, x, y);
  return cv_foveate_stack_fragment_sigma (plan, stack, (x - plan->origin_x) /
      plan->fragment, (y - plan->origin_y) / plan->fragment);
}

/* The last level whose sigma @sigma reaches, -1 below the first. Levels
 * step by CV_FOVEATE_STACK_LEVELS_PER_OCTAVE an octave of sigma from the
 * first, so a logarithm lands on it or next to it; comparing with the
 * levels' own sigmas settles it exactly. */
CV_HD int
cv_foveate_stack_level_below (const cvcore_foveate_stack * stack, float sigma)
{
  const int n = stack->n_levels;
#ifdef __CUDA_ARCH__
  const float octaves = __log2f (sigma) - __log2f (stack->level[0].sigma);
#else
  const float octaves = log2f (sigma / stack->level[0].sigma);
#endif
  const float guess = floorf (octaves * CV_FOVEATE_STACK_LEVELS_PER_OCTAVE);
  /* a NaN guess (no levels, or no sigma) starts below the first */
  int k = guess >= 0.0f ? (guess > (float) (n - 1) ? n - 1 : (int) guess) : -1;

  while (k + 1 < n && sigma >= stack->level[k + 1].sigma)
    k++;
  while (k >= 0 && sigma < stack->level[k].sigma)
    k--;
  return k;
}

/* Where a pixel reads a level: the four samples around it (their offsets
 * from the level's first, before the channel; a level holds under 2^32
 * samples) and its place between them. Exact at octave 0; halved levels
 * keep a pixel beyond the frame's edges for this, and reads stay within
 * what the level keeps. */
typedef struct
{
  const uint16_t *p;
  uint32_t a, b, d, e;
  float fu, fv;
} cv_foveate_stack_taps;

CV_HD void
cv_foveate_stack_reading (const cvcore_foveate_stack * stack,
    const uint16_t * memory, int channels, int level, int x, int y,
    cv_foveate_stack_taps * t)
{
  const cvcore_foveate_level *l = &stack->level[level];
  const int w = l->x1 - l->x0, h = l->y1 - l->y0;
  const uint32_t pitch = (uint32_t) (w * channels);
  const float scale = cv_foveate_octave_scale (l->octave);
  const float u = cv_mul_rn ((float) x + 0.5f, scale) - 0.5f;
  const float v = cv_mul_rn ((float) y + 0.5f, scale) - 0.5f;
  const float fi = floorf (u), fj = floorf (v);
  const int i0 = (int) fi - l->x0, j0 = (int) fj - l->y0;
  const uint32_t ia = (uint32_t) (cv_clamp_index (i0, w) * channels);
  const uint32_t ib = (uint32_t) (cv_clamp_index (i0 + 1, w) * channels);
  const uint32_t ja = (uint32_t) cv_clamp_index (j0, h) * pitch;
  const uint32_t jb = (uint32_t) cv_clamp_index (j0 + 1, h) * pitch;

  t->p = memory + (size_t) l->storage * channels;
  t->a = ja + ia;
  t->b = ja + ib;
  t->d = jb + ia;
  t->e = jb + ib;
  t->fu = u - fi;
  t->fv = v - fj;
}

/* The level's value from its four samples @a, @b (above) and @d, @e. */
CV_HD float
cv_foveate_stack_bilinear (const cv_foveate_stack_taps * t, float a, float b,
    float d, float e)
{
  const float top = cv_fma (t->fu, b - a, a);
  const float bottom = cv_fma (t->fu, e - d, d);

  return cv_fma (t->fv, bottom - top, top);
}

/* How a pixel of sigma @sigma mixes the two levels around it (the frame
 * itself below the first) so that the mixture's variance is sigma
 * squared: *@low (-1 the frame) and *@low + 1 with weight *@weight on the
 * latter; false when the pixel is copied. */
CV_HD bool
cv_foveate_stack_mixing (const cvcore_foveate_stack * stack, float sigma,
    int *low, float *weight)
{
  float low_sq;
  int k;

  if (sigma <= 0.0f || stack->n_levels == 0)
    return false;
  k = cv_foveate_stack_level_below (stack, sigma);
  *low = k;
  *weight = 0.0f;
  if (k + 1 < stack->n_levels) {
    low_sq = k < 0 ? 0.0f : stack->level[k].sigma_sq;
    *weight = (cv_mul_rn (sigma, sigma) - low_sq) /
        (stack->level[k + 1].sigma_sq - low_sq);
  }
  return true;
}

/* The output sample from the lower and upper levels' values. */
CV_HD int
cv_foveate_stack_mix (float low, float high, float weight)
{
  return cv_foveate_round (cv_mul_rn (cv_fma (weight, high - low, low),
          1.0f / CV_FOVEATE_STACK_ONE));
}

/* The frame's sample in the stack's fixed point. */
CV_HD float
cv_foveate_stack_fixed (int sample)
{
  return cv_mul_rn ((float) sample, CV_FOVEATE_STACK_ONE);
}

#endif /* FOVEATE_STACK_COMMON_H */
