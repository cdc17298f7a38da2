/* Shared helpers of the cudavision tests. */
#ifndef CVTEST_H
#define CVTEST_H

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "cvcore.h"

G_BEGIN_DECLS

/* Exit status meson reads as "skipped". */
#define CVTEST_SKIP 77

/* Runs @suite with the backend that GST_CUDAVISION_BACKEND names; exits
 * with CVTEST_SKIP when that is CUDA and no CUDA device can be opened. */
int cvtest_main (int argc, char **argv, Suite * (*suite) (void));

cvcore_backend cvtest_backend (void);
/* TRUE when a CUDA device can be opened on this machine. */
gboolean cvtest_cuda_available (void);

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

/* Runs @pipeline until EOS or error; returns the error message or NULL. */
GstMessage *cvtest_run_to_end (GstElement * pipeline, GstClockTime timeout);

G_END_DECLS

#endif /* CVTEST_H */
