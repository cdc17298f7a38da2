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
#include "cvimage.h"

#include <math.h>
#include <string.h>

gsize
cvtest_sample_bytes (cvcore_sample sample)
{
  return sample == CVCORE_SAMPLE_U8 ? 1 : 2;
}

gsize
cvtest_row_bytes (const cvcore_image * im)
{
  return (gsize) im->width * im->channels * cvtest_sample_bytes (im->sample);
}

double
cvtest_host_sample (const TestImage * t, gint x, gint y, gint c)
{
  const guint8 *row = t->host + (gsize) y * t->image.pitch;

  if (t->image.sample == CVCORE_SAMPLE_U8)
    return row[(gsize) x * t->image.channels + c];
  return ((const guint16 *) row)[(gsize) x * t->image.channels + c];
}

/* An image on @device: random samples (or @fill when >= 0), rows padded to
 * a pitch with @extra bytes beyond the device's own. */
TestImage
cvtest_image_new (cvcore_device * device, cvcore_stream * stream, gint width,
    gint height, gint channels, cvcore_sample sample, gint fill, guint extra,
    guint32 seed)
{
  TestImage t = { {0} };
  void *data;
  gsize size;

  t.image.width = width;
  t.image.height = height;
  t.image.channels = channels;
  t.image.sample = sample;
  t.image.pitch = cvcore_pitch_for_width (device, cvtest_row_bytes (&t.image) +
      extra);
  size = t.image.pitch * height;
  t.host = g_malloc (size);
  if (fill >= 0)
    memset (t.host, fill, size);
  else
    cvtest_fill_random (t.host, size, seed);
  fail_unless_equals_int (cvcore_device_alloc (device, size, &data), CVCORE_OK);
  t.image.data = data;
  fail_unless_equals_int (cvcore_copy_async (stream, data, t.host, size,
          CVCORE_COPY_HOST_TO_DEVICE), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  return t;
}

void
cvtest_image_upload (TestImage * t, cvcore_stream * stream)
{
  fail_unless_equals_int (cvcore_copy_async (stream, t->image.data, t->host,
          t->image.pitch * t->image.height, CVCORE_COPY_HOST_TO_DEVICE),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
}

void
cvtest_image_download (TestImage * t, cvcore_stream * stream)
{
  fail_unless_equals_int (cvcore_copy_async (stream, t->host, t->image.data,
          t->image.pitch * t->image.height, CVCORE_COPY_DEVICE_TO_HOST),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
}

void
cvtest_image_free (TestImage * t, cvcore_device * device)
{
  cvcore_device_free (device, t->image.data);
  g_free (t->host);
}


void
cvtest_open_backend (cvcore_device ** device, cvcore_stream ** stream)
{
  fail_unless_equals_int (cvcore_device_open (cvtest_backend (), 0, device),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (*device, stream), CVCORE_OK);
}

void
cvtest_close_backend (cvcore_device * device, cvcore_stream * stream)
{
  cvcore_stream_free (stream);
  cvcore_device_close (device);
}

cvcore_device *cvtest_cpu;
cvcore_stream *cvtest_cpu_stream;

static void
cpu_setup (void)
{
  fail_unless_equals_int (cvcore_device_open (CVCORE_BACKEND_CPU, 0,
          &cvtest_cpu), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_new (cvtest_cpu, &cvtest_cpu_stream),
      CVCORE_OK);
}

static void
cpu_teardown (void)
{
  cvtest_close_backend (cvtest_cpu, cvtest_cpu_stream);
  cvtest_cpu = NULL;
  cvtest_cpu_stream = NULL;
}

TCase *
cvtest_cuda_tcase (Suite * suite, SFun setup, SFun teardown, gint timeout)
{
  TCase *tc = tcase_create ("cuda");

  suite_add_tcase (suite, tc);
  tcase_set_timeout (tc, timeout);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_checked_fixture (tc, cpu_setup, cpu_teardown);
  return tc;
}

TestImage
cvtest_image_on_cpu (cvcore_device * cpu, cvcore_stream * stream,
    const TestImage * src)
{
  const cvcore_image *im = &src->image;
  TestImage t = cvtest_image_new (cpu, stream, im->width, im->height,
      im->channels, im->sample, 0, 0, 0);

  for (gint y = 0; y < im->height; y++)
    memcpy ((guint8 *) t.image.data + y * t.image.pitch,
        src->host + y * im->pitch, cvtest_row_bytes (im));
  memcpy (t.host, t.image.data, t.image.pitch * im->height);
  return t;
}

void
cvtest_put_sample (TestImage * t, gint x, gint y, gint c, gdouble v)
{
  guint8 *row = t->host + y * t->image.pitch;
  const gint i = x * t->image.channels + c;

  if (t->image.sample == CVCORE_SAMPLE_U16)
    ((guint16 *) row)[i] = (guint16) CLAMP (floor (v + 0.5), 0, 65535);
  else
    row[i] = (guint8) CLAMP (floor (v + 0.5), 0, 255);
}

/* A band-limited 16-bit test picture: a sum of sinusoids whose
 * frequencies stay under 0.4 pi per axis, evaluated at (x - dx, y - dy). */
gdouble
cvtest_band_limited (gdouble x, gdouble y)
{
  static const gdouble waves[][4] = {
    {0.31, 0.07, 0.4, 9000}, {-0.12, 0.27, 1.3, 7000}, {0.45, -0.38, 2.1,
        5000}, {0.05, 0.52, 0.7, 6000}, {1.05, 0.33, 2.9, 3000}, {-0.71,
        0.94, 4.1, 2500}, {0.2, -1.1, 5.3, 2000}, {0.9, 0.8, 0.2, 1500},
  };
  gdouble v = 32768.0;

  for (guint i = 0; i < G_N_ELEMENTS (waves); i++)
    v += waves[i][3] * cos (waves[i][0] * x + waves[i][1] * y + waves[i][2]);
  return v;
}
