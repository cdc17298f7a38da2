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

/* Shared helpers of the cudavision tests. */
#ifndef CVTEST_H
#define CVTEST_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cvcore.h"

G_BEGIN_DECLS

/* libcheck records the place of every check that passes (a message to
 * the runner), so that a crash can be reported near where it happened.
 * The tests check every pixel of many frames, and those records were
 * most of a suite's time, under valgrind most of all. Here a passing
 * check costs nothing and a failing one reports as before; a crash is
 * reported at its test, and valgrind or a debugger gives the place. */
#undef ck_assert_msg
#define ck_assert_msg(expr, ...) \
  (G_LIKELY (expr) ? (void) 0 : \
      _ck_assert_failed (__FILE__, __LINE__, "Assertion '"#expr"' failed", \
          ## __VA_ARGS__, NULL))
/* Built against GStreamer 1.18: 1.20's name of the request-pad call, and
 * no RGBA64_LE, which the elements then leave out of their caps. */
#if !GST_CHECK_VERSION (1, 20, 0)
#define gst_element_request_pad_simple gst_element_get_request_pad
#define CVTEST_RGBA64_ITEM
#else
#define CVTEST_HAVE_RGBA64 1
#define CVTEST_RGBA64_ITEM GST_VIDEO_FORMAT_RGBA64_LE,
#endif
/* A navigation event of the pointer moved to (@x, @y). */
GstEvent * cvtest_mouse_move_event (gdouble x, gdouble y);

/* Says on stderr that @test is left out of this build, and @why: for a
 * test that needs a newer GStreamer than the one built against. */
void cvtest_left_out (const gchar * test, const gchar * why);

/* Exit status meson reads as "skipped". */
#define CVTEST_SKIP 77
/* Runs @suite with the backend that GST_CUDAVISION_BACKEND names; exits
 * with CVTEST_SKIP when that is CUDA and no CUDA device can be opened. */
int cvtest_main (int argc, char **argv, Suite * (*suite) (void));

cvcore_backend cvtest_backend (void);
/* TRUE when a CUDA device can be opened on this machine. */
gboolean cvtest_cuda_available (void);

/* Independent references that cost much per pixel are compared on every
 * pixel in the plain run, and on every this-many-th pixel (offset row by
 * row) under valgrind (CVTEST_QUICK), whose memory checks need the calls
 * made, not every answer compared again. */
gint cvtest_reference_step (void);

/* Deterministic pseudo-random bytes (xorshift), seeded per call site. */
void cvtest_fill_random (guint8 * data, gsize size, guint32 seed);

/* A video info of @format/@width/@height whose planes have @pad extra bytes
 * per row and @gap bytes between planes, as upstream elements may send. */
void cvtest_padded_info (GstVideoInfo * info, GstVideoFormat format,
    gint width, gint height, guint pad, guint gap);

/* A system-memory buffer laid out as @info, filled with random bytes and
 * carrying a GstVideoMeta. */
GstBuffer *cvtest_random_frame (const GstVideoInfo * info, guint32 seed);

/* Fills a writable mapped buffer with random bytes and adds a video meta. */
void cvtest_fill_frame_buffer (GstBuffer * buffer, const GstVideoInfo * info,
    guint32 seed);

/* Compares the pixel rows of two buffers of the same format and size,
 * each interpreted through its own GstVideoMeta (or @info's default
 * layout). Fails the test at the first differing byte. */
void cvtest_assert_frames_equal (GstBuffer * a, GstBuffer * b,
    const GstVideoInfo * info);

/* Sets @name back to @saved (unset when NULL) and frees @saved. */
void cvtest_restore_env (const gchar * name, gchar * saved);

/* The next buffer from appsink @sink, waiting up to 10 s (fails the test
 * when none comes). */
GstBuffer *cvtest_pull_buffer (GstElement * sink);

/* Plays @pipeline, takes its first frame and more from appsink @sink, seeks
 * back to the start with a flush, and checks that the first frame (of
 * @info) comes again, intact, and frames after it. */
void cvtest_assert_seek_restarts (GstElement * pipeline, GstElement * sink,
    const GstVideoInfo * info);

/* Runs @pipeline until EOS or error; returns the error message or NULL. */
GstMessage *cvtest_run_to_end (GstElement * pipeline, GstClockTime timeout);

/* A harness around `cudaupload ! ELEMENT name=e PROPERTIES ! cudadownload`
 * with system-memory caps out; @element (optional) receives a reference to
 * the element. */
GstHarness *cvtest_filter_harness (const gchar * element,
    const gchar * properties, GstElement ** filter);

/* Sets @info to @format/@width/@height at 30 fps and the harness's input
 * caps to it. */
void cvtest_set_caps (GstHarness * h, GstVideoInfo * info,
    GstVideoFormat format, gint width, gint height);

/* Pushes @in (not taken) and returns the output (fails when none). */
GstBuffer *cvtest_push_frame (GstHarness * h, GstBuffer * in);

/* Pushes a frame of @info whose every byte is @value and checks that it
 * comes out unchanged. */
void cvtest_assert_constant_unchanged (GstHarness * h,
    const GstVideoInfo * info, guint8 value);

/* Byte @x (byte column) of row @y of @plane of @buffer laid out as @info. */
guint8 cvtest_byte_at (GstBuffer * buffer, const GstVideoInfo * info,
    guint plane, gint x, gint y);

G_END_DECLS

#endif /* CVTEST_H */
