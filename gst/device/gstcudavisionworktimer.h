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


/* The device time of each frame's work, from a pair of timing events
 * recorded around it on the element's stream. The host never waits for
 * them while frames flow: finished pairs are read as later frames come,
 * and a frame whose slot is still busy goes untimed. It exists only where
 * an element's debug level asks for it (see the base transform), and
 * gives the latency benchmark the kernel time of each element as it runs
 * in a pipeline. */
#ifndef __GST_CUDA_VISION_WORK_TIMER_H__
#define __GST_CUDA_VISION_WORK_TIMER_H__

#include <gst/gst.h>
#include "cvcore.h"

G_BEGIN_DECLS

typedef struct _GstCudaVisionWorkTimer GstCudaVisionWorkTimer;

/* NULL (and the reason in the debug log) where the events cannot be made. */
GstCudaVisionWorkTimer *gst_cuda_vision_work_timer_new (cvcore_device * device);
void gst_cuda_vision_work_timer_free (GstCudaVisionWorkTimer * timer);

/* Around the work queued on @stream for one frame. */
void gst_cuda_vision_work_timer_begin (GstCudaVisionWorkTimer * timer,
    cvcore_stream * stream);
void gst_cuda_vision_work_timer_end (GstCudaVisionWorkTimer * timer,
    cvcore_stream * stream);

/* Waits for the pairs still pending, then gives the number of frames
 * timed and the median and 99th percentile of their device time in ms;
 * FALSE where none was timed. The count starts again after it. */
gboolean gst_cuda_vision_work_timer_summarise (GstCudaVisionWorkTimer *
    timer, guint * frames, gdouble * median_ms, gdouble * p99_ms);

G_END_DECLS

#endif /* __GST_CUDA_VISION_WORK_TIMER_H__ */
