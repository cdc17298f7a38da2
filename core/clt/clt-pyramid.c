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

/* CLT phase correlation from coarse to fine: the reductions, the
 * predictions and the pyramids that chain them with the forward transform
 * and the correlation. */
#include "clt-private.h"

#include <stdint.h>
#include <stdlib.h>

struct cvcore_clt_pyramid
{
  cvcore_device *device;
  int levels;
  int width[CVCORE_CLT_MAX_LEVELS + 1], height[CVCORE_CLT_MAX_LEVELS + 1];
  /* [slot][level]; images from level 1, each with room for 16-bit samples */
  void *image[2][CVCORE_CLT_MAX_LEVELS + 1];
  size_t pitch[2][CVCORE_CLT_MAX_LEVELS + 1];
  cvcore_sample sample[2];
  float *coefficients[2][CVCORE_CLT_MAX_LEVELS + 1];
  /* matches of the levels above 0 */
  cvcore_clt_match *matches[CVCORE_CLT_MAX_LEVELS + 1];
  /* level 0's matches before the fit, and each frame's tile shapes */
  cvcore_clt_match *unfitted;
  float *shapes[2];
  /* cvcore_clt_pyramid_build_and_correlate's matching stream, made when
   * first needed */
  CvCltSideStream matching;
};

cvcore_status
cv_clt_reduce_frames (cvcore_stream * stream, int count,
    const cvcore_image * src, int channel, const cvcore_image * dst,
    bool after_kernel)
{
  if (count < 1 || count > CVCORE_CLT_MAX_VIEWS)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "reduction of %d frames at once", count);
  for (int f = 0; f < count; f++)
    if (channel < 0 || channel >= src[f].channels || src[f].width < 1
        || src[f].height < 1 || dst[f].channels != 1
        || dst[f].sample != src[f].sample
        || dst[f].width != (src[f].width + 1) / 2
        || dst[f].height != (src[f].height + 1) / 2
        || src[f].width != src[0].width || src[f].height != src[0].height)
      return cv_fail (CVCORE_ERROR_INVALID_VALUE,
          "reduction of channel %d of frame %d, %dx%dx%d, to %dx%dx%d "
          "(frame 0: %dx%d)", channel, f, src[f].width, src[f].height,
          src[f].channels, dst[f].width, dst[f].height, dst[f].channels,
          src[0].width, src[0].height);
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_reduce_cpu (count, src, channel, dst),
      cv_clt_reduce_cuda (stream, count, src, channel, dst, after_kernel));
}

cvcore_status
cvcore_clt_reduce (cvcore_stream * stream, const cvcore_image * src,
    int channel, const cvcore_image * dst)
{
  return cv_clt_reduce_frames (stream, 1, src, channel, dst, false);
}

cvcore_status
cvcore_clt_predict (cvcore_stream * stream, const cvcore_clt_match * coarse,
    int width, int height, cvcore_clt_match * matches)
{
  if (width < 1 || height < 1)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "prediction for %dx%d", width, height);
  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_clt_predict_cpu (coarse, width, height, matches),
      cv_clt_predict_cuda (stream, coarse, width, height, matches));
}

static size_t
level_tiles (const cvcore_clt_pyramid * p, int level)
{
  return (size_t) cvcore_clt_tiles (p->width[level]) *
      cvcore_clt_tiles (p->height[level]);
}

cvcore_status
cvcore_clt_pyramid_new (cvcore_device * device, int width, int height,
    int levels, cvcore_clt_pyramid ** pyramid)
{
  cvcore_clt_pyramid *p;
  cvcore_status status = CVCORE_OK;

  *pyramid = NULL;
  if (width < 1 || height < 1 || levels < 0 || levels > CVCORE_CLT_MAX_LEVELS)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "pyramid of %d levels for %dx%d", levels, width, height);
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "CLT pyramid");
  p->device = device;
  p->width[0] = width;
  p->height[0] = height;
  while (p->levels < levels
      && (p->width[p->levels] + 1) / 2 >= CVCORE_CLT_MIN_LEVEL_SIDE
      && (p->height[p->levels] + 1) / 2 >= CVCORE_CLT_MIN_LEVEL_SIDE) {
    p->width[p->levels + 1] = (p->width[p->levels] + 1) / 2;
    p->height[p->levels + 1] = (p->height[p->levels] + 1) / 2;
    p->levels++;
  }
  for (int l = 0; l <= p->levels && status == CVCORE_OK; l++) {
    const size_t tiles = level_tiles (p, l);

    for (int slot = 0; slot < 2 && status == CVCORE_OK; slot++) {
      status = cvcore_device_alloc (device, sizeof (float) *
          CVCORE_CLT_COEFFICIENTS * tiles, (void **) &p->coefficients[slot][l]);
      if (l > 0 && status == CVCORE_OK)
        status = cvcore_plane_alloc (device, sizeof (uint16_t) *
            p->width[l], p->height[l], &p->image[slot][l], &p->pitch[slot][l]);
    }
    if (l > 0 && status == CVCORE_OK)
      status = cvcore_device_alloc (device, sizeof (cvcore_clt_match) * tiles,
          (void **) &p->matches[l]);
  }
  if (status == CVCORE_OK)
    status = cvcore_device_alloc (device, sizeof (cvcore_clt_match) *
        level_tiles (p, 0), (void **) &p->unfitted);
  for (int slot = 0; slot < 2 && status == CVCORE_OK; slot++)
    status = cvcore_device_alloc (device, CVCORE_CLT_SHAPE_FLOATS *
        sizeof (float) * level_tiles (p, 0), (void **) &p->shapes[slot]);
  if (status != CVCORE_OK) {
    cvcore_clt_pyramid_free (p);
    return status;
  }
  *pyramid = p;
  return CVCORE_OK;
}

void
cvcore_clt_pyramid_free (cvcore_clt_pyramid * pyramid)
{
  if (pyramid == NULL)
    return;
  for (int l = 0; l <= CVCORE_CLT_MAX_LEVELS; l++) {
    for (int slot = 0; slot < 2; slot++) {
      if (pyramid->coefficients[slot][l])
        cvcore_device_free (pyramid->device, pyramid->coefficients[slot][l]);
      if (pyramid->image[slot][l])
        cvcore_device_free (pyramid->device, pyramid->image[slot][l]);
    }
    if (pyramid->matches[l])
      cvcore_device_free (pyramid->device, pyramid->matches[l]);
  }
  if (pyramid->unfitted)
    cvcore_device_free (pyramid->device, pyramid->unfitted);
  for (int slot = 0; slot < 2; slot++)
    if (pyramid->shapes[slot])
      cvcore_device_free (pyramid->device, pyramid->shapes[slot]);
  cv_clt_side_stream_clear (&pyramid->matching);
  free (pyramid);
}

int
cvcore_clt_pyramid_levels (const cvcore_clt_pyramid * pyramid)
{
  return pyramid->levels;
}

float *
cvcore_clt_pyramid_coefficients (cvcore_clt_pyramid * pyramid, int slot)
{
  return pyramid->coefficients[slot][0];
}

/* Reduced level @level (>= 1) of frame @slot. */
static cvcore_image
level_image (const cvcore_clt_pyramid * p, int slot, int level)
{
  cvcore_image image = {
    .data = p->image[slot][level],
    .pitch = p->pitch[slot][level],
    .width = p->width[level],
    .height = p->height[level],
    .channels = 1,
    .sample = p->sample[slot],
  };

  return image;
}

static bool
frame_fits (const cvcore_clt_pyramid * p, const cvcore_image * src, int channel)
{
  return src->width == p->width[0] && src->height == p->height[0]
      && channel >= 0 && channel < src->channels;
}

/* The reductions of @src into frame @slot: what matching in it reads. */
static cvcore_status
build_levels (cvcore_stream * stream, cvcore_clt_pyramid * pyramid, int slot,
    const cvcore_image * src, int channel)
{
  cvcore_status status = CVCORE_OK;

  pyramid->sample[slot] = src->sample;
  for (int l = 1; l <= pyramid->levels && status == CVCORE_OK; l++) {
    const cvcore_image finer = l > 1 ? level_image (pyramid, slot, l - 1) :
        *src;
    const cvcore_image image = level_image (pyramid, slot, l);

    /* each level after the first is reduced behind the one before */
    status = cv_clt_reduce_frames (stream, 1, &finer, l > 1 ? 0 : channel,
        &image, l > 1);
  }
  return status;
}

/* Every level's forward transform and the tiles' shapes of frame @slot,
 * whose reductions are built: what matching from it reads. */
static cvcore_status
build_transforms (cvcore_stream * stream, cvcore_clt_pyramid * pyramid,
    int slot, const cvcore_image * src, int channel)
{
  cvcore_status status = cvcore_clt_forward (stream, src, channel, 0, 0,
      pyramid->coefficients[slot][0]);

  if (status == CVCORE_OK)
    status = cvcore_clt_shapes (stream, src, channel, pyramid->shapes[slot]);
  for (int l = 1; l <= pyramid->levels && status == CVCORE_OK; l++) {
    const cvcore_image image = level_image (pyramid, slot, l);

    status = cvcore_clt_forward (stream, &image, 0, 0, 0,
        pyramid->coefficients[slot][l]);
  }
  return status;
}

cvcore_status
cvcore_clt_pyramid_build (cvcore_stream * stream,
    cvcore_clt_pyramid * pyramid, int slot, const cvcore_image * src,
    int channel)
{
  cvcore_status status;

  if ((slot != 0 && slot != 1) || !frame_fits (pyramid, src, channel))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "pyramid slot %d of channel %d of %dx%d, made for %dx%d", slot,
        channel, src->width, src->height, pyramid->width[0],
        pyramid->height[0]);
  status = build_levels (stream, pyramid, slot, src, channel);
  if (status == CVCORE_OK)
    status = build_transforms (stream, pyramid, slot, src, channel);
  return status;
}

static bool
slots_fit (const cvcore_clt_pyramid * pyramid, int from, int to,
    const cvcore_image * src, int channel)
{
  return (from == 0 || from == 1) && (to == 0 || to == 1) && from != to
      && frame_fits (pyramid, src, channel);
}

/* The levels' matching, coarsest first, then the fit. */
static cvcore_status
match_levels (cvcore_stream * stream, cvcore_clt_pyramid * pyramid, int from,
    int to, const cvcore_image * src, int channel,
    const cvcore_clt_corr_params * params, cvcore_clt_match * matches)
{
  cvcore_status status = CVCORE_OK;

  for (int l = pyramid->levels; l >= 0 && status == CVCORE_OK; l--) {
    cvcore_clt_corr_params level = *params;
    cvcore_clt_match *out = l > 0 ? pyramid->matches[l] : matches;
    /* level 0's matches, fitted, go from the unfitted ones to @out; the
     * coarser ones only predict, and fitted there they spread the
     * failures of tiles near the frame's edge */
    cvcore_clt_match *found = params->fit_radius > 0 && l == 0 ?
        pyramid->unfitted : out;
    const cvcore_image image = l > 0 ? level_image (pyramid, to, l) : *src;

    level.keep_left_frame = l > 0 || params->keep_left_frame;
    level.max_dy = l > 0 ? -1.0 : params->max_dy;
    if (l < pyramid->levels) {
      status = cv_clt_correlate_predicted (stream, pyramid->matches[l + 1],
          pyramid->coefficients[from][l], &image, l > 0 ? 0 : channel, &level,
          found);
    } else {
      level.guided = false;
      level.initial_x = ldexp (params->initial_x, -l);
      level.initial_y = ldexp (params->initial_y, -l);
      status = cvcore_clt_correlate (stream, pyramid->coefficients[from][l],
          &image, l > 0 ? 0 : channel, &level, found);
    }
    if (status == CVCORE_OK && found != out)
      status = cv_clt_fit_frames (stream, pyramid->shapes[from], found,
          src->width, src->height, params->fit_radius, true, out);
  }
  return status;
}

cvcore_status
cvcore_clt_pyramid_correlate (cvcore_stream * stream,
    cvcore_clt_pyramid * pyramid, int from, int to, const cvcore_image * src,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches)
{
  if (!slots_fit (pyramid, from, to, src, channel)
      || pyramid->sample[to] != src->sample)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "pyramid correlation of slots %d and %d, channel %d of %dx%d", from,
        to, channel, src->width, src->height);
  return match_levels (stream, pyramid, from, to, src, channel, params,
      matches);
}

cvcore_status
cv_clt_side_stream_init (cvcore_device * device, CvCltSideStream * side)
{
  cvcore_status status = cv_stream_new_urgent (device, &side->stream);

  side->fork = side->join = NULL;
  if (status == CVCORE_OK)
    status = cvcore_event_new (device, false, &side->fork);
  if (status == CVCORE_OK)
    status = cvcore_event_new (device, false, &side->join);
  if (status != CVCORE_OK)
    cv_clt_side_stream_clear (side);
  return status;
}

void
cv_clt_side_stream_clear (CvCltSideStream * side)
{
  if (side->fork)
    cvcore_event_free (side->fork);
  if (side->join)
    cvcore_event_free (side->join);
  if (side->stream)
    cvcore_stream_free (side->stream);
  side->stream = NULL;
  side->fork = side->join = NULL;
}

cvcore_status
cv_clt_side_stream_fork (CvCltSideStream * side, cvcore_stream * stream)
{
  cvcore_status status = cvcore_event_record (side->fork, stream);

  if (status == CVCORE_OK)
    status = cvcore_stream_wait_event (side->stream, side->fork);
  return status;
}

cvcore_status
cv_clt_side_stream_join (CvCltSideStream * side, cvcore_stream * stream)
{
  cvcore_status status = cvcore_event_record (side->join, side->stream);

  if (status == CVCORE_OK)
    status = cvcore_stream_wait_event (stream, side->join);
  return status;
}

cvcore_status
cvcore_clt_pyramid_build_and_correlate (cvcore_stream * stream,
    cvcore_clt_pyramid * pyramid, int from, int to, const cvcore_image * src,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches)
{
  cvcore_status status, matched, joined;

  if (!slots_fit (pyramid, from, to, src, channel))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "pyramid building of slot %d and correlation with slot %d, channel "
        "%d of %dx%d", to, from, channel, src->width, src->height);
  if (pyramid->matching.stream == NULL) {
    status = cv_clt_side_stream_init (pyramid->device, &pyramid->matching);
    if (status != CVCORE_OK)
      return status;
  }
  status = build_levels (stream, pyramid, to, src, channel);
  if (status == CVCORE_OK)
    status = cv_clt_side_stream_fork (&pyramid->matching, stream);
  if (status != CVCORE_OK)
    return status;
  /* The matching is a chain of launches, few blocks each but the last;
   * the transforms, which only the next frame's matching reads, fill the
   * device beside it, behind it in priority. */
  matched = match_levels (pyramid->matching.stream, pyramid, from, to, src,
      channel, params, matches);
  status = build_transforms (stream, pyramid, to, src, channel);
  /* joined even after a failure: @stream's later work must follow all of
   * it */
  joined = cv_clt_side_stream_join (&pyramid->matching, stream);
  if (joined != CVCORE_OK)
    return joined;
  return matched != CVCORE_OK ? matched : status;
}
