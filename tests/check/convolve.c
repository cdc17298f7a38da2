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

/* Tests of the convolution core: the taps parser (with a fuzzer), planning,
 * the CPU reference against an independent double-precision convolution,
 * and, on the CUDA backend, CUDA against the CPU reference. */
#include <math.h>
#include <string.h>

#include "cvtest.h"
#include "cvimage.h"
#include "cvconvolve.h"
#include "convolve-common.h"

static guint32 rng_state = 1;

static guint32
rng (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static gint
rng_range (gint lo, gint hi)
{
  return lo + (gint) (rng () % (guint32) (hi - lo + 1));
}

static cvcore_convolve_taps
parse_ok (const gchar * text)
{
  cvcore_convolve_taps taps;
  gchar error[160] = "";

  fail_unless (cvcore_convolve_taps_parse (text, &taps, error, sizeof (error)),
      "'%s' refused: %s", text, error);
  return taps;
}

static void
parse_fails (const gchar * text, const gchar * needle)
{
  cvcore_convolve_taps taps;
  gchar error[160] = "";

  fail_if (cvcore_convolve_taps_parse (text, &taps, error, sizeof (error)),
      "'%s' accepted", text);
  fail_unless (strstr (error, needle) != NULL, "'%s': error '%s' lacks '%s'",
      text, error, needle);
}

GST_START_TEST (test_parse_valid)
{
  cvcore_convolve_taps taps = parse_ok ("1 2 1; 2 4 2; 1 2 1");
  const float expect[] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };

  fail_unless_equals_int (taps.width, 3);
  fail_unless_equals_int (taps.height, 3);
  fail_unless (memcmp (taps.taps, expect, sizeof (expect)) == 0);

  taps = parse_ok ("  -0.5,1.25e1\t+3 ;\n 4 5 6;");
  fail_unless_equals_int (taps.width, 3);
  fail_unless_equals_int (taps.height, 2);
  fail_unless_equals_float (taps.taps[0], -0.5f);
  fail_unless_equals_float (taps.taps[1], 12.5f);
  fail_unless_equals_float (taps.taps[5], 6.0f);

  taps = parse_ok ("7");
  fail_unless_equals_int (taps.width * taps.height, 1);
  taps = parse_ok ("1 2 3 4");
  fail_unless_equals_int (taps.height, 1);
  taps = parse_ok ("1;2;3;4");
  fail_unless_equals_int (taps.width, 1);
  fail_unless_equals_int (taps.height, 4);
}

GST_END_TEST;

static gchar *
square_kernel (gint width, gint height)
{
  GString *s = g_string_new (NULL);

  for (gint j = 0; j < height; j++) {
    for (gint i = 0; i < width; i++)
      g_string_append_printf (s, "%d ", (i + j) % 7 - 3);
    g_string_append (s, j + 1 < height ? ";" : "");
  }
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_parse_limits)
{
  gchar *text = square_kernel (63, 63);
  cvcore_convolve_taps taps = parse_ok (text);

  fail_unless_equals_int (taps.width, 63);
  fail_unless_equals_int (taps.height, 63);
  fail_unless_equals_float (taps.taps[62 * 63 + 62], (62 + 62) % 7 - 3);
  g_free (text);

  text = square_kernel (64, 1);
  parse_fails (text, "more than 63");
  g_free (text);
  text = square_kernel (1, 64);
  parse_fails (text, "more than 63 rows");
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_parse_errors)
{
  parse_fails ("", "no numbers");
  parse_fails ("   ", "no numbers");
  parse_fails (";", "empty");
  parse_fails ("1 2;;3 4", "row 2 is empty");
  parse_fails ("1 2; 3", "row 2 has 1 numbers, row 1 has 2");
  parse_fails ("1; 2 3", "more numbers than row 1");
  parse_fails ("a b", "not a number");
  parse_fails ("1 2x", "unexpected 'x'");
  parse_fails ("1..2", "unexpected '.'");
  parse_fails ("nan", "not a number");
  parse_fails ("inf 1", "not a number");
  parse_fails ("1e400", "out of range");
  parse_fails ("-2e6", "out of range");
  parse_fails ("-", "not a number");
  /* the message quotes the bad token, and only it */
  parse_fails ("1 2 3; 4 5 six; 7 8 9", "row 2: 'six' is not a number");
  parse_fails ("1 2 3; 1e99 4 5; 6 7 8", "row 2: 1e99 is out of range");
}

GST_END_TEST;

/* Random strings, and valid kernels with random edits: the parser must
 * never read or write out of bounds (valgrind watches in CI) and whatever
 * it accepts must be a consistent kernel. */
GST_START_TEST (test_parse_fuzz)
{
  static const gchar alphabet[] = "0123456789 -+.;,eExX\t\n#";
  const guint rounds = g_getenv ("CVTEST_QUICK") ? 3000 : 30000;
  gchar buf[600];

  rng_state = 12345;
  for (guint n = 0; n < rounds; n++) {
    cvcore_convolve_taps taps;
    gchar error[64];
    gsize len;

    if (n % 2) {
      len = rng () % (sizeof (buf) - 1);
      for (gsize i = 0; i < len; i++)
        buf[i] = alphabet[rng () % (sizeof (alphabet) - 1)];
    } else {
      gchar *base = square_kernel (rng_range (1, 70), rng_range (1, 9));

      g_strlcpy (buf, base, sizeof (buf));
      g_free (base);
      len = strlen (buf);
      for (guint e = rng () % 4; e > 0 && len > 0; e--)
        buf[rng () % len] = alphabet[rng () % (sizeof (alphabet) - 1)];
    }
    buf[len] = '\0';
    /* an error buffer smaller than most messages must be cut, not overrun */
    if (cvcore_convolve_taps_parse (buf, &taps, error, sizeof (error))) {
      fail_unless (taps.width >= 1 && taps.width <= CVCORE_CONVOLVE_MAX_SIZE);
      fail_unless (taps.height >= 1 && taps.height <= CVCORE_CONVOLVE_MAX_SIZE);
      for (gint i = 0; i < taps.width * taps.height; i++)
        fail_unless (isfinite (taps.taps[i])
            && fabsf (taps.taps[i]) <= CVCORE_CONVOLVE_MAX_TAP);
    } else {
      fail_unless (strlen (error) > 0 && strlen (error) < sizeof (error));
    }
  }
  fail_if (cvcore_convolve_taps_parse (NULL, NULL, NULL, 0));
}

GST_END_TEST;

static cvcore_convolve_plan
plan_for (const gchar * text, cvcore_sample sample)
{
  cvcore_convolve_taps taps = parse_ok (text);
  cvcore_convolve_plan plan;

  fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, -1, -1, 0.0,
          0.0, CVCORE_BORDER_CLAMP, 0.0, sample), CVCORE_OK);
  return plan;
}

GST_START_TEST (test_plan)
{
  cvcore_convolve_plan plan =
      plan_for ("1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; "
      "4 16 24 16 4; 1 4 6 4 1", CVCORE_SAMPLE_U8);
  cvcore_convolve_taps taps = parse_ok ("1 2; 3 4");
  const float gauss[] = { 1, 4, 6, 4, 1 };

  fail_unless (plan.separable);
  fail_unless (memcmp (plan.row, gauss, sizeof (gauss)) == 0);
  fail_unless (memcmp (plan.column, gauss, sizeof (gauss)) == 0);
  fail_unless_equals_float (plan.divisor, 256.0f);
  fail_unless_equals_int (plan.anchor_x, 2);

  plan = plan_for ("-1 0 1; -2 0 2; -1 0 1", CVCORE_SAMPLE_U8);
  fail_unless (plan.separable);
  /* the taps sum to 0: divide by 1 */
  fail_unless_equals_float (plan.divisor, 1.0f);
  for (gint j = 0; j < 3; j++)
    for (gint i = 0; i < 3; i++)
      fail_unless_equals_float (plan.column[j] * plan.row[i],
          plan.taps[j * 3 + i]);

  fail_if (plan_for ("0 -1 0; -1 5 -1; 0 -1 0", CVCORE_SAMPLE_U8).separable);
  fail_if (plan_for ("0 1 0; 1 -4 1; 0 1 0", CVCORE_SAMPLE_U8).separable);
  fail_unless (plan_for ("0 0 0; 0 6 9; 0 4 6", CVCORE_SAMPLE_U8).separable);
  fail_unless (plan_for ("0.5 0.25; 1 0.5", CVCORE_SAMPLE_U8).separable);
  fail_if (plan_for ("0.5 0.25; 1 0.6", CVCORE_SAMPLE_U8).separable);
  fail_if (plan_for ("0 0; 0 0", CVCORE_SAMPLE_U8).separable);

  /* Sums that leave float's exact integers take double. */
  fail_if (plan_for ("1 1 1; 1 1 1; 1 1 1", CVCORE_SAMPLE_U16).use_double);
  plan = plan_for ("1000 -1000; 7 1", CVCORE_SAMPLE_U16);
  fail_unless (plan.use_double);
  fail_if (plan.separable);
  fail_if (plan_for ("0.5 2000", CVCORE_SAMPLE_U16).use_double);

  fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, 2, 0, 0.0,
          0.0, CVCORE_BORDER_CLAMP, 0.0, CVCORE_SAMPLE_U8),
      CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, 1, 1, 0.0,
          0.0, CVCORE_BORDER_CLAMP, 0.0, CVCORE_SAMPLE_U8), CVCORE_OK);
  fail_unless_equals_float (plan.divisor, 10.0f);
  /* a divisor whose reciprocal overflows */
  fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, 1, 1, 1e-40,
          0.0, CVCORE_BORDER_CLAMP, 0.0, CVCORE_SAMPLE_U8),
      CVCORE_ERROR_INVALID_VALUE);
}

GST_END_TEST;

/* The division-free rounding gives what dividing does, for whole and
 * fractional sums, divisors and biases. */
GST_START_TEST (test_finish)
{
  GRand *rand = g_rand_new_with_seed (77);
  const gint rounds = g_getenv ("CVTEST_QUICK") ? 20000 : 2000000;

  for (gint n = 0; n < rounds; n++) {
    const gboolean whole = n % 2 == 0;
    const float acc = whole ? (float) g_rand_int_range (rand, -2000000,
        17000000) : (float) g_rand_double_range (rand, -1e5, 2e7);
    const float divisor = n % 3 ? (float) g_rand_int_range (rand, 1, 70000) :
        (float) g_rand_double_range (rand, -300.0, 5000.0);
    const float bias = n % 5 ? 0.0f : (float) g_rand_int_range (rand, -50, 50);
    const int max_value = n % 7 ? 255 : 65535;
    float v = floorf (acc / divisor + (bias + 0.5f));
    int want = v <= 0.0f ? 0 : v >= max_value ? max_value : (int) v;

    if (divisor == 0.0f)
      continue;
    fail_unless (cv_finish_float (acc, divisor, 1.0f / divisor, bias + 0.5f,
            max_value) == want, "%.9g / %.9g + %g: %d, dividing gives %d",
        acc, divisor, bias, cv_finish_float (acc, divisor, 1.0f / divisor,
            bias + 0.5f, max_value), want);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* The integer rounding of the packed 8-bit path equals the float rounding
 * for every sum it can meet, for divisors and biases across its range, and
 * is refused outside that range. */
GST_START_TEST (test_finish_int)
{
  static const float biases[] = { -255, -130, -3, -1, 0, 1, 7, 128, 255 };
  const gint step = g_getenv ("CVTEST_QUICK") ? 7 : 1;
  cv_int_finish f;

  for (gint divisor = 1; divisor <= CV_INT_FINISH_MAX_DIVISOR;
      divisor += divisor < 80 ? 1 : 37) {
    for (guint b = 0; b < G_N_ELEMENTS (biases); b++) {
      fail_unless (cv_int_finish_init (&f, (float) divisor, biases[b]));
      for (gint acc = -CV_INT_FINISH_MAX_SUM; acc <= CV_INT_FINISH_MAX_SUM;
          acc += step) {
        const int want = cv_finish_float ((float) acc, (float) divisor,
            1.0f / (float) divisor, biases[b] + 0.5f, 255);

        if (cv_finish_int (acc, &f, 255) != want)
          fail ("%d / %d + %g: %d, float rounding gives %d", acc, divisor,
              biases[b], cv_finish_int (acc, &f, 255), want);
        /* the shortcut for sums >= 0 that cannot saturate */
        if (acc >= 0 && biases[b] >= 0 && acc + f.add < 256 * divisor &&
            cv_finish_int_nonnegative (acc, &f) != want)
          fail ("%d / %d + %g: %d without clamps, float rounding gives %d",
              acc, divisor, biases[b], cv_finish_int_nonnegative (acc, &f),
              want);
      }
    }
  }
  fail_unless (cv_int_finish_init (&f, 1024.0f, 0.0f));
  fail_if (cv_int_finish_init (&f, 1025.0f, 0.0f));
  fail_if (cv_int_finish_init (&f, 0.0f, 0.0f));
  fail_if (cv_int_finish_init (&f, -4.0f, 0.0f));
  fail_if (cv_int_finish_init (&f, 9.5f, 0.0f));
  fail_if (cv_int_finish_init (&f, 9.0f, 0.25f));
  fail_if (cv_int_finish_init (&f, 9.0f, 256.0f));
}

GST_END_TEST;

/* The gray tile's whole quotients: floor (n r) = floor (n / d) for every
 * n below the limit. Both sides grow with n, so checking each multiple
 * of d and the last whole number before the next one covers all. */
GST_START_TEST (test_whole_quotient)
{
  const gint step = g_getenv ("CVTEST_QUICK") ? 37 : 1;

  for (gint d = 1; d <= CV_INT_FINISH_MAX_DIVISOR; d += d < 80 ? 1 : step) {
    const float r = cv_whole_quotient_factor (d);

    fail_unless (r >= 1.0 / d);
    for (gint k = 0; k * d < CV_WHOLE_QUOTIENT_LIMIT; k++) {
      const gint ends[2] = { k * d, MIN (k * d + d - 1,
            CV_WHOLE_QUOTIENT_LIMIT - 1)
      };

      for (guint e = 0; e < 2; e++) {
        /* stored, so that the product is rounded to single precision */
        volatile float product = (float) ends[e] * r;

        if ((gint) floorf (product) != ends[e] / d)
          fail ("%d / %d: the product %.9g floors to %d", ends[e], d,
              (double) product, (gint) floorf (product));
      }
    }
  }
}

GST_END_TEST;

/* Independent reference: double precision, its own border code. */
static double
ref_fetch (const TestImage * t, const cvcore_convolve_plan * plan, gint x,
    gint y, gint c)
{
  gint w = t->image.width, h = t->image.height;

  switch (plan->border) {
    case CVCORE_BORDER_CLAMP:
      x = CLAMP (x, 0, w - 1);
      y = CLAMP (y, 0, h - 1);
      break;
    case CVCORE_BORDER_WRAP:
      x = ((x % w) + w) % w;
      y = ((y % h) + h) % h;
      break;
    case CVCORE_BORDER_MIRROR:
      /* reflect step by step until inside */
      while (x < 0 || x >= w) {
        if (w == 1) {
          x = 0;
          break;
        }
        x = x < 0 ? -x : 2 * (w - 1) - x;
      }
      while (y < 0 || y >= h) {
        if (h == 1) {
          y = 0;
          break;
        }
        y = y < 0 ? -y : 2 * (h - 1) - y;
      }
      break;
    case CVCORE_BORDER_CONSTANT:
      if (x < 0 || y < 0 || x >= w || y >= h)
        return plan->border_value;
      break;
  }
  return cvtest_host_sample (t, x, y, c);
}

static double
ref_pixel (const TestImage * src, const cvcore_convolve_plan * plan, gint x,
    gint y, gint c)
{
  double acc = 0.0, max = src->image.sample == CVCORE_SAMPLE_U8 ? 255 : 65535;

  for (gint j = 0; j < plan->height; j++)
    for (gint i = 0; i < plan->width; i++)
      acc += plan->taps[j * plan->width + i] * ref_fetch (src, plan,
          x - plan->anchor_x + i, y - plan->anchor_y + j, c);
  return CLAMP (floor (acc / plan->divisor + plan->bias + 0.5), 0, max);
}

/* |a - b| <= tolerance everywhere; channels outside @mask equal the input. */
static void
assert_matches (const TestImage * src, const TestImage * out,
    const cvcore_convolve_plan * plan, unsigned mask, const TestImage * other,
    double tolerance, const gchar * what)
{
  for (gint y = 0; y < src->image.height; y++)
    for (gint x = 0; x < src->image.width; x++)
      for (gint c = 0; c < src->image.channels; c++) {
        double got = cvtest_host_sample (out, x, y, c), want;

        if (!(mask & (1u << c)))
          want = cvtest_host_sample (src, x, y, c);
        else if (other)
          want = cvtest_host_sample (other, x, y, c);
        else
          want = ref_pixel (src, plan, x, y, c);
        if (fabs (got - want) > tolerance)
          fail ("%s: %dx%dx%d kernel %dx%d border %d: (%d, %d, %d) is %g, "
              "expected %g", what, src->image.width, src->image.height,
              src->image.channels, plan->width, plan->height, plan->border,
              x, y, c, got, want);
      }
}

static void
random_taps (cvcore_convolve_taps * taps, gint width, gint height,
    gboolean integer)
{
  taps->width = width;
  taps->height = height;
  for (gint i = 0; i < width * height; i++)
    taps->taps[i] = integer ? rng_range (-8, 16) :
        (gfloat) rng_range (-1000, 3000) / 1024.0f + 0.001f;
}

/* A rank-1 kernel of small integers. */
static void
random_separable_taps (cvcore_convolve_taps * taps, gint width, gint height)
{
  gint row[CVCORE_CONVOLVE_MAX_SIZE], col[CVCORE_CONVOLVE_MAX_SIZE];

  for (gint i = 0; i < width; i++)
    row[i] = rng_range (-3, 6);
  for (gint j = 0; j < height; j++)
    col[j] = rng_range (-3, 6);
  row[0] = col[0] = 1;
  taps->width = width;
  taps->height = height;
  for (gint j = 0; j < height; j++)
    for (gint i = 0; i < width; i++)
      taps->taps[j * width + i] = row[i] * col[j];
}

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

/* Runs one case on this test's backend; returns the output (caller frees). */
static TestImage
run_case (const TestImage * src, const cvcore_convolve_plan * plan,
    unsigned mask)
{
  TestImage out = cvtest_image_new (device, stream, src->image.width,
      src->image.height, src->image.channels, src->image.sample, 0xab, 64, 0);
  const size_t scratch_size = cvcore_convolve_scratch_size (device,
      src->image.width, src->image.height, src->image.channels);
  void *scratch = NULL;

  if (scratch_size > 0)
    fail_unless_equals_int (cvcore_device_alloc (device, scratch_size,
            &scratch), CVCORE_OK);
  fail_unless_equals_int (cvcore_convolve (stream, &src->image, &out.image,
          mask, plan, scratch), CVCORE_OK);
  cvtest_image_download (&out, stream);
  cvcore_device_free (device, scratch);
  return out;
}

/* The backend against the independent reference: integer kernels with
 * power-of-two divisors are exact, so the match is too. */
GST_START_TEST (test_against_reference)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {7, 5}, {33, 9}, {5, 40} };

  rng_state = 777;
  for (guint n = 0; n < 160; n++) {
    const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
    const gint channels = (gint[]){
      1, 2, 4
    }[n % 3];
    const cvcore_sample sample = n % 4 == 3 ? CVCORE_SAMPLE_U16 :
        CVCORE_SAMPLE_U8;
    const cvcore_border border = (cvcore_border) (n / 3 % 4);
    cvcore_convolve_taps taps;
    cvcore_convolve_plan plan;
    TestImage src, out;
    unsigned mask = n % 5 == 0 ? 0x5 : 0xf;
    const gint kw = rng_range (1, n % 7 == 0 ? 13 : 6);
    const gint kh = rng_range (1, n % 7 == 0 ? 13 : 6);

    if (n % 2)
      random_separable_taps (&taps, kw, kh);
    else
      random_taps (&taps, kw, kh, TRUE);
    fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps,
            rng_range (-1, kw - 1), rng_range (-1, kh - 1),
            (double) (1 << rng_range (0, 5)), rng_range (-20, 20), border,
            rng_range (0, 300), sample), CVCORE_OK);
    src =
        cvtest_image_new (device, stream, size[0], size[1], channels, sample,
        -1, n % 3 * 50, n + 1);
    out = run_case (&src, &plan, mask);
    assert_matches (&src, &out, &plan, mask, NULL, 0.0, "reference");
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* Hand-checked: a 3x3 image, box3 at every pixel with each border. */
GST_START_TEST (test_hand_checked)
{
  const guint8 pixels[9] = { 10, 20, 30, 40, 50, 60, 70, 80, 90 };
  /* sums over the 3x3 neighbourhood (divisor 1): the corner (0, 0) with
   * clamp sees 10 10 20 / 10 10 20 / 40 40 50 = 210; centre 450. */
  const struct
  {
    cvcore_border border;
    float value;
    gint x, y;
    gint expect;
  } cases[] = {
    {CVCORE_BORDER_CLAMP, 0, 0, 0, 210},
    {CVCORE_BORDER_CLAMP, 0, 1, 1, 450},
    {CVCORE_BORDER_CLAMP, 0, 2, 2, 690},
    {CVCORE_BORDER_CONSTANT, 0, 0, 0, 120},
    {CVCORE_BORDER_CONSTANT, 5, 0, 0, 145},
    {CVCORE_BORDER_CONSTANT, 0, 1, 0, 210},
    {CVCORE_BORDER_WRAP, 0, 0, 0, 450},
    {CVCORE_BORDER_MIRROR, 0, 0, 0, 50 + 40 + 50 + 20 + 10 + 20 + 50 + 40 + 50},
    {CVCORE_BORDER_MIRROR, 0, 2, 1, 20 + 30 + 20 + 50 + 60 + 50 + 80 + 90 + 80},
  };

  for (guint n = 0; n < G_N_ELEMENTS (cases); n++) {
    cvcore_convolve_taps taps = parse_ok ("1 1 1; 1 1 1; 1 1 1");
    cvcore_convolve_plan plan;
    TestImage src =
        cvtest_image_new (device, stream, 3, 3, 1, CVCORE_SAMPLE_U16, 0,
        0, 0), out;

    /* 16-bit samples so that the sums do not saturate */
    for (gint y = 0; y < 3; y++)
      for (gint x = 0; x < 3; x++)
        ((guint16 *) (src.host + y * src.image.pitch))[x] = pixels[y * 3 + x];
    fail_unless_equals_int (cvcore_copy_async (stream, src.image.data,
            src.host, src.image.pitch * 3, CVCORE_COPY_HOST_TO_DEVICE),
        CVCORE_OK);
    fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, -1, -1,
            1.0, 0.0, cases[n].border, cases[n].value, CVCORE_SAMPLE_U16),
        CVCORE_OK);
    out = run_case (&src, &plan, 1);
    fail_unless_equals_int (cvtest_host_sample (&out, cases[n].x, cases[n].y,
            0), cases[n].expect);
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* @src convolved on this test's device and on the CPU backend, equal
 * within @tolerance. */
static void
compare_with_cpu (cvcore_device * cpu, cvcore_stream * cpu_stream,
    const TestImage * src, const cvcore_convolve_plan * plan, unsigned mask,
    gdouble tolerance)
{
  TestImage cpu_src = cvtest_image_on_cpu (cpu, cpu_stream, src);
  TestImage gpu_out = run_case (src, plan, mask), cpu_out;
  cvcore_device *saved_device = device;
  cvcore_stream *saved_stream = stream;

  device = cpu;
  stream = cpu_stream;
  cpu_out = run_case (&cpu_src, plan, mask);
  device = saved_device;
  stream = saved_stream;
  assert_matches (src, &gpu_out, plan, mask, &cpu_out, tolerance, "cuda");
  cvtest_image_free (&gpu_out, device);
  cvtest_image_free (&cpu_out, cpu);
  cvtest_image_free (&cpu_src, cpu);
}

/* CUDA against the CPU reference: random kernels of random sizes (up to the
 * limit) on random images up to 1921x1081, both sample types, every channel
 * count; exact for integer taps, within one unit for fractional ones. */
GST_START_TEST (test_cuda_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {1921, 1081}, {17, 5},
  {640, 1}, {1, 480}, {129, 67}
  };

  rng_state = 4242;
  for (guint n = 0; n < 120; n++) {
    const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
    const gboolean big = size[0] * size[1] > 100000;
    const gint channels = (gint[]){
      1, 2, 4
    }[rng () % 3];
    const cvcore_sample sample = rng () % 3 == 0 ? CVCORE_SAMPLE_U16 :
        CVCORE_SAMPLE_U8;
    const gboolean integer = n % 3 != 2;
    gint kw = n % 10 == 0 ? 63 : n % 4 == 0 ? 3 : n % 4 == 1 ? 5 :
        rng_range (1, big ? 15 : 31);
    gint kh = n % 10 == 0 ? 63 : kw < 6 ? kw : rng_range (1, big ? 15 : 31);
    cvcore_convolve_taps taps;
    cvcore_convolve_plan plan;
    TestImage src;
    unsigned mask = rng () % 4 == 0 ? 0x7 : 0xf;

    if (big && kw * kh > 400 && channels == 4)
      kw = kh = 15;             /* keeps the CPU reference quick */
    if (n % 5 == 1)
      random_separable_taps (&taps, kw, kh);
    else
      random_taps (&taps, kw, kh, integer);
    if (n % 17 == 3)            /* large integer sums: the double path */
      taps.taps[0] = 70000;
    fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps,
            rng_range (-1, kw - 1), rng_range (-1, kh - 1),
            rng () % 2 ? 0.0 : rng_range (1, 300), rng_range (-50, 50),
            (cvcore_border) (rng () % 4), rng_range (0, 70000) +
            (n % 7 == 4 ? 0.0625 : 0.0), sample), CVCORE_OK);

    src =
        cvtest_image_new (device, stream, size[0], size[1], channels, sample,
        -1, rng () % 3 * 40, n + 9);

    compare_with_cpu (cvtest_cpu, cvtest_cpu_stream, &src, &plan, mask,
        integer ? 0.0 : 1.0);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* The packed 8-bit path rounds in integers in three ways, picked by the
 * taps, divisor and bias (core/convolve/convolve-small.cu): each against the CPU
 * reference, with sums right below and right at saturation. */
GST_START_TEST (test_cuda_packed_rounding)
{
  static const struct
  {
    const gchar *taps;
    gdouble divisor, bias;
  } cases[] = {
    {"1 2 1; 2 4 2; 1 2 1", 0, 0},      /* power of two: shifts */
    {"1 1 1; 1 1 1; 1 1 1", 0, 0},      /* 9: multiply-high per lane */
    {"1 1 1; 1 1 1; 1 1 1", 0, 3},      /* a bias */
    {"1 1 1; 1 1 1; 1 1 1", 10, 0},     /* below the sum */
    {"1 1 1; 1 1 1; 1 1 1", 8, 0},      /* could saturate: per lane */
    {"2 2 2; 2 2 2; 2 2 2", 18, 255},   /* saturates with the bias */
    {"0 -1 0; -1 5 -1; 0 -1 0", 0, 0},  /* negative taps */
    {"1 2 3 2 1; 2 4 6 4 2; 3 6 9 6 3; 2 4 6 4 2; 1 2 3 2 1", 256, 0},
    {"1 2 3 2 1; 2 4 6 4 2; 3 6 9 6 3; 2 4 6 4 2; 1 2 3 2 1", 128, 1},
    {"1 2 3 2 1; 2 4 6 4 2; 3 6 9 6 3; 2 4 6 4 2; 1 2 3 2 1", 0, 0},
    {"1 2 3 2 1; 2 3 4 3 2; 3 4 5 4 3; 2 3 4 3 2; 1 2 3 2 1", 0, -2},
    {"1 2 1; 2 4 2; 1 2 1", 512, 0},    /* a power of two over 2^8 */
    {"1 2 1; 2 4 2; 1 2 1", 1024, 3},
  };
  static const gint sizes[][2] = { {1921, 1081}, {33, 17}, {1, 1}, {2, 3} };
  static const unsigned masks[] = { 0xf, 0x7 };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (guint n = 0; n < 2 * G_N_ELEMENTS (sizes); n++) {
      const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
      const gint channels = n < G_N_ELEMENTS (sizes) ? 4 : 2;
      const cvcore_border border = (cvcore_border) ((c + n) % 4);
      cvcore_convolve_taps taps;
      cvcore_convolve_plan plan;
      TestImage src;

      fail_unless (cvcore_convolve_taps_parse (cases[c].taps, &taps, NULL, 0));
      fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, -1, -1,
              cases[c].divisor, cases[c].bias, border, 250.0,
              CVCORE_SAMPLE_U8), CVCORE_OK);
      /* random samples, or near white to reach saturation */
      src = cvtest_image_new (device, stream, size[0], size[1], channels,
          CVCORE_SAMPLE_U8, n % 2 ? 255 : -1, n * 20 % 60, c * 31 + n);
      compare_with_cpu (cvtest_cpu, cvtest_cpu_stream, &src, &plan,
          masks[n % G_N_ELEMENTS (masks)], 0.0);
      cvtest_image_free (&src, device);
    }
  }
}

GST_END_TEST;

/* Large 8-bit gray frames go four pixels to a thread for 3x3 integer
 * kernels where their rows are whole words and their taps signed bytes
 * (core/convolve/convolve-small.cu),
 * other gray 3x3 and 5x5 kernels through a float tile in shared memory
 * (convolve-gray.cu): every anchor, border and rounding against the CPU
 * reference, at widths that end inside a group of four, and on rows that
 * start one byte off a word, which the tile reads a sample at a time. */
GST_START_TEST (test_cuda_gray_quads)
{
  static const gchar *const kernels[] = {
    "1 2 1; 2 4 2; 1 2 1", "1 1 1; 1 1 1; 1 1 1", "0 -1 0; -1 5 -1; 0 -1 0",
    /* the ends of a signed byte, and 128 beyond it */
    "0 0 0; 0 -128 0; 0 0 0", "0 1 0; 0 127 0; 0 0 0", "0 0 0; 0 128 0; 0 0 0",
    "1 2 3 2 1; 2 4 6 4 2; 3 6 9 6 3; 2 4 6 4 2; 1 2 3 2 1", "3", "0.7",
    "0.1 0.25 0.1; 0.25 0.5 0.25; 0.1 0.25 0.1",
    "0.5 1 0.25 1 0.5; 1 2 -0.75 2 1; 0.25 -0.75 3.5 -0.75 0.25; "
        "1 2 -0.75 2 1; 0.5 1 0.25 1 0.5",
  };
  static const gint sizes[][2] = { {3843, 2161}, {1921, 1081}, {130, 67},
  {5, 3}, {3, 1}
  };

  rng_state = 77;
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++) {
    for (guint n = 0; n < 2 * G_N_ELEMENTS (sizes); n++) {
      const gint *size = sizes[n % G_N_ELEMENTS (sizes)];
      const guint offset = n < G_N_ELEMENTS (sizes) ? 0 : 1;
      cvcore_convolve_taps taps;
      cvcore_convolve_plan plan;
      TestImage src, view;

      fail_unless (cvcore_convolve_taps_parse (kernels[k], &taps, NULL, 0));
      fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps,
              rng_range (-1, taps.width - 1), rng_range (-1, taps.height - 1),
              k % 2 ? 0.0 : rng_range (1, 40), rng_range (-20, 20),
              (cvcore_border) ((k + n) % 4), n % 3 ? rng_range (0, 255) : 300,
              CVCORE_SAMPLE_U8), CVCORE_OK);
      src = cvtest_image_new (device, stream, size[0] + offset,
          size[1] + offset, 1, CVCORE_SAMPLE_U8, -1, 0, k * 31 + n);
      view = src;
      view.image.data = (guint8 *) src.image.data + offset;
      view.host = src.host + offset;
      view.image.width = size[0];
      view.image.height = size[1];
      compare_with_cpu (cvtest_cpu, cvtest_cpu_stream, &view, &plan, 0x1,
          strchr (kernels[k], '.') ? 1.0 : 0.0);
      cvtest_image_free (&src, device);
    }
  }
  /* divisors above 256, whose quotients take the multiply's high word
   * (300) or, with a small enough error, its low word (257) */
  for (guint d = 0; d < 2; d++) {
    cvcore_convolve_taps taps;
    cvcore_convolve_plan plan;
    TestImage src = cvtest_image_new (device, stream, 3843, 2161, 1,
        CVCORE_SAMPLE_U8, -1, 0, 5 + d);

    fail_unless (cvcore_convolve_taps_parse ("10 20 10; 20 40 20; 10 20 10",
            &taps, NULL, 0));
    fail_unless_equals_int (cvcore_convolve_plan_init (&plan, &taps, -1, -1,
            d ? 257.0 : 300.0, 3.0, CVCORE_BORDER_CLAMP, 0.0,
            CVCORE_SAMPLE_U8), CVCORE_OK);
    compare_with_cpu (cvtest_cpu, cvtest_cpu_stream, &src, &plan, 0x1, 0.0);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

GST_START_TEST (test_bad_arguments)
{
  cvcore_convolve_plan plan = plan_for ("1 2 1", CVCORE_SAMPLE_U8);
  TestImage a =
      cvtest_image_new (device, stream, 4, 4, 1, CVCORE_SAMPLE_U8, 0, 0,
      0);
  TestImage b =
      cvtest_image_new (device, stream, 5, 4, 1, CVCORE_SAMPLE_U8, 0, 0,
      0);

  fail_unless_equals_int (cvcore_convolve (stream, &a.image, &b.image, 1,
          &plan, NULL), CVCORE_ERROR_INVALID_VALUE);
  fail_unless_equals_int (cvcore_convolve (stream, &a.image, &a.image, 1,
          &plan, NULL), CVCORE_ERROR_INVALID_VALUE);
  cvtest_image_free (&a, device);
  cvtest_image_free (&b, device);
}

GST_END_TEST;

static Suite *
convolve_suite (void)
{
  Suite *s = suite_create ("convolve");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_parse_valid);
  tcase_add_test (tc, test_parse_limits);
  tcase_add_test (tc, test_parse_errors);
  tcase_add_test (tc, test_parse_fuzz);
  tcase_add_test (tc, test_plan);
  tcase_add_test (tc, test_finish);
  tcase_add_test (tc, test_finish_int);
  tcase_add_test (tc, test_whole_quotient);
  tcase_add_test (tc, test_against_reference);
  tcase_add_test (tc, test_hand_checked);
  tcase_add_test (tc, test_bad_arguments);
  suite_add_tcase (s, tc);
  /* comparing the CPU backend with itself would prove nothing */
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 600);

    tcase_add_test (cuda, test_cuda_equals_cpu);
    tcase_add_test (cuda, test_cuda_packed_rounding);
    tcase_add_test (cuda, test_cuda_gray_quads);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, convolve_suite);
}
