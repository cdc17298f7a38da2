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

/* Tests of the plugin's internals: device memory, pools and the filter base
 * class, through a small filter defined here. The plugin is registered
 * statically so that its types are the ones this program links. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstharness.h>

#include "cvtest.h"
#include "cvtest-linked.h"
#include "gstcudavisionbufferpool.h"
#include "gstcudavisioncorrelator.h"
#include "gstcudavisionfilter.h"
#include "gstcudavisionmemory.h"
#include "gstcudavisionutils.h"
#include "gstcudavisionworktimer.h"

/* --- a test filter: copies frames, or fills plane 0 in place ---------- */

#define FILL_BYTE 0x42

typedef struct
{
  GstCudaVisionFilter parent;
} CvTestCopy;

typedef struct
{
  GstCudaVisionFilterClass parent_class;
} CvTestCopyClass;

enum
{
  PROP_0,
  PROP_IN_PLACE,
};

static GType cv_test_copy_get_type (void);
G_DEFINE_TYPE (CvTestCopy, cv_test_copy, GST_TYPE_CUDA_VISION_FILTER);

static GstFlowReturn
cv_test_copy_process (GstCudaVisionFilter * filter, cvcore_stream * stream,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  if (gst_cuda_vision_copy_frame_async (stream, out_frame, in_frame,
          CVCORE_COPY_DEVICE_TO_DEVICE) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error
        (GST_CUDA_VISION_BASE_TRANSFORM (filter), "copy failed");
  return GST_FLOW_OK;
}

static GstFlowReturn
cv_test_copy_process_ip (GstCudaVisionFilter * filter, cvcore_stream * stream,
    GstVideoFrame * frame)
{
  if (cvcore_memset_2d_async (stream, GST_VIDEO_FRAME_PLANE_DATA (frame, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0), FILL_BYTE,
          gst_cuda_vision_plane_row_bytes (&frame->info, 0),
          gst_cuda_vision_plane_rows (&frame->info, 0)) != CVCORE_OK)
    return gst_cuda_vision_base_transform_core_error
        (GST_CUDA_VISION_BASE_TRANSFORM (filter), "fill failed");
  return GST_FLOW_OK;
}

static void
cv_test_copy_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (prop_id == PROP_IN_PLACE)
    gst_base_transform_set_in_place (GST_BASE_TRANSFORM (object),
        g_value_get_boolean (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
cv_test_copy_class_init (CvTestCopyClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstCudaVisionFilterClass *filter_class = GST_CUDA_VISION_FILTER_CLASS (klass);

  gobject_class->set_property = cv_test_copy_set_property;
  g_object_class_install_property (gobject_class, PROP_IN_PLACE,
      g_param_spec_boolean ("in-place", "In place", "Fill plane 0 in place",
          FALSE, G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));
  gst_cuda_vision_filter_class_add_pad_templates (filter_class,
      "{ RGBA, NV12, I420_10LE }");
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "Test copy", "Filter/Video", "Copies frames on the device", "tests");
  filter_class->process = cv_test_copy_process;
  filter_class->process_ip = cv_test_copy_process_ip;
}

static void
cv_test_copy_init (CvTestCopy * self)
{
}

/* --- helpers ------------------------------------------------------------ */

static GstCudaVisionDevice *
open_device (void)
{
  GError *error = NULL;
  GstCudaVisionDevice *device = gst_cuda_vision_device_new (0, &error);

  fail_unless (device != NULL, "%s", error ? error->message : "?");
  return device;
}

/* Runs @n frames of @caps_str through "upload ! @middle ! download" and
 * through nothing, and hands both outputs to @check. */
static void
compare_with_source (const gchar * caps_str, const gchar * middle,
    void (*check) (GstBuffer * reference, GstBuffer * out,
        const GstVideoInfo * info))
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 pattern=ball ! "
      "%s ! tee name=t ! queue ! appsink name=ref sync=false "
      "t. ! queue ! cudavisionupload ! %s ! cudavisiondownload ! appsink name=out "
      "sync=false", caps_str, middle);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *ref = gst_bin_get_by_name (GST_BIN (pipeline), "ref");
  GstElement *out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (guint i = 0; i < 3; i++) {
    GstBuffer *a = cvtest_pull_buffer (ref), *b = cvtest_pull_buffer (out);

    check (a, b, &info);
    gst_buffer_unref (a);
    gst_buffer_unref (b);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_caps_unref (caps);
  gst_object_unref (ref);
  gst_object_unref (out);
  gst_object_unref (pipeline);
  g_free (desc);
}

static void
check_equal (GstBuffer * reference, GstBuffer * out, const GstVideoInfo * info)
{
  cvtest_assert_frames_equal (reference, out, info);
}

static void
check_plane0_filled (GstBuffer * reference, GstBuffer * out,
    const GstVideoInfo * info)
{
  GstVideoFrame a, b;

  fail_unless (gst_video_frame_map (&a, (GstVideoInfo *) info, reference,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, (GstVideoInfo *) info, out,
          GST_MAP_READ));
  for (guint y = 0; y < gst_cuda_vision_plane_rows (info, 0); y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, 0);

    for (gsize x = 0; x < gst_cuda_vision_plane_row_bytes (info, 0); x++)
      fail_unless_equals_int (row[x], FILL_BYTE);
  }
  /* The other planes are untouched. */
  for (guint p = 1; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    for (guint y = 0; y < gst_cuda_vision_plane_rows (info, p); y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, p) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&a, p),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, p) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, p),
              gst_cuda_vision_plane_row_bytes (info, p)) == 0);
  gst_video_frame_unmap (&b);
  gst_video_frame_unmap (&a);
}

/* --- the filter base class ---------------------------------------------- */

GST_START_TEST (test_filter_copies)
{
  compare_with_source ("video/x-raw,format=RGBA,width=123,height=45",
      "cvtestcopy", check_equal);
  compare_with_source ("video/x-raw,format=NV12,width=7,height=5",
      "cvtestcopy ! cvtestcopy", check_equal);
  compare_with_source ("video/x-raw,format=I420_10LE,width=64,height=2",
      "cvtestcopy", check_equal);
}

GST_END_TEST;

GST_START_TEST (test_filter_in_place)
{
  compare_with_source ("video/x-raw,format=NV12,width=33,height=17",
      "cvtestcopy in-place=true", check_plane0_filled);
  compare_with_source ("video/x-raw,format=RGBA,width=16,height=16",
      "cvtestcopy ! cvtestcopy in-place=true", check_plane0_filled);
}

GST_END_TEST;

/* A filter only takes our memory: system memory does not negotiate. */
GST_START_TEST (test_filter_refuses_system_memory)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA ! cvtestcopy ! fakesink", NULL);
  GstMessage *msg;

  /* parse-launch links lazily; the failure shows when data flows */
  fail_unless (pipeline != NULL);
  msg = cvtest_run_to_end (pipeline, 10 * GST_SECOND);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A filter on another device than its input: with one device it fails
 * cleanly at start (device-id out of range); with more, the frame is
 * copied to it. */
GST_START_TEST (test_filter_device_id_mismatch)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA ! cudavisionupload ! cvtestcopy device-id=1 ! "
      "cudavisiondownload ! fakesink", NULL);
  GstMessage *msg = cvtest_run_to_end (pipeline, 10 * GST_SECOND);
  int devices = 0;

  fail_unless (cvcore_device_count (cvtest_backend (), &devices) == CVCORE_OK);
  if (devices < 2) {
    fail_unless (msg != NULL);
    gst_message_unref (msg);
  } else {
    fail_unless (msg == NULL);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* --- device memory and pools -------------------------------------------- */

GST_START_TEST (test_memory_layout_and_host_maps)
{
  GstCudaVisionDevice *device = open_device ();
  GstVideoInfo info;
  const GstVideoInfo *layout;
  GstMemory *mem, *copy;
  GstMapInfo map;
  guint8 *pattern;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 99, 31);
  mem = gst_cuda_vision_memory_alloc (device, &info);
  fail_unless (mem != NULL);
  fail_unless (gst_is_cuda_vision_memory (mem));
  fail_unless (gst_cuda_vision_memory_get_device (mem) == device);
  layout = gst_cuda_vision_memory_get_info (mem);
  for (guint p = 0; p < 3; p++) {
    fail_unless (layout->stride[p] % 256 == 0);
    fail_unless (layout->offset[p] % 256 == 0);
    fail_unless ((gsize) layout->stride[p] >=
        gst_cuda_vision_plane_row_bytes (&info, p));
  }
  fail_unless_equals_uint64 (mem->size, layout->size);

  /* Host write, then host read through a copy made on the device. */
  pattern = g_malloc (mem->size);
  cvtest_fill_random (pattern, mem->size, 5);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  memcpy (map.data, pattern, mem->size);
  gst_memory_unmap (mem, &map);
  copy = gst_memory_copy (mem, 0, -1);
  fail_unless (copy != NULL);
  fail_unless (gst_is_cuda_vision_memory (copy));
  fail_unless (gst_memory_map (copy, &map, GST_MAP_READ));
  fail_unless (memcmp (map.data, pattern, mem->size) == 0);
  gst_memory_unmap (copy, &map);

  /* Partial copies and shares of pitched device frames are refused. */
  fail_unless (gst_memory_copy (mem, 1, 10) == NULL);
  fail_unless (GST_MEMORY_FLAG_IS_SET (mem, GST_MEMORY_FLAG_NO_SHARE));

  gst_memory_unref (copy);
  gst_memory_unref (mem);
  g_free (pattern);
  gst_object_unref (device);
}

GST_END_TEST;

/* Device frames are read as their video meta lays them out, not as the
 * caps would. */
GST_START_TEST (test_device_frames_follow_their_meta)
{
  cvtest_assert_meta_layout_followed (GST_CAPS_FEATURE_MEMORY_CUDA_VISION);
}

GST_END_TEST;

GST_START_TEST (test_device_pool)
{
  GstCudaVisionDevice *device = open_device ();
  GstCaps *caps =
      gst_caps_from_string ("video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_VISION
      "),format=P010_10LE,width=1921,height=1081");
  GstBufferPool *pool =
      gst_cuda_vision_buffer_pool_new_configured (device, caps, 2, 3);
  GstBuffer *buffers[3], *extra = NULL;
  GstBufferPoolAcquireParams params = {.flags =
        GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT
  };

  fail_unless (pool != NULL);
  fail_unless (gst_cuda_vision_buffer_pool_get_device (pool) == device);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  for (guint i = 0; i < 3; i++) {
    GstVideoMeta *meta;

    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffers[i],
            NULL), GST_FLOW_OK);
    fail_unless (gst_is_cuda_vision_memory (gst_buffer_peek_memory (buffers
                [i], 0)));
    meta = gst_buffer_get_video_meta (buffers[i]);
    fail_unless (meta != NULL);
    fail_unless_equals_int (meta->n_planes, 2);
    fail_unless (meta->stride[0] % 256 == 0 && meta->stride[0] >= 1921 * 2);
  }
  /* max-buffers holds. */
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &extra,
          &params), GST_FLOW_EOS);
  for (guint i = 0; i < 3; i++)
    gst_buffer_unref (buffers[i]);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_caps_unref (caps);
  gst_object_unref (device);
}

GST_END_TEST;

/* A frame's device work may still be queued when its buffer goes back to
 * the pool: a pool decided for device memory keeps at least four buffers
 * and hands a returned one out again only after the others, so the next
 * writer does not wait on the device for the frame just queued. */
GST_START_TEST (test_device_pool_rotation)
{
  GstCudaVisionDevice *device = open_device ();
  GstCaps *caps =
      gst_caps_from_string ("video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_VISION
      "),format=RGBA,width=64,height=48");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer *buffer;
  GstMemory *first;
  guint min = 0, max = 0;

  fail_unless (gst_cuda_vision_decide_device_pool (device, NULL, query));
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, &min, &max);
  fail_unless (pool != NULL);
  fail_unless (min >= 4, "min-buffers %u", min);
  fail_unless (max == 0 || max >= min);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  first = gst_buffer_peek_memory (buffer, 0);
  gst_buffer_unref (buffer);
  for (guint i = 1; i < min; i++) {
    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
            NULL), GST_FLOW_OK);
    fail_if (gst_buffer_peek_memory (buffer, 0) == first,
        "a returned buffer came back after %u others", i - 1);
    gst_buffer_unref (buffer);
  }
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_object_unref (device);
}

GST_END_TEST;

static gint
compare_weighted (gconstpointer a, gconstpointer b)
{
  const GstCudaVisionWeighted *x = a, *y = b;

  return (x->value > y->value) - (x->value < y->value);
}

/* The definition, by sorting: the smallest value whose weight with all
 * smaller ones reaches half the total (all alike without any weight). */
static gfloat
sorted_weighted_median (GstCudaVisionWeighted * pairs, gsize n)
{
  gdouble total = 0.0, sum = 0.0;
  gboolean alike;

  qsort (pairs, n, sizeof (*pairs), compare_weighted);
  for (gsize i = 0; i < n; i++)
    total += pairs[i].weight;
  alike = total <= 0.0;
  if (alike)
    total = n;
  for (gsize i = 0; i < n; i++) {
    sum += alike ? 1.0 : pairs[i].weight;
    if (sum >= total / 2.0)
      return pairs[i].value;
  }
  return pairs[n - 1].value;
}

/* Each frame's device time is read without a wait while frames flow, and
 * the pairs still in flight at the end with one; a frame whose slot is
 * still busy goes untimed rather than holding the host. */
GST_START_TEST (test_work_timer)
{
  GstCudaVisionDevice *device = open_device ();
  cvcore_device *core = gst_cuda_vision_device_get_core (device);
  const gboolean cpu = cvcore_device_backend (core) == CVCORE_BACKEND_CPU;
  GstCudaVisionWorkTimer *timer = gst_cuda_vision_work_timer_new (core);
  cvcore_stream *stream;
  guint frames = 0;
  gdouble median_ms = 0, p99_ms = 0;

  fail_unless (timer != NULL);
  fail_unless_equals_int (cvcore_stream_new (core, &stream), CVCORE_OK);
  fail_if (gst_cuda_vision_work_timer_summarise (timer, &frames, &median_ms,
          &p99_ms));
  fail_unless_equals_int (frames, 0);
  for (guint i = 0; i < 12; i++) {
    gst_cuda_vision_work_timer_begin (timer, stream);
    /* 3 ms of work: the host's own on the CPU backend */
    if (cpu) {
      g_usleep (3000);
    } else {
      fail_unless_equals_int (cvcore_stream_delay (stream, 3), CVCORE_OK);
    }
    gst_cuda_vision_work_timer_end (timer, stream);
  }
  fail_unless (gst_cuda_vision_work_timer_summarise (timer, &frames,
          &median_ms, &p99_ms));
  /* on the device the host queues all twelve at once: eight slots */
  if (cpu) {
    fail_unless_equals_int (frames, 12);
  } else {
    fail_unless (frames >= 8 && frames <= 12, "%u frames timed", frames);
  }
  fail_unless (median_ms >= 2.9 && median_ms < 100, "median %f", median_ms);
  fail_unless (p99_ms >= median_ms);
  /* the count starts again */
  fail_if (gst_cuda_vision_work_timer_summarise (timer, &frames, &median_ms,
          &p99_ms));
  cvcore_stream_free (stream);
  gst_cuda_vision_work_timer_free (timer);
  gst_object_unref (device);
}

GST_END_TEST;

/* The weighted median by selection equals the one by sorting, with ties,
 * signed zeros, zero weights, no weight at all, one value throughout,
 * values a few ulps apart, one pair and a frame's worth of pairs. */
GST_START_TEST (test_weighted_median)
{
  GRand *rand = g_rand_new_with_seed (5);

  for (guint trial = 0; trial < 2000; trial++) {
    /* now and then a frame's worth of tiles */
    gsize n = trial % 100 == 1 ? g_rand_int_range (rand, 1000, 40000) :
        g_rand_int_range (rand, 1, 60);
    GstCudaVisionWeighted *a = g_new (GstCudaVisionWeighted, n);
    GstCudaVisionWeighted *b = g_new (GstCudaVisionWeighted, n);

    for (gsize i = 0; i < n; i++) {
      /* few distinct values in some trials, so that ties are common */
      a[i].value = trial % 3 ? (gfloat) g_rand_double_range (rand, -8, 8) :
          (gfloat) g_rand_int_range (rand, -2, 3);
      /* minus and plus zero are equal values */
      if (trial % 50 == 3)
        a[i].value = g_rand_boolean (rand) ? -0.0f : 0.0f;
      /* one value throughout (a rig's dy), or values a few ulps apart */
      if (trial % 7 == 5)
        a[i].value = 4.25f;
      else if (trial % 11 == 4)
        a[i].value = 4.0f + (gfloat) g_rand_int_range (rand, -40, 41) * 1e-6f;
      a[i].weight = trial % 10 == 0 ? 0.0f :
          g_rand_int_range (rand, 0, 4) == 0 ? 0.0f :
          (gfloat) g_rand_double (rand);
    }
    memcpy (b, a, n * sizeof (*a));
    fail_unless_equals_float (gst_cuda_vision_weighted_median (a, n),
        sorted_weighted_median (b, n));
    g_free (a);
    g_free (b);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
internal_suite (void)
{
  Suite *s = suite_create ("internal");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_filter_copies);
  tcase_add_test (tc, test_filter_in_place);
  tcase_add_test (tc, test_filter_refuses_system_memory);
  tcase_add_test (tc, test_filter_device_id_mismatch);
  tcase_add_test (tc, test_memory_layout_and_host_maps);
  tcase_add_test (tc, test_device_frames_follow_their_meta);
  tcase_add_test (tc, test_device_pool);
  tcase_add_test (tc, test_device_pool_rotation);
  tcase_add_test (tc, test_weighted_median);
  tcase_add_test (tc, test_work_timer);
  suite_add_tcase (s, tc);
  return s;
}

static void
register_elements (void)
{
  if (!cvtest_register_linked_plugin ()
      || !gst_element_register (NULL, "cvtestcopy", GST_RANK_NONE,
          cv_test_copy_get_type ()))
    g_error ("cannot register the elements under test");
}

static Suite *
internal_suite_registered (void)
{
  register_elements ();
  return internal_suite ();
}

int
main (int argc, char **argv)
{
  return cvtest_main (argc, argv, internal_suite_registered);
}
