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

/* CLT kernel sets: files, and responses made from point-spread functions
 * (the format is in cvclt.h). */
#include "cvclt.h"
#include "cvcore-private.h"
#include "hostdevice.h"

#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "CVCLTKS1"
#define HEADER_BYTES 40
/* Larger sets than this are surely not kernel sets. */
#define MAX_NODES (1 << 20)

static int
nodes_for (int pixels, int stride)
{
  return (cvcore_clt_tiles (pixels) - 2) / stride + 2;
}

static size_t
data_floats (const cvcore_clt_kernel_set * set)
{
  return (size_t) set->channels * set->nodes_x * set->nodes_y *
      CVCORE_CLT_COEFFICIENTS;
}

float *
cvcore_clt_kernel_set_node (cvcore_clt_kernel_set * set, int channel,
    int nx, int ny)
{
  return set->data + (((size_t) channel * set->nodes_y + ny) * set->nodes_x +
      nx) * CVCORE_CLT_COEFFICIENTS;
}

static cvcore_status
set_shape (cvcore_clt_kernel_set * set, int width, int height, int stride,
    int channels)
{
  if (width < 1 || height < 1 || width > 65536 || height > 65536
      || stride < 1 || stride > 4096 || (channels != 1 && channels != 3))
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "a kernel set of %dx%d, stride %d, %d channels", width, height,
        stride, channels);
  set->width = width;
  set->height = height;
  set->stride = stride;
  set->channels = channels;
  set->nodes_x = nodes_for (width, stride);
  set->nodes_y = nodes_for (height, stride);
  if ((size_t) set->nodes_x * set->nodes_y * channels > MAX_NODES)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "a kernel set of %d x %d nodes: too many", set->nodes_x, set->nodes_y);
  return CVCORE_OK;
}

cvcore_status
cvcore_clt_kernel_set_new (int width, int height, int stride, int channels,
    cvcore_clt_kernel_set ** out)
{
  cvcore_clt_kernel_set *set = calloc (1, sizeof (*set));
  cvcore_status status;

  *out = NULL;
  if (set == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "kernel set");
  status = set_shape (set, width, height, stride, channels);
  if (status == CVCORE_OK) {
    set->data = calloc (data_floats (set), sizeof (float));
    if (set->data == NULL)
      status = cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "kernel set data");
  }
  if (status != CVCORE_OK) {
    cvcore_clt_kernel_set_free (set);
    return status;
  }
  /* identity: H = 1 at every frequency */
  for (size_t node = 0; node < data_floats (set) / 256; node++)
    for (int i = 0; i < 64; i++)
      set->data[node * 256 + i] = 1.0f;
  *out = set;
  return CVCORE_OK;
}

void
cvcore_clt_kernel_set_free (cvcore_clt_kernel_set * set)
{
  if (set == NULL)
    return;
  free (set->data);
  free (set);
}

static uint32_t
read_u32 (const unsigned char *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
      (uint32_t) p[3] << 24;
}

static void
write_u32 (unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

/* @size: the file's, as opening it found it. */
static cvcore_status
parse (const char *path, FILE * f, size_t size, cvcore_clt_kernel_set * set)
{
  unsigned char header[HEADER_BYTES], word[4];
  uint32_t field[8];
  size_t floats;

  if (fread (header, 1, HEADER_BYTES, f) != HEADER_BYTES
      || memcmp (header, MAGIC, 8) != 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s is not a CLT kernel set (no " MAGIC " header)", path);
  for (int i = 0; i < 8; i++)
    field[i] = read_u32 (header + 8 + 4 * i);
  if (field[6] != 0 || field[7] != 0)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s: reserved header words are not zero", path);
  /* the header's fields are signed 32-bit integers */
  if (field[0] > 65536 || field[1] > 65536 || field[2] > 4096
      || set_shape (set, (int) field[0], (int) field[1], (int) field[2],
          (int) field[5]) != CVCORE_OK)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s: bad shape (%dx%d frames, stride %d, %d channels; frames of "
        "1 to 65536, a stride of 1 to 4096, 1 or 3 channels)", path,
        (int32_t) field[0], (int32_t) field[1], (int32_t) field[2],
        (int32_t) field[5]);
  if (field[3] != (uint32_t) set->nodes_x
      || field[4] != (uint32_t) set->nodes_y)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s: %d x %d nodes, but %dx%d frames at stride %d need %d x %d", path,
        (int32_t) field[3], (int32_t) field[4], set->width, set->height,
        set->stride, set->nodes_x, set->nodes_y);
  floats = data_floats (set);
  if (size != HEADER_BYTES + 4 * floats)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE,
        "%s: %zu bytes, the header promises %zu", path, size,
        HEADER_BYTES + 4 * floats);
  set->data = malloc (floats * sizeof (float));
  if (set->data == NULL)
    return cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "kernel set data");
  for (size_t i = 0; i < floats; i++) {
    uint32_t bits;
    float v;

    if (fread (word, 1, 4, f) != 4)
      return cv_fail (CVCORE_ERROR_INVALID_VALUE, "%s: truncated", path);
    bits = read_u32 (word);
    memcpy (&v, &bits, 4);
    if (!isfinite (v))
      return cv_fail (CVCORE_ERROR_INVALID_VALUE,
          "%s: value %zu is not finite", path, i);
    set->data[i] = v;
  }
  return CVCORE_OK;
}

cvcore_status
cvcore_clt_kernel_set_load (const char *path, cvcore_clt_kernel_set ** out)
{
  cvcore_clt_kernel_set *set;
  cvcore_status status;
  size_t size;
  FILE *f;

  *out = NULL;
  /* the header then says how large the rest must be */
  status = cvcore_file_open (path, HEADER_BYTES + 4 * (size_t) MAX_NODES *
      CVCORE_CLT_COEFFICIENTS, &f, &size);
  if (status != CVCORE_OK)
    return status;
  set = calloc (1, sizeof (*set));
  status = set ? parse (path, f, size, set) :
      cv_fail (CVCORE_ERROR_OUT_OF_MEMORY, "kernel set");
  fclose (f);
  if (status != CVCORE_OK) {
    cvcore_clt_kernel_set_free (set);
    return status;
  }
  *out = set;
  return CVCORE_OK;
}

cvcore_status
cvcore_clt_kernel_set_save (const cvcore_clt_kernel_set * set, const char *path)
{
  unsigned char header[HEADER_BYTES] = MAGIC, word[4];
  const uint32_t field[6] = { set->width, set->height, set->stride,
    set->nodes_x, set->nodes_y, set->channels
  };
  const size_t floats = data_floats (set);
  bool ok;
  FILE *f = fopen (path, "wb");

  if (f == NULL)
    return cv_fail (CVCORE_ERROR_INVALID_VALUE, "cannot create %s: %s",
        path, strerror (errno));
  memset (header + 8, 0, HEADER_BYTES - 8);
  for (int i = 0; i < 6; i++)
    write_u32 (header + 8 + 4 * i, field[i]);
  ok = fwrite (header, 1, HEADER_BYTES, f) == HEADER_BYTES;
  for (size_t i = 0; ok && i < floats; i++) {
    uint32_t bits;

    memcpy (&bits, &set->data[i], 4);
    write_u32 (word, bits);
    ok = fwrite (word, 1, 4, f) == 4;
  }
  if (fclose (f) != 0 || !ok)
    return cv_fail (CVCORE_ERROR_RUNTIME, "writing %s failed", path);
  return CVCORE_OK;
}

/* The PSF's response at (omega_k, omega_l) and (omega_k, -omega_l): the
 * tessarine's two complex components. */
static void
psf_response (const double *psf, int size, double sum, int k, int l,
    double complex *z1, double complex *z2)
{
  const double centre = (size - 1) / 2.0;
  const double wx = CV_PI * (k + 0.5) / 8.0, wy = CV_PI * (l + 0.5) / 8.0;

  *z1 = *z2 = 0.0;
  for (int my = 0; my < size; my++)
    for (int mx = 0; mx < size; mx++) {
      const double p = psf[my * size + mx] / sum;
      const double ax = wx * (mx - centre), ay = wy * (my - centre);

      *z1 += p * cexp (I * (ax + ay));
      *z2 += p * cexp (I * (ax - ay));
    }
}

void
cvcore_clt_response_from_psf (const double *psf, int size, double noise,
    bool invert, float *response)
{
  double sum = 0.0, gain1, gain2;

  for (int i = 0; i < size * size; i++)
    sum += psf[i];
  if (sum == 0.0)
    sum = 1.0;
  /* The blur's gain at (omega_0, omega_0) and (omega_0, -omega_0), the
   * frequencies of a flat region's windowed tiles: dividing by it keeps
   * flat regions at their level (a shift keeps its phase). */
  {
    double complex z1 = 0.0, z2 = 0.0;

    psf_response (psf, size, sum, 0, 0, &z1, &z2);
    gain1 = cabs (z1) > 0.0 ? cabs (z1) : 1.0;
    gain2 = cabs (z2) > 0.0 ? cabs (z2) : 1.0;
  }
  for (int l = 0; l < 8; l++)
    for (int k = 0; k < 8; k++) {
      double complex z1, z2;

      psf_response (psf, size, sum, k, l, &z1, &z2);
      z1 /= gain1;
      z2 /= gain2;
      if (invert) {
        z1 = conj (z1) / (creal (z1 * conj (z1)) + noise);
        z2 = conj (z2) / (creal (z2 * conj (z2)) + noise);
      }
      response[0 * 64 + l * 8 + k] = (float) ((creal (z1) + creal (z2)) / 2);
      response[1 * 64 + l * 8 + k] = (float) ((cimag (z1) + cimag (z2)) / 2);
      response[2 * 64 + l * 8 + k] = (float) ((cimag (z1) - cimag (z2)) / 2);
      response[3 * 64 + l * 8 + k] = (float) ((creal (z2) - creal (z1)) / 2);
    }
}
