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

/* The tone mapping core: log-average and exposure, global curve, local scale selection,
 * adaptation and degenerate frames against values worked out here from
 * the operator's equations (on the backend under test), and CUDA against
 * the double-precision CPU reference on HDR night scenes (suite gpu). */
#include <math.h>
#include <string.h>

#include "cvtest.h"
#include "cvimage.h"
#include "cvtonemap.h"
#include "night-scene.h"

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

static gdouble
srgb_byte (gdouble v)
{
  v = CLAMP (v, 0.0, 1.0);
  v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
  return floor (v * 255.0 + 0.5);
}

static void
set_u16 (TestImage * t, gint x, gint y, gint c, guint16 v)
{
  ((guint16 *) (t->host + (gsize) y * t->image.pitch))[(gsize) x *
      t->image.channels + c] = v;
}

static guint8
out_byte (const TestImage * out, gint x, gint y, gint c)
{
  return out->host[(gsize) y * out->image.pitch + (gsize) x * 4 + c];
}

static cvcore_tonemap_frame
frame_of (const TestImage * t)
{
  cvcore_tonemap_frame f = { {t->image} };

  return f;
}

/* The planes of a source or output frame. */
typedef struct
{
  TestImage plane[3];
  gint n;
} Planes;

static cvcore_tonemap_frame
planes_frame (const Planes * p)
{
  cvcore_tonemap_frame f = { {{0}} };

  for (gint i = 0; i < p->n; i++)
    f.plane[i] = p->plane[i].image;
  return f;
}

/* A source frame of @layout: random samples (10-bit codes for Y'CbCr, in
 * the high bits when semi-planar, as P010), or @fill when >= 0. */
static Planes
source_new (gint w, gint h, cvcore_tonemap_layout layout, gint channels,
    cvcore_sample sample, gint fill, guint extra, guint32 seed)
{
  const gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  Planes p = { {{{0}}} };

  if (layout == CVCORE_TONEMAP_PACKED) {
    p.n = 1;
    p.plane[0] = cvtest_image_new (device, stream, w, h, channels, sample,
        fill, extra, seed);
    return p;
  }
  p.n = layout == CVCORE_TONEMAP_YUV420_SEMI ? 2 : 3;
  for (gint i = 0; i < p.n; i++) {
    TestImage *t = &p.plane[i];

    *t = cvtest_image_new (device, stream, i ? cw : w, i ? ch : h,
        i == 1 && p.n == 2 ? 2 : 1, CVCORE_SAMPLE_U16, fill, extra, seed + i);
    for (gint y = 0; y < t->image.height; y++) {
      guint16 *row = (guint16 *) (t->host + (gsize) y * t->image.pitch);

      for (gint x = 0; x < t->image.width * t->image.channels; x++)
        row[x] = p.n == 2 ? row[x] & 0xffc0 : row[x] & 0x3ff;
    }
    cvtest_image_upload (t, stream);
  }
  return p;
}

static void
planes_free (Planes * p, cvcore_device * dev)
{
  for (gint i = 0; i < p->n; i++)
    cvtest_image_free (&p->plane[i], dev);
}

/* Tone maps @src with @tm into a poisoned output of @params->output,
 * downloaded. */
static Planes
run_frame_with (cvcore_tonemapper * tm, const Planes * src,
    const cvcore_tonemap_params * params, gdouble dt)
{
  const gint w = src->plane[0].image.width, h = src->plane[0].image.height;
  const gboolean nv12 = params->output == CVCORE_TONEMAP_OUT_NV12;
  Planes out = {.n = nv12 ? 2 : 1 };
  cvcore_tonemap_frame in, to;

  out.plane[0] = cvtest_image_new (device, stream, w, h, nv12 ? 1 : 4,
      CVCORE_SAMPLE_U8, 0xcd, 0, 0);
  if (nv12)
    out.plane[1] = cvtest_image_new (device, stream, (w + 1) / 2,
        (h + 1) / 2, 2, CVCORE_SAMPLE_U8, 0xcd, 0, 0);
  in = planes_frame (src);
  to = planes_frame (&out);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to, params, dt),
      CVCORE_OK);
  for (gint i = 0; i < out.n; i++)
    cvtest_image_download (&out.plane[i], stream);
  return out;
}

static Planes
run_frame (const Planes * src, const cvcore_tonemap_params * params,
    cvcore_tonemap_adaptation * adapted)
{
  cvcore_tonemapper *tm;
  Planes out;

  fail_unless_equals_int (cvcore_tonemapper_new (device,
          src->plane[0].image.width, src->plane[0].image.height, &tm),
      CVCORE_OK);
  out = run_frame_with (tm, src, params, 0.0);
  if (adapted)
    fail_unless_equals_int (cvcore_tonemapper_adaptation (tm, stream, adapted),
        CVCORE_OK);
  cvcore_tonemapper_free (tm);
  return out;
}

/* Packed source and RGBA output. */
static TestImage
run_with (cvcore_tonemapper * tm, const TestImage * src,
    const cvcore_tonemap_params * params, gdouble dt)
{
  const Planes in = {.plane = {*src},.n = 1 };

  return run_frame_with (tm, &in, params, dt).plane[0];
}

static TestImage
run (const TestImage * src, const cvcore_tonemap_params * params,
    cvcore_tonemap_adaptation * adapted)
{
  const Planes in = {.plane = {*src},.n = 1 };

  return run_frame (&in, params, adapted).plane[0];
}

static gboolean
close_rel (gdouble a, gdouble b, gdouble tol)
{
  return fabs (a - b) <= tol * fmax (fabs (a), fabs (b));
}

/* Log-average, extremes, exposure and scale of a 2x2 luminance frame. */
GST_START_TEST (test_key)
{
  static const guint16 values[4] = { 0, 655, 6554, 65535 };
  TestImage src = cvtest_image_new (device, stream, 2, 2, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_tonemap_params params;
  cvcore_tonemap_adaptation adapted;
  gdouble sum = 0.0, lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, la;
  TestImage out;

  for (gint i = 0; i < 4; i++) {
    const gdouble lg = log (1e-4 + 2.0 * values[i] / 65535.0);

    set_u16 (&src, i % 2, i / 2, 0, values[i]);
    sum += lg;
    lo = MIN (lo, lg);
    hi = MAX (hi, lg);
  }
  cvtest_image_upload (&src, stream);
  cvcore_tonemap_params_init (&params);
  params.op = CVCORE_TONEMAP_GLOBAL;
  params.input_scale = 2.0;
  out = run (&src, &params, &adapted);
  la = sum / 4.0;
  fail_unless (close_rel (adapted.log_average, la, 1e-6));
  fail_unless (close_rel (adapted.log_min, lo, 1e-6));
  fail_unless (close_rel (adapted.log_max, hi, 1e-6));
  fail_unless_equals_float (adapted.exposure, 0.18);
  fail_unless (close_rel (adapted.scale, 0.18 / exp (la), 1e-6));
  cvtest_image_free (&out, device);

  /* Reinhard's estimate: 0.18 * 4^((2 la - lo - hi) / (hi - lo)). */
  params.auto_key = TRUE;
  out = run (&src, &params, &adapted);
  fail_unless (close_rel (adapted.exposure,
          0.18 * pow (4.0, (2.0 * la - lo - hi) / (hi - lo)), 1e-5));
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* Global curve against its closed form on random luminance and colour,
 * with and without a white point; the curve rises with luminance. */
GST_START_TEST (test_global_closed_form)
{
  static const gdouble whites[] = { INFINITY, 1.5 };
  TestImage src = cvtest_image_new (device, stream, 61, 23, 4,
      CVCORE_SAMPLE_U16, -1, 8, 7);
  cvcore_tonemap_params params;

  cvcore_tonemap_params_init (&params);
  params.op = CVCORE_TONEMAP_GLOBAL;
  params.saturation = 0.7;
  for (guint w = 0; w < G_N_ELEMENTS (whites); w++) {
    cvcore_tonemap_adaptation adapted;
    TestImage out;

    params.white_point = whites[w];
    out = run (&src, &params, &adapted);
    for (gint y = 0; y < 23; y++)
      for (gint x = 0; x < 61; x++) {
        const gdouble r = cvtest_host_sample (&src, x, y, 0) / 65535.0;
        const gdouble g = cvtest_host_sample (&src, x, y, 1) / 65535.0;
        const gdouble b = cvtest_host_sample (&src, x, y, 2) / 65535.0;
        const gdouble lw = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        const gdouble l = adapted.scale * lw;
        const gdouble ld = l * (1.0 + l / (whites[w] * whites[w])) / (1.0 + l);
        const gdouble rgb[3] = { r, g, b };

        for (gint c = 0; c < 3; c++)
          fail_unless (fabs (out_byte (&out, x, y, c) -
                  srgb_byte (pow (rgb[c] / lw, 0.7) * ld)) <= 1.0,
              "(%d, %d, %d): %d", x, y, c, out_byte (&out, x, y, c));
        fail_unless_equals_int (out_byte (&out, x, y, 3),
            (gint) floor (cvtest_host_sample (&src, x, y, 3) / 65535.0 *
                255.0 + 0.5));
      }
    cvtest_image_free (&out, device);
  }
  cvtest_image_free (&src, device);
}

GST_END_TEST;

GST_START_TEST (test_monotonic)
{
  TestImage src = cvtest_image_new (device, stream, 1000, 3, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_tonemap_params params;
  TestImage out;

  for (gint y = 0; y < 3; y++)
    for (gint x = 0; x < 1000; x++)
      set_u16 (&src, x, y, 0, (guint16) (65535.0 * pow (x / 999.0, 3.0)));
  cvtest_image_upload (&src, stream);
  cvcore_tonemap_params_init (&params);
  params.op = CVCORE_TONEMAP_GLOBAL;
  out = run (&src, &params, NULL);
  for (gint x = 1; x < 1000; x++)
    fail_unless (out_byte (&out, x, 1, 0) >= out_byte (&out, x - 1, 1, 0));
  fail_unless_equals_int (out_byte (&out, 0, 1, 0), 0);
  fail_unless (out_byte (&out, 999, 1, 0) > 200);
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* Black frames, single pixels, zero and saturated pixels: finite, and what
 * the equations give. */
GST_START_TEST (test_degenerate_frames)
{
  cvcore_tonemap_params params;

  cvcore_tonemap_params_init (&params);
  for (gint op = 0; op < 2; op++) {
    TestImage black = cvtest_image_new (device, stream, 70, 9, 4,
        CVCORE_SAMPLE_U16, 0, 0, 0);
    TestImage one = cvtest_image_new (device, stream, 1, 1, 4,
        CVCORE_SAMPLE_U16, 0, 0, 0);
    TestImage out;
    cvcore_tonemap_adaptation adapted;

    params.op = op;
    out = run (&black, &params, &adapted);
    fail_unless (isfinite (adapted.scale));
    for (gint y = 0; y < 9; y++)
      for (gint x = 0; x < 70; x++)
        for (gint c = 0; c < 3; c++)
          fail_unless_equals_int (out_byte (&out, x, y, c), 0);
    cvtest_image_free (&out, device);

    /* A lone grey pixel is its own log-average: L = 0.18 Lw / (1e-4 + Lw). */
    for (gint c = 0; c < 4; c++)
      set_u16 (&one, 0, 0, c, 30000);
    cvtest_image_upload (&one, stream);
    out = run (&one, &params, NULL);
    {
      const gdouble lw = 30000 / 65535.0, l = 0.18 * lw / (1e-4 + lw);

      for (gint c = 0; c < 3; c++)
        fail_unless (fabs (out_byte (&out, 0, 0, c) -
                srgb_byte (l / (1.0 + l))) <= 1.0);
    }
    cvtest_image_free (&out, device);
    cvtest_image_free (&one, device);

    /* Zero and saturated pixels side by side. */
    for (gint y = 0; y < 9; y++)
      for (gint x = 0; x < 70; x++)
        for (gint c = 0; c < 4; c++)
          set_u16 (&black, x, y, c, (x + y) % 2 ? 65535 : 0);
    cvtest_image_upload (&black, stream);
    out = run (&black, &params, &adapted);
    for (gint y = 0; y < 9; y++)
      for (gint x = 0; x < 70; x++) {
        if ((x + y) % 2 == 0) {
          fail_unless_equals_int (out_byte (&out, x, y, 0), 0);
        } else {
          fail_unless (out_byte (&out, x, y, 0) > 0);
        }
      }
    cvtest_image_free (&out, device);
    cvtest_image_free (&black, device);
  }
}

GST_END_TEST;

/* A vertical step from bright (left) to dark (right): every pixel of the
 * middle row against the walk worked out from box counts, and the pixels
 * near the edge keep boxes that do not cross it. */
GST_START_TEST (test_step_edge)
{
  const gint w = 160, h = 101, edge = 80, ym = 50;
  const guint16 bright = 60000, dark = 300;
  TestImage src = cvtest_image_new (device, stream, w, h, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  cvcore_tonemap_params params;
  cvcore_tonemap_adaptation adapted;
  TestImage out;

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      set_u16 (&src, x, y, 0, x < edge ? bright : dark);
  cvtest_image_upload (&src, stream);
  cvcore_tonemap_params_init (&params);
  out = run (&src, &params, &adapted);

  for (gint x = 20; x < w - 20; x++) {
    const gdouble lb = adapted.scale * bright / 65535.0;
    const gdouble ld = adapted.scale * dark / 65535.0;
    const gdouble l = x < edge ? lb : ld;
    const gdouble ts = 256.0 * adapted.exposure;
    gdouble v[8];
    gint best = 0;

    for (gint i = 0; i < 8; i++) {
      const gint e = cvcore_tonemap_box_edge (i), r = e / 2;
      /* bright columns in [x - r, x + r] */
      const gint nb = CLAMP (edge - (x - r), 0, e);

      v[i] = (nb * lb + (e - nb) * ld) / e;
    }
    for (gint i = 0; i < 7; i++) {
      const gdouble act =
          (v[i] - v[i +
              1]) / (ts / ((gdouble) (cvcore_tonemap_box_edge (i) *
                  cvcore_tonemap_box_edge (i))) + v[i]);

      if (!(fabs (act) < 0.025))
        break;
      best = i;
    }
    fail_unless (fabs (out_byte (&out, x, ym, 0) -
            srgb_byte (l / (1.0 + v[best]))) <= 1.0, "x %d: %d, scale %d",
        x, out_byte (&out, x, ym, 0), best);
    /* Three pixels into the dark side, the 7-pixel box is the largest
     * that stays dark; the dark pixel is compressed against itself. */
    if (x == edge + 3)
      fail_unless (fabs (v[best] - ld) < 1e-12 && best >= 2);
  }
  cvtest_image_free (&out, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* 100 frames whose brightness jumps at frame 30 and falls at 70: the
 * log-average follows with time constant 0.5 s at 30 fps; a reset takes the
 * frame's own. */
GST_START_TEST (test_adaptation)
{
  TestImage src = cvtest_image_new (device, stream, 37, 29, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  const gdouble dt = 1.0 / 30.0, tau = 0.5;
  cvcore_tonemap_params params;
  cvcore_tonemapper *tm;
  gdouble expect = 0.0;

  cvcore_tonemap_params_init (&params);
  params.adaptation_time = tau;
  fail_unless_equals_int (cvcore_tonemapper_new (device, 37, 29, &tm),
      CVCORE_OK);
  for (gint n = 0; n < 100; n++) {
    const guint16 level = n < 30 ? 100 : n < 70 ? 50000 : 1000;
    const gdouble now = log (1e-4 + level / 65535.0);
    cvcore_tonemap_adaptation adapted;
    TestImage out;

    for (gint y = 0; y < 29; y++)
      for (gint x = 0; x < 37; x++)
        set_u16 (&src, x, y, 0, level);
    cvtest_image_upload (&src, stream);
    if (n == 90)
      cvcore_tonemapper_reset (tm);
    out = run_with (tm, &src, &params, dt);
    fail_unless_equals_int (cvcore_tonemapper_adaptation (tm, stream, &adapted),
        CVCORE_OK);
    expect = n == 0 || n == 90 ? now :
        expect + (now - expect) * (1.0 - exp (-dt / tau));
    fail_unless (fabs (adapted.log_average - expect) < 1e-5, "frame %d: %g, %g",
        n, adapted.log_average, expect);
    cvtest_image_free (&out, device);
  }
  cvcore_tonemapper_free (tm);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* SMPTE ST 2084 and ARIB STD-B67, written out from the standards. */
static gdouble
pq_light (gdouble e)
{
  const gdouble m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375;
  const gdouble c2 = 18.8515625, c3 = 18.6875;
  const gdouble p = pow (CLAMP (e, 0.0, 1.0), 1.0 / m2);

  /* 10000 cd/m^2 is 100.0 */
  return 100.0 * pow (MAX (p - c1, 0.0) / (c2 - c3 * p), 1.0 / m1);
}

static gdouble
hlg_light (gdouble e)
{
  const gdouble a = 0.17883277, b = 1.0 - 4.0 * a;
  const gdouble c = 0.5 - a * log (4.0 * a);

  e = CLAMP (e, 0.0, 1.0);
  return e <= 0.5 ? e * e / 3.0 : (exp ((e - c) / a) + b) / 12.0;
}

static void
set_code (Planes * p, gint plane, gint x, gint y, gint c, guint16 code)
{
  set_u16 (&p->plane[plane], x, y, c, p->n == 2 ? code << 6 : code);
}

/* Grey 2x2 blocks of 10-bit Y'CbCr, PQ (P010 layout) and HLG (I420_10LE
 * layout), limited range, BT.2020 matrix: the log-average and every pixel against
 * the transfer functions; a red block comes out red; a BT.2020 green
 * comes out BT.709 green. */
GST_START_TEST (test_sources)
{
  static const guint16 codes[3] = { 300, 520, 900 };
  cvcore_tonemap_params params;

  cvcore_tonemap_params_init (&params);
  params.op = CVCORE_TONEMAP_GLOBAL;
  for (gint hlg = 0; hlg < 2; hlg++) {
    const cvcore_tonemap_layout layout = hlg ? CVCORE_TONEMAP_YUV420 :
        CVCORE_TONEMAP_YUV420_SEMI;
    Planes src = source_new (6, 4, layout, 1, CVCORE_SAMPLE_U16, 0, 0, 0);
    gdouble light[3], sum = 0.0;
    cvcore_tonemap_adaptation adapted;
    Planes out;

    cvcore_tonemap_source_init_bt2100 (&params.source, layout,
        hlg ? CVCORE_TONEMAP_HLG : CVCORE_TONEMAP_PQ, hlg ? 0 : 6);
    for (gint b = 0; b < 3; b++) {
      const gdouble e = (codes[b] - 64) / 876.0;

      light[b] = hlg ? hlg_light (e) : pq_light (e);
      sum += 4.0 * log (1e-4 + light[b]);
      for (gint y = 0; y < 4; y++)
        for (gint x = 2 * b; x < 2 * b + 2; x++)
          set_code (&src, 0, x, y, 0, codes[b]);
      for (gint y = 0; y < 2; y++) {
        set_code (&src, 1, b, y, 0, 512);
        set_code (&src, hlg ? 2 : 1, b, y, hlg ? 0 : 1, 512);
      }
    }
    for (gint i = 0; i < src.n; i++)
      cvtest_image_upload (&src.plane[i], stream);
    out = run_frame (&src, &params, &adapted);
    fail_unless (fabs (adapted.log_average - sum / 12.0) < 1e-4, "%g, %g",
        adapted.log_average, sum / 12.0);
    for (gint y = 0; y < 4; y++)
      for (gint x = 0; x < 6; x++) {
        const gdouble l = adapted.scale * light[x / 2];

        for (gint c = 0; c < 3; c++)
          fail_unless (fabs (out_byte (&out.plane[0], x, y, c) -
                  srgb_byte (l / (1.0 + l))) <= 1.0, "(%d, %d): %d", x, y,
              out_byte (&out.plane[0], x, y, c));
        fail_unless_equals_int (out_byte (&out.plane[0], x, y, 3), 255);
      }
    planes_free (&out, device);

    /* Cr up: red */
    set_code (&src, hlg ? 2 : 1, 1, 0, hlg ? 0 : 1, 800);
    cvtest_image_upload (&src.plane[hlg ? 2 : 1], stream);
    out = run_frame (&src, &params, NULL);
    fail_unless (out_byte (&out.plane[0], 2, 0, 0) > out_byte (&out.plane[0],
            2, 0, 1) + 20);
    fail_unless (out_byte (&out.plane[0], 2, 0, 0) > out_byte (&out.plane[0],
            2, 0, 2) + 20);
    planes_free (&out, device);
    planes_free (&src, device);
  }

  {
    TestImage green = cvtest_image_new (device, stream, 3, 1, 4,
        CVCORE_SAMPLE_U16, 0, 0, 0);
    TestImage out;

    cvcore_tonemap_params_init (&params);
    params.source.primaries = CVCORE_TONEMAP_BT2020;
    for (gint x = 0; x < 3; x++) {
      set_u16 (&green, x, 0, x == 1 ? 0 : 1, 30000);
      set_u16 (&green, x, 0, 3, 65535);
    }
    cvtest_image_upload (&green, stream);
    out = run (&green, &params, NULL);
    fail_unless_equals_int (out_byte (&out, 0, 0, 0), 0);
    fail_unless_equals_int (out_byte (&out, 0, 0, 2), 0);
    fail_unless (out_byte (&out, 0, 0, 1) > 100);
    /* pure BT.2020 red is out of the BT.709 gamut on the green side too */
    fail_unless (out_byte (&out, 1, 0, 0) > 100);
    fail_unless_equals_int (out_byte (&out, 1, 0, 1), 0);
    cvtest_image_free (&out, device);
    cvtest_image_free (&green, device);
  }
}

GST_END_TEST;

/* NV12 output against the RGBA output of the same frame, through the
 * BT.709 matrix, limited range, chroma from 2x2 means (odd size: the last
 * blocks are partial). */
GST_START_TEST (test_nv12_output)
{
  const gint w = 33, h = 17;
  const gdouble kr = 0.2126, kb = 0.0722, kg = 1.0 - kr - kb;
  TestImage src = cvtest_image_new (device, stream, w, h, 4,
      CVCORE_SAMPLE_U16, -1, 0, 5);
  const Planes in = {.plane = {src},.n = 1 };
  cvcore_tonemap_params params;
  Planes rgba, nv12;

  cvcore_tonemap_params_init (&params);
  rgba = run_frame (&in, &params, NULL);
  params.output = CVCORE_TONEMAP_OUT_NV12;
  nv12 = run_frame (&in, &params, NULL);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const TestImage *o = &rgba.plane[0];
      const gdouble expect = floor (16.0 + 219.0 * (kr * out_byte (o, x, y, 0)
              + kg * out_byte (o, x, y, 1) + kb * out_byte (o, x, y,
                  2)) / 255.0 + 0.5);

      fail_unless (fabs (nv12.plane[0].host[y * nv12.plane[0].image.pitch +
                  x] - expect) <= 1.0, "Y (%d, %d)", x, y);
    }
  for (gint y = 0; y < (h + 1) / 2; y++)
    for (gint x = 0; x < (w + 1) / 2; x++) {
      gdouble r = 0.0, g = 0.0, b = 0.0, yl;
      gint n = 0;
      const guint8 *uv = nv12.plane[1].host + y * nv12.plane[1].image.pitch +
          2 * x;

      for (gint j = 2 * y; j < MIN (2 * y + 2, h); j++)
        for (gint i = 2 * x; i < MIN (2 * x + 2, w); i++, n++) {
          r += out_byte (&rgba.plane[0], i, j, 0) / 255.0;
          g += out_byte (&rgba.plane[0], i, j, 1) / 255.0;
          b += out_byte (&rgba.plane[0], i, j, 2) / 255.0;
        }
      r /= n;
      g /= n;
      b /= n;
      yl = kr * r + kg * g + kb * b;
      fail_unless (fabs (uv[0] - floor (128.0 + 112.0 * (b - yl) / (1.0 - kb)
                  + 0.5)) <= 1.0, "Cb (%d, %d)", x, y);
      fail_unless (fabs (uv[1] - floor (128.0 + 112.0 * (r - yl) / (1.0 - kr)
                  + 0.5)) <= 1.0, "Cr (%d, %d)", x, y);
    }
  planes_free (&rgba, device);
  planes_free (&nv12, device);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  TestImage src = cvtest_image_new (device, stream, 16, 16, 4,
      CVCORE_SAMPLE_U16, 0, 0, 0);
  TestImage out = cvtest_image_new (device, stream, 16, 16, 4,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  TestImage small = cvtest_image_new (device, stream, 15, 16, 4,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  TestImage two = cvtest_image_new (device, stream, 16, 16, 2,
      CVCORE_SAMPLE_U8, 0, 0, 0);
  const cvcore_tonemap_frame in = frame_of (&src), to = frame_of (&out);
  const cvcore_tonemap_frame to_small = frame_of (&small), in_two =
      frame_of (&two);
  cvcore_tonemap_params params;
  cvcore_tonemapper *tm;

  fail_unless_equals_int (cvcore_tonemapper_new (device, 0, 16, &tm),
      CVCORE_ERROR_INVALID_VALUE);
  fail_unless (tm == NULL);
  fail_unless_equals_int (cvcore_tonemapper_new (device, 16, 16, &tm),
      CVCORE_OK);
  cvcore_tonemap_params_init (&params);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to, &params,
          0.0), CVCORE_OK);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to_small,
          &params, 0.0), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in_two, &to, &params,
          0.0), CVCORE_ERROR_INVALID_VALUE);
  /* NV12 output without its chroma plane, Y'CbCr without chroma */
  params.output = CVCORE_TONEMAP_OUT_NV12;
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to, &params,
          0.0), CVCORE_ERROR_INVALID_VALUE);
  params.output = CVCORE_TONEMAP_OUT_RGBA;
  params.source.layout = CVCORE_TONEMAP_YUV420_SEMI;
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to, &params,
          0.0), CVCORE_ERROR_INVALID_VALUE);
  params.source.layout = CVCORE_TONEMAP_PACKED;
  params.scales = 9;
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to, &params,
          0.0), CVCORE_ERROR_INVALID_VALUE);
  params.scales = 8;
  params.key = NAN;
  fail_unless_equals_int (cvcore_tonemap (stream, tm, &in, &to, &params,
          0.0), CVCORE_ERROR_INVALID_VALUE);
  cvcore_tonemapper_free (tm);
  cvtest_image_free (&src, device);
  cvtest_image_free (&out, device);
  cvtest_image_free (&small, device);
  cvtest_image_free (&two, device);
}

GST_END_TEST;

/* @p in a new frame on the CPU backend's @cpu. */
static Planes
planes_on_cpu (cvcore_device * cpu, cvcore_stream * cpu_stream,
    const Planes * p)
{
  Planes c = {.n = p->n };

  for (gint i = 0; i < p->n; i++)
    c.plane[i] = cvtest_image_on_cpu (cpu, cpu_stream, &p->plane[i]);
  return c;
}

/* Largest difference of a pixel's bytes in plane @i of two outputs. */
static gint
pixel_difference (const Planes * a, const Planes * b, gint i, gint x, gint y)
{
  const cvcore_image *im = &a->plane[i].image;
  const gsize bpp = im->channels;
  gint d = 0;

  for (gsize c = 0; c < bpp; c++)
    d = MAX (d, abs (a->plane[i].host[y * im->pitch + x * bpp + c] -
            b->plane[i].host[y * b->plane[i].image.pitch + x * bpp + c]));
  return d;
}

/* The night scene as 10-bit Y'CbCr video: light (65535 = 100.0 for PQ,
 * 1.0 for HLG) through the inverse transfer, the BT.2020 matrix, limited
 * range; chroma of each 2x2 block from its top-left pixel. */
static void
paint_night_video (Planes * p, gboolean hlg, guint32 seed)
{
  const gint w = p->plane[0].image.width, h = p->plane[0].image.height;
  const gdouble kr = 0.2627, kb = 0.0593;
  guint16 *rgba = g_new (guint16, (gsize) w * h * 4);

  night_scene_paint (rgba, (gsize) w * 8, w, h, 4, seed, 1.0);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      gdouble e[3], yl;

      for (gint c = 0; c < 3; c++) {
        const gdouble v = rgba[((gsize) y * w + x) * 4 + c] / 65535.0;

        if (hlg) {
          const gdouble a = 0.17883277, b = 1.0 - 4.0 * a;

          e[c] = v <= 1.0 / 12.0 ? sqrt (3.0 * v) : a * log (12.0 * v - b) +
              0.5 - a * log (4.0 * a);
        } else {
          /* light 100 v in units of 100 cd/m^2: v of PQ's 10000 */
          const gdouble m1 = 0.1593017578125, m2 = 78.84375;
          const gdouble yp = pow (v, m1);

          e[c] = pow ((0.8359375 + 18.8515625 * yp) / (1.0 + 18.6875 * yp), m2);
        }
      }
      yl = kr * e[0] + (1.0 - kr - kb) * e[1] + kb * e[2];
      set_code (p, 0, x, y, 0, (guint16) floor (64.0 + 876.0 * yl + 0.5));
      if (x % 2 == 0 && y % 2 == 0) {
        const guint16 cb = (guint16) floor (512.0 + 448.0 * (e[2] - yl) /
            (1.0 - kb) + 0.5);
        const guint16 cr = (guint16) floor (512.0 + 448.0 * (e[0] - yl) /
            (1.0 - kr) + 0.5);

        set_code (p, 1, x / 2, y / 2, 0, cb);
        set_code (p, p->n == 2 ? 1 : 2, x / 2, y / 2, p->n == 2 ? 1 : 0, cr);
      }
    }
  for (gint i = 0; i < p->n; i++)
    cvtest_image_upload (&p->plane[i], stream);
  g_free (rgba);
}

/* CUDA against the CPU reference: random and night-scene frames, odd
 * sizes, every source layout, transfer and output and both operators; at
 * least 999 in 1000 pixels within one unit, none off by more than two.
 * PQ and HLG coded Y'CbCr (the night scene as video, or random codes) is
 * decoded in single precision on the GPU, to about 1e-6 of the double
 * reference (the transfer's powers amplify rounding): a scale decision of
 * the local operator that sits that close to epsilon can go the other way
 * and change its pixel by more (a few pixels per million); for these at
 * least 9999 in 10000 pixels must be within one unit. */
GST_START_TEST (test_cuda_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {17, 5}, {333, 197},
  {1921, 1081}, {64, 64}
  };

  for (guint n = 0; n < 30; n++) {
    const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
    const gint channels = n % 3 == 2 ? 1 : 4;
    const cvcore_sample sample = n % 4 == 3 ? CVCORE_SAMPLE_U8 :
        CVCORE_SAMPLE_U16;
    const cvcore_tonemap_layout layout = n < 20 ? CVCORE_TONEMAP_PACKED :
        n % 2 ? CVCORE_TONEMAP_YUV420 : CVCORE_TONEMAP_YUV420_SEMI;
    const gboolean coded = layout != CVCORE_TONEMAP_PACKED;
    cvcore_tonemap_params params;
    Planes src, cpu_src, out, cpu_out;
    gint64 off_by_two = 0, pixels = 0;
    gint worst = 0;

    cvcore_tonemap_params_init (&params);
    params.op = n % 5 == 4 ? CVCORE_TONEMAP_GLOBAL : CVCORE_TONEMAP_LOCAL;
    params.auto_key = n % 2;
    params.saturation = n % 3 ? 1.0 : 0.7;
    params.scales = 3 + n % 6;
    params.output = n % 7 == 1 ? CVCORE_TONEMAP_OUT_BGRX : n % 4 == 2 ?
        CVCORE_TONEMAP_OUT_NV12 : CVCORE_TONEMAP_OUT_RGBA;
    params.source.primaries =
        n % 2 ? CVCORE_TONEMAP_BT2020 : CVCORE_TONEMAP_BT709;
    params.source.transfer =
        n % 6 == 5 ? CVCORE_TONEMAP_PQ : CVCORE_TONEMAP_LINEAR;
    if (layout != CVCORE_TONEMAP_PACKED)
      cvcore_tonemap_source_init_bt2100 (&params.source, layout, n % 3 == 0 ?
          CVCORE_TONEMAP_HLG : CVCORE_TONEMAP_PQ,
          layout == CVCORE_TONEMAP_YUV420_SEMI ? 6 : 0);
    src = source_new (size[0], size[1], layout, channels,
        layout == CVCORE_TONEMAP_PACKED ? sample : CVCORE_SAMPLE_U16, -1,
        n % 2 * 40, n + 11);
    if (coded && n / 2 % 2 == 0)
      paint_night_video (&src, n % 3 == 0, n);
    if (layout == CVCORE_TONEMAP_PACKED && sample == CVCORE_SAMPLE_U16
        && n % 2 == 0) {
      night_scene_paint ((guint16 *) src.plane[0].host,
          src.plane[0].image.pitch, size[0], size[1], channels, n, 1.0);
      cvtest_image_upload (&src.plane[0], stream);
    }
    cpu_src = planes_on_cpu (cvtest_cpu, cvtest_cpu_stream, &src);
    out = run_frame (&src, &params, NULL);
    {
      cvcore_device *saved_device = device;
      cvcore_stream *saved_stream = stream;

      device = cvtest_cpu;
      stream = cvtest_cpu_stream;
      cpu_out = run_frame (&cpu_src, &params, NULL);
      device = saved_device;
      stream = saved_stream;
    }
    for (gint i = 0; i < out.n; i++)
      for (gint y = 0; y < out.plane[i].image.height; y++)
        for (gint x = 0; x < out.plane[i].image.width; x++) {
          const gint d = pixel_difference (&out, &cpu_out, i, x, y);

          if (d > 2)
            GST_INFO ("case %u plane %d (%d, %d): off by %d", n, i, x, y, d);
          off_by_two += d > 1;
          worst = MAX (worst, d);
          pixels++;
        }
    GST_INFO ("case %u (%dx%d, layout %d, output %d): %" G_GINT64_FORMAT
        " pixels off by 2, worst %d", n, size[0], size[1], layout,
        params.output, off_by_two, worst);
    if (coded) {
      fail_unless (off_by_two * 10000 <= pixels, "case %u: %" G_GINT64_FORMAT
          " of %" G_GINT64_FORMAT " pixels off by 2", n, off_by_two, pixels);
    } else {
      fail_unless (worst <= 2, "case %u: a pixel off by %d", n, worst);
      fail_unless (off_by_two * 1000 <= pixels, "case %u: %" G_GINT64_FORMAT
          " of %" G_GINT64_FORMAT " pixels off by 2", n, off_by_two, pixels);
    }
    planes_free (&out, device);
    planes_free (&src, device);
    planes_free (&cpu_out, cvtest_cpu);
    planes_free (&cpu_src, cvtest_cpu);
  }
}

GST_END_TEST;

static Suite *
tonemap_suite (void)
{
  Suite *s = suite_create ("tonemap");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_key);
  tcase_add_test (tc, test_global_closed_form);
  tcase_add_test (tc, test_monotonic);
  tcase_add_test (tc, test_degenerate_frames);
  tcase_add_test (tc, test_step_edge);
  tcase_add_test (tc, test_adaptation);
  tcase_add_test (tc, test_sources);
  tcase_add_test (tc, test_nv12_output);
  tcase_add_test (tc, test_bad_arguments);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_equals_cpu);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, tonemap_suite);
}
