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

/* Foveation through a blur stack: its plan, its passes and the dispatch.
 *
 * Levels blur the frame at sigmas 0.35 px x 2^(k/5). A level is kept at
 * the coarsest halving of the frame where its sigma still spans two of the
 * halving's pixels (so that bilinear reading adds little); it is made from
 * that halving's base, the frame blurred to 1.25 of those pixels (little
 * enough aliasing when halved), by a Gaussian of at most 4 of them. Each
 * output pixel mixes the two levels around its sigma so that the mixture's
 * variance is its sigma squared; the cost per pixel is that of a few
 * dozen taps whatever the blur. A level is made only where pixels read it:
 * around the fixation, the band of distances whose sigmas it serves (on
 * CUDA, block-wise, only the tiles under fragments of those sigmas).
 *
 * The frame's edges are clamped, as in the direct rendering. Halvings
 * keep STACK_MARGIN pixels beyond the frame on every side, made from the
 * clamped frame like the rest: beyond a few of their pixels the blurred
 * clamped frame no longer changes across the edge, so reading clamped
 * there costs nothing, where clamping a halving at the frame's edge would
 * shift the edge's blur. */
#include "foveate-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STACK_FIRST_SIGMA 0.35
/* a level's sigma in its octave's pixels, at least */
#define STACK_LEVEL_OWN_SIGMA 2.0
/* an octave's base sigma, in its own pixels */
#define STACK_BASE_OWN_SIGMA 1.25
/* blur beyond this many frame sides is rendered at that */
#define STACK_MAX_SIGMA_SIDES 2.0
#define FAR CV_FOVEATE_STACK_FAR
/* pixels a halving keeps beyond the frame: a level's taps reach 12 */
#define STACK_MARGIN 16

/* Appends @count normalised Gaussian taps of @sigma, tap j at j - @centre;
 * returns their offset. */
static int
add_taps (cvcore_foveate_plan * plan, int *n, double sigma, int count,
    double centre)
{
  const int offset = *n;
  double weights[CV_FOVEATE_STACK_MAX_TAPS];

  cv_foveate_gaussian (sigma, count, centre, weights);
  for (int j = 0; j < count; j++)
    plan->stack.taps[offset + j] = (float) weights[j];
  *n += count;
  return offset;
}

static double
base_sigma (int octave)
{
  return octave > 0 ? STACK_BASE_OWN_SIGMA * ldexp (1.0, octave) : 0.0;
}

/* Farthest a pixel centre, or a fragment centre, lies from the fixation. */
static double
farthest (const cvcore_foveate_plan * plan)
{
  const double half = 0.5 * plan->fragment;
  const double xs[4] = { 0.5, plan->width - 0.5, plan->origin_x + half,
    plan->origin_x + (plan->grid_w - 1) * plan->fragment + half
  };
  const double ys[4] = { 0.5, plan->height - 0.5, plan->origin_y + half,
    plan->origin_y + (plan->grid_h - 1) * plan->fragment + half
  };
  double d = 0.0;

  for (int i = 0; i < 4; i++)
    d = fmax (d, hypot (xs[i] - plan->fix_x, ys[i] - plan->fix_y));
  return d;
}

/* Distance from the fixation at which the model's sigma is @sigma. */
static double
model_distance (const cvcore_foveate_plan * plan, double sigma)
{
  return (sigma - plan->stack.sigma_offset) / plan->stack.sigma_slope;
}

/* [*@lo, *@hi) of an axis of @n octave pixels whose centres lie within
 * @reach of @fix, at least one pixel; halvings' levels keep one pixel
 * beyond each edge, which bilinear reading at the edge needs. */
static void
reach_span (double fix, double reach, int octave, int n, int *lo, int *hi)
{
  const double scale = ldexp (1.0, -octave);
  const int first = octave > 0 ? -1 : 0, end = octave > 0 ? n + 1 : n;

  *lo = first;
  *hi = end;
  if (reach >= FAR)
    return;
  *lo = (int) fmax (first, floor ((fix - reach + 0.5) * scale - 0.5));
  *hi = (int) fmin (end, ceil ((fix + reach + 0.5) * scale - 0.5) + 1.0);
  if (*lo >= *hi) {
    *lo = *lo >= end ? end - 1 : *lo;
    *hi = *lo + 1;
  }
}

/* How much farther from the fixation than its fragment's centre a pixel
 * may lie, block-wise. */
static double
fragment_reach (const cvcore_foveate_plan * plan)
{
  return 0.75 * plan->fragment;
}

/* Distances from the fixation of the centres of the fragments that read
 * level @k block-wise, [*@lo, *@hi]: a fragment reads the levels either
 * side of its sigma, so those between the levels around @k's, above the
 * cut below which fragments are copied. Widened a little, as the
 * rendering's float sigmas may round across a level's. Unbounded where
 * the sigma does not follow the distance. */
static void
fragment_band (const cvcore_foveate_plan * plan, int k, float *lo, float *hi)
{
  const cvcore_foveate_stack *stack = &plan->stack;
  double near = -FAR, far = FAR;

  if (!plan->smooth && plan->map == NULL && stack->sigma_slope > 0.0f) {
    near = model_distance (plan, stack->sigma_cutoff);
    if (k > 0)
      near = fmax (near, model_distance (plan, stack->level[k - 1].sigma));
    if (k + 1 < stack->n_levels)
      far = model_distance (plan, stack->level[k + 1].sigma);
    near -= 0.5 + 1e-3 * fabs (near);
    far = far >= FAR ? FAR : far + 0.5 + 1e-3 * fabs (far);
  }
  *lo = (float) near;
  *hi = (float) far;
}

/* Level @k's sigma, octave, taps, reach and storage: the reach is smooth
 * mode's, and block-wise rendering widens it (cv_foveate_stack_passes). */
static cvcore_status
plan_level (cvcore_foveate_plan * plan, int k, double step, bool banded,
    int *n_taps, size_t *storage)
{
  cvcore_foveate_level *l = &plan->stack.level[k];
  cvcore_foveate_level_making *m = &plan->stack.making[k];
  const double sigma = STACK_FIRST_SIGMA * pow (step, k);
  const int o = sigma < 2.0 * STACK_LEVEL_OWN_SIGMA ? 0 :
      (int) floor (log2 (sigma / STACK_LEVEL_OWN_SIGMA));
  const double scale = ldexp (1.0, o);
  /* bilinear reading adds a sixth of a pixel's square, on average */
  const double own = sqrt (sigma * sigma - base_sigma (o) * base_sigma (o) -
      (o > 0 ? scale * scale / 6.0 : 0.0)) / scale;
  /* bilinear neighbours; block-wise, pixels lie up to 0.71 fragments from
   * the centre that sets their sigma */
  const double margin = 1.5 * scale + 2.0;
  const double block_margin = fragment_reach (plan);
  double near = 0.0, far = FAR;

  l->sigma = (float) sigma;
  l->sigma_sq = (float) ((double) l->sigma * l->sigma);
  l->octave = o;
  m->radius = (int) ceil (3.0 * own);
  m->offset = add_taps (plan, n_taps, own, 2 * m->radius + 1, m->radius);
  /* pixels between the levels either side read it */
  if (banded && k > 0)
    near = fmax (0.0, model_distance (plan, STACK_FIRST_SIGMA * pow (step,
                k - 1)));
  if (banded && k + 1 < plan->stack.n_levels)
    far = model_distance (plan, STACK_FIRST_SIGMA * pow (step, k + 1));
  m->reach_lo = (float) (near - margin);
  m->reach_hi = far >= FAR ? FAR : (float) (far + margin);
  reach_span (plan->fix_x, m->reach_hi + block_margin, o,
      plan->stack.octave[o].width, &l->x0, &l->x1);
  reach_span (plan->fix_y, m->reach_hi + block_margin, o,
      plan->stack.octave[o].height, &l->y0, &l->y1);
  /* four channels of a level stay under 2^32 samples */
  if (*storage > UINT32_MAX
      || (size_t) (l->x1 - l->x0) * (l->y1 - l->y0) > UINT32_MAX / 4)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "a blur stack too large for a %dx%d frame", plan->width, plan->height);
  l->storage = (uint32_t) * storage;
  *storage += (size_t) (l->x1 - l->x0) * (l->y1 - l->y0);
  return CVCORE_OK;
}

cvcore_status
cv_foveate_stack_plan (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, const cvcore_foveate_map * map)
{
  const double step = pow (2.0, 1.0 / CV_FOVEATE_STACK_LEVELS_PER_OCTAVE);
  const double per_degree = model->strength * model->max_frequency *
      model->alpha / (CV_PI * model->e2 * log (1.0 / model->ct0));
  const double half_diagonal = 0.5 * hypot (plan->width, plan->height);
  const double cap = STACK_MAX_SIGMA_SIDES * (plan->width > plan->height ?
      plan->width : plan->height);
  double widest;
  int n_taps = 0, highest = 0;
  size_t storage = 0;

  plan->stack.sigma_offset = (float) (per_degree * model->e2);
  plan->stack.sigma_slope = (float) (per_degree * model->corner_eccentricity /
      half_diagonal);
  plan->stack.sigma_cutoff = map ? 0.0f : (float) (model->strength / CV_PI);
  plan->stack.map_sigma = (float) (cvcore_foveate_sigma (model,
          model->corner_eccentricity) / 255.0);
  if (map) {
    for (int level = 0; level < 256; level++)
      highest = map->used[level] ? level : highest;
    widest = plan->stack.map_sigma * (double) highest;
  } else {
    widest =
        plan->stack.sigma_offset + plan->stack.sigma_slope * farthest (plan);
    widest = widest > plan->stack.sigma_cutoff ? widest : 0.0;
  }
  widest = fmin (widest, cap);
  plan->stack.n_levels =
      widest > 0.0 ? (int) ceil (log (widest / STACK_FIRST_SIGMA)
      / log (step) - 1e-9) + 1 : 0;
  plan->stack.n_levels = plan->stack.n_levels < 1
      && widest > 0.0 ? 1 : plan->stack.n_levels;
  if (plan->stack.n_levels > CVCORE_FOVEATE_MAX_LEVELS)
    plan->stack.n_levels = CVCORE_FOVEATE_MAX_LEVELS;

  /* the octaves up to the last level's, their bases first in memory */
  plan->stack.n_octaves = 1;
  if (plan->stack.n_levels > 0) {
    const double top = STACK_FIRST_SIGMA * pow (step, plan->stack.n_levels - 1);

    plan->stack.n_octaves = top < 2.0 * STACK_LEVEL_OWN_SIGMA ? 1 :
        (int) floor (log2 (top / STACK_LEVEL_OWN_SIGMA)) + 1;
  }
  if (plan->stack.n_octaves > CVCORE_FOVEATE_MAX_OCTAVES)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "a blur stack of %d octaves", plan->stack.n_octaves);
  plan->stack.octave[0].width = plan->width;
  plan->stack.octave[0].height = plan->height;
  for (int o = 1; o < plan->stack.n_octaves; o++) {
    cvcore_foveate_octave *oct = &plan->stack.octave[o];
    const double before = base_sigma (o - 1), after = base_sigma (o);
    /* from the octave before, in its pixels */
    const double sigma = sqrt (after * after - before * before) /
        ldexp (1.0, o - 1);
    const int radius = (int) ceil (3.0 * sigma + 0.5);

    oct->width = (plan->stack.octave[o - 1].width + 1) / 2;
    oct->height = (plan->stack.octave[o - 1].height + 1) / 2;
    oct->n_taps = 2 * radius;
    /* output i sits at 2 i + 0.5 of the octave before */
    oct->offset = add_taps (plan, &n_taps, sigma, oct->n_taps, radius - 0.5);
    oct->storage = storage;
    storage += (size_t) (oct->width + 2 * STACK_MARGIN) *
        (oct->height + 2 * STACK_MARGIN);
  }
  for (int k = 0; k < plan->stack.n_levels; k++) {
    const cvcore_status status = plan_level (plan, k, step, map == NULL
        && plan->stack.sigma_slope > 0.0f, &n_taps, &storage);

    if (status != CVCORE_OK)
      return status;
  }
  plan->stack.pixels = storage;
  return CVCORE_OK;
}

/* @pass reads octave @o's base: the frame, or a halving with its margin. */
static void
source (cv_foveate_stack_pass * pass, const cvcore_foveate_plan * plan, int o,
    const cvcore_image * src, uint16_t * memory)
{
  const cvcore_foveate_octave *oct = &plan->stack.octave[o];
  const int margin = o > 0 ? STACK_MARGIN : 0;

  pass->src = o == 0 ? src->data : (const void *) (memory + oct->storage *
      src->channels);
  pass->src_bytes = o == 0;
  pass->src_x0 = pass->src_y0 = -margin;
  pass->src_w = oct->width + 2 * margin;
  pass->src_h = oct->height + 2 * margin;
  pass->src_pitch = o == 0 ? src->pitch : (size_t) pass->src_w * src->channels;
}

int
cv_foveate_stack_passes (const cvcore_foveate_plan * plan,
    const cvcore_image * src, uint16_t * memory,
    cv_foveate_stack_pass passes[CVCORE_FOVEATE_MAX_OCTAVES +
        CVCORE_FOVEATE_MAX_LEVELS], int *n_bases)
{
  const int nc = src->channels;
  const float block_margin = (float) fragment_reach (plan);
  int n = 0;

  for (int o = 1; o < plan->stack.n_octaves; o++) {
    const cvcore_foveate_octave *oct = &plan->stack.octave[o];
    cv_foveate_stack_pass *p = &passes[n++];

    source (p, plan, o - 1, src, memory);
    p->dst = memory + oct->storage * nc;
    p->dst_pitch = (size_t) (oct->width + 2 * STACK_MARGIN) * nc;
    p->x0 = p->y0 = -STACK_MARGIN;
    p->x1 = oct->width + STACK_MARGIN;
    p->y1 = oct->height + STACK_MARGIN;
    p->step = 2;
    p->first = 1 - oct->n_taps / 2;
    p->n_taps = oct->n_taps;
    p->taps = oct->offset;
    p->octave = o;
    p->reach_lo = p->centre_lo = -FAR;
    p->reach_hi = p->centre_hi = FAR;
    p->fix_x = plan->fix_x;
    p->fix_y = plan->fix_y;
  }
  *n_bases = n;
  for (int k = 0; k < plan->stack.n_levels; k++) {
    const cvcore_foveate_level *l = &plan->stack.level[k];
    const cvcore_foveate_level_making *m = &plan->stack.making[k];
    cv_foveate_stack_pass *p = &passes[n++];

    source (p, plan, l->octave, src, memory);
    p->dst = memory + l->storage * nc;
    p->dst_pitch = (size_t) (l->x1 - l->x0) * nc;
    p->x0 = l->x0;
    p->y0 = l->y0;
    p->x1 = l->x1;
    p->y1 = l->y1;
    p->step = 1;
    p->first = -m->radius;
    p->n_taps = 2 * m->radius + 1;
    p->taps = m->offset;
    p->octave = l->octave;
    p->reach_lo = m->reach_lo - (plan->smooth ? 0.0f : block_margin);
    p->reach_hi = m->reach_hi + (plan->smooth ? 0.0f : block_margin);
    p->fix_x = plan->fix_x;
    p->fix_y = plan->fix_y;
    fragment_band (plan, k, &p->centre_lo, &p->centre_hi);
  }
  return n;
}

/* --- dispatch ----------------------------------------------------------- */

cvcore_status
cv_foveate_stack_render (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned mask, const cvcore_foveate_plan * plan)
{
  const size_t bytes = plan->stack.pixels * src->channels * sizeof (uint16_t);
  void *memory = NULL;
  bool kept;
  cvcore_status status;

  status = cv_stream_scratch (stream, bytes > 0 ? bytes : 1, NULL, 0,
      &memory, &kept);
  if (status != CVCORE_OK)
    return status;
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_foveate_stack_cpu (src, dst, mask, plan, memory),
      cv_foveate_stack_cuda (stream, src, dst, mask, plan, memory));
}
