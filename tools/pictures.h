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
#ifndef PICTURES_H
#define PICTURES_H

/* Broadband texture around 0 at (@x, @y), any real position: 40 waves of
 * amplitude 1 and frequencies 0.3 .. 2.6 radians per pixel in all
 * directions. Moving a picture is evaluating it at moved positions. */
double picture_texture (double x, double y);

/* The texture at scales 1 to 16, each with an amplitude of its scale, so
 * that the amplitude falls as the frequency rises, as in natural images:
 * about 80 RMS around 0. */
double picture_natural_texture (double x, double y);

/* 8-bit @luma (@w x @h, tightly packed) at any position (@x, @y),
 * Lanczos-3 (bilinear resampling would shift high frequencies less than
 * low ones), edges clamped. */
double picture_resample (const unsigned char *luma, int w, int h, double x,
    double y);

/* A Gaussian point-spread function of @sigma, @size x @size samples
 * centred on (@size - 1) / 2, not normalised. */
void picture_gaussian_psf (double sigma, int size, double *psf);

/* Index of sample @i of a line of @n mirrored at both ends (any @i). */
int picture_mirror (int i, int n);

#endif /* PICTURES_H */
