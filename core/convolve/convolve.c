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

/* Convolution: the taps parser, plan preparation and the dispatch to the
 * backends. */
#include "convolve-common.h"
#include "convolve-private.h"
#include "cvcore-private.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- parsing ------------------------------------------------------------ */

static bool
parse_error (char *error, size_t size, const char *format, ...)
{
  va_list args;

  if (error && size) {
    va_start (args, format);
    vsnprintf (error, size, format, args);
    va_end (args);
  }
  return false;
}

static bool
is_separator (char c)
{
  return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r';
}

/* Characters of the token at @p, up to the next separator or row end, as
 * an error message quotes it (at most 40). */
static int
token_length (const char *p)
{
  int n = 0;

  while (p[n] != '\0' && p[n] != ';' && !is_separator (p[n]) && n < 40)
    n++;
  return n;
}

bool
cvcore_convolve_taps_parse (const char *text, cvcore_convolve_taps * taps,
    char *error, size_t error_size)
{
  const char *p = text;
  int row = 0, col = 0, width = -1;

  if (text == NULL)
    return parse_error (error, error_size, "no kernel given");
  memset (taps, 0, sizeof (*taps));

  for (;;) {
    while (is_separator (*p))
      p++;
    if (*p == ';' || *p == '\0') {
      if (col == 0 && *p == '\0') {
        if (row > 0)
          break;                /* after a trailing ';' */
        return parse_error (error, error_size, "no numbers");
      }
      if (col == 0)
        return parse_error (error, error_size, "row %d is empty", row + 1);
      if (width < 0)
        width = col;
      else if (col != width)
        return parse_error (error, error_size,
            "row %d has %d numbers, row 1 has %d", row + 1, col, width);
      row++;
      col = 0;
      if (*p == '\0')
        break;
      p++;
      continue;
    }
    if (row >= CVCORE_CONVOLVE_MAX_SIZE)
      return parse_error (error, error_size, "more than %d rows",
          CVCORE_CONVOLVE_MAX_SIZE);
    if (col >= CVCORE_CONVOLVE_MAX_SIZE)
      return parse_error (error, error_size, "row %d has more than %d numbers",
          row + 1, CVCORE_CONVOLVE_MAX_SIZE);
    {
      char *end;
      double v;

      /* strtod also takes "inf", "nan" and hex: refused below or here. */
      if (!(isdigit ((unsigned char) *p) || *p == '-' || *p == '+'
              || *p == '.'))
        return parse_error (error, error_size,
            "row %d: '%.*s' is not a number", row + 1, token_length (p), p);
      errno = 0;
      v = strtod (p, &end);
      if (end == p)
        return parse_error (error, error_size,
            "row %d: '%.*s' is not a number", row + 1, token_length (p), p);
      if (errno == ERANGE || !(v >= -CVCORE_CONVOLVE_MAX_TAP
              && v <= CVCORE_CONVOLVE_MAX_TAP))
        return parse_error (error, error_size,
            "row %d: %.*s is out of range (|tap| <= %g)", row + 1,
            token_length (p), p, CVCORE_CONVOLVE_MAX_TAP);
      if (*end != '\0' && *end != ';' && !is_separator (*end))
        return parse_error (error, error_size,
            "row %d: unexpected '%c' after a number", row + 1, *end);
      if (width > 0 && col >= width)
        return parse_error (error, error_size,
            "row %d has more numbers than row 1 (%d)", row + 1, width);
      /* stored transposed later: rows are not known to be complete yet */
      taps->taps[row * CVCORE_CONVOLVE_MAX_SIZE + col] = (float) v;
      col++;
      p = end;
    }
  }

  /* Pack the rows, laid out with the maximal stride while parsing. */
  taps->width = width;
  taps->height = row;
  for (int j = 0; j < row; j++)
    for (int i = 0; i < width; i++)
      taps->taps[j * width + i] = taps->taps[j * CVCORE_CONVOLVE_MAX_SIZE + i];
  return true;
}

/* --- planning ----------------------------------------------------------- */

static bool
is_integer (float v)
{
  return v == floorf (v);
}

/* taps == column (x) row, found exactly: for integer taps by integer
 * arithmetic, for other taps by reconstructing and comparing in float. */
static bool
factor_rank_one (cvcore_convolve_plan * plan, bool integer)
{
  const int w = plan->width, h = plan->height;
  const float *k = plan->taps;
  int pr = -1, pc = -1;
  float pivot;

  for (int n = 0; n < w * h && pr < 0; n++)
    if (k[n] != 0.0f) {
      pr = n / w;
      pc = n % w;
    }
  if (pr < 0)
    return false;               /* all zero: the dense path is as fast */
  pivot = k[pr * w + pc];

  if (integer) {
    /* k[j][i] * pivot == k[j][pc] * k[pr][i] for every tap. */
    long long g = 0;

    for (int j = 0; j < h; j++)
      for (int i = 0; i < w; i++)
        if ((long long) k[j * w + i] * (long long) pivot !=
            (long long) k[j * w + pc] * (long long) k[pr * w + i])
          return false;
    for (int i = 0; i < w; i++) {
      long long a = llabs ((long long) k[pr * w + i]), b = g;

      while (b) {
        long long t = a % b;

        a = b;
        b = t;
      }
      g = a;
    }
    /* row = k[pr] / g has gcd 1, so column j = k[j][pc] * g / pivot is an
     * integer */
    for (int i = 0; i < w; i++)
      plan->row[i] = (float) ((long long) k[pr * w + i] / g);
    for (int j = 0; j < h; j++)
      plan->column[j] = (float) ((long long) k[j * w + pc] * g /
          (long long) pivot);
  } else {
    for (int i = 0; i < w; i++)
      plan->row[i] = k[pr * w + i];
    for (int j = 0; j < h; j++)
      plan->column[j] = k[j * w + pc] / pivot;
    for (int j = 0; j < h; j++)
      for (int i = 0; i < w; i++)
        if (plan->column[j] * plan->row[i] != k[j * w + i])
          return false;
  }
  return true;
}

cvcore_status
cvcore_convolve_plan_init (cvcore_convolve_plan * plan,
    const cvcore_convolve_taps * taps, int anchor_x, int anchor_y,
    double divisor, double bias, cvcore_border border, double border_value,
    cvcore_sample sample)
{
  const int n = taps->width * taps->height;
  double sum = 0.0, abs_sum = 0.0;
  bool integer = true;

  if (taps->width < 1 || taps->height < 1
      || taps->width > CVCORE_CONVOLVE_MAX_SIZE
      || taps->height > CVCORE_CONVOLVE_MAX_SIZE)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "kernel of %dx%d taps",
        taps->width, taps->height);
  if (anchor_x < 0)
    anchor_x = taps->width / 2;
  if (anchor_y < 0)
    anchor_y = taps->height / 2;
  if (anchor_x >= taps->width || anchor_y >= taps->height)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "anchor (%d, %d) is outside the %dx%d kernel", anchor_x, anchor_y,
        taps->width, taps->height);

  memset (plan, 0, sizeof (*plan));
  plan->width = taps->width;
  plan->height = taps->height;
  plan->anchor_x = anchor_x;
  plan->anchor_y = anchor_y;
  memcpy (plan->taps, taps->taps, n * sizeof (float));
  for (int i = 0; i < n; i++) {
    sum += plan->taps[i];
    abs_sum += fabs (plan->taps[i]);
    integer &= is_integer (plan->taps[i]);
  }
  if (divisor == 0.0)
    divisor = sum != 0.0 ? sum : 1.0;
  plan->divisor = (float) divisor;
  plan->reciprocal = 1.0f / plan->divisor;
  if (plan->divisor == 0.0f || !isfinite (plan->reciprocal))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "divisor %g is out of range", divisor);
  plan->bias = (float) bias;
  plan->bias_half = plan->bias + 0.5f;
  plan->border = border;
  plan->border_value = (float) fmin (fmax (border_value, 0.0),
      cv_sample_max (sample));

  /* Float sums of integers are exact below 2^24 whatever the order. */
  plan->use_double = integer &&
      abs_sum * fmax (cv_sample_max (sample), plan->border_value) >= 16777216.0;
  plan->separable = !plan->use_double && (plan->width > 1 || plan->height > 1)
      && factor_rank_one (plan, integer);
  return CVCORE_OK;
}

size_t
cvcore_convolve_scratch_size (const cvcore_device * device, int width,
    int height, int channels)
{
  if (device->backend != CVCORE_BACKEND_CPU)
    return 0;
  return (size_t) width *height * channels * sizeof (float);
}

/* --- dispatch ----------------------------------------------------------- */

cvcore_status
cvcore_convolve (cvcore_stream * stream, const cvcore_image * src,
    const cvcore_image * dst, unsigned channel_mask,
    const cvcore_convolve_plan * plan, void *scratch)
{
  if (src->width != dst->width || src->height != dst->height
      || src->channels != dst->channels || src->sample != dst->sample
      || src->width < 1 || src->height < 1
      || (src->channels != 1 && src->channels != 2 && src->channels != 4))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "convolution of %dx%dx%d into %dx%dx%d", src->width, src->height,
        src->channels, dst->width, dst->height, dst->channels);
  if (src->data == dst->data)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "convolution cannot run in place");
  if (plan->separable && scratch == NULL
      && cvcore_stream_device (stream)->backend == CVCORE_BACKEND_CPU)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "the separable path needs scratch memory");

  return CV_DISPATCH (cvcore_stream_device (stream),
      cv_convolve_cpu (src, dst, channel_mask, plan, scratch),
      cv_convolve_cuda (stream, src, dst, channel_mask, plan));
}
