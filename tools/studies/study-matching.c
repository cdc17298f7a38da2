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

/* What the matching studies share: see the header. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study-matching.h"

gdouble
study_gaussian (GRand * rand)
{
  const gdouble u = g_rand_double_range (rand, 1e-12, 1.0);

  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * g_rand_double (rand));
}

int
study_compare_doubles (const void *a, const void *b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

gdouble
study_tile_deviation (const guint8 * frame, gint w, gint x, gint y)
{
  gdouble s = 0.0, s2 = 0.0;

  for (gint j = y - 8; j < y + 8; j++)
    for (gint i = x - 8; i < x + 8; i++) {
      s += frame[j * w + i];
      s2 += (gdouble) frame[j * w + i] * frame[j * w + i];
    }
  return sqrt (MAX (0.0, s2 / 256.0 - s * s / 65536.0));
}

gboolean
study_check_size_and_case (const gchar * tool, const gchar * size,
    gint min_side, gint only_case, gint cases, gint * w, gint * h)
{
  if (size) {
    gint used = 0;

    if (sscanf (size, "%dx%d%n", w, h, &used) != 2 || size[used]
        || *w < min_side || *h < min_side || *w > 8192 || *h > 8192) {
      fprintf (stderr, "%s: --size must be WxH, each %d to 8192 (got '%s')\n",
          tool, min_side, size);
      return FALSE;
    }
  }
  if (only_case != G_MININT && (only_case < 0 || only_case >= cases)) {
    fprintf (stderr, "%s: --case must be 0 to %d (got %d)\n", tool,
        cases - 1, only_case);
    return FALSE;
  }
  return TRUE;
}

const GOptionEntry *
study_correlation_options (cvcore_clt_corr_params * params)
{
  static GOptionEntry entries[6];
  const GOptionEntry filled[] = {
    {"refinements", 0, 0, G_OPTION_ARG_INT, &params->refinements,
        "Passes after the first at each level", "N"},
    {"converge", 0, 0, G_OPTION_ARG_DOUBLE, &params->converge,
          "A tile takes no more refinements once a pass moves it by less, "
          "pixels (a rig's along its longest baseline; 0: every refinement)",
        "P"},
    {"fat-zero", 0, 0, G_OPTION_ARG_DOUBLE, &params->fat_zero,
        "Added to the cross-power spectrum's magnitude before it is "
          "normalised, in units of full scale squared", "F"},
    {"lowpass", 0, 0, G_OPTION_ARG_DOUBLE, &params->lowpass,
        "Sigma of the correlation's low-pass weighting, pixels", "S"},
    {"fit-radius", 0, 0, G_OPTION_ARG_INT, &params->fit_radius,
        "Tiles around each tile whose matches are fitted (0: none)", "R"},
    {NULL}
  };

  G_STATIC_ASSERT (sizeof (filled) == sizeof (entries));
  cvcore_clt_corr_params_init (params);
  memcpy (entries, filled, sizeof (filled));
  return entries;
}

gboolean
study_check_correlation (const gchar * tool,
    const cvcore_clt_corr_params * params)
{
  if (params->refinements < 0
      || params->refinements > CVCORE_CLT_MAX_REFINEMENTS
      || params->fit_radius < 0
      || params->fit_radius > CVCORE_CLT_MAX_FIT_RADIUS
      || !(params->converge >= 0.0 && params->converge <= 1.0)
      || !(params->fat_zero >= 0.0 && params->fat_zero <= 1.0)
      || !(params->lowpass >= 0.0 && params->lowpass <= 16.0)) {
    fprintf (stderr, "%s: --refinements must be 0 to %d, --converge 0 to 1, "
        "--fit-radius 0 to %d, --fat-zero 0 to 1, --lowpass 0 to 16\n", tool,
        CVCORE_CLT_MAX_REFINEMENTS, CVCORE_CLT_MAX_FIT_RADIUS);
    return FALSE;
  }
  return TRUE;
}

void
study_check (cvcore_status status, const gchar * what)
{
  if (status != CVCORE_OK) {
    fprintf (stderr, "%s: %s: %s\n", g_get_prgname ()? g_get_prgname () :
        "study", what, cvcore_last_error ());
    exit (1);
  }
}
