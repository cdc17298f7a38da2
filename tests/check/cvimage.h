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

/* Test images on a backend's device, with a host copy. */
#ifndef CVIMAGE_H
#define CVIMAGE_H

#include "cvtest.h"
#include "cvcore.h"

G_BEGIN_DECLS

typedef struct
{
  cvcore_image image;
  guint8 *host;                 /* pitch-packed copy on the host */
} TestImage;

gsize cvtest_sample_bytes (cvcore_sample sample);
gsize cvtest_row_bytes (const cvcore_image * im);
/* Sample (@x, @y, @c) of the host copy. */
double cvtest_host_sample (const TestImage * t, gint x, gint y, gint c);
/* An image on @device: random samples (or @fill when >= 0), rows padded to
 * a pitch with @extra bytes beyond the device's own. */
TestImage cvtest_image_new (cvcore_device * device, cvcore_stream * stream,
    gint width, gint height, gint channels, cvcore_sample sample, gint fill,
    guint extra, guint32 seed);
/* The samples of @src in a new image on the CPU backend's @cpu (host
 * memory, its own pitch). */
TestImage cvtest_image_on_cpu (cvcore_device * cpu, cvcore_stream * stream,
    const TestImage * src);
/* Copies the host copy to the device image. */
void cvtest_image_upload (TestImage * t, cvcore_stream * stream);
/* Copies the device image back into the host copy. */
void cvtest_image_download (TestImage * t, cvcore_stream * stream);
void cvtest_image_free (TestImage * t, cvcore_device * device);

/* Opens device 0 of the tests' backend and a stream on it. */
void cvtest_open_backend (cvcore_device ** device, cvcore_stream ** stream);
void cvtest_close_backend (cvcore_device * device, cvcore_stream * stream);

/* The CPU reference as the CUDA-only tests see it: open during each test
 * of a test case from cvtest_cuda_tcase (). */
extern cvcore_device *cvtest_cpu;
extern cvcore_stream *cvtest_cpu_stream;
/* A test case "cuda" of @suite for tests that compare with the CPU
 * reference: @setup and @teardown (the backend under test) with the CPU
 * reference opened beside, for each test, and @timeout seconds a test. */
TCase *cvtest_cuda_tcase (Suite * suite, SFun setup, SFun teardown,
    gint timeout);

/* Sets sample (@x, @y, @c) of the host copy to @v, rounded and clamped to
 * the sample type. */
void cvtest_put_sample (TestImage * t, gint x, gint y, gint c, gdouble v);
/* A band-limited 16-bit test picture: a sum of sinusoids whose
 * frequencies stay under 0.4 pi per axis. */
gdouble cvtest_band_limited (gdouble x, gdouble y);

G_END_DECLS

#endif /* CVIMAGE_H */
