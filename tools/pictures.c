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

/* Synthetic pictures and blurs shared by the tests and the tools. */
#include "pictures.h"

#include <math.h>
#include <pthread.h>

#define TEXTURE_WAVES 40

/* each wave's frequency along x and y: the same for every pixel, made once
 * (a test's frames spend most of their time here under valgrind) */
static double texture_wave[TEXTURE_WAVES][2];
static pthread_once_t texture_waves_made = PTHREAD_ONCE_INIT;

static void
make_texture_waves (void)
{
  for (int i = 0; i < TEXTURE_WAVES; i++) {
    const double a = i * 2.39996, f = 0.3 + 0.06 * i;

    texture_wave[i][0] = f * cos (a);
    texture_wave[i][1] = f * sin (a);
  }
}

double
picture_texture (double x, double y)
{
  double v = 0.0;

  pthread_once (&texture_waves_made, make_texture_waves);
  for (int i = 0; i < TEXTURE_WAVES; i++)
    v += cos (texture_wave[i][0] * x + texture_wave[i][1] * y + i * 1.7);
  return v;
}

void
picture_gaussian_psf (double sigma, int size, double *psf)
{
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++) {
      const double dx = x - (size - 1) / 2.0, dy = y - (size - 1) / 2.0;

      psf[y * size + x] = exp (-(dx * dx + dy * dy) / (2 * sigma * sigma));
    }
}

int
picture_mirror (int i, int n)
{
  i %= 2 * n;
  if (i < 0)
    i += 2 * n;
  return i < n ? i : 2 * n - 1 - i;
}

double
picture_natural_texture (double x, double y)
{
  double v = 0.0;

  for (double s = 1.0; s <= 16.0; s *= 2.0)
    v += s * picture_texture (x / s + 3.1 * s, y / s - 1.7 * s);
  return v;
}

static double
lanczos3 (double t)
{
  const double pi = 3.14159265358979323846;

  if (fabs (t) < 1e-9)
    return 1.0;
  if (fabs (t) >= 3.0)
    return 0.0;
  return 3.0 * sin (pi * t) * sin (pi * t / 3.0) / (pi * pi * t * t);
}

static int
picture_clamp (int i, int n)
{
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

double
picture_resample (const unsigned char *luma, int w, int h, double x, double y)
{
  const int x0 = (int) floor (x) - 2, y0 = (int) floor (y) - 2;
  double v = 0.0, weights = 0.0, kx[6], ky[6];

  /* the kernel is separable: its six weights each way, once */
  for (int n = 0; n < 6; n++) {
    kx[n] = lanczos3 (x - (x0 + n));
    ky[n] = lanczos3 (y - (y0 + n));
  }
  for (int j = 0; j < 6; j++)
    for (int i = 0; i < 6; i++) {
      const double k = kx[i] * ky[j];

      v += k * luma[picture_clamp (y0 + j, h) * w + picture_clamp (x0 + i, w)];
      weights += k;
    }
  return v / weights;
}
