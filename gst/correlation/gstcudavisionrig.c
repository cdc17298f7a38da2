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

/* A camera rig's geometry as text: see the header. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavisionrig.h"

#include <math.h>
#include <string.h>

#define MAX_OFFSET 1000.0
#define MIN_APART 1e-3

/* One camera "x,y" or "x y" from @entry (comment-free, trimmed). */
static gboolean
parse_camera (const gchar * entry, gdouble * x, gdouble * y)
{
  gchar *end;

  *x = g_ascii_strtod (entry, &end);
  if (end == entry)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end == ',')
    end++;
  entry = end;
  *y = g_ascii_strtod (entry, &end);
  if (end == entry)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  return *end == '\0' && fabs (*x) <= MAX_OFFSET && fabs (*y) <= MAX_OFFSET;
}

static gboolean
cameras_apart (const cvcore_clt_rig * rig, gchar ** error)
{
  for (gint v = 0; v < rig->views; v++)
    for (gint w = 0; w < v; w++)
      if (hypot (rig->x[v] - rig->x[w], rig->y[v] - rig->y[w]) < MIN_APART) {
        *error = g_strdup_printf ("cameras %d and %d are in one place", w, v);
        return FALSE;
      }
  return TRUE;
}

gboolean
gst_cuda_vision_rig_parse (const gchar * text, cvcore_clt_rig * rig,
    gchar ** error)
{
  gchar **lines = g_strsplit_set (text ? text : "", "\n;", -1);
  cvcore_clt_rig parsed = { 0 };
  gboolean ok = TRUE;

  *error = NULL;
  for (gint i = 0; ok && lines[i]; i++) {
    gchar *comment = strchr (lines[i], '#');
    gchar *entry;

    if (comment)
      *comment = '\0';
    entry = g_strstrip (lines[i]);
    if (*entry == '\0')
      continue;
    if (parsed.views == CVCORE_CLT_MAX_VIEWS) {
      *error = g_strdup_printf ("more than %d cameras", CVCORE_CLT_MAX_VIEWS);
      ok = FALSE;
    } else if (!parse_camera (entry, &parsed.x[parsed.views],
            &parsed.y[parsed.views])) {
      *error = g_strdup_printf ("camera %d, \"%s\", is not \"x,y\" with "
          "both within %g baselines", parsed.views, entry, MAX_OFFSET);
      ok = FALSE;
    } else {
      parsed.views++;
    }
  }
  g_strfreev (lines);
  if (ok && parsed.views < 2) {
    *error = g_strdup_printf ("%d cameras: a rig has 2 or more", parsed.views);
    ok = FALSE;
  }
  ok = ok && cameras_apart (&parsed, error);
  if (ok) {
    /* the chosen pairs stay */
    rig->views = parsed.views;
    memcpy (rig->x, parsed.x, sizeof (parsed.x));
    memcpy (rig->y, parsed.y, sizeof (parsed.y));
  }
  return ok;
}

gboolean
gst_cuda_vision_rig_load (const gchar * location, cvcore_clt_rig * rig,
    gchar ** error)
{
  GError *err = NULL;
  gchar *text = NULL, *parse_error = NULL;
  gboolean ok;

  *error = NULL;
  if (!g_file_get_contents (location, &text, NULL, &err)) {
    *error = g_strdup (err->message);
    g_error_free (err);
    return FALSE;
  }
  ok = gst_cuda_vision_rig_parse (text, rig, &parse_error);
  if (!ok)
    *error = g_strdup_printf ("%s: %s", location, parse_error);
  g_free (parse_error);
  g_free (text);
  return ok;
}

gchar *
gst_cuda_vision_rig_to_string (const cvcore_clt_rig * rig)
{
  GString *s = g_string_new (NULL);

  for (gint v = 0; v < rig->views; v++) {
    gchar x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE];

    g_string_append_printf (s, "%s%s,%s", v ? "; " : "",
        g_ascii_dtostr (x, sizeof (x), rig->x[v]),
        g_ascii_dtostr (y, sizeof (y), rig->y[v]));
  }
  return g_string_free (s, FALSE);
}

gboolean
gst_cuda_vision_rig_parse_pairs (const gchar * text, cvcore_clt_rig * rig,
    gchar ** error)
{
  gchar **entries = g_strsplit_set (text ? text : "", ";,", -1);
  cvcore_clt_rig parsed = { 0 };
  gboolean ok = TRUE;

  *error = NULL;
  for (gint e = 0; ok && entries[e]; e++) {
    gchar *entry = g_strstrip (entries[e]);
    guint i, j;
    gint used = 0;

    if (*entry == '\0')
      continue;
    if (sscanf (entry, "%u - %u%n", &i, &j, &used) != 2 || entry[used]
        || i == j || i >= CVCORE_CLT_MAX_VIEWS || j >= CVCORE_CLT_MAX_VIEWS) {
      *error = g_strdup_printf ("pair \"%s\" is not \"i-j\" of two views "
          "0 to %d", entry, CVCORE_CLT_MAX_VIEWS - 1);
      ok = FALSE;
      break;
    }
    for (gint p = 0; ok && p < parsed.pairs; p++)
      if (parsed.pair[p][0] == MIN (i, j) && parsed.pair[p][1] == MAX (i, j)) {
        *error = g_strdup_printf ("pair %u-%u comes twice", i, j);
        ok = FALSE;
      }
    if (!ok)
      break;
    parsed.pair[parsed.pairs][0] = (guint8) MIN (i, j);
    parsed.pair[parsed.pairs][1] = (guint8) MAX (i, j);
    parsed.pairs++;
  }
  g_strfreev (entries);
  if (ok) {
    rig->pairs = parsed.pairs;
    memcpy (rig->pair, parsed.pair, sizeof (parsed.pair));
  }
  return ok;
}

gchar *
gst_cuda_vision_rig_pairs_to_string (const cvcore_clt_rig * rig)
{
  GString *s = g_string_new (NULL);

  for (gint p = 0; p < rig->pairs; p++)
    g_string_append_printf (s, "%s%u-%u", p ? "; " : "", rig->pair[p][0],
        rig->pair[p][1]);
  return g_string_free (s, FALSE);
}

gboolean
gst_cuda_vision_rig_select (const cvcore_clt_rig * rig,
    const gboolean * present, cvcore_clt_rig * out)
{
  gint index[CVCORE_CLT_MAX_VIEWS];

  out->views = 0;
  for (gint v = 0; v < rig->views; v++) {
    index[v] = present[v] ? out->views : -1;
    if (present[v]) {
      out->x[out->views] = rig->x[v];
      out->y[out->views] = rig->y[v];
      out->views++;
    }
  }
  out->pairs = 0;
  for (gint p = 0; p < rig->pairs; p++) {
    const gint i = rig->pair[p][0], j = rig->pair[p][1];

    if (i < rig->views && j < rig->views && index[i] >= 0 && index[j] >= 0) {
      out->pair[out->pairs][0] = (guint8) index[i];
      out->pair[out->pairs][1] = (guint8) index[j];
      out->pairs++;
    }
  }
  return rig->pairs == 0 || out->pairs > 0;
}
