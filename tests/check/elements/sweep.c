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

/* Every property of every processing element, at its minimum, its maximum
 * and values between, set before the first frame and again while frames
 * flow: the stream keeps flowing (a value the element cannot use is refused
 * when set, keeping the previous one, or degrades as documented). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cvclt.h"
#include "cvtest.h"

#define WIDTH 48
#define HEIGHT 32

typedef struct
{
  const gchar *element;
  GstVideoFormat format;
  /* with a kernel set of the frame's size, for deconvolution */
  gboolean kernels;
  /* properties left out, and why */
  const gchar *skip[4];
} Subject;

/* cudatonemap's input: RGBA64_LE where GStreamer has it (1.20) */
#ifdef CVTEST_HAVE_RGBA64
#define HDR_FORMAT GST_VIDEO_FORMAT_RGBA64_LE
#else
#define HDR_FORMAT GST_VIDEO_FORMAT_GRAY16_LE
#endif

static const Subject subjects[] = {
  {"cudaconvolve", GST_VIDEO_FORMAT_RGBA, FALSE, {NULL}},
  /* blur-map: files, checked by the blur-map tests */
  {"cudafoveate", GST_VIDEO_FORMAT_RGBA, FALSE, {"blur-map", NULL}},
  {"cudatonemap", HDR_FORMAT, FALSE, {NULL}},
  {"cudagabor", GST_VIDEO_FORMAT_GRAY8, FALSE, {NULL}},
  /* kernels-location: files, checked by the kernel-set tests */
  {"cudaclt", GST_VIDEO_FORMAT_GRAY8, TRUE, {"kernels-location", NULL}},
  /* mode: stereo needs a second input, checked by the stereo tests */
  {"cudaphasecorr", GST_VIDEO_FORMAT_GRAY8, FALSE, {"mode", NULL}},
};

/* A kernel set for WIDTH x HEIGHT frames, written to a new file. */
static gchar *
kernel_set_file (void)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "sweep-XXXXXX.kernels",
      NULL);
  cvcore_clt_kernel_set *set;
  gint fd = g_mkstemp (path);

  fail_unless (fd >= 0);
  close (fd);
  fail_unless_equals_int (cvcore_clt_kernel_set_new (WIDTH, HEIGHT, 8, 1,
          &set), CVCORE_OK);
  fail_unless_equals_int (cvcore_clt_kernel_set_save (set, path), CVCORE_OK);
  cvcore_clt_kernel_set_free (set);
  return path;
}

static gboolean
skipped (const Subject * subject, GParamSpec * pspec)
{
  /* the elements' own: not GStreamer's base classes' (qos, latency, ...) */
  if (!(pspec->flags & G_PARAM_WRITABLE)
      || (pspec->flags & G_PARAM_CONSTRUCT_ONLY)
      || !g_str_has_prefix (g_type_name (pspec->owner_type), "GstCuda")
      || G_IS_PARAM_SPEC_STRING (pspec)
      || strcmp (pspec->name, "device-id") == 0)
    return TRUE;
  for (guint i = 0; subject->skip[i]; i++)
    if (strcmp (subject->skip[i], pspec->name) == 0)
      return TRUE;
  return FALSE;
}

/* The values to try: min, max and between for numbers, both booleans,
 * every enum value. */
static GArray *
values_of (GParamSpec * pspec)
{
  GArray *values = g_array_new (FALSE, TRUE, sizeof (GValue));
  gdouble lo = 0, hi = 0;
  gboolean numeric = TRUE;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  if (G_IS_PARAM_SPEC_INT (pspec)) {
    lo = G_PARAM_SPEC_INT (pspec)->minimum;
    hi = G_PARAM_SPEC_INT (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_UINT (pspec)) {
    lo = G_PARAM_SPEC_UINT (pspec)->minimum;
    hi = G_PARAM_SPEC_UINT (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_DOUBLE (pspec)) {
    lo = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
    hi = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_FLOAT (pspec)) {
    lo = G_PARAM_SPEC_FLOAT (pspec)->minimum;
    hi = G_PARAM_SPEC_FLOAT (pspec)->maximum;
  } else {
    numeric = FALSE;
  }
  if (numeric) {
    /* the ends alone where time is short (under valgrind) */
    const gdouble all[] = { 0.0, 0.001, 0.1, 0.5, 1.0 }, ends[] = { 0.0, 1.0 };
    const gboolean quick = g_getenv ("CVTEST_QUICK") != NULL;
    const gdouble *fractions = quick ? ends : all;
    const guint n_fractions = quick ? G_N_ELEMENTS (ends) : G_N_ELEMENTS (all);
    /* an unbounded range (INFINITY stands for "none"): the end itself, and
     * finite values on the way */
    const gdouble span = isfinite (hi - lo) ? hi - lo : 1e6;

    for (guint i = 0; i < n_fractions; i++) {
      GValue d = G_VALUE_INIT, v = G_VALUE_INIT;

      g_value_init (&d, G_TYPE_DOUBLE);
      g_value_set_double (&d, fractions[i] == 1.0 ? hi :
          lo + fractions[i] * span);
      g_value_init (&v, pspec->value_type);
      fail_unless (g_value_transform (&d, &v));
      g_array_append_val (values, v);
      g_value_unset (&d);
    }
  } else if (G_IS_PARAM_SPEC_BOOLEAN (pspec)) {
    for (gint b = 0; b < 2; b++) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_BOOLEAN);
      g_value_set_boolean (&v, b);
      g_array_append_val (values, v);
    }
  } else if (G_IS_PARAM_SPEC_ENUM (pspec)) {
    GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;

    for (guint i = 0; i < klass->n_values; i++) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, pspec->value_type);
      g_value_set_enum (&v, klass->values[i].value);
      g_array_append_val (values, v);
    }
  }
  return values;
}

static void
push_frames (GstHarness * h, const GstVideoInfo * info, guint n,
    const gchar * what)
{
  for (guint i = 0; i < n; i++) {
    GstBuffer *in = cvtest_random_frame (info, i + 1);
    GstBuffer *out;

    GstFlowReturn ret = gst_harness_push (h, gst_buffer_ref (in));

    fail_unless (ret == GST_FLOW_OK, "%s: the stream stopped (%s)", what,
        gst_flow_get_name (ret));
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "%s: no output", what);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
}

static void
sweep (const Subject * subject)
{
  GstElement *element = gst_element_factory_make (subject->element, NULL);
  gchar *kernels = subject->kernels ? kernel_set_file () : NULL;
  gchar *properties = kernels ? g_strdup_printf ("kernels-location=%s",
      kernels) : g_strdup ("");
  GParamSpec **pspecs;
  guint n_pspecs;

  fail_unless (element != NULL);
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (element),
      &n_pspecs);
  for (guint p = 0; p < n_pspecs; p++) {
    GArray *values;

    if (skipped (subject, pspecs[p]))
      continue;
    values = values_of (pspecs[p]);
    for (guint i = 0; i < values->len; i++) {
      const GValue *value = &g_array_index (values, GValue, i);
      gchar *text = g_strdup_value_contents (value);
      gchar *what = g_strdup_printf ("%s %s=%s", subject->element,
          pspecs[p]->name, text);
      GstElement *e;
      GstHarness *h = cvtest_filter_harness (subject->element, properties,
          &e);
      GstVideoInfo info;

      GST_INFO ("%s", what);
      cvtest_set_caps (h, &info, subject->format, WIDTH, HEIGHT);
      /* before the first frame */
      g_object_set_property (G_OBJECT (e), pspecs[p]->name, value);
      push_frames (h, &info, 2, what);
      /* while frames flow, from the default back to the value */
      if (pspecs[p]->flags & GST_PARAM_MUTABLE_PLAYING
          || !(pspecs[p]->flags & GST_PARAM_MUTABLE_READY)) {
        g_object_set_property (G_OBJECT (e), pspecs[p]->name,
            g_param_spec_get_default_value (pspecs[p]));
        push_frames (h, &info, 1, what);
        g_object_set_property (G_OBJECT (e), pspecs[p]->name, value);
        push_frames (h, &info, 2, what);
      }
      gst_object_unref (e);
      gst_harness_teardown (h);
      g_free (what);
      g_free (text);
    }
    g_array_unref (values);
  }
  g_free (pspecs);
  gst_object_unref (element);
  if (kernels)
    g_unlink (kernels);
  g_free (kernels);
  g_free (properties);
}

GST_START_TEST (test_property_sweep)
{
  sweep (&subjects[__i__]);
}

GST_END_TEST;

static Suite *
sweep_suite (void)
{
  Suite *s = suite_create ("sweep");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_property_sweep, 0, G_N_ELEMENTS (subjects));
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, sweep_suite);
}
