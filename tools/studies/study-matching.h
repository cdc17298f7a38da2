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

/* What the matching studies share: noise, sorting, a tile's texture. */
#ifndef STUDY_MATCHING_H
#define STUDY_MATCHING_H

#include <glib.h>

#include "cvclt.h"
#include "cvcore.h"

/* A normal deviate (Box-Muller) from @rand. */
gdouble study_gaussian (GRand * rand);

/* qsort's order of two gdoubles. */
int study_compare_doubles (const void *a, const void *b);

/* Standard deviation of the 16 x 16 pixels around (@x, @y) of @frame
 * (8-bit, @w wide): a tile's texture. */
gdouble study_tile_deviation (const guint8 * frame, gint w, gint x, gint y);

/* Checks the studies' common arguments: --size (@size, "WxH", each
 * @min_side to 8192, into *@w and *@h; NULL leaves them) and --case
 * (@only_case, G_MININT for all, else 0 to @cases - 1). FALSE after
 * saying on stderr, as @tool, what is wrong. */
gboolean study_check_size_and_case (const gchar * tool, const gchar * size,
    gint min_side, gint only_case, gint cases, gint * w, gint * h);

/* Fills @params with the core's defaults and returns the options that
 * change what the studies vary (--refinements, --fat-zero, --lowpass,
 * --fit-radius), for g_option_context_add_main_entries(): they write into
 * @params, which must outlive the parsing. Once per program. */
const GOptionEntry *study_correlation_options (cvcore_clt_corr_params * params);

/* Whether those options lie in the core's ranges (the fat zero 0 to 1);
 * FALSE after saying on stderr, as @tool, what is wrong. */
gboolean study_check_correlation (const gchar * tool,
    const cvcore_clt_corr_params * params);

/* Exits with 1 after saying, as the program, what failed and why, unless
 * @status is CVCORE_OK. */
void study_check (cvcore_status status, const gchar * what);

#endif /* STUDY_MATCHING_H */
