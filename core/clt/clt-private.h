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

/* The lapped transform's scratch and the backend entry points of its
 * operations, called by their dispatch (clt.c, clt-correlate.c,
 * clt-pyramid.c): the CPU reference (clt-cpu.c, clt-correlate-cpu.c,
 * clt-pyramid-cpu.c) and the kernels' host side (clt.cu, clt-sparse.cu,
 * clt-correlate.cu, clt-pyramid.cu). */
#ifndef CLT_PRIVATE_H
#define CLT_PRIVATE_H

#include "clt-common.h"
#include "clt-correlate-common.h"
#include "clt-pyramid-common.h"
#include "clt-rig-common.h"
#include "cvcore-private.h"

CVCORE_BEGIN_DECLS

struct cvcore_clt_scratch
{
  cvcore_device *device;
  int width, height, channels;
  /* CUDA: per processed channel, the four quadrants of every tile's
   * inverse (see clt.cu); CPU: one double plane per channel. */
  void *planes;
  size_t plane_pitch;
  /* The kernel set on the device, and its shape (data unused). */
  float *kernels;
  cvcore_clt_kernel_set set;
  /* Whether it takes mosaics; CUDA keeps a mosaic's colours, interpolated
   * once per frame, 16-bit so that either depth fits (allocated at the
   * first frame that interpolates: sparse mosaics need none). */
  bool mosaics;
  void *colours;
  size_t colours_pitch;
};

/* Forward transform, operation and inverse of a frame. */
cvcore_status cv_clt_cpu (cvcore_clt_scratch * clt, const cvcore_image * src,
    const cvcore_image * dst, const cvcore_clt_params * params,
    const cv_clt_plan * plan);
cvcore_status cv_clt_cuda (cvcore_stream * stream, cvcore_clt_scratch * clt,
    const cvcore_image * src, const cvcore_image * dst,
    const cvcore_clt_params * params, const cv_clt_plan * plan);
/* A mosaic's colour layers, transformed where the sites are. */
cvcore_status cv_clt_sparse_cuda (cvcore_stream * stream,
    const cvcore_image * src, const cv_clt_plan * plan, float *planes,
    size_t plane_pitch, const float *kernel_data,
    const cvcore_clt_kernel_set * set);

/* Forward transform of one channel into coefficients. */
cvcore_status cv_clt_forward_cpu (const cvcore_image * src, int channel,
    const cv_clt_plan * plan, float *coefficients);
cvcore_status cv_clt_forward_cuda (cvcore_stream * stream,
    const cvcore_image * src, int channel, const cv_clt_plan * plan,
    float *coefficients);

/* CPU reference: forward transform of tile (@tx, @ty) of channel @c of
 * @src with @plan's sampling, windows and (for a shift) phase rotation,
 * into @coef [layer][l][k]. */
void cv_clt_cpu_tile_transform (const cvcore_image * src, int c, int tx,
    int ty, const cv_clt_plan * plan, double coef[4][8][8]);

/* CPU reference: forward transform of the tile of channel @c of @src whose
 * first pixel lies at (@x, @y), between pixels where they are not whole:
 * sampled there (cv_clt_resample_weights), then windowed in place, into
 * @coef [layer][l][k]. */
void cv_clt_cpu_resampled_transform (const cvcore_image * src, int c,
    float x, float y, double coef[4][8][8]);

cvcore_status cv_clt_correlate_cpu (const float *a, const cvcore_image * b,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches);
/* @coarse: where not NULL, the first pass starts from the prediction of
 * these matches of the next coarser level (cvcore_clt_predict), made
 * in the kernel, instead of from @params */
cvcore_status cv_clt_correlate_cuda (cvcore_stream * stream,
    const float *a, const cvcore_image * b, int channel,
    const cvcore_clt_corr_params * params, const cvcore_clt_match * coarse,
    cvcore_clt_match * matches);
/* cvcore_clt_predict() from @coarse into @matches, then
 * cvcore_clt_correlate() guided by the prediction: a pyramid level. */
cvcore_status cv_clt_correlate_predicted (cvcore_stream * stream,
    const cvcore_clt_match * coarse, const float *a, const cvcore_image * b,
    int channel, const cvcore_clt_corr_params * params,
    cvcore_clt_match * matches);
/* @longest: the rig's longest baseline (cvcore_clt_rig_longest); @keep:
 * which tiles keep their confidence */
cvcore_status cv_clt_rig_correlate_cpu (const cvcore_image * views,
    int channel, const cvcore_clt_rig * rig, double longest,
    const cvcore_clt_corr_params * params, cv_clt_rig_keep keep,
    cvcore_clt_match * matches, float *surfaces);
cvcore_status cv_clt_rig_correlate_cuda (cvcore_stream * stream,
    const cvcore_image * views, int channel, const cvcore_clt_rig * rig,
    double longest, const cvcore_clt_corr_params * params, cv_clt_rig_keep keep,
    cvcore_clt_match * matches, float *surfaces);
cvcore_status cv_clt_draw_matches_cpu (const cvcore_image * dst,
    const cvcore_clt_match * matches, double scale, double min_confidence,
    const unsigned colour[4]);
cvcore_status cv_clt_draw_matches_cuda (cvcore_stream * stream,
    const cvcore_image * dst, const cvcore_clt_match * matches, float scale,
    float min_confidence, const unsigned colour[4]);

cvcore_status cv_clt_shapes_cpu (const cvcore_image * src, int channel,
    float *shapes);
cvcore_status cv_clt_shapes_cuda (cvcore_stream * stream,
    const cvcore_image * src, int channel, float *shapes);
/* the frames that the fit's matches came from (clt-fit-common.h) */
typedef struct CvCltFitViews CvCltFitViews;
cvcore_status cv_clt_fit_cpu (const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    const CvCltFitViews * views, cvcore_clt_match * fitted);
/* @after_kernel: cv_cuda_launch_chained()'s */
cvcore_status cv_clt_fit_cuda (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    const CvCltFitViews * views, bool after_kernel, cvcore_clt_match * fitted);
/* cvcore_clt_fit, or for a rig's views the fit of its disparities
 * (cv_clt_fit_tile); with @after_kernel, on CUDA behind the kernel queued
 * just before it on @stream, which must be one */
cvcore_status cv_clt_fit_checked (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    const CvCltFitViews * views, bool after_kernel, cvcore_clt_match * fitted);
/* cvcore_clt_fit, with cv_clt_fit_checked()'s @after_kernel */
cvcore_status cv_clt_fit_frames (cvcore_stream * stream, const float *shapes,
    const cvcore_clt_match * matches, int width, int height, int radius,
    bool after_kernel, cvcore_clt_match * fitted);

/* A stream of high priority beside a caller's: a pyramid's matching, a
 * chain of small launches, runs on it while other work fills the device
 * on the caller's stream. */
typedef struct
{
  cvcore_stream *stream;
  cvcore_event *fork, *join;
} CvCltSideStream;

/* Makes @side's stream and events, all or none. */
cvcore_status cv_clt_side_stream_init (cvcore_device * device,
    CvCltSideStream * side);
void cv_clt_side_stream_clear (CvCltSideStream * side);
/* Work queued on @side after this follows @stream's work queued before. */
cvcore_status cv_clt_side_stream_fork (CvCltSideStream * side,
    cvcore_stream * stream);
/* Work queued on @stream after this follows @side's work queued before. */
cvcore_status cv_clt_side_stream_join (CvCltSideStream * side,
    cvcore_stream * stream);

cvcore_status cv_clt_reduce_cpu (int count, const cvcore_image * src,
    int channel, const cvcore_image * dst);
/* all @count frames in one launch */
cvcore_status cv_clt_reduce_cuda (cvcore_stream * stream, int count,
    const cvcore_image * src, int channel, const cvcore_image * dst,
    bool after_kernel);
/* cvcore_clt_reduce() of @count frames of one size, @src[f] into @dst[f];
 * with @after_kernel, on CUDA behind the kernel queued just before it on
 * @stream, which must be one */
cvcore_status cv_clt_reduce_frames (cvcore_stream * stream, int count,
    const cvcore_image * src, int channel, const cvcore_image * dst,
    bool after_kernel);
cvcore_status cv_clt_predict_cpu (const cvcore_clt_match * coarse,
    int width, int height, cvcore_clt_match * matches);
cvcore_status cv_clt_predict_cuda (cvcore_stream * stream,
    const cvcore_clt_match * coarse, int width, int height,
    cvcore_clt_match * matches);

/* The CPU references' read of sample (@x, @y) of channel @c of a host
 * image of 8 or 16 bits. */
static inline unsigned
cv_clt_sample_at (const cvcore_image * image, int x, int y, int c)
{
  const unsigned char *row = (const unsigned char *) image->data +
      (size_t) y * image->pitch;

  if (image->sample == CVCORE_SAMPLE_U16)
    return ((const unsigned short *) row)[x * image->channels + c];
  return row[x * image->channels + c];
}

CVCORE_END_DECLS

#endif /* CLT_PRIVATE_H */
