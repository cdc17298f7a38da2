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

/* The parsers of the files that properties name, fed random and mutated
 * files: cudafoveate's PGM and PFM blur maps and cudaclt's kernel sets.
 * They must never read or write out of bounds (valgrind watches in CI),
 * never hang, and whatever they accept must be consistent. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cvclt.h"
#include "cvtest.h"
#include "gstcudafoveatemap.h"

static guint
rounds (void)
{
  return g_getenv ("CVTEST_QUICK") ? 300 : 3000;
}

/* @data with a few random bytes changed, a run cut out, or cut short. */
static GByteArray *
mutate (GRand * rand, const guint8 * data, gsize size)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, data, size);
  switch (g_rand_int_range (rand, 0, 4)) {
    case 0:
      for (gint i = g_rand_int_range (rand, 1, 5); i > 0 && out->len; i--)
        out->data[g_rand_int_range (rand, 0, out->len)] =
            (guint8) g_rand_int (rand);
      break;
    case 1:
      if (out->len > 1)
        g_byte_array_set_size (out, g_rand_int_range (rand, 0, out->len));
      break;
    case 2:
      if (out->len > 4) {
        guint at = g_rand_int_range (rand, 0, out->len - 2);

        g_byte_array_remove_range (out, at, g_rand_int_range (rand, 1,
                MIN (40, out->len - at)));
      }
      break;
    default:
      for (gint i = g_rand_int_range (rand, 1, 60); i > 0; i--) {
        guint8 b = (guint8) g_rand_int (rand);

        g_byte_array_append (out, &b, 1);
      }
      break;
  }
  return out;
}

static void
write_bytes (const gchar * path, const guint8 * data, gsize size)
{
  fail_unless (g_file_set_contents (path, (const gchar *) data, size, NULL));
}

GST_START_TEST (test_blur_map_fuzz)
{
  /* valid maps to mutate, and headers that promise too much */
  static const struct
  {
    const gchar *header;
    gsize samples;
  } seeds[] = {
    {"P5\n4 3\n255\n", 12},
    {"P5 3 2 65535\n", 12},
    {"P5\n# comment\n2 2\n255\n", 4},
    {"Pf\n2 2\n-1.0\n", 16},
    {"Pf 3 1 1.0\n", 12},
    {"P5\n16384 16384\n65535\n", 16},
    {"P5\n99999999999999999999 1\n255\n", 4},
    {"Pf\n2 2\nnan\n", 16},
  };
  gchar *path = g_build_filename (g_get_tmp_dir (), "fuzz-XXXXXX.pgm", NULL);
  GRand *rand = g_rand_new_with_seed (42);
  gint fd = g_mkstemp (path);

  fail_unless (fd >= 0);
  close (fd);
  for (guint r = 0; r < rounds (); r++) {
    const guint s = r % G_N_ELEMENTS (seeds);
    GByteArray *seed = g_byte_array_new ();
    GByteArray *file;
    GError *error = NULL;
    gint width = -1, height = -1;
    guint8 *levels;

    g_byte_array_append (seed, (const guint8 *) seeds[s].header,
        strlen (seeds[s].header));
    for (gsize i = 0; i < seeds[s].samples; i++) {
      guint8 b = (guint8) g_rand_int (rand);

      g_byte_array_append (seed, &b, 1);
    }
    file = r < G_N_ELEMENTS (seeds) ? g_byte_array_ref (seed) :
        mutate (rand, seed->data, seed->len);
    /* kept in the P5/Pf parsers: other files go to a decoder */
    if (file->len >= 2) {
      file->data[0] = 'P';
      if (file->data[1] != '5' && file->data[1] != 'f')
        file->data[1] = '5';
    }
    write_bytes (path, file->data, file->len);
    levels = gst_cuda_vision_foveate_map_load (path, &width, &height, &error);
    if (levels) {
      fail_unless (width >= 1 && height >= 1
          && width <= GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE
          && height <= GST_CUDA_VISION_FOVEATE_MAP_MAX_SIDE);
      /* every level is readable */
      fail_unless (levels[(gsize) width * height - 1] <= 255);
      g_free (levels);
    } else {
      fail_unless (error != NULL && error->message[0] != '\0');
      g_error_free (error);
    }
    g_byte_array_unref (file);
    g_byte_array_unref (seed);
  }
  g_unlink (path);
  g_free (path);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_kernel_set_fuzz)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "fuzz-XXXXXX.kernels",
      NULL);
  GRand *rand = g_rand_new_with_seed (7);
  cvcore_clt_kernel_set *set;
  gchar *valid;
  gsize valid_size;
  gint fd = g_mkstemp (path);

  fail_unless (fd >= 0);
  close (fd);
  fail_unless_equals_int (cvcore_clt_kernel_set_new (40, 24, 2, 1, &set),
      CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_kernel_set_save (set, path), CVCORE_OK);
  cvcore_clt_kernel_set_free (set);
  fail_unless (g_file_get_contents (path, &valid, &valid_size, NULL));

  for (guint r = 0; r < rounds (); r++) {
    GByteArray *file = mutate (rand, (const guint8 *) valid, valid_size);
    cvcore_clt_kernel_set *loaded = NULL;

    /* the header's fields most of the time, where they matter most */
    if (r % 2 && file->len > 40)
      file->data[8 + g_rand_int_range (rand, 0, 32)] ^=
          (guint8) (1u << g_rand_int_range (rand, 0, 8));
    write_bytes (path, file->data, file->len);
    if (cvcore_clt_kernel_set_load (path, &loaded) == CVCORE_OK) {
      fail_unless (loaded->nodes_x >= 2 && loaded->nodes_y >= 2
          && (loaded->channels == 1 || loaded->channels == 3));
      /* the last coefficient is there */
      fail_unless (cvcore_clt_kernel_set_node (loaded, loaded->channels - 1,
              loaded->nodes_x - 1, loaded->nodes_y - 1) != NULL);
      cvcore_clt_kernel_set_free (loaded);
    } else {
      fail_unless (loaded == NULL && cvcore_last_error ()[0] != '\0');
    }
    g_byte_array_unref (file);
  }
  g_free (valid);
  g_unlink (path);
  g_free (path);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
fuzz_suite (void)
{
  Suite *s = suite_create ("fuzz");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_blur_map_fuzz);
  tcase_add_test (tc, test_kernel_set_fuzz);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, fuzz_suite);
}
