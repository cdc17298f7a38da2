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

/* Foveation's model (blur by eccentricity), its Gaussian filters, and the
 * plan a frame is rendered by: what every rendering and backend shares. */
#include "foveate-private.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void
cvcore_foveate_model_init (cvcore_foveate_model * model)
{
  model->ct0 = 1.0 / 64.0;
  model->alpha = 0.106;
  model->e2 = 2.3;
  model->max_frequency = 30.0;
  model->corner_eccentricity = 100.0;
  model->strength = 1.0;
}

double
cvcore_foveate_sigma (const cvcore_foveate_model * model, double eccentricity)
{
  const double f_c = model->e2 / (model->alpha * (eccentricity + model->e2)) *
      log (1.0 / model->ct0);
  double f_p;

  if (f_c >= model->max_frequency)
    return 0.0;
  f_p = 0.5 * f_c / model->max_frequency;
  return model->strength / (2.0 * CV_PI * f_p);
}

/* Top-left of the fragment grid: one fragment is centred on @fix (pixels),
 * and the grid starts at or before pixel 0. */
static int
grid_origin (double fix, int fragment)
{
  int o = (int) floor (fix - 0.5 * fragment + 0.5);

  o %= fragment;
  if (o > 0)
    o -= fragment;
  return o;
}

void
cv_foveate_gaussian (double sigma, int count, double centre, double *weights)
{
  double sum = 0.0;

  for (int j = 0; j < count; j++)
    sum += weights[j] =
        exp (-(j - centre) * (j - centre) / (2.0 * sigma * sigma));
  for (int j = 0; j < count; j++)
    weights[j] /= sum;
}

/* Appends a normalised Gaussian of @sigma to the plan's bank. */
static cvcore_status
add_filter (cvcore_foveate_plan * plan, double sigma, float threshold)
{
  const int f = plan->n_filters;
  int taps = (int) ceil (6.0 * sigma), radius;
  double weights[2 * CVCORE_FOVEATE_MAX_RADIUS + 1];

  if (taps % 2 == 0)
    taps++;
  radius = taps / 2;
  if (f >= CVCORE_FOVEATE_MAX_FILTERS || radius > CVCORE_FOVEATE_MAX_RADIUS
      || plan->n_taps + taps > CVCORE_FOVEATE_MAX_TAPS)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "the foveation needs more or larger filters than the bank holds "
        "(%d filters, %d taps, sigma up to %.1f)", CVCORE_FOVEATE_MAX_FILTERS,
        CVCORE_FOVEATE_MAX_TAPS, sigma);
  plan->threshold[f] = threshold;
  plan->sigma[f] = (float) sigma;
  plan->radius[f] = radius;
  plan->offset[f] = plan->n_taps;
  cv_foveate_gaussian (sigma, taps, radius, weights);
  for (int i = 0; i < taps; i++)
    plan->taps[plan->n_taps + i] = (float) weights[i];
  plan->n_taps += taps;
  if (radius > plan->max_radius)
    plan->max_radius = radius;
  plan->n_filters++;
  return CVCORE_OK;
}

/* Farthest a fragment centre of the plan lies from the fixation. */
static double
farthest_centre (const cvcore_foveate_plan * plan)
{
  const double half = 0.5 * plan->fragment;
  const double xs[2] = { plan->origin_x + half,
    plan->origin_x + (plan->grid_w - 1) * plan->fragment + half
  };
  const double ys[2] = { plan->origin_y + half,
    plan->origin_y + (plan->grid_h - 1) * plan->fragment + half
  };
  double d = 0.0;

  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      d = fmax (d, hypot (xs[i] - plan->fix_x, ys[j] - plan->fix_y));
  return d;
}

/* What a bank is built along: whole distances from the fixation (the
 * model), or a blur map's levels. */
typedef struct
{
  const cvcore_foveate_model *model;
  double span;                  /* the half-diagonal, or sigma at level 255 */
  bool levels;
  double max_sigma;             /* blur beyond is rendered at this sigma */
} BankWalk;

static double
walk_sigma (const BankWalk * walk, int v)
{
  return fmin (walk->max_sigma, walk->levels ? walk->span * v / 255.0 :
      cvcore_foveate_sigma (walk->model, v / walk->span *
          walk->model->corner_eccentricity));
}

/* The bank for sigma steps of @ratio: walking @first..@last, a new filter
 * starts wherever the quantised sigma steps up, its threshold the value
 * where it does; filter 0 copies. */
static cvcore_status
build_steps (cvcore_foveate_plan * plan, const BankWalk * walk, int first,
    int last, double ratio)
{
  const double ratio_log = log (ratio);
  long last_step = LONG_MIN;

  plan->n_filters = 1;
  plan->n_taps = 0;
  plan->max_radius = 0;
  plan->sigma_ratio = ratio;
  for (int v = first; v <= last; v++) {
    const double sigma = walk_sigma (walk, v);
    long step;
    cvcore_status status;

    if (sigma <= 0.0)
      continue;
    step = lround (log (sigma) / ratio_log);
    if (step <= last_step)
      continue;
    last_step = step;
    status = add_filter (plan, exp (step * ratio_log), (float) v);
    if (status != CVCORE_OK)
      return status;
  }
  return CVCORE_OK;
}

/* The model's bank: whole distances out to the farthest fragment centre. */
static cvcore_status
build_bank (cvcore_foveate_plan * plan, const cvcore_foveate_model * model,
    double ratio, double max_sigma)
{
  const BankWalk walk = { model, 0.5 * hypot (plan->width, plan->height),
    false, max_sigma
  };

  return build_steps (plan, &walk, 0, (int) ceil (farthest_centre (plan)),
      ratio);
}

/* A blur map's bank: every level from the lowest that occurs to the
 * highest (smooth rendering interpolates between). */
static cvcore_status
build_map_bank (cvcore_foveate_plan * plan, const cvcore_foveate_model * model,
    const cvcore_foveate_map * map, double ratio, double max_sigma)
{
  const BankWalk walk = { model, cvcore_foveate_sigma (model,
        model->corner_eccentricity), true, max_sigma
  };
  int lowest = 255, highest = 0;

  for (int level = 0; level < 256; level++)
    if (map->used[level]) {
      lowest = level < lowest ? level : lowest;
      highest = level;
    }
  return build_steps (plan, &walk, lowest > 1 ? lowest : 1, highest, ratio);
}

/* Checks the arguments and lays out the fragment grid of @plan. */
static cvcore_status
plan_setup (cvcore_foveate_plan * plan, const cvcore_foveate_model * model,
    int width, int height, int fragment, double fix_x, double fix_y)
{
  if (fragment != 8 && fragment != 16 && fragment != 32)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "fragment size %d (8, 16 or 32)", fragment);
  if (width < 1 || height < 1 || !isfinite (fix_x) || !isfinite (fix_y)
      || !(model->ct0 > 0.0 && model->ct0 < 1.0) || !(model->alpha > 0.0)
      || !(model->e2 > 0.0) || !(model->max_frequency > 0.0)
      || !(model->corner_eccentricity >= 0.0) || !(model->strength > 0.0))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "foveation of %dx%d with an invalid model or fixation", width, height);

  memset (plan, 0, offsetof (cvcore_foveate_plan, taps));
  plan->render = CVCORE_FOVEATE_RENDER_AUTO;
  plan->bank_capped = false;
  memset (&plan->stack, 0, offsetof (cvcore_foveate_stack, taps));
  plan->width = width;
  plan->height = height;
  plan->fragment = fragment;
  plan->fix_x = (float) (fix_x * width);
  plan->fix_y = (float) (fix_y * height);
  plan->origin_x = grid_origin (plan->fix_x, fragment);
  plan->origin_y = grid_origin (plan->fix_y, fragment);
  plan->grid_w = (width - plan->origin_x + fragment - 1) / fragment;
  plan->grid_h = (height - plan->origin_y + fragment - 1) / fragment;
  return CVCORE_OK;
}

/* The bank at the finest quantisation that fits: from the model, or from
 * @map when given. When even the coarsest steps do not fit (strong blur
 * over large frames), the blur is capped at the largest sigma whose bank
 * fits, the widest filter the bank holds at most: a stronger setting then
 * looks like the strongest that fits, and never stops the stream. */
static cvcore_status
build_finest_bank (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, const cvcore_foveate_map * map)
{
  static const double ratios[] =
      { CVCORE_FOVEATE_SIGMA_RATIO, 1.08, 1.15, 1.3 };
  const unsigned n_ratios = sizeof (ratios) / sizeof (ratios[0]);
  /* the widest filter: 6 sigma + 1 taps of radius CVCORE_FOVEATE_MAX_RADIUS */
  double max_sigma = CVCORE_FOVEATE_MAX_RADIUS / 3.0;
  cvcore_status status = CVCORE_OK;

  for (unsigned i = 0; i < n_ratios; i++) {
    status = map ? build_map_bank (plan, model, map, ratios[i], HUGE_VAL) :
        build_bank (plan, model, ratios[i], HUGE_VAL);
    if (status == CVCORE_OK)
      return status;
  }
  plan->bank_capped = true;
  for (; max_sigma >= 1.0; max_sigma *= 0.8) {
    status = map ? build_map_bank (plan, model, map, ratios[n_ratios - 1],
        max_sigma) : build_bank (plan, model, ratios[n_ratios - 1], max_sigma);
    if (status == CVCORE_OK)
      return status;
  }
  return status;
}

cvcore_status
cvcore_foveate_plan_init (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, int width, int height, int fragment,
    double fix_x, double fix_y)
{
  cvcore_status status = plan_setup (plan, model, width, height, fragment,
      fix_x, fix_y);

  if (status == CVCORE_OK)
    status = build_finest_bank (plan, model, NULL);
  return status == CVCORE_OK ? cv_foveate_stack_plan (plan, model,
      NULL) : status;
}

void
cvcore_foveate_map_scan (cvcore_foveate_map * map,
    const unsigned char *host_levels, size_t host_pitch)
{
  memset (map->used, 0, sizeof (map->used));
  for (int y = 0; y < map->height; y++)
    for (int x = 0; x < map->width; x++)
      map->used[host_levels[(size_t) y * host_pitch + x]] = true;
}

cvcore_status
cvcore_foveate_plan_init_map (cvcore_foveate_plan * plan,
    const cvcore_foveate_model * model, const cvcore_foveate_map * map,
    int width, int height, int fragment, double fix_x, double fix_y)
{
  cvcore_status status;

  if (map->levels == NULL || map->width < 1 || map->height < 1
      || map->pitch < (size_t) map->width)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "a %dx%d blur map", map->width, map->height);
  status = plan_setup (plan, model, width, height, fragment, fix_x, fix_y);
  if (status == CVCORE_OK)
    status = build_finest_bank (plan, model, map);
  if (status == CVCORE_OK)
    status = cv_foveate_stack_plan (plan, model, map);
  if (status != CVCORE_OK)
    return status;
  plan->map = map->levels;
  plan->map_pitch = map->pitch;
  plan->map_w = map->width;
  plan->map_h = map->height;
  return CVCORE_OK;
}

/* Block-wise plans whose widest filter has at most this radius render
 * directly by default. The direct time grows with the radius and the
 * stack's hardly does: on an H100 at 1080p, direct 0.091 ms at radius 65
 * and 0.198 ms at 98, the stack 0.086 to 0.088 ms at radii 191 to 656. */
#define DIRECT_MAX_RADIUS 80

bool
cvcore_foveate_plan_stacked (const cvcore_foveate_plan * plan)
{
  switch (plan->render) {
    case CVCORE_FOVEATE_RENDER_DIRECT:
      return false;
    case CVCORE_FOVEATE_RENDER_STACK:
      return true;
    default:
      return plan->smooth || plan->bank_capped
          || plan->max_radius > DIRECT_MAX_RADIUS;
  }
}

int
cvcore_foveate_fragment_filter (const cvcore_foveate_plan * plan, int gx,
    int gy)
{
  return cv_foveate_filter (plan, gx, gy);
}
