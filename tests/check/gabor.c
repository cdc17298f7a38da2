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

/* The Gabor core: the recursive filter's impulse response against the
 * sampled Gabor, flat images, gratings at and across the tuned
 * orientation, recursive against FIR, the output modes, the plan's shared
 * row passes, and CUDA against the double-precision CPU reference (suite
 * gpu). */
#include <math.h>
#include <string.h>

#include "cvtest.h"
#include "cvimage.h"
#include "cvgabor.h"
#include "gabor-common.h"

static cvcore_device *device;
static cvcore_stream *stream;

static void
setup (void)
{
  cvtest_open_backend (&device, &stream);
}

static void
teardown (void)
{
  cvtest_close_backend (device, stream);
}

/* Relative RMS difference of the recursive 1-D impulse response from the
 * sampled complex Gabor G (k) e^{j omega k}. */
static gdouble
impulse_error (gdouble sigma, gdouble omega)
{
  const gint r = (gint) ceil (10.0 * sigma);
  gdouble *h = g_new (gdouble, 2 * (2 * r + 1)), num = 0.0, den = 0.0;

  cvcore_gabor_impulse_1d (sigma, omega, r, h);
  for (gint k = -r; k <= r; k++) {
    const gdouble g = exp (-0.5 * k * k / (sigma * sigma)) /
        (sqrt (2.0 * G_PI) * sigma);
    const gdouble dr = h[2 * (k + r)] - g * cos (omega * k);
    const gdouble di = h[2 * (k + r) + 1] - g * sin (omega * k);

    num += dr * dr + di * di;
    den += g * g;
  }
  g_free (h);
  return sqrt (num / den);
}

GST_START_TEST (test_impulse_accuracy)
{
  static const gdouble sigmas[] = { 1.5, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0 };
  static const gdouble wavelengths[] = { 3.0, 8.0, 32.0 };

  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
    for (guint j = 0; j < G_N_ELEMENTS (wavelengths); j++) {
      const gdouble e = impulse_error (sigmas[i],
          2.0 * G_PI / wavelengths[j]);

      GST_INFO ("sigma %g, wavelength %g: relative RMS error %.4f", sigmas[i],
          wavelengths[j], e);
      fail_unless (e < (sigmas[i] >= 2.0 ? 0.02 : 0.03), "sigma %g: %g",
          sigmas[i], e);
    }
}

GST_END_TEST;

/* Filters @src into a poisoned 8-bit output of @channels; the scratch
 * goes to @keep when given (for its responses). */
static TestImage
run (const TestImage * src, const cvcore_gabor_params * params,
    gint channels, cvcore_gabor_scratch ** keep)
{
  cvcore_gabor_scratch *g;
  TestImage out = cvtest_image_new (device, stream, src->image.width,
      src->image.height, channels, CVCORE_SAMPLE_U8, 0xcd, 0, 0);

  fail_unless_equals_int (cvcore_gabor_scratch_new (device,
          src->image.width, src->image.height, params->orientations, &g),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_gabor (stream, g, &src->image, &out.image,
          params), CVCORE_OK);
  cvtest_image_download (&out, stream);
  if (keep)
    *keep = g;
  else
    cvcore_gabor_scratch_free (g);
  return out;
}

static gfloat *
response (cvcore_gabor_scratch * g, const TestImage * src, gint o)
{
  gfloat *r = g_new (gfloat, 2 * (gsize) src->image.width * src->image.height);

  fail_unless_equals_int (cvcore_gabor_response (g, stream, o, r), CVCORE_OK);
  return r;
}

/* A flat image answers zero, borders included, both methods. */
GST_START_TEST (test_flat_zero)
{
  TestImage src = cvtest_image_new (device, stream, 37, 23, 1,
      CVCORE_SAMPLE_U8, 150, 0, 0);
  cvcore_gabor_params params;

  cvcore_gabor_params_init (&params);
  params.orientations = 3;
  for (gint m = 0; m < 2; m++) {
    cvcore_gabor_scratch *g;
    TestImage out;

    params.method = m ? CVCORE_GABOR_FIR : CVCORE_GABOR_RECURSIVE;
    out = run (&src, &params, 1, &g);
    for (gint o = 0; o < 3; o++) {
      gfloat *r = response (g, &src, o);

      for (gint i = 0; i < 37 * 23 * 2; i++)
        fail_unless (fabsf (r[i]) < 1e-5f, "method %d, orientation %d, %d: "
            "%g", m, o, i, r[i]);
      g_free (r);
    }
    cvcore_gabor_scratch_free (g);
    cvtest_image_free (&out, device);
  }
  cvtest_image_free (&src, device);
}

GST_END_TEST;

static void
paint_grating (TestImage * t, gdouble wavelength, gdouble degrees)
{
  const gdouble w = 2.0 * G_PI / wavelength, th = degrees * G_PI / 180.0;

  for (gint y = 0; y < t->image.height; y++)
    for (gint x = 0; x < t->image.width; x++)
      t->host[y * t->image.pitch + x] = (guint8) floor (127.5 + 100.0 *
          cos (w * (x * cos (th) + y * sin (th))) + 0.5);
  cvtest_image_upload (t, stream);
}

/* A grating at the tuned wavelength and orientation gives about half its
 * amplitude (the cosine's positive frequency); turned by 90 degrees,
 * nearly nothing. */
GST_START_TEST (test_grating)
{
  TestImage src = cvtest_image_new (device, stream, 96, 96, 1,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  cvcore_gabor_params params;
  gdouble tuned = 0.0, across = 0.0;

  cvcore_gabor_params_init (&params);
  params.sigma = 5.0;
  params.wavelength = 8.0;
  params.orientation = 30.0;
  for (gint k = 0; k < 2; k++) {
    cvcore_gabor_scratch *g;
    TestImage out;
    gfloat *r;

    paint_grating (&src, 8.0, k ? 120.0 : 30.0);
    out = run (&src, &params, 1, &g);
    r = response (g, &src, 0);
    /* the middle, away from the borders */
    for (gint y = 40; y < 56; y++)
      for (gint x = 40; x < 56; x++) {
        const gsize i = 2 * ((gsize) y * 96 + x);

        *(k ? &across : &tuned) += hypot (r[i], r[i + 1]) / 256.0;
      }
    g_free (r);
    cvcore_gabor_scratch_free (g);
    cvtest_image_free (&out, device);
  }
  GST_INFO ("tuned %g, across %g", tuned, across);
  fail_unless (fabs (tuned - 0.5 * 100.0 / 255.0) < 0.02, "tuned %g", tuned);
  fail_unless (across < 0.01 * tuned, "across %g, tuned %g", across, tuned);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* Recursive and FIR responses on a random image agree to the recursive
 * filter's accuracy. */
GST_START_TEST (test_recursive_against_fir)
{
  TestImage src = cvtest_image_new (device, stream, 120, 90, 1,
      CVCORE_SAMPLE_U8, -1, 0, 4);
  cvcore_gabor_params params;
  gfloat *r[2];
  gdouble num = 0.0, den = 0.0;

  cvcore_gabor_params_init (&params);
  params.sigma = 4.0;
  params.orientation = 45.0;
  for (gint m = 0; m < 2; m++) {
    cvcore_gabor_scratch *g;
    TestImage out;

    params.method = m ? CVCORE_GABOR_FIR : CVCORE_GABOR_RECURSIVE;
    out = run (&src, &params, 1, &g);
    r[m] = response (g, &src, 0);
    cvcore_gabor_scratch_free (g);
    cvtest_image_free (&out, device);
  }
  /* away from the borders, where the two extend the image differently */
  for (gint y = 20; y < 70; y++)
    for (gint x = 20; x < 100; x++)
      for (gint c = 0; c < 2; c++) {
        const gsize i = 2 * ((gsize) y * 120 + x) + c;

        num += (r[0][i] - r[1][i]) * (r[0][i] - r[1][i]);
        den += r[1][i] * r[1][i];
      }
  GST_INFO ("recursive against FIR: relative RMS %g", sqrt (num / den));
  fail_unless (sqrt (num / den) < 0.03);
  g_free (r[0]);
  g_free (r[1]);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* On a 45-degree grating, a bank of 4 (0, 45, 90, 135) picks 45 degrees;
 * the four-channel output carries each orientation's magnitude. */
GST_START_TEST (test_output_modes)
{
  TestImage src = cvtest_image_new (device, stream, 64, 64, 1,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  cvcore_gabor_params params;
  TestImage out;

  paint_grating (&src, 8.0, 45.0);
  cvcore_gabor_params_init (&params);
  params.orientations = 4;
  params.output = CVCORE_GABOR_MAX_ORIENTATION;
  out = run (&src, &params, 1, NULL);
  fail_unless_equals_int (out.host[32 * out.image.pitch + 32],
      (gint) floor (255.0 / 4.0 + 0.5));
  cvtest_image_free (&out, device);

  params.output = CVCORE_GABOR_MAGNITUDE;
  params.gain = 2.0;
  out = run (&src, &params, 4, NULL);
  fail_unless_equals_int (out.image.channels, 4);
  {
    const guint8 *p = out.host + 32 * out.image.pitch + 32 * 4;

    fail_unless (p[1] > 3 * p[0] && p[1] > 3 * p[2] && p[1] > 3 * p[3],
        "%d %d %d %d", p[0], p[1], p[2], p[3]);
  }
  cvtest_image_free (&out, device);

  /* real part of the strongest orientation swings around mid-grey along
   * the grating; phase covers the range */
  params.output = CVCORE_GABOR_REAL;
  out = run (&src, &params, 1, NULL);
  {
    gint lo = 255, hi = 0;

    for (gint x = 24; x < 40; x++) {
      lo = MIN (lo, out.host[32 * out.image.pitch + x]);
      hi = MAX (hi, out.host[32 * out.image.pitch + x]);
    }
    fail_unless (lo < 100 && hi > 155, "%d %d", lo, hi);
  }
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  TestImage src = cvtest_image_new (device, stream, 16, 16, 1,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  TestImage two = cvtest_image_new (device, stream, 16, 16, 2,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  cvcore_gabor_params params;
  cvcore_gabor_scratch *g;

  fail_unless_equals_int (cvcore_gabor_scratch_new (device, 16, 16, 17, &g),
      CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_gabor_scratch_new (device, 16, 16, 2, &g),
      CVCORE_OK);
  cvcore_gabor_params_init (&params);
  fail_unless_equals_int (cvcore_gabor (stream, g, &src.image, &two.image,
          &params), CVCORE_ERROR_INVALID_VALUE);
  params.orientations = 3;
  fail_unless_equals_int (cvcore_gabor (stream, g, &src.image, &src.image,
          &params), CVCORE_ERROR_INVALID_VALUE);
  params.orientations = 1;
  params.sigma = 0.1;
  fail_unless_equals_int (cvcore_gabor (stream, g, &src.image, &src.image,
          &params), CVCORE_ERROR_INVALID_VALUE);
  params.sigma = 4.0;
  params.wavelength = 1.0;
  fail_unless_equals_int (cvcore_gabor (stream, g, &src.image, &src.image,
          &params), CVCORE_ERROR_INVALID_VALUE);
  cvcore_gabor_scratch_free (g);
  cvtest_image_free (&src, device);
  cvtest_image_free (&two, device);
}

GST_END_TEST;

/* Orientations theta and 180 - theta share their rows' pass (conjugated):
 * a bank of 8 from 0 degrees pairs 22.5/157.5, 45/135 and 67.5/112.5; from
 * 11.25 degrees every orientation has its partner; from 10 degrees none
 * does. The Gaussian has its own. */
GST_START_TEST (test_row_pairs)
{
  static const struct
  {
    gdouble start;
    gint n_row_passes;
    gint mirror[9];
  } cases[] = {
    {0.0, 6, {-1, 7, 6, 5, -1, -1, -1, -1, -1}},
    {11.25, 5, {7, 6, 5, 4, -1, -1, -1, -1, -1}},
    {10.0, 9, {-1, -1, -1, -1, -1, -1, -1, -1, -1}},
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    cvcore_gabor_params params;
    cv_gabor_plan plan;
    gint passes = 0;

    cvcore_gabor_params_init (&params);
    params.orientations = 8;
    params.orientation = cases[c].start;
    cv_gabor_plan_init (&plan, &params);
    fail_unless_equals_int (plan.n_row_passes, cases[c].n_row_passes);
    for (gint f = 0; f < 9; f++)
      fail_unless_equals_int (plan.row_mirror[f], cases[c].mirror[f]);
    /* the passes: the filters no other mirrors, in order */
    for (gint f = 0; f < 9; f++) {
      gboolean mirrored = FALSE;

      for (gint m = 0; m < 9; m++)
        mirrored |= cases[c].mirror[m] == f;
      if (!mirrored)
        fail_unless_equals_int (plan.row_passes[passes++], f);
    }
    fail_unless_equals_int (passes, plan.n_row_passes);
  }
}

GST_END_TEST;

/* CUDA against the CPU reference (cvtest_cpu) on @src: relative RMS of
 * every orientation's complex response under 1e-4, output bytes within one
 * unit where the output cannot flip between tied orientations. */
static void
assert_equals_cpu (const TestImage * src, const cvcore_gabor_params * params,
    const gchar * what)
{
  const gsize pixels = (gsize) src->image.width * src->image.height;
  cvcore_gabor_scratch *g, *cg;
  TestImage cpu_src, out, cpu_out;
  gint worst = 0;

  cpu_src = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, src);
  out = run (src, params, 1, &g);
  {
    cvcore_device *saved_device = device;
    cvcore_stream *saved_stream = stream;

    device = cvtest_cpu;
    stream = cvtest_cpu_stream;
    cpu_out = run (&cpu_src, params, 1, &cg);
    device = saved_device;
    stream = saved_stream;
  }
  for (gint o = 0; o < params->orientations; o++) {
    gfloat *r = response (g, src, o);
    gfloat *cr = g_new (gfloat, 2 * pixels);
    gdouble num = 0.0, den = 0.0;

    fail_unless_equals_int (cvcore_gabor_response (cg, cvtest_cpu_stream, o,
            cr), CVCORE_OK);
    for (gsize i = 0; i < 2 * pixels; i++) {
      num += (r[i] - cr[i]) * (r[i] - cr[i]);
      den += cr[i] * cr[i];
    }
    GST_INFO ("%s, orientation %d: relative RMS %g", what, o,
        sqrt (num / MAX (den, 1e-30)));
    fail_unless (num <= 1e-8 * den || den < 1e-20, "%s: %g", what,
        sqrt (num / den));
    g_free (r);
    g_free (cr);
  }
  for (gint y = 0; y < src->image.height; y++)
    for (gint x = 0; x < src->image.width; x++)
      worst = MAX (worst, abs (out.host[y * out.image.pitch + x] -
              cpu_out.host[y * cpu_out.image.pitch + x]));
  /* the strongest orientation (and so its real and imaginary parts and
   * phase) flips where two tie, and phase where a response vanishes */
  if (params->output == CVCORE_GABOR_MAGNITUDE || (params->orientations == 1
          && params->output != CVCORE_GABOR_PHASE))
    fail_unless (worst <= 1, "%s: output off by %d", what, worst);
  cvcore_gabor_scratch_free (g);
  cvcore_gabor_scratch_free (cg);
  cvtest_image_free (&out, device);
  cvtest_image_free (&cpu_out, cvtest_cpu);
  cvtest_image_free (&cpu_src, cvtest_cpu);
}

/* CUDA against the CPU reference (see assert_equals_cpu) for random
 * images of odd sizes (lines of 9300 samples too), both methods, every
 * output mode; then, recursive on the large frame, banks of 8 whose
 * orientations share row passes, and large sigma (poles close to 1, where
 * single precision needs the cascade). */
GST_START_TEST (test_cuda_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {17, 5}, {1921, 1081}, {9300, 3},
  {3, 9300}
  };
  static const struct
  {
    gint orientations;
    gdouble start, sigma;
  } large[] = { {8, 0.0, 12.0}, {8, 11.25, 12.0}, {1, 30.0, 64.0}, {3, 10.0,
      32.0}
  };

  for (guint n = 0; n < 15 + G_N_ELEMENTS (large); n++) {
    const gint *size = sizes[n < 15 ? n % G_N_ELEMENTS (sizes) : 2];
    cvcore_gabor_params params;
    TestImage src;
    gchar *what = g_strdup_printf ("case %u", n);

    cvcore_gabor_params_init (&params);
    params.method = n % 2 ? CVCORE_GABOR_FIR : CVCORE_GABOR_RECURSIVE;
    params.output = (cvcore_gabor_output) (n % 5);
    /* on the large frame one orientation (few segments per line on
     * CUDA) and three (many) */
    params.orientations = n == 2 ? 1 : n == 7 ? 3 : 1 + n % 3;
    params.sigma = (gdouble[]) {
    2.0, 5.0, 12.0}[n / 3 % 3];
    params.orientation = 17.0 * n;
    if (n >= 15) {
      params.method = CVCORE_GABOR_RECURSIVE;
      params.orientations = large[n - 15].orientations;
      params.orientation = large[n - 15].start;
      params.sigma = large[n - 15].sigma;
    }
    params.gain = 3.0;
    src = cvtest_image_new (device, stream, size[0], size[1], 1,
        n % 4 == 3 ? CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8, -1, n % 2 * 40,
        n + 3);
    assert_equals_cpu (&src, &params, what);
    cvtest_image_free (&src, device);
    g_free (what);
  }
}

GST_END_TEST;

/* The recursive rows read the source in place, a word of four 8-bit
 * samples at a time where rows and start allow: CUDA against the CPU
 * reference for 8-bit gray starting one byte (sample-wise loads) and four
 * bytes (word loads, a row length that is no multiple of 4) into an
 * allocation, 4-channel 8-bit pixels aligned and one byte off, and 16-bit
 * gray, with few and many segments per line. */
GST_START_TEST (test_cuda_source_layouts)
{
  static const struct
  {
    gint channels;
    cvcore_sample sample;
    gint offset;
  } layouts[] = {
    {1, CVCORE_SAMPLE_U8, 1}, {1, CVCORE_SAMPLE_U8, 4},
    {4, CVCORE_SAMPLE_U8, 0}, {4, CVCORE_SAMPLE_U8, 1},
    {1, CVCORE_SAMPLE_U16, 2},
  };

  for (guint n = 0; n < 2 * G_N_ELEMENTS (layouts); n++) {
    const gint l = n % G_N_ELEMENTS (layouts);
    /* 800 rows of 5 filters run many segments per line, 30 of 2 few */
    const gint height = n < G_N_ELEMENTS (layouts) ? 30 : 800;
    TestImage src = cvtest_image_new (device, stream, 211, height,
        layouts[l].channels, layouts[l].sample, -1, 8, n + 50);
    TestImage view = src;
    cvcore_gabor_params params;
    gchar *what = g_strdup_printf ("layout %d, %d rows", l, height);

    view.image.data = (guint8 *) src.image.data + layouts[l].offset;
    view.host = src.host + layouts[l].offset;
    view.image.width--;
    cvcore_gabor_params_init (&params);
    params.orientations = height == 30 ? 1 : 4;
    params.orientation = 20.0;
    params.gain = 3.0;
    assert_equals_cpu (&view, &params, what);
    cvtest_image_free (&src, device);
    g_free (what);
  }
}

GST_END_TEST;

static Suite *
gabor_suite (void)
{
  Suite *s = suite_create ("gabor");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_impulse_accuracy);
  tcase_add_test (tc, test_flat_zero);
  tcase_add_test (tc, test_grating);
  tcase_add_test (tc, test_recursive_against_fir);
  tcase_add_test (tc, test_output_modes);
  tcase_add_test (tc, test_bad_arguments);
  tcase_add_test (tc, test_row_pairs);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_equals_cpu);
    tcase_add_test (cuda, test_cuda_source_layouts);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, gabor_suite);
}
