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

/* When another plugin already owns the names cudaupload and cudadownload
 * (gst-plugins-bad's nvcodec does on hosts with an NVIDIA driver), ours
 * leaves them alone and stays reachable by its aliases. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cvtest.h"
#include "cvtest-linked.h"
#include "gstcudavisionplugin.h"

/* Stands for the other plugin's element. */
typedef GstElement OtherUpload;
typedef GstElementClass OtherUploadClass;
static GType other_upload_get_type (void);
G_DEFINE_TYPE (OtherUpload, other_upload, GST_TYPE_ELEMENT);

static void
other_upload_class_init (OtherUploadClass * klass)
{
  gst_element_class_set_static_metadata (klass, "Other upload", "Filter",
      "Another plugin's cudaupload", "tests");
}

static void
other_upload_init (OtherUpload * self)
{
}

static gboolean
other_plugin_init (GstPlugin * plugin)
{
  return gst_element_register (plugin, "cudaupload", GST_RANK_NONE,
      other_upload_get_type ());
}

static gchar *
owner_of (const gchar * name)
{
  GstPluginFeature *feature =
      gst_registry_lookup_feature (gst_registry_get (), name);
  gchar *owner;

  fail_unless (feature != NULL, "no feature %s", name);
  owner = g_strdup (gst_plugin_feature_get_plugin_name (feature));
  gst_object_unref (feature);
  return owner;
}

static void
assert_owner (const gchar * name, const gchar * expected)
{
  gchar *owner = owner_of (name);

  fail_unless_equals_string (owner, expected);
  g_free (owner);
}

GST_START_TEST (test_names_owned_elsewhere_are_kept)
{
  fail_unless (gst_plugin_register_static (GST_VERSION_MAJOR,
          GST_VERSION_MINOR, "othercuda", "claims cudaupload",
          other_plugin_init, "1.0", "LGPL", "other", "other", "none"));
  fail_unless (cvtest_register_linked_plugin ());

  assert_owner ("cudaupload", "othercuda");
  assert_owner ("cudavisionupload", "cudavision");
  assert_owner ("cudadownload", "cudavision");
  assert_owner ("cudavisiondownload", "cudavision");
  {
    gchar *owner = gst_cuda_vision_name_owner ("cudaupload");

    fail_unless_equals_string (owner, "othercuda");
    g_free (owner);
    fail_unless (gst_cuda_vision_name_owner ("cudadownload") == NULL);
    fail_unless (gst_cuda_vision_name_owner ("nosuchelement") == NULL);
  }
}

GST_END_TEST;

static Suite *
nameclash_suite (void)
{
  Suite *s = suite_create ("nameclash");
  TCase *tc = tcase_create ("general");

  tcase_add_test (tc, test_names_owned_elsewhere_are_kept);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, nameclash_suite);
}
