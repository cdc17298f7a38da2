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

/* The foveation core: the sigma model, the plan, the CPU reference against
 * an independent per-pixel computation, and CUDA against the CPU reference
 * (suite gpu). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cvtest.h"
#include "cvimage.h"
#include "cvfoveate.h"
#include "foveate-common.h"
#include "foveate-private.h"

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

/* Values from the model's formulas, worked out separately:
 * f_c = 2.3 / (0.106 (e + 2.3)) ln 64, sigma = 30 / (pi f_c). */
GST_START_TEST (test_sigma_model)
{
  cvcore_foveate_model model;

  cvcore_foveate_model_init (&model);
  fail_unless (fabs (cvcore_foveate_sigma (&model, 10.0) - 1.3016008) < 1e-6);
  fail_unless (fabs (cvcore_foveate_sigma (&model, 50.0) - 5.5344490) < 1e-6);
  fail_unless (fabs (cvcore_foveate_sigma (&model, 100.0) - 10.8255092) < 1e-6);
  /* The fovea ends where f_c reaches f_max, at 0.70800 degrees. */
  fail_unless_equals_float (cvcore_foveate_sigma (&model, 0.0), 0.0);
  fail_unless_equals_float (cvcore_foveate_sigma (&model, 0.70799), 0.0);
  fail_unless (cvcore_foveate_sigma (&model, 0.70801) > 0.0);
  /* Strength scales sigma. */
  model.strength = 2.5;
  fail_unless (fabs (cvcore_foveate_sigma (&model, 10.0) - 2.5 * 1.3016008) <
      1e-6);
}

GST_END_TEST;

GST_START_TEST (test_plan)
{
  cvcore_foveate_model model;
  cvcore_foveate_plan plan;

  cvcore_foveate_model_init (&model);
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 640, 480, 32,
          0.5, 0.5), CVCORE_OK);
  /* The fragment at (10, 7) is centred on the fixation (320, 240). */
  fail_unless_equals_int (plan.origin_x, -16);
  fail_unless_equals_int (plan.origin_y, 0);
  fail_unless_equals_int (plan.origin_x + 10 * 32 + 16, 320);
  fail_unless_equals_int (plan.origin_y + 7 * 32 + 16, 240);
  fail_unless_equals_int (cvcore_foveate_fragment_filter (&plan, 10, 7), 0);
  fail_unless_equals_int (plan.grid_w, 21);
  fail_unless_equals_int (plan.grid_h, 15);
  /* Filters grow outwards, thresholds rise, sigmas step by whole 4 %
   * steps. */
  fail_unless (plan.n_filters > 10);
  fail_unless_equals_float (plan.sigma_ratio, 1.04);
  for (gint f = 2; f < plan.n_filters; f++) {
    const gdouble steps = log (plan.sigma[f] / plan.sigma[f - 1]) / log (1.04);

    fail_unless (plan.threshold[f] > plan.threshold[f - 1]);
    fail_unless (steps > 0.99 && fabs (steps - round (steps)) < 1e-3);
    fail_unless_equals_int (plan.radius[f] * 2 + 1,
        (gint) ceil (6.0 * plan.sigma[f]) | 1);
  }
  fail_unless (cvcore_foveate_fragment_filter (&plan, 0, 0) >
      cvcore_foveate_fragment_filter (&plan, 8, 6));
  /* Taps are normalised. */
  for (gint f = 1; f < plan.n_filters; f++) {
    gdouble sum = 0.0;

    for (gint i = 0; i <= 2 * plan.radius[f]; i++)
      sum += plan.taps[plan.offset[f] + i];
    fail_unless (fabs (sum - 1.0) < 1e-5);
  }

  /* A fixation outside the frame leaves no fovea inside it. */
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 640, 480, 16,
          1.5, -0.2), CVCORE_OK);
  for (gint gy = 0; gy < plan.grid_h; gy++)
    for (gint gx = 0; gx < plan.grid_w; gx++)
      fail_if (cvcore_foveate_fragment_filter (&plan, gx, gy) == 0);

  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 640, 480, 12,
          0.5, 0.5), CVCORE_ERROR_INVALID_VALUE);
  /* Strong foveation: a bank larger than a launch carries (CUDA takes it
   * from device memory); stronger, coarser steps; too strong, a clear
   * refusal. */
  model.strength = 4.0;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 1920, 1080,
          32, 0.5, 0.5), CVCORE_OK);
  fail_unless (plan.n_taps > CVCORE_FOVEATE_PARAM_TAPS
      && plan.sigma_ratio == 1.04, "ratio %g, %d filters, %d taps",
      plan.sigma_ratio, plan.n_filters, plan.n_taps);
  model.strength = 20.0;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 1920, 1080,
          32, 0.5, 0.5), CVCORE_OK);
  fail_unless (plan.sigma_ratio > 1.04, "ratio %g, %d filters, %d taps",
      plan.sigma_ratio, plan.n_filters, plan.n_taps);
  /* too strong for any bank: the blur is capped, the plan still made */
  model.strength = 40.0;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 3840, 2160,
          32, 0.0, 0.0), CVCORE_OK);
  fail_unless (plan.max_radius <= CVCORE_FOVEATE_MAX_RADIUS
      && plan.n_taps <= CVCORE_FOVEATE_MAX_TAPS
      && plan.sigma[plan.n_filters - 1] <=
      CVCORE_FOVEATE_MAX_RADIUS / 3.0 + 1e-3,
      "%d filters, radius %d, largest sigma %g", plan.n_filters,
      plan.max_radius, plan.sigma[plan.n_filters - 1]);
  /* in-range element settings that did not fit before */
  cvcore_foveate_model_init (&model);
  model.alpha = 10.0;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 128, 96, 32,
          0.5, 0.5), CVCORE_OK);
  model.alpha = 5.0;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 1920, 1080,
          32, 0.5, 0.5), CVCORE_OK);
}

GST_END_TEST;

static TestImage
run (const TestImage * src, const cvcore_foveate_plan * plan, unsigned mask)
{
  TestImage out = cvtest_image_new (device, stream, src->image.width,
      src->image.height, src->image.channels, CVCORE_SAMPLE_U8, 0xab, 32, 0);

  fail_unless (cvcore_foveate (stream, &src->image, &out.image, mask,
          plan) == CVCORE_OK, "%s", cvcore_last_error ());
  cvtest_image_download (&out, stream);
  return out;
}

/* run () on another backend's @dev and @st. */
static TestImage
run_on (cvcore_device * dev, cvcore_stream * st, const TestImage * src,
    const cvcore_foveate_plan * plan, unsigned mask)
{
  cvcore_device *saved_device = device;
  cvcore_stream *saved_stream = stream;
  TestImage out;

  device = dev;
  stream = st;
  out = run (src, plan, mask);
  device = saved_device;
  stream = saved_stream;
  return out;
}

/* Independent reference: every pixel blurred in double with its
 * fragment's filter, edges clamped. */
static gdouble
reference_pixel (const TestImage * src, const cvcore_foveate_plan * plan,
    gint x, gint y, gint c)
{
  const gint gx = (x - plan->origin_x) / plan->fragment;
  const gint gy = (y - plan->origin_y) / plan->fragment;
  const gint f = cvcore_foveate_fragment_filter (plan, gx, gy);
  const gint r = plan->radius[f];
  const gint w = src->image.width, h = src->image.height;
  gdouble sum = 0.0;

  if (f == 0)
    return cvtest_host_sample (src, x, y, c);
  for (gint j = -r; j <= r; j++)
    for (gint i = -r; i <= r; i++)
      sum += (gdouble) plan->taps[plan->offset[f] + j + r] *
          plan->taps[plan->offset[f] + i + r] * cvtest_host_sample (src,
          CLAMP (x + i, 0, w - 1), CLAMP (y + j, 0, h - 1), c);
  return MIN (floor (sum + 0.5), 255.0);
}

/* Compares every sample of @out with @expected (a TestImage) or, when
 * NULL, with the independent reference (on every cvtest_reference_step ()
 * pixel); within @tolerance. */
static void
assert_foveated (const TestImage * src, const TestImage * out,
    const cvcore_foveate_plan * plan, unsigned mask, const TestImage * expected,
    gdouble tolerance)
{
  const gint step = expected ? 1 : cvtest_reference_step ();

  for (gint y = 0; y < src->image.height; y++)
    for (gint x = y % step; x < src->image.width; x += step)
      for (gint c = 0; c < src->image.channels; c++) {
        const gdouble got = cvtest_host_sample (out, x, y, c);
        const gdouble want = !(mask & (1u << c)) ?
            cvtest_host_sample (src, x, y, c) : expected ?
            cvtest_host_sample (expected, x, y, c) :
            reference_pixel (src, plan, x, y, c);

        if (fabs (got - want) > tolerance)
          fail ("%dx%dx%d, fragment %d, fixation (%g, %g): (%d, %d, %d) is "
              "%g, expected %g", src->image.width, src->image.height,
              src->image.channels, plan->fragment, plan->fix_x, plan->fix_y,
              x, y, c, got, want);
      }
}

/* @src foveated here with @plan and on the CPU backend (cvtest_cpu) with
 * @cpu_plan (the same plan, reading CPU copies), within one unit. */
static void
assert_equals_cpu (const TestImage * src, const cvcore_foveate_plan * plan,
    const cvcore_foveate_plan * cpu_plan, unsigned mask)
{
  TestImage cpu_src = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream,
      src);
  TestImage out = run (src, plan, mask);
  TestImage cpu_out = run_on (cvtest_cpu, cvtest_cpu_stream, &cpu_src,
      cpu_plan, mask);

  assert_foveated (src, &out, plan, mask, &cpu_out, 1.0);
  cvtest_image_free (&out, device);
  cvtest_image_free (&cpu_out, cvtest_cpu);
  cvtest_image_free (&cpu_src, cvtest_cpu);
}

/* The backend against the per-pixel reference on small frames. */
/* The launch order of fragments far from the fixation first: every index
 * once, distances never growing, the fixation's fragment last, whatever
 * side of the grid (or beyond it) the fixation lies. */
GST_START_TEST (test_far_first_order)
{
  for (int n = 1; n <= 40; n++) {
    for (int centre = -3; centre < n + 3; centre++) {
      const int c = centre < 0 ? 0 : centre >= n ? n - 1 : centre;
      int seen[40] = { 0 };
      int last_distance = n;

      for (int rank = 0; rank < n; rank++) {
        const int i = cv_foveate_far_first (rank, n, centre);
        const int distance = abs (i - c);

        fail_unless (i >= 0 && i < n, "n %d centre %d rank %d: index %d", n,
            centre, rank, i);
        fail_unless (seen[i]++ == 0, "n %d centre %d: index %d twice", n,
            centre, i);
        fail_unless (distance <= last_distance,
            "n %d centre %d rank %d: distance %d after %d", n, centre, rank,
            distance, last_distance);
        last_distance = distance;
      }
      fail_unless_equals_int (cv_foveate_far_first (n - 1, n, centre), c);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_against_reference)
{
  static const gint sizes[][2] = { {1, 1}, {33, 17}, {70, 45}, {5, 90} };
  static const gdouble fixations[][2] = { {0.5, 0.5}, {0.0, 0.0}, {1.0, 0.3},
  {-0.4, 1.7}
  };
  cvcore_foveate_model model;

  cvcore_foveate_model_init (&model);
  model.corner_eccentricity = 60.0;
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint f = 0; f < G_N_ELEMENTS (fixations); f++) {
      const gint fragment = 8 << (f % 3);
      const gint channels = (gint[]){
        1, 2, 4
      }[(s + f) % 3];
      TestImage src = cvtest_image_new (device, stream, sizes[s][0],
          sizes[s][1], channels, CVCORE_SAMPLE_U8, -1, 8, s * 10 + f);
      cvcore_foveate_plan plan;
      TestImage out;

      fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model,
              sizes[s][0], sizes[s][1], fragment, fixations[f][0],
              fixations[f][1]), CVCORE_OK);
      plan.render = CVCORE_FOVEATE_RENDER_DIRECT;
      out = run (&src, &plan, 0x7);
      assert_foveated (&src, &out, &plan, 0x7, NULL, 1.0);
      cvtest_image_free (&out, device);
      cvtest_image_free (&src, device);
    }
}

GST_END_TEST;

/* Rendered directly and through the stack: a constant frame stays
 * constant; the fovea is bit-exact; moving the fixation moves the sharp
 * region. */
GST_START_TEST (test_properties)
{
  cvcore_foveate_model model;
  cvcore_foveate_plan plan, moved;
  TestImage flat = cvtest_image_new (device, stream, 200, 120, 4,
      CVCORE_SAMPLE_U8, 77, 0, 0);
  TestImage src = cvtest_image_new (device, stream, 200, 120, 1,
      CVCORE_SAMPLE_U8, -1, 0, 5);
  TestImage out, out_moved;

  cvcore_foveate_model_init (&model);
  model.strength = 3.0;
  for (gint render = CVCORE_FOVEATE_RENDER_DIRECT;
      render <= CVCORE_FOVEATE_RENDER_STACK; render++) {
    fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 200, 120,
            16, 0.25, 0.5), CVCORE_OK);
    plan.render = render;
    out = run (&flat, &plan, 0xf);
    for (gsize i = 0; i < flat.image.pitch * 120; i++)
      if (i % flat.image.pitch < 800)
        fail_unless_equals_int (out.host[i], 77);
    cvtest_image_free (&out, device);

    fail_unless_equals_int (cvcore_foveate_plan_init (&moved, &model, 200, 120,
            16, 0.75, 0.5), CVCORE_OK);
    moved.render = render;
    out = run (&src, &plan, 0x1);
    out_moved = run (&src, &moved, 0x1);
    /* Pixel (50, 60) is at the first fixation: unchanged there, blurred
     * (changed somewhere around it) once the fixation moves to (150, 60). */
    fail_unless_equals_int (out.host[60 * out.image.pitch + 50],
        src.host[60 * src.image.pitch + 50]);
    {
      gint changed = 0;

      for (gint y = 56; y < 64; y++)
        for (gint x = 46; x < 54; x++) {
          fail_unless_equals_int (out.host[y * out.image.pitch + x],
              src.host[y * src.image.pitch + x]);
          changed += out_moved.host[y * out.image.pitch + x] !=
              src.host[y * src.image.pitch + x];
        }
      fail_unless (changed > 32);
    }
    cvtest_image_free (&out, device);
    cvtest_image_free (&out_moved, device);
  }
  cvtest_image_free (&src, device);
  cvtest_image_free (&flat, device);
}

GST_END_TEST;

/* Per-pixel foveation (host memory): the fixation pixel is copied, a
 * constant frame stays constant, the periphery is blurred, and block-wise
 * rendering is close to it. */
GST_START_TEST (test_perfect)
{
  const gint w = 96, h = 64;
  cvcore_foveate_model model;
  cvcore_image src = { 0 }, dst, flat;
  guint8 *in = g_malloc (w * h), *out = g_malloc (w * h);
  guint8 *constant = g_malloc (w * h);
  gint changed = 0;

  cvcore_foveate_model_init (&model);
  cvtest_fill_random (in, w * h, 11);
  memset (constant, 40, w * h);
  src.data = in;
  src.pitch = w;
  src.width = w;
  src.height = h;
  src.channels = 1;
  src.sample = CVCORE_SAMPLE_U8;
  dst = flat = src;
  dst.data = out;
  /* the fixation on pixel (24, 32)'s centre */
  fail_unless_equals_int (cvcore_foveate_perfect (&model, &src, &dst, 1,
          24.5 / w, 32.5 / h), CVCORE_OK);
  fail_unless_equals_int (out[32 * w + 24], in[32 * w + 24]);
  for (gint x = 80; x < 96; x++)
    changed += out[5 * w + x] != in[5 * w + x];
  fail_unless (changed > 8);

  flat.data = constant;
  fail_unless_equals_int (cvcore_foveate_perfect (&model, &flat, &dst, 1, 0.7,
          0.1), CVCORE_OK);
  for (gint i = 0; i < w * h; i++)
    fail_unless_equals_int (out[i], 40);

  dst.sample = CVCORE_SAMPLE_U16;
  fail_unless_equals_int (cvcore_foveate_perfect (&model, &src, &dst, 1, 0.5,
          0.5), CVCORE_ERROR_INVALID_VALUE);
  g_free (in);
  g_free (out);
  g_free (constant);
}

GST_END_TEST;

/* Independent smooth reference: the pixel's two filters around its own
 * distance, blended by where it lies between their thresholds, in double;
 * -1 where the pixel sits on the fovea's edge (where the blend jumps from
 * the copy to the first blur, and float and double may disagree). */
/* A blur map's level at pixel (@x, @y), interpolated in double between
 * cell centres (the map read from host memory). */
static gdouble
map_level (const cvcore_foveate_plan * plan, gint x, gint y)
{
  const gdouble u = (x + 0.5 - plan->fix_x) / plan->width * plan->map_w +
      0.5 * plan->map_w - 0.5;
  const gdouble v = (y + 0.5 - plan->fix_y) / plan->height * plan->map_h +
      0.5 * plan->map_h - 0.5;
  const gint i = (gint) floor (u), j = (gint) floor (v);
  gdouble level = 0.0;

  for (gint b = 0; b < 2; b++)
    for (gint a = 0; a < 2; a++)
      level += (a ? u - i : 1.0 - (u - i)) * (b ? v - j : 1.0 - (v - j)) *
          plan->map[CLAMP (j + b, 0, plan->map_h - 1) * plan->map_pitch +
          CLAMP (i + a, 0, plan->map_w - 1)];
  return level;
}

static gdouble
smooth_pixel (const TestImage * src, const cvcore_foveate_plan * plan, gint x,
    gint y, gint c)
{
  const gdouble d = plan->map ? map_level (plan, x, y) :
      hypot (x + 0.5 - plan->fix_x, y + 0.5 - plan->fix_y);
  const gint w = src->image.width, h = src->image.height;
  gdouble sum = 0.0, t;
  gint k = 0;

  for (gint i = 1; i < plan->n_filters; i++)
    if (d >= plan->threshold[i])
      k = i;
  if (!plan->map && fabs (d - plan->threshold[1]) < 1e-3)
    return -1.0;
  /* a map's blend starts at level 0; the model's at the first blur */
  t = (k > 0 || plan->map) && k + 1 < plan->n_filters ?
      MIN ((d - plan->threshold[k]) / (plan->threshold[k + 1] -
          plan->threshold[k]), 1.0) : 0.0;
  for (gint n = 0; n < 2; n++) {
    const gint f = k + n, r = f < plan->n_filters ? plan->radius[f] : 0;
    const gdouble weight = n ? t : 1.0 - t;
    gdouble v = 0.0;

    if (weight == 0.0)
      continue;
    if (f == 0) {
      v = cvtest_host_sample (src, x, y, c);
    } else {
      for (gint j = -r; j <= r; j++)
        for (gint i = -r; i <= r; i++)
          v += (gdouble) plan->taps[plan->offset[f] + j + r] *
              plan->taps[plan->offset[f] + i + r] * cvtest_host_sample (src,
              CLAMP (x + i, 0, w - 1), CLAMP (y + j, 0, h - 1), c);
    }
    sum += weight * v;
  }
  return MIN (floor (sum + 0.5), 255.0);
}

/* Smooth mode against the independent blend; a constant frame stays
 * constant; the result is closer to per-pixel foveation than block-wise
 * rendering. */
GST_START_TEST (test_smooth)
{
  const gint w = 160, h = 96;
  cvcore_foveate_model model;
  cvcore_foveate_plan plan;
  TestImage src = cvtest_image_new (device, stream, w, h, 2,
      CVCORE_SAMPLE_U8, -1, 8, 77);
  TestImage flat = cvtest_image_new (device, stream, w, h, 1,
      CVCORE_SAMPLE_U8, 90, 0, 0);
  TestImage smooth, block, out;
  cvcore_image perfect = { 0 };
  gdouble err_smooth = 0.0, err_block = 0.0;

  cvcore_foveate_model_init (&model);
  model.strength = 1.5;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, w, h, 32,
          0.3, 0.4), CVCORE_OK);
  plan.render = CVCORE_FOVEATE_RENDER_DIRECT;
  block = run (&src, &plan, 0x1);
  plan.smooth = true;
  smooth = run (&src, &plan, 0x1);
  for (gint y = 0; y < h; y++)
    for (gint x = y % cvtest_reference_step (); x < w;
        x += cvtest_reference_step ()) {
      const gdouble want = smooth_pixel (&src, &plan, x, y, 0);

      if (want >= 0.0)
        fail_unless (fabs (cvtest_host_sample (&smooth, x, y, 0) - want) <=
            1.0, "(%d, %d): %g, expected %g", x, y,
            cvtest_host_sample (&smooth, x, y, 0), want);
      /* the unmasked channel is copied */
      fail_unless_equals_int (cvtest_host_sample (&smooth, x, y, 1),
          cvtest_host_sample (&src, x, y, 1));
    }

  perfect = src.image;
  perfect.data = g_malloc (src.image.pitch * h);
  {
    cvcore_image host = src.image;

    host.data = src.host;
    perfect.pitch = src.image.pitch;
    fail_unless_equals_int (cvcore_foveate_perfect (&model, &host, &perfect,
            0x1, 0.3, 0.4), CVCORE_OK);
  }
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const gdouble p = ((guint8 *) perfect.data)[y * perfect.pitch + x * 2];

      err_smooth += fabs (cvtest_host_sample (&smooth, x, y, 0) - p);
      err_block += fabs (cvtest_host_sample (&block, x, y, 0) - p);
    }
  GST_INFO ("mean difference from per-pixel: smooth %g, block-wise %g",
      err_smooth / (w * h), err_block / (w * h));
  fail_unless (err_smooth < 0.5 * err_block, "smooth %g, block-wise %g",
      err_smooth, err_block);
  g_free (perfect.data);

  out = run (&flat, &plan, 0x1);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      fail_unless_equals_int (cvtest_host_sample (&out, x, y, 0), 90);
  cvtest_image_free (&out, device);
  cvtest_image_free (&smooth, device);
  cvtest_image_free (&block, device);
  cvtest_image_free (&flat, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  cvcore_foveate_model model;
  cvcore_foveate_plan plan;
  TestImage a = cvtest_image_new (device, stream, 16, 16, 1,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  TestImage wide = cvtest_image_new (device, stream, 16, 16, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);

  cvcore_foveate_model_init (&model);
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 16, 16, 8,
          0.5, 0.5), CVCORE_OK);
  fail_unless_equals_int (cvcore_foveate (stream, &a.image, &a.image, 1,
          &plan), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_foveate (stream, &wide.image, &a.image, 1,
          &plan), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 17, 16, 8,
          0.5, 0.5), CVCORE_OK);
  fail_unless_equals_int (cvcore_foveate (stream, &a.image, &wide.image, 1,
          &plan), CVCORE_ERROR_INVALID_VALUE);
  model.alpha = 0.0;
  fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 16, 16, 8,
          0.5, 0.5), CVCORE_ERROR_INVALID_VALUE);
  cvtest_image_free (&a, device);
  cvtest_image_free (&wide, device);
}

GST_END_TEST;

/* A frame's planes in one call (NV12's luma and interleaved chroma, and
 * I420's three) come out as plane by plane, sample for sample, whichever
 * of them share a launch; bad planes are refused. */
GST_START_TEST (test_planes_as_one_by_one)
{
  /* luma sizes, and the luma's and the chroma's fragments */
  static const gint cases[][4] = { {1920, 1080, 32, 16}, {641, 359, 16, 8},
  {97, 53, 8, 8}, {331, 211, 32, 8}, {1, 1, 32, 16}
  };
  cvcore_foveate_model model;

  cvcore_foveate_model_init (&model);
  for (guint n = 0; n < 2 * G_N_ELEMENTS (cases); n++) {
    const gint *c = cases[n % G_N_ELEMENTS (cases)];
    const gboolean nv12 = n < G_N_ELEMENTS (cases);
    const gint n_planes = nv12 ? 2 : 3;
    const gint cw = (c[0] + 1) / 2, ch = (c[1] + 1) / 2;
    const gdouble fix_x = 0.2 + 0.15 * n, fix_y = 0.7 - 0.1 * n;
    cvcore_foveate_plan plan[3];
    const cvcore_foveate_plan *plans[3] = { &plan[0], &plan[1], &plan[2] };
    const unsigned masks[3] = { 0x1, nv12 ? 0x3 : 0x1, 0x1 };
    TestImage src[3], planes[3], one[3];
    cvcore_image src_images[3], out_images[3];

    /* frames from 641x359 up take minutes under valgrind (CVTEST_QUICK),
     * where the smaller odd sizes run */
    if (c[0] > 600 && g_getenv ("CVTEST_QUICK"))
      continue;
    for (gint p = 0; p < n_planes; p++) {
      const gint w = p ? cw : c[0], h = p ? ch : c[1];
      const gint channels = p && nv12 ? 2 : 1;
      cvcore_foveate_model plane_model = model;

      if (p > 0)
        plane_model.strength *= (gdouble) cw / c[0];
      fail_unless_equals_int (cvcore_foveate_plan_init (&plan[p],
              &plane_model, w, h, p ? c[3] : c[2], fix_x, fix_y), CVCORE_OK);
      src[p] = cvtest_image_new (device, stream, w, h, channels,
          CVCORE_SAMPLE_U8, -1, 8 * p, 60 + n + p);
      planes[p] = cvtest_image_new (device, stream, w, h, channels,
          CVCORE_SAMPLE_U8, 0xab, 32, 0);
      src_images[p] = src[p].image;
      out_images[p] = planes[p].image;
    }
    fail_unless (cvcore_foveate_planes (stream, n_planes, src_images,
            out_images, masks, plans) == CVCORE_OK, "%s", cvcore_last_error ());
    for (gint p = 0; p < n_planes; p++) {
      cvtest_image_download (&planes[p], stream);
      one[p] = run (&src[p], &plan[p], masks[p]);
      assert_foveated (&src[p], &planes[p], &plan[p], masks[p], &one[p], 0.0);
      cvtest_image_free (&one[p], device);
      cvtest_image_free (&planes[p], device);
    }
    fail_unless_equals_int (cvcore_foveate_planes (stream, 0, src_images,
            out_images, masks, plans), CVCORE_ERROR_INVALID_VALUE);
    fail_unless_equals_int (cvcore_foveate_planes (stream, n_planes,
            src_images, src_images, masks, plans), CVCORE_ERROR_INVALID_VALUE);
    for (gint p = 0; p < n_planes; p++)
      cvtest_image_free (&src[p], device);
  }
}

GST_END_TEST;

/* A blur map as a one-channel test image on @dev (random levels, or
 * @fill when >= 0), described in @map. */
static TestImage
blur_map_new (cvcore_device * dev, cvcore_stream * st, gint w, gint h,
    gint fill, guint32 seed, cvcore_foveate_map * map)
{
  TestImage t = cvtest_image_new (dev, st, w, h, 1, CVCORE_SAMPLE_U8, fill,
      seed % 3 * 8, seed);

  map->levels = t.image.data;
  map->pitch = t.image.pitch;
  map->width = w;
  map->height = h;
  cvcore_foveate_map_scan (map, t.host, t.image.pitch);
  return t;
}

/* The level under fragment (@gx, @gy)'s centre, worked out in double;
 * -1 where the centre falls within 1e-4 of a map cell's edge (float and
 * double may then disagree). */
static gint
expected_level (const cvcore_foveate_plan * plan, const TestImage * map,
    gint gx, gint gy)
{
  const gdouble cx = plan->origin_x + (gx + 0.5) * plan->fragment;
  const gdouble cy = plan->origin_y + (gy + 0.5) * plan->fragment;
  const gdouble u = (cx - plan->fix_x) / plan->width * map->image.width +
      0.5 * map->image.width;
  const gdouble v = (cy - plan->fix_y) / plan->height * map->image.height +
      0.5 * map->image.height;

  if (fabs (u - round (u)) < 1e-4 || fabs (v - round (v)) < 1e-4)
    return -1;
  return map->host[CLAMP ((gint) floor (v), 0, map->image.height - 1) *
      map->image.pitch + CLAMP ((gint) floor (u), 0, map->image.width - 1)];
}

/* Blur maps: level 0 copies, level L takes the bank's sigma nearest
 * L / 255 of the model's largest (on the plan's quantised scale), the map
 * is centred on the fixation and moves with it, and the pixels are blurred
 * as their fragment's filter says. */
GST_START_TEST (test_blur_map)
{
  static const gdouble fixations[][2] = { {0.5, 0.5}, {0.25, 0.6},
  {0.0, 1.0}, {-0.3, 0.4}
  };
  const gint w = 150, h = 90;
  cvcore_foveate_model model;
  cvcore_foveate_map map;
  TestImage src = cvtest_image_new (device, stream, w, h, 4,
      CVCORE_SAMPLE_U8, -1, 0, 8);
  TestImage zeros = blur_map_new (device, stream, 4, 3, 0, 1, &map);
  cvcore_foveate_plan plan, host_plan;
  TestImage out, smooth;
  gdouble sigma_max;

  cvcore_foveate_model_init (&model);
  sigma_max = cvcore_foveate_sigma (&model, model.corner_eccentricity);

  /* all sharp: a copy */
  fail_unless_equals_int (cvcore_foveate_plan_init_map (&plan, &model, &map, w,
          h, 16, 0.3, 0.3), CVCORE_OK);
  fail_unless_equals_int (plan.n_filters, 1);
  out = run (&src, &plan, 0xf);
  for (gint y = 0; y < h; y++)
    fail_unless (memcmp (out.host + y * out.image.pitch,
            src.host + y * src.image.pitch, w * 4) == 0);
  cvtest_image_free (&out, device);
  cvtest_image_free (&zeros, device);

  for (guint n = 0; n < 2 * G_N_ELEMENTS (fixations); n++) {
    const gdouble *fix = fixations[n % G_N_ELEMENTS (fixations)];
    const gboolean halves = n < G_N_ELEMENTS (fixations);
    TestImage levels = halves ? blur_map_new (device, stream, 2, 1, -1, 0,
        &map) : blur_map_new (device, stream, 7, 5, -1, n, &map);
    gint checked = 0;

    /* under valgrind (CVTEST_QUICK) every other case: both kinds of map
     * and every fragment size still run */
    if (n % 2 && g_getenv ("CVTEST_QUICK")) {
      cvtest_image_free (&levels, device);
      continue;
    }
    if (halves) {
      /* left half sharp, right half the strongest blur */
      levels.host[0] = 0;
      levels.host[1] = 255;
      cvtest_image_upload (&levels, stream);
      cvcore_foveate_map_scan (&map, levels.host, levels.image.pitch);
    }
    fail_unless_equals_int (cvcore_foveate_plan_init_map (&plan, &model, &map,
            w, h, 8 << (n % 3), fix[0], fix[1]), CVCORE_OK);
    plan.render = CVCORE_FOVEATE_RENDER_DIRECT;
    /* the same plan reading the host copy of the map, for the host */
    host_plan = plan;
    host_plan.map = levels.host;
    for (gint gy = 0; gy < plan.grid_h; gy++)
      for (gint gx = 0; gx < plan.grid_w; gx++) {
        const gint level = expected_level (&plan, &levels, gx, gy);
        const gint f = cvcore_foveate_fragment_filter (&host_plan, gx, gy);

        if (level < 0)
          continue;
        checked++;
        if (level == 0) {
          fail_unless_equals_int (f, 0);
        } else {
          const gdouble step = log (plan.sigma_ratio);
          const gdouble want = exp (round (log (sigma_max * level / 255.0) /
                  step) * step);

          fail_unless (f > 0 && fabs (plan.sigma[f] / want - 1.0) < 1e-5,
              "fragment (%d, %d), level %d: filter %d, sigma %g, want %g",
              gx, gy, level, f, plan.sigma[f], want);
        }
        if (halves)
          fail_unless_equals_int (level, (plan.origin_x + (gx + 0.5) *
                  plan.fragment >= plan.fix_x) ? 255 : 0);
      }
    fail_unless (checked > plan.grid_w * plan.grid_h / 2);
    out = run (&src, &plan, 0x7);
    assert_foveated (&src, &out, &host_plan, 0x7, NULL, 1.0);
    /* smooth: each pixel blends the two filters around its interpolated
     * level, against the independent blend (every third pixel) */
    plan.smooth = host_plan.smooth = TRUE;
    smooth = run (&src, &plan, 0x7);
    for (gint y = 0; y < h; y++)
      for (gint x = y % 3; x < w; x += 3 * cvtest_reference_step ())
        for (gint c = 0; c < 3; c++) {
          const gdouble want = smooth_pixel (&src, &host_plan, x, y, c);

          fail_unless (fabs (cvtest_host_sample (&smooth, x, y, c) - want)
              <= 1.0, "smooth with a map: (%d, %d, %d) is %g, expected %g",
              x, y, c, cvtest_host_sample (&smooth, x, y, c), want);
        }
    if (halves) {
      /* beyond the sharp cell's centre a copy; beyond the blurred one's,
       * the block-wise blur (on CUDA another kernel's: within one unit) */
      for (gint y = 0; y < h; y++)
        for (gint x = 0; x < w; x++)
          for (gint c = 0; c < 3; c++) {
            if (x + 0.5 <= plan.fix_x - w / 4.0)
              fail_unless_equals_int (cvtest_host_sample (&smooth, x, y, c),
                  cvtest_host_sample (&src, x, y, c));
            if (x + 0.5 >= plan.fix_x + w / 4.0)
              fail_unless (fabs (cvtest_host_sample (&smooth, x, y, c) -
                      cvtest_host_sample (&out, x, y, c)) <= 1.0);
          }
    }
    cvtest_image_free (&smooth, device);
    cvtest_image_free (&out, device);
    cvtest_image_free (&levels, device);
  }
  map.levels = NULL;
  fail_unless_equals_int (cvcore_foveate_plan_init_map (&plan, &model, &map, w,
          h, 16, 0.5, 0.5), CVCORE_ERROR_INVALID_VALUE);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* Independent reference for the stack: sample (@x, @y, @c) of @src
 * blurred in double by the Gaussian of @sigma (taps to 3 sigma), edges
 * clamped. */
static gdouble
gaussian_pixel (const TestImage * src, gint x, gint y, gint c, gdouble sigma)
{
  const gint r = (gint) ceil (3.0 * sigma);
  const gint w = src->image.width, h = src->image.height;
  gdouble *g = g_new (gdouble, 2 * r + 1), norm = 0.0, sum = 0.0;

  for (gint i = 0; i <= 2 * r; i++)
    norm += g[i] = exp (-(gdouble) (i - r) * (i - r) / (2.0 * sigma * sigma));
  for (gint j = 0; j <= 2 * r; j++) {
    const gint sy = CLAMP (y + j - r, 0, h - 1);
    gdouble row = 0.0;

    for (gint i = 0; i <= 2 * r; i++)
      row += g[i] * cvtest_host_sample (src, CLAMP (x + i - r, 0, w - 1), sy,
          c);
    sum += g[j] * row;
  }
  g_free (g);
  return sum / (norm * norm);
}

/* A picture with detail at several scales: waves of 5 to 150 pixels and
 * noise. */
static TestImage
textured_new (gint w, gint h, gint channels, guint32 seed)
{
  TestImage t = cvtest_image_new (device, stream, w, h, channels,
      CVCORE_SAMPLE_U8, -1, 8, seed);

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      for (gint c = 0; c < channels; c++) {
        guint8 *p = t.host + y * t.image.pitch + x * channels + c;
        const gdouble v = 128.0 + 40.0 * sin (x / 0.8 + c) * cos (y / 1.1) +
            30.0 * sin ((x + 2 * y) / 6.0) + 25.0 * cos ((x - y) / 24.0 + c)
            + (*p - 128) / 8.0;

        *p = (guint8) CLAMP (v, 0.0, 255.0);
      }
  cvtest_image_upload (&t, stream);
  return t;
}

/* Sigma of the model at (@px, @py), in double. */
static gdouble
model_sigma (const cvcore_foveate_model * model,
    const cvcore_foveate_plan * plan, gdouble px, gdouble py)
{
  const gdouble d = hypot (px - plan->fix_x, py - plan->fix_y);

  return cvcore_foveate_sigma (model, d / (0.5 * hypot (plan->width,
              plan->height)) * model->corner_eccentricity);
}

/* The stack against the exact Gaussian of every sampled pixel's sigma:
 * smooth (the pixel's own) and block-wise (its fragment centre's), from
 * the default blur to strengths the direct rendering could not reach,
 * with the model and with a blur map. Rounding alone errs by 0.25 on
 * average and 0.5 at most; the stack adds little: a mean under 0.4 and
 * none over 1.5. */
GST_START_TEST (test_stack_against_gaussian)
{
  static const struct
  {
    gint w, h, fragment;
    gdouble strength, corner, fix_x, fix_y;
    gboolean smooth, map;
  } cases[] = {
    {181, 97, 16, 1.5, 100.0, 0.3, 0.6, TRUE, FALSE},
    {181, 97, 16, 1.5, 100.0, 0.3, 0.6, FALSE, FALSE},
    {143, 211, 8, 3.0, 100.0, 1.0, 0.0, TRUE, FALSE},
    {320, 200, 32, 10.0, 180.0, 0.0, 1.0, TRUE, FALSE},
    {320, 200, 32, 10.0, 180.0, 0.0, 1.0, FALSE, FALSE},
    {150, 90, 16, 1.0, 100.0, 0.4, 0.5, TRUE, TRUE},
  };

  for (guint n = 0; n < G_N_ELEMENTS (cases); n++) {
    cvcore_foveate_model model;
    cvcore_foveate_plan *plan = g_new (cvcore_foveate_plan, 1);
    cvcore_foveate_map map;
    TestImage levels = { 0 };
    TestImage src = textured_new (cases[n].w, cases[n].h, 2, 31 + n);
    TestImage out;
    gdouble total = 0.0, worst = 0.0;
    gint count = 0;
    /* the reference's taps reach 1000 pixels at strength 10: fewer
     * pixels there, and fewer still under valgrind (CVTEST_QUICK) */
    const gint every = cases[n].strength > 5.0 ? (g_getenv ("CVTEST_QUICK")
        ? 61 : 23) : (g_getenv ("CVTEST_QUICK") ? 7 : 3);

    cvcore_foveate_model_init (&model);
    model.strength = cases[n].strength;
    model.corner_eccentricity = cases[n].corner;
    if (cases[n].map) {
      levels = blur_map_new (device, stream, 5, 4, -1, n, &map);
      fail_unless_equals_int (cvcore_foveate_plan_init_map (plan, &model, &map,
              cases[n].w, cases[n].h, cases[n].fragment, cases[n].fix_x,
              cases[n].fix_y), CVCORE_OK);
    } else {
      fail_unless_equals_int (cvcore_foveate_plan_init (plan, &model,
              cases[n].w, cases[n].h, cases[n].fragment, cases[n].fix_x,
              cases[n].fix_y), CVCORE_OK);
    }
    plan->smooth = cases[n].smooth;
    plan->render = CVCORE_FOVEATE_RENDER_STACK;
    out = run (&src, plan, 0x1);
    if (cases[n].map)
      plan->map = levels.host;
    for (gint y = n % 3; y < cases[n].h; y += every)
      for (gint x = n % 2; x < cases[n].w; x += every) {
        const gint gx = (x - plan->origin_x) / plan->fragment;
        const gint gy = (y - plan->origin_y) / plan->fragment;
        const gdouble cx = plan->origin_x + (gx + 0.5) * plan->fragment;
        const gdouble cy = plan->origin_y + (gy + 0.5) * plan->fragment;
        gdouble sigma, want, error;

        if (cases[n].map)
          sigma = cvcore_foveate_sigma (&model, model.corner_eccentricity) *
              cv_foveate_map_level (plan, x, y) / 255.0;
        else if (cases[n].smooth)
          sigma = model_sigma (&model, plan, x + 0.5, y + 0.5);
        else
          sigma = model_sigma (&model, plan, cx, cy);
        want = sigma > 0.0 ? gaussian_pixel (&src, x, y, 0, sigma) :
            cvtest_host_sample (&src, x, y, 0);
        error = fabs (cvtest_host_sample (&out, x, y, 0) - want);
        total += error;
        worst = MAX (worst, error);
        count++;
        fail_unless (error <= 1.5, "case %u (%d, %d), sigma %g: %g, "
            "expected %g", n, x, y, sigma, cvtest_host_sample (&out, x, y,
                0), want);
        /* the second channel is copied */
        fail_unless_equals_int (cvtest_host_sample (&out, x, y, 1),
            cvtest_host_sample (&src, x, y, 1));
      }
    GST_INFO ("case %u: %d levels, mean error %g, worst %g over %d pixels",
        n, plan->stack.n_levels, total / count, worst, count);
    fail_unless (total / count < 0.4, "case %u: mean error %g", n,
        total / count);
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
    if (cases[n].map)
      cvtest_image_free (&levels, device);
    g_free (plan);
  }
}

GST_END_TEST;

/* Block-wise, every level's band of fragment centres (what CUDA lists its
 * tiles by) holds the centre of every fragment that reads the level, and
 * bounds something. */
GST_START_TEST (test_stack_fragment_bands)
{
  static const gint sizes[][2] = { {640, 480}, {1921, 1081}, {333, 207} };
  static const gdouble strengths[] = { 0.5, 1.0, 3.0, 10.0 };
  static const gdouble fixations[][2] = { {0.5, 0.5}, {0.0, 0.0},
  {0.9, 0.3}, {1.4, -0.3}
  };
  cvcore_foveate_model model;
  cvcore_foveate_plan *plan = g_new (cvcore_foveate_plan, 1);
  gint bounded = 0;

  cvcore_foveate_model_init (&model);
  for (guint n = 0; n < 48; n++) {
    const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
    const gdouble *fix = fixations[n / 3 % G_N_ELEMENTS (fixations)];
    cv_foveate_stack_pass passes[CVCORE_FOVEATE_MAX_OCTAVES +
        CVCORE_FOVEATE_MAX_LEVELS];
    cvcore_image src = { 0 };
    uint16_t *memory;
    gint n_bases;

    model.strength = strengths[n / 12];
    fail_unless_equals_int (cvcore_foveate_plan_init (plan, &model, size[0],
            size[1], 8 << (n % 3), fix[0], fix[1]), CVCORE_OK);
    src.width = size[0];
    src.height = size[1];
    src.channels = 1;
    src.pitch = (size_t) size[0];
    memory = g_new (uint16_t, plan->stack.pixels + 1);
    cv_foveate_stack_passes (plan, &src, memory, passes, &n_bases);
    for (gint gy = 0; gy < plan->grid_h; gy++)
      for (gint gx = 0; gx < plan->grid_w; gx++) {
        const float sigma = cv_foveate_stack_fragment_sigma (plan,
            &plan->stack, gx, gy);
        float dx, dy, weight;
        gint low;

        if (!cv_foveate_stack_mixing (&plan->stack, sigma, &low, &weight))
          continue;
        cv_foveate_fragment_centre (plan, gx, gy, &dx, &dy);
        for (gint k = low; k <= low + 1; k++) {
          const cv_foveate_stack_pass *p = &passes[n_bases + k];
          const gdouble d = hypot (dx, dy);

          if (k < 0 || k >= plan->stack.n_levels || (k > low && weight <= 0))
            continue;
          fail_unless (d >= p->centre_lo && d <= p->centre_hi,
              "case %u, fragment (%d, %d) at %g reads level %d outside "
              "[%g, %g]", n, gx, gy, d, k, p->centre_lo, p->centre_hi);
        }
      }
    for (gint k = 0; k < plan->stack.n_levels; k++)
      bounded += passes[n_bases + k].centre_hi < CV_FOVEATE_STACK_FAR;
    g_free (memory);
  }
  /* the bands narrow the lists: most levels end short of the frame */
  fail_unless (bounded > 1000, "%d bounded bands", bounded);
  g_free (plan);
}

GST_END_TEST;

/* CUDA against the CPU reference: odd sizes, every fragment size, channel
 * count and a spread of fixations and strengths, rendered directly and
 * through the stack, within one unit. */
GST_START_TEST (test_cuda_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {33, 17}, {1921, 1081},
  {640, 480}, {7, 300}
  };
  static const gdouble fixations[][2] = { {0.5, 0.5}, {0.0, 0.0}, {1.0, 1.0},
  {0.2, 0.9}, {1.3, -0.5}
  };
  cvcore_foveate_model model;

  cvcore_foveate_model_init (&model);
  for (guint n = 0; n < 40; n++) {
    const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
    const gdouble *fix = fixations[n / G_N_ELEMENTS (sizes) %
        G_N_ELEMENTS (fixations)];
    const gint channels = (gint[]){
      1, 2, 4
    }[n % 3];
    const unsigned mask = n % 4 == 0 ? 0x7 : 0xf;
    cvcore_foveate_plan plan, cpu_plan;
    cvcore_foveate_map map;
    TestImage src, map_gpu = { 0 }, map_cpu = { 0 };

    model.strength = 0.5 + (n % 5) * 0.25;
    if (n % 4 == 2) {
      /* a blur map: on each backend, its own copy */
      map_gpu = blur_map_new (device, stream, 3 + n % 7, 2 + n % 5, -1, n,
          &map);
      map_cpu = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream, &map_gpu);
      fail_unless_equals_int (cvcore_foveate_plan_init_map (&plan, &model, &map,
              size[0], size[1], 8 << (n % 3), fix[0], fix[1]), CVCORE_OK);
      plan.smooth = n % 8 == 6;
      cpu_plan = plan;
      cpu_plan.map = map_cpu.image.data;
      cpu_plan.map_pitch = map_cpu.image.pitch;
    } else {
      fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, size[0],
              size[1], 8 << (n % 3), fix[0], fix[1]), CVCORE_OK);
      plan.smooth = n % 4 == 1;
      cpu_plan = plan;
    }
    src = cvtest_image_new (device, stream, size[0], size[1], channels,
        CVCORE_SAMPLE_U8, -1, n % 2 * 40, n + 3);
    for (gint render = CVCORE_FOVEATE_RENDER_DIRECT;
        render <= CVCORE_FOVEATE_RENDER_STACK; render++) {
      plan.render = cpu_plan.render = render;
      assert_equals_cpu (&src, &plan, &cpu_plan, mask);
    }
    if (map_gpu.host) {
      cvtest_image_free (&map_gpu, device);
      cvtest_image_free (&map_cpu, cvtest_cpu);
    }
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* Rows that do not start on a pixel's alignment go through the general
 * kernel instead of the tensor cores, rows off the alignment of four pixels
 * through the tensor cores' pixel-wise loads; CUDA against the CPU
 * reference. */
GST_START_TEST (test_cuda_unaligned)
{
  cvcore_foveate_model model;

  cvcore_foveate_model_init (&model);
  for (gint n = 0; n < 6; n++) {
    const gint channels = (gint[]){
      1, 2, 4
    }[n % 3];
    /* one byte, or one pixel */
    const gint offset = n < 3 ? 1 : channels;
    TestImage src = cvtest_image_new (device, stream, 131, 71, channels,
        CVCORE_SAMPLE_U8, -1, 8, n);
    TestImage view = src;
    cvcore_foveate_plan plan;

    view.image.data = (guint8 *) src.image.data + offset;
    view.host = src.host + offset;
    view.image.width--;
    fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model,
            view.image.width, view.image.height, 8 << (n % 3), 0.3, 0.6),
        CVCORE_OK);
    assert_equals_cpu (&view, &plan, &plan, 0x7);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* Frames on one stream whose banks change, come back and stay: each
 * equals the CPU reference (the operands a bank's frames keep on the
 * stream are its own). */
GST_START_TEST (test_cuda_bank_changes)
{
  /* banks kept, made, and taking turns in and evicting each other from
   * the stream's two scratch memories */
  static const gdouble strengths[] =
      { 1.0, 1.0, 2.0, 1.0, 2.0, 0.5, 0.5, 2.0, 1.0, 2.0 };
  cvcore_foveate_model model;
  TestImage src[2];

  cvcore_foveate_model_init (&model);
  for (gint i = 0; i < 2; i++)
    src[i] = cvtest_image_new (device, stream, 333, 207, 4,
        CVCORE_SAMPLE_U8, -1, 8, 40 + i);
  for (guint i = 0; i < G_N_ELEMENTS (strengths); i++) {
    cvcore_foveate_plan plan;

    model.strength = strengths[i];
    fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model, 333, 207,
            16, 0.4, 0.6), CVCORE_OK);
    assert_equals_cpu (&src[i % 2], &plan, &plan, 0x7);
  }
  for (gint i = 0; i < 2; i++)
    cvtest_image_free (&src[i], device);
}

GST_END_TEST;

/* Blurs too wide for shared memory, CUDA against the CPU reference:
 *  - a fragment's whole padded tile does not fit (the tile then comes in
 *    bands of rows);
 *  - its rows do not fit either (the fragment goes in strips of columns),
 *    and the bank is too large for the launch (device memory), with
 *    32-pixel fragments (strips of 16 columns) and 8-pixel ones. */
GST_START_TEST (test_cuda_wide_blur)
{
  static const struct
  {
    gint w, h, fragment;
    gdouble strength, corner, min_radius;
  } cases[] = {
    {321, 241, 32, 3.0, 200.0, 300},
    {97, 65, 32, 15.0, 100.0, 900},
    {57, 43, 8, 8.0, 100.0, 450},
  };
  cvcore_foveate_model model;
  cvcore_foveate_plan *plan = g_new (cvcore_foveate_plan, 1);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    TestImage src;

    cvcore_foveate_model_init (&model);
    model.strength = cases[i].strength;
    model.corner_eccentricity = cases[i].corner;
    fail_unless_equals_int (cvcore_foveate_plan_init (plan, &model, cases[i].w,
            cases[i].h, cases[i].fragment, 0.0, 0.0), CVCORE_OK);
    plan->render = CVCORE_FOVEATE_RENDER_DIRECT;
    fail_unless (plan->max_radius > cases[i].min_radius
        && (i == 0 || plan->n_taps > CVCORE_FOVEATE_PARAM_TAPS),
        "case %u: largest radius %d, %d taps", i, plan->max_radius,
        plan->n_taps);
    src = cvtest_image_new (device, stream, cases[i].w, cases[i].h, 1,
        CVCORE_SAMPLE_U8, -1, 8, 17 + i);
    assert_equals_cpu (&src, plan, plan, 0x1);
    cvtest_image_free (&src, device);
  }
  g_free (plan);
}

GST_END_TEST;

/* Block-wise through the stack, CUDA makes only the levels' tiles that
 * fragments of their sigmas read: after a white frame has filled the
 * stream's stack memory, a textured frame still equals the CPU reference,
 * so no read tile was left out. */
GST_START_TEST (test_cuda_stack_tiles)
{
  static const struct
  {
    gint w, h, fragment;
    gdouble strength, fix_x, fix_y;
    gboolean smooth;
  } cases[] = {
    {1921, 1081, 32, 3.0, 0.5, 0.5, FALSE},
    {1280, 720, 16, 2.0, 0.1, 0.8, FALSE},
    {333, 207, 8, 5.0, 0.5, 0.5, FALSE},
    {333, 207, 32, 3.0, -0.2, 0.4, FALSE},
    {641, 479, 16, 10.0, 0.7, 0.3, FALSE},
    {641, 479, 32, 3.0, 0.5, 0.5, TRUE},
  };
  cvcore_foveate_model model;

  cvcore_foveate_model_init (&model);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    TestImage white = cvtest_image_new (device, stream, cases[i].w,
        cases[i].h, 4, CVCORE_SAMPLE_U8, 255, 0, i);
    TestImage textured = cvtest_image_new (device, stream, cases[i].w,
        cases[i].h, 4, CVCORE_SAMPLE_U8, -1, 0, 60 + i);
    cvcore_foveate_plan plan;

    model.strength = cases[i].strength;
    fail_unless_equals_int (cvcore_foveate_plan_init (&plan, &model,
            cases[i].w, cases[i].h, cases[i].fragment, cases[i].fix_x,
            cases[i].fix_y), CVCORE_OK);
    plan.smooth = cases[i].smooth;
    plan.render = CVCORE_FOVEATE_RENDER_STACK;
    assert_equals_cpu (&white, &plan, &plan, 0x7);
    assert_equals_cpu (&textured, &plan, &plan, 0x7);
    cvtest_image_free (&white, device);
    cvtest_image_free (&textured, device);
  }
}

GST_END_TEST;

static Suite *
foveate_suite (void)
{
  Suite *s = suite_create ("foveate");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_sigma_model);
  tcase_add_test (tc, test_plan);
  tcase_add_test (tc, test_far_first_order);
  tcase_add_test (tc, test_against_reference);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_perfect);
  tcase_add_test (tc, test_smooth);
  tcase_add_test (tc, test_stack_against_gaussian);
  tcase_add_test (tc, test_stack_fragment_bands);
  tcase_add_test (tc, test_bad_arguments);
  tcase_add_test (tc, test_planes_as_one_by_one);
  tcase_add_test (tc, test_blur_map);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_equals_cpu);
    tcase_add_test (cuda, test_cuda_unaligned);
    tcase_add_test (cuda, test_cuda_bank_changes);
    tcase_add_test (cuda, test_cuda_wide_blur);
    tcase_add_test (cuda, test_cuda_stack_tiles);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, foveate_suite);
}
