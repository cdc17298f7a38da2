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

/* A rig's correlation: the checks, the dispatch, and its pyramid of
 * reduced views from coarse to fine. */
#include "clt-fit-common.h"
#include "clt-private.h"
#include "clt-rig-common.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct cvcore_clt_rig_pyramid
{
  cvcore_device *device;
  int levels, views;
  int width[CVCORE_CLT_MAX_LEVELS + 1], height[CVCORE_CLT_MAX_LEVELS + 1];
  /* [view][level] from level 1, each with room for 16-bit samples */
  void *image[CVCORE_CLT_MAX_VIEWS][CVCORE_CLT_MAX_LEVELS + 1];
  size_t pitch[CVCORE_CLT_MAX_VIEWS][CVCORE_CLT_MAX_LEVELS + 1];
  /* disparities of the levels above 0 */
  cvcore_clt_match *matches[CVCORE_CLT_MAX_LEVELS + 1];
  /* level 0's disparities before the fit, and view 0's tile shapes */
  cvcore_clt_match *unfitted;
  float *shapes;
  /* the matching's stream beside the caller's */
  CvCltSideStream matching;
};

int
cvcore_clt_rig_pairs (const cvcore_clt_rig * rig)
{
  return rig->pairs > 0 ? rig->pairs : rig->views * (rig->views - 1) / 2;
}

/* The baselines of the pairs that @rig correlates, shortest first and
 * longest second (each -1 where a pair is not of the rig's views). */
static void
rig_baselines (const cvcore_clt_rig * rig, double *shortest, double *longest)
{
  *shortest = HUGE_VAL;
  *longest = 0.0;
  for (int p = 0; p < cvcore_clt_rig_pairs (rig); p++) {
    int i, j;
    double baseline;

    if (rig->pairs > 0) {
      i = rig->pair[p][0];
      j = rig->pair[p][1];
      if (i >= j || j >= rig->views) {
        *shortest = *longest = -1.0;
        return;
      }
    } else {
      cv_clt_rig_every_pair (p, rig->views, &i, &j);
    }
    baseline = hypot (rig->x[j] - rig->x[i], rig->y[j] - rig->y[i]);
    *shortest = fmin (*shortest, baseline);
    *longest = fmax (*longest, baseline);
  }
}

/* The rig's centres are finite, its chosen pairs are of its views, and
 * no pair's cameras are in one place. The longest baseline, which sets
 * the search's step, goes to @longest. */
static bool
rig_valid (const cvcore_clt_rig * rig, double *longest)
{
  double shortest;

  if (rig->views < 2 || rig->views > CVCORE_CLT_MAX_VIEWS || rig->pairs < 0
      || rig->pairs > CVCORE_CLT_RIG_MAX_PAIRS)
    return false;
  for (int v = 0; v < rig->views; v++)
    if (!(fabs (rig->x[v]) <= 1e3 && fabs (rig->y[v]) <= 1e3))
      return false;
  rig_baselines (rig, &shortest, longest);
  return shortest >= 1e-3;
}

double
cvcore_clt_rig_longest (const cvcore_clt_rig * rig)
{
  double longest;

  return rig_valid (rig, &longest) ? longest : 0.0;
}

/* The tiles that keep their confidence in the matches a caller gets. */
static cv_clt_rig_keep
reported_keep (const cvcore_clt_corr_params * params)
{
  return params->keep_left_frame ? CV_CLT_RIG_KEEP_EVERY :
      CV_CLT_RIG_KEEP_NEAR_FRAME;
}

/* cvcore_clt_rig_correlate() with the tiles that keep their confidence
 * chosen by @keep. */
static cvcore_status
rig_correlate (cvcore_stream * stream, const cvcore_image * views,
    int channel, const cvcore_clt_rig * rig,
    const cvcore_clt_corr_params * params, cv_clt_rig_keep keep,
    cvcore_clt_match * matches, float *surfaces)
{
  double longest = 0.0;
  bool same = rig_valid (rig, &longest);

  for (int v = 0; same && v < rig->views; v++)
    same = views[v].width == views[0].width
        && views[v].height == views[0].height
        && views[v].channels == views[0].channels
        && views[v].sample == views[0].sample;
  if (!same || views[0].width < 1 || views[0].height < 1 || channel < 0
      || channel >= views[0].channels || params->search_radius < 1
      || params->search_radius > CVCORE_CLT_MAX_SEARCH
      || params->refinements < 0
      || params->refinements > CVCORE_CLT_MAX_REFINEMENTS
      || !(params->converge >= 0.0 && params->converge <= 1.0)
      || !(fabs (params->initial_x) <= CVCORE_CLT_MAX_SHIFT)
      || !(params->fat_zero >= 0.0) || !(params->full_scale > 0.0)
      || !(params->lowpass >= 0.0 && params->lowpass <= 16.0))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "rig correlation of %d views (%s), radius %d, %d refinements",
        rig->views, same ? "of one size" : "differing, or an invalid rig",
        params->search_radius, params->refinements);
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_rig_correlate_cpu (views, channel, rig, longest, params, keep,
          matches, surfaces),
      cv_clt_rig_correlate_cuda (stream, views, channel, rig, longest,
          params, keep, matches, surfaces));
}

cvcore_status
cvcore_clt_rig_correlate (cvcore_stream * stream, const cvcore_image * views,
    int channel, const cvcore_clt_rig * rig,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches,
    float *surfaces)
{
  return rig_correlate (stream, views, channel, rig, params,
      reported_keep (params), matches, surfaces);
}

cvcore_status
cvcore_clt_rig_pyramid_new (cvcore_device * device, int width, int height,
    int levels, int views, cvcore_clt_rig_pyramid ** pyramid)
{
  cvcore_clt_rig_pyramid *p;
  cvcore_status status = CVCORE_OK;

  *pyramid = NULL;
  if (width < 1 || height < 1 || levels < 0 || levels > CVCORE_CLT_MAX_LEVELS
      || views < 2 || views > CVCORE_CLT_MAX_VIEWS)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "rig pyramid of %d views, %d levels for %dx%d", views, levels, width,
        height);
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "rig pyramid");
  p->device = device;
  p->views = views;
  p->width[0] = width;
  p->height[0] = height;
  while (p->levels < levels
      && (p->width[p->levels] + 1) / 2 >= CVCORE_CLT_MIN_LEVEL_SIDE
      && (p->height[p->levels] + 1) / 2 >= CVCORE_CLT_MIN_LEVEL_SIDE) {
    p->width[p->levels + 1] = (p->width[p->levels] + 1) / 2;
    p->height[p->levels + 1] = (p->height[p->levels] + 1) / 2;
    p->levels++;
  }
  for (int l = 1; l <= p->levels && status == CVCORE_OK; l++) {
    for (int v = 0; v < views && status == CVCORE_OK; v++)
      status = cvcore_plane_alloc (device, sizeof (uint16_t) * p->width[l],
          p->height[l], &p->image[v][l], &p->pitch[v][l]);
    if (status == CVCORE_OK)
      status = cvcore_device_alloc (device, sizeof (cvcore_clt_match) *
          cvcore_clt_tiles (p->width[l]) * cvcore_clt_tiles (p->height[l]),
          (void **) &p->matches[l]);
  }
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device, sizeof (cvcore_clt_match) *
        cvcore_clt_tiles (width) * cvcore_clt_tiles (height),
        (void **) &p->unfitted);
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device, CVCORE_CLT_SHAPE_FLOATS *
        sizeof (float) * cvcore_clt_tiles (width) * cvcore_clt_tiles (height),
        (void **) &p->shapes);
  if (status == CVCORE_OK)
    status = cv_clt_side_stream_init (device, &p->matching);
  if (status != CVCORE_OK) {
    cvcore_clt_rig_pyramid_free (p);
    return status;
  }
  *pyramid = p;
  return CVCORE_OK;
}

void
cvcore_clt_rig_pyramid_free (cvcore_clt_rig_pyramid * pyramid)
{
  if (pyramid == NULL)
    return;
  for (int l = 0; l <= CVCORE_CLT_MAX_LEVELS; l++) {
    for (int v = 0; v < CVCORE_CLT_MAX_VIEWS; v++)
      if (pyramid->image[v][l])
        cvcore_device_free (pyramid->device, pyramid->image[v][l]);
    if (pyramid->matches[l])
      cvcore_device_free (pyramid->device, pyramid->matches[l]);
  }
  if (pyramid->unfitted)
    cvcore_device_free (pyramid->device, pyramid->unfitted);
  if (pyramid->shapes)
    cvcore_device_free (pyramid->device, pyramid->shapes);
  cv_clt_side_stream_clear (&pyramid->matching);
  free (pyramid);
}

/* The views at level @level: the frames themselves at 0. */
static void
level_views (const cvcore_clt_rig_pyramid * p, const cvcore_image * views,
    int level, cvcore_image * out)
{
  for (int v = 0; v < p->views; v++) {
    if (level == 0) {
      out[v] = views[v];
      continue;
    }
    out[v] = (cvcore_image) {
    .data = p->image[v][level],.pitch = p->pitch[v][level],.width =
          p->width[level],.height = p->height[level],.channels = 1,.sample =
          views[v].sample,};
  }
}

/* @rig's views as its disparities' fit sees them: where a tile's window
 * lies in each, per unit of disparity. */
static CvCltFitViews
rig_fit_views (const cvcore_clt_rig * rig)
{
  CvCltFitViews views = { true, 0.0f, 0.0f, 0.0f, 0.0f };

  for (int v = 1; v < rig->views; v++) {
    const float ox = (float) -(rig->x[v] - rig->x[0]);
    const float oy = (float) -(rig->y[v] - rig->y[0]);

    views.min_x = fminf (views.min_x, ox);
    views.max_x = fmaxf (views.max_x, ox);
    views.min_y = fminf (views.min_y, oy);
    views.max_y = fmaxf (views.max_y, oy);
  }
  return views;
}

/* Each level's disparities from coarse to fine on @stream, the finest
 * level's into @matches (not fitted), with its 2-D surfaces. */
static cvcore_status
match_levels (cvcore_stream * stream, cvcore_clt_rig_pyramid * pyramid,
    const cvcore_image * views, int channel, const cvcore_clt_rig * rig,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches,
    float *surfaces)
{
  cvcore_image level[CVCORE_CLT_MAX_VIEWS];
  cvcore_status status = CVCORE_OK;

  for (int l = pyramid->levels; l >= 0 && status == CVCORE_OK; l--) {
    cvcore_clt_corr_params at = *params;
    cvcore_clt_match *out = l > 0 ? pyramid->matches[l] : matches;

    level_views (pyramid, views, l, level);
    if (l < pyramid->levels) {
      at.guided = true;
      status = cvcore_clt_predict (stream, pyramid->matches[l + 1],
          pyramid->width[l], pyramid->height[l], out);
    } else {
      at.guided = false;
      at.initial_x = ldexp (params->initial_x, -l);
    }
    /* the coarser levels only predict, from tiles seen whole */
    if (status == CVCORE_OK)
      status = rig_correlate (stream, level, l > 0 ? 0 : channel, rig, &at,
          l > 0 ? CV_CLT_RIG_KEEP_WINDOW_INSIDE : reported_keep (params),
          out, l > 0 ? NULL : surfaces);
  }
  return status;
}

cvcore_status
cvcore_clt_rig_pyramid_correlate (cvcore_stream * stream,
    cvcore_clt_rig_pyramid * pyramid, const cvcore_image * views,
    int channel, const cvcore_clt_rig * rig,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches,
    float *surfaces)
{
  cvcore_image level[CVCORE_CLT_MAX_VIEWS], finer[CVCORE_CLT_MAX_VIEWS];
  CvCltFitViews fit_views;
  cvcore_status status = CVCORE_OK, matched, joined;

  if (rig->views != pyramid->views)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "rig of %d views in a pyramid for %d", rig->views, pyramid->views);
  fit_views = rig_fit_views (rig);
  for (int v = 0; v < rig->views; v++)
    if (views[v].width != pyramid->width[0]
        || views[v].height != pyramid->height[0])
      return cv_fail (CVCORE_ERROR_INVALID_VALUE,
          "view %d of %dx%d in a rig pyramid for %dx%d", v, views[v].width,
          views[v].height, pyramid->width[0], pyramid->height[0]);
  for (int l = 1; l <= pyramid->levels && status == CVCORE_OK; l++) {
    level_views (pyramid, views, l - 1, finer);
    level_views (pyramid, views, l, level);
    /* each level after the first behind the one before */
    status = cv_clt_reduce_frames (stream, rig->views, finer,
        l > 1 ? 0 : channel, level, l > 1);
  }
  if (status != CVCORE_OK)
    return status;
  if (params->fit_radius > 0) {
    /* The matching is a chain of launches, few blocks each but the last;
     * the shapes, which only the fit reads, fill the device beside it. */
    status = cv_clt_side_stream_fork (&pyramid->matching, stream);
    if (status != CVCORE_OK)
      return status;
    matched = match_levels (pyramid->matching.stream, pyramid, views,
        channel, rig, params, pyramid->unfitted, surfaces);
    status = cvcore_clt_shapes (stream, &views[0], channel, pyramid->shapes);
    /* joined even after a failure: @stream's later work must follow all
     * of it */
    joined = cv_clt_side_stream_join (&pyramid->matching, stream);
    if (joined != CVCORE_OK)
      return joined;
    if (matched != CVCORE_OK)
      return matched;
    if (status == CVCORE_OK)
      status = cv_clt_fit_checked (stream, pyramid->shapes, pyramid->unfitted,
          pyramid->width[0], pyramid->height[0], params->fit_radius,
          &fit_views, false, matches);
    return status;
  }
  return match_levels (stream, pyramid, views, channel, rig, params, matches,
      surfaces);
}
