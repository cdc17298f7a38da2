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

/* The CLT core: coefficients against the transform's definition, round
 * trips, integer and sub-pixel shifts, lowpass and deconvolution, kernel
 * files, and CUDA against the double-precision CPU reference (suite gpu). */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "cvtest.h"
#include "cvimage.h"
#include "cvclt.h"
#include "pictures.h"

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
window (gint n)
{
  return sin (G_PI * (n + 0.5) / 16.0);
}

/* Runs @params on @src (on @dev) into @out, and downloads it; the kernel
 * set, when given, is loaded first. */
static void
run_into (cvcore_device * dev, cvcore_stream * st, const TestImage * src,
    TestImage * out, const cvcore_clt_params * params,
    const cvcore_clt_kernel_set * set)
{
  const cvcore_image *im = &src->image;
  cvcore_clt_scratch *clt;

  fail_unless_equals_int (cvcore_clt_scratch_new (dev, im->width, im->height,
          params->bayer ? 3 : im->channels, params->bayer != 0, &clt),
      CVCORE_OK);
  if (set)
    fail_unless_equals_int (cvcore_clt_set_kernels (clt, st, set), CVCORE_OK);
  fail_unless (cvcore_clt (st, clt, im, &out->image, params) == CVCORE_OK,
      "%s", cvcore_last_error ());
  cvtest_image_download (out, st);
  cvcore_clt_scratch_free (clt);
}

/* Runs @params on @src (on @dev) into a poisoned output of @channels. */
static TestImage
run_to (cvcore_device * dev, cvcore_stream * st, const TestImage * src,
    gint channels, const cvcore_clt_params * params,
    const cvcore_clt_kernel_set * set)
{
  const cvcore_image *im = &src->image;
  TestImage out = cvtest_image_new (dev, st, im->width, im->height,
      channels, im->sample, 0xcd, 0, 0);

  run_into (dev, st, src, &out, params, set);
  return out;
}

static TestImage
run_on (cvcore_device * dev, cvcore_stream * st, const TestImage * src,
    const cvcore_clt_params * params, const cvcore_clt_kernel_set * set)
{
  return run_to (dev, st, src, src->image.channels, params, set);
}

static TestImage
run (const TestImage * src, const cvcore_clt_params * params,
    const cvcore_clt_kernel_set * set)
{
  return run_on (device, stream, src, params, set);
}

/* Runs @params on mosaic @src into RGBA. */
static TestImage
run_rgba (const TestImage * src, const cvcore_clt_params * params)
{
  return run_to (device, stream, src, 4, params, NULL);
}

/* The forward transform of channel @c of @src, every tile, in host
 * memory (g_free it). */
static gfloat *
forward_coefficients (const TestImage * src, gint c)
{
  const gsize bytes = sizeof (gfloat) * CVCORE_CLT_COEFFICIENTS *
      cvcore_clt_tiles (src->image.width) *
      cvcore_clt_tiles (src->image.height);
  gfloat *coef = g_malloc (bytes), *dev_coef;

  fail_unless_equals_int (cvcore_device_alloc (device, bytes,
          (void **) &dev_coef), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_forward (stream, &src->image, c, 0, 0,
          dev_coef), CVCORE_OK);
  fail_unless_equals_int (cvcore_copy_async (stream, coef, dev_coef, bytes,
          CVCORE_COPY_DEVICE_TO_HOST), CVCORE_OK);
  fail_unless_equals_int (cvcore_stream_synchronize (stream), CVCORE_OK);
  cvcore_device_free (device, dev_coef);
  return coef;
}

static TestImage
smooth_image (gint width, gint height, gdouble dx, gdouble dy)
{
  TestImage t = cvtest_image_new (device, stream, width, height, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);

  for (gint y = 0; y < height; y++)
    for (gint x = 0; x < width; x++)
      cvtest_put_sample (&t, x, y, 0, cvtest_band_limited (x - dx, y - dy));
  cvtest_image_upload (&t, stream);
  return t;
}

/* Coefficients of every tile against the MCLT's definition, summed
 * directly: 1/4 sum w (n) w (m) u cs_h (omega_k (n + 4.5)) cs_v (omega_l
 * (m + 4.5)). */
GST_START_TEST (test_forward_definition)
{
  const gint w = 21, h = 13, tiles_x = cvcore_clt_tiles (w);
  const gint tiles = tiles_x * cvcore_clt_tiles (h);
  TestImage src = cvtest_image_new (device, stream, w, h, 2,
      CVCORE_SAMPLE_U8, -1, 8, 5);
  gfloat *coef = forward_coefficients (&src, 1);
  gdouble worst = 0.0;

  for (gint t = 0; t < tiles; t++)
    for (gint layer = 0; layer < 4; layer++)
      for (gint l = 0; l < 8; l++)
        for (gint k = 0; k < 8; k++) {
          const gdouble wk = G_PI * (k + 0.5) / 8, wl = G_PI * (l + 0.5) / 8;
          gdouble s = 0.0;

          for (gint m = 0; m < 16; m++)
            for (gint n = 0; n < 16; n++) {
              const gint x = picture_mirror (8 * (t % tiles_x) - 8 + n, w);
              const gint y = picture_mirror (8 * (t / tiles_x) - 8 + m, h);
              const gdouble ph = wk * (n + 4.5), pv = wl * (m + 4.5);

              s += 0.25 * window (n) * window (m) *
                  cvtest_host_sample (&src, x, y, 1) *
                  (layer & 1 ? sin (ph) : cos (ph)) *
                  (layer & 2 ? sin (pv) : cos (pv));
            }
          worst = MAX (worst, fabs (s - coef[t * 256 + layer * 64 + l * 8 +
                      k]));
        }
  GST_INFO ("worst coefficient error %g", worst);
  fail_unless (worst < 2e-3, "worst coefficient error %g", worst);
  g_free (coef);
  cvtest_image_free (&src, device);
}

GST_END_TEST;

static void
assert_equal_images (const TestImage * a, const TestImage * b, gint dx,
    gint dy, const gchar * what)
{
  const cvcore_image *im = &a->image;

  for (gint y = 0; y < im->height; y++)
    for (gint x = 0; x < im->width; x++)
      for (gint c = 0; c < im->channels; c++) {
        const gdouble va = cvtest_host_sample (a, x, y, c);
        const gdouble vb = cvtest_host_sample (b,
            picture_mirror (x - dx, im->width),
            picture_mirror (y - dy, im->height), c);

        fail_unless (va == vb, "%s, %dx%d: (%d, %d, %d) is %g, not %g", what,
            im->width, im->height, x, y, c, va, vb);
      }
}

/* `none` gives the input back exactly, edges included, every sample
 * format and channel count; unprocessed channels are copied. */
GST_START_TEST (test_round_trip)
{
  static const gint sizes[][2] = { {1, 1}, {17, 9}, {2, 31}, {1921, 1081} };
  const guint n_sizes = g_getenv ("CVTEST_QUICK") ? 3 : 4;

  for (guint s = 0; s < n_sizes; s++)
    for (gint f = 0; f < 3; f++) {
      const gint channels = f == 2 ? 4 : 1;
      TestImage src = cvtest_image_new (device, stream, sizes[s][0],
          sizes[s][1], channels, f == 1 ? CVCORE_SAMPLE_U16 :
          CVCORE_SAMPLE_U8, -1, 4 * f, 11 * s + f);
      cvcore_clt_params params;
      TestImage out;

      cvcore_clt_params_init (&params);
      params.channel_mask = channels == 4 ? 0x7 : 0x1;
      out = run (&src, &params, NULL);
      assert_equal_images (&out, &src, 0, 0, "round trip");
      cvtest_image_free (&out, device);
      cvtest_image_free (&src, device);
    }
}

GST_END_TEST;

/* One-channel results whose rows start at any byte (a pitch one sample
 * over the row), 8 and 16 bits: `none` still gives the input back. */
GST_START_TEST (test_round_trip_odd_pitch)
{
  for (gint f = 0; f < 2; f++) {
    const cvcore_sample sample = f ? CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
    TestImage src = cvtest_image_new (device, stream, 37, 7, 1, sample, -1, 0,
        40 + f);
    /* allocated with room for the narrower pitch set after */
    TestImage out = cvtest_image_new (device, stream, 37, 7, 1, sample, 0xcd,
        cvtest_sample_bytes (sample), 0);
    cvcore_clt_params params;

    out.image.pitch = cvtest_row_bytes (&out.image) +
        cvtest_sample_bytes (sample);
    cvcore_clt_params_init (&params);
    run_into (device, stream, &src, &out, &params, NULL);
    assert_equal_images (&out, &src, 0, 0, "odd pitch");
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* Whole-pixel shifts move the sampling: exact, the frame's mirror image
 * coming in at the edges. */
GST_START_TEST (test_integer_shift)
{
  TestImage src = cvtest_image_new (device, stream, 45, 29, 1,
      CVCORE_SAMPLE_U8, -1, 0, 9);
  static const gint shifts[][2] = { {3, -2}, {-17, 40}, {0, 1} };

  for (guint i = 0; i < G_N_ELEMENTS (shifts); i++) {
    cvcore_clt_params params;
    TestImage out;

    cvcore_clt_params_init (&params);
    params.operation = CVCORE_CLT_SHIFT;
    params.shift_x = shifts[i][0];
    params.shift_y = shifts[i][1];
    out = run (&src, &params, NULL);
    assert_equal_images (&out, &src, shifts[i][0], shifts[i][1], "shift");
    cvtest_image_free (&out, device);
  }
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* RMS difference of @out from @expected over the pixels at least @margin
 * from the edges, relative to the RMS of @expected's variation. */
static gdouble
relative_rms (const TestImage * out, const TestImage * expected, gint margin)
{
  const cvcore_image *im = &out->image;
  gdouble num = 0.0, den = 0.0, mean = 0.0;
  gint n = 0;

  for (gint y = margin; y < im->height - margin; y++)
    for (gint x = margin; x < im->width - margin; x++, n++)
      mean += cvtest_host_sample (expected, x, y, 0);
  mean /= n;
  for (gint y = margin; y < im->height - margin; y++)
    for (gint x = margin; x < im->width - margin; x++) {
      const gdouble e = cvtest_host_sample (expected, x, y, 0);
      const gdouble d = cvtest_host_sample (out, x, y, 0) - e;

      num += d * d;
      den += (e - mean) * (e - mean);
    }
  return sqrt (num / den);
}

/* A sub-pixel shift of a band-limited picture against the picture
 * evaluated at the shifted positions (its exact Fourier shift). */
GST_START_TEST (test_fractional_shift)
{
  static const gdouble shifts[][2] = { {0.5, -0.25}, {-0.3, 0.1},
  {2.75, 1.5}
  };

  for (guint i = 0; i < G_N_ELEMENTS (shifts); i++) {
    TestImage src = smooth_image (97, 71, 0.0, 0.0);
    TestImage expected = smooth_image (97, 71, shifts[i][0], shifts[i][1]);
    cvcore_clt_params params;
    TestImage out;
    gdouble before, after;

    cvcore_clt_params_init (&params);
    params.operation = CVCORE_CLT_SHIFT;
    params.shift_x = shifts[i][0];
    params.shift_y = shifts[i][1];
    out = run (&src, &params, NULL);
    before = relative_rms (&src, &expected, 16);
    after = relative_rms (&out, &expected, 16);
    GST_INFO ("shift (%g, %g): relative RMS error %.5f (unshifted %.4f)",
        shifts[i][0], shifts[i][1], after, before);
    fail_unless (after < 0.01, "shift (%g, %g): %g", shifts[i][0],
        shifts[i][1], after);
    fail_unless (after < before / 20.0);
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
    cvtest_image_free (&expected, device);
  }
}

GST_END_TEST;


/* Mosaic patterns as the core takes them */
static const unsigned patterns[] = {
  CVCORE_CLT_BAYER (0, 1, 1, 2),        /* rggb */
  CVCORE_CLT_BAYER (2, 1, 1, 0),        /* bggr */
  CVCORE_CLT_BAYER (1, 0, 2, 1),        /* grbg */
  CVCORE_CLT_BAYER (1, 2, 0, 1),        /* gbrg */
};

static gint
site_colour (unsigned pattern, gint x, gint y)
{
  return pattern >> (2 * ((y & 1) * 2 + (x & 1))) & 3;
}

/* Either mosaic method: `none` gives a mosaic back exactly, every
 * pattern, 8 and 16 bits, odd sizes; to RGBA a flat-coloured mosaic (of 2
 * pixels or more) gives the flat colour, opaque. */
GST_START_TEST (test_bayer_none)
{
  static const gint sizes[][2] = { {1, 1}, {2, 2}, {17, 9}, {37, 21} };
  static const gdouble colour[3] = { 200, 100, 30 };

  for (guint n = 0; n < 2 * G_N_ELEMENTS (sizes); n++)
    for (guint k = 0; k < G_N_ELEMENTS (patterns); k++) {
      const guint s = n / 2;
      const cvcore_sample sample = k % 2 ? CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8;
      const gint w = sizes[s][0], h = sizes[s][1];
      TestImage src = cvtest_image_new (device, stream, w, h, 1, sample, -1,
          4 * k, 5 * n + k);
      TestImage flat = cvtest_image_new (device, stream, w, h, 1, sample, 0,
          0, 0);
      cvcore_clt_scratch *clt;
      cvcore_clt_params params;
      TestImage out;

      cvcore_clt_params_init (&params);
      params.bayer = patterns[k];
      params.mosaic_method = n % 2 ? CVCORE_CLT_MOSAIC_SPARSE :
          CVCORE_CLT_MOSAIC_INTERPOLATE;
      out = run (&src, &params, NULL);
      assert_equal_images (&out, &src, 0, 0, "mosaic round trip");
      cvtest_image_free (&out, device);

      for (gint y = 0; y < h; y++)
        for (gint x = 0; x < w; x++)
          cvtest_put_sample (&flat, x, y, 0, colour[site_colour (patterns[k], x,
                      y)]);
      cvtest_image_upload (&flat, stream);
      out = run_rgba (&flat, &params);
      /* a 1-pixel mosaic has no sites of the other colours */
      for (gint y = 0; y < h && w > 1; y++)
        for (gint x = 0; x < w; x++)
          for (gint c = 0; c < 4; c++)
            fail_unless_equals_int (cvtest_host_sample (&out, x, y, c),
                c < 3 ? colour[c] : (k % 2 ? 65535 : 255));
      /* a scratch made without mosaics takes none */
      fail_unless_equals_int (cvcore_clt_scratch_new (device, w, h, 3, false,
              &clt), CVCORE_OK);
      fail_unless_equals_int (cvcore_clt (stream, clt, &flat.image,
              &out.image, &params), CVCORE_ERROR_INVALID_VALUE);
      cvcore_clt_scratch_free (clt);
      cvtest_image_free (&out, device);
      cvtest_image_free (&flat, device);
      cvtest_image_free (&src, device);
    }
}

GST_END_TEST;

/* A whole-pixel shift by an even amount keeps every site's colour: the
 * mosaic moves exactly wherever it comes from inside the frame; an odd
 * shift gives each site its colour interpolated from the neighbours. */
GST_START_TEST (test_bayer_shift)
{
  const gint w = 40, h = 26;
  TestImage src = cvtest_image_new (device, stream, w, h, 1,
      CVCORE_SAMPLE_U8, -1, 0, 31);
  static const gint shifts[][2] = { {2, -4}, {1, 0} };

  for (guint i = 0; i < G_N_ELEMENTS (shifts); i++) {
    cvcore_clt_params params;
    TestImage out;

    cvcore_clt_params_init (&params);
    params.operation = CVCORE_CLT_SHIFT;
    params.shift_x = shifts[i][0];
    params.shift_y = shifts[i][1];
    params.bayer = patterns[0];
    params.mosaic_method = CVCORE_CLT_MOSAIC_INTERPOLATE;
    out = run (&src, &params, NULL);
    for (gint y = 1; y < h - 1; y++)
      for (gint x = 1; x < w - 1; x++) {
        const gint sx = x - shifts[i][0], sy = y - shifts[i][1];
        const gint c = site_colour (patterns[0], x, y);
        gdouble expected;

        if (sx < 1 || sy < 1 || sx >= w - 1 || sy >= h - 1)
          continue;
        if (site_colour (patterns[0], sx, sy) == c)
          expected = cvtest_host_sample (&src, sx, sy, 0);
        else if (c == 1)
          expected = (cvtest_host_sample (&src, sx - 1, sy, 0) +
              cvtest_host_sample (&src, sx + 1, sy, 0) +
              cvtest_host_sample (&src, sx, sy - 1, 0) +
              cvtest_host_sample (&src, sx, sy + 1, 0)) / 4.0;
        else
          expected = (cvtest_host_sample (&src, sx - 1, sy, 0) +
              cvtest_host_sample (&src, sx + 1, sy, 0)) / 2.0;
        fail_unless (fabs (cvtest_host_sample (&out, x, y, 0) - expected) <=
            0.5, "shift %u, (%d, %d): %g, not %g", i, x, y,
            cvtest_host_sample (&out, x, y, 0), expected);
      }
    cvtest_image_free (&out, device);
  }
  cvtest_image_free (&src, device);
}

GST_END_TEST;

/* The symmetries the sparse method's CUDA kernel builds on: one colour of
 * a mosaic (its sites, zeros between), through the plain forward
 * transform, tiles inside the frame. On a lattice of site columns of
 * parity px and rows qy, SC (k, l) = (-1)^px CC (7 - k, l), CS (k, l) =
 * (-1)^qy CC (k, 7 - l), SS (k, l) = (-1)^(px + qy) CC (7 - k, 7 - l); on
 * green's two lattices (columns of parity px in row 0), SC (k, l) =
 * (-1)^px CS (7 - k, 7 - l), SS (k, l) = (-1)^px CC (7 - k, 7 - l). */
GST_START_TEST (test_sparse_symmetry)
{
  const gint w = 40, h = 32, tiles_x = cvcore_clt_tiles (w);
  TestImage mosaic = cvtest_image_new (device, stream, w, h, 1,
      CVCORE_SAMPLE_U16, -1, 0, 77);

  for (guint k = 0; k < G_N_ELEMENTS (patterns); k++)
    for (gint c = 0; c < 3; c++) {
      TestImage plane = cvtest_image_new (device, stream, w, h, 1,
          CVCORE_SAMPLE_U16, 0, 0, 0);
      /* green: its columns in row 0 */
      const gint px = site_colour (patterns[k], 0, 0) == c
          || (c != 1 && site_colour (patterns[k], 0, 1) == c) ? 0 : 1;
      const gint qy = site_colour (patterns[k], 0, 0) == c
          || site_colour (patterns[k], 1, 0) == c ? 0 : 1;
      gdouble worst = 0.0, largest = 0.0;
      gfloat *coef;

      for (gint y = 0; y < h; y++)
        for (gint x = 0; x < w; x++)
          if (site_colour (patterns[k], x, y) == c)
            cvtest_put_sample (&plane, x, y, 0, cvtest_host_sample (&mosaic, x,
                    y, 0));
      cvtest_image_upload (&plane, stream);
      coef = forward_coefficients (&plane, 0);
      for (gint ty = 1; 8 * ty + 8 <= h; ty++)
        for (gint tx = 1; 8 * tx + 8 <= w; tx++) {
          const gfloat *t = coef + (ty * tiles_x + tx) * 256;
#define AT(layer, l, k) t[(layer) * 64 + (l) * 8 + (k)]
          for (gint l = 0; l < 8; l++)
            for (gint kk = 0; kk < 8; kk++) {
              gdouble d[2];

              if (c == 1) {
                const gdouble sign = px ? -1.0 : 1.0;

                d[0] = AT (1, l, kk) - sign * AT (2, 7 - l, 7 - kk);
                d[1] = AT (3, l, kk) - sign * AT (0, 7 - l, 7 - kk);
              } else {
                d[0] = AT (1, l, kk) - (px ? -1 : 1) * AT (0, l, 7 - kk);
                d[1] = AT (3, l, kk) - ((px ^ qy) ? -1 : 1) * AT (0, 7 - l,
                    7 - kk);
                worst = MAX (worst, fabs (AT (2, l, kk) - (qy ? -1 : 1) *
                        AT (0, 7 - l, kk)));
              }
              worst = MAX (worst, MAX (fabs (d[0]), fabs (d[1])));
              largest = MAX (largest, fabs (AT (0, l, kk)));
            }
#undef AT
        }
      GST_INFO ("pattern %u colour %d: worst %g of %g", k, c, worst, largest);
      fail_unless (largest > 1000.0 && worst < 1e-5 * largest,
          "pattern %u colour %d: off by %g of %g", k, c, worst, largest);
      g_free (coef);
      cvtest_image_free (&plane, device);
    }
  cvtest_image_free (&mosaic, device);
}

GST_END_TEST;

/* A band-limited colour picture seen through mosaic @pattern (colour c is
 * the field moved by (37 c, -11 c)). */
static TestImage
smooth_mosaic (gint w, gint h, unsigned pattern)
{
  TestImage t = cvtest_image_new (device, stream, w, h, 1,
      CVCORE_SAMPLE_U16, 0, 0, 0);

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      const gint c = site_colour (pattern, x, y);

      cvtest_put_sample (&t, x, y, 0, cvtest_band_limited (x + 37 * c,
              y - 11 * c));
    }
  cvtest_image_upload (&t, stream);
  return t;
}

/* RMS error of RGBA @rgba against the colour picture of smooth_mosaic(),
 * 4 pixels from the edges. */
static gdouble
smooth_colour_error (const TestImage * rgba)
{
  const gint w = rgba->image.width, h = rgba->image.height;
  gdouble sum = 0.0;
  gint n = 0;

  for (gint y = 4; y < h - 4; y++)
    for (gint x = 4; x < w - 4; x++)
      for (gint c = 0; c < 3; c++, n++) {
        const gdouble d = cvtest_host_sample (rgba, x, y, c) -
            cvtest_band_limited (x + 37 * c, y - 11 * c);

        sum += d * d;
      }
  return sqrt (sum / n);
}

/* To RGBA, a band-limited picture comes back closer through the sparse
 * method than through bilinear interpolation first. */
GST_START_TEST (test_bayer_sparse)
{
  for (guint k = 0; k < G_N_ELEMENTS (patterns); k++) {
    TestImage field = smooth_mosaic (67, 45, patterns[k]);
    cvcore_clt_params params;
    TestImage out;
    gdouble error[2];

    cvcore_clt_params_init (&params);
    params.bayer = patterns[k];
    for (gint m = 0; m < 2; m++) {
      params.mosaic_method = m ? CVCORE_CLT_MOSAIC_SPARSE :
          CVCORE_CLT_MOSAIC_INTERPOLATE;
      out = run_rgba (&field, &params);
      error[m] = smooth_colour_error (&out);
      cvtest_image_free (&out, device);
    }
    GST_INFO ("pattern %u: RMS error %g interpolating first, %g sparse", k,
        error[0], error[1]);
    fail_unless (error[1] < 0.9 * error[0], "pattern %u: %g vs %g", k,
        error[1], error[0]);
    cvtest_image_free (&field, device);
  }
}

GST_END_TEST;

/* A kernel set of 3 colours, each its own Gaussian at every node. */
static cvcore_clt_kernel_set *
colour_kernels (gint w, gint h)
{
  cvcore_clt_kernel_set *set;
  gdouble psf[25];

  fail_unless_equals_int (cvcore_clt_kernel_set_new (w, h, 3, 3, &set),
      CVCORE_OK);
  for (gint c = 0; c < 3; c++)
    for (gint ny = 0; ny < set->nodes_y; ny++)
      for (gint nx = 0; nx < set->nodes_x; nx++) {
        picture_gaussian_psf (0.6 + 0.2 * c + 0.1 * nx + 0.05 * ny, 5, psf);
        cvcore_clt_response_from_psf (psf, 5, 0.01, TRUE,
            cvcore_clt_kernel_set_node (set, c, nx, ny));
      }
  return set;
}

/* A mosaic's grey pictures: its luma is BT.601's sum of its RGBA, within
 * the rounding of both (one unit), and its green is RGBA's green exactly;
 * either method, 8 and 16 bits, with and without a deconvolution. They
 * take one-channel frames from mosaics only. */
GST_START_TEST (test_bayer_grey)
{
  static const gdouble weight[3] = { 0.299, 0.587, 0.114 };

  for (guint n = 0; n < 8; n++) {
    const gint w = 41 + n, h = 27;
    TestImage src = cvtest_image_new (device, stream, w, h, 1,
        n % 2 ? CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8, -1, 0, n + 5);
    cvcore_clt_kernel_set *set = n >= 4 ? colour_kernels (w, h) : NULL;
    cvcore_clt_params params;
    const gdouble full = n % 2 ? 65535.0 : 255.0;
    TestImage rgba, luma, green;
    gdouble worst = 0.0;
    gint compared = 0;

    /* noise in the middle half of the range, so that few colours clip */
    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++)
        cvtest_put_sample (&src, x, y, 0, floor (full / 4 +
                cvtest_host_sample (&src, x, y, 0) / 2));
    cvtest_image_upload (&src, stream);
    cvcore_clt_params_init (&params);
    params.bayer = patterns[n % 4];
    params.mosaic_method = n / 2 % 2 ? CVCORE_CLT_MOSAIC_SPARSE :
        CVCORE_CLT_MOSAIC_INTERPOLATE;
    params.operation = set ? CVCORE_CLT_DECONVOLVE : CVCORE_CLT_NONE;
    rgba = run_to (device, stream, &src, 4, &params, set);
    params.grey = CVCORE_CLT_GREY_LUMA;
    luma = run_to (device, stream, &src, 1, &params, set);
    params.grey = CVCORE_CLT_GREY_GREEN;
    green = run_to (device, stream, &src, 1, &params, set);
    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++) {
        gdouble sum = 0.0;
        gboolean clipped = FALSE;

        fail_unless_equals_int (cvtest_host_sample (&green, x, y, 0),
            cvtest_host_sample (&rgba, x, y, 1));
        for (gint c = 0; c < 3; c++) {
          const gdouble v = cvtest_host_sample (&rgba, x, y, c);

          sum += weight[c] * v;
          clipped |= v == 0.0 || v == full;
        }
        /* colours that overshoot clip in RGBA one by one */
        if (clipped)
          continue;
        worst = MAX (worst, fabs (cvtest_host_sample (&luma, x, y, 0) - sum));
        compared++;
      }
    GST_INFO ("case %u: luma off the RGBA's by %g at most (%d pixels)", n,
        worst, compared);
    fail_unless (compared > w * h / 2, "case %u: %d pixels compared", n,
        compared);
    /* float sums on CUDA add a little to the two roundings */
    fail_unless (worst <= 1.01, "case %u: off by %g", n, worst);
    cvtest_image_free (&green, device);
    cvtest_image_free (&luma, device);
    cvtest_image_free (&rgba, device);
    cvtest_image_free (&src, device);
    cvcore_clt_kernel_set_free (set);
  }
  {
    TestImage src = cvtest_image_new (device, stream, 16, 16, 1,
        CVCORE_SAMPLE_U8, -1, 0, 1);
    TestImage out = cvtest_image_new (device, stream, 16, 16, 4,
        CVCORE_SAMPLE_U8, 0, 0, 0);
    cvcore_clt_scratch *clt;
    cvcore_clt_params params;

    fail_unless_equals_int (cvcore_clt_scratch_new (device, 16, 16, 3, true,
            &clt), CVCORE_OK);
    cvcore_clt_params_init (&params);
    params.grey = CVCORE_CLT_GREY_LUMA;
    /* no mosaic: no grey picture of one */
    fail_unless_equals_int (cvcore_clt (stream, clt, &src.image, &src.image,
            &params), CVCORE_ERROR_INVALID_VALUE);
    /* a grey picture is one channel */
    params.bayer = patterns[0];
    fail_unless_equals_int (cvcore_clt (stream, clt, &src.image, &out.image,
            &params), CVCORE_ERROR_INVALID_VALUE);
    params.grey = (cvcore_clt_grey) (CVCORE_CLT_GREY_GREEN + 1);
    fail_unless_equals_int (cvcore_clt (stream, clt, &src.image, &src.image,
            &params), CVCORE_ERROR_INVALID_VALUE);
    cvcore_clt_scratch_free (clt);
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
  }
}

GST_END_TEST;

/* Lowpass keeps flat frames flat and smooths a random one: its variance
 * falls as sigma grows. */
GST_START_TEST (test_lowpass)
{
  TestImage flat = cvtest_image_new (device, stream, 40, 24, 1,
      CVCORE_SAMPLE_U16, 0x5a, 0, 0);
  TestImage noise = cvtest_image_new (device, stream, 64, 64, 1,
      CVCORE_SAMPLE_U8, -1, 0, 3);
  cvcore_clt_params params;
  gdouble last = G_MAXDOUBLE;

  cvcore_clt_params_init (&params);
  params.operation = CVCORE_CLT_LOWPASS;
  params.sigma = 3.0;
  {
    TestImage out = run (&flat, &params, NULL);

    for (gint y = 0; y < 24; y++)
      for (gint x = 0; x < 40; x++)
        fail_unless_equals_int (cvtest_host_sample (&out, x, y, 0), 0x5a5a);
    cvtest_image_free (&out, device);
  }
  for (gint s = 0; s < 4; s++) {
    TestImage out;
    gdouble sum = 0.0, sum2 = 0.0, var;

    params.sigma = 0.5 * s;
    out = run (&noise, &params, NULL);
    for (gint i = 0; i < 64 * 64; i++) {
      const gdouble v = cvtest_host_sample (&out, i % 64, i / 64, 0);

      sum += v;
      sum2 += v * v;
    }
    var = sum2 / 4096 - (sum / 4096) * (sum / 4096);
    GST_INFO ("sigma %g: variance %g, mean %g", params.sigma, var, sum / 4096);
    fail_unless (var < last * (s ? 0.8 : 1.01), "sigma %g: %g after %g",
        params.sigma, var, last);
    fail_unless (fabs (sum / 4096 - 127.5) < 6.0);
    last = var;
    cvtest_image_free (&out, device);
  }
  cvtest_image_free (&flat, device);
  cvtest_image_free (&noise, device);
}

GST_END_TEST;

static gdouble
psnr (const TestImage * a, const TestImage * b, gint margin)
{
  const cvcore_image *im = &a->image;
  gdouble sum = 0.0;
  gint n = 0;

  for (gint y = margin; y < im->height - margin; y++)
    for (gint x = margin; x < im->width - margin; x++, n++) {
      const gdouble d = cvtest_host_sample (a, x, y, 0) -
          cvtest_host_sample (b, x, y, 0);

      sum += d * d;
    }
  return 10.0 * log10 (65535.0 * 65535.0 / (sum / n));
}

/* A Gaussian blur (sigma 1.2, in space) undone by a kernel set made from
 * the same Gaussian: the PSNR against the sharp picture goes up. Half of
 * the nodes hold the identity, so the interpolation shows too. */
GST_START_TEST (test_deconvolve)
{
  const gint w = 96, h = 80, size = 9;
  TestImage sharp = smooth_image (w, h, 0.0, 0.0);
  TestImage blurred = smooth_image (w, h, 0.0, 0.0);
  gdouble psf[9 * 9], sum = 0.0, p_blur, p_sharp;
  cvcore_clt_kernel_set *set;
  cvcore_clt_params params;
  TestImage out;

  picture_gaussian_psf (1.2, size, psf);
  for (gint i = 0; i < size * size; i++)
    sum += psf[i];
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      gdouble v = 0.0;

      for (gint j = 0; j < size; j++)
        for (gint i = 0; i < size; i++)
          v += psf[j * size + i] / sum * cvtest_host_sample (&sharp,
              picture_mirror (x + i - size / 2, w),
              picture_mirror (y + j - size / 2, h), 0);
      cvtest_put_sample (&blurred, x, y, 0, v);
    }
  cvtest_image_upload (&blurred, stream);
  fail_unless_equals_int (cvcore_clt_kernel_set_new (w, h, 4, 1, &set),
      CVCORE_OK);
  for (gint ny = 0; ny < set->nodes_y; ny++)
    for (gint nx = 0; nx < set->nodes_x; nx++)
      cvcore_clt_response_from_psf (psf, size, 1e-3, TRUE,
          cvcore_clt_kernel_set_node (set, 0, nx, ny));
  cvcore_clt_params_init (&params);
  params.operation = CVCORE_CLT_DECONVOLVE;
  out = run (&blurred, &params, set);
  p_blur = psnr (&blurred, &sharp, 12);
  p_sharp = psnr (&out, &sharp, 12);
  GST_INFO ("PSNR blurred %.2f dB, deconvolved %.2f dB", p_blur, p_sharp);
  fail_unless (p_sharp > p_blur + 6.0, "%g -> %g dB", p_blur, p_sharp);
  cvtest_image_free (&out, device);

  /* identity nodes on the left half: that half comes back as it was */
  for (gint ny = 0; ny < set->nodes_y; ny++)
    for (gint nx = 0; nx < set->nodes_x / 2; nx++) {
      gfloat *r = cvcore_clt_kernel_set_node (set, 0, nx, ny);

      for (gint i = 0; i < 256; i++)
        r[i] = i < 64 ? 1.0f : 0.0f;
    }
  out = run (&blurred, &params, set);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < 8 * (4 * (set->nodes_x / 2 - 1) - 1); x++)
      fail_unless (fabs (cvtest_host_sample (&out, x, y, 0) -
              cvtest_host_sample (&blurred, x, y, 0)) <= 1.0, "(%d, %d)", x, y);
  cvtest_image_free (&out, device);
  cvcore_clt_kernel_set_free (set);
  cvtest_image_free (&sharp, device);
  cvtest_image_free (&blurred, device);
}

GST_END_TEST;

static gchar *
write_file (const gchar * name, gconstpointer data, gsize size)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  fail_unless (g_file_set_contents (path, data, size, NULL));
  return path;
}

static void
assert_load_fails (const gchar * path, const gchar * reason)
{
  cvcore_clt_kernel_set *set = NULL;

  fail_unless_equals_int (cvcore_clt_kernel_set_load (path, &set),
      CVCORE_ERROR_INVALID_VALUE);
  fail_unless (set == NULL);
  fail_unless (strstr (cvcore_last_error (), reason) != NULL,
      "'%s' does not say '%s'", cvcore_last_error (), reason);
}

/* Files: saved and loaded back the same; broken ones refused, saying
 * why; a set for another frame size refused by the scratch. */
GST_START_TEST (test_kernel_files)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "cvclt-good.kernels",
      NULL), *bad, *contents;
  cvcore_clt_kernel_set *set, *back;
  cvcore_clt_scratch *clt;
  gsize size;

  fail_unless_equals_int (cvcore_clt_kernel_set_new (50, 30, 2, 3, &set),
      CVCORE_OK);
  fail_unless_equals_int (set->nodes_x, 5);
  fail_unless_equals_int (set->nodes_y, 3);
  for (gsize i = 0; i < (gsize) 3 * 5 * 3 * 256; i++)
    set->data[i] = (gfloat) g_random_double_range (-2, 2);
  fail_unless_equals_int (cvcore_clt_kernel_set_save (set, path), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_kernel_set_load (path, &back), CVCORE_OK);
  fail_unless_equals_int (back->nodes_x, 5);
  fail_unless (memcmp (back->data, set->data, 3 * 5 * 3 * 256 * 4) == 0);
  cvcore_clt_kernel_set_free (back);

  fail_unless (g_file_get_contents (path, &contents, &size, NULL));
  bad = write_file ("cvclt-bad.kernels", contents, size - 4);
  assert_load_fails (bad, "bytes");
  g_free (bad);
  contents[20] = 6;             /* nodes_x */
  bad = write_file ("cvclt-bad.kernels", contents, size);
  assert_load_fails (bad, "nodes");
  g_free (bad);
  /* signed fields read as such: -1 nodes, stride -8 */
  memset (contents + 20, 0xff, 8);
  bad = write_file ("cvclt-bad.kernels", contents, size);
  assert_load_fails (bad, "-1 x -1 nodes");
  g_free (bad);
  memcpy (contents + 16, "\xf8\xff\xff\xff", 4);
  bad = write_file ("cvclt-bad.kernels", contents, size);
  assert_load_fails (bad, "stride -8");
  g_free (bad);
  g_free (contents);
  fail_unless (g_file_get_contents (path, &contents, &size, NULL));
  /* a directory is no kernel set of any kind */
  assert_load_fails (g_get_tmp_dir (), "a directory");
  contents[20] = 5;
  contents[0] = 'X';
  bad = write_file ("cvclt-bad.kernels", contents, size);
  assert_load_fails (bad, "not a CLT kernel set");
  g_free (bad);
  contents[0] = 'C';
  memset (contents + 40 + 4 * 77, 0xff, 4);     /* a NaN */
  bad = write_file ("cvclt-bad.kernels", contents, size);
  assert_load_fails (bad, "not finite");
  g_unlink (bad);
  g_free (bad);
  assert_load_fails ("/nonexistent/cvclt.kernels", "cannot open");
  g_free (contents);

  fail_unless_equals_int (cvcore_clt_scratch_new (device, 51, 30, 1, false,
          &clt), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_set_kernels (clt, stream, set),
      CVCORE_ERROR_INVALID_VALUE);
  cvcore_clt_scratch_free (clt);
  cvcore_clt_kernel_set_free (set);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;


/* CUDA against the CPU reference, every operation, interleaved channels
 * and mosaics, within one unit. */
GST_START_TEST (test_cuda_equals_cpu)
{
  static const gint sizes[][2] = { {1, 1}, {17, 9}, {1921, 1081} };

  /* cases 12..15: mosaics, every operation; 16..19 the same, sparse;
   * 20..23 their luma, 24..27 their green, either method */
  for (guint n = 0; n < 28; n++) {
    const gint *size = sizes[n % 3];
    const gint channels = n % 2 && n < 12 ? 4 : 1;
    TestImage src = cvtest_image_new (device, stream, size[0], size[1],
        channels, n % 4 == 2 ? CVCORE_SAMPLE_U16 : CVCORE_SAMPLE_U8, -1,
        n % 3 * 12, n + 21);
    TestImage cpu_src = cvtest_image_on_cpu (cvtest_cpu, cvtest_cpu_stream,
        &src);
    cvcore_clt_kernel_set *set = NULL;
    cvcore_clt_params params;
    TestImage out, cpu_out;
    gdouble worst = 0.0;

    cvcore_clt_params_init (&params);
    params.operation = (cvcore_clt_operation) (n < 12 ? n / 3 : n % 4);
    params.bayer = n < 12 ? 0 : patterns[n % 4];
    params.mosaic_method = n < 16 || (n >= 20 && n % 2 == 0) ?
        CVCORE_CLT_MOSAIC_INTERPOLATE : CVCORE_CLT_MOSAIC_SPARSE;
    params.grey = n >= 24 ? CVCORE_CLT_GREY_GREEN : n >= 20 ?
        CVCORE_CLT_GREY_LUMA : CVCORE_CLT_GREY_NONE;
    params.shift_x = 1.3 - 0.4 * n;
    params.shift_y = 0.45 * n - 2.0;
    params.sigma = 0.7 + 0.3 * n;
    params.channel_mask = channels == 4 ? 0xb : 0x1;
    params.kernel_channel[0] = 2;
    params.kernel_channel[1] = 1;
    params.kernel_channel[3] = 0;
    if (params.operation == CVCORE_CLT_DECONVOLVE)
      set = colour_kernels (size[0], size[1]);
    out = run (&src, &params, set);
    cpu_out = run_on (cvtest_cpu, cvtest_cpu_stream, &cpu_src, &params, set);
    for (gint y = 0; y < size[1]; y++)
      for (gint x = 0; x < size[0]; x++)
        for (gint c = 0; c < channels; c++)
          worst = MAX (worst, fabs (cvtest_host_sample (&out, x, y, c) -
                  cvtest_host_sample (&cpu_out, x, y, c)));
    GST_INFO ("case %u (operation %d, %dx%dx%d): worst %g", n,
        params.operation, size[0], size[1], channels, worst);
    fail_unless (worst <= 1.0, "case %u: off by %g", n, worst);
    cvcore_clt_kernel_set_free (set);
    cvtest_image_free (&out, device);
    cvtest_image_free (&src, device);
    cvtest_image_free (&cpu_out, cvtest_cpu);
    cvtest_image_free (&cpu_src, cvtest_cpu);
  }
}

GST_END_TEST;

static Suite *
clt_suite (void)
{
  Suite *s = suite_create ("clt");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_forward_definition);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_round_trip_odd_pitch);
  tcase_add_test (tc, test_integer_shift);
  tcase_add_test (tc, test_bayer_none);
  tcase_add_test (tc, test_bayer_shift);
  tcase_add_test (tc, test_sparse_symmetry);
  tcase_add_test (tc, test_bayer_sparse);
  tcase_add_test (tc, test_bayer_grey);
  tcase_add_test (tc, test_fractional_shift);
  tcase_add_test (tc, test_lowpass);
  tcase_add_test (tc, test_deconvolve);
  tcase_add_test (tc, test_kernel_files);
  if (cvtest_backend () == CVCORE_BACKEND_CUDA) {
    TCase *cuda = cvtest_cuda_tcase (s, setup, teardown, 300);

    tcase_add_test (cuda, test_cuda_equals_cpu);
  }
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, clt_suite);
}
