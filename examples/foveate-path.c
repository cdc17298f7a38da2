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

/* foveate-path: moves cudafoveate's fixation around a circle with a
 * GstController, as an eye-tracking application would move it from gaze
 * samples.
 *
 *   foveate-path [--frames N] [--output pattern-%03d.png]
 *
 * Without --output the frames go to a window (autovideosink); with it, to
 * PNG files. The fixation's keyframes lie on a circle around the centre,
 * one turn over the run; the controller interpolates between them for
 * every frame's timestamp.
 */
#include <math.h>

#include <gst/gst.h>
#include <gst/controller/controller.h>

static gint n_frames = 150;
static gchar *output = NULL;

/* Keyframes of a circle of radius 0.3 (in frame fractions) around the
 * centre, one turn over @duration. */
static void
bind_circle (GstElement * foveate, const gchar * property, gboolean sine,
    GstClockTime duration)
{
  GstControlSource *source = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *timed = GST_TIMED_VALUE_CONTROL_SOURCE (source);
  const gint keys = 16;

  g_object_set (source, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  for (gint k = 0; k <= keys; k++) {
    const gdouble angle = 2.0 * G_PI * k / keys;

    gst_timed_value_control_source_set (timed, duration * k / keys,
        0.5 + 0.3 * (sine ? sin (angle) : cos (angle)));
  }
  /* Direct binding: the value is the property's, not a fraction of its
   * range. */
  gst_object_add_control_binding (GST_OBJECT (foveate),
      gst_direct_control_binding_new_absolute (GST_OBJECT (foveate), property,
          source));
  gst_object_unref (source);
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &n_frames, "Frames to render", "N"},
    {"output", 'o', 0, G_OPTION_ARG_STRING, &output,
          "Write PNG files (a multifilesink location) instead of a window",
        "PATTERN"},
    {NULL}
  };
  GOptionContext *options = g_option_context_new (NULL);
  GError *error = NULL;
  GstElement *pipeline, *foveate;
  GstMessage *message;
  gchar *description;
  gint status = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &error)) {
    g_printerr ("foveate-path: %s\n", error->message);
    return 2;
  }
  g_option_context_free (options);

  description = g_strdup_printf ("videotestsrc num-buffers=%d pattern=smpte "
      "! video/x-raw,format=RGBA,width=640,height=360,framerate=30/1 "
      "! cudaupload ! cudafoveate name=foveate strength=1.5 fragment-size=16 "
      "! cudadownload ! videoconvert ! %s", n_frames, output ?
      "pngenc ! multifilesink location=" : "autovideosink");
  if (output) {
    gchar *with_location = g_strconcat (description, output, NULL);

    g_free (description);
    description = with_location;
  }
  pipeline = gst_parse_launch (description, &error);
  g_free (description);
  if (!pipeline) {
    g_printerr ("foveate-path: %s\n", error->message);
    return 1;
  }
  foveate = gst_bin_get_by_name (GST_BIN (pipeline), "foveate");
  bind_circle (foveate, "fixation-x", FALSE, n_frames * GST_SECOND / 30);
  bind_circle (foveate, "fixation-y", TRUE, n_frames * GST_SECOND / 30);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  message = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    gst_message_parse_error (message, &error, &debug);
    g_printerr ("foveate-path: %s (%s)\n", error->message, debug);
    g_free (debug);
    g_clear_error (&error);
    status = 1;
  }
  gst_message_unref (message);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (foveate);
  gst_object_unref (pipeline);
  g_free (output);
  return status;
}
